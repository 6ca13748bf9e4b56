//! `cargo bench -p scale-bench --bench scale`: the catalog's own search against tantivy, a
//! real search engine, on the same tools and the same requests, in one run.
//!
//! With no `--catalog` it runs on the BFCL catalog (`tests/data/bfcl`: 1,853 tools, the
//! 1,150 development requests) when that data is there. `cargo xtask bench-scale` runs it
//! with `--catalog FILE --queries FILE.jsonl --engine ours|tantivy` once per size and
//! engine, so each process's peak memory belongs to one engine; it reads the JSON line.
//!
//! Both engines index the same text of each tool: its name split into words, its
//! description, keywords and examples, and its parameters' names, descriptions and allowed
//! values; both return only discoverable tools (ours withholds the inline ones, tantivy
//! does not index them). Ours is [`catalog_check::search::index`] with the default weights; tantivy
//! gets three text fields (name, description, parameters) with its English stemming
//! tokenizer, default BM25, in a RAM directory, one indexing thread, the request parsed
//! leniently over the three fields, top 5 by score, each hit mapped to its tool through a
//! fast field. Every request is timed on its own, one thread, after a warm-up, for
//! `--rounds` rounds (default 5; 1 without `--bench`, as `cargo test --benches` runs it).
//!
//! Memory: after the catalog and requests are loaded, the process's peak resident set is
//! reset (`/proc/self/clear_refs`), then the index is built and every request searched;
//! the figure is the new peak minus the resident set at the reset (Linux only; `null`
//! elsewhere).

use std::hint::black_box;
use std::time::Instant;

use catalog_check::model::{CatalogModel, Field, Kind, TypeSpec, Visibility};
use catalog_check::search::percentile;
use catalog_core::search::{Scratch, Weights};
use serde_json::{Value, json};
use tantivy::collector::TopDocs;
use tantivy::query::QueryParser;
use tantivy::schema::{FAST, IndexRecordOption, Schema, TextFieldIndexing, TextOptions};
use tantivy::{Index, IndexWriter, ReloadPolicy, TantivyDocument, doc};

const BFCL_TOOLS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/bfcl/tools.json");
const BFCL_QUERIES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/bfcl/dev.jsonl");
/// Hits per search, as an agent's search tool returns them.
const K: usize = 5;
const ROUNDS: usize = 5;

