//! What a server serves besides its catalog's tools: prompts, resources and resource
//! templates, completions of their arguments, and subscriptions to resources. The tools
//! come from the catalog; these are the crate's own, in `rmcp`'s types, through
//! [`Offers`] (`Tools::with_offers`). A server without any serves tools only, and
//! declares no capability for the rest. Getting a prompt and reading a resource take the
//! same [`Context`] a tool's handler takes, so they can ask the client too (mid-call, or
//! between rounds on 2026-07-28).

// MCP 2026-07-28 makes `resources/subscribe` legacy; clients of 2025-11-25 use it.
#![allow(deprecated)]

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, PoisonError};

use catalog_core::{BoxFuture, Context};
use rmcp::ErrorData;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResult, Prompt,
    ReadResourceRequestParams, ReadResourceResult, Resource, ResourceTemplate,
    ResourceUpdatedNotificationParam,
};
use rmcp::service::{Peer, RoleServer, SubscriptionSink};

use crate::tokens::Grant;

/// Which of MCP's capabilities a server's [`Offers`] declare.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Offered {
    /// `prompts/list` and `prompts/get`.
    pub prompts: bool,
    /// `resources/list`, `resources/templates/list` and `resources/read`.
    pub resources: bool,
    /// `completion/complete`.
    pub completions: bool,
}

/// A server's own prompts, resources, templates and completions, answered for the
/// client whose credential is `grant` (a server decides what each level may read).
/// Every method has a default: nothing listed, nothing found.
pub trait Offers: Send + Sync + 'static {
    /// What the server declares.
    fn offered(&self) -> Offered;

    /// The prompts `grant` may list.
    fn prompts(&self, grant: &Grant) -> Vec<Prompt> {
        let _ = grant;
        Vec::new()
    }

    /// One prompt, its arguments filled in; `context` talks back to the client.
    fn get_prompt(
        &self,
        context: Context,
        grant: &Grant,
        request: GetPromptRequestParams,
    ) -> BoxFuture<'_, Result<GetPromptResult, ErrorData>> {
        let _ = (context, grant);
        let error = ErrorData::invalid_params(format!("no prompt named `{}`", request.name), None);
        Box::pin(std::future::ready(Err(error)))
    }

    /// The resources `grant` may list.
    fn resources(&self, grant: &Grant) -> Vec<Resource> {
        let _ = grant;
        Vec::new()
    }

    /// The resource templates `grant` may list.
    fn templates(&self, grant: &Grant) -> Vec<ResourceTemplate> {
        let _ = grant;
        Vec::new()
    }

    /// One resource's contents; `context` talks back to the client.
    fn read(
        &self,
        context: Context,
        grant: &Grant,
        request: ReadResourceRequestParams,
    ) -> BoxFuture<'_, Result<ReadResourceResult, ErrorData>> {
        let _ = (context, grant);
        Box::pin(std::future::ready(Err(not_found(&request.uri))))
    }

    /// Completions of a prompt's or a template's argument: none, by default.
    fn complete(
        &self,
        grant: &Grant,
        request: CompleteRequestParams,
    ) -> BoxFuture<'_, Result<CompleteResult, ErrorData>> {
        let _ = (grant, request);
        Box::pin(std::future::ready(Ok(CompleteResult::default())))
    }

    /// Where the server tells subscribers that a resource changed: with one, clients may
    /// subscribe (MCP `resources.subscribe`) and the server calls
    /// [`Subscriptions::updated`] when one changes.
    fn subscriptions(&self) -> Option<&Subscriptions> {
        None
    }

    /// Whether `grant` may subscribe to `uri`: by default, to what it may read.
    fn may_subscribe(&self, grant: &Grant, uri: &str) -> bool {
        self.resources(grant).iter().any(|r| r.uri == uri)
            || self
                .templates(grant)
                .iter()
                .any(|t| template_matches(&t.uri_template, uri))
    }
}

/// Declares in `capabilities` what `offers` offer.
pub fn declare(offers: &dyn Offers, capabilities: &mut rmcp::model::ServerCapabilities) {
    let offered = offers.offered();
    if offered.prompts {
        capabilities.prompts = Some(rmcp::model::PromptsCapability::default());
    }
    if offered.resources {
        let mut resources = rmcp::model::ResourcesCapability::default();
        resources.subscribe = offers.subscriptions().map(|_| true);
        capabilities.resources = Some(resources);
    }
    if offered.completions {
        capabilities.completions = Some(serde_json::Map::new());
    }
}

/// The error for a resource no one may read here: `-32002`, with the URI.
#[must_use]
pub fn not_found(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(
        format!(
            "no resource `{uri}` here; `resources/list` and `resources/templates/list` name what there is"
        ),
        Some(serde_json::json!({ "uri": uri })),
    )
}

