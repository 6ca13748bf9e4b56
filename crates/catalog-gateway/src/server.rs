//! One client session of the gateway: `rmcp`'s `ServerHandler` over [`Gateway`].

use std::sync::Arc;

use catalog_check::model::Offered;
use catalog_core::talk::Peer;
use catalog_core::{Access, Value};
use catalog_mcp::Grant;
use catalog_mcp::Level;
use catalog_mcp::calls::Reply;
use catalog_mcp::complete::Complete;
use catalog_mcp::elicit::PeerAsker;
use catalog_mcp::handler::{CallPath, answer, call_tool};
use catalog_mcp::logging::{self, ClientLevel};
use catalog_mcp::rounds::{self, Round, Seal};
use catalog_mcp::talk::asks_between_rounds;
use catalog_upstream::tasks::Asked;
#[allow(
    deprecated,
    reason = "MCP logging: deprecated on 2026-07-28, served up to it"
)]
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CancelTaskParams, CompleteRequestParams,
    CompleteResult, GetPromptRequestParams, GetPromptResponse, GetPromptResult, GetTaskParams,
    GetTaskResult, Implementation, InitializeRequestParams, InitializeResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    PromptsCapability, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, ResourcesCapability, ServerCapabilities, ServerConfig,
    SubscribeRequestParams, SubscriptionFilter, TASKS_EXTENSION_ID, Tool, UnsubscribeRequestParams,
    UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer, SubscriptionContext};
use rmcp::transport::streamable_http_server::session::SessionRestoreMarker;
use rmcp::{ErrorData, ServerHandler};
use serde_json::json;

use crate::discovered::Discovered;
use crate::gateway::{Discoverable, Gateway, Requester};
use crate::relay::{Link, Sessionless, Target};
use crate::traces::Carried;

/// The `_meta` key of a 2026-07-28 request's client capabilities.
const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

/// The `_meta` key of the log level a 2026-07-28 request asks for.
const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

/// A client session: the shared gateway, where the session's level comes from, its
/// discovery state when discoverable rows are found through search, and its link to the
/// upstreams.
pub struct Session {
    gateway: Arc<Gateway>,
    level: Level,
    /// Boxed: a catalog's sets are a few kilobytes, and futures carry the session.
    discovery: Option<Box<Discovered>>,
    /// The level of log messages the session's client asked for.
    log: ClientLevel,
    link: Arc<Link>,
}

impl Session {
    /// A new session of `gateway` at `level`. A session at one fixed level for its whole
    /// life is the gateway's one client (stdio), whose sessions with the upstreams are the
    /// gateway's own; a session whose requests each carry their level (HTTP) is one
    /// client among many, with sessions of its own.
    #[must_use]
    pub fn new(gateway: Arc<Gateway>, level: Level) -> Session {
        let discovery = (gateway.discoverable() == Discoverable::Search)
            .then(|| Box::new(gateway.discovered()));
        let link = Arc::new(match level {
            Level::Fixed(_) => gateway.solo(),
            Level::PerRequest => gateway.own_link(),
        });
        Session {
            gateway,
            level,
            discovery,
            log: ClientLevel::default(),
            link,
        }
    }

    /// How the session's client reaches the upstreams.
    #[must_use]
    pub fn link(&self) -> &Arc<Link> {
        &self.link
    }

    /// What a request between rounds (`between`) needs to be its own relay: its id, its
    /// stream, its log level, and the context that asks through `peer`.
    fn sessionless(
        &self,
        context: &RequestContext<RoleServer>,
        grant: &Grant,
        peer: Arc<dyn Peer>,
        round: Option<Arc<Round>>,
    ) -> Option<(rmcp::model::RequestId, Sessionless)> {
        round.map(|round| {
            // What the request says of its client, said again to an upstream that asks
            // between rounds too.
            let mut meta = rmcp::model::RequestMetaObject::default();
            for key in [CLIENT_CAPABILITIES, LOG_LEVEL] {
                if let Some(value) = context.meta.get(key) {
                    meta.insert(key.to_owned(), value.clone());
                }
            }
            let call = Sessionless {
                peer: context.peer.clone(),
                log: self.log.for_request(context),
                context: catalog_core::Context::new(catalog_core::Caller::Mcp(grant.access), peer),
                round,
                meta,
            };
            (context.id.clone(), call)
        })
    }

