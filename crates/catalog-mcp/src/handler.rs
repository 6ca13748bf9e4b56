//! The MCP server proper: [`Server`], the one `rmcp` `ServerHandler` of every server here,
//! over a [`Backend`], written by hand because the tools come from a catalog, not from
//! Rust functions. It reads each request's grant from its connection's [`Level`] (the
//! one place that does), and answers what all servers answer alike: `tools/call` through
//! [`call_tool`], prompts and reads between rounds through [`answer`], listings that are
//! the client's own, complete results and the client's log level.

use std::future::Future;
use std::sync::Arc;

use catalog_core::Value;
use catalog_core::talk::{Peer, Rounds};
#[allow(
    deprecated,
    reason = "MCP logging: deprecated on 2026-07-28, served up to it"
)]
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CancelTaskParams, CompleteRequestParams,
    CompleteResult, GetPromptRequestParams, GetPromptResponse, GetTaskParams, GetTaskResult,
    InitializeRequestParams, InitializeResult, InputResponses, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ServerConfig,
    SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer, SubscriptionContext};
use rmcp::{ErrorData, ServerHandler};

use crate::backend::{Asking, Backend, Level, Request};
pub use crate::calls::log_call;
use crate::calls::{self, Reply};
use crate::complete::Complete;
use crate::elicit::PeerAsker;
use crate::logging::{self, ClientLevel};
use crate::rounds::{self, Ended, Round, Seal};
use crate::talk::{ClientPeer, asks_between_rounds};
pub use crate::tokens::Grant;

/// One MCP connection: its [`Backend`], where its level comes from and the level of log
/// messages its client asked for. What `rmcp` serves on a transport.
#[derive(Debug)]
pub struct Server<B> {
    backend: B,
    level: Level,
    log: ClientLevel,
}

impl<B: Backend> Server<B> {
    /// A connection to `backend` at `level`.
    #[must_use]
    pub fn over(backend: B, level: Level) -> Self {
        Server {
            backend,
            level,
            log: ClientLevel::default(),
        }
    }

    /// The connection's backend.
    #[must_use]
    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// `context`'s request with its grant, read from the connection's level: the one
    /// place a backend's request is made.
    ///
    /// # Errors
    /// As [`Level::grant`].
    fn request<'r>(
        &'r self,
        context: &'r RequestContext<RoleServer>,
    ) -> Result<Request<'r>, ErrorData> {
        Ok(Request::new(self.level.grant(context)?, context, &self.log))
    }
}

/// The protocol revision `context`'s request is answered in: the one its own `_meta`
/// names (2026-07-28 on), else the one its client asked for in `initialize`. A request
/// that names none (`rmcp` serves none such: a session begins with `initialize`, and a
/// stateless request carries its revision) is answered as the oldest revision would be.
#[must_use]
pub fn revision(context: &RequestContext<RoleServer>) -> ProtocolVersion {
    context
        .protocol_version()
        .unwrap_or(ProtocolVersion::V_2024_11_05)
}

impl<B: Backend> ServerHandler for Server<B> {
    fn get_info(&self) -> ServerConfig {
        let mut info = self.backend.info(&self.level);
        info.capabilities = logging::declared(info.capabilities);
        info
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        self.backend.began(&request, &self.request(&context)?)?;
        self.negotiate_initialize(&request)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.backend.initialized(context).await;
    }

    async fn on_roots_list_changed(&self, _: NotificationContext<RoleServer>) {
        self.backend.roots_changed().await;
    }

    #[allow(
        deprecated,
        reason = "MCP logging: deprecated on 2026-07-28, served up to it"
    )]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        logging::set_level(&self.log, &request, &context)?;
        self.backend.log_level(request.level).await;
        Ok(())
    }

    /// The tool as listed, which `rmcp` reads to hold a call's `Mcp-Param-*` headers to
    /// its arguments (2026-07-28). Asked with no request, so with no grant: a call the
    /// client may not make is refused after, as it would be without headers.
    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.backend.tool(name, &self.level)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = self.backend.tools(&self.request(&context)?).await?;
        // The list depends on the caller's grant: never a shared cache entry.
        Ok(ListToolsResult::with_all_items(tools)
            .with_cache_scope(CacheScope::Private)
            .complete())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let r = self.request(&context)?;
        self.backend.call_tool(request, &r).await
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.backend
            .prompts(&self.request(&context)?)
            .map(Complete::complete)
    }

    async fn get_prompt(
        &self,
        mut request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let retry = (request.request_state.take(), request.input_responses.take());
        let arguments = request.arguments.clone().map_or(Value::Null, Value::Object);
        let target = request.name.clone();
        let r = self.request(&context)?;
        let call = rounds::Call {
            principal: Some(&r.grant().client),
            method: "prompts/get",
            target: &target,
            arguments: &arguments,
        };
        let seal = self.backend.seal();
        let ended = answer(
            seal,
            &context,
            &self.log,
            &call,
            retry,
            Result::is_err,
            |peer, round| self.backend.get_prompt(request, &r, Asking { peer, round }),
        )
        .await?;
        ended.response(GetPromptResponse::InputRequired)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.backend
            .resources(&self.request(&context)?)
            .map(Complete::complete)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.backend
            .templates(&self.request(&context)?)
            .map(Complete::complete)
    }

    async fn read_resource(
        &self,
        mut request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let retry = (request.request_state.take(), request.input_responses.take());
        let target = request.uri.clone();
        let r = self.request(&context)?;
        let call = rounds::Call {
            principal: Some(&r.grant().client),
            method: "resources/read",
            target: &target,
            arguments: &Value::Null,
        };
        let seal = self.backend.seal();
        let ended = answer(
            seal,
            &context,
            &self.log,
            &call,
            retry,
            Result::is_err,
            |peer, round| self.backend.read(request, &r, Asking { peer, round }),
        )
        .await?;
        ended.response(ReadResourceResponse::InputRequired)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let r = self.request(&context)?;
        self.backend
            .complete(request, &r)
            .await
            .map(Complete::complete)
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.backend.accepted(requested)
    }

    async fn listen(&self, subscription: SubscriptionContext) -> Result<(), ErrorData> {
        let grant = self.level.grant(subscription.request_context())?;
        self.backend.listen(subscription, grant).await
    }

    #[allow(
        deprecated,
        reason = "resources/subscribe: legacy on 2026-07-28, served up to it"
    )]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let r = self.request(&context)?;
        self.backend.subscribe(&request.uri, &r).await
    }

    #[allow(
        deprecated,
        reason = "resources/subscribe: legacy on 2026-07-28, served up to it"
    )]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let r = self.request(&context)?;
        self.backend.unsubscribe(&request.uri, &r).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let r = self.request(&context)?;
        self.backend.get_task(request, &r).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let r = self.request(&context)?;
        self.backend.update_task(request, &r).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let r = self.request(&context)?;
        self.backend.cancel_task(request, &r).await
    }
}

