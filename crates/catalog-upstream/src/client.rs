//! One upstream MCP server: started (stdio) or reached (streamable HTTP) with the official
//! SDK's client, its tools listed as wire objects, calls forwarded, and its
//! `notifications/tools/list_changed` passed on.
//!
//! The digest of a tool covers its definition as the server sent it. The SDK reads a
//! `tools/list` result into its own types, which keep only the fields they know, so over
//! stdio the server's output is also read as it passes (`Taps`) and the tools are taken
//! from the raw JSON; over HTTP the SDK's reading is all there is (see [`Upstream::tools`]).
//! Over stdio a call goes beside the SDK's session (`crate::express`).

// MCP 2026-07-28 deprecates sampling, roots and logging (SEP-2577) and `rmcp` marks its
// types so; upstreams of 2025-11-25 use them, and a relay passes them on.
#![allow(deprecated)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use catalog_check::import::Offers;
use catalog_check::model::Transport;
use rmcp::ClientCacheConfig;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotificationParam, ClientRequest,
    CompleteRequestParams, CompleteResult, CreateTaskResult, GetExtensions as _, GetPromptRequest,
    GetPromptRequestParams, InputRequiredResult, InputResponses, JsonObject, ListPromptsRequest,
    ListResourceTemplatesRequest, ListResourcesRequest, ListToolsRequest, LoggingLevel,
    PaginatedRequestParams, ProtocolVersion, ReadResourceRequest, ReadResourceRequestParams,
    RequestId, ServerResult, SetLevelRequestParams, SubscribeRequestParams, SubscriptionFilter,
    UnsubscribeRequestParams,
};
use rmcp::service::{
    ClientInitializeError, ClientServiceExt as _, Peer, PeerRequestOptions, RoleClient,
    RunningService,
};
use rmcp::transport::IntoTransport;
use rmcp::{ErrorData, ServiceError};
use serde_json::Value;
use tokio::process::Child;
use tokio::sync::mpsc::UnboundedSender;
use tokio::time::error::Elapsed;

use crate::express::{self, Express, Failure, Waiting};
use crate::lines::{LineReader, Lines};
use crate::oauth::Tokens;
use crate::relay::{Calls, Origin, Relay, Relaying};
use crate::revision::Revision;
use crate::rounds;

mod endpoint;
mod watcher;

use endpoint::{Taps, reach, spawn};
use watcher::Watcher;

/// How long an upstream has to start and answer `initialize` or `tools/list`.
pub const START_TIMEOUT: Duration = Duration::from_secs(60);

/// How long a call waits before it is sent again when the upstream asked for nothing but
/// to be asked again (a result that asks for input with only its state).
const STATE_ONLY_PAUSE: Duration = Duration::from_millis(100);

/// Reports on `changed`, as `name`, each change the upstream at `peer` tells of on a
/// `subscriptions/listen` stream (2026-07-28): its tools, prompts or resources. An
/// upstream that offers no such stream is left alone.
async fn listen(peer: Peer<RoleClient>, name: String, changed: UnboundedSender<String>) {
    let mut filter = SubscriptionFilter::new();
    filter.tools_list_changed = Some(true);
    filter.prompts_list_changed = Some(true);
    filter.resources_list_changed = Some(true);
    let mut stream = match peer.listen(filter).await {
        Ok(stream) => stream,
        Err(error) => {
            tracing::debug!(upstream = %name, %error, "no listen stream for the upstream's changes");
            return;
        }
    };
    while let Ok(Some(_)) = stream.next().await {
        if changed.send(name.clone()).is_err() {
            return;
        }
    }
}

/// What a call forwarded between rounds came to ([`Upstream::call_between_rounds`]).
#[derive(Debug)]
pub enum Answered {
    /// The upstream's result object, as the SDK read it.
    Done(Value),
    /// The upstream's input-required result: questions for the client, and its state.
    Asking(InputRequiredResult),
    /// The upstream made the call a task (MCP's tasks extension), which the client
    /// declared it takes: the task as the upstream names it.
    Task(CreateTaskResult),
}

/// Who connects, as the upstream reads it in `initialize`: the program's name and version.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Client {
    /// The program, as `clientInfo.name`.
    pub name: &'static str,
    /// Its version, as `clientInfo.version`.
    pub version: &'static str,
}

