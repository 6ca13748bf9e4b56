//! The gateway as an operator runs it: one `--config` file gives tokens with client
//! profiles, rate limits, the audit log and the metrics; the official Python SDK is the
//! client, the upstreams are `mcp-server-time` and a server of ours written with the same
//! SDK (`tests/peers/ops_server.py`), and a real Prometheus (Debian's package) scrapes the
//! metrics, and an OTLP collector of ours decodes the spans it exports with the official
//! protobuf definitions. Then the gateway is killed with `SIGKILL` in the middle of a
//! load: every call a client was answered has its audit line.
//!
//! The peers come from `cargo xtask test` (`CATALOG_PEER_PYTHON`, `prometheus` on the
//! path); without them these tests fail under CI and are skipped, with instructions,
//! elsewhere.

#[path = "../../catalog-mcp/tests/common/mod.rs"]
mod common;
mod support;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{HttpServer, Peer, run, scratch, token};
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::trace::v1::Span;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use prost::Message as _;
use serde_json::{Value, json};
use support::cargo_catalog;

const GATEWAY: &str = env!("CARGO_BIN_EXE_catalog-gateway");
const LIMIT: Duration = Duration::from_secs(120);

fn python() -> PathBuf {
    PathBuf::from(std::env::var_os("CATALOG_PEER_PYTHON").expect("checked by Peer::find"))
}

/// The catalog of the two upstreams, imported as a user would: `ops` (echo, note) and
/// `time` (`get_current_time`, `convert_time`).
fn catalog(dir: &Path) -> PathBuf {
    let catalog = dir.join("gateway.toml");
    let notes = dir.join("notes.txt");
    let ops = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/ops_server.py");
    let time = python().with_file_name("mcp-server-time");
    for (name, target, server) in [
        (
            "ops",
            "--out",
            vec![
                python().display().to_string(),
                ops.display().to_string(),
                notes.display().to_string(),
            ],
        ),
        (
            "time",
            "--into",
            vec![
                time.display().to_string(),
                "--local-timezone".into(),
                "UTC".into(),
            ],
        ),
    ] {
        let done = run(
            Command::new(cargo_catalog())
                .args(["import", "--from-server", "--name", name, target])
                .arg(&catalog)
                .arg("--")
                .args(&server),
            LIMIT,
        );
        assert!(done.status.success(), "import {name}: {}", done.stderr);
    }
    catalog
}

/// A loopback port free now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// The gateway's client script (`tests/peers/client.py`) over HTTP with `token`: what
/// each step of `plan` saw.
fn session(server: &HttpServer, token: &str, plan: &Value) -> Vec<Value> {
    let client = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/client.py");
    let done = run(
        Command::new(python())
            .arg(client)
            .arg(plan.to_string())
            .args(["--http", &server.url, token]),
        LIMIT,
    );
    assert!(
        done.status.success(),
        "the client failed: {}\n{}\n{}",
        done.status,
        done.stderr,
        server.log()
    );
    serde_json::from_str(done.stdout.trim())
        .unwrap_or_else(|e| panic!("the client's report is not JSON ({e}): {}", done.stdout))
}

fn names(listed: &Value) -> Vec<&str> {
    let mut names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("not a listing: {listed}"))
        .iter()
        .filter_map(Value::as_str)
        .collect();
    names.sort_unstable();
    names
}

fn audit_lines(file: &Path) -> Vec<Value> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// `prometheus` on the path, or `None` when a test may skip (not under CI).
fn prometheus(test: &str) -> Option<PathBuf> {
    catalog_testkit::program(
        test,
        "prometheus",
        "`cargo xtask test` installs Debian's package, or `apt-get install prometheus`",
    )
}

/// A Prometheus server scraping `target` every second; killed when dropped.
struct Prometheus {
    child: Child,
    port: u16,
}

impl Prometheus {
    fn start(binary: &Path, dir: &Path, target: &str) -> Prometheus {
        let config = dir.join("prometheus.yml");
        std::fs::write(
            &config,
            format!(
                "global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: gateway\n    static_configs:\n      - targets: ['{target}']\n"
            ),
        )
        .unwrap();
        let port = free_port();
        let child = Command::new(binary)
            .arg(format!("--config.file={}", config.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.join("tsdb").display()
            ))
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("prometheus starts");
        Prometheus { child, port }
    }

