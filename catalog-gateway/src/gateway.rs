//! The gateway's state: the loaded catalog, a session with each upstream, and how each
//! pinned row stands against what its upstream lists now. Every `tools/call` of every
//! client takes [`Gateway::call`], and every listing [`Gateway::list`].

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::{Duration, Instant};

use catalog_core::render::mcp;
use catalog_core::{
    Access, BoxFuture, Caller, Discovery, Dispatch, ErrorClass, Info, Reach, Rejection, Tier,
    ToolId, Value, check_output,
};
use catalog_mcp::calls::{admit, refuse, respond};
use catalog_mcp::rounds::Seal;
use catalog_mcp::{Asker, GatedPolicy, Grant};
use catalog_scan::Scanner;
use rmcp::ErrorData;
use rmcp::model::{
    self, CallToolResponse, CallToolResult, ContentBlock, ProtocolVersion, ResultType,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use serde_json::Map;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use catalog_compiler::import::Offers;
use catalog_compiler::model::Offered;
use catalog_mcp::rounds::Round;
use catalog_upstream::Answered;
use catalog_upstream::drift::{self, Comparison, Snapshot, Standing};
use catalog_upstream::relay::Origin;
use catalog_upstream::{CallFailed, Endpoint, Upstream, overrides};

use crate::audit::{self, Audit};
use crate::config::{Profile, Profiles};
use crate::discovered::{ByCredential, Discovered};
use crate::limits::Limits;
use crate::listen::{Changed, Listeners};
use crate::metrics::Metrics;
use crate::relay::{self as relays, CLIENT, Link};
use crate::replicas::Redis;
use crate::rows::{Forward, Loaded, Row, Runs, WORDS};
use crate::traces::{Carried, Traces};

mod tasks;
use opentelemetry::context::FutureExt as _;

pub use crate::rows::Rows;

/// How a client sees the discoverable rows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, clap::ValueEnum)]
pub enum Discoverable {
    /// Listed with the inline rows: every row the client's level may call. For MCP
    /// clients that pick among the listed tools themselves (IDEs, desktop assistants).
    #[default]
    Listed,
    /// Found through the catalog's search tool: the listing holds the inline rows and the
    /// search tool; each search adds its hits to that session's listing and sends
    /// `notifications/tools/list_changed`. For chat agents, as the catalog's own loop.
    Search,
}

/// How often, by default, an upstream that cannot be reached or whose session ended is
/// tried again.
pub const RETRY: Duration = Duration::from_secs(30);

/// How a gateway serves its catalog: everything [`Gateway::start`] takes besides the
/// catalog.
#[derive(Debug, Default)]
pub struct Serving {
    /// The upstream snapshot, which names what changed when a row drifts.
    pub snapshot: Snapshot,
    /// The gated-tool policy.
    pub gated: GatedPolicy,
    /// The result scanner: what results holding injected text get, and the detector's
    /// threshold.
    pub scanner: Scanner,
    /// How clients see the discoverable rows.
    pub discoverable: Discoverable,
    /// How often unreachable upstreams are tried again ([`RETRY`] when zero).
    pub retry: Duration,
    /// The client profiles credentials may select.
    pub profiles: Profiles,
    /// Where each call's audit line goes, if anywhere.
    pub audit: Option<Audit>,
    /// The metrics calls and upstreams update, if they are served.
    pub metrics: Option<Arc<Metrics>>,
    /// The rate limits.
    pub limits: Limits,
    /// Where spans go, if traces are exported.
    pub traces: Option<Traces>,
    /// The store the replicas share, from `[sessions]` of the operator's file.
    pub shared: Option<Arc<Redis>>,
    /// The seal of the state of calls between rounds: with a store, the key the replicas
    /// share ([`Redis::seal`]); otherwise one of this process.
    pub seal: Option<Seal>,
}

/// Who sent a call, on which session, in which trace, and the way back to them.
#[derive(Clone, Debug)]
pub struct Requester<'a> {
    /// What the client's credential grants.
    pub grant: &'a Grant,
    /// The MCP session, over HTTP with sessions.
    pub session: Option<&'a str>,
    /// The W3C trace context the request carried in its `_meta`.
    pub trace: Carried,
    /// How the client reaches the upstreams, and what they send back reaches it.
    pub link: &'a Link,
    /// The client's request, and its progress token if it asked for progress.
    pub request: Option<(rmcp::model::RequestId, Option<rmcp::model::ProgressToken>)>,
    /// For a client without a session (2026-07-28), what its call's own relay needs.
    pub sessionless: Option<relays::Sessionless>,
}

/// One governed endpoint over the catalog's upstreams.
pub struct Gateway {
    loaded: &'static Loaded,
    /// Where each upstream a row names is.
    endpoints: BTreeMap<String, Endpoint>,
    /// The open session with each reachable upstream, replaced when it ends.
    pub(crate) sessions: RwLock<BTreeMap<String, Arc<Upstream>>>,
    /// Where sessions report their upstream's tool-list changes.
    changed: UnboundedSender<String>,
    /// Where the sessions at 2026-07-28 report theirs.
    modern_changed: UnboundedSender<String>,
    /// How often unreachable upstreams are tried again.
    retry: Duration,
    /// The pinned rows by index, and how each stands now.
    standing: RwLock<BTreeMap<usize, Standing>>,
    /// The definition each current pinned row's upstream lists (which hashes to its
    /// pin), by row index: what `tools/list` shows, with the row's overrides.
    definitions: RwLock<BTreeMap<usize, Value>>,
    /// Each `[[prompt]]` and `[[resource]]` table by index in the catalog's offers: how
    /// it stands, and while current, its upstream's listing (which hashes to its pin).
    pub(crate) offers: RwLock<BTreeMap<usize, (Standing, Option<Value>)>>,
    snapshot: Snapshot,
    /// Every client session, told when the listing changes.
    peers: Mutex<Vec<Peer<RoleServer>>>,
    /// The client of the gateway's own sessions with the upstreams: over stdio, the
    /// gateway's one client, whom their relays reach.
    solo: Arc<relays::Client>,
    /// The links of clients without a session (2026-07-28), by credential.
    sessionless: Mutex<BTreeMap<Arc<str>, Arc<Link>>>,
    /// The gateway's own sessions at 2026-07-28, with the upstreams that speak it, for
    /// clients asked between rounds.
    modern: tokio::sync::Mutex<BTreeMap<String, Modern>>,
    /// Their listen streams.
    pub(crate) listeners: Arc<Listeners>,
    /// What their searches found, by credential, when there is no shared store.
    found_by_credential: ByCredential,
    /// The seal of the state of calls between rounds (2026-07-28).
    seal: Seal,
    gated: GatedPolicy,
    /// Reads every upstream result before the client's model does.
    pub(crate) scanner: Scanner,
    discoverable: Discoverable,
    info: Info<'static, Row, WORDS>,
    /// The client profiles credentials may select.
    profiles: Profiles,
    audit: Option<Arc<Audit>>,
    metrics: Option<Arc<Metrics>>,
    limits: Limits,
    traces: Option<Traces>,
    /// The store the replicas share, if there are replicas.
    shared: Option<Arc<Redis>>,
    /// The tasks upstreams made of clients' calls, passed on.
    tasks: tasks::Tasks,
}

