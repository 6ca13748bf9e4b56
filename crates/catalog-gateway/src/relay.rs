//! What the upstreams send back, passed on to the client whose request caused it and to
//! no other: progress and log messages, resource updates, and the upstreams' own requests
//! (sampling, elicitation, roots, any other), each question and its answer audited.
//!
//! A client session reaches the upstreams through its [`Link`]. Over HTTP, where many
//! clients share the gateway, each client has sessions of its own with the upstreams it
//! uses, opened when it first needs one and closed with its own: whatever an upstream
//! sends on such a session is that client's. Over stdio the gateway has one client, and
//! the gateway's own sessions are its. A client without a session (MCP 2026-07-28)
//! reaches the upstreams through the gateway's own sessions too, and each of its calls
//! carries a [`CallRelay`] of its own: what an upstream sends for that call reaches that
//! call's stream, and what it asks is asked between rounds.

// MCP 2026-07-28 deprecates sampling, roots and logging (SEP-2577) and `rmcp` marks its
// types so; clients and upstreams of 2025-11-25 use them.
#![allow(deprecated)]

use std::collections::BTreeMap;
use std::sync::{Arc, PoisonError, RwLock};

use serde_json::Value;
use std::time::Instant;

use catalog_check::model::Transport;
use catalog_core::talk::{Root, Sampling, TalkError};
use catalog_core::{BoxFuture, Context, UrlElicitation};
use catalog_mcp::Grant;
use catalog_mcp::rounds::Round;
use catalog_upstream::Upstream;
use catalog_upstream::relay::{self, Origin, Relay};
use rmcp::ErrorData;
use rmcp::model::{
    CancelledNotificationParam, ClientCapabilities, ClientResult, CustomRequest,
    ElicitRequestParams, ErrorCode, GetExtensions as _, LoggingLevel, RequestMetaObject,
    ServerNotification, ServerRequest,
};
use rmcp::service::{OriginatingRequestId, Peer, PeerRequestOptions, RoleServer};
use tokio_util::sync::CancellationToken;

use crate::audit::{self, Audit};
use crate::listen::Listeners;

/// Who a client is, as the relay tells the upstreams and writes in the audit log.
#[derive(Clone, Debug)]
pub struct Target {
    /// The client's session.
    pub peer: Peer<RoleServer>,
    /// What it declared it can do.
    pub capabilities: ClientCapabilities,
    /// Its credential's grant.
    pub grant: Grant,
    /// Its MCP session, over HTTP.
    pub session: Option<Arc<str>>,
}

/// One client, as the relays of its upstream sessions reach it: known once its session
/// is (over stdio, from `notifications/initialized`; over HTTP, from its first request).
#[derive(Debug, Default)]
pub struct Client {
    target: RwLock<Option<Target>>,
    audit: Option<Arc<Audit>>,
    /// The listen streams told of resource updates too (the gateway's own sessions').
    listeners: Option<Arc<Listeners>>,
}

impl Client {
    /// A client not known yet, whose relayed questions go to `audit`.
    #[must_use]
    pub fn new(audit: Option<Arc<Audit>>) -> Client {
        Client {
            target: RwLock::new(None),
            audit,
            listeners: None,
        }
    }

    /// The client of the gateway's own sessions, whose resource updates the clients
    /// without a session hear on their `listeners` streams too.
    #[must_use]
    pub fn heard_by(mut self, listeners: Arc<Listeners>) -> Client {
        self.listeners = Some(listeners);
        self
    }

    /// The client is `target` from now on.
    pub fn set(&self, target: Target) {
        *self.target.write().unwrap_or_else(PoisonError::into_inner) = Some(target);
    }

    /// The client's MCP session is `session` (over HTTP, the id comes with the answer to
    /// `initialize`, so with the requests after it).
    pub fn in_session(&self, session: &str) {
        let mut target = self.target.write().unwrap_or_else(PoisonError::into_inner);
        if let Some(target) = target.as_mut().filter(|t| t.session.is_none()) {
            target.session = Some(Arc::from(session));
        }
    }

