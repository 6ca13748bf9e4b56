//! MCP's tasks extension (`io.modelcontextprotocol/tasks`, on 2026-07-28): a call of a
//! tool whose row says `task`, from a client that declared the extension in the request,
//! may be answered with a task instead of its result. The client polls `tasks/get` for
//! its state, its questions (`inputRequests`) and in the end its result or error, answers
//! the questions with `tasks/update`, and cancels it with `tasks/cancel`.
//!
//! **When a call becomes a task** ([`crate::calls::task`]): it runs as any call until its handler first
//! waits on anything but the client's answers (its work, a timer, another service), or
//! says so with [`Context::as_task`](catalog_core::Context::as_task). Questions asked
//! before that are asked between rounds as on any call, so a handler gathers what it needs
//! before the task exists, as the extension advises; one that finishes at once answers at
//! once. From there the handler goes on in the background, its future moved as it
//! stands, and the client gets the task. Its questions are then the task's, and it waits
//! for the answers `tasks/update` brings ([`peer`]): it is not run again.
//!
//! **This module** holds the tasks ([`Tasks`]): each one's state, its owner, its
//! questions and how it ended. A task is the client's that started it (its grant's
//! client): to anyone else its id names no task. Its id is 128 random bits. It is kept
//! while it runs and for [`RETAINED`] after it ends; cancelling it drops the handler's
//! future where it waits, as a cancelled call's is, and its context says it was
//! cancelled. A handler that panics fails its task with an internal error.

pub mod peer;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use catalog_core::talk::{Question, TalkError, rounds};
use catalog_core::{BoxFuture, Value};
use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, DetailedTask, GetTaskResult, InputRequest, InputRequests, InputResponses,
    JsonObject, Task, TaskPayload, TaskStatus,
};
use rmcp::task_manager::current_timestamp;
use tokio::sync::oneshot;
use tokio::task::{AbortHandle, JoinHandle};
use tokio_util::sync::CancellationToken;

/// What a call answers: the call path's, as a task keeps it.
type Reply = Result<CallToolResponse, ErrorData>;

/// How long an ended task stays readable: time for a client that polls now and then to
/// read how it ended.
pub const RETAINED: Duration = Duration::from_secs(60 * 60);

/// How often a client is asked to poll a task, in milliseconds.
pub const POLL_INTERVAL_MS: u64 = 500;

/// The tasks of one server, shared by its connections.
#[derive(Clone, Default)]
pub struct Tasks(Arc<Mutex<HashMap<String, Entry>>>);

impl std::fmt::Debug for Tasks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tasks")
            .field("kept", &self.lock().len())
            .finish()
    }
}

/// One task.
struct Entry {
    /// The client that started it: the only one it is shown to.
    owner: Arc<str>,
    /// The tool it runs, for the log.
    tool: String,
    task: Task,
    created: Instant,
    /// How it ended, and when.
    ended: Option<(TaskPayload, Instant)>,
    /// The questions its handler waits on, by key.
    questions: BTreeMap<String, Asked>,
    /// What its handler's context says of cancellation.
    cancel: CancellationToken,
    /// Drops the handler's future.
    abort: Option<AbortHandle>,
}

/// A question the handler waits on.
struct Asked {
    request: InputRequest,
    question: Question,
    answer: oneshot::Sender<Value>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A task id: 128 bits from the system's random number source, which no client can guess.
fn new_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system's random number source");
    format!("{:032x}", u128::from_be_bytes(bytes))
}

/// `value` as the JSON object a task inlines.
fn object(value: impl serde::Serialize) -> JsonObject {
    match serde_json::to_value(value) {
        Ok(Value::Object(object)) => object,
        _ => JsonObject::new(),
    }
}

/// Whole milliseconds, as the wire's `ttlMs` counts.
fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// What a task id that names no task of this client is answered with.
fn unknown(id: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!(
            "no task `{id}` here: a task is known to the client that started it, while it runs and for {} minutes after it ends; call the tool again for a new one",
            RETAINED.as_secs() / 60
        ),
        None,
    )
}