/// What one call did on its way, besides its answer: what its audit line and metrics
/// need.
#[derive(Default)]
struct Trail {
    /// The upstream of the row called.
    upstream: Option<&'static str>,
    /// The call was over a rate limit.
    limited: bool,
    /// The upstream answered with its own error result.
    upstream_error: bool,
    /// What the result scanner found.
    findings: Vec<String>,
}

impl std::fmt::Debug for Gateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gateway")
            .field("endpoints", &self.endpoints)
            .field("gated", &self.gated)
            .field("discoverable", &self.discoverable)
            .finish_non_exhaustive()
    }
}

impl Gateway {
    /// Connects to every upstream a row names, compares each pinned row with what its
    /// upstream lists, and starts watching for tool-list changes. An upstream that cannot
    /// be reached withholds its rows (logged) and is tried again every `serving.retry`;
    /// the rest are served.
    pub async fn start(loaded: &'static Loaded, serving: Serving) -> Arc<Gateway> {
        let Serving {
            snapshot,
            gated,
            scanner,
            discoverable,
            retry,
            profiles,
            audit,
            metrics,
            limits,
            traces,
            shared,
            seal,
        } = serving;
        let retry = if retry.is_zero() { RETRY } else { retry };
        let catalog = &loaded.catalog;
        let endpoints = catalog
            .upstreams
            .iter()
            .filter(|declared| {
                catalog.tools.iter().any(|t| {
                    t.upstream
                        .as_ref()
                        .is_some_and(|s| s.upstream == declared.name)
                }) || catalog.offers.iter().any(|o| o.upstream == declared.name)
            })
            .map(|declared| (declared.name.clone(), Endpoint::of(declared)))
            .collect();
        let (changed, watch) = unbounded_channel();
        let (modern_changed, modern_watch) = unbounded_channel();
        let audit = audit.map(Arc::new);
        let listeners = Arc::new(Listeners::default());
        let gateway = Arc::new(Gateway {
            loaded,
            endpoints,
            sessions: RwLock::new(BTreeMap::new()),
            changed,
            modern_changed,
            retry,
            standing: RwLock::new(BTreeMap::new()),
            definitions: RwLock::new(BTreeMap::new()),
            offers: RwLock::new(BTreeMap::new()),
            snapshot,
            peers: Mutex::new(Vec::new()),
            solo: Arc::new(relays::Client::new(audit.clone()).heard_by(Arc::clone(&listeners))),
            sessionless: Mutex::new(BTreeMap::new()),
            modern: tokio::sync::Mutex::new(BTreeMap::new()),
            listeners,
            found_by_credential: ByCredential::default(),
            seal: seal.unwrap_or_default(),
            gated,
            scanner,
            discoverable,
            info: info(loaded),
            profiles,
            audit,
            metrics,
            limits,
            traces,
            shared,
            tasks: tasks::Tasks::default(),
        });
        for name in gateway.endpoints.keys() {
            gateway.refresh(name, None).await;
        }
        tokio::spawn(watch_upstreams(Arc::clone(&gateway), watch, modern_watch));
        gateway
    }

    /// Sends the spans still batched: when the gateway stops.
    pub fn flush(&self) {
        if let Some(traces) = &self.traces {
            traces.flush();
        }
    }

