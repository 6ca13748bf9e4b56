//! OpenTelemetry traces: a server span per `tools/call` and a client span for its request
//! to the upstream, exported over OTLP/HTTP (protobuf) to the `[traces]` table's
//! endpoint. A client that sends W3C trace context in the request's `_meta`
//! (`traceparent`, `tracestate`, as MCP's OpenTelemetry conventions put it) gets the
//! call's span as a child of its own.
//!
//! Spans are batched and exported from the SDK's own thread (every `batch-delay-ms`,
//! 1000 by default), so a call never waits for the collector.

use std::collections::HashMap;
use std::time::Duration;

use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::{
    SpanKind, Status, TraceContextExt as _, Tracer as _, TracerProvider as _,
};
use opentelemetry::{Context, KeyValue};
use opentelemetry_otlp::{Protocol, WithExportConfig as _};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{
    BatchConfigBuilder, BatchSpanProcessor, SdkTracer, SdkTracerProvider,
};

/// The `[traces]` table of the operator's file.
#[derive(Clone, PartialEq, Eq, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Settings {
    /// The collector's OTLP/HTTP traces endpoint, e.g. `http://127.0.0.1:4318/v1/traces`.
    pub endpoint: String,
    /// The `service.name` spans carry (default `catalog-gateway`).
    #[serde(default = "default_service")]
    pub service_name: String,
    /// How often batches are sent, in milliseconds (default 1000).
    #[serde(default = "default_delay")]
    pub batch_delay_ms: u64,
}

fn default_service() -> String {
    String::from("catalog-gateway")
}

fn default_delay() -> u64 {
    1000
}

/// The gateway's tracer and the provider that exports its spans.
pub struct Traces {
    provider: SdkTracerProvider,
    tracer: SdkTracer,
}

impl std::fmt::Debug for Traces {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Traces").finish_non_exhaustive()
    }
}

/// The W3C trace context a request carried in its `_meta`.
#[derive(Clone, Default, Debug)]
pub struct Carried {
    /// `traceparent`.
    pub traceparent: Option<String>,
    /// `tracestate`.
    pub tracestate: Option<String>,
}

impl Traces {
    /// Starts exporting to `settings.endpoint`.
    ///
    /// # Errors
    /// The exporter cannot be built (an endpoint that is not a URL).
    pub fn start(settings: &Settings) -> Result<Traces, String> {
        catalog_upstream::tls::provider();
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(&settings.endpoint)
            .build()
            .map_err(|e| format!("cannot export traces to `{}`: {e}", settings.endpoint))?;
        let processor = BatchSpanProcessor::builder(exporter)
            .with_batch_config(
                BatchConfigBuilder::default()
                    .with_scheduled_delay(Duration::from_millis(settings.batch_delay_ms.max(1)))
                    .build(),
            )
            .build();
        let provider = SdkTracerProvider::builder()
            .with_span_processor(processor)
            .with_resource(
                Resource::builder_empty()
                    .with_service_name(settings.service_name.clone())
                    .build(),
            )
            .build();
        let tracer = provider.tracer("catalog-gateway");
        Ok(Traces { provider, tracer })
    }

    /// Starts the span of a `tools/call` of `tool` by `client`: a child of the context
    /// `carried`, when it is a valid one.
    #[must_use]
    pub fn call(&self, tool: &str, client: &str, carried: &Carried) -> Context {
        let headers: HashMap<String, String> = [
            ("traceparent", carried.traceparent.as_ref()),
            ("tracestate", carried.tracestate.as_ref()),
        ]
        .into_iter()
        .filter_map(|(k, v)| Some((k.to_owned(), v?.clone())))
        .collect();
        let parent = TraceContextPropagator::new().extract(&headers);
        let span = self
            .tracer
            .span_builder(format!("tools/call {tool}"))
            .with_kind(SpanKind::Server)
            .with_attributes([
                KeyValue::new("mcp.method.name", "tools/call"),
                KeyValue::new("gen_ai.tool.name", tool.to_owned()),
                KeyValue::new("gen_ai.operation.name", "execute_tool"),
                KeyValue::new("enduser.id", client.to_owned()),
            ])
            .start_with_context(&self.tracer, &parent);
        parent.with_span(span)
    }

    /// Starts the span of one request to `upstream`, a child of the call's `cx`.
    #[must_use]
    pub fn upstream(&self, cx: &Context, upstream: &str, tool: &str) -> Context {
        let span = self
            .tracer
            .span_builder(format!("tools/call {tool}"))
            .with_kind(SpanKind::Client)
            .with_attributes([
                KeyValue::new("mcp.method.name", "tools/call"),
                KeyValue::new("gen_ai.tool.name", tool.to_owned()),
                KeyValue::new("server.address", upstream.to_owned()),
            ])
            .start_with_context(&self.tracer, cx);
        cx.with_span(span)
    }

    /// The id of `cx`'s trace, as the audit log names it.
    #[must_use]
    pub fn trace_id(cx: &Context) -> String {
        cx.span().span_context().trace_id().to_string()
    }

    /// Ends `cx`'s span with how the call ended.
    pub fn end(cx: &Context, verdict: &str, error: Option<&str>) {
        let span = cx.span();
        span.set_attribute(KeyValue::new("catalog.verdict", verdict.to_owned()));
        if let Some(error) = error {
            span.set_attribute(KeyValue::new("error.type", error.to_owned()));
            span.set_status(Status::error(error.to_owned()));
        }
        span.end();
    }

    /// Sends what is batched; at shutdown.
    pub fn flush(&self) {
        let _ = self.provider.force_flush();
    }
}
