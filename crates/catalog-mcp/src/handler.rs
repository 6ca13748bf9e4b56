//! The MCP server proper: `rmcp`'s `ServerHandler`, written by hand because the tools
//! come from the catalog, not from Rust functions.

use std::fmt;
use std::future::Future;
use std::sync::{Arc, OnceLock};

use axum::http::request::Parts;
use catalog_core::talk::{Peer, Rounds};
use catalog_core::{Access, Caller, CompiledCatalog, Context, HandledBy, Value};
#[allow(
    deprecated,
    reason = "MCP logging: deprecated on 2026-07-28, served up to it"
)]
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CancelTaskParams, CompleteRequestParams,
    CompleteResult, ErrorCode, GetPromptRequestParams, GetPromptResponse, GetTaskParams,
    GetTaskResult, Implementation, InputResponses, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig,
    SubscribeRequestMethod, SubscribeRequestParams, SubscriptionFilter,
    SubscriptionsListenRequestMethod, Tool, UnsubscribeRequestMethod, UnsubscribeRequestParams,
    UpdateTaskParams,
};
use rmcp::service::{RequestContext, RoleServer, SubscriptionContext};
use rmcp::{ErrorData, ServerHandler};

pub use crate::calls::log_call;
use crate::calls::task::{self, Route};
use crate::calls::{self, Reply, Tools};
use crate::complete::Complete;
use crate::elicit::PeerAsker;
use crate::logging::{self, ClientLevel};
use crate::offers::{self, Offered, Offers};
use crate::rounds::{self, Ended, Round, Seal};
use crate::talk::{ClientPeer, asks_between_rounds};
pub use crate::tokens::Grant;

/// Where a connection's access level comes from.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Level {
    /// One grant for the whole connection: stdio, from the command line.
    Fixed(Grant),
    /// Each request's own [`Grant`]: streamable HTTP, from its bearer token.
    PerRequest,
}

/// One MCP connection's handler over the shared [`Tools`] of catalog `C` and handler
/// `H`: what `rmcp` serves on a transport.
pub struct CatalogServer<C: CompiledCatalog<W>, H, const W: usize> {
    tools: Arc<Tools<C, H, W>>,
    level: Level,
    /// The level of log messages the session's client asked for.
    log: Arc<ClientLevel>,
    /// The session's number in the server's subscriptions, once it subscribed.
    subscriber: Arc<OnceLock<u64>>,
}

impl<C: CompiledCatalog<W>, H, const W: usize> Clone for CatalogServer<C, H, W> {
    fn clone(&self) -> Self {
        CatalogServer {
            tools: Arc::clone(&self.tools),
            level: self.level.clone(),
            log: Arc::clone(&self.log),
            subscriber: Arc::clone(&self.subscriber),
        }
    }
}

impl<C: CompiledCatalog<W>, H, const W: usize> fmt::Debug for CatalogServer<C, H, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CatalogServer")
            .field("tools", &self.tools)
            .field("level", &self.level)
            .field("log", &self.log)
            .finish_non_exhaustive()
    }
}

impl<C: CompiledCatalog<W>, H, const W: usize> CatalogServer<C, H, W> {
    /// The offers and the request's grant, when the server declares what `declared`
    /// reads from its offers.
    ///
    /// # Errors
    /// Method not found for what the server does not declare; as [`Level::grant`].
    fn offering(
        &self,
        context: &RequestContext<RoleServer>,
        declared: impl FnOnce(Offered) -> bool,
    ) -> Result<(&dyn Offers, Grant), ErrorData> {
        match self.tools.offers() {
            Some(offers) if declared(offers.offered()) => Ok((offers, self.level.grant(context)?)),
            _ => Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "this server declares no such capability",
                None,
            )),
        }
    }

    /// A handler whose calls reach `tools` at `level`.
    #[must_use]
    pub fn new(tools: Arc<Tools<C, H, W>>, level: Level) -> Self {
        CatalogServer {
            tools,
            level,
            log: Arc::default(),
            subscriber: Arc::default(),
        }
    }
}

