//! The gateway's state: the loaded catalog, a session with each upstream, and how each
//! pinned row stands against what its upstream lists now. Every `tools/call` of every
//! client takes [`Gateway::call`], and every listing [`Gateway::list`].

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::Duration;

use catalog_core::Value;
use catalog_mcp::rounds::Seal;
use catalog_mcp::{GatedPolicy, Grant};
use catalog_result_scan::Scanner;
use rmcp::service::{Peer, RoleServer};
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

use catalog_check::model::Transport;
use catalog_upstream::Upstream;
use catalog_upstream::drift::{Snapshot, Standing};

use crate::audit::Audit;
use crate::config::Profiles;
use crate::discovered::ByCredential;
use crate::limits::Limits;
use crate::listen::Listeners;
use crate::metrics::Metrics;
use crate::relay::{self as relays, Link};
use crate::replicas::Redis;
use crate::rows::Loaded;
use crate::traces::{Carried, Traces};

mod calls;
mod listing;
mod refusals;
mod sessions;
mod tasks;
pub use refusals::withheld;
use sessions::{Modern, watch_upstreams};

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
    loaded: Loaded,
    /// Where each upstream a row names is.
    endpoints: BTreeMap<String, Transport>,
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
struct Trail<'g> {
    /// The upstream of the row called.
    upstream: Option<&'g str>,
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
    pub async fn start(loaded: Loaded, serving: Serving) -> Arc<Gateway> {
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
            .map(|declared| (declared.name.clone(), declared.transport.clone()))
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
    pub fn loaded(&self) -> &Loaded {
        &self.loaded
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

    /// The audit log, if the gateway keeps one.
    pub(crate) fn audit(&self) -> Option<&Arc<Audit>> {
        self.audit.as_ref()
    }
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