impl Entry {
    fn touch(&mut self) {
        self.task.last_updated_at = current_timestamp();
    }

    fn detailed(&self) -> DetailedTask {
        let payload = match &self.ended {
            Some((payload, _)) => payload.clone(),
            None if !self.questions.is_empty() => TaskPayload::InputRequired {
                input_requests: self
                    .questions
                    .iter()
                    .map(|(key, asked)| (key.clone(), asked.request.clone()))
                    .collect::<InputRequests>(),
            },
            None => TaskPayload::Working,
        };
        DetailedTask::new(self.task.clone(), payload)
    }

    /// Ends the task with `payload`, unless it ended already: its questions withdrawn,
    /// and kept for [`RETAINED`] from now, which its `ttlMs` then says.
    fn end(&mut self, payload: TaskPayload) -> bool {
        if self.ended.is_some() {
            return false;
        }
        let now = Instant::now();
        self.task.status = payload.status();
        self.task.ttl_ms = Some(millis(now - self.created + RETAINED));
        self.ended = Some((payload, now));
        self.questions.clear();
        self.cancel.cancel();
        self.touch();
        true
    }
}

impl Tasks {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        let mut tasks = lock(&self.0);
        tasks.retain(|_, entry| {
            entry
                .ended
                .as_ref()
                .is_none_or(|(_, at)| at.elapsed() < RETAINED)
        });
        tasks
    }

    /// A task for a call of `tool` by `owner` already under way, readable with
    /// [`Tasks::get`] from now on; `cancel` is what its handler's context says of
    /// cancellation. Its id, and the task as the call is answered with it; [`Tasks::run`]
    /// then runs the call.
    pub(crate) fn open(&self, owner: Arc<str>, tool: &str, cancel: CancellationToken) -> Task {
        let id = new_id();
        let now = current_timestamp();
        let mut task = Task::new(id.clone(), TaskStatus::Working, now.clone(), now);
        task.ttl_ms = Some(millis(RETAINED));
        task.poll_interval_ms = Some(POLL_INTERVAL_MS);
        let entry = Entry {
            owner,
            tool: tool.to_owned(),
            task: task.clone(),
            created: Instant::now(),
            ended: None,
            questions: BTreeMap::new(),
            cancel,
            abort: None,
        };
        self.lock().insert(id, entry);
        task
    }

    /// Runs `run`, the call of task `id`, to its end in the background, and records how
    /// it ended.
    pub(crate) fn run(&self, id: &str, run: BoxFuture<'static, Reply>) {
        let running = tokio::spawn(run);
        match self.lock().get_mut(id) {
            Some(entry) if entry.ended.is_none() => entry.abort = Some(running.abort_handle()),
            _ => running.abort(),
        }
        tokio::spawn(self.clone().settle(id.to_owned(), running));
    }

    /// Waits for the handler of task `id` to end, and records how.
    async fn settle(self, id: String, running: JoinHandle<Reply>) {
        let payload = match running.await {
            Ok(Ok(CallToolResponse::Complete(result))) => TaskPayload::Completed {
                result: object(result),
            },
            Ok(Ok(_)) => TaskPayload::Failed {
                error: object(ErrorData::internal_error(
                    "the call asked between rounds after it became a task",
                    None,
                )),
            },
            Ok(Err(error)) => TaskPayload::Failed {
                error: object(error),
            },
            Err(ended) if ended.is_panic() => TaskPayload::Failed {
                error: object(ErrorData::internal_error(
                    "the tool's handler panicked; the server's log says where",
                    None,
                )),
            },
            Err(_) => TaskPayload::Cancelled,
        };
        let mut tasks = self.lock();
        let Some(entry) = tasks.get_mut(&id) else {
            return;
        };
        entry.abort = None;
        if let TaskPayload::Failed { error } = &payload {
            entry.task.status_message = error
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_owned);
        }
        let status = payload.status();
        if entry.end(payload) {
            tracing::info!(task = %id, tool = %entry.tool, ?status, "task ended");
        }
    }

    /// `tasks/get`: the task `id` of `owner` as it stands.
    ///
    /// # Errors
    /// Invalid params when `owner` has no such task.
    pub fn get(&self, owner: &str, id: &str) -> Result<GetTaskResult, ErrorData> {
        let tasks = self.lock();
        let entry = tasks
            .get(id)
            .filter(|e| &*e.owner == owner)
            .ok_or_else(|| unknown(id))?;
        Ok(GetTaskResult::new(entry.detailed()))
    }

    /// `tasks/update`: the answers to questions task `id` of `owner` waits on go to its
    /// handler; answers to keys it does not wait on are ignored, as the extension says.
    /// Nothing is delivered when any answer does not answer its question.
    ///
    /// # Errors
    /// Invalid params when `owner` has no such task, or naming each answer that does not
    /// answer its question and what it should have been.
    pub fn update(
        &self,
        owner: &str,
        id: &str,
        responses: InputResponses,
    ) -> Result<(), ErrorData> {
        let mut tasks = self.lock();
        let entry = tasks
            .get_mut(id)
            .filter(|e| &*e.owner == owner)
            .ok_or_else(|| unknown(id))?;
        let unreadable: Vec<String> = responses
            .iter()
            .filter_map(|(key, answer)| {
                let asked = entry.questions.get(key)?;
                let expected = rounds::answers(&asked.question, answer).err()?;
                Some(format!("`{key}` is not {expected}"))
            })
            .collect();
        if !unreadable.is_empty() {
            return Err(ErrorData::invalid_params(
                format!(
                    "inputResponses: {}; nothing was delivered: answer each question with the result its method returns",
                    unreadable.join("; ")
                ),
                None,
            ));
        }
        let mut delivered = false;
        for (key, answer) in responses {
            if let Some(asked) = entry.questions.remove(&key) {
                // A handler that no longer waits (its task ended meanwhile) drops it.
                let _ = asked.answer.send(answer);
                delivered = true;
            }
        }
        if delivered {
            entry.touch();
        }
        Ok(())
    }

    /// `tasks/cancel`: task `id` of `owner` ends as cancelled, its handler's future
    /// dropped where it waits; a task that ended already stays as it ended.
    ///
    /// # Errors
    /// Invalid params when `owner` has no such task.
    pub fn cancel(&self, owner: &str, id: &str) -> Result<(), ErrorData> {
        let mut tasks = self.lock();
        let entry = tasks
            .get_mut(id)
            .filter(|e| &*e.owner == owner)
            .ok_or_else(|| unknown(id))?;
        if entry.end(TaskPayload::Cancelled) {
            if let Some(abort) = entry.abort.take() {
                abort.abort();
            }
            tracing::info!(task = %id, tool = %entry.tool, "task cancelled by its client");
        }
        Ok(())
    }

    /// Puts `question` under `key` to task `id`'s client: the answer, once `tasks/update`
    /// brings it.
    ///
    /// # Errors
    /// What about the question MCP cannot carry; that the key was asked already in this
    /// task; that the task ended.
    fn ask(
        &self,
        id: &str,
        key: &str,
        question: Question,
    ) -> Result<oneshot::Receiver<Value>, TalkError> {
        let request = crate::talk::input_request(question.clone())?;
        let mut tasks = self.lock();
        let entry = tasks
            .get_mut(id)
            .filter(|e| e.ended.is_none())
            .ok_or_else(|| TalkError::Gone(String::from("the task ended")))?;
        if entry.questions.contains_key(key) {
            return Err(TalkError::Invalid(format!(
                "question `{key}` waits for its answer already: give each question of a call its own key"
            )));
        }
        let (answer, answered) = oneshot::channel();
        entry.questions.insert(
            key.to_owned(),
            Asked {
                request,
                question,
                answer,
            },
        );
        entry.touch();
        Ok(answered)
    }

    /// Says where task `id` stands, in its `statusMessage`.
    fn status(&self, id: &str, message: String) {
        if let Some(entry) = self.lock().get_mut(id).filter(|e| e.ended.is_none()) {
            entry.task.status_message = Some(message);
            entry.touch();
        }
    }
}
