//! Which calls may run as tasks, and such a call until it becomes one.
//!
//! A call of a tool whose row says `task`, from a request that declares the extension in
//! its `_meta` (2026-07-28 on, where the extension is defined), may become a task
//! ([`Route::Task`]); a call of a `required` one from any other request is refused before
//! anything runs, with `-32021` naming the extension ([`needs_tasks`]). Every other call
//! takes the path of any call.

use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;

use catalog_core::talk::{Peer, Rounds};
use catalog_core::{Access, BoxFuture, CompiledCatalog, HandledBy, TaskSupport, Value};
use rmcp::ErrorData;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, CreateTaskResult, ErrorCode,
    ProtocolVersion, TASKS_EXTENSION_ID,
};
use rmcp::service::{RequestContext, RoleServer};
use tokio_util::sync::CancellationToken;

use super::{Reply, Tools, failed, log_call, unless_cancelled};
use crate::elicit::PeerAsker;
use crate::logging::ClientLevel;
use crate::rounds::{self, Ended, Round};
use crate::talk::{ClientPeer, asks_between_rounds};
use crate::tasks::peer::TaskPeer;
use crate::tokens::Grant;

/// How a call of a tool is answered, as far as tasks go.
#[derive(Debug)]
pub enum Route {
    /// As any call.
    Plain,
    /// As a call that may become a task.
    Task,
    /// Refused before anything runs: the tool runs only as a task, and the request did
    /// not declare the extension.
    Refused(ErrorData),
}

/// How the call of tool `name` that `context` carries, from a client at `access`, is
/// answered. A tool the client may not call takes the path of any call, which refuses it
/// as it refuses every such call.
#[must_use]
pub fn route<C: CompiledCatalog<W>, const W: usize>(
    access: Access,
    name: &str,
    context: &RequestContext<RoleServer>,
) -> Route {
    let tools = C::INFO.tools;
    let Some(tool) = tools
        .find(name)
        .filter(|t| C::mcp_allowed(access).contains(*t))
    else {
        return Route::Plain;
    };
    let Some(support) = tools.spec(tool).task else {
        return Route::Plain;
    };
    match (support, takes_tasks(context)) {
        (_, true) => Route::Task,
        (TaskSupport::Optional, false) => Route::Plain,
        (TaskSupport::Required, false) => Route::Refused(needs_tasks(name)),
    }
}

/// Whether the request `context` carries declares the tasks extension, on a revision that
/// defines it (2026-07-28 on, where a request's `_meta` declares what its client takes).
#[must_use]
pub fn takes_tasks(context: &RequestContext<RoleServer>) -> bool {
    asks_between_rounds(context)
        && context
            .client_capabilities()
            .is_some_and(|capabilities| capabilities.supports_tasks())
}

/// The refusal of a call of `tool`, which runs only as a task, from a request that did not
/// declare the extension: MCP's `MissingRequiredClientCapabilityError` (`-32021`), naming
/// the extension in `requiredCapabilities` as a client's capabilities would.
#[must_use]
pub fn needs_tasks(tool: &str) -> ErrorData {
    let required = ClientCapabilities::builder().enable_tasks().build();
    ErrorData::new(
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
        format!(
            "`{tool}` runs only as a task: call it on MCP 2026-07-28 with the tasks extension declared in the request's `_meta` (`io.modelcontextprotocol/clientCapabilities` with `extensions.\"{TASKS_EXTENSION_ID}\"`), then poll `tasks/get`"
        ),
        Some(serde_json::json!({ "requiredCapabilities": required })),
    )
}