impl Level {
    /// The level `context`'s request is served at.
    ///
    /// # Errors
    /// As [`Level::grant`].
    pub fn of(&self, context: &RequestContext<RoleServer>) -> Result<Access, ErrorData> {
        self.grant(context).map(|grant| grant.access)
    }

    /// Who sent `context`'s request and what it may do. Over HTTP a request reaches a
    /// handler only through the token check, so a missing grant is a fault: refused, not
    /// defaulted.
    ///
    /// # Errors
    /// An invalid-request error when a per-request grant is missing.
    pub fn grant(&self, context: &RequestContext<RoleServer>) -> Result<Grant, ErrorData> {
        match self {
            Level::Fixed(grant) => Ok(grant.clone()),
            Level::PerRequest => context
                .extensions
                .get::<Parts>()
                .and_then(|parts| parts.extensions.get::<Grant>())
                .cloned()
                .ok_or_else(|| {
                    ErrorData::invalid_request("this request carries no access level", None)
                }),
        }
    }
}

/// The protocol revision `context`'s request is answered in: the one its own `_meta`
/// names (2026-07-28 on), else the one its client asked for in `initialize`. A request
/// that names none (`rmcp` serves none such: a session begins with `initialize`, and a
/// stateless request carries its revision) is answered as the oldest revision would be.
#[must_use]
fn revision(context: &RequestContext<RoleServer>) -> ProtocolVersion {
    context
        .protocol_version()
        .unwrap_or(ProtocolVersion::V_2024_11_05)
}