    /// The catalog.
    #[must_use]
    pub fn loaded(&self) -> &'static Loaded {
        self.loaded
    }

    /// How clients see the discoverable rows.
    #[must_use]
    pub fn discoverable(&self) -> Discoverable {
        self.discoverable
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

    /// The link of the gateway's one client (stdio): the gateway's own sessions with the
    /// upstreams are its.
    #[must_use]
    pub fn solo(&self) -> Link {
        Link::shared(Arc::clone(&self.solo))
    }

    /// The link of one client among many (HTTP): sessions of its own with the upstreams.
    #[must_use]
    pub fn own_link(&self) -> Link {
        Link::own(Arc::new(relays::Client::new(self.audit.clone())))
    }

    /// The gateway's own session at 2026-07-28 with `upstream`, for a client asked
    /// between rounds: opened when first needed, through which the upstream's questions
    /// reach the client as they came. `None` while the upstream does not speak 2026-07-28
    /// (asked again after the retry interval): its session at 2025-11-25 serves the
    /// client then, its questions made the call's rounds.
    pub async fn session_between_rounds(&self, upstream: &str) -> Option<Arc<Upstream>> {
        let endpoint = self.endpoints.get(upstream)?;
        let mut modern = self.modern.lock().await;
        match modern.get(upstream) {
            Some(Modern::Open(session)) if !session.is_closed() => {
                return Some(Arc::clone(session));
            }
            Some(Modern::Unspoken(tried)) if tried.elapsed() < self.retry => return None,
            _ => {}
        }
        let relay = Some(self.solo().relay(upstream));
        let revision = catalog_upstream::Revision::V2026_07_28;
        let changed = Some(self.modern_changed.clone());
        match Upstream::connect_at(upstream, endpoint, CLIENT, revision, changed, relay).await {
            Ok(session) => {
                tracing::debug!(%upstream, "a session at 2026-07-28 began");
                let session = Arc::new(session);
                modern.insert(upstream.to_owned(), Modern::Open(Arc::clone(&session)));
                Some(session)
            }
            Err(error) => {
                tracing::debug!(%upstream, %error, "no session at 2026-07-28; the one at 2025-11-25 serves");
                modern.insert(upstream.to_owned(), Modern::Unspoken(Instant::now()));
                None
            }
        }
    }

    /// The audit log, if the gateway keeps one.
    pub(crate) fn audit(&self) -> Option<&Arc<Audit>> {
        self.audit.as_ref()
    }

    /// The link of a client without a session (2026-07-28) whose credential is `grant`:
    /// the gateway's own sessions with the upstreams (what they send for a call goes to
    /// the call's own relay), and the resources results handed that credential may read.
    /// One per credential, kept while the gateway runs.
    pub fn sessionless_link(&self, grant: &Grant) -> Arc<Link> {
        let mut links = lock(&self.sessionless);
        Arc::clone(links.entry(Arc::clone(&grant.client)).or_insert_with(|| {
            Arc::new(Link::shared(Arc::new(relays::Client::new(
                self.audit.clone(),
            ))))
        }))
    }

    /// `link`'s session with `upstream`: the client's own, or the gateway's.
    ///
    /// # Errors
    /// The upstream is not declared or cannot be reached: why.
    pub async fn session_for(&self, link: &Link, upstream: &str) -> Result<Arc<Upstream>, String> {
        let endpoint = self
            .endpoints
            .get(upstream)
            .ok_or_else(|| format!("upstream `{upstream}` is not declared"))?;
        let shared = read(&self.sessions).get(upstream).cloned();
        link.session(upstream, endpoint, shared).await
    }

    /// Begins `link`'s own sessions with every upstream its client's profile sees, each
    /// on a task of its own.
    pub fn open_sessions(gateway: &Arc<Gateway>, link: &Arc<Link>) {
        let Some(target) = link.client().target() else {
            return;
        };
        for upstream in gateway.endpoints.keys() {
            if !gateway.sees_offers_of(&target.grant, upstream) {
                continue;
            }
            let (gateway, link, upstream) =
                (Arc::clone(gateway), Arc::clone(link), upstream.clone());
            tokio::spawn(async move {
                if let Err(error) = gateway.session_for(&link, &upstream).await {
                    tracing::debug!(%upstream, %error, "a client's own session did not begin");
                }
            });
        }
    }

    /// The sessions through which `link`'s client reaches upstreams now: its own, or the
    /// gateway's.
    pub async fn sessions_of(&self, link: &Link) -> Vec<Arc<Upstream>> {
        if link.is_own() {
            link.open().await
        } else {
            read(&self.sessions).values().cloned().collect()
        }
    }

    /// Whether some upstream's session declares what `declared` reads of its capabilities.
    #[must_use]
    pub fn upstreams_declare(
        &self,
        declared: impl Fn(&rmcp::model::ServerCapabilities) -> bool,
    ) -> bool {
        read(&self.sessions)
            .values()
            .any(|session| session.declares(&declared))
    }

    /// Whether the upstream of some pinned prompt, resource or template declares what
    /// `declared` reads of its capabilities.
    #[must_use]
    pub fn offers_declare(
        &self,
        pinned: impl Fn(&Offered) -> bool,
        declared: impl Fn(&rmcp::model::ServerCapabilities) -> bool,
    ) -> bool {
        let sessions = read(&self.sessions);
        self.loaded
            .catalog
            .offers
            .iter()
            .filter(|o| pinned(&o.what))
            .any(|o| {
                sessions
                    .get(&o.upstream)
                    .is_some_and(|s| s.declares(&declared))
            })
    }

    /// A new session's discovery state: the inline rows active.
    #[must_use]
    pub fn discovery(&self) -> Discovery<'static, Row, WORDS> {
        Discovery::new(self.info)
    }

    /// Where a new session keeps what its searches find: the shared store, when the
    /// replicas have one.
    #[must_use]
    pub fn discovered(&self) -> Discovered {
        Discovered::new(self.shared.clone(), Arc::clone(&self.found_by_credential))
    }

    /// A session's active rows: the inline ones and those its searches `found`.
    #[must_use]
    pub fn active(&self, found: Rows) -> Rows {
        self.info.inline | found
    }

    /// Why `row` is withheld, if it is: a pinned row whose upstream drifted or is gone.
    /// Rows without an upstream are never forwarded (see [`Gateway::servable`]).
    #[must_use]
    pub fn withheld(&self, row: Row) -> Option<Standing> {
        let standing = read(&self.standing);
        standing
            .get(&row.index())
            .filter(|s| !s.is_current())
            .cloned()
    }

    /// The rows this gateway can forward now: pinned to an upstream, and current.
    #[must_use]
    pub fn servable(&self) -> Rows {
        let standing = read(&self.standing);
        standing
            .iter()
            .filter(|(_, s)| s.is_current())
            .filter_map(|(i, _)| Row::from_index(*i))
            .collect()
    }

    /// Whether `grant`'s profile, if it names one, passes `sees`. A profile the server
    /// does not know sees nothing.
    fn profile_sees(&self, grant: &Grant, sees: impl FnOnce(&Profile) -> bool) -> bool {
        match &grant.profile {
            None => true,
            Some(profile) => self.profiles.get(profile).is_some_and(sees),
        }
    }

    /// Whether `grant`'s profile, if any, sees the prompts and resources of `upstream`.
    pub(crate) fn sees_offers_of(&self, grant: &Grant, upstream: &str) -> bool {
        self.profile_sees(grant, |p| p.sees_upstream(upstream))
    }

    /// Whether a call of `name` can be answered without its client's session: no
    /// discovery state to read (search finds live in the session) and no question to put
    /// to the client's user (only a gated row under `--gated ask` has one). The stdio
    /// express lane answers only those.
    #[must_use]
    pub fn sessionless(&self, name: &str) -> bool {
        self.discoverable != Discoverable::Search
            && (self.gated != GatedPolicy::Ask
                || Row::from_name(name).is_none_or(|row| row.spec().tier != Some(Tier::Gated)))
    }

    /// Whether `grant` may list and call `row`, before discovery: the row's access level
    /// and MCP exposure admit the grant's level, and its profile sees the row. The one
    /// rule for tools; listing, search and calls all ask it.
    fn permits(&self, grant: &Grant, row: Row) -> bool {
        row.spec().reach(Caller::Mcp(grant.access), false) == Reach::Allowed
            && self.in_profile(grant, row)
    }

    /// Whether `grant`'s profile, if any, sees `row`.
    fn in_profile(&self, grant: &Grant, row: Row) -> bool {
        let upstream = self.loaded.tool(row).upstream.as_ref();
        self.profile_sees(grant, |p| {
            p.sees_tool(row.name(), upstream.map(|s| s.upstream.as_str()))
        })
    }

    /// The rows `grant` may list and call now, before discovery.
    fn callable(&self, grant: &Grant) -> Rows {
        self.servable()
            .iter()
            .filter(|&row| self.permits(grant, row))
            .collect()
    }

    /// What `tools/list` answers `grant`'s client; with [`Discoverable::Search`],
    /// `active` is the session's active set, and the search tool comes first.
    #[must_use]
    pub fn list(&self, grant: &Grant, active: Option<Rows>) -> Vec<model::Tool> {
        let level = grant.access;
        let mut rows = self.callable(grant);
        if let Some(active) = active {
            rows &= active;
        }
        let mut tools = self.tool_listing(&rows, level);
        if active.is_some() {
            tools.insert(0, search_listing(self.info.search_tool));
        }
        tools
    }

    /// The tool `name` as `tools/list` lists it to a client that may call it, whatever
    /// its grant: what `rmcp` holds a call's `Mcp-Param-*` headers to (2026-07-28), so the
    /// `x-mcp-header` of an upstream's tool, as its server wrote it, is held at the
    /// gateway too. `None` for a name no servable row has, whose call is refused anyway.
    #[must_use]
    pub fn listed(&self, name: &str) -> Option<model::Tool> {
        let row = Row::from_name(name).filter(|row| self.servable().contains(*row))?;
        let rows: Rows = std::iter::once(row).collect();
        self.tool_listing(&rows, Access::FullAccess).pop()
    }

    /// `rows` as `tools/list` lists them at `level`, in catalog order: each rendered from
    /// its row, and each upstream tool as its server defines it and the row pins it.
    fn tool_listing(&self, rows: &Rows, level: Access) -> Vec<model::Tool> {
        let json = mcp(rows.iter().map(Row::spec), level);
        let mut tools = read_listing(&json);
        let definitions = read(&self.definitions);
        for (listed, row) in tools.iter_mut().zip(rows.iter()) {
            if let Some(definition) = definitions.get(&row.index())
                && listed.name == row.name()
                && let Ok(tool) =
                    serde_json::from_value(overrides::faithful(self.loaded.tool(row), definition))
            {
                *listed = tool;
            }
        }
        tools
    }

    /// Answers one `tools/call` from `client` that speaks protocol `revision`
    /// (which decides, in `catalog_mcp::calls::refuse`, how a refusal travels).
    /// `discovery`, with [`Discoverable::Search`], is where the session's search finds
    /// live and the request (which names the session, and the client to tell when a
    /// search adds to its list); `asker` puts the question about a gated call when the
    /// policy is to ask.
    ///
    /// In order: a search is answered here; a withheld row is refused, naming what
    /// changed; a discoverable row not yet found is refused, naming the search tool; a row
    /// the grant's profile does not see reads as unknown; then
    /// `catalog_mcp::calls::admit`, the gate of every MCP server here (level, arguments
    /// against the reviewed schema, the gated-tool policy); only then is the call
    /// forwarded to its upstream.
    ///
    /// A gated call asked about on 2026-07-28 is answered with the question itself (an
    /// input-required result), which the client's retry of the call answers.
    ///
    /// # Errors
    /// A refusal that `catalog_mcp::calls::refuse` makes a JSON-RPC error on `revision`.
    pub async fn call(
        &self,
        client: &Requester<'_>,
        revision: &ProtocolVersion,
        name: &str,
        arguments: Value,
        asker: &impl Asker<Row>,
        discovery: Option<(&Discovered, &RequestContext<RoleServer>)>,
    ) -> Result<CallToolResponse, ErrorData> {
        let started = Instant::now();
        // The arguments as sent, for the audit line; only when there is one to write.
        let sent = self.audit.as_ref().map(|_| arguments.clone());
        let mut trail = Trail::default();
        let answering = self.answer(
            client, revision, name, arguments, asker, discovery, &mut trail,
        );
        let (reply, span) = match &self.traces {
            Some(traces) => {
                let cx = traces.call(name, &client.grant.client, &client.trace);
                (answering.with_context(cx.clone()).await, Some(cx))
            }
            None => (answering.await, None),
        };
        self.record(
            client,
            name,
            sent.as_ref(),
            &reply,
            &trail,
            started,
            span.as_ref(),
        )
        .await;
        reply
    }

    /// [`Gateway::call`]'s answer, with what happened on the way in `trail`.
    #[allow(
        clippy::too_many_arguments,
        reason = "one call's request and client, and the trail it leaves"
    )]
    async fn answer(
        &self,
        client: &Requester<'_>,
        revision: &ProtocolVersion,
        name: &str,
        arguments: Value,
        asker: &impl Asker<Row>,
        discovery: Option<(&Discovered, &RequestContext<RoleServer>)>,
        trail: &mut Trail,
    ) -> Result<CallToolResponse, ErrorData> {
        let grant = client.grant;
        let level = grant.access;
        let reachable = Row::from_name(name).filter(|&row| self.permits(grant, row));
        if let Some((discovered, context)) = discovery {
            if name == self.info.search_tool.name() {
                return self
                    .search(grant, revision, arguments, discovered, context)
                    .await
                    .map(CallToolResponse::from);
            }
            if let Some(row) = reachable {
                let active = self.active(discovered.rows(context, grant).await?);
                if !active.contains(row) && self.withheld(row).is_none() {
                    return respond(&undiscovered(row, self.info.search_tool), revision);
                }
            }
        }
        if let Some(row) = reachable
            && let Some(standing) = self.withheld(row)
        {
            return respond(&withheld(row, &standing), revision);
        }
        if reachable.is_some_and(|row| self.loaded.tool(row).upstream.is_none()) {
            // The ask tool, or a row of the application's own: nothing to forward it to.
            return respond(&unknown_tool(name), revision);
        }
        if Row::from_name(name).is_some_and(|row| !self.in_profile(grant, row)) {
            // Outside the client's profile: as unknown as a tool the catalog lacks.
            return respond(&unknown_tool(name), revision);
        }
        if let Some(row) = reachable {
            trail.upstream = self
                .loaded
                .tool(row)
                .upstream
                .as_ref()
                .map(|s| s.upstream.as_str());
            if let Err(over) = self.limits.check(&grant.client, name) {
                trail.limited = true;
                return respond(&limited(row, &over), revision);
            }
        }
        let call = match admit::<Forward>(level, revision, name, arguments, self.gated, asker).await
        {
            Ok(call) => call,
            Err(answer) => return answer,
        };
        let row = call.tool();
        let forwarder = self.forwarder(client, name, trail.upstream);
        let ran = match call.dispatch(&forwarder).await {
            Dispatch::Ran(ran) => ran,
            Dispatch::Search(_) => {
                return Err(ErrorData::internal_error(
                    "the search tool is answered before the verifier",
                    None,
                ));
            }
        };
        let result = match tool_result(ran) {
            Ok(Ok(result)) => result,
            Ok(Err(e)) => return respond(&Rejection::runtime(row, e), revision),
            Err(needs_url) => return Err(needs_url),
        };
        trail.upstream_error = result.is_error == Some(true);
        // A result the upstream marks as an error is the tool's own answer; a success
        // must fit the output the catalog reviewed.
        if result.is_error != Some(true)
            && let Some(structured) = &result.structured_content
            && let Err(rejection) = check_output(row, structured)
        {
            return respond(&rejection, revision);
        }
        let mut result = match self.screen(row, result, &mut trail.findings) {
            Ok(result) => result,
            Err(rejection) => return respond(&rejection, revision),
        };
        // The resources the result links to are this client's to read.
        if let Some(upstream) = trail.upstream {
            for block in &result.content {
                if let ContentBlock::ResourceLink(link) = block {
                    client.link.handed(&link.uri, upstream, row.name());
                }
            }
        }
        // The result as the upstream's session with the gateway read it; to this client it
        // is a complete result, which 2026-07-28 says in `resultType` (the SDK leaves the
        // field out for older revisions).
        result.result_type = Some(ResultType::COMPLETE);
        Ok(result.into())
    }

    /// What forwards `client`'s call of `name` to `upstream`, for the request that made
    /// it: a client without a session is its calls' relay, each call its own.
    fn forwarder<'a>(
        &'a self,
        client: &Requester<'a>,
        name: &str,
        upstream: Option<&str>,
    ) -> Forwarder<'a> {
        let relay = client
            .sessionless
            .clone()
            .zip(upstream)
            .map(|(call, upstream)| {
                Arc::new(relays::CallRelay::new(
                    call,
                    upstream,
                    client.grant,
                    self.audit.clone(),
                )) as Arc<dyn catalog_upstream::relay::Relay>
            });
        let meta = client.sessionless.as_ref().map(|call| call.meta.clone());
        Forwarder {
            gateway: self,
            owner: &client.grant.client,
            link: client.link,
            origin: client.request.clone().map(|(request, progress)| Origin {
                request,
                progress,
                tool: name.to_owned(),
                relay,
                meta,
            }),
            between: client
                .sessionless
                .as_ref()
                .map(|call| Arc::clone(&call.round)),
        }
    }

    /// Writes the call's audit line (before the answer goes out) and counts it in the
    /// metrics: how it ended, by whom, to which upstream, how long it took.
    #[allow(
        clippy::too_many_arguments,
        reason = "everything one audit line says of one call"
    )]
    async fn record(
        &self,
        client: &Requester<'_>,
        tool: &str,
        sent: Option<&Value>,
        reply: &Result<CallToolResponse, ErrorData>,
        trail: &Trail,
        started: Instant,
        span: Option<&opentelemetry::Context>,
    ) {
        if self.audit.is_none() && self.metrics.is_none() && span.is_none() {
            return;
        }
        let grant = client.grant;
        let (verdict, error) = verdict(reply, trail);
        let elapsed = started.elapsed();
        if let Some(cx) = span {
            Traces::end(cx, verdict, error.as_deref());
        }
        if let Some(metrics) = &self.metrics {
            metrics.call(tool, verdict, &grant.client, elapsed);
        }
        let (Some(audit), Some(sent)) = (&self.audit, sent) else {
            return;
        };
        let line = audit::Line {
            time: jiff::Timestamp::now().to_string(),
            client: &grant.client,
            profile: grant.profile.as_deref(),
            session: client.session,
            tool,
            upstream: trail.upstream,
            verdict,
            error: error.as_deref(),
            arguments_digest: catalog_compiler::pin::digest(sent),
            arguments: (audit.arguments() == audit::Arguments::Values).then_some(sent),
            duration_ms: elapsed.as_secs_f64() * 1000.0,
            result_bytes: match reply {
                Ok(CallToolResponse::Complete(result)) => {
                    serde_json::to_vec(result).map_or(0, |b| b.len())
                }
                Ok(_) => 0,
                Err(error) => serde_json::to_vec(error).map_or(0, |b| b.len()),
            },
            findings: &trail.findings,
            trace_id: span.map(Traces::trace_id),
        };
        if let Err(e) = audit.write(&line).await {
            tracing::error!(error = %e, file = %audit.file().display(), "an audit line could not be written");
            if let Some(metrics) = &self.metrics {
                metrics.audit_error();
            }
        }
    }

    /// An upstream's result as the client's model reads it ([`catalog_mcp::calls::screen`]).
    fn screen(
        &self,
        row: Row,
        result: CallToolResult,
        findings: &mut Vec<String>,
    ) -> Result<CallToolResult, Rejection> {
        catalog_mcp::calls::screen(&self.scanner, row.name(), result, findings)
    }

    /// A search call: its arguments checked against the search row, then the catalog's
    /// search over what this client may call; discoverable hits join the session's list,
    /// kept (in the shared store, when there is one) before the answer goes out.
    async fn search(
        &self,
        grant: &Grant,
        revision: &ProtocolVersion,
        arguments: Value,
        discovered: &Discovered,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let search = self.info.search_tool;
        let arguments = if arguments.is_null() {
            Value::Object(Map::new())
        } else {
            arguments
        };
        let issues = catalog_core::check_value(&search.spec().input, &arguments);
        if !issues.is_empty() {
            return refuse(&Rejection::invalid_arguments(search, issues), revision);
        }
        let query = arguments
            .as_object()
            .and_then(|args| args.values().find_map(Value::as_str))
            .unwrap_or_default();
        let (outcome, found, grew) = {
            let before = discovered.rows(context, grant).await?;
            self.searched(grant, &before, query)
        };
        let retention = self.info.settings.keep_discovered;
        discovered.keep(context, grant, &found, retention).await?;
        if grew {
            notify(vec![context.peer.clone()]);
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(outcome)]))
    }

    /// The catalog's search for `query` over what `grant` may call, after the session
    /// found `before`: the outcome as the client reads it, the names of what the session
    /// has found now, and whether its active rows grew. Synchronous, and no set comes
    /// out: the discovery state and its sets are kilobytes, kept out of the futures.
    fn searched(
        &self,
        grant: &Grant,
        before: &Rows,
        query: &str,
    ) -> (String, Vec<&'static str>, bool) {
        let mut state = self.discovery().restricted_to(self.callable(grant));
        for row in before {
            state.load(row);
        }
        let active = state.active();
        // MCP has no user turns to renew the budget at: each search is its own turn.
        state.new_turn();
        let outcome = state.search(query).to_json();
        let found = state.discovered().iter().map(Row::name).collect();
        (outcome, found, state.active() != active)
    }

    /// Remembers a client session, to tell it when the listing changes; sessions that
    /// ended are forgotten.
    pub fn add_peer(&self, peer: Peer<RoleServer>) {
        let mut peers = lock(&self.peers);
        peers.retain(|p| !p.is_transport_closed());
        peers.push(peer);
    }

    /// Tells every open client session that the listing changed: the tools, and the
    /// prompts and resources when the catalog has them.
    fn notify_all(&self) {
        let mut peers = lock(&self.peers);
        peers.retain(|p| !p.is_transport_closed());
        let sessions = peers.clone();
        drop(peers);
        let offers = &self.loaded.catalog.offers;
        let prompts = offers.iter().any(|o| matches!(o.what, Offered::Prompt(_)));
        let resources = offers.iter().any(|o| !matches!(o.what, Offered::Prompt(_)));
        let listeners = Arc::clone(&self.listeners);
        tokio::spawn(async move {
            let changed = Changed {
                tools: true,
                prompts,
                resources,
            };
            listeners.changed(changed).await;
            for session in sessions {
                let told = async {
                    session.notify_tool_list_changed().await?;
                    if prompts {
                        session.notify_prompt_list_changed().await?;
                    }
                    if resources {
                        session.notify_resource_list_changed().await?;
                    }
                    Ok::<(), rmcp::service::ServiceError>(())
                };
                if let Err(e) = told.await {
                    tracing::debug!(error = %e, "a client session is gone");
                }
            }
        });
    }

    /// Opens the gateway's own session with `upstream`, which reports the changes it
    /// announces and whose relay reaches the gateway's one client (stdio), if any.
    async fn connect(&self, upstream: &str, endpoint: &Endpoint) -> Result<Arc<Upstream>, String> {
        let changed = Some(self.changed.clone());
        let relay = Some(self.solo().relay(upstream));
        let session =
            Arc::new(Upstream::connect(upstream, endpoint, CLIENT, changed, relay).await?);
        write(&self.sessions).insert(upstream.to_owned(), Arc::clone(&session));
        Ok(session)
    }

    /// Lists `upstream`'s tools again (through `via`, or the gateway's own session, a new
    /// one when there is none or it ended) and compares them with the pins. Whether what
    /// is served changed.
    async fn refresh(&self, upstream: &str, via: Option<Arc<Upstream>>) -> bool {
        let Some(endpoint) = self.endpoints.get(upstream) else {
            return false;
        };
        let open = via.or_else(|| {
            read(&self.sessions)
                .get(upstream)
                .filter(|session| !session.is_closed())
                .cloned()
        });
        let session = match open {
            Some(session) => Ok(session),
            None => self.connect(upstream, endpoint).await,
        };
        let catalog = &self.loaded.catalog;
        let offers_pinned = catalog.offers.iter().any(|o| o.upstream == upstream);
        let (comparison, listed, offers) = match session {
            Ok(session) => {
                let offers = if offers_pinned {
                    session.offers().await
                } else {
                    Ok(Offers::default())
                };
                match session.tools().await {
                    Ok(listed) => (
                        drift::compare(catalog, upstream, &listed, &self.snapshot),
                        listed,
                        offers,
                    ),
                    Err(why) => (
                        drift::unreachable(catalog, upstream, &why),
                        Vec::new(),
                        Err(why),
                    ),
                }
            }
            Err(why) => (
                drift::unreachable(catalog, upstream, &why),
                Vec::new(),
                Err(why),
            ),
        };
        let mut definitions = write(&self.definitions);
        for (i, now) in &comparison.rows {
            let definition = catalog.tools[*i].upstream.as_ref().and_then(|source| {
                listed
                    .iter()
                    .find(|t| t.get("name").and_then(Value::as_str) == Some(source.tool.as_str()))
            });
            match definition.filter(|_| now.is_current()) {
                Some(definition) => definitions.insert(*i, definition.clone()),
                None => definitions.remove(i),
            };
        }
        drop(definitions);
        let mut standing = write(&self.standing);
        let mut changed = false;
        for (i, now) in &comparison.rows {
            changed |= standing.insert(*i, now.clone()).as_ref() != Some(now);
        }
        drop(standing);
        let offered = drift::compare_offers(
            catalog,
            upstream,
            offers.as_ref().map_err(String::as_str),
            &self.snapshot,
        );
        let mut pinned = write(&self.offers);
        for (i, now) in &offered {
            let listing = offers
                .as_ref()
                .ok()
                .filter(|_| now.is_current())
                .and_then(|offers| offers.find(&catalog.offers[*i].on_upstream))
                .cloned();
            let before = pinned.insert(*i, (now.clone(), listing));
            changed |= before.is_none_or(|(was, _)| was != *now);
        }
        drop(pinned);
        if changed {
            log(self.loaded, upstream, &comparison, &offered);
        }
        if let Some(metrics) = &self.metrics {
            let up = !comparison
                .rows
                .iter()
                .any(|(_, s)| matches!(s, Standing::Unreachable(_)));
            metrics.upstream(upstream, up, comparison.withheld().count());
        }
        changed
    }

    /// The upstreams to try again: unreachable ones, and those whose session ended.
    fn stale(&self) -> Vec<String> {
        let standing = read(&self.standing);
        let sessions = read(&self.sessions);
        let offers = read(&self.offers);
        self.endpoints
            .keys()
            .filter(|name| {
                sessions.get(*name).is_none_or(|s| s.is_closed())
                    || offers.iter().any(|(i, (s, _))| {
                        matches!(s, Standing::Unreachable(_))
                            && self.loaded.catalog.offers[*i].upstream == **name
                    })
                    || standing.iter().any(|(i, s)| {
                        matches!(s, Standing::Unreachable(_))
                            && self.loaded.catalog.tools[*i]
                                .upstream
                                .as_ref()
                                .is_some_and(|source| source.upstream == **name)
                    })
            })
            .cloned()
            .collect()
    }
}