    /// The client, if known.
    #[must_use]
    pub fn target(&self) -> Option<Target> {
        self.target
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// The relay of one upstream session of one client.
struct Relaying {
    client: Arc<Client>,
    upstream: String,
}

/// What a client that declared `capabilities` can be asked through a relay: its own
/// capabilities, of those a relay passes on.
fn relayable_of(capabilities: &ClientCapabilities) -> ClientCapabilities {
    let mut declared = ClientCapabilities::default();
    declared.sampling.clone_from(&capabilities.sampling);
    declared.elicitation.clone_from(&capabilities.elicitation);
    declared.roots.clone_from(&capabilities.roots);
    declared
}

/// Whether a client that declared `capabilities` can take `request`; the capability it
/// lacks otherwise.
fn undeclared(capabilities: &ClientCapabilities, request: &ServerRequest) -> Option<&'static str> {
    match request {
        ServerRequest::CreateMessageRequest(sampling) => match &capabilities.sampling {
            None => Some("sampling"),
            Some(declared)
                if (sampling.params.tools.is_some() || sampling.params.tool_choice.is_some())
                    && declared.tools.is_none() =>
            {
                Some("sampling.tools")
            }
            Some(_) => None,
        },
        ServerRequest::ElicitRequest(elicitation) => {
            let url = matches!(
                elicitation.params,
                rmcp::model::ElicitRequestParams::UrlElicitationParams { .. }
            );
            match &capabilities.elicitation {
                None => Some("elicitation"),
                Some(modes) if url && modes.url.is_none() => Some("elicitation.url"),
                Some(modes) if !url && modes.form.is_none() && modes.url.is_some() => {
                    Some("elicitation.form")
                }
                Some(_) => None,
            }
        }
        ServerRequest::ListRootsRequest(_) => capabilities.roots.is_none().then_some("roots"),
        // A ping, or a request of a kind the client alone can judge (tasks).
        _ => None,
    }
}

/// A request's method, as MCP names it.
fn method(request: &ServerRequest) -> String {
    match request {
        ServerRequest::PingRequest(_) => "ping".into(),
        ServerRequest::CreateMessageRequest(_) => "sampling/createMessage".into(),
        ServerRequest::ListRootsRequest(_) => "roots/list".into(),
        ServerRequest::ElicitRequest(_) => "elicitation/create".into(),
        ServerRequest::CustomRequest(custom) => custom.method.clone(),
        _ => "(unknown)".into(),
    }
}

/// How a relayed question ended, as the audit line says it.
fn answered(result: &Result<ClientResult, ErrorData>) -> (String, Option<String>) {
    match result {
        Ok(ClientResult::ElicitResult(elicited)) => (
            serde_json::to_value(&elicited.action)
                .ok()
                .and_then(|a| a.as_str().map(str::to_owned))
                .unwrap_or_else(|| "answered".into()),
            None,
        ),
        Ok(_) => ("answered".into(), None),
        Err(error) => (
            "refused".into(),
            Some(format!("{}: {}", error.code.0, error.message)),
        ),
    }
}

impl Relay for Relaying {
    fn capabilities(&self) -> ClientCapabilities {
        // The gateway's own sessions start before their client: they offer everything a
        // relay passes on, and each question is held to what the client declared.
        self.client
            .target()
            .map_or_else(relay::relayable, |t| relayable_of(&t.capabilities))
    }

    fn notify(
        &self,
        notification: ServerNotification,
        _: Option<Arc<Origin>>,
    ) -> BoxFuture<'static, ()> {
        let target = self.client.target();
        let listeners = self.client.listeners.clone();
        Box::pin(async move {
            if let (ServerNotification::ResourceUpdatedNotification(update), Some(listeners)) =
                (&notification, listeners)
            {
                listeners.updated(&update.params.uri).await;
            }
            let Some(target) = target else {
                return;
            };
            if let Err(error) = target.peer.send_notification(notification).await {
                tracing::debug!(%error, "a relayed notification found its client gone");
            }
        })
    }

