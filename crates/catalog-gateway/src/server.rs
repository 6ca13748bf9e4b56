//! One client session of the gateway: the [`Backend`] that `catalog_mcp`'s one
//! `ServerHandler` serves, over [`Gateway`].

use std::sync::Arc;

use catalog_check::model::Offered;
use catalog_core::Value;
use catalog_core::talk::Peer;
use catalog_mcp::backend::{Asking, Backend, Request};
use catalog_mcp::calls::Reply;
use catalog_mcp::elicit::PeerAsker;
use catalog_mcp::handler::{CallPath, call_tool};
use catalog_mcp::rounds::{Round, Seal};
use catalog_mcp::talk::asks_between_rounds;
use catalog_mcp::{Grant, Level, Server};
use catalog_upstream::tasks::Asked;
use rmcp::ErrorData;
#[allow(
    deprecated,
    reason = "MCP logging: deprecated on 2026-07-28, served up to it"
)]
use rmcp::model::LoggingLevel;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CancelTaskParams, CompleteRequestParams, CompleteResult,
    GetPromptRequestParams, GetPromptResult, GetTaskParams, GetTaskResult, Implementation,
    InitializeRequestParams, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    PromptsCapability, ProtocolVersion, ReadResourceRequestParams, ReadResourceResult,
    ResourcesCapability, ServerCapabilities, ServerConfig, SubscriptionFilter, TASKS_EXTENSION_ID,
    Tool, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer, SubscriptionContext};
use rmcp::transport::streamable_http_server::session::SessionRestoreMarker;
use serde_json::json;

use crate::discovered::Discovered;
use crate::gateway::{Discoverable, Gateway, Requester};
use crate::relay::{Link, Sessionless, Target};
use crate::traces::Carried;

/// The `_meta` key of a 2026-07-28 request's client capabilities.
const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

/// The `_meta` key of the log level a 2026-07-28 request asks for.
const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

/// A client session: the shared gateway, its discovery state when discoverable rows are
/// found through search, and its link to the upstreams. What it serves is
/// `Server<Session>` ([`Session::serve`]), which reads each request's level.
pub struct Session {
    gateway: Arc<Gateway>,
    /// Boxed: a catalog's sets are a few kilobytes, and futures carry the session.
    discovery: Option<Box<Discovered>>,
    link: Arc<Link>,
}

impl Session {
    /// A new session of `gateway` at `level`, as its server. A session at one fixed level
    /// for its whole life is the gateway's one client (stdio), whose sessions with the
    /// upstreams are the gateway's own; a session whose requests each carry their level
    /// (HTTP) is one client among many, with sessions of its own.
    #[must_use]
    pub fn serve(gateway: Arc<Gateway>, level: Level) -> Server<Session> {
        let discovery = (gateway.discoverable() == Discoverable::Search)
            .then(|| Box::new(gateway.discovered()));
        let link = Arc::new(match level {
            Level::Fixed(_) => gateway.solo(),
            Level::PerRequest => gateway.own_link(),
        });
        let session = Session {
            gateway,
            discovery,
            link,
        };
        Server::over(session, level)
    }

    /// How the session's client reaches the upstreams.
    #[must_use]
    pub fn link(&self) -> &Arc<Link> {
        &self.link
    }

    /// What a request between rounds (`round`) needs to be its own relay: its id, its
    /// stream, its log level, and the context that asks through `peer`.
    fn sessionless(
        request: &Request<'_>,
        peer: Arc<dyn Peer>,
        round: Option<Arc<Round>>,
    ) -> Option<(rmcp::model::RequestId, Sessionless)> {
        let context = request.context();
        round.map(|round| {
            // What the request says of its client, said again to an upstream that asks
            // between rounds too.
            let mut meta = rmcp::model::RequestMetaObject::default();
            for key in [CLIENT_CAPABILITIES, LOG_LEVEL] {
                if let Some(value) = context.meta.get(key) {
                    meta.insert(key.to_owned(), value.clone());
                }
            }
            let caller = catalog_core::Caller::Mcp(request.grant().access);
            let call = Sessionless {
                peer: context.peer.clone(),
                log: request.log().for_request(context),
                context: catalog_core::Context::new(caller, peer),
                round,
                meta,
            };
            (context.id.clone(), call)
        })
    }