/// The gateway's session at 2026-07-28 with an upstream, or when it was last found not
/// to speak it.
enum Modern {
    Open(Arc<Upstream>),
    Unspoken(Instant),
}

/// What forwards one verified call: the gateway, through the calling client's link, for
/// the client request that made it.
struct Forwarder<'a> {
    gateway: &'a Gateway,
    /// The client that calls, whose task a task the upstream makes of the call is.
    owner: &'a Arc<str>,
    link: &'a Link,
    origin: Option<Origin>,
    /// The call's round, for a client asked between rounds (2026-07-28).
    between: Option<Arc<Round>>,
}

impl Runs for Forwarder<'_> {
    fn forward(&self, row: Row, arguments: Value) -> BoxFuture<'_, Result<Value, CallFailed>> {
        Box::pin(async move {
            let gateway = self.gateway;
            let source =
                gateway.loaded.tool(row).upstream.as_ref().ok_or_else(|| {
                    CallFailed::Session(format!("`{}` has no upstream", row.name()))
                })?;
            // A client asked between rounds reaches an upstream that asks so too through
            // the gateway's session at its revision: the upstream's questions go to the
            // client as they came.
            let modern = match &self.between {
                Some(_) => gateway.session_between_rounds(&source.upstream).await,
                None => None,
            };
            let session = match &modern {
                Some(session) => Arc::clone(session),
                None => gateway
                    .session_for(self.link, &source.upstream)
                    .await
                    .map_err(CallFailed::Session)?,
            };
            let arguments = match arguments {
                Value::Object(map) => map,
                _ => Map::new(),
            };
            // At debug: the audit log is the record of each call, and a line per call on
            // standard error costs more than the rest of the call does.
            tracing::debug!(tool = row.name(), upstream = %source.upstream, "forwarding a verified call");
            let sent = Instant::now();
            let span = gateway.traces.as_ref().map(|traces| {
                traces.upstream(
                    &opentelemetry::Context::current(),
                    &source.upstream,
                    &source.tool,
                )
            });
            let result = match (modern.is_some(), &self.between) {
                (true, Some(round)) => {
                    let (answers, state) = round.for_upstream();
                    let origin = self.origin.clone();
                    match session
                        .call_between_rounds(&source.tool, arguments, origin, answers, state)
                        .await
                    {
                        Ok(Answered::Done(value)) => Ok(value),
                        Ok(Answered::Asking(asked)) => {
                            // The round ends with the upstream's questions; the retry
                            // brings their answers.
                            round.relay(asked);
                            std::future::pending().await
                        }
                        Ok(Answered::Task(created)) => {
                            // The call ends with the task, under the gateway's own id.
                            let tasks = &gateway.tasks;
                            let created = tasks.relay(self.owner, row, &source.upstream, created);
                            tracing::info!(
                                client = %self.owner,
                                tool = row.name(),
                                upstream = %source.upstream,
                                task = %created.task.task_id,
                                "an upstream made the call a task, passed on"
                            );
                            round.became_task(created);
                            std::future::pending().await
                        }
                        Err(failed) => Err(failed),
                    }
                }
                _ => {
                    session
                        .call(&source.tool, arguments, self.origin.clone())
                        .await
                }
            };
            if let Some(metrics) = &gateway.metrics {
                metrics.upstream_request(&source.upstream, sent.elapsed());
            }
            if let Some(cx) = &span {
                let failed = result.as_ref().err().map(|_| "upstream_error");
                Traces::end(cx, if failed.is_some() { "failed" } else { "ok" }, failed);
            }
            result
        })
    }

    fn is_search(&self, row: Row) -> bool {
        row == self.gateway.info.search_tool
    }
}