    /// The result of an instant query, once the server answers.
    fn query(&self, expression: &str) -> Option<Vec<Value>> {
        let encoded: String = expression
            .bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' => (b as char).to_string(),
                _ => format!("%{b:02X}"),
            })
            .collect();
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).ok()?;
        write!(
            stream,
            "GET /api/v1/query?query={encoded} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"
        )
        .ok()?;
        let mut response = String::new();
        stream.read_to_string(&mut response).ok()?;
        let body = response.split_once("\r\n\r\n")?.1;
        let parsed: Value = serde_json::from_str(body).ok()?;
        parsed["data"]["result"].as_array().cloned()
    }
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
#[allow(
    clippy::too_many_lines,
    reason = "one deployment followed step by step: clients, then their audit lines, then their metrics"
)]
fn profiles_limits_audit_and_metrics_come_from_one_file() {
    let test = "profiles_limits_audit_and_metrics_come_from_one_file";
    let Some(_peer) = Peer::find(test) else {
        return;
    };
    let Some(prometheus_binary) = prometheus(test) else {
        return;
    };
    let dir = scratch("operations");
    let catalog = catalog(&dir);
    let (full, clock, limited) = (token("full"), token("clock"), token("limited"));
    let audit = dir.join("audit.jsonl");
    let metrics_port = free_port();
    let config = dir.join("gateway.config.toml");
    std::fs::write(
        &config,
        format!(
            r#"
[[token]]
name = "full"
value = "{full}"
access = "full-access"

[[token]]
name = "clock"
value = "{clock}"
access = "full-access"
profile = "clock"

[[token]]
name = "limited"
value = "{limited}"
access = "read-only"

[[profile]]
name = "clock"
upstreams = ["time"]

[[limit]]
rate = "2/minute"
tools = ["echo"]
clients = ["limited"]

[audit]
file = "{audit}"
arguments = "values"
fsync = "always"

[metrics]
listen = "127.0.0.1:{metrics_port}"
"#,
            audit = audit.display()
        ),
    )
    .unwrap();
    let server = HttpServer::spawn(
        Path::new(GATEWAY),
        &[
            "--catalog",
            catalog.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
            "--gated",
            "allow",
        ],
    );

    // Full access, no profile: both upstreams; a read and a write run.
    let seen = session(
        &server,
        &full,
        &json!([
            {"list": true},
            {"call": "echo", "arguments": {"text": "hello"}},
            {"call": "note", "arguments": {"text": "first"}},
        ]),
    );
    assert_eq!(
        names(&seen[0]),
        ["convert_time", "echo", "get_current_time", "note"]
    );
    assert_eq!(seen[1]["text"], "hello", "{}", seen[1]);
    assert_eq!(seen[2]["text"], "noted", "{}", seen[2]);

    // The clock profile: only the time upstream, at the same level; the others' tools
    // read as unknown, and never reach their server.
    let seen = session(
        &server,
        &clock,
        &json!([
            {"list": true},
            {"call": "get_current_time", "arguments": {"timezone": "UTC"}},
            {"call": "note", "arguments": {"text": "from the clock"}},
        ]),
    );
    assert_eq!(names(&seen[0]), ["convert_time", "get_current_time"]);
    assert_eq!(seen[1]["isError"], false, "{}", seen[1]);
    assert_eq!(seen[2]["code"], -32602, "{}", seen[2]);
    assert!(
        seen[2]["message"]
            .as_str()
            .unwrap()
            .contains("Unknown tool: note"),
        "{}",
        seen[2]
    );
    let notes = std::fs::read_to_string(dir.join("notes.txt")).unwrap();
    assert_eq!(notes, "first\n");

    // Two echoes a minute for `limited`: the third is refused with the wait, as a tool
    // error the model reads.
    let seen = session(
        &server,
        &limited,
        &json!([
            {"call": "echo", "arguments": {"text": "one"}},
            {"call": "echo", "arguments": {"text": "two"}},
            {"call": "echo", "arguments": {"text": "three"}},
        ]),
    );
    assert_eq!(seen[0]["text"], "one");
    assert_eq!(seen[1]["text"], "two");
    assert_eq!(seen[2]["isError"], true, "{}", seen[2]);
    let refusal = seen[2]["text"].as_str().unwrap();
    assert!(
        refusal.contains("over its rate limit (2/minute") && refusal.contains("retry after"),
        "{refusal}"
    );

    // One audit line per call, in order, each saying who, what, where and how it ended.
    let lines = audit_lines(&audit);
    let summary: Vec<(String, String, String, Option<String>)> = lines
        .iter()
        .map(|l| {
            (
                l["client"].as_str().unwrap().to_owned(),
                l["tool"].as_str().unwrap().to_owned(),
                l["verdict"].as_str().unwrap().to_owned(),
                l["upstream"].as_str().map(str::to_owned),
            )
        })
        .collect();
    let expected = [
        ("full", "echo", "ok", Some("ops")),
        ("full", "note", "ok", Some("ops")),
        ("clock", "get_current_time", "ok", Some("time")),
        ("clock", "note", "refused", None),
        ("limited", "echo", "ok", Some("ops")),
        ("limited", "echo", "ok", Some("ops")),
        ("limited", "echo", "limited", Some("ops")),
    ]
    .map(|(c, t, v, u)| {
        (
            c.to_owned(),
            t.to_owned(),
            v.to_owned(),
            u.map(str::to_owned),
        )
    });
    assert_eq!(summary, expected, "{lines:#?}");
    assert_eq!(lines[2]["profile"], "clock");
    assert_eq!(lines[3]["error"], "SCHEMA_RESOLUTION");
    assert_eq!(lines[6]["error"], "RUNTIME_ERROR");
    assert_eq!(lines[0]["arguments"], json!({"text": "hello"}));
    assert!(
        lines[0]["arguments_digest"]
            .as_str()
            .is_some_and(|d| d.starts_with("sha256:")),
        "{}",
        lines[0]
    );
    assert_ne!(lines[4]["arguments_digest"], lines[5]["arguments_digest"]);
    for line in &lines {
        assert!(line["session"].is_string(), "sessions over HTTP: {line}");
        assert!(line["result_bytes"].as_u64().unwrap() > 0, "{line}");
        assert!(line["duration_ms"].as_f64().unwrap() >= 0.0, "{line}");
        assert!(line["time"].as_str().unwrap().ends_with('Z'), "{line}");
    }

    // A real Prometheus scrapes the metrics and answers queries over them.
    let prometheus = Prometheus::start(
        &prometheus_binary,
        &dir,
        &format!("127.0.0.1:{metrics_port}"),
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    let series = loop {
        let found = prometheus
            .query("catalog_gateway_calls_total")
            .unwrap_or_default();
        if found.len() >= 6 || Instant::now() > deadline {
            break found;
        }
        std::thread::sleep(Duration::from_millis(500));
    };
    let count = |client: &str, tool: &str, verdict: &str| -> Option<String> {
        series.iter().find_map(|s| {
            let m = &s["metric"];
            (m["client"] == client && m["tool"] == tool && m["verdict"] == verdict)
                .then(|| s["value"][1].as_str().unwrap_or_default().to_owned())
        })
    };
    assert_eq!(
        count("limited", "echo", "ok").as_deref(),
        Some("2"),
        "{series:#?}"
    );
    assert_eq!(
        count("limited", "echo", "limited").as_deref(),
        Some("1"),
        "{series:#?}"
    );
    assert_eq!(
        count("clock", "note", "refused").as_deref(),
        Some("1"),
        "{series:#?}"
    );
    assert_eq!(
        count("full", "note", "ok").as_deref(),
        Some("1"),
        "{series:#?}"
    );
    let up = prometheus
        .query("catalog_gateway_upstream_up")
        .unwrap_or_default();
    let ups: BTreeSet<(String, String)> = up
        .iter()
        .map(|s| {
            (
                s["metric"]["upstream"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                s["value"][1].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        ups,
        BTreeSet::from([("ops".into(), "1".into()), ("time".into(), "1".into())])
    );
    let latency = prometheus
        .query("catalog_gateway_upstream_request_duration_seconds_count")
        .unwrap_or_default();
    assert!(!latency.is_empty(), "no upstream latency series");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sigkill_under_load_loses_no_audit_line_of_an_answered_call() {
    let test = "a_sigkill_under_load_loses_no_audit_line_of_an_answered_call";
    let Some(peer) = Peer::find(test) else {
        return;
    };
    let dir = scratch("kill");
    let catalog = catalog(&dir);
    let audit = dir.join("audit.jsonl");
    let config = dir.join("gateway.config.toml");
    // The default fsync policy: each line reaches the kernel before its call is answered.
    std::fs::write(
        &config,
        format!(
            "[audit]\nfile = \"{}\"\narguments = \"values\"\n",
            audit.display()
        ),
    )
    .unwrap();
    let key = token("load");
    let mut server = HttpServer::start(
        Path::new(GATEWAY),
        &[(key.clone(), "full-access")],
        &[
            "--catalog",
            catalog.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
            "--gated",
            "allow",
        ],
    );
    let mut load = peer
        .command("load.py")
        .args([
            "--stream",
            "--clients",
            "6",
            "--calls",
            "400",
            "--deadline",
            "100",
        ])
        .args([
            "--write",
            &json!(["echo", {"text": "{tag}"}]).to_string(),
            "--reads",
            &json!([["get_current_time", {"timezone": "UTC"}]]).to_string(),
            "--final",
            &json!(["echo", {"text": "final"}]).to_string(),
        ])
        .args(["--http", &server.url, "--token", &key])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("load.py starts");
    let stdout = load.stdout.take().expect("piped");
    let started = Instant::now();
    let mut answered = Vec::new();
    for line in BufReader::new(stdout).lines().map_while(Result::ok) {
        let Ok(report) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if let Some(tag) = report["write"]["tag"].as_str() {
            answered.push(tag.to_owned());
        }
        if answered.len() >= 150 || started.elapsed() > LIMIT {
            break;
        }
    }
    // In the middle of the load: calls in flight, lines in the writer's queue.
    server.kill();
    let _ = load.kill();
    let _ = load.wait();
    assert!(
        answered.len() >= 150,
        "only {} calls answered in time",
        answered.len()
    );
    let written: BTreeSet<String> = audit_lines(&audit)
        .iter()
        .filter(|l| l["tool"] == "echo" && l["verdict"] == "ok")
        .filter_map(|l| l["arguments"]["text"].as_str().map(str::to_owned))
        .collect();
    let lost: Vec<&String> = answered.iter().filter(|t| !written.contains(*t)).collect();
    assert!(
        lost.is_empty(),
        "{} of {} answered calls have no audit line: {lost:?}",
        lost.len(),
        answered.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An OTLP/HTTP collector on a loopback port: every export request it receives, decoded
/// with the official protobuf definitions (`opentelemetry-proto`).
struct Collector {
    port: u16,
    received: std::sync::Arc<std::sync::Mutex<Vec<ExportTraceServiceRequest>>>,
}

impl Collector {
    fn start() -> Collector {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let received = std::sync::Arc::default();
        let keep = std::sync::Arc::clone(&received);
        std::thread::spawn(move || {
            for stream in listener.incoming().map_while(Result::ok) {
                let keep = std::sync::Arc::clone(&keep);
                std::thread::spawn(move || serve_export(stream, &keep));
            }
        });
        Collector { port, received }
    }

    /// Every span received so far.
    fn spans(&self) -> Vec<Span> {
        self.received
            .lock()
            .unwrap()
            .iter()
            .flat_map(|r| &r.resource_spans)
            .flat_map(|r| &r.scope_spans)
            .flat_map(|s| s.spans.clone())
            .collect()
    }
}

/// Reads one HTTP/1.1 POST at a time from `stream` and answers each with an empty
/// `ExportTraceServiceResponse`.
fn serve_export(stream: TcpStream, received: &std::sync::Mutex<Vec<ExportTraceServiceRequest>>) {
    let mut reader = BufReader::new(stream);
    loop {
        let mut length = 0;
        let mut line = String::new();
        loop {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let request = ExportTraceServiceRequest::decode(body.as_slice())
            .expect("an OTLP export request, as the protobuf definitions say");
        received.lock().unwrap().push(request);
        let _ = reader.get_mut().write_all(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\n\r\n",
        );
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

#[test]
fn each_call_is_a_span_with_a_child_per_upstream_request_in_the_callers_trace() {
    let test = "each_call_is_a_span_with_a_child_per_upstream_request_in_the_callers_trace";
    let Some(_peer) = Peer::find(test) else {
        return;
    };
    let dir = scratch("traces");
    let catalog = catalog(&dir);
    let collector = Collector::start();
    let audit = dir.join("audit.jsonl");
    let config = dir.join("gateway.config.toml");
    std::fs::write(
        &config,
        format!(
            "[traces]\nendpoint = \"http://127.0.0.1:{}/v1/traces\"\nbatch-delay-ms = 100\n\n[audit]\nfile = \"{}\"\n",
            collector.port,
            audit.display()
        ),
    )
    .unwrap();
    let trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";
    let parent_id = "00f067aa0ba902b7";
    let plan = json!([
        {"call": "echo", "arguments": {"text": "traced"},
         "meta": {"traceparent": format!("00-{trace_id}-{parent_id}-01"), "tracestate": "vendor=1"}},
        {"call": "get_current_time", "arguments": {"timezone": "UTC"}},
        {"call": "note", "arguments": {"text": "refused below the level"}},
    ]);
    let client = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/client.py");
    let done = run(
        Command::new(python())
            .arg(client)
            .arg(plan.to_string())
            .arg(GATEWAY)
            .args(["--catalog", catalog.to_str().unwrap()])
            .args([
                "--config",
                config.to_str().unwrap(),
                "--access",
                "read-only",
            ]),
        LIMIT,
    );
    assert!(done.status.success(), "{}", done.stderr);
    let seen: Vec<Value> = serde_json::from_str(done.stdout.trim()).unwrap();
    assert_eq!(seen[0]["text"], "traced", "{}", seen[0]);
    // The gateway sends what is batched as it stops; wait for the collector to have it.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut spans = collector.spans();
    while spans.len() < 5 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
        spans = collector.spans();
    }
    let server: Vec<&Span> = spans
        .iter()
        .filter(|s| s.kind == SpanKind::Server as i32)
        .collect();
    let upstream: Vec<&Span> = spans
        .iter()
        .filter(|s| s.kind == SpanKind::Client as i32)
        .collect();
    let names: Vec<&str> = server.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "tools/call echo",
            "tools/call get_current_time",
            "tools/call note"
        ],
        "{spans:#?}"
    );
    // The first call continues the client's trace, under the client's span.
    assert_eq!(hex(&server[0].trace_id), trace_id);
    assert_eq!(hex(&server[0].parent_span_id), parent_id);
    assert_eq!(server[0].trace_state, "vendor=1");
    // Without a traceparent a call begins a trace of its own.
    assert_ne!(hex(&server[1].trace_id), trace_id);
    assert!(server[1].parent_span_id.is_empty());
    // One upstream request per forwarded call, each a child of its call's span; the
    // refused write reached no upstream.
    assert_eq!(upstream.len(), 2, "{spans:#?}");
    for (call, request) in server.iter().zip(&upstream) {
        assert_eq!(request.trace_id, call.trace_id);
        assert_eq!(request.parent_span_id, call.span_id);
    }
    let attribute = |span: &Span, key: &str| {
        span.attributes
            .iter()
            .find(|a| a.key == key)
            .and_then(|a| a.value.as_ref())
            .and_then(|v| v.value.clone())
    };
    assert_eq!(
        attribute(server[2], "catalog.verdict"),
        Some(Any::StringValue("refused".into()))
    );
    assert_eq!(
        attribute(server[0], "gen_ai.tool.name"),
        Some(Any::StringValue("echo".into()))
    );
    // The audit line names the trace its call belongs to.
    let lines = audit_lines(&audit);
    assert_eq!(lines[0]["trace_id"], trace_id, "{lines:#?}");
    let _ = std::fs::remove_dir_all(&dir);
}
