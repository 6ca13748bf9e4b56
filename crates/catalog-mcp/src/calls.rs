//! A catalog's tools as an MCP server answers them, free of any transport: what a level
//! lists, and the one path every `tools/call` takes.
//!
//! A call goes through [`admit`], the gate the gateway's calls pass too: the verifier
//! with the connection's level (the tool exists and is exposed to MCP, the level reaches
//! it, the arguments fit, the gated-tool policy agrees, asking the user when it says
//! to), then `VerifiedCall::run`: the catalog's generated `Handler`, then the output
//! check. How a refusal reaches the client depends on the protocol revision of
//! the request, as [`refuse`] says: a JSON-RPC error with the rejection's message and the
//! whole rejection as `data`, or a tool result with `isError: true` whose text is the
//! rejection's JSON.

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use catalog_core::talk::Peer;
use catalog_core::{
    Access, Call, CompiledCatalog, Dispatch, ErrorClass, HandledBy, Lookup, Output, Rejection,
    ScanResults, Screen, Screened, UrlElicitation, Value, Verified, VerifiedCall, Via, verify,
};
use catalog_result_scan::Scanner;
use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, ErrorCode, ProtocolVersion};
use rmcp::service::{RequestContext, RoleServer};

use crate::gate::{Answer, Asker, GatedPolicy};
use crate::identity::Identity;
use crate::listing::Listing;
use crate::logging::{self, ClientLevel};
use crate::offers::Offers;
use crate::rounds::Seal;
use crate::tasks::Tasks;

pub mod task;

/// Catalog `C`'s tools, the handler `H` that runs them, and the gated-tool policy;
/// shared by every connection, so every client reaches the same handler.
pub struct Tools<C: CompiledCatalog<W>, H, const W: usize> {
    handler: H,
    listing: Listing<C, W>,
    gated: GatedPolicy,
    identity: Identity,
    seal: Seal,
    scanner: Scanner,
    offers: Option<Arc<dyn Offers>>,
    tasks: Tasks,
    /// Whether some row served over MCP may run as a task.
    runs_tasks: bool,
    catalog: PhantomData<fn() -> C>,
}