/// What a forwarded call came to: the upstream's tool result, or why there is none; or the
/// upstream's own error for the client to act on (`-32042`, `-32021`, `-32602`), as it
/// sent it.
fn tool_result(
    ran: Result<catalog_core::Output, CallFailed>,
) -> Result<Result<CallToolResult, String>, ErrorData> {
    match ran {
        // A URL to visit first, a capability the client did not declare, or params the
        // upstream refuses (answers to its questions, say): the client's to act on, as the
        // upstream sent it.
        Err(CallFailed::Refused { error, .. })
            if error.code.0 == catalog_mcp::calls::URL_ELICITATION_REQUIRED
                || error.code == rmcp::model::ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
                || error.code == rmcp::model::ErrorCode::INVALID_PARAMS =>
        {
            Err(error)
        }
        Err(failed) => Ok(Err(failed.to_string())),
        Ok(output) => {
            let value = output.into_model_value().unwrap_or_default();
            Ok(serde_json::from_value::<CallToolResult>(value)
                .map_err(|e| format!("the upstream's result is not a tool result: {e}")))
        }
    }
}

/// Sends `notifications/tools/list_changed` to each session, without holding up the call.
fn notify(sessions: Vec<Peer<RoleServer>>) {
    tokio::spawn(async move {
        for session in sessions {
            if let Err(e) = session.notify_tool_list_changed().await {
                tracing::debug!(error = %e, "a client session is gone");
            }
        }
    });
}

