//! `cargo bench -p catalog-tests --bench render`: how long each renderer of
//! `catalog_wire::render` takes, against the same output built as a `serde_json::Value`
//! and serialized, the way an application without the renderers would write it.
//!
//! Two catalogs: the tables catalog's 39 tools (`tests/data/tables.toml`, the example app's
//! as copied there; its generated specs, reported as "example"), and the 1,853 real
//! tools of the BFCL data set (`tests/data/bfcl`), imported from their MCP form, compiled
//! and specified at run time as a command-line tool would. Each format renders the whole
//! list; OpenAI accepts at most 128 tools per request, so for BFCL its figure is the
//! sum of the 15 requests of at most 128 that cover the list.
//!
//! The peer gets every advantage but the one under test: the schemas are parsed into
//! `Value`s once, untimed, and only cloned into each request's tree, as an application
//! holding its tools as values would do. Before timing, each peer's output is checked to
//! be the same JSON as ours. Every render is timed on its own, one thread, after a
//! warm-up; the figure is the median.
//!
//! Environment: `RENDER_BENCH_ROUNDS` is the number of timed renders per format and side
//! (default 200). Run without `--bench` (as `cargo test --benches` does) it is a smoke
//! test: one round, the outputs still compared.

use std::hint::black_box;
use std::time::Instant;

use catalog_core::{Access, Caller, Effect, Reach, ToolSpec, Visibility};
use catalog_tests::tables::Catalog;
use catalog_wire::render::{self, Format, OPENAI_MAX_TOOLS, ToolSearch};
use serde_json::{Value, json};

const TOOLS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/bfcl/tools.json");
const ROUNDS: usize = 200;
const WARM_UP: usize = 5;

/// The formats timed, with the names the table shows.
const FORMATS: [(&str, Format); 7] = [
    ("Anthropic", Format::Anthropic),
    (
        "Anthropic tool search",
        Format::AnthropicToolSearch(ToolSearch::Bm25),
    ),
    ("OpenAI Chat Completions", Format::OpenAiChat),
    ("OpenAI Responses", Format::OpenAiResponses),
    ("Bedrock Converse", Format::Bedrock),
    ("Gemini", Format::Gemini),
    ("MCP tools/list", Format::Mcp(Access::FullAccess)),
];

/// A tool as the peer holds it: the spec with its schemas already parsed.
struct Parsed<'a> {
    spec: &'a ToolSpec<'a>,
    input: Value,
    gemini: Option<Value>,
    output: Option<Value>,
}

/// One row of the table.
struct Row {
    catalog: &'static str,
    format: &'static str,
    tools: usize,
    bytes: usize,
    ours_us: f64,
    peer_us: f64,
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let rounds = if bench {
        std::env::var("RENDER_BENCH_ROUNDS")
            .ok()
            .and_then(|r| r.parse().ok())
            .filter(|&r| r > 0)
            .unwrap_or(ROUNDS)
    } else {
        1
    };

    let example: Vec<&'static ToolSpec> = render::specs(&Catalog, Catalog::ALL).collect();
    let mut rows = bench_catalog("example", &example, rounds);
    match std::fs::read_to_string(TOOLS) {
        Ok(text) => {
            let doc: Value = serde_json::from_str(&text).expect("tools.json is JSON");
            let imported = catalog_check::import::from_mcp("tools.json", &doc)
                .expect("tools.json is a tools/list result");
            let catalog = catalog_check::compile(&imported.toml).unwrap_or_else(|d| {
                panic!(
                    "{}",
                    catalog_check::render_all("tools.toml", &imported.toml, &d)
                )
            });
            let specs = catalog_check::specs(&catalog);
            let bfcl: Vec<&ToolSpec<'_>> = specs.get().iter().collect();
            rows.extend(bench_catalog("BFCL", &bfcl, rounds));
        }
        Err(_) => println!("BFCL rows skipped: the data ({TOOLS}) is not there"),
    }

    println!(
        "{rounds} timed renders per format and side, one thread, median{}",
        if cfg!(debug_assertions) {
            " (debug build: timings mean nothing)"
        } else {
            ""
        }
    );
    println!();
    println!(
        "| catalog | format | tools | output | ours µs/render | serde_json Value µs/render | Value / ours |"
    );
    println!("|---|---|---|---|---|---|---|");
    for r in &rows {
        println!(
            "| {} | {} | {} | {:.1} KB | {:.1} | {:.1} | {:.1}× |",
            r.catalog,
            r.format,
            r.tools,
            kilobytes(r.bytes),
            r.ours_us,
            r.peer_us,
            r.peer_us / r.ours_us
        );
    }
}