    fn request(
        &self,
        mut request: ServerRequest,
        origin: Option<Arc<Origin>>,
        cancelled: CancellationToken,
    ) -> BoxFuture<'static, Result<ClientResult, ErrorData>> {
        let client = Arc::clone(&self.client);
        let upstream = self.upstream.clone();
        Box::pin(async move {
            let asked = Instant::now();
            let method = method(&request);
            let digest = Question::digest(&request);
            let target = client.target();
            let result = match &target {
                None => Err(ErrorData::new(
                    ErrorCode::METHOD_NOT_FOUND,
                    "no client is connected to the gateway yet",
                    None,
                )),
                Some(target) => {
                    if let Some(capability) = undeclared(&target.capabilities, &request) {
                        Err(ErrorData::new(
                            ErrorCode::METHOD_NOT_FOUND,
                            format!(
                                "the client behind the gateway declared no `{capability}` capability"
                            ),
                            None,
                        ))
                    } else {
                        if let Some(origin) = &origin {
                            // Over HTTP, on the stream of the call it belongs to.
                            request
                                .extensions_mut()
                                .insert(OriginatingRequestId(origin.request.clone()));
                        }
                        ask(&target.peer, request, &cancelled).await
                    }
                }
            };
            if let (Some(audit), Some(target)) = (&client.audit, &target) {
                let question = Question {
                    method: &method,
                    upstream: &upstream,
                    tool: origin.as_ref().map(|o| o.tool.as_str()),
                    digest,
                    asked,
                };
                question
                    .audit(audit, &target.grant, target.session.as_deref(), &result)
                    .await;
            }
            result
        })
    }
}

/// A relayed question, as its audit line names it.
struct Question<'a> {
    method: &'a str,
    upstream: &'a str,
    tool: Option<&'a str>,
    /// The digest of the request's params.
    digest: String,
    asked: Instant,
}

impl Question<'_> {
    /// The digest of `request`'s params, as the audit line writes it.
    fn digest(request: &ServerRequest) -> String {
        serde_json::to_value(request)
            .map(|r| catalog_check::pin::digest(r.get("params").unwrap_or(&r)))
            .unwrap_or_default()
    }

    /// Writes the audit line of this question, asked of `grant`'s client in `session`
    /// and answered with `result`.
    async fn audit(
        &self,
        audit: &Audit,
        grant: &Grant,
        session: Option<&str>,
        result: &Result<ClientResult, ErrorData>,
    ) {
        let (answer, error) = answered(result);
        let line = audit::Relayed {
            time: jiff::Timestamp::now().to_string(),
            client: &grant.client,
            profile: grant.profile.as_deref(),
            session,
            relayed: self.method,
            upstream: self.upstream,
            tool: self.tool,
            answer: &answer,
            error: error.as_deref(),
            request_digest: self.digest.clone(),
            duration_ms: self.asked.elapsed().as_secs_f64() * 1000.0,
        };
        if let Err(e) = audit.write(&line).await {
            tracing::error!(error = %e, "an audit line of a relayed request could not be written");
        }
    }
}

/// What a call of a client without a session needs of its request to be its own relay:
/// its stream, the level of log messages it asked for, and the context it is asked
/// through between rounds.
#[derive(Clone, Debug)]
pub struct Sessionless {
    /// The request's peer, whose notifications go on the request's own stream.
    pub peer: Peer<RoleServer>,
    /// The least severe log level the request asked for, if any.
    pub log: Option<LoggingLevel>,
    /// The call's context, which asks between rounds (see `catalog_mcp::rounds`).
    pub context: Context,
    /// The call's round, to which an upstream that asks between rounds too puts its
    /// questions as they came.
    pub round: Arc<Round>,
    /// What the request says of its client (its capabilities, the log level it wants),
    /// said again to such an upstream.
    pub meta: RequestMetaObject,
}

/// The relay of one call of a client without a session (MCP 2026-07-28), carried in the
/// call's origin: progress and log messages go on the call's own stream (log messages at
/// the level its request asked for, none without), and what the upstream asks is asked
/// through the call's context, between rounds: the call ends with the question, and its
/// retry answers it when the upstream asks again. What the client did not declare is
/// refused to the upstream as the context refuses it, and noted so a call that fails for
/// it says so.
pub struct CallRelay {
    call: Sessionless,
    upstream: String,
    grant: Grant,
    audit: Option<Arc<Audit>>,
}

impl CallRelay {
    /// The relay of `call`, forwarded to `upstream` for `grant`'s client.
    #[must_use]
    pub fn new(
        call: Sessionless,
        upstream: &str,
        grant: &Grant,
        audit: Option<Arc<Audit>>,
    ) -> CallRelay {
        CallRelay {
            call,
            upstream: upstream.to_owned(),
            grant: grant.clone(),
            audit,
        }
    }