/// A connected upstream.
pub struct Upstream {
    name: String,
    service: RunningService<RoleClient, Watcher>,
    /// The tools of the `tools/list` results read off a stdio server's output.
    raw: Option<Arc<Mutex<Vec<Value>>>>,
    /// One listing at a time, so the raw tools read belong to it.
    listing: tokio::sync::Mutex<()>,
    /// A stdio server's process, stopped with the session.
    child: Option<Child>,
    /// Calls to a stdio server, made beside the SDK's session.
    express: Option<Express>,
    /// The calls in flight for clients, which what the upstream sends is routed by.
    calls: Arc<Calls>,
}

impl Upstream {
    /// Starts or reaches upstream `name` and completes the MCP handshake as `client`, at
    /// 2025-11-25 ([`Upstream::connect_at`] chooses the revision).
    ///
    /// # Errors
    /// As [`Upstream::connect_at`].
    pub async fn connect(
        name: &str,
        endpoint: &Transport,
        client: Client,
        changed: Option<UnboundedSender<String>>,
        relay: Option<Arc<dyn Relay>>,
    ) -> Result<Upstream, String> {
        Upstream::connect_at(name, endpoint, client, Revision::default(), changed, relay).await
    }

    /// Starts or reaches upstream `name` and opens a session at `revision` as `client`
    /// (the handshake of 2025-11-25, or `server/discover` of 2026-07-28). When `changed`
    /// is given, the upstream's name is sent on it each time it says its
    /// tools, prompts or resources changed. What the upstream sends for a client (its
    /// requests, progress, log messages, resource updates) goes to `relay`; without one,
    /// the session declares everything a relay could pass on (what an importer lists
    /// with) and answers the upstream's requests with an error.
    ///
    /// The `env` and `headers` values written as `from-env` or `from-file` are read now,
    /// and handed to the server only.
    ///
    /// # Errors
    /// A value's variable is not set or its file cannot be read (the message names each
    /// one, never a value), the program cannot start, the URL does not answer, or the
    /// handshake fails or takes longer than [`START_TIMEOUT`]; the message names the
    /// upstream and what to check.
    pub async fn connect_at(
        name: &str,
        endpoint: &Transport,
        client: Client,
        revision: Revision,
        changed: Option<UnboundedSender<String>>,
        relay: Option<Arc<dyn Relay>>,
    ) -> Result<Upstream, String> {
        let calls = Arc::new(Calls::default());
        let listening = changed.clone();
        let watcher = Watcher {
            client,
            name: name.to_owned(),
            changed,
            relay: relay.clone(),
            calls: Arc::clone(&calls),
        };
        let mut raw = None;
        let mut child = None;
        let mut express = None;
        let mut authorized = None;
        let started = match endpoint {
            Transport::Stdio { command, args, env } => {
                let (process, stdin, stdout) = spawn(name, endpoint, command, args, env)?;
                let seen = Arc::new(Mutex::new(Vec::new()));
                raw = Some(Arc::clone(&seen));
                child = Some(process);
                let waiting = Arc::new(Waiting::default());
                let router =
                    express::Router::spawn(Arc::clone(&waiting), relay, Arc::clone(&calls));
                let taps = Taps { seen, router };
                let (lines, _) = Lines::spawn(stdin);
                let transport = Relaying {
                    inner: (
                        LineReader::spawn(stdout, move |line| taps.take(line)),
                        lines.writer(),
                    )
                        .into_transport(),
                    relay: None,
                    calls: Arc::clone(&calls),
                };
                express = Some(Express::new(lines, waiting, Arc::clone(&calls)));
                open(watcher, transport, revision).await
            }
            Transport::Http {
                url,
                headers,
                oauth,
            } => {
                let (started, tokens) = reach(watcher, url, headers, oauth.as_ref(), revision)?;
                authorized = tokens;
                started.await
            }
        };
        let service = match started {
            Ok(Ok(service)) => service,
            Ok(Err(e)) => {
                // Why a token could not be had says more than the transport's 401.
                if let Some(why) = authorized.as_ref().and_then(|t: &Arc<Tokens>| t.failure()) {
                    return Err(why);
                }
                if e.is_authorization_required() {
                    return Err(format!(
                        "upstream `{name}` (`{endpoint}`) wants an OAuth access token: give its [[upstream]] an `oauth` table (a client registered at its authorization server), or an `Authorization` header"
                    ));
                }
                return Err(format!(
                    "upstream `{name}` (`{endpoint}`) did not open an MCP session at {revision}: {e}"
                ));
            }
            Err(_) => {
                return Err(format!(
                    "upstream `{name}` (`{endpoint}`) did not answer within {} s",
                    START_TIMEOUT.as_secs()
                ));
            }
        };
        // A session on 2026-07-28 carries its revision in each request, which the SDK
        // writes: its calls stay with the SDK.
        let express = express.filter(|_| {
            service
                .peer()
                .peer_info()
                .is_some_and(|info| info.protocol_version < ProtocolVersion::V_2026_07_28)
        });
        // On 2026-07-28 an upstream tells of its changes on a listen stream, not on the
        // session: one is opened for as long as the session lasts.
        if let Some(changed) = listening.filter(|_| {
            service
                .peer()
                .peer_info()
                .is_some_and(|info| info.protocol_version >= ProtocolVersion::V_2026_07_28)
        }) {
            tokio::spawn(listen(service.peer().clone(), name.to_owned(), changed));
        }
        // No answer is kept for later: listings are compared with their pins as they are
        // now, and one session can serve many clients of a gateway, so an answer the
        // upstream marks private to its client must not be served to another.
        service
            .peer()
            .set_response_cache_config(ClientCacheConfig::disabled())
            .await;
        Ok(Upstream {
            name: name.to_owned(),
            service,
            raw,
            listing: tokio::sync::Mutex::new(()),
            child,
            express,
            calls,
        })
    }

