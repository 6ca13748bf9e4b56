//! `tools/call` to a stdio upstream without the SDK's session in the way: the request
//! line is written beside the SDK's ([`Lines`]) and the answer taken off the server's
//! output before the SDK reads it. The SDK's session moves every message through
//! channels and tasks of its own and reads each answer against every result type it
//! knows; a call is most of what a gateway forwards, so it goes the short way.
//!
//! The notifications a relay passes on are taken off the output too, and handed on in
//! the order the server wrote them ([`Router`]): a call's progress and log messages are
//! relayed before its answer is handed over.
//!
//! Everything else (the handshake, listings, the server's own requests) stays with the
//! SDK. Requests made here carry string ids of their own (`express-N`), which the SDK's
//! numeric ones never equal, and the same string as their progress token.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use memchr::memmem::Finder;

use rmcp::ErrorData;
use rmcp::model::{JsonObject, NumberOrString, ProgressToken, RequestId, ServerJsonRpcMessage};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};
use tokio::sync::oneshot;

use crate::lines::Lines;
use crate::relay::{self, Calls, Origin, Relay};

/// The start of every id this module sends, as it appears in the server's answer.
const ID_PREFIX: &str = "express-";

/// The calls one stdio upstream has not answered yet, and the line writer to its input.
pub(crate) struct Express {
    lines: Lines,
    waiting: Arc<Waiting>,
    calls: Arc<Calls>,
    next: AtomicU64,
}

impl std::fmt::Debug for Express {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Express").finish_non_exhaustive()
    }
}

/// The answers awaited, by request id; shared with the router of the server's output.
/// `None` once that output ended.
#[derive(Debug)]
pub(crate) struct Waiting(Mutex<Option<HashMap<String, oneshot::Sender<Vec<u8>>>>>);

type Waiters = Option<HashMap<String, oneshot::Sender<Vec<u8>>>>;

impl Default for Waiting {
    fn default() -> Waiting {
        Waiting(Mutex::new(Some(HashMap::new())))
    }
}

impl Waiting {
    fn lock(&self) -> std::sync::MutexGuard<'_, Waiters> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Hands `line`, the answer to call `id`, to its caller (if it still waits).
    fn deliver(&self, id: &str, line: Vec<u8>) {
        if let Some(waiter) = self.lock().as_mut().and_then(|w| w.remove(id)) {
            // A caller that gave up no longer waits: the answer is dropped either way.
            let _ = waiter.send(line);
        }
    }

    /// The server's output ended: every caller still waiting is told, and every later
    /// one at once.
    pub(crate) fn close(&self) {
        self.lock().take();
    }
}

/// What the filter on a server's output took, for the router, in order.
#[derive(Debug)]
pub(crate) enum Routed {
    /// The answer to call `id` of this module's.
    Answer(String, Vec<u8>),
    /// A notification for the relay.
    Notify(Vec<u8>),
}

/// The parts of a line off the server's output that tell what it is.
#[derive(Deserialize)]
struct Head<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Option<&'a str>,
}

/// Where the filter sends what it takes. An answer goes straight to its caller while no
/// notification waits to be relayed (most calls report nothing), through the router
/// behind those otherwise, so that it never overtakes them.
#[derive(Debug)]
pub(crate) struct Router {
    to: UnboundedSender<Routed>,
    waiting: Arc<Waiting>,
    /// Notifications sent to the router and not relayed yet.
    pending: Arc<AtomicUsize>,
}

impl Router {
    /// The router of a server's output: a task that hands notifications to `relay`
    /// (routed by `calls`) and answers to their callers in `waiting`, in order, until
    /// the output ends, and then tells the callers still waiting.
    pub(crate) fn spawn(
        waiting: Arc<Waiting>,
        relay: Option<Arc<dyn Relay>>,
        calls: Arc<Calls>,
    ) -> Router {
        let (to, taken) = tokio::sync::mpsc::unbounded_channel();
        let pending = Arc::new(AtomicUsize::new(0));
        tokio::spawn(route(
            taken,
            Arc::clone(&waiting),
            relay,
            calls,
            Arc::clone(&pending),
        ));
        Router {
            to,
            waiting,
            pending,
        }
    }

    /// A router whose task is the test's: what it takes arrives on the receiver of `to`.
    #[cfg(test)]
    pub(crate) fn sending_to(to: UnboundedSender<Routed>) -> Router {
        Router {
            to,
            waiting: Arc::default(),
            pending: Arc::default(),
        }
    }

    fn send(&self, routed: Routed) {
        match routed {
            Routed::Answer(id, line) if self.pending.load(Ordering::Acquire) == 0 => {
                self.waiting.deliver(&id, line);
            }
            routed => {
                if matches!(routed, Routed::Notify(_)) {
                    self.pending.fetch_add(1, Ordering::AcqRel);
                }
                // The router is gone only once the session is: nothing waits any more.
                let _ = self.to.send(routed);
            }
        }
    }
}

