//! The gateway's sessions with its upstreams: its own and each client's, opened,
//! compared with the catalog's pins when an upstream announces a change or is tried
//! again, and the clients told when what is served changed.

use std::sync::Arc;
use std::time::Instant;

use catalog_check::import::Offers;
use catalog_check::model::Offered;
use catalog_check::model::Transport;
use catalog_core::Value;
use catalog_mcp::Grant;
use catalog_upstream::Upstream;
use catalog_upstream::drift::{self, Comparison, Standing};
use rmcp::service::{Peer, RoleServer};
use tokio::sync::mpsc::UnboundedReceiver;

use super::{Gateway, lock, read, write};
use crate::listen::Changed;
use crate::relay::{self as relays, CLIENT, Link};
use crate::rows::Loaded;

impl Gateway {
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

    /// Remembers a client session, to tell it when the listing changes; sessions that
    /// ended are forgotten.
    pub fn add_peer(&self, peer: Peer<RoleServer>) {
        let mut peers = lock(&self.peers);
        peers.retain(|p| !p.is_transport_closed());
        peers.push(peer);
    }

    /// Tells every open client session that the listing changed: the tools, and the
    /// prompts and resources when the catalog has them.
    pub(super) fn notify_all(&self) {
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
    pub(super) async fn connect(
        &self,
        upstream: &str,
        endpoint: &Transport,
    ) -> Result<Arc<Upstream>, String> {
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
    pub(super) async fn refresh(&self, upstream: &str, via: Option<Arc<Upstream>>) -> bool {
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
            log(&self.loaded, upstream, &comparison, &offered);
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
    pub(super) fn stale(&self) -> Vec<String> {
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
pub(super) enum Modern {
    Open(Arc<Upstream>),
    Unspoken(Instant),
}

/// Sends `notifications/tools/list_changed` to each session, without holding up the call.
pub(super) fn notify(sessions: Vec<Peer<RoleServer>>) {
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
pub(super) async fn watch_upstreams(
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

pub(super) fn log(
    loaded: &Loaded,
    upstream: &str,
    comparison: &Comparison,
    offered: &[(usize, Standing)],
) {
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
