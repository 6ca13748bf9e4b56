//! MCP logging: the server's own `tracing` events, emitted while it answers a client's
//! request, go to that client as `notifications/message` when they are at or above the
//! level the client asked for.
//!
//! - Up to 2025-11-25 a client sets its level for the session with `logging/setLevel`
//!   ([`ClientLevel`]); until it does, it gets no messages.
//! - From 2026-07-28 on there is no session: a request names its level in
//!   `_meta` (`io.modelcontextprotocol/logLevel`), and a request that names none gets no
//!   messages. `logging/setLevel` is no method of that revision.
//!
//! Each request is answered inside a span that [`scoped`] opens; the [`layer`], added to
//! the process's subscriber (as [`crate::program::init_logging`] does), sends each event
//! inside such a span to that span's client, in order, before the request's response. The
//! event's level maps to MCP's (`ERROR` error, `WARN` warning, `INFO` info, `DEBUG` and
//! `TRACE` debug), its target is the `logger`, and its message and fields are the `data`.
//! What the client gets does not depend on `RUST_LOG`, which filters standard error only.

// MCP 2026-07-28 deprecates logging (SEP-2577) and `rmcp` marks its types so; the feature
// still works on that revision, and clients of 2025-11-25 use it.
#![allow(deprecated)]

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use rmcp::ErrorData;
use rmcp::model::{
    LoggingLevel, LoggingMessageNotificationParam, ProtocolVersion, ServerCapabilities,
    SetLevelRequestMethod, SetLevelRequestParams,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use serde_json::{Map, Value};
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};
use tracing::Instrument;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id};
use tracing_subscriber::Layer;
use tracing_subscriber::filter::DynFilterFn;
use tracing_subscriber::layer::{Context, Filter};
use tracing_subscriber::registry::LookupSpan;

/// The name of the span a request is answered in.
const SPAN: &str = "mcp_client_log";

/// The level a session's client set with `logging/setLevel`, if it did (up to
/// 2025-11-25); each session has its own.
#[derive(Debug, Default)]
pub struct ClientLevel(Mutex<Option<LoggingLevel>>);

impl ClientLevel {
    /// Keeps `level` for the session's later requests.
    pub fn set(&self, level: LoggingLevel) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(level);
    }

    /// The level set, if any.
    #[must_use]
    pub fn get(&self) -> Option<LoggingLevel> {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The level the request in `context` is to be told at: its own `_meta` level
    /// (2026-07-28 on), else, up to 2025-11-25, the session's.
    #[must_use]
    pub fn for_request(&self, context: &RequestContext<RoleServer>) -> Option<LoggingLevel> {
        context.meta.log_level().or_else(|| {
            let sessionless = context
                .protocol_version()
                .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28);
            if sessionless { None } else { self.get() }
        })
    }
}

/// `logging/setLevel`: keeps the level for the session's later requests. Not a method of
/// 2026-07-28, where each request names its own level.
///
/// # Errors
/// Method not found on 2026-07-28.
pub fn set_level(
    log: &ClientLevel,
    request: &SetLevelRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<(), ErrorData> {
    let sessionless = context
        .protocol_version()
        .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28);
    if sessionless {
        return Err(ErrorData::method_not_found::<SetLevelRequestMethod>());
    }
    log.set(request.level);
    tracing::debug!(level = ?request.level, "the client set its log level");
    Ok(())
}

/// `capabilities` with MCP's `logging` capability declared.
#[must_use]
pub fn declared(mut capabilities: ServerCapabilities) -> ServerCapabilities {
    capabilities.logging = Some(Map::new());
    capabilities
}

/// Whether a client that wants messages at `wanted` and above gets one at `level`.
#[must_use]
pub fn admits(wanted: LoggingLevel, level: LoggingLevel) -> bool {
    rank(level) >= rank(wanted)
}