/// One engine's figures.
struct Figures {
    recall: f64,
    index_ms: f64,
    times_us: Vec<f64>,
    /// Bytes of the index's tables, where the engine has a plain figure for it.
    index_bytes: Option<usize>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bench = args.iter().any(|a| a == "--bench");
    let opt = |key: &str| {
        args.iter()
            .position(|a| a == key)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let rounds = opt("--rounds")
        .and_then(|r| r.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(if bench { ROUNDS } else { 1 });
    let (catalog_path, queries_path) = match (opt("--catalog"), opt("--queries")) {
        (Some(c), Some(q)) => (c, q),
        _ => (BFCL_TOOLS.to_string(), BFCL_QUERIES.to_string()),
    };
    let (Ok(catalog_text), Ok(queries_text)) = (
        std::fs::read_to_string(&catalog_path),
        std::fs::read_to_string(&queries_path),
    ) else {
        println!("scale bench skipped: cannot read {catalog_path} and {queries_path}");
        return;
    };
    let catalog = load(&catalog_path, &catalog_text);
    let queries = read_queries(&catalog, &queries_text);
    let engines: Vec<String> = match opt("--engine") {
        Some(e) => vec![e],
        None => vec!["ours".into(), "tantivy".into()],
    };
    for engine in engines {
        let base_kib = reset_peak();
        let figures = match engine.as_str() {
            "ours" => ours(&catalog, &queries, rounds),
            "tantivy" => tantivy(&catalog, &queries, rounds),
            other => panic!("unknown engine `{other}`: use ours or tantivy"),
        };
        let peak_kib = status_kib("VmHWM");
        let mut times = figures.times_us;
        times.sort_by(f64::total_cmp);
        let line = json!({
            "engine": engine,
            "tools": catalog.tools.len(),
            "queries": queries.len(),
            "rounds": rounds,
            "recall": figures.recall,
            "index_ms": figures.index_ms,
            "median_us": percentile(&times, 500),
            "p99_us": percentile(&times, 990),
            "index_bytes": figures.index_bytes,
            "peak_delta_kib": base_kib.zip(peak_kib).map(|(b, p)| p.saturating_sub(b)),
            "debug_build": cfg!(debug_assertions),
        });
        println!("{line}");
    }
}

/// A catalog file, or an MCP `tools/list` result (`.json`) imported as the compiler would.
fn load(path: &str, text: &str) -> CatalogModel {
    let toml = if std::path::Path::new(path)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    {
        let doc: Value = serde_json::from_str(text).expect("the tools file is JSON");
        catalog_check::import::from_mcp(path, &doc)
            .expect("the tools file is a tools/list result")
            .toml
    } else {
        text.to_string()
    };
    catalog_check::compile(&toml)
        .unwrap_or_else(|d| panic!("{}", catalog_check::render_all(path, &toml, &d)))
}

/// The requests, each with its expected tools' documents.
fn read_queries(catalog: &CatalogModel, text: &str) -> Vec<(String, Vec<u32>)> {
    catalog_check::search::requests(catalog, text)
        .unwrap_or_else(|e| panic!("requests, line {e}"))
        .into_iter()
        .map(|r| (r.query, r.expected))
        .collect()
}

fn ours(catalog: &CatalogModel, queries: &[(String, Vec<u32>)], rounds: usize) -> Figures {
    let start = Instant::now();
    let index = catalog_check::search::index(catalog, Weights::DEFAULT);
    let index_ms = ms(start);
    let view = index.view();
    let mut scratch = Scratch::default();
    let mut search = |q: &str| -> Vec<u32> {
        view.search(q, K, &mut scratch)
            .iter()
            .map(|h| h.doc)
            .collect()
    };
    let (recall, times_us) = run(queries, rounds, &mut search);
    Figures {
        recall,
        index_ms,
        times_us,
        index_bytes: Some(
            std::mem::size_of_val(index.slots.as_slice())
                + std::mem::size_of_val(index.postings.as_slice())
                + std::mem::size_of_val(index.name_rank.as_slice()),
        ),
    }
}

fn tantivy(catalog: &CatalogModel, queries: &[(String, Vec<u32>)], rounds: usize) -> Figures {
    let start = Instant::now();
    let mut schema = Schema::builder();
    let text = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("en_stem")
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let name = schema.add_text_field("name", text.clone());
    let description = schema.add_text_field("description", text.clone());
    let params = schema.add_text_field("params", text);
    let id = schema.add_u64_field("id", FAST);
    let index = Index::create_in_ram(schema.build());
    // One thread, as ours builds on one; 50 MB is tantivy's usual writer budget.
    let mut writer: IndexWriter<TantivyDocument> = index
        .writer_with_num_threads(1, 50_000_000)
        .expect("a RAM index opens a writer");
    for (i, t) in catalog.tools.iter().enumerate() {
        // Ours returns only discoverable tools (the model has the inline ones already).
        if t.visibility != Visibility::Discoverable {
            continue;
        }
        let mut desc = t.description.clone();
        for extra in t.keywords.iter().chain(&t.examples) {
            desc.push_str(". ");
            desc.push_str(extra);
        }
        let mut param_text = String::new();
        fields_text(&t.params, &mut param_text);
        if let Some(raw) = &t.input_schema {
            raw_text(raw, &mut param_text);
        }
        writer
            .add_document(doc!(
                id => i as u64,
                name => split_name(&t.name),
                description => desc,
                params => param_text,
            ))
            .expect("a document is added");
    }
    writer.commit().expect("the index commits");
    let reader = index
        .reader_builder()
        .reload_policy(ReloadPolicy::Manual)
        .try_into()
        .expect("the index has a reader");
    let searcher = tantivy::IndexReader::searcher(&reader);
    let ids: Vec<_> = searcher
        .segment_readers()
        .iter()
        .map(|s| s.fast_fields().u64("id").expect("`id` is a fast field"))
        .collect();
    let parser = QueryParser::for_index(&index, vec![name, description, params]);
    let index_ms = ms(start);
    let collector = TopDocs::with_limit(K).order_by_score();
    let mut search = |q: &str| -> Vec<u32> {
        let (query, _) = parser.parse_query_lenient(q);
        searcher
            .search(&query, &collector)
            .expect("a search runs")
            .into_iter()
            .filter_map(|(_, at)| ids[at.segment_ord as usize].first(at.doc_id))
            .map(|doc| u32::try_from(doc).expect("fewer than 2^32 tools"))
            .collect()
    };
    let (recall, times_us) = run(queries, rounds, &mut search);
    Figures {
        recall,
        index_ms,
        times_us,
        index_bytes: None,
    }
}

/// Recall@K over the requests, then every request timed on its own, `rounds` times.
fn run(
    queries: &[(String, Vec<u32>)],
    rounds: usize,
    search: &mut dyn FnMut(&str) -> Vec<u32>,
) -> (f64, Vec<f64>) {
    let mut recall = 0.0;
    for (query, expected) in queries {
        let top = search(query);
        let found = expected.iter().filter(|e| top.contains(e)).count();
        recall += count(found) / count(expected.len());
    }
    recall /= count(queries.len());
    for (query, _) in queries.iter().take(100) {
        black_box(search(black_box(query)));
    }
    let mut times = Vec::with_capacity(queries.len() * rounds);
    for _ in 0..rounds {
        for (query, _) in queries {
            let start = Instant::now();
            let hits = search(black_box(query));
            times.push(start.elapsed().as_secs_f64() * 1e6);
            black_box(hits);
        }
    }
    (recall, times)
}

/// `getCurrentTime`, `get_current.time` → `get Current Time` (tantivy lowercases).
fn split_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 8);
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() && prev_lower {
            out.push(' ');
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        out.push(if c.is_alphanumeric() { c } else { ' ' });
    }
    out
}