impl<C: CompiledCatalog<W>, H, const W: usize> Tools<C, H, W> {
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
            seal: Seal::new(),
            scanner: Scanner::from_settings(&C::INFO.settings),
            offers: None,
            tasks: Tasks::default(),
            runs_tasks: C::specs(C::mcp_allowed(Access::FullAccess)).any(|s| s.task.is_some()),
            catalog: PhantomData,
        }
    }

    /// The same tools, with `offers` served beside them: the server's own prompts,
    /// resources, templates, completions and subscriptions.
    #[must_use]
    pub fn with_offers(mut self, offers: impl Offers) -> Self {
        self.offers = Some(Arc::new(offers));
        self
    }

    /// What the server offers besides its tools, if anything.
    #[must_use]
    pub fn offers(&self) -> Option<&dyn Offers> {
        self.offers.as_deref()
    }

    /// The same tools with results scanned under `policy` instead of the catalog's
    /// `scan-results` (`--scan-results`).
    #[must_use]
    pub fn with_scan_results(mut self, policy: ScanResults) -> Self {
        self.scanner = Scanner::from_settings(&catalog_core::Settings {
            scan_results: policy,
            ..C::INFO.settings
        });
        self
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

    /// The seal of the state of calls between rounds (2026-07-28).
    #[must_use]
    pub fn seal(&self) -> &Seal {
        &self.seal
    }

    /// The calls that went on as tasks (MCP's tasks extension).
    #[must_use]
    pub fn tasks(&self) -> &Tasks {
        &self.tasks
    }

    /// Whether some row served over MCP may run as a task: the server then declares the
    /// tasks extension.
    #[must_use]
    pub fn runs_tasks(&self) -> bool {
        self.runs_tasks
    }

    /// What `tools/list` answers a client at `level`.
    #[must_use]
    pub fn list(&self, level: Access) -> Arc<[rmcp::model::Tool]> {
        self.listing.tools(level)
    }

    /// A handler's output as the client's model reads it, once the result scanner read
    /// it (see [`catalog_result_scan::Scanner`]): a value as text (the JSON, after the scanner's
    /// notice when it found something), and as `structuredContent` when the tool's
    /// listing declares an output schema; content blocks as they are, each text and the
    /// structured content read by the scanner ([`screen`]); or a rejection when the
    /// policy withholds it.
    fn deliver(&self, tool: C::Tool, output: Output) -> Result<CallToolResult, Rejection> {
        let spec = C::INFO.tools.spec(tool);
        match output {
            Output::Value(value) => {
                let (value, mut content) = match self.scanner.screen(tool, spec, value) {
                    Screened::Pass(value) => (value, Vec::new()),
                    Screened::Flagged { result, notice } => {
                        (result, vec![ContentBlock::text(notice)])
                    }
                    Screened::Withheld(rejection) => return Err(rejection),
                };
                content.push(ContentBlock::text(value.to_string()));
                let mut result = CallToolResult::success(content);
                if self.listing.publishes_output(tool) && value.is_object() {
                    result.structured_content = Some(value);
                }
                Ok(result)
            }
            Output::Content {
                content,
                structured,
            } => {
                let blocks = content
                    .into_iter()
                    .map(|block| {
                        serde_json::from_value(block.into_json()).map_err(|e| {
                            Rejection::runtime(
                                spec.name,
                                format!("a content block is not MCP's: {e}"),
                            )
                        })
                    })
                    .collect::<Result<Vec<ContentBlock>, Rejection>>()?;
                let mut result = CallToolResult::success(blocks);
                result.structured_content = structured;
                screen(&self.scanner, spec.name, result, &mut Vec::new())
            }
            // Answered before it gets here: it is an error, not a result.
            Output::NeedsUrl(urls) => Err(Rejection::needs_url(spec.name, &urls)),
        }
    }
}

/// An MCP tool result as the client's model reads it, once the result scanner read each
/// text block and the structured content (an image or a resource passes as it is): with
/// a notice first when something was found, hidden characters removed under `strip`, a
/// text cut at the cap; or the rejection that withholds it. What the scanner noticed goes
/// to `findings` too. The one reading of a result for every server here, the gateway's
/// forwarded ones included.
///
/// # Errors
/// The rejection that withholds the result.
pub fn screen(
    scanner: &Scanner,
    tool: &str,
    mut result: CallToolResult,
    findings: &mut Vec<String>,
) -> Result<CallToolResult, Rejection> {
    let mut notices = Vec::new();
    let mut read = |value: Value| match scanner.screen_named(tool, value) {
        Screened::Pass(value) => Ok(value),
        Screened::Flagged { result, notice } => {
            notices.push(notice);
            Ok(result)
        }
        Screened::Withheld(rejection) => {
            findings.push(rejection.message.clone());
            Err(rejection)
        }
    };
    for block in &mut result.content {
        if let ContentBlock::Text(text) = block {
            let value = read(Value::String(std::mem::take(&mut text.text)))?;
            text.text = match value {
                Value::String(s) => s,
                other => other.to_string(),
            };
        }
    }
    if let Some(structured) = result.structured_content.take() {
        let screened = read(structured.clone())?;
        // A structured result keeps its shape: cut, it would break the output schema
        // the reviewer pinned, so the text blocks carry the cut and the notice.
        result.structured_content = Some(if screened.is_object() {
            screened
        } else {
            structured
        });
    }
    if !notices.is_empty() {
        notices.dedup();
        findings.extend(notices.iter().cloned());
        result
            .content
            .insert(0, ContentBlock::text(notices.join("\n")));
    }
    Ok(result)
}

