//! The MCP server proper: `rmcp`'s `ServerHandler`, written by hand because the tools
//! come from the catalog, not from Rust functions.

use std::fmt;
use std::future::Future;
use std::sync::{Arc, OnceLock};

use axum::http::request::Parts;
use catalog_core::talk::Peer;
use catalog_core::{Access, CompiledCatalog, HandledBy, Value};
#[allow(
    deprecated,
    reason = "MCP logging: deprecated on 2026-07-28, served up to it"
)]
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
    ErrorCode, GetPromptRequestParams, GetPromptResponse, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig, SubscribeRequestMethod, SubscribeRequestParams, UnsubscribeRequestMethod,
    UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};

use crate::calls::{Reply, Tools};
use crate::elicit::PeerAsker;
use crate::logging::{self, ClientLevel};
use crate::offers::{self, Offered, Offers};
use crate::rounds::{self, Round, Seal};
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

/// One line in the log for each `tools/call`: how it ended.
pub fn log_call(tool: &str, level: Access, result: &Reply) {
    match result {
        Ok(CallToolResponse::Complete(done)) if done.is_error == Some(true) => {
            tracing::info!(%tool, %level, "tools/call answered with an error result");
        }
        Ok(CallToolResponse::Complete(_)) => tracing::debug!(%tool, %level, "tools/call ran"),
        Ok(_) => tracing::info!(%tool, %level, "tools/call waits for the user's answer"),
        Err(error) => {
            tracing::info!(%tool, %level, code = error.code.0, "tools/call refused");
        }
    }
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
        let mut capabilities = ServerCapabilities::builder().enable_tools().build();
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
        Ok(ListPromptsResult::with_all_items(offers.prompts(&grant)))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let (offers, grant) = self.offering(&context, |o| o.prompts)?;
        offers.get_prompt(&grant, request).await.map(Into::into)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let (offers, grant) = self.offering(&context, |o| o.resources)?;
        Ok(ListResourcesResult::with_all_items(
            offers.resources(&grant),
        ))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let (offers, grant) = self.offering(&context, |o| o.resources)?;
        Ok(ListResourceTemplatesResult::with_all_items(
            offers.templates(&grant),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let (offers, grant) = self.offering(&context, |o| o.resources)?;
        offers.read(&grant, request).await.map(Into::into)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let (offers, grant) = self.offering(&context, |o| o.completions)?;
        offers.complete(&grant, request).await
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

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let level = self.level.of(&context)?;
        // The list depends on the caller's token: never a shared cache entry.
        Ok(
            ListToolsResult::with_all_items(self.tools.list(level).to_vec())
                .with_cache_scope(CacheScope::Private),
        )
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        call_tool(&*self.tools, &self.level, &self.log, request, &context).await
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
/// the call runs until it ends or stops at its questions, with the answers its sealed
/// state and its `inputResponses` bring (see [`crate::rounds`]). When the client cancels
/// the request, the answer is dropped where it stands (the handler's future with it) and
/// the request ends with an error the client no longer waits for.
///
/// # Errors
/// A request without its level over HTTP, a `requestState` that does not open, the
/// refusal `path` answers with as a JSON-RPC error, a call that failed for want of a
/// capability its 2026-07-28 client did not declare, or the cancellation.
pub async fn call_tool(
    path: &impl CallPath,
    level: &Level,
    log: &ClientLevel,
    mut request: CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Reply {
    // Boxed: rmcp moves each handler's future into a task of its own, and a call's
    // state (the verifier, an upstream's request) is kilobytes, copied on every move.
    let answer = Box::pin(async {
        let grant = level.grant(context)?;
        let revision = revision(context);
        let arguments = request.arguments.take().map_or(Value::Null, Value::Object);
        let peer = ClientPeer::new(context, log.for_request(context));
        let result = if asks_between_rounds(context) {
            let call = rounds::Call {
                principal: Some(&grant.client),
                method: "tools/call",
                target: &request.name,
                arguments: &arguments,
            };
            let earlier = match request.request_state.take() {
                Some(state) => path.seal().open(&state, &call)?,
                None => rounds::Opened::default(),
            };
            let round = Arc::new(Round::new(earlier, request.input_responses.take()));
            let asker = PeerAsker::new(context, Some(Arc::clone(&round)));
            let peer = Arc::new(peer.between_rounds(Arc::clone(&round)));
            let run = path.call(
                grant.access,
                &revision,
                &request.name,
                arguments.clone(),
                &asker,
                peer,
                context,
            );
            match rounds::drive(&round, run).await {
                Some(result) => rounds::settled(result, &round),
                None => round
                    .ending(path.seal(), &call)
                    .map(CallToolResponse::InputRequired),
            }
        } else {
            let asker = PeerAsker::new(context, None);
            path.call(
                grant.access,
                &revision,
                &request.name,
                arguments,
                &asker,
                Arc::new(peer),
                context,
            )
            .await
        };
        log_call(&request.name, grant.access, &result);
        result
    });
    let answer = logging::scoped(log.for_request(context), &context.peer, answer);
    tokio::select! {
        result = answer => result,
        () = context.ct.cancelled() => {
            tracing::info!(request = %context.id, "tools/call cancelled by the client");
            Err(ErrorData::new(ErrorCode::INVALID_REQUEST, "the client cancelled the request", None))
        }
    }
}