impl<C, H, const W: usize> ServerHandler for CatalogServer<C, H, W>
where
    C: CompiledCatalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
    fn get_info(&self) -> ServerConfig {
        let identity = self.tools.identity();
        let level = match &self.level {
            Level::Fixed(grant) => format!("This connection has the {} access level", grant.access),
            Level::PerRequest => String::from("Each bearer token has its own access level"),
        };
        let access = format!("{level}; tools/list shows exactly the tools it may call.");
        let instructions = match &identity.instructions {
            Some(own) => format!("{own} {access}"),
            None => access,
        };
        let mut capabilities = if self.tools.runs_tasks() {
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tasks()
                .build()
        } else {
            ServerCapabilities::builder().enable_tools().build()
        };
        if let Some(offers) = self.tools.offers() {
            offers::declare(offers, &mut capabilities);
        }
        ServerConfig::new(logging::declared(capabilities))
            .with_server_info(Implementation::new(&identity.name, &identity.version))
            .with_instructions(instructions)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let (offers, grant) = self.offering(&context, |o| o.prompts)?;
        Ok(ListPromptsResult::with_all_items(offers.prompts(&grant)).complete())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let (offers, grant) = self.offering(&context, |o| o.prompts)?;
        let mut request = request;
        let retry = (request.request_state.take(), request.input_responses.take());
        let arguments = request.arguments.clone().map_or(Value::Null, Value::Object);
        let target = request.name.clone();
        let call = rounds::Call {
            principal: Some(&grant.client),
            method: "prompts/get",
            target: &target,
            arguments: &arguments,
        };
        let seal = self.tools.seal();
        let ended = answer(
            seal,
            &context,
            &self.log,
            &call,
            retry,
            Result::is_err,
            |peer, _| {
                let context = Context::new(Caller::Mcp(grant.access), Arc::new(peer));
                offers.get_prompt(context, &grant, request)
            },
        )
        .await?;
        ended.response(GetPromptResponse::InputRequired)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let (offers, grant) = self.offering(&context, |o| o.resources)?;
        Ok(ListResourcesResult::with_all_items(offers.resources(&grant)).complete())
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let (offers, grant) = self.offering(&context, |o| o.resources)?;
        Ok(ListResourceTemplatesResult::with_all_items(offers.templates(&grant)).complete())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let (offers, grant) = self.offering(&context, |o| o.resources)?;
        let mut request = request;
        let retry = (request.request_state.take(), request.input_responses.take());
        let target = request.uri.clone();
        let call = rounds::Call {
            principal: Some(&grant.client),
            method: "resources/read",
            target: &target,
            arguments: &Value::Null,
        };
        let seal = self.tools.seal();
        let ended = answer(
            seal,
            &context,
            &self.log,
            &call,
            retry,
            Result::is_err,
            |peer, _| {
                let context = Context::new(Caller::Mcp(grant.access), Arc::new(peer));
                offers.read(context, &grant, request)
            },
        )
        .await?;
        ended.response(ReadResourceResponse::InputRequired)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let (offers, grant) = self.offering(&context, |o| o.completions)?;
        offers
            .complete(&grant, request)
            .await
            .map(Complete::complete)
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        // Resources only: the catalog's tools, and the offers' lists, do not change while
        // the server runs. Which URIs a stream is told of is its client's to read
        // ([`Offers::may_subscribe`]), decided in `listen`, where the request is known.
        self.tools.offers()?.subscriptions()?;
        let mut accepted = SubscriptionFilter::new();
        accepted
            .resource_subscriptions
            .clone_from(&requested.resource_subscriptions);
        Some(accepted)
    }

    async fn listen(&self, subscription: SubscriptionContext) -> Result<(), ErrorData> {
        let (offers, grant) = self.offering(subscription.request_context(), |o| o.resources)?;
        let Some(subscriptions) = offers.subscriptions() else {
            return Err(ErrorData::method_not_found::<
                SubscriptionsListenRequestMethod,
            >());
        };
        let uris = subscription
            .accepted()
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| offers.may_subscribe(&grant, uri))
            .cloned()
            .collect();
        let stream = subscriptions.listen(subscription.sink().clone(), uris);
        subscription.cancelled().await;
        subscriptions.closed(stream);
        Ok(())
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
        let (offers, grant) = self.offering(&context, |o| o.resources)?;
        let Some(subscriptions) = offers.subscriptions() else {
            return Err(ErrorData::method_not_found::<SubscribeRequestMethod>());
        };
        if !offers.may_subscribe(&grant, &request.uri) {
            return Err(offers::not_found(&request.uri));
        }
        let session = *self
            .subscriber
            .get_or_init(|| subscriptions.session(context.peer.clone()));
        subscriptions.subscribe(session, &request.uri);
        Ok(())
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
        let (offers, _) = self.offering(&context, |o| o.resources)?;
        let Some(subscriptions) = offers.subscriptions() else {
            return Err(ErrorData::method_not_found::<UnsubscribeRequestMethod>());
        };
        if let Some(session) = self.subscriber.get() {
            subscriptions.unsubscribe(*session, &request.uri);
        }
        Ok(())
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
        logging::set_level(&self.log, &request, &context)
    }

    /// The tool as listed, which `rmcp` reads to hold a call's `Mcp-Param-*` headers to
    /// its arguments (2026-07-28): the parameters a row mirrors in a header (`header`)
    /// carry `x-mcp-header`. Asked with no request to read a grant from, it looks over
    /// HTTP in the full-access listing; a caller below the tool's level is refused after,
    /// by the level check, as it would be without headers.
    fn get_tool(&self, name: &str) -> Option<Tool> {
        let level = match &self.level {
            Level::Fixed(grant) => grant.access,
            Level::PerRequest => Access::FullAccess,
        };
        self.tools
            .list(level)
            .iter()
            .find(|t| t.name == name)
            .cloned()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let level = self.level.of(&context)?;
        // The list depends on the caller's token: never a shared cache entry.
        Ok(
            ListToolsResult::with_all_items(self.tools.list(level).to_vec())
                .with_cache_scope(CacheScope::Private)
                .complete(),
        )
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let grant = self.level.grant(&context)?;
        match task::route::<C, W>(grant.access, &request.name, &context) {
            Route::Plain => {
                call_tool(&*self.tools, &self.level, &self.log, request, &context).await
            }
            Route::Task => {
                let (revision, log) = (revision(&context), &self.log);
                task::call_tool(&self.tools, &grant, revision, log, request, &context).await
            }
            Route::Refused(error) => {
                let refused = Err(error);
                log_call(&request.name, grant.access, &refused);
                refused
            }
        }
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let grant = self.level.grant(&context)?;
        self.tools.tasks().get(&grant.client, &request.task_id)
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let grant = self.level.grant(&context)?;
        self.tools
            .tasks()
            .update(&grant.client, &request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let grant = self.level.grant(&context)?;
        self.tools.tasks().cancel(&grant.client, &request.task_id)
    }
}