/// What answers a session's `tools/call` requests once [`call_tool`] has read them:
/// [`Tools`](crate::Tools) in a server built on this crate, a session of the gateway
/// there. Each passes every call through [`admit`](crate::calls::admit) before anything
/// runs.
pub trait CallPath: Sync {
    /// The seal of the state of this server's calls between rounds (2026-07-28).
    fn seal(&self) -> &Seal;

    /// Answers one call of tool `name` with `arguments` in `request`, on protocol
    /// `revision`; `asker` puts the question about a gated call and `peer` is the client
    /// as a handler's context reaches it.
    #[allow(
        clippy::too_many_arguments,
        reason = "one request's call and its client"
    )]
    fn call(
        &self,
        request: &Request<'_>,
        revision: &ProtocolVersion,
        name: &str,
        arguments: Value,
        asker: &PeerAsker<'_>,
        peer: Arc<dyn Peer>,
    ) -> impl Future<Output = Reply> + Send;
}

/// One `tools/call` request, as every MCP server here answers it: at the level its
/// grant gives, in the protocol revision it speaks, with the client to ask behind it;
/// answered by `path`, logged in one line, and with the events inside it sent to the
/// client at the level it asked for. On a revision that asks between rounds (2026-07-28)
/// the call runs until it ends or stops at its questions (see [`answer`]). When the client
/// cancels the request, the answer is dropped where it stands (the handler's future with
/// it) and the request ends with an error the client no longer waits for.
///
/// # Errors
/// The refusal `path` answers with as a JSON-RPC error, the errors of [`answer`], or the
/// cancellation.
pub async fn call_tool(
    path: &impl CallPath,
    mut call: CallToolRequestParams,
    request: &Request<'_>,
) -> Reply {
    let (context, log, grant) = (request.context(), request.log(), request.grant());
    // Boxed: rmcp moves each handler's future into a task of its own, and a call's
    // state (the verifier, an upstream's request) is kilobytes, copied on every move.
    let answered = Box::pin(async {
        let revision = revision(context);
        let arguments = call.arguments.take().map_or(Value::Null, Value::Object);
        let retry = (call.request_state.take(), call.input_responses.take());
        let round_call = rounds::Call {
            principal: Some(&grant.client),
            method: "tools/call",
            target: &call.name,
            arguments: &arguments,
        };
        let (name, revision) = (&call.name, &revision);
        let result = answer(
            path.seal(),
            context,
            log,
            &round_call,
            retry,
            calls::failed,
            |peer, round| {
                let asker = PeerAsker::new(context, round);
                let arguments = arguments.clone();
                async move {
                    path.call(request, revision, name, arguments, &asker, Arc::new(peer))
                        .await
                }
            },
        )
        .await
        .map(Ended::into_call);
        log_call(&call.name, grant.access, &result);
        result
    });
    calls::unless_cancelled(log, context, answered).await
}

/// Answers `call`, a request whose handler may talk back to its client: `run` gets the
/// client as a handler's context reaches it and, between rounds, the call's round. Up to
/// 2025-11-25 the client is asked mid-call; from 2026-07-28 on the request runs between
/// rounds ([`rounds::run`]) with the `retry` it carries (its `requestState` and
/// `inputResponses`), and an answer `failed` says is a failure, after wanting what the
/// client did not declare, is the error that names it.
///
/// # Errors
/// As [`rounds::run`], or the run's own.
pub async fn answer<T, F>(
    seal: &Seal,
    context: &RequestContext<RoleServer>,
    log: &ClientLevel,
    call: &rounds::Call<'_>,
    retry: (Option<String>, Option<InputResponses>),
    failed: fn(&Result<T, ErrorData>) -> bool,
    run: impl FnOnce(ClientPeer, Option<Arc<Round>>) -> F,
) -> Result<Ended<T>, ErrorData>
where
    F: Future<Output = Result<T, ErrorData>>,
{
    let peer = ClientPeer::new(context, log.for_request(context));
    if !asks_between_rounds(context) {
        return run(peer, None).await.map(Ended::Done);
    }
    let (state, sent) = retry;
    rounds::run(seal, call, state, sent, failed, |round| {
        let rounds: Arc<dyn Rounds> = round.clone();
        run(peer.between_rounds(rounds), Some(round))
    })
    .await
}