/// Compares an upstream again each time it announces a change, and tries the
/// unreachable ones again at the gateway's interval; tells the clients when what is
/// served changed.
async fn watch_upstreams(
    gateway: Arc<Gateway>,
    mut changed: UnboundedReceiver<String>,
    mut modern: UnboundedReceiver<String>,
) {
    let mut retry = tokio::time::interval(gateway.retry);
    retry.tick().await;
    loop {
        // Compared through the session that told of the change: a server started twice
        // (once for each revision) may have changed in one of them only.
        let (upstreams, via_modern) = tokio::select! {
            announced = changed.recv() => match announced {
                Some(upstream) => {
                    tracing::info!(%upstream, "the upstream says its tools changed; comparing again");
                    (vec![upstream], false)
                }
                None => return,
            },
            Some(upstream) = modern.recv() => {
                tracing::info!(%upstream, "the upstream says its tools changed (2026-07-28); comparing again");
                (vec![upstream], true)
            }
            _ = retry.tick() => (gateway.stale(), false),
        };
        let mut any = false;
        for upstream in upstreams {
            let via = if via_modern {
                gateway.session_between_rounds(&upstream).await
            } else {
                None
            };
            any |= gateway.refresh(&upstream, via).await;
        }
        if any {
            gateway.notify_all();
        }
    }
}

