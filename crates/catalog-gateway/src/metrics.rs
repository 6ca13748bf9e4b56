//! Prometheus metrics: what the gateway's clients call and how it goes, how its upstreams
//! answer, and what is withheld. Served in the `OpenMetrics` text format at `/metrics` on
//! the address of the `[metrics]` table, apart from the MCP endpoint (no bearer token:
//! keep it on an address only the scraper reaches).
//!
//! | metric | labels | what |
//! |---|---|---|
//! | `catalog_gateway_calls_total` | `tool`, `verdict`, `client` | `tools/call` requests by how they ended (`ok`, `tool-error`, `refused`, `limited`, `asked`, `failed`) |
//! | `catalog_gateway_call_duration_seconds` | `tool` | from a call's arrival to its answer |
//! | `catalog_gateway_upstream_request_duration_seconds` | `upstream` | each forwarded call's round trip to its upstream |
//! | `catalog_gateway_upstream_up` | `upstream` | 1 while the upstream is reachable, else 0 |
//! | `catalog_gateway_withheld_tools` | `upstream` | its rows withheld now (drifted, gone or unreachable) |
//! | `catalog_gateway_audit_errors_total` | | audit lines that could not be written |

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::header::CONTENT_TYPE;
use axum::routing::get;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// The `[metrics]` table of the operator's file.
#[derive(Clone, PartialEq, Eq, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Settings {
    /// The address `/metrics` is served on, e.g. `127.0.0.1:9464`.
    pub listen: SocketAddr,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CallLabels {
    tool: String,
    verdict: String,
    client: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ToolLabel {
    tool: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct UpstreamLabel {
    upstream: String,
}

/// The gateway's metrics and their registry.
pub struct Metrics {
    registry: Registry,
    calls: Family<CallLabels, Counter>,
    call_seconds: Family<ToolLabel, Histogram, fn() -> Histogram>,
    upstream_seconds: Family<UpstreamLabel, Histogram, fn() -> Histogram>,
    upstream_up: Family<UpstreamLabel, Gauge>,
    withheld: Family<UpstreamLabel, Gauge>,
    audit_errors: Counter,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

/// Buckets from 100 µs to about 13 s: a gateway's own work is well under a millisecond,
/// an upstream's can take seconds.
fn latency() -> Histogram {
    Histogram::new(prometheus_client::metrics::histogram::exponential_buckets(
        0.000_1, 2.0, 18,
    ))
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    /// Every metric at zero, registered.
    #[must_use]
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("catalog_gateway");
        let calls = Family::<CallLabels, Counter>::default();
        registry.register(
            "calls",
            "tools/call requests by tool, how they ended and client",
            calls.clone(),
        );
        let call_seconds = Family::new_with_constructor(latency as fn() -> Histogram);
        registry.register(
            "call_duration_seconds",
            "From a tools/call's arrival to its answer",
            call_seconds.clone(),
        );
        let upstream_seconds = Family::new_with_constructor(latency as fn() -> Histogram);
        registry.register(
            "upstream_request_duration_seconds",
            "Each forwarded call's round trip to its upstream",
            upstream_seconds.clone(),
        );
        let upstream_up = Family::<UpstreamLabel, Gauge>::default();
        registry.register(
            "upstream_up",
            "1 while the upstream is reachable, else 0",
            upstream_up.clone(),
        );
        let withheld = Family::<UpstreamLabel, Gauge>::default();
        registry.register(
            "withheld_tools",
            "The upstream's rows withheld now: drifted, gone or unreachable",
            withheld.clone(),
        );
        let audit_errors = Counter::default();
        registry.register(
            "audit_errors",
            "Audit lines that could not be written",
            audit_errors.clone(),
        );
        Metrics {
            registry,
            calls,
            call_seconds,
            upstream_seconds,
            upstream_up,
            withheld,
            audit_errors,
        }
    }

    /// Counts one answered call.
    pub fn call(&self, tool: &str, verdict: &str, client: &str, elapsed: Duration) {
        self.calls
            .get_or_create(&CallLabels {
                tool: tool.to_owned(),
                verdict: verdict.to_owned(),
                client: client.to_owned(),
            })
            .inc();
        self.call_seconds
            .get_or_create(&ToolLabel {
                tool: tool.to_owned(),
            })
            .observe(elapsed.as_secs_f64());
    }

    /// Times one request to `upstream`.
    pub fn upstream_request(&self, upstream: &str, took: Duration) {
        self.upstream_seconds
            .get_or_create(&UpstreamLabel {
                upstream: upstream.to_owned(),
            })
            .observe(took.as_secs_f64());
    }

    /// How `upstream` stands now: reachable or not, and how many of its rows are withheld.
    pub fn upstream(&self, upstream: &str, up: bool, withheld: usize) {
        let label = UpstreamLabel {
            upstream: upstream.to_owned(),
        };
        self.upstream_up.get_or_create(&label).set(i64::from(up));
        self.withheld
            .get_or_create(&label)
            .set(i64::try_from(withheld).unwrap_or(i64::MAX));
    }

    /// Counts an audit line that could not be written.
    pub fn audit_error(&self) {
        self.audit_errors.inc();
    }

    /// The metrics in the `OpenMetrics` text format.
    #[must_use]
    pub fn encode(&self) -> String {
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }
}

/// Serves `/metrics` on `settings.listen` until the process ends.
///
/// # Errors
/// The address cannot be bound.
pub async fn serve(metrics: Arc<Metrics>, settings: &Settings) -> Result<SocketAddr, String> {
    let listener = tokio::net::TcpListener::bind(settings.listen)
        .await
        .map_err(|e| format!("cannot serve metrics on {}: {e}", settings.listen))?;
    let bound = listener
        .local_addr()
        .map_err(|e| format!("cannot read the metrics address: {e}"))?;
    let app = Router::new().route(
        "/metrics",
        get(move || {
            let metrics = Arc::clone(&metrics);
            async move {
                (
                    [(
                        CONTENT_TYPE,
                        "application/openmetrics-text; version=1.0.0; charset=utf-8",
                    )],
                    metrics.encode(),
                )
            }
        }),
    );
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!(error = %e, "the metrics endpoint stopped");
        }
    });
    Ok(bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_upstreams_and_withheld_rows_are_exposed() {
        let metrics = Metrics::new();
        metrics.call("get_time", "ok", "ide", Duration::from_millis(2));
        metrics.call("get_time", "ok", "ide", Duration::from_millis(3));
        metrics.call("write_file", "refused", "ide", Duration::from_micros(300));
        metrics.upstream_request("time", Duration::from_millis(1));
        metrics.upstream("time", true, 0);
        metrics.upstream("files", false, 4);
        let text = metrics.encode();
        for line in [
            r#"catalog_gateway_calls_total{tool="get_time",verdict="ok",client="ide"} 2"#,
            r#"catalog_gateway_calls_total{tool="write_file",verdict="refused",client="ide"} 1"#,
            r#"catalog_gateway_call_duration_seconds_count{tool="get_time"} 2"#,
            r#"catalog_gateway_upstream_request_duration_seconds_count{upstream="time"} 1"#,
            r#"catalog_gateway_upstream_up{upstream="time"} 1"#,
            r#"catalog_gateway_upstream_up{upstream="files"} 0"#,
            r#"catalog_gateway_withheld_tools{upstream="files"} 4"#,
            "catalog_gateway_audit_errors_total 0",
            "# EOF",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} not in\n{text}");
        }
    }
}
