//! The catalog's tools as an MCP server answers them, free of any transport: what a level
//! lists, and the one path every `tools/call` takes.
//!
//! A call goes through `Catalog::verify` with the connection's level (the tool
//! exists and is exposed to MCP, the level reaches it, the arguments fit, the gated-tool
//! policy agrees), then `ToolCall::run`: the generated `Handler` of the backend, then the
//! output check. The verifier's refusals are JSON-RPC errors with the rejection's code
//! and message and the whole rejection as `data`; a handler that fails, or a result that
//! breaks its declared output, is a tool result with `isError: true`.

use std::sync::Arc;

use app_backend::Backend;
use app_catalog::{Catalog, Tool};
use catalog_core::{Access, Dispatch, Gate, Rejection, Value, Verified};
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, ErrorCode};

use crate::gate::{Answer, Asker, Gated};
use crate::listing::Listing;

/// The tools, the backend they act on, and the gated-tool policy; shared by every
/// connection, so every client sees the same tables and staging area.
pub struct Tools {
    backend: Backend,
    listing: Listing,
    gated: Gated,
}

impl Tools {
    /// Serves `backend` under the `gated` policy.
    #[must_use]
    pub fn new(backend: Backend, gated: Gated) -> Tools {
        Tools {
            backend,
            listing: Listing::new(),
            gated,
        }
    }

    /// The backend the tools act on.
    #[must_use]
    pub fn backend(&self) -> &Backend {
        &self.backend
    }

    /// The gated-tool policy.
    #[must_use]
    pub fn gated(&self) -> Gated {
        self.gated
    }

    /// What `tools/list` answers a client at `level`.
    #[must_use]
    pub fn list(&self, level: Access) -> Arc<[rmcp::model::Tool]> {
        self.listing.tools(level)
    }

    /// Answers one `tools/call` from a client at `level`; `asker` puts the question when
    /// the policy is to ask.
    ///
    /// # Errors
    /// The verifier's refusal as a JSON-RPC error: an unknown tool or one kept from MCP,
    /// a level too low, arguments that do not fit, a gated call refused.
    pub async fn call(
        &self,
        level: Access,
        name: &str,
        arguments: Value,
        asker: &impl Asker,
    ) -> Result<CallToolResult, ErrorData> {
        // Kept for the question only: the verifier takes the arguments.
        let shown = (self.gated == Gated::Ask).then(|| arguments.clone());
        let mut policy = self.gated;
        let call = match Catalog::verify(Gate::Mcp(level), name, arguments, &mut policy) {
            Ok(Verified::Run(call)) => call,
            Ok(Verified::Ask(pending)) => {
                let tool = pending.tool();
                let shown = shown.unwrap_or(Value::Null);
                match asker.ask(tool, &shown).await {
                    Answer::Approved => pending.approve(),
                    Answer::Refused | Answer::Unasked => return refuse(&Rejection::denied(tool)),
                }
            }
            Err(rejection) => return refuse(&rejection),
        };
        let tool = call.tool();
        // `run` is dispatch plus the output check: a failed handler or a result that
        // breaks its declared output comes back as a runtime rejection.
        match call.run(&self.backend).await {
            Dispatch::Ran(Ok(value)) => Ok(self.success(tool, value)),
            Dispatch::Ran(Err(rejection)) => refuse(&rejection),
            // The search tool has no MCP level, so the verifier never lets it through.
            Dispatch::Search(_) => Err(ErrorData::internal_error(
                "the search tool is answered by the agent loop, not over MCP",
                None,
            )),
        }
    }

    /// A result as text (the JSON), and as `structuredContent` when the tool's listing
    /// declares an output schema.
    fn success(&self, tool: Tool, value: Value) -> CallToolResult {
        let text = value.to_string();
        let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
        if self.listing.publishes_output(tool) {
            result.structured_content = Some(value);
        }
        result
    }
}

/// A rejection as MCP carries it: a JSON-RPC error when it has a code, else a tool
/// result with `isError: true` whose text is the rejection's JSON.
///
/// # Errors
/// The JSON-RPC error, with the rejection's message and, as `data`, its JSON.
pub fn refuse(rejection: &Rejection) -> Result<CallToolResult, ErrorData> {
    let json = rejection.to_json();
    match rejection.mcp_code() {
        Some(code) => Err(ErrorData::new(
            ErrorCode(code),
            rejection.to_string(),
            serde_json::from_str(&json).ok(),
        )),
        None => Ok(CallToolResult::error(vec![ContentBlock::text(json)])),
    }
}