fn log(loaded: &Loaded, upstream: &str, comparison: &Comparison, offered: &[(usize, Standing)]) {
    let served = comparison.rows.len() - comparison.withheld().count();
    tracing::info!(%upstream, served, withheld = comparison.rows.len() - served, "compared with the catalog's pins");
    for (i, standing) in comparison.withheld() {
        let name = &loaded.catalog.tools[*i].name;
        tracing::warn!(%upstream, tool = %name, "withheld: {standing}");
    }
    for (i, standing) in offered.iter().filter(|(_, s)| !s.is_current()) {
        let what = &loaded.catalog.offers[*i].what;
        tracing::warn!(%upstream, "withheld: {what}: {standing}");
    }
    if !comparison.unimported.is_empty() {
        tracing::info!(%upstream, tools = %comparison.unimported.join(", "), "listed upstream but not in the catalog: not served until imported");
    }
}

/// The refusal of a withheld row: which tool, what changed, and the way out.
#[must_use]
pub fn withheld(row: Row, standing: &Standing) -> Rejection {
    let until = standing.served_again();
    Rejection {
        class: ErrorClass::PermissionDenied,
        tool: Some(row.name()),
        message: format!(
            "`{}` is withheld: {standing}. It is served again {until}; use another tool meanwhile.",
            row.name()
        ),
        issues: Vec::new(),
    }
}

