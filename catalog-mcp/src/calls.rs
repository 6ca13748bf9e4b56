//! A catalog's tools as an MCP server answers them, free of any transport: what a level
//! lists, and the one path every `tools/call` takes.
//!
//! A call goes through `Catalog::verify` with the connection's level (the tool
//! exists and is exposed to MCP, the level reaches it, the arguments fit, the gated-tool
//! policy agrees), then `VerifiedCall::run`: the catalog's generated `Handler`, then the
//! output check. The verifier's refusals are JSON-RPC errors with the rejection's code
//! and message and the whole rejection as `data`; a handler that fails, or a result that
//! breaks its declared output, is a tool result with `isError: true`.

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use catalog_core::{Access, Catalog, Dispatch, HandledBy, Rejection, Value, Verified, Via};
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, ErrorCode};

use crate::gate::{Answer, Asker, GatedPolicy};
use crate::identity::Identity;
use crate::listing::Listing;

/// Catalog `C`'s tools, the handler `H` that runs them, and the gated-tool policy;
/// shared by every connection, so every client reaches the same handler.
pub struct Tools<C: Catalog<W>, H, const W: usize> {
    handler: H,
    listing: Listing<C, W>,
    gated: GatedPolicy,
    identity: Identity,
    catalog: PhantomData<fn() -> C>,
}

impl<C: Catalog<W>, H, const W: usize> Tools<C, H, W> {
    /// Serves catalog `C` (the generated unit struct: `my_catalog::Catalog`) through
    /// `handler` under the `gated` policy; clients read the [`Identity::default`].
    ///
    /// The catalog is passed as a value so that `W`, its tool sets' width, is inferred.
    #[must_use]
    #[allow(
        clippy::needless_pass_by_value,
        reason = "the catalog is a unit struct, taken by value only so that its type names `W`"
    )]
    pub fn new(catalog: C, handler: H, gated: GatedPolicy) -> Self {
        let _ = catalog;
        Tools {
            handler,
            listing: Listing::new(),
            gated,
            identity: Identity::default(),
            catalog: PhantomData,
        }
    }

    /// The same tools, introduced to clients as `identity`.
    #[must_use]
    pub fn with_identity(mut self, identity: Identity) -> Self {
        self.identity = identity;
        self
    }

    /// How the server introduces itself.
    #[must_use]
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// The handler the tools run on.
    #[must_use]
    pub fn handler(&self) -> &H {
        &self.handler
    }

    /// The gated-tool policy.
    #[must_use]
    pub fn gated(&self) -> GatedPolicy {
        self.gated
    }

    /// What `tools/list` answers a client at `level`.
    #[must_use]
    pub fn list(&self, level: Access) -> Arc<[rmcp::model::Tool]> {
        self.listing.tools(level)
    }

    /// A result as text (the JSON), and as `structuredContent` when the tool's listing
    /// declares an output schema.
    fn success(&self, tool: C::Tool, value: Value) -> CallToolResult {
        let text = value.to_string();
        let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
        if self.listing.publishes_output(tool) {
            result.structured_content = Some(value);
        }
        result
    }
}

impl<C, H, const W: usize> Tools<C, H, W>
where
    C: Catalog<W>,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
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
        asker: &impl Asker<C::Tool>,
    ) -> Result<CallToolResult, ErrorData> {
        // Kept for the question only: the verifier takes the arguments.
        let shown = (self.gated == GatedPolicy::Ask).then(|| arguments.clone());
        let mut policy = self.gated;
        let call = match C::verify(Via::Mcp(level), name, arguments, &mut policy) {
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
        let ran = match call.run(&self.handler).await {
            Dispatch::Ran(ran) => ran,
            // The search tool has no MCP level, so the verifier never lets it through.
            Dispatch::Search(_) => {
                return Err(ErrorData::internal_error(
                    "the search tool is answered by the agent loop, not over MCP",
                    None,
                ));
            }
        };
        match ran {
            Ok(value) => Ok(self.success(tool, value)),
            Err(rejection) => refuse(&rejection),
        }
    }
}

impl<C: Catalog<W>, H, const W: usize> fmt::Debug for Tools<C, H, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tools")
            .field("listing", &self.listing)
            .field("gated", &self.gated)
            .field("identity", &self.identity)
            .finish_non_exhaustive()
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