    /// How the client of `context`'s request reaches the upstreams: the session's link,
    /// or for a client without a session (2026-07-28), whose every request is a session
    /// of its own, the link of its credential (see [`Gateway::sessionless_link`]).
    fn link_for(&self, context: &RequestContext<RoleServer>, grant: &Grant) -> Arc<Link> {
        if asks_between_rounds(context) && self.link.is_own() {
            self.gateway.sessionless_link(grant)
        } else {
            Arc::clone(&self.link)
        }
    }
}

impl ServerHandler for Session {
    fn get_info(&self) -> ServerConfig {
        let how = match self.gateway.discoverable() {
            Discoverable::Listed => "tools/list shows every tool this connection's level may call",
            Discoverable::Search => {
                "tools/list shows the core tools and a search tool; each search adds the tools it finds to the list"
            }
        };
        let mut capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        // Prompts and resources only when the catalog pins some; completions and
        // subscriptions when an upstream of those declares them.
        let gateway = &self.gateway;
        let offers = &gateway.loaded().catalog.offers;
        let prompt = |w: &Offered| matches!(w, Offered::Prompt(_));
        if offers.iter().any(|o| prompt(&o.what)) {
            let mut prompts = PromptsCapability::default();
            prompts.list_changed = Some(true);
            capabilities.prompts = Some(prompts);
        }
        if offers.iter().any(|o| !prompt(&o.what)) {
            let mut resources = ResourcesCapability::default();
            resources.list_changed = Some(true);
            let subscribe = gateway.offers_declare(
                |w| !prompt(w),
                |c| {
                    c.resources
                        .as_ref()
                        .is_some_and(|r| r.subscribe == Some(true))
                },
            );
            resources.subscribe = subscribe.then_some(true);
            capabilities.resources = Some(resources);
        }
        let completed = |w: &Offered| !matches!(w, Offered::Resource(_));
        if gateway.offers_declare(completed, |c| c.completions.is_some()) {
            capabilities.completions = Some(serde_json::Map::new());
        }
        // Tasks when an upstream makes them: the gateway passes them on.
        if gateway.upstreams_declare(ServerCapabilities::supports_tasks) {
            capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(TASKS_EXTENSION_ID.to_owned(), serde_json::Map::new());
        }
        ServerConfig::new(logging::declared(capabilities))
        .with_server_info(Implementation::new(
            "catalog-gateway",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions(format!(
            "A catalog gateway: reviewed tools of other MCP servers. {how}; a tool whose server changed it since review is withheld."
        ))
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        // Which replica a session began on, and which took it over, for the operator.
        if let Some(restored) = context.extensions.get::<SessionRestoreMarker>() {
            tracing::info!(session = %restored.id, "a client session of another replica continues here");
        } else {
            tracing::info!(client = %request.client_info.name, "a client session began");
        }
        context.peer.set_peer_info(request.clone());
        // Whom the upstreams' relays reach, and what they may ask of it.
        self.link.client().set(Target {
            peer: context.peer.clone(),
            capabilities: request.capabilities.clone(),
            grant: self.level.grant(&context)?,
            session: session_id(&context).map(Arc::from),
        });
        self.negotiate_initialize(&request)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        if let Some(session) = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.headers.get("mcp-session-id"))
            .and_then(|id| id.to_str().ok())
        {
            self.link.client().in_session(session);
        }
        self.gateway.add_peer(context.peer);
        // A client with sessions of its own begins them now, as it would with each
        // server direct: what an upstream asks or says at the start is this client's.
        if self.link.is_own() {
            Gateway::open_sessions(&self.gateway, &self.link);
        }
    }

    /// The tool as listed, which `rmcp` reads to hold a call's `Mcp-Param-*` headers to
    /// its arguments (2026-07-28): an upstream's `x-mcp-header` is checked here as its
    /// server would. Asked with no request, so with no grant: a call the client may not
    /// make is refused after, as it would be without headers.
    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.gateway.listed(name)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let grant = self.level.grant(&context)?;
        let active = match &self.discovery {
            Some(discovered) => Some(
                self.gateway.active(
                    discovered
                        .rows(&*self.gateway.loaded().rows, &context, &grant)
                        .await?,
                ),
            ),
            None => None,
        };
        Ok(
            ListToolsResult::with_all_items(self.gateway.list(&grant, active))
                .with_cache_scope(CacheScope::Private)
                .complete(),
        )
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let grant = self.level.grant(&context)?;
        sdk(json!({"prompts": self.gateway.prompts(&grant)})).map(Complete::complete)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let grant = self.level.grant(&context)?;
        let mut request = request;
        let retry = (request.request_state.take(), request.input_responses.take());
        let arguments = request.arguments.clone().map_or(Value::Null, Value::Object);
        let call = rounds::Call {
            principal: Some(&grant.client),
            method: "prompts/get",
            target: &request.name,
            arguments: &arguments,
        };
        let link = self.link_for(&context, &grant);
        let ended = answer(
            self.gateway.seal(),
            &context,
            &self.log,
            &call,
            retry,
            Result::is_err,
            |peer, round| {
                let sessionless = self.sessionless(&context, &grant, Arc::new(peer), round);
                let name = request.name.clone();
                let link = &link;
                let grant = &grant;
                async move {
                    let result = self
                        .gateway
                        .get_prompt(grant, link, &name, request.arguments, sessionless)
                        .await?;
                    sdk::<GetPromptResult>(result)
                }
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
        let grant = self.level.grant(&context)?;
        sdk(json!({"resources": self.gateway.resources(&grant)})).map(Complete::complete)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let grant = self.level.grant(&context)?;
        sdk(json!({"resourceTemplates": self.gateway.templates(&grant)})).map(Complete::complete)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let grant = self.level.grant(&context)?;
        let mut request = request;
        let retry = (request.request_state.take(), request.input_responses.take());
        let call = rounds::Call {
            principal: Some(&grant.client),
            method: "resources/read",
            target: &request.uri,
            arguments: &Value::Null,
        };
        let link = self.link_for(&context, &grant);
        let ended = answer(
            self.gateway.seal(),
            &context,
            &self.log,
            &call,
            retry,
            Result::is_err,
            |peer, round| {
                let sessionless = self.sessionless(&context, &grant, Arc::new(peer), round);
                let (link, grant, uri) = (&link, &grant, &request.uri);
                async move {
                    let result = self
                        .gateway
                        .read_resource(grant, link, uri, sessionless)
                        .await?;
                    // Read at the client's level and profile: no one else's to reuse,
                    // whatever the upstream said of it.
                    let mut result = sdk::<ReadResourceResult>(result)?;
                    result.cache_scope = Some(CacheScope::Private);
                    Ok(result)
                }
            },
        )
        .await?;
        ended.response(ReadResourceResponse::InputRequired)
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
        // The upstreams the client reaches send their messages at its level too.
        for session in self.gateway.sessions_of(&self.link).await {
            if let Err(error) = session.set_level(request.level).await {
                tracing::debug!(%error, "an upstream did not take the client's log level");
            }
        }
        Ok(())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let grant = self.level.grant(&context)?;
        self.gateway
            .complete(&grant, &self.link_for(&context, &grant), request)
            .await
            .map(Complete::complete)
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        // The SDK keeps of it what the gateway declares; the resources a stream hears of
        // are those its client may read, decided in `listen`.
        Some(requested.clone())
    }

    async fn listen(&self, subscription: SubscriptionContext) -> Result<(), ErrorData> {
        let grant = self.level.grant(subscription.request_context())?;
        let uris = subscription
            .accepted()
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| self.gateway.may_read(&grant, uri))
            .cloned()
            .collect();
        let listeners = Arc::clone(&self.gateway.listeners);
        let (stream, new) = listeners.open(subscription.sink().clone(), uris);
        let link = self.gateway.sessionless_link(&grant);
        for uri in &new {
            if let Err(error) = self.gateway.subscribe(&grant, &link, uri).await {
                tracing::debug!(%uri, %error, "a listened resource's upstream did not subscribe");
            }
        }
        subscription.cancelled().await;
        for uri in listeners.close(stream) {
            if let Err(error) = self.gateway.unsubscribe(&grant, &link, &uri).await {
                tracing::debug!(%uri, %error, "a resource no one listens to stays subscribed");
            }
        }
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
        let grant = self.level.grant(&context)?;
        self.gateway
            .subscribe(&grant, &self.link, &request.uri)
            .await
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
        let grant = self.level.grant(&context)?;
        self.gateway
            .unsubscribe(&grant, &self.link, &request.uri)
            .await
    }

    async fn on_roots_list_changed(&self, _: NotificationContext<RoleServer>) {
        for session in self.gateway.sessions_of(&self.link).await {
            if let Err(error) = session.roots_changed().await {
                tracing::debug!(%error, "an upstream was not told the client's roots changed");
            }
        }
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        call_tool(self, &self.level, &self.log, request, &context).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let grant = self.level.grant(&context)?;
        let id = &request.task_id;
        match self
            .gateway
            .task(&grant, id, Asked::State, &context)
            .await?
        {
            Some(task) => Ok(task),
            None => Err(ErrorData::internal_error("tasks/get read no task", None)),
        }
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let grant = self.level.grant(&context)?;
        let answers = Asked::Answers(request.input_responses);
        self.gateway
            .task(&grant, &request.task_id, answers, &context)
            .await
            .map(drop)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let grant = self.level.grant(&context)?;
        self.gateway
            .task(&grant, &request.task_id, Asked::Cancel, &context)
            .await
            .map(drop)
    }
}

/// A session answers its calls through the gateway's one call path, with its discovery
/// state and its client to tell when a search adds to its list.
impl CallPath for Session {
    fn seal(&self) -> &Seal {
        self.gateway.seal()
    }