/// Whether `uri` is an expansion of the RFC 6570 `template`: the rule a gateway routes
/// reads by too, and the compiler checks upstreams' templates against.
pub use catalog_core::uri_template::matches as template_matches;

/// Who subscribed to which resource, by session (`resources/subscribe`, up to
/// 2025-11-25) or by stream (`subscriptions/listen`, 2026-07-28); shared by every
/// session of a server. Cloning it shares the same subscriptions.
#[derive(Clone, Default)]
pub struct Subscriptions {
    inner: Arc<Mutex<Subscribed>>,
}

#[derive(Default)]
struct Subscribed {
    /// Each session's peer, by the number it was given.
    peers: BTreeMap<u64, Peer<RoleServer>>,
    /// The sessions subscribed to each URI.
    uris: BTreeMap<String, BTreeSet<u64>>,
    /// Each open listen stream, by number, with the URIs it may be told of.
    streams: BTreeMap<u64, (SubscriptionSink, BTreeSet<String>)>,
    next: u64,
}

impl std::fmt::Debug for Subscriptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let subscribed = self.lock();
        f.debug_struct("Subscriptions")
            .field("uris", &subscribed.uris)
            .finish_non_exhaustive()
    }
}

impl Subscriptions {
    /// No one subscribed.
    #[must_use]
    pub fn new() -> Subscriptions {
        Subscriptions::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Subscribed> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A number for a new session, whose `peer` is told of the updates it subscribes to.
    #[must_use]
    pub fn session(&self, peer: Peer<RoleServer>) -> u64 {
        let mut subscribed = self.lock();
        subscribed.next += 1;
        let id = subscribed.next;
        subscribed.peers.insert(id, peer);
        id
    }

    /// Session `session` subscribes to `uri`.
    pub fn subscribe(&self, session: u64, uri: &str) {
        self.lock()
            .uris
            .entry(uri.to_owned())
            .or_default()
            .insert(session);
    }

    /// Session `session` no longer wants `uri`'s updates.
    pub fn unsubscribe(&self, session: u64, uri: &str) {
        let mut subscribed = self.lock();
        if let Some(sessions) = subscribed.uris.get_mut(uri) {
            sessions.remove(&session);
            if sessions.is_empty() {
                subscribed.uris.remove(uri);
            }
        }
    }

    /// Whether session `session` subscribed to `uri`.
    #[must_use]
    pub fn subscribed(&self, session: u64, uri: &str) -> bool {
        self.lock()
            .uris
            .get(uri)
            .is_some_and(|sessions| sessions.contains(&session))
    }

    /// A listen stream (`subscriptions/listen`) told of the updates of `uris` until
    /// [`Subscriptions::closed`]: its number.
    #[must_use]
    pub fn listen(&self, sink: SubscriptionSink, uris: BTreeSet<String>) -> u64 {
        let mut subscribed = self.lock();
        subscribed.next += 1;
        let id = subscribed.next;
        subscribed.streams.insert(id, (sink, uris));
        id
    }

    /// Listen stream `stream` ended.
    pub fn closed(&self, stream: u64) {
        self.lock().streams.remove(&stream);
    }

    /// Tells every session subscribed to `uri`, and every listen stream that may be told
    /// of it, that it changed (`notifications/resources/updated`); sessions that ended are
    /// forgotten. How many were told.
    pub async fn updated(&self, uri: &str) -> usize {
        let streams: Vec<SubscriptionSink> = self
            .lock()
            .streams
            .values()
            .filter(|(_, uris)| uris.contains(uri))
            .map(|(sink, _)| sink.clone())
            .collect();
        let mut told = 0;
        for sink in streams {
            if sink.notify_resource_updated(uri).await.is_ok() {
                told += 1;
            }
        }
        let peers: Vec<(u64, Peer<RoleServer>)> = {
            let mut subscribed = self.lock();
            let closed: Vec<u64> = subscribed
                .peers
                .iter()
                .filter(|(_, peer)| peer.is_transport_closed())
                .map(|(id, _)| *id)
                .collect();
            for id in &closed {
                subscribed.peers.remove(id);
                for sessions in subscribed.uris.values_mut() {
                    sessions.remove(id);
                }
            }
            subscribed.uris.retain(|_, sessions| !sessions.is_empty());
            let sessions = subscribed.uris.get(uri).cloned().unwrap_or_default();
            sessions
                .iter()
                .filter_map(|id| Some((*id, subscribed.peers.get(id)?.clone())))
                .collect()
        };
        for (_, peer) in peers {
            let update = ResourceUpdatedNotificationParam::new(uri.to_owned());
            if peer.notify_resource_updated(update).await.is_ok() {
                told += 1;
            }
        }
        told
    }
}
