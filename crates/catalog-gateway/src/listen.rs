//! `subscriptions/listen` (MCP 2026-07-28): a client without a session opens a stream on
//! which the gateway tells it what changed: its lists (tools, prompts, resources), and the
//! resources it asked to hear of and may read. Resource updates come from the gateway's
//! own sessions with the upstreams, subscribed to while some stream listens.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, PoisonError};

use rmcp::service::SubscriptionSink;

/// The open listen streams of the gateway's clients without a session.
#[derive(Debug, Default)]
pub struct Listeners {
    streams: Mutex<Streams>,
}

#[derive(Debug, Default)]
struct Streams {
    open: BTreeMap<u64, (SubscriptionSink, BTreeSet<String>)>,
    next: u64,
}

/// What changed in the lists a stream may be told of.
#[derive(Clone, Copy, Debug, Default)]
pub struct Changed {
    /// The tools.
    pub tools: bool,
    /// The prompts.
    pub prompts: bool,
    /// The resources and templates.
    pub resources: bool,
}

impl Listeners {
    fn lock(&self) -> std::sync::MutexGuard<'_, Streams> {
        self.streams.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A stream told of the changes its `sink` accepted, and of the updates of `uris`:
    /// its number, and those of `uris` no other stream listened to yet (to subscribe to).
    pub fn open(&self, sink: SubscriptionSink, uris: BTreeSet<String>) -> (u64, Vec<String>) {
        let mut streams = self.lock();
        let new = uris
            .iter()
            .filter(|uri| !streams.open.values().any(|(_, u)| u.contains(*uri)))
            .cloned()
            .collect();
        streams.next += 1;
        let id = streams.next;
        streams.open.insert(id, (sink, uris));
        (id, new)
    }

    /// Stream `id` ended: the URIs it listened to that no other stream does (to
    /// unsubscribe from).
    pub fn close(&self, id: u64) -> Vec<String> {
        let mut streams = self.lock();
        let Some((_, uris)) = streams.open.remove(&id) else {
            return Vec::new();
        };
        uris.into_iter()
            .filter(|uri| !streams.open.values().any(|(_, u)| u.contains(uri)))
            .collect()
    }

    /// Tells every stream of the lists that `changed`, each as far as it asked (the
    /// sink drops what its stream did not accept).
    pub async fn changed(&self, changed: Changed) {
        for sink in self.sinks(|_| true) {
            // A list a stream did not ask about is refused by its sink: nothing to do.
            if changed.tools {
                let _ = sink.notify_tool_list_changed().await;
            }
            if changed.prompts {
                let _ = sink.notify_prompt_list_changed().await;
            }
            if changed.resources {
                let _ = sink.notify_resource_list_changed().await;
            }
        }
    }

    /// Tells the streams that listen to `uri` that it changed.
    pub async fn updated(&self, uri: &str) {
        for sink in self.sinks(|uris| uris.contains(uri)) {
            let _ = sink.notify_resource_updated(uri).await;
        }
    }

    fn sinks(&self, listening: impl Fn(&BTreeSet<String>) -> bool) -> Vec<SubscriptionSink> {
        self.lock()
            .open
            .values()
            .filter(|(_, uris)| listening(uris))
            .map(|(sink, _)| sink.clone())
            .collect()
    }
}