/// Times every format on one catalog.
fn bench_catalog(catalog: &'static str, specs: &[&ToolSpec], rounds: usize) -> Vec<Row> {
    let parsed: Vec<Parsed<'_>> = specs
        .iter()
        .map(|spec| Parsed {
            spec,
            input: serde_json::from_str(spec.input_schema).expect("input schema is JSON"),
            gemini: spec
                .gemini_parameters
                .map(|s| serde_json::from_str(s).expect("Gemini parameters are JSON")),
            output: spec
                .output_schema
                .map(|s| serde_json::from_str(s).expect("output schema is JSON")),
        })
        .collect();
    FORMATS
        .iter()
        .map(|&(name, format)| {
            let ours = || -> Vec<String> {
                requests(format, specs)
                    .map(|chunk| {
                        render::render(format, chunk.iter().copied())
                            .unwrap_or_else(|e| panic!("{name}: {e}"))
                    })
                    .collect()
            };
            let peer = || -> Vec<String> {
                requests(format, &parsed)
                    .map(|chunk| serde_json::to_string(&naive(format, chunk)).unwrap())
                    .collect()
            };
            let (ours_out, peer_out) = (ours(), peer());
            assert_eq!(ours_out.len(), peer_out.len());
            for (a, b) in ours_out.iter().zip(&peer_out) {
                let (a, b): (Value, Value) = (
                    serde_json::from_str(a).unwrap(),
                    serde_json::from_str(b).unwrap(),
                );
                assert_eq!(a, b, "{catalog} {name}: ours and the peer's differ");
            }
            Row {
                catalog,
                format: name,
                tools: specs.len(),
                bytes: ours_out.iter().map(String::len).sum(),
                ours_us: median_us(rounds, ours),
                peer_us: median_us(rounds, peer),
            }
        })
        .collect()
}

/// The requests a list takes in a format: OpenAI's at most 128 tools each, one otherwise.
fn requests<T>(format: Format, items: &[T]) -> std::slice::Chunks<'_, T> {
    let size = match format {
        Format::OpenAiChat | Format::OpenAiResponses => OPENAI_MAX_TOOLS,
        _ => items.len().max(1),
    };
    items.chunks(size)
}

/// The output of `format` built as a `Value`, as `catalog_wire::render` documents it.
fn naive(format: Format, tools: &[Parsed<'_>]) -> Value {
    let plain = |p: &Parsed<'_>| {
        json!({
            "name": p.spec.wire_name,
            "description": p.spec.description,
            "input_schema": p.input.clone(),
        })
    };
    match format {
        Format::Anthropic => tools.iter().map(plain).collect(),
        Format::AnthropicToolSearch(_) => std::iter::once(json!({
            "type": "tool_search_tool_bm25_20251119",
            "name": "tool_search_tool_bm25",
        }))
        .chain(tools.iter().filter(|p| p.spec.access.is_some()).map(|p| {
            let mut tool = plain(p);
            if p.spec.visibility == Visibility::Discoverable {
                tool["defer_loading"] = json!(true);
            }
            tool
        }))
        .collect(),
        Format::OpenAiChat => tools
            .iter()
            .map(|p| {
                let mut function = json!({
                    "name": p.spec.wire_name,
                    "description": p.spec.description,
                    "parameters": p.input.clone(),
                });
                if p.spec.strict {
                    function["strict"] = json!(true);
                }
                json!({"type": "function", "function": function})
            })
            .collect(),
        Format::OpenAiResponses => tools
            .iter()
            .map(|p| {
                json!({
                    "type": "function",
                    "name": p.spec.wire_name,
                    "description": p.spec.description,
                    "parameters": p.input.clone(),
                    "strict": p.spec.strict,
                })
            })
            .collect(),
        Format::Bedrock => {
            let specs: Vec<Value> = tools
                .iter()
                .map(|p| {
                    json!({"toolSpec": {
                        "name": p.spec.wire_name,
                        "description": p.spec.description,
                        "inputSchema": {"json": p.input.clone()},
                    }})
                })
                .collect();
            json!({ "tools": specs })
        }
        Format::Gemini => {
            let declarations: Vec<Value> = tools
                .iter()
                .map(|p| {
                    let mut d = json!({
                        "name": p.spec.wire_name,
                        "description": p.spec.description,
                    });
                    if let Some(parameters) = &p.gemini {
                        d["parameters"] = parameters.clone();
                    }
                    d
                })
                .collect();
            json!([{ "functionDeclarations": declarations }])
        }
        Format::Mcp(level) => naive_mcp(level, tools),
    }
}

/// [`naive`] for an MCP `tools/list` result at `level`.
fn naive_mcp(level: Access, tools: &[Parsed<'_>]) -> Value {
    let listed: Vec<Value> = tools
        .iter()
        .filter(|p| p.spec.reach(Caller::Mcp(level), false) == Reach::Allowed)
        .map(|p| {
            let annotations = match p.spec.effect {
                Some(Effect::Stages) => {
                    json!({"readOnlyHint": false, "destructiveHint": false, "openWorldHint": false})
                }
                Some(Effect::Acts) => {
                    json!({"readOnlyHint": false, "destructiveHint": true})
                }
                _ => json!({"readOnlyHint": true}),
            };
            let mut tool = json!({
                "name": p.spec.name,
                "description": p.spec.description,
                "inputSchema": p.input.clone(),
            });
            if let Some(output) = p.output.as_ref().filter(|o| o["type"] == "object") {
                tool["outputSchema"] = output.clone();
            }
            tool["annotations"] = annotations;
            tool
        })
        .collect();
    json!({ "tools": listed })
}

/// The median time of `rounds` calls, after a warm-up, in microseconds.
fn median_us<T>(rounds: usize, mut f: impl FnMut() -> T) -> f64 {
    for _ in 0..WARM_UP.min(rounds) {
        black_box(f());
    }
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

#[allow(clippy::cast_precision_loss)] // sizes far below 2^52
fn kilobytes(bytes: usize) -> f64 {
    bytes as f64 / 1024.0
}