/// How a call ended, as the audit log and the metrics name it, and the class of a
/// refusal or failure.
fn verdict(
    reply: &Result<CallToolResponse, ErrorData>,
    trail: &Trail,
) -> (&'static str, Option<String>) {
    let class = |json: &Value| json.get("error").and_then(Value::as_str).map(str::to_owned);
    match reply {
        _ if trail.limited => (
            "limited",
            Some(ErrorClass::RuntimeError.as_str().to_owned()),
        ),
        Err(error) => (
            "refused",
            error
                .data
                .as_ref()
                .and_then(class)
                .or_else(|| Some(format!("JSON-RPC {}", error.code.0))),
        ),
        Ok(CallToolResponse::Complete(result)) if result.is_error == Some(true) => {
            if trail.upstream_error {
                return ("tool-error", None);
            }
            let json = result
                .content
                .first()
                .and_then(|block| block.as_text())
                .and_then(|text| serde_json::from_str::<Value>(&text.text).ok());
            let class = json.as_ref().and_then(class);
            let verdict = if class.as_deref() == Some(ErrorClass::RuntimeError.as_str()) {
                "failed"
            } else {
                "refused"
            };
            (verdict, class)
        }
        Ok(CallToolResponse::Complete(_)) => ("ok", None),
        Ok(_) => ("asked", None),
    }
}

/// The refusal of a call over a rate limit: which limit, and when to try again.
fn limited(row: Row, over: &crate::limits::Over) -> Rejection {
    let whose = if over.shared {
        "every client's calls together"
    } else {
        "your calls"
    };
    Rejection {
        class: ErrorClass::RuntimeError,
        tool: Some(row.name()),
        message: format!(
            "`{}` is over its rate limit ({} for {whose}): retry after {} s, or use another tool meanwhile.",
            row.name(),
            over.rate,
            over.retry_after
        ),
        issues: Vec::new(),
    }
}

/// The refusal of a tool the client cannot know of.
fn unknown_tool(name: &str) -> Rejection {
    Rejection {
        class: ErrorClass::SchemaResolution,
        tool: None,
        message: format!("Unknown tool: {name}"),
        issues: Vec::new(),
    }
}

/// The refusal of a discoverable row a search has not returned yet.
fn undiscovered(row: Row, search: Row) -> Rejection {
    Rejection {
        class: ErrorClass::SchemaResolution,
        tool: Some(row.name()),
        message: format!(
            "`{}` is not in your tool list yet: call `{}` with what you need first; matching tools join the list.",
            row.name(),
            search.name()
        ),
        issues: Vec::new(),
    }
}

/// What the discovery loop needs, from the loaded catalog.
fn info(loaded: &'static Loaded) -> Info<'static, Row, WORDS> {
    let row = |i: usize| Row::from_index(i).expect("every index below the row count is a row");
    catalog_compiler::info(&loaded.catalog, loaded.specs(), row)
}

/// The renderer's JSON read into the SDK's types; the renderer writes MCP, so a failure
/// is a fault of this build, caught by every test that lists.
fn read_listing(json: &str) -> Vec<model::Tool> {
    serde_json::from_str::<Value>(json)
        .and_then(|mut listing| serde_json::from_value(listing["tools"].take()))
        .unwrap_or_else(|e| panic!("the MCP renderer's list is not MCP: {e}"))
}

/// The search tool as MCP lists it: the catalog keeps it from MCP's levels (the agent
/// loop answers it), so the renderer does not; the gateway answers it, for every level.
fn search_listing(search: Row) -> model::Tool {
    let spec = search.spec();
    let schema: Map<String, Value> = serde_json::from_str(spec.mcp_schema()).unwrap_or_default();
    let mut tool = model::Tool::default();
    tool.name = spec.name.into();
    tool.description = Some(spec.description.into());
    tool.input_schema = Arc::new(schema);
    let mut hints = model::ToolAnnotations::default();
    hints.read_only_hint = Some(true);
    tool.annotations = Some(hints);
    tool
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

pub(crate) fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
}
