//! Asking the client's user about a gated call through MCP elicitation.

use std::collections::BTreeMap;
use std::time::Duration;

use catalog_core::{ToolId, Value};
use rmcp::model::{ElicitRequestParams, ElicitationAction, ElicitationSchema, ProtocolVersion};
use rmcp::service::{ElicitationMode, RequestContext, RoleServer};

use crate::gate::{Answer, Asker, question};

/// How long a person has to answer before the call is refused.
pub const ASK_TIMEOUT: Duration = Duration::from_secs(120);

/// Asks through the peer of the request being answered.
pub struct PeerAsker<'a> {
    context: &'a RequestContext<RoleServer>,
}

impl<'a> PeerAsker<'a> {
    /// An asker for the client that sent this request.
    #[must_use]
    pub fn new(context: &'a RequestContext<RoleServer>) -> PeerAsker<'a> {
        PeerAsker { context }
    }

    /// Whether this client can be asked mid-call: it declared form elicitation, and the
    /// revision in use allows requests to the client while one of its own is open
    /// (from 2026-07-28 on a server must answer with an input-required result instead,
    /// which this server does not send).
    fn can_ask(&self) -> bool {
        let modern = self
            .context
            .protocol_version()
            .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28);
        !modern
            && self
                .context
                .peer
                .supported_elicitation_modes()
                .contains(&ElicitationMode::Form)
    }
}

impl<T: ToolId + Send + Sync> Asker<T> for PeerAsker<'_> {
    async fn ask(&self, tool: T, arguments: &Value) -> Answer {
        if !self.can_ask() {
            return Answer::Unasked;
        }
        // Nothing to fill in: accepting the empty form is the approval.
        let params = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: question(tool, arguments),
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
                tracing::info!(tool = tool.name(), action = ?result.action, "gated call not approved");
                Answer::Refused
            }
            Err(error) => {
                tracing::warn!(tool = tool.name(), %error, "asking the client failed; refusing");
                Answer::Refused
            }
        }
    }
}