/// The JSON-RPC error that sends the user to `urls` before a call can go on: MCP's
/// `URLElicitationRequiredError` (`-32042`), with each URL-mode elicitation in `data`.
#[must_use]
pub fn needs_url(urls: &[UrlElicitation]) -> ErrorData {
    let elicitations: Vec<Value> = urls.iter().map(UrlElicitation::to_json).collect();
    let message = match urls {
        [one] => one.message.clone(),
        _ => String::from("This request needs the user to complete elicitations first."),
    };
    ErrorData::new(
        ErrorCode(URL_ELICITATION_REQUIRED),
        message,
        Some(serde_json::json!({ "elicitations": elicitations })),
    )
}

/// MCP's code for an error that needs URL-mode elicitations completed first.
pub const URL_ELICITATION_REQUIRED: i32 = -32042;

impl<C, H, const W: usize> Tools<C, H, W>
where
    C: CompiledCatalog<W>,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
    /// Answers one `tools/call` from a client at `level` that speaks protocol `revision`;
    /// `asker` puts the question when the policy is to ask, and `peer` is the client as
    /// the handler's context reaches it. Between rounds (2026-07-28) a question never
    /// resolves and the call is ended where it waits (see [`crate::rounds::drive`]).
    ///
    /// # Errors
    /// A refusal that [`refuse`] makes a JSON-RPC error on `revision`: an unknown tool or
    /// one kept from MCP, a level too low, and, before 2025-11-25, arguments that do not
    /// fit and a gated call refused; and a handler's [`Output::NeedsUrl`], as
    /// [`needs_url`].
    pub async fn call(
        &self,
        level: Access,
        revision: &ProtocolVersion,
        name: &str,
        arguments: Value,
        asker: &impl Asker,
        peer: Arc<dyn Peer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let tools = C::INFO.tools;
        let call = match admit::<C::Call>(
            tools, level, revision, name, arguments, self.gated, asker,
        )
        .await
        {
            Ok(call) => call,
            Err(answer) => return answer,
        };
        let tool = call.tool();
        // `run` is dispatch plus the output check: a failed handler or a result that
        // breaks its declared output comes back as a runtime rejection.
        let ran = match call.run_with(&self.handler, peer).await {
            Dispatch::Ran(ran) => ran,
            // The search tool has no MCP level, so the verifier never lets it through.
            Dispatch::Search(_) => {
                return Err(ErrorData::internal_error(
                    "the search tool is answered by the agent loop, not over MCP",
                    None,
                ));
            }
        };
        if let Ok(Output::NeedsUrl(urls)) = &ran {
            return Err(needs_url(urls));
        }
        match ran.and_then(|output| self.deliver(tool, output)) {
            Ok(result) => Ok(result.into()),
            Err(rejection) => respond(&rejection, revision),
        }
    }
}

/// What `tools/call` answers when a call is not to run now: a refusal, or the question
/// that asks the user.
pub type Reply = Result<CallToolResponse, ErrorData>;

/// Whether a call's answer failed: refused, or a result that says it is an error.
#[must_use]
pub fn failed(reply: &Reply) -> bool {
    match reply {
        Ok(CallToolResponse::Complete(done)) => done.is_error == Some(true),
        Ok(_) => false,
        Err(_) => true,
    }
}

/// The logger of the line [`log_call`] writes, as clients read it in
/// `notifications/message`: the server's handler, wherever the call was answered.
const CALLS_LOGGER: &str = "catalog_mcp::handler";

/// One line in the log for each `tools/call`: how it ended.
pub fn log_call(tool: &str, level: Access, result: &Reply) {
    match result {
        Ok(CallToolResponse::Complete(done)) if done.is_error == Some(true) => {
            tracing::info!(target: CALLS_LOGGER, %tool, %level, "tools/call answered with an error result");
        }
        Ok(CallToolResponse::Complete(_)) => {
            tracing::debug!(target: CALLS_LOGGER, %tool, %level, "tools/call ran");
        }
        Ok(CallToolResponse::Task(task)) => {
            let task = &task.task.task_id;
            tracing::info!(target: CALLS_LOGGER, %tool, %level, %task, "tools/call goes on as a task");
        }
        Ok(_) => {
            tracing::info!(target: CALLS_LOGGER, %tool, %level, "tools/call waits for the user's answer");
        }
        Err(error) => {
            let code = error.code.0;
            tracing::info!(target: CALLS_LOGGER, %tool, %level, code, "tools/call refused");
        }
    }
}

