//! `tools/call` to a stdio upstream without the SDK's session in the way: the request
//! line is written beside the SDK's ([`Lines`]) and the answer taken off the server's
//! output before the SDK reads it. The SDK's session moves every message through
//! channels and tasks of its own and reads each answer against every result type it
//! knows; a call is most of what a gateway forwards, so it goes the short way.
//!
//! Everything else (the handshake, listings, notifications, the server's own requests)
//! stays with the SDK. Requests made here carry string ids of their own (`express-N`),
//! which the SDK's numeric ones never equal.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use memchr::memmem::Finder;

use rmcp::ErrorData;
use rmcp::model::JsonObject;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::oneshot;

use crate::lines::Lines;

/// The start of every id this module sends, as it appears in the server's answer.
const ID_PREFIX: &str = "express-";

/// The calls one stdio upstream has not answered yet, and the line writer to its input.
#[derive(Debug)]
pub(crate) struct Express {
    lines: Lines,
    waiting: Arc<Waiting>,
    next: AtomicU64,
}

/// The answers awaited, by request id; shared with the filter on the server's output.
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

    /// The filter's part: takes `line` when it answers a call made here (handing it to
    /// its caller), passes it on otherwise.
    pub(crate) fn take(&self, line: Vec<u8>) -> Option<Vec<u8>> {
        // Nearly every line that is no answer of ours is ruled out unparsed.
        static PREFIX: LazyLock<Finder<'static>> =
            LazyLock::new(|| Finder::new(ID_PREFIX.as_bytes()));
        if PREFIX.find(&line).is_none() {
            return Some(line);
        }
        let id = match serde_json::from_slice::<Head<'_>>(&line) {
            // A request of the server's own has a method; an answer has none.
            Ok(Head {
                id: Some(id),
                method: None,
            }) => serde_json::from_str::<String>(id.get()).ok(),
            _ => None,
        };
        let Some(waiter) = id.and_then(|id| self.lock().as_mut()?.remove(&id)) else {
            return Some(line);
        };
        // A caller that gave up no longer waits: the answer is dropped either way.
        let _ = waiter.send(line);
        None
    }

    /// The server's output ended: every caller still waiting is told, and every later
    /// one at once.
    pub(crate) fn close(&self) {
        self.lock().take();
    }
}

/// Closes [`Waiting`] when dropped: owned by the filter, which the SDK's session drops
/// once the server's output ended.
pub(crate) struct Closes(pub(crate) Arc<Waiting>);

impl Drop for Closes {
    fn drop(&mut self) {
        self.0.close();
    }
}

impl Express {
    pub(crate) fn new(lines: Lines, waiting: Arc<Waiting>) -> Express {
        Express {
            lines,
            waiting,
            next: AtomicU64::new(0),
        }
    }

    /// Calls tool `tool` with `arguments`: the server's result object, or its error.
    pub(crate) async fn call(&self, tool: &str, arguments: JsonObject) -> Result<Value, Failure> {
        let id = format!("{ID_PREFIX}{}", self.next.fetch_add(1, Ordering::Relaxed));
        let mut line = serde_json::to_vec(&Request {
            jsonrpc: "2.0",
            id: &id,
            method: "tools/call",
            params: Params {
                name: tool,
                arguments: &arguments,
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
        // Removes the entry when the caller stops waiting before the answer came.
        let _waiting = Forget(&self.waiting, &id);
        self.lines
            .send(line)
            .map_err(|e| Failure::Session(format!("cannot write to the server: {e}")))?;
        let answer = answer
            .await
            .map_err(|_| Failure::Session("the server's output ended".into()))?;
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

/// The parts of a line off the server's output that tell an answer to a call made here.
#[derive(Deserialize)]
struct Head<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Option<&'a RawValue>,
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

struct Forget<'a>(&'a Waiting, &'a str);

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        if let Some(waiters) = self.0.lock().as_mut() {
            waiters.remove(self.1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_answers_to_ids_awaited_are_taken() {
        let waiting = Waiting::default();
        let (to, mut answer) = oneshot::channel();
        waiting
            .lock()
            .as_mut()
            .unwrap()
            .insert("express-7".into(), to);
        let others: [&[u8]; 3] = [
            br#"{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}"#,
            // The server's own request, whatever its id.
            br#"{"jsonrpc":"2.0","id":"express-7","method":"ping"}"#,
            br#"{"jsonrpc":"2.0","id":"express-8","result":{}}"#,
        ];
        for line in others {
            assert_eq!(waiting.take(line.to_vec()).as_deref(), Some(line));
        }
        let ours = br#"{"jsonrpc":"2.0", "id": "express-7", "result":{"content":[]}}"#;
        assert_eq!(waiting.take(ours.to_vec()), None);
        assert_eq!(answer.try_recv().unwrap(), ours.to_vec());
        assert!(waiting.lock().as_ref().unwrap().is_empty());
        waiting.close();
        let line = br#"{"jsonrpc":"2.0","id":"express-9","result":{}}"#;
        assert!(waiting.take(line.to_vec()).is_some());
    }
}