    async fn call(
        &self,
        _: Access,
        revision: &ProtocolVersion,
        name: &str,
        arguments: Value,
        asker: &PeerAsker<'_>,
        peer: Arc<dyn Peer>,
        context: &RequestContext<RoleServer>,
    ) -> Reply {
        let grant = self.level.grant(context)?;
        let link = self.link_for(context, &grant);
        let sessionless = self
            .sessionless(context, &grant, peer, asker.round().cloned())
            .map(|(_, call)| call);
        let session = session_id(context);
        let carried = |key: &str| {
            context
                .meta
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let client = Requester {
            grant: &grant,
            session,
            trace: Carried {
                traceparent: carried("traceparent"),
                tracestate: carried("tracestate"),
            },
            link: &link,
            request: Some((context.id.clone(), context.meta.get_progress_token())),
            sessionless,
        };
        let discovery = self.discovery.as_deref().map(|d| (d, context));
        self.gateway
            .call(&client, revision, name, arguments, asker, discovery)
            .await
    }
}

/// The MCP session a request over HTTP names.
fn session_id(context: &RequestContext<RoleServer>) -> Option<&str> {
    context
        .extensions
        .get::<axum::http::request::Parts>()
        .and_then(|parts| parts.headers.get("mcp-session-id"))
        .and_then(|id| id.to_str().ok())
}

/// A listing or result the gateway wrote as JSON, in the SDK's type; the JSON is the
/// upstream's, which the SDK read once already, so a failure is the upstream's fault.
fn sdk<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value).map_err(|e| {
        ErrorData::internal_error(format!("an upstream's answer is not MCP: {e}"), None)
    })
}