    /// Asks `request` through the call's context: its answer as MCP's result, or the
    /// error the upstream reads.
    async fn ask(&self, request: ServerRequest) -> Result<ClientResult, ErrorData> {
        let context = &self.call.context;
        let json = |value: Value| {
            serde_json::from_value::<ClientResult>(value)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))
        };
        match request {
            ServerRequest::ElicitRequest(elicit) => {
                let answer = match elicit.params {
                    ElicitRequestParams::FormElicitationParams {
                        message,
                        requested_schema,
                        ..
                    } => {
                        let schema = serde_json::to_value(requested_schema).unwrap_or_default();
                        context.elicit(&message, schema).await
                    }
                    ElicitRequestParams::UrlElicitationParams {
                        message,
                        url,
                        elicitation_id,
                        ..
                    } => {
                        let question = UrlElicitation {
                            message,
                            url,
                            id: elicitation_id,
                        };
                        context.elicit_url(question).await
                    }
                    _ => {
                        return Err(ErrorData::invalid_params(
                            "an elicitation of a mode the gateway does not know",
                            None,
                        ));
                    }
                };
                json(answer.map_err(refused)?.to_json())
            }
            ServerRequest::CreateMessageRequest(sampling) => {
                let Ok(Value::Object(params)) = serde_json::to_value(sampling.params) else {
                    return Err(ErrorData::invalid_params(
                        "a sampling request's params",
                        None,
                    ));
                };
                let sampled = context
                    .sample(Sampling::from_json(params))
                    .await
                    .map_err(refused)?;
                json(sampled.to_json())
            }
            ServerRequest::ListRootsRequest(_) => {
                let roots = context.roots().await.map_err(refused)?;
                let roots: Vec<Value> = roots.iter().map(Root::to_json).collect();
                json(serde_json::json!({ "roots": roots }))
            }
            other => Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!(
                    "`{}` cannot be relayed to a client without a session (MCP 2026-07-28)",
                    method(&other)
                ),
                None,
            )),
        }
    }
}

/// A question the context did not put, as the upstream reads it.
fn refused(error: TalkError) -> ErrorData {
    match error {
        TalkError::Undeclared(capability) => ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("the client behind the gateway declared no `{capability}` capability"),
            None,
        ),
        TalkError::Refused { code, message } => ErrorData::new(
            ErrorCode(i32::try_from(code).unwrap_or(ErrorCode::INTERNAL_ERROR.0)),
            message,
            None,
        ),
        other => ErrorData::internal_error(other.to_string(), None),
    }
}

impl Relay for CallRelay {
    fn capabilities(&self) -> ClientCapabilities {
        // A call's relay declares nothing to a session: the session's relay does.
        ClientCapabilities::default()
    }

    fn notify(
        &self,
        notification: ServerNotification,
        _: Option<Arc<Origin>>,
    ) -> BoxFuture<'static, ()> {
        let wanted = match &notification {
            ServerNotification::LoggingMessageNotification(message) => self
                .call
                .log
                .is_some_and(|level| catalog_mcp::logging::admits(level, message.params.level)),
            _ => true,
        };
        let peer = self.call.peer.clone();
        Box::pin(async move {
            if wanted && let Err(error) = peer.send_notification(notification).await {
                tracing::debug!(%error, "a relayed notification found its call gone");
            }
        })
    }

    fn request(
        &self,
        request: ServerRequest,
        origin: Option<Arc<Origin>>,
        cancelled: CancellationToken,
    ) -> BoxFuture<'static, Result<ClientResult, ErrorData>> {
        let this = CallRelay {
            call: self.call.clone(),
            upstream: self.upstream.clone(),
            grant: self.grant.clone(),
            audit: self.audit.clone(),
        };
        Box::pin(async move {
            let method = method(&request);
            let question = Question {
                method: &method,
                upstream: &this.upstream,
                tool: origin.as_ref().map(|o| o.tool.as_str()),
                digest: Question::digest(&request),
                asked: Instant::now(),
            };
            // Unanswered, this waits for ever (the call ends with the question), or until the
            // upstream withdraws it, the call being gone.
            let result = tokio::select! {
                result = this.ask(request) => result,
                () = cancelled.cancelled() => {
                    return Err(ErrorData::internal_error("the upstream withdrew its request", None));
                }
            };
            if let Some(audit) = &this.audit {
                question.audit(audit, &this.grant, None, &result).await;
            }
            result
        })
    }
}