    /// Whether the session ended (a stdio server that exited, an HTTP session closed).
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.service.is_closed()
    }

    /// The upstream's name in the catalog.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Every tool the upstream lists (all pages, never from a cache), each as the JSON
    /// object of its definition: what the catalog's digest covers.
    ///
    /// Over stdio each object is exactly what the server wrote. Over HTTP it is the SDK's
    /// reading of it: every field of the MCP revision the SDK implements (name, title,
    /// description, both schemas and `_meta` whole, annotations, icons); a field it does
    /// not know is not covered.
    ///
    /// # Errors
    /// The request failed or timed out.
    pub async fn tools(&self) -> Result<Vec<Value>, String> {
        let declared = self.service.peer().peer_info();
        if declared.is_some_and(|info| info.capabilities.tools.is_none()) {
            // A server of prompts or resources only.
            return Ok(Vec::new());
        }
        let _one_at_a_time = self.listing.lock().await;
        if let Some(raw) = &self.raw {
            lock(raw).clear();
        }
        let typed = tokio::time::timeout(START_TIMEOUT, self.list_all())
            .await
            .map_err(|_| format!("upstream `{}` did not list its tools in time", self.name))??;
        let names = |tools: &[Value]| -> Vec<Option<String>> {
            tools
                .iter()
                .map(|t| t.get("name").and_then(Value::as_str).map(str::to_owned))
                .collect()
        };
        if let Some(raw) = &self.raw {
            let raw = std::mem::take(&mut *lock(raw));
            // The same tools in the same order: the pages just read.
            if names(&raw) == names(&typed) {
                return Ok(raw);
            }
            tracing::warn!(upstream = %self.name, "the tools read off the wire differ from the SDK's reading; using the SDK's");
        }
        Ok(typed)
    }

    /// Every page of `tools/list`, as the SDK reads them.
    async fn list_all(&self) -> Result<Vec<Value>, String> {
        let mut tools = Vec::new();
        let mut cursor = None;
        loop {
            let request =
                ListToolsRequest::with_param(PaginatedRequestParams::default().with_cursor(cursor));
            let answer = self
                .service
                .peer()
                .send_request(ClientRequest::ListToolsRequest(request))
                .await
                .map_err(|e| format!("upstream `{}` could not list its tools: {e}", self.name))?;
            let ServerResult::ListToolsResult(page) = answer else {
                return Err(format!(
                    "upstream `{}` answered tools/list with something else",
                    self.name
                ));
            };
            for tool in page.tools {
                tools.push(
                    serde_json::to_value(tool).map_err(|e| {
                        format!("a tool of upstream `{}` is not JSON: {e}", self.name)
                    })?,
                );
            }
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => return Ok(tools),
            }
        }
    }

    /// The prompts, resources and resource templates the upstream lists (all pages, never
    /// from a cache), each as the SDK reads it: what the catalog's digests cover. What the
    /// server does not declare in its capabilities is empty.
    ///
    /// # Errors
    /// A request failed or timed out.
    pub async fn offers(&self) -> Result<Offers, String> {
        let declared = self
            .service
            .peer()
            .peer_info()
            .map(|info| info.capabilities.clone())
            .unwrap_or_default();
        let mut offers = Offers::default();
        let listed = async {
            if declared.prompts.is_some() {
                offers.prompts = self.list_pages("prompts/list", "prompts").await?;
            }
            if declared.resources.is_some() {
                offers.resources = self.list_pages("resources/list", "resources").await?;
                offers.templates = self
                    .list_pages("resources/templates/list", "resourceTemplates")
                    .await?;
            }
            Ok::<(), String>(())
        };
        tokio::time::timeout(START_TIMEOUT, listed)
            .await
            .map_err(|_| {
                format!(
                    "upstream `{}` did not list its prompts and resources in time",
                    self.name
                )
            })??;
        Ok(offers)
    }

    /// Every page of the listing `method`, whose result holds the items at `items`.
    async fn list_pages(&self, method: &str, items: &str) -> Result<Vec<Value>, String> {
        let mut out = Vec::new();
        let mut cursor = None;
        loop {
            let params = PaginatedRequestParams::default().with_cursor(cursor);
            let request = match method {
                "prompts/list" => {
                    ClientRequest::ListPromptsRequest(ListPromptsRequest::with_param(params))
                }
                "resources/list" => {
                    ClientRequest::ListResourcesRequest(ListResourcesRequest::with_param(params))
                }
                _ => ClientRequest::ListResourceTemplatesRequest(
                    ListResourceTemplatesRequest::with_param(params),
                ),
            };
            let answer = self
                .service
                .peer()
                .send_request(request)
                .await
                .map_err(|e| format!("upstream `{}` could not answer {method}: {e}", self.name))?;
            let mut page = serde_json::to_value(answer)
                .map_err(|e| format!("upstream `{}`'s {method} is not JSON: {e}", self.name))?;
            match page.get_mut(items).map(Value::take) {
                Some(Value::Array(found)) => out.extend(found),
                _ => {
                    return Err(format!(
                        "upstream `{}` answered {method} without `{items}`",
                        self.name
                    ));
                }
            }
            match page.get("nextCursor").and_then(Value::as_str) {
                Some(next) => cursor = Some(next.to_owned()),
                None => return Ok(out),
            }
        }
    }

    /// Asks the upstream for prompt `name` with `arguments`, as its server answers it, for
    /// `origin` (where the upstream's requests and messages while it answers are relayed).
    ///
    /// # Errors
    /// The upstream refused the request or the session failed: the upstream's own message.
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: Option<JsonObject>,
        origin: Option<Origin>,
    ) -> Result<Value, String> {
        let params: GetPromptRequestParams =
            serde_json::from_value(serde_json::json!({"name": name, "arguments": arguments}))
                .map_err(|e| format!("cannot write prompts/get: {e}"))?;
        let request = ClientRequest::GetPromptRequest(GetPromptRequest::new(params));
        let answer = self.send(request, origin.map(Arc::new)).await;
        match answer.map_err(|e| format!("upstream `{}`: {e}", self.name))? {
            ServerResult::GetPromptResult(result) => {
                serde_json::to_value(result).map_err(|e| e.to_string())
            }
            other => Err(format!(
                "upstream `{}`: prompts/get was answered with something else: {other:?}",
                self.name
            )),
        }
    }

    /// Sends `request` for `origin` (what the upstream sends while answering it goes to
    /// the origin's client) and waits for the answer. Dropped before the answer came (the
    /// client gave up), the request is cancelled at the upstream.
    pub(crate) async fn send(
        &self,
        mut request: ClientRequest,
        origin: Option<Arc<Origin>>,
    ) -> Result<ServerResult, ServiceError> {
        let mut options = PeerRequestOptions::no_options();
        if let Some(origin) = origin {
            // On a session that carries `_meta` in each request, the client's own.
            if self.asks_between_rounds() {
                options.meta.clone_from(&origin.meta);
            }
            // Read by the transport, which enters the request before it goes out.
            request.extensions_mut().insert(origin);
        }
        let peer = self.service.peer();
        let handle = peer.send_request_with_option(request, options).await?;
        let mut open = Cancels {
            peer: peer.clone(),
            calls: &self.calls,
            id: handle.id.clone(),
            answered: false,
        };
        let answer = handle.await_response().await;
        open.answered = true;
        answer
    }

    /// Whether the session is on a revision that asks between rounds (2026-07-28), where
    /// each request carries its own `_meta`.
    #[must_use]
    pub fn asks_between_rounds(&self) -> bool {
        self.service
            .peer()
            .peer_info()
            .is_some_and(|info| info.protocol_version >= ProtocolVersion::V_2026_07_28)
    }

    /// Forwards one call for a client asked between rounds (2026-07-28), on a session that
    /// asks so too: the upstream's result, its input-required result as it came (its
    /// questions under its own keys, its `requestState` untouched) for the client to
    /// answer, or the task it made of the call for a client that declared it takes tasks; `answers` and `state` are the client's answers to the last one and the
    /// state it carried. Dropped before the answer came, the call is cancelled at the
    /// upstream.
    ///
    /// # Errors
    /// The upstream refused the request (its JSON-RPC error), or the session failed.
    pub async fn call_between_rounds(
        &self,
        tool: &str,
        arguments: JsonObject,
        origin: Option<Origin>,
        answers: Option<InputResponses>,
        state: Option<String>,
    ) -> Result<Answered, CallFailed> {
        let mut params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        params.input_responses = answers;
        params.request_state = state;
        match self.send_call(params, origin.map(Arc::new)).await? {
            ServerResult::CallToolResult(result) => serde_json::to_value(result)
                .map(Answered::Done)
                .map_err(|e| CallFailed::Session(format!("upstream `{}`: {e}", self.name))),
            ServerResult::InputRequiredResult(asked) => Ok(Answered::Asking(asked)),
            ServerResult::CreateTaskResult(created) => Ok(Answered::Task(created)),
            other => Err(CallFailed::Session(format!(
                "upstream `{}`: tools/call was answered with something else: {other:?}",
                self.name
            ))),
        }
    }

    /// Reads resource `uri` from the upstream, as its server answers it, for `origin`
    /// (where the upstream's requests and messages while it answers are relayed).
    ///
    /// # Errors
    /// The upstream refused the request or the session failed: the upstream's own message.
    pub async fn read_resource(&self, uri: &str, origin: Option<Origin>) -> Result<Value, String> {
        let params = ReadResourceRequestParams::new(uri);
        let request = ClientRequest::ReadResourceRequest(ReadResourceRequest::new(params));
        let answer = self.send(request, origin.map(Arc::new)).await;
        match answer.map_err(|e| format!("upstream `{}`: {e}", self.name))? {
            ServerResult::ReadResourceResult(result) => {
                serde_json::to_value(result).map_err(|e| e.to_string())
            }
            other => Err(format!(
                "upstream `{}`: resources/read was answered with something else: {other:?}",
                self.name
            )),
        }
    }

    /// Forwards one call, already verified, to the upstream tool `tool`, for the client
    /// request `origin` (where the call's progress, and the upstream's requests and
    /// messages while it runs, are relayed): its result object, as a stdio server wrote
    /// it, or as the SDK read it over HTTP (as [`Upstream::tools`]). It is read as a tool
    /// result by whoever takes it: read here too, it would be read twice. Dropped before
    /// the answer came (the client cancelled), the call is cancelled at the upstream.
    ///
    /// # Errors
    /// The upstream refused the request (its JSON-RPC error), or the session failed.
    pub async fn call(
        &self,
        tool: &str,
        arguments: JsonObject,
        origin: Option<Origin>,
    ) -> Result<Value, CallFailed> {
        let failed = |e: &dyn std::fmt::Display| {
            CallFailed::Session(format!("upstream `{}`: {e}", self.name))
        };
        let refused = |error| CallFailed::Refused {
            upstream: self.name.clone(),
            error,
        };
        let origin = origin.map(Arc::new);
        if let Some(express) = &self.express {
            return express
                .call(tool, arguments, origin)
                .await
                .map_err(|e| match e {
                    Failure::Refused(error) => refused(error),
                    Failure::Session(e) => failed(&e),
                });
        }
        let mut params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        // At 2026-07-28 the upstream may answer that it needs input first: the client is
        // asked, and the call goes again (a new request) with the answers and the state.
        for _ in 0..rounds::MAX_ROUNDS {
            match self.send_call(params.clone(), origin.clone()).await? {
                ServerResult::CallToolResult(result) => {
                    return serde_json::to_value(result).map_err(|e| failed(&e));
                }
                ServerResult::InputRequiredResult(asked) => {
                    let requests = asked.input_requests.unwrap_or_default();
                    if requests.is_empty() && asked.request_state.is_none() {
                        return Err(failed(
                            &"tools/call asked for input but named none and sent no state",
                        ));
                    }
                    if requests.is_empty() {
                        // Only state: the upstream is working; give it a moment.
                        tokio::time::sleep(STATE_ONLY_PAUSE).await;
                    }
                    let answers = rounds::answer(self.service.service(), requests, origin.as_ref())
                        .await
                        .map_err(refused)?;
                    params.input_responses = (!answers.is_empty()).then_some(answers);
                    params.request_state = asked.request_state;
                }
                other => {
                    return Err(failed(&format!(
                        "tools/call was answered with something else: {other:?}"
                    )));
                }
            }
        }
        Err(failed(&format!(
            "tools/call still asked for input after {} rounds; the upstream may be looping",
            rounds::MAX_ROUNDS
        )))
    }

    /// Sends one `tools/call` over the SDK's session for `origin` and waits for its
    /// answer, cancelling it at the upstream if dropped first.
    async fn send_call(
        &self,
        params: CallToolRequestParams,
        origin: Option<Arc<Origin>>,
    ) -> Result<ServerResult, CallFailed> {
        let failed = |e: &dyn std::fmt::Display| {
            CallFailed::Session(format!("upstream `{}`: {e}", self.name))
        };
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        self.send(request, origin).await.map_err(|e| match e {
            ServiceError::McpError(error) => CallFailed::Refused {
                upstream: self.name.clone(),
                error,
            },
            other => failed(&other),
        })
    }

    /// Asks the upstream to complete an argument of a prompt or resource template.
    ///
    /// # Errors
    /// The upstream refused the request or the session failed: the upstream's own message.
    pub async fn complete(&self, params: CompleteRequestParams) -> Result<CompleteResult, String> {
        self.service
            .peer()
            .complete(params)
            .await
            .map_err(|e| format!("upstream `{}`: {e}", self.name))
    }

    /// Subscribes to updates of resource `uri`, which the relay then passes on.
    ///
    /// # Errors
    /// The upstream refused the request or the session failed: the upstream's own message.
    pub async fn subscribe(&self, uri: &str) -> Result<(), String> {
        self.service
            .peer()
            .subscribe(SubscribeRequestParams::new(uri))
            .await
            .map_err(|e| format!("upstream `{}`: {e}", self.name))
    }

    /// Ends the subscription to `uri`.
    ///
    /// # Errors
    /// The upstream refused the request or the session failed: the upstream's own message.
    pub async fn unsubscribe(&self, uri: &str) -> Result<(), String> {
        self.service
            .peer()
            .unsubscribe(UnsubscribeRequestParams::new(uri))
            .await
            .map_err(|e| format!("upstream `{}`: {e}", self.name))
    }

    /// Sets the least severe level of the log messages the upstream sends, when it
    /// declares logging; a no-op otherwise.
    ///
    /// # Errors
    /// The upstream refused the request or the session failed: the upstream's own message.
    pub async fn set_level(&self, level: LoggingLevel) -> Result<(), String> {
        if !self.declares(|c| c.logging.is_some()) {
            return Ok(());
        }
        self.service
            .peer()
            .set_level(SetLevelRequestParams::new(level))
            .await
            .map_err(|e| format!("upstream `{}`: {e}", self.name))
    }

    /// Tells the upstream that the client's roots changed.
    ///
    /// # Errors
    /// The session failed.
    pub async fn roots_changed(&self) -> Result<(), String> {
        self.service
            .peer()
            .notify_roots_list_changed()
            .await
            .map_err(|e| format!("upstream `{}`: {e}", self.name))
    }

    /// Whether the upstream's capabilities pass `declared`.
    #[must_use]
    pub fn declares(
        &self,
        declared: impl FnOnce(&rmcp::model::ServerCapabilities) -> bool,
    ) -> bool {
        self.service
            .peer()
            .peer_info()
            .is_some_and(|info| declared(&info.capabilities))
    }

    /// Ends the session (and stops the program of a stdio upstream).
    pub async fn close(mut self) {
        let _ = self.service.cancel().await;
        if let Some(child) = &mut self.child {
            let _ = child.kill().await;
        }
    }
}