/// The filter's part: takes `line` when it answers a call made here or is a
/// notification for the relay (sending it to the router), passes it on otherwise.
pub(crate) fn take(line: Vec<u8>, router: &Router) -> Option<Vec<u8>> {
    // Nearly every line that is neither is ruled out unparsed.
    static PREFIX: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(ID_PREFIX.as_bytes()));
    static NOTIFICATION: LazyLock<Finder<'static>> =
        LazyLock::new(|| Finder::new(b"\"notifications/"));
    if PREFIX.find(&line).is_none() && NOTIFICATION.find(&line).is_none() {
        return Some(line);
    }
    // `Some(Some(id))` answers call `id`, `Some(None)` is for the relay.
    let taken = match serde_json::from_slice::<Head<'_>>(&line) {
        // A request of the server's own has a method; an answer has none.
        Ok(Head {
            id: Some(id),
            method: None,
        }) => serde_json::from_str::<String>(id.get())
            .ok()
            .filter(|id| id.starts_with(ID_PREFIX))
            .map(Some),
        Ok(Head {
            id: None,
            method: Some(method),
        }) if relay::relays(method) => Some(None),
        _ => None,
    };
    match taken {
        Some(Some(id)) => router.send(Routed::Answer(id, line)),
        Some(None) => router.send(Routed::Notify(line)),
        None => return Some(line),
    }
    None
}

/// The router's task: hands what the filter sent on, in order, answers to their
/// callers and notifications to `relay` (each one relayed before the next is looked
/// at). Once the server's output ended and everything taken is handed on, the callers
/// still waiting are told.
async fn route(
    mut taken: UnboundedReceiver<Routed>,
    waiting: Arc<Waiting>,
    relay: Option<Arc<dyn Relay>>,
    calls: Arc<Calls>,
    pending: Arc<AtomicUsize>,
) {
    while let Some(routed) = taken.recv().await {
        match routed {
            Routed::Answer(id, line) => waiting.deliver(&id, line),
            Routed::Notify(line) => {
                if let Ok(ServerJsonRpcMessage::Notification(notification)) =
                    serde_json::from_slice::<ServerJsonRpcMessage>(&line)
                {
                    relay::route(relay.as_ref(), &calls, notification.notification).await;
                } else {
                    tracing::debug!("a notification the SDK cannot read; dropped");
                }
                pending.fetch_sub(1, Ordering::AcqRel);
            }
        }
    }
    waiting.close();
}

impl Express {
    pub(crate) fn new(lines: Lines, waiting: Arc<Waiting>, calls: Arc<Calls>) -> Express {
        Express {
            lines,
            waiting,
            calls,
            next: AtomicU64::new(0),
        }
    }

    /// Calls tool `tool` with `arguments` for `origin`: the server's result object, or
    /// its error. Dropped before the answer came (the client cancelled), the call is
    /// cancelled at the server too.
    pub(crate) async fn call(
        &self,
        tool: &str,
        arguments: JsonObject,
        origin: Option<Arc<Origin>>,
    ) -> Result<Value, Failure> {
        let id = format!("{ID_PREFIX}{}", self.next.fetch_add(1, Ordering::Relaxed));
        // A client that asked for progress gets it: the call's id is its token here.
        let meta = origin
            .as_ref()
            .and_then(|o| o.progress.as_ref())
            .map(|_| Meta {
                progress_token: &id,
            });
        let mut line = serde_json::to_vec(&Request {
            jsonrpc: "2.0",
            id: &id,
            method: "tools/call",
            params: Params {
                name: tool,
                arguments: &arguments,
                meta,
            },
        })
        .map_err(|e| Failure::Session(e.to_string()))?;
        line.push(b'\n');
        let (to, answer) = oneshot::channel();
        self.waiting
            .lock()
            .as_mut()
            .ok_or_else(|| Failure::Session("the server's output ended".into()))?
            .insert(id.clone(), to);
        let request = RequestId::String(id.clone().into());
        if let Some(origin) = origin {
            let token = meta.map(|_| ProgressToken(NumberOrString::String(id.clone().into())));
            self.calls.open(request.clone(), token, origin);
        }
        // Forgets the call when it ends; cancels it at the server when its caller gave up.
        let mut open = Open {
            express: self,
            id: &id,
            request: &request,
            answered: false,
        };
        self.lines
            .send(line)
            .map_err(|e| Failure::Session(format!("cannot write to the server: {e}")))?;
        let answer = answer.await;
        open.answered = true;
        let answer = answer.map_err(|_| Failure::Session("the server's output ended".into()))?;
        match serde_json::from_slice::<Answer>(&answer) {
            Ok(Answer {
                result: Some(result),
                error: None,
            }) => Ok(result),
            Ok(Answer {
                error: Some(error), ..
            }) => Err(Failure::Refused(error)),
            Ok(_) => Err(Failure::Session(
                "the answer holds neither a result nor an error".into(),
            )),
            Err(e) => Err(Failure::Session(format!("the answer cannot be read: {e}"))),
        }
    }
}