/// Puts `request` to the client on `peer`, unless the upstream withdraws it first (then
/// the client is told so too).
async fn ask(
    peer: &Peer<RoleServer>,
    request: ServerRequest,
    cancelled: &CancellationToken,
) -> Result<ClientResult, ErrorData> {
    let gone = |e: rmcp::ServiceError| match e {
        rmcp::ServiceError::McpError(error) => error,
        other => ErrorData::internal_error(format!("the client could not be asked: {other}"), None),
    };
    let handle = peer
        .send_request_with_option(as_written(request), PeerRequestOptions::no_options())
        .await
        .map_err(gone)?;
    let id = handle.id.clone();
    tokio::select! {
        answer = handle.await_response() => answer.map_err(gone),
        () = cancelled.cancelled() => {
            let reason = Some(String::from("the upstream withdrew its request"));
            let _ = peer.notify_cancelled(CancelledNotificationParam::new(Some(id), reason)).await;
            Err(ErrorData::internal_error("the upstream withdrew its request", None))
        }
    }
}

/// A request with its numbers as the upstream wrote them. The SDK reads some numbers
/// into types narrower or wider than JSON's and writes them back changed: a sampling
/// request's `temperature` and model priorities are `f32`s (`0.7` comes back as
/// `0.699999988079071`), a form's number bounds and defaults `f64`s (`1000` comes back as
/// `1000.0`). Those are written as the upstream wrote them: the shortest decimal that
/// reads back as the same `f32`, an integral bound as an integer. The request then goes
/// on as MCP's JSON; any other goes on as it is.
fn as_written(request: ServerRequest) -> ServerRequest {
    let (method, params, extensions) = match &request {
        ServerRequest::CreateMessageRequest(sampling) => (
            "sampling/createMessage",
            serde_json::to_value(&sampling.params),
            &sampling.extensions,
        ),
        ServerRequest::ElicitRequest(form) => (
            "elicitation/create",
            serde_json::to_value(&form.params),
            &form.extensions,
        ),
        _ => return request,
    };
    let Ok(mut params) = params else {
        return request;
    };
    let narrow = |value: &mut serde_json::Value| {
        if let Some(wide) = value.as_f64() {
            #[allow(clippy::cast_possible_truncation, reason = "the SDK read it as an f32")]
            let narrow = wide as f32;
            if let Ok(decimal) = narrow.to_string().parse::<f64>() {
                *value = decimal.into();
            }
        }
    };
    let integral = |value: &mut serde_json::Value| {
        if let Some(wide) = value
            .as_f64()
            .filter(|w| w.fract() == 0.0 && w.abs() < 9e15)
        {
            #[allow(clippy::cast_possible_truncation, reason = "integral, and within i64")]
            let whole = wide as i64;
            *value = whole.into();
        }
    };
    if let Some(temperature) = params.get_mut("temperature") {
        narrow(temperature);
    }
    if let Some(serde_json::Value::Object(preferences)) = params.get_mut("modelPreferences") {
        for (field, value) in preferences.iter_mut() {
            if field.ends_with("Priority") {
                narrow(value);
            }
        }
    }
    if let Some(serde_json::Value::Object(fields)) =
        params.pointer_mut("/requestedSchema/properties")
    {
        for field in fields
            .values_mut()
            .filter_map(serde_json::Value::as_object_mut)
        {
            for bound in ["minimum", "maximum", "default"] {
                if let Some(value) = field.get_mut(bound) {
                    integral(value);
                }
            }
        }
    }
    let mut custom = CustomRequest::new(method, Some(params));
    custom.extensions = extensions.clone();
    ServerRequest::CustomRequest(custom)
}

/// How a client session reaches the upstreams.
pub struct Link {
    client: Arc<Client>,
    /// The client's own sessions with the upstreams, by name; none when the gateway's
    /// own sessions are the client's (stdio).
    own: Option<tokio::sync::Mutex<BTreeMap<String, Arc<Upstream>>>>,
    /// The resources results handed this client links to (`resource_link`), by URI: the
    /// upstream and tool whose result it was.
    handed: std::sync::Mutex<BTreeMap<String, (String, String)>>,
}