/// `answered`, the answer to the `tools/call` request `context` carries, with the events
/// inside it sent to the client at the level `log` holds; when the client cancels the
/// request, the answer is dropped where it stands (the handler's future with it) and the
/// request ends with an error the client no longer waits for.
pub(crate) async fn unless_cancelled(
    log: &ClientLevel,
    context: &RequestContext<RoleServer>,
    answered: impl Future<Output = Reply>,
) -> Reply {
    let answered = logging::scoped(log.for_request(context), &context.peer, answered);
    tokio::select! {
        result = answered => result,
        () = context.ct.cancelled() => {
            tracing::info!(request = %context.id, "tools/call cancelled by the client");
            Err(ErrorData::new(ErrorCode::INVALID_REQUEST, "the client cancelled the request", None))
        }
    }
}

/// The one gate every MCP `tools/call` passes before anything runs, in a server built on
/// this crate and in the gateway: who may run which tool, and only once verified.
///
/// `catalog_core::verify` with the connection's `level` checks that the tool exists and
/// is served to MCP, that the level reaches it, that the arguments fit, and asks the
/// `gated` policy about a gated tool; when the policy is to ask, `asker` puts the
/// question (with the arguments as the client sent them, before defaults). The
/// [`VerifiedCall`] it hands back is the only value that runs a handler or an upstream.
///
/// # Errors
/// The answer to send instead: the refusal as [`respond`] carries it on `revision`.
pub async fn admit<'c, C: Call>(
    tools: &'c dyn Lookup<C::Tool>,
    level: Access,
    revision: &ProtocolVersion,
    name: &str,
    arguments: Value,
    gated: GatedPolicy,
    asker: &impl Asker,
) -> Result<VerifiedCall<'c, C>, Reply> {
    // Kept for the question only: the verifier takes the arguments.
    let shown = (gated == GatedPolicy::Ask).then(|| arguments.clone());
    let mut policy = gated;
    // An MCP caller's reach is its level: no discovery state, so the width of the
    // catalog's sets is no matter here.
    match verify::<C, 1>(Via::Mcp(level, tools), name, arguments, &mut policy) {
        Ok(Verified::Run(call)) => Ok(call),
        Ok(Verified::Ask(pending)) => {
            let spec = pending.spec();
            match settle(
                asker.ask(spec, &shown.unwrap_or(Value::Null)).await,
                spec.name,
            ) {
                Ok(()) => Ok(pending.approve()),
                Err(rejection) => Err(respond(&rejection, revision)),
            }
        }
        Err(rejection) => Err(respond(&by_policy(rejection), revision)),
    }
}

/// What asking about a gated call of the tool `name` came to: `Ok` to run it. A refusal says
/// which cause it was: the user declined, or the user could not be asked.
///
/// # Errors
/// The refusal.
fn settle(answer: Answer, name: &str) -> Result<(), Rejection> {
    match answer {
        Answer::Approved => Ok(()),
        Answer::Declined => Err(Rejection::declined(name)),
        Answer::Unasked => Err(Rejection::unasked(
            name,
            "this MCP client declared no form elicitation, so the server cannot put the question to the user",
        )),
    }
}

/// The verifier's refusal of a gated call says "the user or the policy", since its
/// permission hook could be either; on MCP the hook is the `--gated` policy, so a denial
/// from the verifier is the policy's, and says so. Every other rejection is as it was.
#[must_use]
pub fn by_policy(rejection: Rejection) -> Rejection {
    match &rejection.tool {
        Some(name) if rejection.is_denial() => Rejection::refused_by_policy(name),
        _ => rejection,
    }
}

/// [`refuse`], as the response to `tools/call`.
///
/// # Errors
/// As [`refuse`].
pub fn respond(
    rejection: &Rejection,
    revision: &ProtocolVersion,
) -> Result<CallToolResponse, ErrorData> {
    refuse(rejection, revision).map(CallToolResponse::from)
}

