//! Asking the client's user about a gated call through MCP form elicitation, the way the
//! request's protocol revision asks.
//!
//! - Up to 2025-11-25 the server sends `elicitation/create` to the client while the call
//!   is open and waits for the answer ([`ASK_TIMEOUT`] at most).
//! - From 2026-07-28 on a server may no longer send requests to the client mid-call
//!   (multi round-trip requests, SEP-2322): the question is put to the call's round under
//!   [`QUESTION`], like any question a handler asks, and the client's retry of the call
//!   brings the answer in its sealed state or its `inputResponses` (see [`crate::rounds`]).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use catalog_core::talk::{Elicited, Question, rounds};
use catalog_core::{ToolSpec, Value};
use rmcp::model::{ElicitRequestParams, ElicitationAction, ElicitationSchema};
use rmcp::service::{RequestContext, RoleServer};

use crate::gate::{Answer, Asker, question};
use crate::rounds::{QUESTION, Round};

/// How long a person has to answer before the call is refused (up to 2025-11-25).
pub const ASK_TIMEOUT: Duration = Duration::from_secs(120);

/// Asks the client that sent the request being answered.
pub struct PeerAsker<'a> {
    context: &'a RequestContext<RoleServer>,
    /// The call's round, on a revision that asks between rounds.
    round: Option<Arc<Round>>,
}

impl<'a> PeerAsker<'a> {
    /// An asker for the client that sent this request, mid-call, or between the rounds of
    /// `round` when it is given (2026-07-28).
    #[must_use]
    pub fn new(
        context: &'a RequestContext<RoleServer>,
        round: Option<Arc<Round>>,
    ) -> PeerAsker<'a> {
        PeerAsker { context, round }
    }

    /// The call's round, when the client is asked between rounds.
    #[must_use]
    pub fn round(&self) -> Option<&Arc<Round>> {
        self.round.as_ref()
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

    /// Asks the 2025 way: a request to the client while the call waits.
    async fn ask_now(&self, name: &str, message: String) -> Answer {
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

    /// Asks between rounds: the answer the call brought, or the question put to its
    /// round (and no further this run).
    async fn ask_between(round: &Round, name: &str, message: String) -> Answer {
        let form = Question::Form {
            message,
            schema: serde_json::Map::from_iter([
                ("type".into(), "object".into()),
                ("properties".into(), Value::Object(serde_json::Map::new())),
            ]),
        };
        match rounds::between(round, QUESTION.into(), form, rounds::elicited).await {
            Ok(Elicited::Accepted(_)) => Answer::Approved,
            Ok(other) => {
                tracing::info!(tool = name, answer = ?other, "gated call not approved");
                Answer::Declined
            }
            Err(error) => {
                tracing::warn!(tool = name, %error, "asking the client failed; refusing");
                Answer::Declined
            }
        }
    }
}

impl Asker for PeerAsker<'_> {
    async fn ask(&self, spec: &ToolSpec<'_>, arguments: &Value) -> Answer {
        if !self.takes_forms() {
            return Answer::Unasked;
        }
        let message = question(spec, arguments);
        match &self.round {
            Some(round) => PeerAsker::ask_between(round, spec.name, message).await,
            None => self.ask_now(spec.name, message).await,
        }
    }
}
