//! Asking the client's user about a gated call through MCP form elicitation, the way the
//! session's protocol revision asks.
//!
//! - Up to 2025-11-25 the server sends `elicitation/create` to the client while the call
//!   is open and waits for the answer ([`ASK_TIMEOUT`] at most).
//! - From 2026-07-28 on a server may no longer send requests to the client mid-call
//!   (multi round-trip requests, SEP-2322): it answers the call with an input-required
//!   result that carries the same question under [`QUESTION`] and a `requestState`, and the
//!   client asks its user and calls the tool again with the answer and that state. The
//!   state is a handle to a question this server keeps ([`Questions`]): it names one call
//!   (the tool and its arguments) for one bearer token, is good for one retry, and
//!   lapses after [`ASK_TIMEOUT`]. A retry whose state is unknown, spent, stale, or made
//!   for another call or token is asked again, never run.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::request::Parts;
use catalog_core::{ToolId, Value};
use rmcp::model::{
    CallToolRequestParams, ElicitRequest, ElicitRequestParams, ElicitationAction,
    ElicitationSchema, InputRequest, InputRequiredResult, InputResponses, ProtocolVersion,
};
use rmcp::service::{RequestContext, RoleServer};

use crate::gate::{Answer, Asker, question};
use crate::tokens::Grant;

/// How long a person has to answer before the call is refused; on 2026-07-28, how long
/// a question waits for the client's retry.
pub const ASK_TIMEOUT: Duration = Duration::from_secs(120);

/// The key of the question in an input-required result's `inputRequests`, and of its
/// answer in the retry's `inputResponses`.
pub const QUESTION: &str = "approve";

/// The first revision that asks through input-required results instead of requests to the
/// client.
pub const INPUT_REQUIRED_SINCE: ProtocolVersion = ProtocolVersion::V_2026_07_28;

/// What a 2026-07-28 retry of a call carries besides the call: the state the server
/// handed out with its question, echoed, and the client's answers.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Retry {
    /// The `requestState` of the input-required result being answered.
    pub request_state: Option<String>,
    /// The answers, by the keys of the questions.
    pub input_responses: Option<InputResponses>,
}

impl Retry {
    /// Takes the retry's fields out of a `tools/call`.
    #[must_use]
    pub fn take(request: &mut CallToolRequestParams) -> Retry {
        Retry {
            request_state: request.request_state.take(),
            input_responses: request.input_responses.take(),
        }
    }
}

/// The questions this server put in input-required results and no retry has answered
/// yet; shared by every connection of the server.
#[derive(Debug)]
pub struct Questions {
    open: Mutex<HashMap<String, Open>>,
    /// Random per process, so a state from an earlier run, or guessed, names nothing.
    keys: RandomState,
    next: AtomicU64,
}

/// One call the user was asked about.
#[derive(Debug)]
struct Open {
    tool: &'static str,
    arguments: Value,
    /// The client the call came from over HTTP ([`Grant::client`]); `None` over stdio,
    /// where the process has one client.
    principal: Option<Arc<str>>,
    asked: Instant,
}

impl Default for Questions {
    fn default() -> Questions {
        Questions::new()
    }
}

impl Questions {
    /// No open questions.
    #[must_use]
    pub fn new() -> Questions {
        Questions {
            open: Mutex::new(HashMap::new()),
            keys: RandomState::new(),
            next: AtomicU64::new(0),
        }
    }