    /// How the client of `request` reaches the upstreams: the session's link, or for a
    /// client without a session (2026-07-28), whose every request is a session of its
    /// own, the link of its credential (see [`Gateway::sessionless_link`]).
    fn link_for(&self, request: &Request<'_>) -> Arc<Link> {
        if asks_between_rounds(request.context()) && self.link.is_own() {
            self.gateway.sessionless_link(request.grant())
        } else {
            Arc::clone(&self.link)
        }
    }
}

impl Backend for Session {
    fn info(&self, _: &Level) -> ServerConfig {
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
        ServerConfig::new(capabilities)
        .with_server_info(Implementation::new(
            "catalog-gateway",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions(format!(
            "A catalog gateway: reviewed tools of other MCP servers. {how}; a tool whose server changed it since review is withheld."
        ))
    }

    fn seal(&self) -> &Seal {
        self.gateway.seal()
    }

    fn began(
        &self,
        initialize: &InitializeRequestParams,
        request: &Request<'_>,
    ) -> Result<(), ErrorData> {
        let context = request.context();
        // Which replica a session began on, and which took it over, for the operator.
        if let Some(restored) = context.extensions.get::<SessionRestoreMarker>() {
            tracing::info!(session = %restored.id, "a client session of another replica continues here");
        } else {
            tracing::info!(client = %initialize.client_info.name, "a client session began");
        }
        // Whom the upstreams' relays reach, and what they may ask of it.
        self.link.client().set(Target {
            peer: context.peer.clone(),
            capabilities: initialize.capabilities.clone(),
            grant: request.grant().clone(),
            session: session_id(context).map(Arc::from),
        });
        Ok(())
    }

    async fn initialized(&self, context: NotificationContext<RoleServer>) {
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

    async fn roots_changed(&self) {
        for session in self.gateway.sessions_of(&self.link).await {
            if let Err(error) = session.roots_changed().await {
                tracing::debug!(%error, "an upstream was not told the client's roots changed");
            }
        }
    }

    #[allow(
        deprecated,
        reason = "MCP logging: deprecated on 2026-07-28, served up to it"
    )]
    async fn log_level(&self, level: LoggingLevel) {
        // The upstreams the client reaches send their messages at its level too.
        for session in self.gateway.sessions_of(&self.link).await {
            if let Err(error) = session.set_level(level).await {
                tracing::debug!(%error, "an upstream did not take the client's log level");
            }
        }
    }

    /// An upstream's `x-mcp-header` is checked as its server would.
    fn tool(&self, name: &str, _: &Level) -> Option<Tool> {
        self.gateway.listed(name)
    }

    async fn tools(&self, request: &Request<'_>) -> Result<Vec<Tool>, ErrorData> {
        let grant = request.grant();
        let active = match &self.discovery {
            Some(discovered) => Some(
                self.gateway.active(
                    discovered
                        .rows(&*self.gateway.loaded().rows, request.context(), grant)
                        .await?,
                ),
            ),
            None => None,
        };
        Ok(self.gateway.list(grant, active))
    }

    async fn call_tool(&self, call: CallToolRequestParams, request: &Request<'_>) -> Reply {
        call_tool(self, call, request).await
    }

    fn prompts(&self, request: &Request<'_>) -> Result<ListPromptsResult, ErrorData> {
        sdk(json!({"prompts": self.gateway.prompts(request.grant())}))
    }

    async fn get_prompt(
        &self,
        prompt: GetPromptRequestParams,
        request: &Request<'_>,
        asking: Asking,
    ) -> Result<GetPromptResult, ErrorData> {
        let link = self.link_for(request);
        let sessionless = Self::sessionless(request, Arc::new(asking.peer), asking.round);
        let (grant, name) = (request.grant(), &prompt.name);
        let result = self
            .gateway
            .get_prompt(grant, &link, name, prompt.arguments, sessionless)
            .await?;
        sdk::<GetPromptResult>(result)
    }

    fn resources(&self, request: &Request<'_>) -> Result<ListResourcesResult, ErrorData> {
        sdk(json!({"resources": self.gateway.resources(request.grant())}))
    }

    fn templates(&self, request: &Request<'_>) -> Result<ListResourceTemplatesResult, ErrorData> {
        sdk(json!({"resourceTemplates": self.gateway.templates(request.grant())}))
    }

    async fn read(
        &self,
        read: ReadResourceRequestParams,
        request: &Request<'_>,
        asking: Asking,
    ) -> Result<ReadResourceResult, ErrorData> {
        let link = self.link_for(request);
        let sessionless = Self::sessionless(request, Arc::new(asking.peer), asking.round);
        let result = self
            .gateway
            .read_resource(request.grant(), &link, &read.uri, sessionless)
            .await?;
        // Read at the client's level and profile: no one else's to reuse, whatever the
        // upstream said of it.
        let mut result = sdk::<ReadResourceResult>(result)?;
        result.cache_scope = Some(CacheScope::Private);
        Ok(result)
    }

    async fn complete(
        &self,
        complete: CompleteRequestParams,
        request: &Request<'_>,
    ) -> Result<CompleteResult, ErrorData> {
        let link = self.link_for(request);
        self.gateway
            .complete(request.grant(), &link, complete)
            .await
    }

    fn accepted(&self, requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        // The SDK keeps of it what the gateway declares; the resources a stream hears of
        // are those its client may read, decided in `listen`.
        Some(requested.clone())
    }

    async fn listen(
        &self,
        subscription: SubscriptionContext,
        grant: Grant,
    ) -> Result<(), ErrorData> {
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

    async fn subscribe(&self, uri: &str, request: &Request<'_>) -> Result<(), ErrorData> {
        self.gateway
            .subscribe(request.grant(), &self.link, uri)
            .await
    }

    async fn unsubscribe(&self, uri: &str, request: &Request<'_>) -> Result<(), ErrorData> {
        self.gateway
            .unsubscribe(request.grant(), &self.link, uri)
            .await
    }

    async fn get_task(
        &self,
        task: GetTaskParams,
        request: &Request<'_>,
    ) -> Result<GetTaskResult, ErrorData> {
        let (grant, context) = (request.grant(), request.context());
        match self
            .gateway
            .task(grant, &task.task_id, Asked::State, context)
            .await?
        {
            Some(task) => Ok(task),
            None => Err(ErrorData::internal_error("tasks/get read no task", None)),
        }
    }

    async fn update_task(
        &self,
        task: UpdateTaskParams,
        request: &Request<'_>,
    ) -> Result<(), ErrorData> {
        let answers = Asked::Answers(task.input_responses);
        self.gateway
            .task(request.grant(), &task.task_id, answers, request.context())
            .await
            .map(drop)
    }

    async fn cancel_task(
        &self,
        task: CancelTaskParams,
        request: &Request<'_>,
    ) -> Result<(), ErrorData> {
        self.gateway
            .task(
                request.grant(),
                &task.task_id,
                Asked::Cancel,
                request.context(),
            )
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
        request: &Request<'_>,
        revision: &ProtocolVersion,
        name: &str,
        arguments: Value,
        asker: &PeerAsker<'_>,
        peer: Arc<dyn Peer>,
    ) -> Reply {
        let (grant, context) = (request.grant(), request.context());
        let link = self.link_for(request);
        let sessionless =
            Self::sessionless(request, peer, asker.round().cloned()).map(|(_, call)| call);
        let session = session_id(context);
        let carried = |key: &str| {
            context
                .meta
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let client = Requester {
            grant,
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