/// Why a forwarded call has no result.
#[derive(Clone, PartialEq, Debug)]
pub enum CallFailed {
    /// The upstream answered with a JSON-RPC error.
    Refused {
        /// The upstream.
        upstream: String,
        /// Its error, as it sent it.
        error: ErrorData,
    },
    /// The session failed: the upstream is gone, or wrote what is no answer.
    Session(String),
}

impl std::fmt::Display for CallFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // Worded as the SDK words the same error.
            CallFailed::Refused { upstream, error } => {
                write!(
                    f,
                    "upstream `{upstream}`: {}",
                    ServiceError::McpError(error.clone())
                )
            }
            CallFailed::Session(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for CallFailed {}

/// A session being opened, within [`START_TIMEOUT`].
type Started = Result<Result<RunningService<RoleClient, Watcher>, ClientInitializeError>, Elapsed>;

/// Opens a session at `revision` over `transport`, within [`START_TIMEOUT`].
async fn open<T, E, A>(watcher: Watcher, transport: T, revision: Revision) -> Started
where
    T: IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    tokio::time::timeout(
        START_TIMEOUT,
        watcher.serve_with_lifecycle(transport, revision.lifecycle()),
    )
    .await
}

/// A forwarded call in flight over the SDK's session: forgotten when it ends, cancelled
/// at the upstream when its caller stopped waiting for the answer.
struct Cancels<'a> {
    peer: Peer<RoleClient>,
    calls: &'a Calls,
    id: RequestId,
    answered: bool,
}