/// Parameter names, descriptions and allowed values, as ours reads them.
fn fields_text(fields: &[Field], out: &mut String) {
    for f in fields {
        out.push_str(&split_name(&f.name));
        out.push_str(". ");
        type_text(&f.ty, out);
    }
}

fn type_text(t: &TypeSpec, out: &mut String) {
    if let Some(d) = &t.description {
        out.push_str(d);
        out.push_str(". ");
    }
    match &t.kind {
        Kind::String {
            values: Some(values),
        } => {
            for v in values {
                out.push_str(v);
                out.push_str(". ");
            }
        }
        Kind::Array(item) => type_text(item, out),
        Kind::Object(Some(props)) => fields_text(props, out),
        Kind::Raw(raw) => raw_text(raw, out),
        _ => {}
    }
}

fn raw_text(v: &Value, out: &mut String) {
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                match (k.as_str(), x) {
                    ("description", Value::String(d)) => {
                        out.push_str(d);
                        out.push_str(". ");
                    }
                    ("enum", Value::Array(values)) => {
                        for v in values.iter().filter_map(Value::as_str) {
                            out.push_str(v);
                            out.push_str(". ");
                        }
                    }
                    ("properties", Value::Object(props)) => {
                        for (name, schema) in props {
                            out.push_str(&split_name(name));
                            out.push_str(". ");
                            raw_text(schema, out);
                        }
                    }
                    _ => raw_text(x, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|x| raw_text(x, out)),
        _ => {}
    }
}

/// Resets the peak resident set and returns the current one, in KiB (Linux).
fn reset_peak() -> Option<u64> {
    std::fs::write("/proc/self/clear_refs", "5").ok()?;
    status_kib("VmRSS")
}

/// A `kB` line of `/proc/self/status`.
fn status_kib(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

#[allow(clippy::cast_precision_loss)] // counts far below 2^52
fn count(n: usize) -> f64 {
    n as f64
}