/// How many linked resources a client's link remembers; past that, one goes for each new one.
const HANDED: usize = 1024;

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link")
            .field("own", &self.own.is_some())
            .finish_non_exhaustive()
    }
}

/// Who connects to the upstreams, as they read it in `initialize`.
pub const CLIENT: catalog_upstream::Client = catalog_upstream::Client {
    name: "catalog-gateway",
    version: env!("CARGO_PKG_VERSION"),
};

impl Link {
    /// The link of the gateway's one client (stdio): the gateway's own sessions, whose
    /// relays reach `client`.
    #[must_use]
    pub fn shared(client: Arc<Client>) -> Link {
        Link {
            client,
            own: None,
            handed: std::sync::Mutex::default(),
        }
    }

    /// The link of a client among many (HTTP): sessions of its own, opened as it needs
    /// them.
    #[must_use]
    pub fn own(client: Arc<Client>) -> Link {
        Link {
            client,
            own: Some(tokio::sync::Mutex::new(BTreeMap::new())),
            handed: std::sync::Mutex::default(),
        }
    }

    /// A result of `tool` from `upstream` handed the client a link to resource `uri`.
    pub fn handed(&self, uri: &str, upstream: &str, tool: &str) {
        let mut handed = self.handed.lock().unwrap_or_else(PoisonError::into_inner);
        if handed.len() >= HANDED && !handed.contains_key(uri) {
            // The first by URI goes, not the oldest: a client reads its links soon after
            // it is handed them, so which one goes hardly matters.
            if let Some(first) = handed.keys().next().cloned() {
                handed.remove(&first);
            }
        }
        handed.insert(uri.to_owned(), (upstream.to_owned(), tool.to_owned()));
    }

    /// The upstream and tool of the result that linked resource `uri`, if one did.
    #[must_use]
    pub fn linked(&self, uri: &str) -> Option<(String, String)> {
        self.handed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(uri)
            .cloned()
    }

    /// The client.
    #[must_use]
    pub fn client(&self) -> &Arc<Client> {
        &self.client
    }

    /// Whether the client has sessions of its own.
    #[must_use]
    pub fn is_own(&self) -> bool {
        self.own.is_some()
    }

    /// The relay of a session with `upstream` for this link's client.
    #[must_use]
    pub fn relay(&self, upstream: &str) -> Arc<dyn Relay> {
        Arc::new(Relaying {
            client: Arc::clone(&self.client),
            upstream: upstream.to_owned(),
        })
    }

    /// The client's session with `upstream` at `endpoint`: its own, opened now when it
    /// has none or that one ended; or `shared`, the gateway's.
    ///
    /// # Errors
    /// The upstream cannot be reached: why, naming it.
    pub async fn session(
        &self,
        upstream: &str,
        endpoint: &Transport,
        shared: Option<Arc<Upstream>>,
    ) -> Result<Arc<Upstream>, String> {
        let Some(own) = &self.own else {
            return shared.ok_or_else(|| format!("upstream `{upstream}` is not connected"));
        };
        let mut own = own.lock().await;
        if let Some(session) = own.get(upstream).filter(|s| !s.is_closed()) {
            return Ok(Arc::clone(session));
        }
        // Begun on a task of its own, outside the request's span: the session outlives
        // the request, and its tasks would log into one client's request otherwise.
        let (name, endpoint, relay) = (upstream.to_owned(), endpoint.clone(), self.relay(upstream));
        let connecting = tokio::spawn(async move {
            Upstream::connect(&name, &endpoint, CLIENT, None, Some(relay)).await
        });
        let session = Arc::new(
            connecting
                .await
                .map_err(|e| format!("connecting to upstream `{upstream}` failed: {e}"))??,
        );
        tracing::debug!(%upstream, "a client's own session with an upstream began");
        own.insert(upstream.to_owned(), Arc::clone(&session));
        Ok(session)
    }

    /// The client's own sessions open now.
    pub async fn open(&self) -> Vec<Arc<Upstream>> {
        match &self.own {
            Some(own) => own
                .lock()
                .await
                .values()
                .filter(|s| !s.is_closed())
                .cloned()
                .collect(),
            None => Vec::new(),
        }
    }
}