impl Drop for Cancels<'_> {
    fn drop(&mut self) {
        self.calls.close(&self.id);
        if self.answered {
            return;
        }
        let peer = self.peer.clone();
        let cancelled = CancelledNotificationParam::new(
            Some(self.id.clone()),
            Some("the client cancelled the call".into()),
        );
        // Dropped outside a runtime, the process is stopping: nothing left to cancel.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = peer.notify_cancelled(cancelled).await;
            });
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl std::fmt::Debug for Upstream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upstream")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads of at most 7 bytes: they end anywhere, mid-line included.
    struct Pieces(&'static [u8]);

    impl tokio::io::AsyncRead for Pieces {
        fn poll_read(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            buf: &mut tokio::io::ReadBuf<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            let n = self.0.len().min(7).min(buf.remaining());
            buf.put_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            std::task::Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn the_taps_keep_the_tools_of_list_results_as_written_and_take_what_a_relay_passes_on() {
        use tokio::io::AsyncReadExt as _;
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (router, mut taken) = tokio::sync::mpsc::unbounded_channel();
        let taps = Taps {
            seen: Arc::clone(&seen),
            router: express::Router::sending_to(router),
        };
        let sdk = concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","execution":{"taskSupport":"forbidden"}},{"name":"b"}]}}"#,
            "\n",
        );
        let log = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"\"tools\""}}"#;
        let output: &'static str = format!("{sdk}{log}\n").leak();
        let mut passed = String::new();
        LineReader::new(Pieces(output.as_bytes()), move |line| taps.take(line))
            .read_to_string(&mut passed)
            .await
            .unwrap();
        assert_eq!(passed, sdk);
        match taken.recv().await {
            Some(express::Routed::Notify(line)) => {
                assert_eq!(line, format!("{log}\n").into_bytes());
            }
            other => panic!("the log message went elsewhere: {other:?}"),
        }
        let kept = lock(&seen).clone();
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[0]["execution"]["taskSupport"], "forbidden");
        assert_eq!(kept[1]["name"], "b");
    }
}
