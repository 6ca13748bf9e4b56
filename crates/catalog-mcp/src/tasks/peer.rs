//! A handler's context in a call that may become a task. [`TaskPeer`] carries it to the
//! client as [`ClientPeer`] does, between rounds, until the call is a task; from then on
//! to the task: its questions are the task's `inputRequests` and the handler waits for
//! the answers `tasks/update` brings ([`TaskRounds`]), its progress is the task's
//! `statusMessage`, and its log messages go nowhere (a task carries none).

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::task::{Context as TaskContext, Poll};

use catalog_core::talk::{
    Capability, Declared, Elicited, LogLevel, Peer, Progress, Question, Root, Rounds, Sampled,
    Sampling, TalkError,
};
use catalog_core::{BoxFuture, Map, UrlElicitation, Value};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::Tasks;
use crate::rounds::Round;
use crate::talk::ClientPeer;

/// The client of a call that may become a task, as its handler's context reaches it.
pub struct TaskPeer {
    /// The client between the rounds of `round`, until the call is a task.
    client: ClientPeer,
    round: Arc<Round>,
    /// The task, once the call is one.
    task: OnceLock<TaskRounds>,
    /// Cancelled with the request before the call is a task, with the task after.
    cancel: CancellationToken,
}

impl std::fmt::Debug for TaskPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskPeer")
            .field("client", &self.client)
            .field("task", &self.task.get().map(|t| &t.id))
            .finish_non_exhaustive()
    }
}

impl TaskPeer {
    /// `client`, asked between the rounds of `round`, whose call may become a task;
    /// `cancel` says when the call was cancelled.
    #[must_use]
    pub fn new(client: ClientPeer, round: Arc<Round>, cancel: CancellationToken) -> TaskPeer {
        TaskPeer {
            client,
            round,
            task: OnceLock::new(),
            cancel,
        }
    }

    /// From now on the call is task `id` of `tasks`: what the handler asks is the task's,
    /// and the answers the call brought still answer.
    pub(crate) fn promote(&self, tasks: Tasks, id: String) {
        let rounds = TaskRounds {
            tasks,
            id,
            answers: Mutex::new(self.round.answers().clone()),
            waiting: Mutex::new(HashMap::new()),
        };
        let _ = self.task.set(rounds);
    }
}

/// The rounds of a task: each question is put to the task, and the handler waits for its
/// answer.
pub struct TaskRounds {
    tasks: Tasks,
    id: String,
    /// Every answer so far: those the call brought before it was a task, and those the
    /// task got, so a question asked again under its key gets the answer it has.
    answers: Mutex<Map<String, Value>>,
    /// The answer each question put waits for, until the handler waits for it.
    waiting: Mutex<HashMap<String, Result<oneshot::Receiver<Value>, TalkError>>>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Rounds for TaskRounds {
    fn answer(&self, key: &str) -> Option<Value> {
        lock(&self.answers).get(key).cloned()
    }

    fn ask(&self, key: String, question: Question) {
        let answer = self.tasks.ask(&self.id, &key, question);
        lock(&self.waiting).insert(key, answer);
    }

    fn unreadable(&self, key: String, why: String) {
        // Answers are checked before they reach the handler, so this is a handler's
        // question asked again in another shape under the same key.
        tracing::warn!(task = %self.id, %key, %why, "an answer given before does not answer the question asked again");
    }

    fn undeclared(&self, _: Capability) {}

    fn wait(&self, key: &str) -> BoxFuture<'_, Result<Value, TalkError>> {
        let waiting = lock(&self.waiting).remove(key);
        let key = key.to_owned();
        Box::pin(async move {
            let answered = waiting.unwrap_or_else(|| {
                Err(TalkError::Invalid(format!("no question `{key}` was asked")))
            })?;
            let answer = answered
                .await
                .map_err(|_| TalkError::Gone(String::from("the task ended")))?;
            lock(&self.answers).insert(key, answer.clone());
            Ok(answer)
        })
    }
}

/// A future that waits once, waking at once: what lets the driver of a call see that
/// the handler wants to go on as a task.
struct Yield(bool);

impl Future for Yield {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<()> {
        if self.0 {
            return Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

/// A task's status message for `progress`.
fn status(progress: &Progress) -> String {
    match (&progress.message, progress.total) {
        (Some(message), _) => message.clone(),
        (None, Some(total)) => format!("{} of {total}", progress.progress),
        (None, None) => progress.progress.to_string(),
    }
}

impl Peer for TaskPeer {
    fn declared(&self) -> Declared {
        self.client.declared()
    }

    fn progress(&self, progress: Progress) -> BoxFuture<'_, Result<(), TalkError>> {
        Box::pin(async move {
            match self.task.get() {
                Some(task) => task.tasks.status(&task.id, status(&progress)),
                // The call may become a task while the notification waits to go out,
                // its request answered: the handler goes on either way.
                None => drop(self.client.progress(progress).await),
            }
            Ok(())
        })
    }

    fn log(
        &self,
        level: LogLevel,
        logger: Option<String>,
        data: Value,
    ) -> BoxFuture<'_, Result<(), TalkError>> {
        Box::pin(async move {
            if self.task.get().is_none() {
                drop(self.client.log(level, logger, data).await);
            }
            Ok(())
        })
    }

    fn elicit_form(
        &self,
        message: String,
        schema: Map<String, Value>,
    ) -> BoxFuture<'_, Result<Elicited, TalkError>> {
        self.client.elicit_form(message, schema)
    }

    fn elicit_url(&self, request: UrlElicitation) -> BoxFuture<'_, Result<Elicited, TalkError>> {
        self.client.elicit_url(request)
    }

    fn sample(&self, request: Sampling) -> BoxFuture<'_, Result<Sampled, TalkError>> {
        self.client.sample(request)
    }

    fn roots(&self) -> BoxFuture<'_, Result<Vec<Root>, TalkError>> {
        self.client.roots()
    }

    fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    fn cancelled(&self) -> BoxFuture<'static, ()> {
        Box::pin(self.cancel.clone().cancelled_owned())
    }

    fn rounds(&self) -> Option<&dyn Rounds> {
        match self.task.get() {
            Some(task) => Some(task),
            None => Some(&*self.round),
        }
    }

    fn as_task(&self) -> BoxFuture<'_, ()> {
        if self.task.get().is_some() {
            Box::pin(std::future::ready(()))
        } else {
            Box::pin(Yield(false))
        }
    }
}