impl<C: CompiledCatalog<W>, H, const W: usize> fmt::Debug for Tools<C, H, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tools")
            .field("listing", &self.listing)
            .field("gated", &self.gated)
            .field("identity", &self.identity)
            .finish_non_exhaustive()
    }
}

/// Which step of a call refused it: what decides how MCP carries the refusal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Refusal {
    /// The name is of no tool in the client's list: unknown, kept from MCP, or (in a
    /// gateway) a discoverable tool no search has listed yet.
    UnknownTool,
    /// A tool the client is not served: its level is below the tool's, or (in a gateway)
    /// the tool is withheld because its server changed it.
    BelowLevel,
    /// Arguments that break the tool's input schema.
    Arguments,
    /// A gated call the user or the application's policy refused, or that needed the
    /// user's approval when the user could not be asked.
    Denied,
    /// The handler failed, or its result broke the tool's declared output.
    Runtime,
}

impl Refusal {
    /// The step `rejection` comes from.
    #[must_use]
    pub fn of(rejection: &Rejection) -> Refusal {
        if rejection.class == ErrorClass::RuntimeError {
            Refusal::Runtime
        } else if rejection.is_denial() {
            Refusal::Denied
        } else if rejection.is_invalid_arguments() {
            Refusal::Arguments
        } else if rejection.class == ErrorClass::PermissionDenied && rejection.tool.is_some() {
            Refusal::BelowLevel
        } else {
            Refusal::UnknownTool
        }
    }
}

/// The first protocol revision with SEP-1303: input validation errors are tool execution
/// errors, so the model can correct itself.
pub const TOOL_ERRORS_SINCE: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// A rejection as MCP carries it to a client speaking protocol `revision`: a JSON-RPC
/// error `-32602` with the rejection's message and, as `data`, its JSON; or a tool result
/// with `isError: true` whose text is the rejection's JSON ([`Rejection::to_json`]). The
/// one rule for every server built on this crate, and for the gateway:
///
/// - a failed handler, or a result that breaks the declared output, is a tool result on
///   every revision;
/// - an unknown tool, one kept from MCP, and a level too low are JSON-RPC errors on every
///   revision: the spec keeps protocol errors for unknown tools, and a tool above the
///   level is not in the client's list, so it reads as one (its message still names the
///   level needed);
/// - arguments that break the schema are JSON-RPC errors up to 2025-06-18 and tool
///   results from 2025-11-25 on ([`TOOL_ERRORS_SINCE`], SEP-1303), so the model reads
///   every issue and corrects the call;
/// - a gated call the user or the policy refused follows the arguments: a JSON-RPC error
///   up to 2025-06-18, a tool result from 2025-11-25 on. The tool is in the client's
///   list and the request is well formed, so it is none of the protocol errors that
///   revision names (unknown tool, malformed request, server error); it is the outcome
///   of this call, a business-logic error, which that revision puts in the result.
///   There clients SHOULD give the model tool execution errors and only MAY give it
///   protocol errors, and this rejection is written for the model: do not call the
///   tool again, ask the user how to proceed.
///
/// # Errors
/// The JSON-RPC error, with the rejection's message and, as `data`, its JSON.
pub fn refuse(
    rejection: &Rejection,
    revision: &ProtocolVersion,
) -> Result<CallToolResult, ErrorData> {
    let in_result = match Refusal::of(rejection) {
        Refusal::Runtime => true,
        Refusal::Arguments | Refusal::Denied => *revision >= TOOL_ERRORS_SINCE,
        Refusal::UnknownTool | Refusal::BelowLevel => false,
    };
    let json = rejection.to_json();
    if in_result {
        Ok(CallToolResult::error(vec![ContentBlock::text(json)]))
    } else {
        Err(ErrorData::new(
            ErrorCode(Rejection::INVALID_PARAMS),
            rejection.to_string(),
            serde_json::from_str(&json).ok(),
        ))
    }
}

#[cfg(test)]
mod tests;