/// A `tools/call` request, as written to the server.
#[derive(Serialize)]
struct Request<'a> {
    jsonrpc: &'static str,
    id: &'a str,
    method: &'static str,
    params: Params<'a>,
}

#[derive(Serialize)]
struct Params<'a> {
    name: &'a str,
    arguments: &'a JsonObject,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<Meta<'a>>,
}

#[derive(Serialize, Clone, Copy)]
#[serde(rename_all = "camelCase")]
struct Meta<'a> {
    progress_token: &'a str,
}

/// The server's answer to a call.
#[derive(Deserialize)]
struct Answer {
    result: Option<Value>,
    error: Option<ErrorData>,
}

/// Why an express call has no result.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The server answered with a JSON-RPC error.
    Refused(ErrorData),
    /// The session failed: the server is gone or wrote what is no answer.
    Session(String),
}

/// A call in flight: forgotten when it ends, cancelled at the server when its caller
/// stopped waiting for the answer.
struct Open<'a> {
    express: &'a Express,
    id: &'a str,
    request: &'a RequestId,
    answered: bool,
}

impl Drop for Open<'_> {
    fn drop(&mut self) {
        if let Some(waiters) = self.express.waiting.lock().as_mut() {
            waiters.remove(self.id);
        }
        self.express.calls.close(self.request);
        if !self.answered {
            let cancelled = serde_json::json!({
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": self.id, "reason": "the client cancelled the call"},
            });
            let mut line = cancelled.to_string().into_bytes();
            line.push(b'\n');
            // A server already gone has nothing to cancel.
            let _ = self.express.lines.send(line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{ClientCapabilities, ClientResult, ServerNotification, ServerRequest};
    use tokio_util::sync::CancellationToken;

    /// A relay that holds each notification until `gate` opens.
    struct Held {
        gate: Arc<tokio::sync::Notify>,
        relayed: Arc<AtomicUsize>,
    }

    impl Relay for Held {
        fn capabilities(&self) -> ClientCapabilities {
            ClientCapabilities::default()
        }

        fn notify(
            &self,
            _: ServerNotification,
            _: Option<Arc<Origin>>,
        ) -> catalog_core::BoxFuture<'static, ()> {
            let (gate, relayed) = (Arc::clone(&self.gate), Arc::clone(&self.relayed));
            Box::pin(async move {
                gate.notified().await;
                relayed.fetch_add(1, Ordering::SeqCst);
            })
        }

        fn request(
            &self,
            _: ServerRequest,
            _: Option<Arc<Origin>>,
            _: CancellationToken,
        ) -> catalog_core::BoxFuture<'static, Result<ClientResult, ErrorData>> {
            Box::pin(async { Err(ErrorData::internal_error("not asked here", None)) })
        }
    }

    fn awaiting(waiting: &Waiting, id: &str) -> oneshot::Receiver<Vec<u8>> {
        let (to, answer) = oneshot::channel();
        waiting.lock().as_mut().unwrap().insert(id.into(), to);
        answer
    }

    #[tokio::test]
    async fn answers_and_notifications_are_taken_and_an_answer_never_overtakes_a_notification() {
        let waiting = Arc::new(Waiting::default());
        let gate = Arc::new(tokio::sync::Notify::new());
        let relayed = Arc::new(AtomicUsize::new(0));
        let relay = Held {
            gate: Arc::clone(&gate),
            relayed: Arc::clone(&relayed),
        };
        let router = Router::spawn(Arc::clone(&waiting), Some(Arc::new(relay)), Arc::default());
        let passed: [&[u8]; 4] = [
            br#"{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}"#,
            // The server's own request, whatever its id.
            br#"{"jsonrpc":"2.0","id":"express-7","method":"ping"}"#,
            // Not a notification the relay passes on.
            br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#,
            br#"{"jsonrpc":"2.0","id":4,"result":{"text":"express-7"}}"#,
        ];
        for line in passed {
            assert_eq!(take(line.to_vec(), &router).as_deref(), Some(line));
        }

        // With nothing to relay, an answer reaches its caller at once.
        let mut first = awaiting(&waiting, "express-6");
        let answer = br#"{"jsonrpc":"2.0","id":"express-6","result":{"content":[]}}"#;
        assert_eq!(take(answer.to_vec(), &router), None);
        assert_eq!(first.try_recv().unwrap(), answer.to_vec());

        // Behind a log message the relay holds, the answer waits for it.
        let mut second = awaiting(&waiting, "express-7");
        let log = br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#;
        let answer = br#"{"jsonrpc":"2.0", "id": "express-7", "result":{"content":[]}}"#;
        assert_eq!(take(log.to_vec(), &router), None);
        assert_eq!(take(answer.to_vec(), &router), None);
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        assert!(
            second.try_recv().is_err(),
            "the answer overtook the log message"
        );
        gate.notify_one();
        assert_eq!(second.await.unwrap(), answer.to_vec());
        assert_eq!(relayed.load(Ordering::SeqCst), 1);

        // The output ended: later calls are told at once.
        drop(router);
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        assert!(waiting.lock().is_none());
    }
}