    /// Opens a question about `tool` with `arguments` for `principal`: its state.
    fn open(&self, tool: &'static str, arguments: &Value, principal: Option<Arc<str>>) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let state = format!(
            "{:016x}{:016x}",
            self.keys.hash_one((n, 0u8)),
            self.keys.hash_one((n, 1u8))
        );
        let mut open = self.lock();
        open.retain(|_, question| question.asked.elapsed() < ASK_TIMEOUT);
        open.insert(
            state.clone(),
            Open {
                tool,
                arguments: arguments.clone(),
                principal,
                asked: Instant::now(),
            },
        );
        state
    }

    /// Closes the question `state` names, and says whether it was asked about exactly
    /// this call, for this principal, and is still fresh. A state is good for one retry.
    fn close(
        &self,
        state: &str,
        tool: &'static str,
        arguments: &Value,
        principal: Option<&str>,
    ) -> bool {
        self.lock().remove(state).is_some_and(|open| {
            open.tool == tool
                && open.arguments == *arguments
                && open.principal.as_deref() == principal
                && open.asked.elapsed() < ASK_TIMEOUT
        })
    }

    /// How many questions wait for their retry.
    #[must_use]
    pub fn waiting(&self) -> usize {
        let mut open = self.lock();
        open.retain(|_, question| question.asked.elapsed() < ASK_TIMEOUT);
        open.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Open>> {
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Asks the client that sent the request being answered.
pub struct PeerAsker<'a> {
    context: &'a RequestContext<RoleServer>,
    questions: &'a Questions,
    retry: Retry,
}

impl<'a> PeerAsker<'a> {
    /// An asker for the client that sent this request; `questions` are the server's open
    /// ones, and `retry` what the request carries in answer to one (2026-07-28).
    #[must_use]
    pub fn new(
        context: &'a RequestContext<RoleServer>,
        questions: &'a Questions,
        retry: Retry,
    ) -> PeerAsker<'a> {
        PeerAsker {
            context,
            questions,
            retry,
        }
    }

    /// Whether this client takes form elicitation: it said so in `initialize`, or, from
    /// 2026-07-28 on, in this request's `_meta`. A client that declares elicitation
    /// without naming a mode takes forms.
    fn takes_forms(&self) -> bool {
        self.context
            .client_capabilities()
            .and_then(|capabilities| capabilities.elicitation)
            .is_some_and(|modes| modes.form.is_some() || modes.url.is_none())
    }

    /// Whether the request is answered in a revision that asks through input-required
    /// results.
    fn input_required(&self) -> bool {
        self.context
            .protocol_version()
            .is_some_and(|v| v >= INPUT_REQUIRED_SINCE)
    }

    /// The client of the request, if it came over HTTP.
    fn principal(&self) -> Option<Arc<str>> {
        self.context
            .extensions
            .get::<Parts>()
            .and_then(|parts| parts.extensions.get::<Grant>())
            .map(|grant| Arc::clone(&grant.client))
    }

    /// Asks the 2025 way: a request to the client while the call waits.
    async fn ask_now(&self, name: &'static str, message: String) -> Answer {
        // Nothing to fill in: accepting the empty form is the approval.
        let params = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message,
            requested_schema: ElicitationSchema::new(BTreeMap::new()),
        };
        match self
            .context
            .peer
            .create_elicitation_with_timeout(params, Some(ASK_TIMEOUT))
            .await
        {
            Ok(result) if result.action == ElicitationAction::Accept => Answer::Approved,
            Ok(result) => {
                tracing::info!(tool = name, action = ?result.action, "gated call not approved");
                Answer::Declined
            }
            Err(error) => {
                tracing::warn!(tool = name, %error, "asking the client failed; refusing");
                Answer::Declined
            }
        }
    }

    /// Asks the 2026-07-28 way: the answer the retry carries, or the question.
    fn ask_by_result(&self, name: &'static str, arguments: &Value, message: String) -> Answer {
        let principal = self.principal();
        let answered = self
            .retry
            .request_state
            .as_deref()
            .filter(|state| {
                self.questions
                    .close(state, name, arguments, principal.as_deref())
            })
            .and_then(|_| self.retry.input_responses.as_ref()?.get(QUESTION))
            .and_then(|answer| answer.get("action")?.as_str());
        match answered {
            Some("accept") => return Answer::Approved,
            Some(action) => {
                tracing::info!(tool = name, action, "gated call not approved");
                return Answer::Declined;
            }
            None if self.retry.request_state.is_some() => {
                tracing::info!(
                    tool = name,
                    "a retry without a usable answer to this call's question; asking again"
                );
            }
            None => {}
        }
        let state = self.questions.open(name, arguments, principal);
        let params = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message,
            requested_schema: ElicitationSchema::new(BTreeMap::new()),
        };
        let requests = BTreeMap::from([(
            QUESTION.to_owned(),
            InputRequest::Elicitation(ElicitRequest::new(params)),
        )]);
        tracing::debug!(tool = name, "asking through an input-required result");
        Answer::Pending(Box::new(InputRequiredResult::new(
            Some(requests),
            Some(state),
        )))
    }
}

impl<T: ToolId + Send + Sync> Asker<T> for PeerAsker<'_> {
    async fn ask(&self, tool: T, arguments: &Value) -> Answer {
        if !self.takes_forms() {
            return Answer::Unasked;
        }
        let message = question(tool, arguments);
        if self.input_required() {
            self.ask_by_result(tool.name(), arguments, message)
        } else {
            self.ask_now(tool.name(), message).await
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_state_answers_one_call_once_for_its_principal() {
        let questions = Questions::new();
        let arguments = json!({"number": 2});
        let one = || Some(Arc::from("one"));
        let state = questions.open("closeIssue", &arguments, one());
        assert_eq!(state.len(), 32);
        assert_eq!(questions.waiting(), 1);
        // Another call, another token, or another tool: the state is spent unanswered.
        for (tool, arguments, principal) in [
            ("closeIssue", json!({"number": 3}), Some("one")),
            ("closeIssue", json!({"number": 2}), Some("two")),
            ("closeIssue", json!({"number": 2}), None),
            ("deleteIssue", json!({"number": 2}), Some("one")),
        ] {
            let state = questions.open("closeIssue", &json!({"number": 2}), one());
            assert!(!questions.close(&state, tool, &arguments, principal));
        }
        assert!(questions.close(&state, "closeIssue", &arguments, Some("one")));
        assert!(!questions.close(&state, "closeIssue", &arguments, Some("one")));
        assert!(!questions.close("0123", "closeIssue", &arguments, Some("one")));
        assert_eq!(questions.waiting(), 0);
        // States are not guessable from one another.
        let a = questions.open("closeIssue", &arguments, None);
        let b = questions.open("closeIssue", &arguments, None);
        assert_ne!(&a[..16], &b[..16]);
    }
}