/// Where a run of a call stands after its driver's poll.
enum Phase {
    /// It ended (boxed: an answer is large beside the other phases).
    Done(Box<Reply>),
    /// It stopped at its questions.
    Asking,
    /// It waits on something other than the client: it goes on as a task.
    Working(BoxFuture<'static, Reply>),
}

/// Runs `run` until it ends, stops at questions it put to `round`, or first waits on
/// anything else.
async fn until_working(round: &Round, run: BoxFuture<'static, Reply>) -> Phase {
    let mut run = Some(run);
    std::future::poll_fn(move |cx| {
        let Some(mut future) = run.take() else {
            return Poll::Pending;
        };
        match Pin::as_mut(&mut future).poll(cx) {
            Poll::Ready(reply) => Poll::Ready(Phase::Done(Box::new(reply))),
            Poll::Pending if round.stopped() => Poll::Ready(Phase::Asking),
            Poll::Pending => Poll::Ready(Phase::Working(future)),
        }
    })
    .await
}

/// One `tools/call` that may become a task ([`Route::Task`]), from a client with `grant`
/// on protocol `revision`: between rounds, with the events inside it sent to the client at
/// the level `log` holds, as any call; until its handler first waits on anything but the
/// client's answers, when the client is answered with a task and the call goes on in the
/// background ([`crate::tasks::Tasks`]). Logged in one line.
///
/// # Errors
/// As [`crate::handler::call_tool`].
pub async fn call_tool<C, H, const W: usize>(
    tools: &Arc<Tools<C, H, W>>,
    grant: &Grant,
    revision: ProtocolVersion,
    log: &ClientLevel,
    mut request: CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Reply
where
    C: CompiledCatalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: std::fmt::Display,
{
    let answered = Box::pin(async {
        // What the handler's context says of cancellation: cancelled when the client
        // cancels the request, which drops this guard; kept by the task once the call
        // becomes one.
        let cancel = CancellationToken::new();
        let cancelled_with_request = cancel.clone().drop_guard();
        let result = answer(tools, log, grant, revision, &mut request, context, &cancel).await;
        cancelled_with_request.disarm();
        log_call(&request.name, grant.access, &result);
        result
    });
    unless_cancelled(log, context, answered).await
}

/// [`call_tool`]'s answer, from a client with `grant`: the call's result or questions, or
/// the task it became.
async fn answer<C, H, const W: usize>(
    tools: &Arc<Tools<C, H, W>>,
    log: &ClientLevel,
    grant: &Grant,
    revision: ProtocolVersion,
    request: &mut CallToolRequestParams,
    context: &RequestContext<RoleServer>,
    cancel: &CancellationToken,
) -> Reply
where
    C: CompiledCatalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: std::fmt::Display,
{
    let arguments = request.arguments.take().map_or(Value::Null, Value::Object);
    let (state, sent) = (request.request_state.take(), request.input_responses.take());
    let call = rounds::Call {
        principal: Some(&grant.client),
        method: "tools/call",
        target: &request.name,
        arguments: &arguments,
    };
    let round = rounds::begin(tools.seal(), &call, state, sent).await?;
    let client = ClientPeer::new(context, log.for_request(context));
    let peer = Arc::new(TaskPeer::new(
        client.between_rounds(Arc::clone(&round) as Arc<dyn Rounds>),
        Arc::clone(&round),
        cancel.clone(),
    ));
    let run: BoxFuture<'static, Reply> = {
        let (tools, context) = (Arc::clone(tools), context.clone());
        let (name, access) = (request.name.clone(), grant.access);
        let (round, arguments) = (Arc::clone(&round), arguments.clone());
        let peer: Arc<dyn Peer> = Arc::clone(&peer) as Arc<dyn Peer>;
        Box::pin(async move {
            let asker = PeerAsker::new(&context, Some(round));
            tools
                .call(access, &revision, &name, arguments, &asker, peer)
                .await
        })
    };
    let ran = match until_working(&round, run).await {
        Phase::Done(reply) => Some(*reply),
        Phase::Asking => None,
        Phase::Working(run) => {
            let task = tools
                .tasks()
                .open(Arc::clone(&grant.client), &request.name, cancel.clone());
            peer.promote(tools.tasks().clone(), task.task_id.clone());
            tools.tasks().run(&task.task_id, run);
            return Ok(CallToolResponse::Task(CreateTaskResult::new(task)));
        }
    };
    rounds::end(&round, tools.seal(), &call, ran, failed).map(Ended::into_call)
}