/// MCP's levels, least severe first.
fn rank(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// A `tracing` level as MCP's.
fn mcp_level(level: tracing::Level) -> LoggingLevel {
    match level {
        tracing::Level::ERROR => LoggingLevel::Error,
        tracing::Level::WARN => LoggingLevel::Warning,
        tracing::Level::INFO => LoggingLevel::Info,
        tracing::Level::DEBUG | tracing::Level::TRACE => LoggingLevel::Debug,
    }
}

/// Where one request's messages go.
struct Sink {
    level: LoggingLevel,
    /// Closed once the request is answered: a task begun inside its span (a session
    /// with an upstream, say) may outlive it, and keeps the span's copy of the sink.
    to: Mutex<Option<UnboundedSender<LoggingMessageNotificationParam>>>,
}

/// The sinks of the requests being answered, by the number their span carries.
fn sinks() -> &'static Mutex<HashMap<u64, Arc<Sink>>> {
    static SINKS: OnceLock<Mutex<HashMap<u64, Arc<Sink>>>> = OnceLock::new();
    SINKS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Runs `future`, the answer to one request, with the events emitted inside it going to
/// `peer` as `notifications/message` at `level` and above; with no level, just runs it.
/// Returns once every message is handed to the peer, so they precede the response.
pub async fn scoped<F: Future>(
    level: Option<LoggingLevel>,
    peer: &Peer<RoleServer>,
    future: F,
) -> F::Output {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let Some(level) = level else {
        return future.await;
    };
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let (to, mut from) = unbounded_channel::<LoggingMessageNotificationParam>();
    let peer = peer.clone();
    let forward = tokio::spawn(async move {
        while let Some(message) = from.recv().await {
            if peer.notify_logging_message(message).await.is_err() {
                break;
            }
        }
    });
    let registered = Registered::insert(
        id,
        Sink {
            level,
            to: Mutex::new(Some(to)),
        },
    );
    let span = tracing::info_span!(target: "catalog_mcp::logging", SPAN, client_log = id);
    let output = future.instrument(span).await;
    // Closing the sink ends the forwarding once it is done.
    drop(registered);
    let _ = forward.await;
    output
}

/// How many sinks are registered: while none is, the filter turns every event away
/// without looking up its spans, which is the cost of every event otherwise.
static OPEN: AtomicUsize = AtomicUsize::new(0);

/// A sink in [`sinks`], removed and closed when dropped: also when the request is
/// cancelled.
struct Registered(u64, Arc<Sink>);

impl Registered {
    fn insert(id: u64, sink: Sink) -> Registered {
        let sink = Arc::new(sink);
        sinks()
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, Arc::clone(&sink));
        OPEN.fetch_add(1, Ordering::Relaxed);
        Registered(id, sink)
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.1
            .to
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        sinks()
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.0);
        OPEN.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The layer that sends events to the clients of the requests they belong to, with its
/// filter: only the spans [`scoped`] opens and the events inside them reach it, at every
/// level, whatever filters the other layers have.
#[must_use]
pub fn layer<S>() -> impl Layer<S> + Send + Sync + 'static
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
{
    ClientLog.with_filter(filter())
}

fn filter<S>() -> impl Filter<S> + Send + Sync + 'static
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
{
    DynFilterFn::new(|meta, cx: &Context<'_, S>| {
        if meta.is_span() {
            return meta.name() == SPAN;
        }
        if OPEN.load(Ordering::Relaxed) == 0 {
            return false;
        }
        cx.lookup_current().is_some_and(|span| {
            span.scope()
                .any(|s| s.extensions().get::<Arc<Sink>>().is_some())
        })
    })
}

/// See [`layer`].
struct ClientLog;

impl<S> Layer<S> for ClientLog
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, cx: Context<'_, S>) {
        if attrs.metadata().name() != SPAN {
            return;
        }
        let mut number = Number(None);
        attrs.record(&mut number);
        let sink = number.0.and_then(|n| {
            sinks()
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get(&n)
                .cloned()
        });
        if let (Some(sink), Some(span)) = (sink, cx.span(id)) {
            span.extensions_mut().insert(sink);
        }
    }

    fn on_event(&self, event: &tracing::Event<'_>, cx: Context<'_, S>) {
        let Some(span) = cx.event_span(event) else {
            return;
        };
        let Some(sink) = span
            .scope()
            .find_map(|s| s.extensions().get::<Arc<Sink>>().cloned())
        else {
            return;
        };
        let meta = event.metadata();
        let level = mcp_level(*meta.level());
        if !admits(sink.level, level) {
            return;
        }
        let mut fields = Fields(Map::new());
        event.record(&mut fields);
        let mut message = LoggingMessageNotificationParam::new(level, Value::Object(fields.0));
        message.logger = Some(meta.target().to_owned());
        if let Some(to) = &*sink.to.lock().unwrap_or_else(PoisonError::into_inner) {
            let _ = to.send(message);
        }
    }
}

/// The number a [`SPAN`] carries.
struct Number(Option<u64>);

impl Visit for Number {
    fn record_u64(&mut self, field: &Field, value: u64) {
        if field.name() == "client_log" {
            self.0 = Some(value);
        }
    }

    fn record_debug(&mut self, _: &Field, _: &dyn fmt::Debug) {}
}

/// An event's message and fields as a JSON object.
struct Fields(Map<String, Value>);

impl Visit for Fields {
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.0.insert(field.name().to_owned(), value.into());
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.insert(field.name().to_owned(), value.into());
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.0.insert(field.name().to_owned(), value.into());
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.into());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0
            .insert(field.name().to_owned(), format!("{value:?}").into());
    }
}