/// What answers a session's `tools/call` requests once [`call_tool`] has read them:
/// [`Tools`] in a server built on this crate, a session of the gateway there. Each
/// passes every call through [`admit`](crate::calls::admit) before anything runs.
pub trait CallPath: Sync {
    /// The seal of the state of this server's calls between rounds (2026-07-28).
    fn seal(&self) -> &Seal;

    /// Answers one call of tool `name` with `arguments` from a client at `level` on
    /// protocol `revision`; `asker` puts the question about a gated call, `peer` is the
    /// client as a handler's context reaches it, and `context` is the request's.
    #[allow(
        clippy::too_many_arguments,
        reason = "one request's call and its client"
    )]
    fn call(
        &self,
        level: Access,
        revision: &ProtocolVersion,
        name: &str,
        arguments: Value,
        asker: &PeerAsker<'_>,
        peer: Arc<dyn Peer>,
        context: &RequestContext<RoleServer>,
    ) -> impl Future<Output = Reply> + Send;
}

impl<C, H, const W: usize> CallPath for Tools<C, H, W>
where
    C: CompiledCatalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
    fn seal(&self) -> &Seal {
        Tools::seal(self)
    }

    fn call(
        &self,
        level: Access,
        revision: &ProtocolVersion,
        name: &str,
        arguments: Value,
        asker: &PeerAsker<'_>,
        peer: Arc<dyn Peer>,
        _: &RequestContext<RoleServer>,
    ) -> impl Future<Output = Reply> + Send {
        Tools::call(self, level, revision, name, arguments, asker, peer)
    }
}

/// One `tools/call` request, as every MCP server here answers it: at the level `level`
/// gives the request, in the protocol revision it speaks, with the client to ask behind
/// it; answered by `path`, logged in one line, and with the events inside it sent to the
/// client at the level `log` holds. On a revision that asks between rounds (2026-07-28)
/// the call runs until it ends or stops at its questions (see [`answer`]). When the client
/// cancels the request, the answer is dropped where it stands (the handler's future with
/// it) and the request ends with an error the client no longer waits for.
///
/// # Errors
/// A request without its level over HTTP, the refusal `path` answers with as a JSON-RPC
/// error, the errors of [`answer`], or the cancellation.
pub async fn call_tool(
    path: &impl CallPath,
    level: &Level,
    log: &ClientLevel,
    mut request: CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Reply {
    // Boxed: rmcp moves each handler's future into a task of its own, and a call's
    // state (the verifier, an upstream's request) is kilobytes, copied on every move.
    let answered = Box::pin(async {
        let grant = level.grant(context)?;
        let revision = revision(context);
        let arguments = request.arguments.take().map_or(Value::Null, Value::Object);
        let retry = (request.request_state.take(), request.input_responses.take());
        let call = rounds::Call {
            principal: Some(&grant.client),
            method: "tools/call",
            target: &request.name,
            arguments: &arguments,
        };
        let (name, access, revision) = (&request.name, grant.access, &revision);
        let result = answer(
            path.seal(),
            context,
            log,
            &call,
            retry,
            calls::failed,
            |peer, round| {
                let asker = PeerAsker::new(context, round);
                let arguments = arguments.clone();
                async move {
                    path.call(
                        access,
                        revision,
                        name,
                        arguments,
                        &asker,
                        Arc::new(peer),
                        context,
                    )
                    .await
                }
            },
        )
        .await
        .map(Ended::into_call);
        log_call(&request.name, grant.access, &result);
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
