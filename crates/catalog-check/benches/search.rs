//! `cargo bench -p catalog-check --bench search`: search latency on the BFCL catalog
//! (1,853 real tools, 1,150 development requests, `tests/data/bfcl`), compared in the same
//! run with bm25s, the usual Python BM25, on the same tools and requests.
//!
//! The tools are imported from their MCP `tools/list` form with [`catalog_check::import`],
//! compiled with [`catalog_check::compile`] and indexed with the default weights, as a
//! catalog read at run time would be. Every request is then timed on its own, one thread,
//! top 5, one reused [`Scratch`], over several rounds after a warm-up; the figures are the
//! median, p90 and p99 over all those calls. The peer, `benches/bm25s_peer.py`, does the
//! same in Python (see its docstring) and prints one JSON line, read back here.
//!
//! Environment: `BM25S_PYTHON` is the interpreter for the peer (default `python3`);
//! `SEARCH_BENCH_ROUNDS` the number of rounds (default 20). Run without `--bench` (as
//! `cargo test --benches` does) it is a smoke test: one round, no peer.

use std::hint::black_box;
use std::process::{Command, Stdio};
use std::time::Instant;

use catalog_check::search::percentile;
use catalog_core::search::{Scratch, Weights};
use serde_json::Value;

const TOOLS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/bfcl/tools.json"
);
const QUERIES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/bfcl/dev.jsonl"
);
const PEER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/bm25s_peer.py");
/// Hits per search, as an agent's search tool returns them.
const K: usize = 5;
const ROUNDS: usize = 20;
/// Index builds timed (the median is reported).
const BUILDS: usize = 5;

/// One retriever's figures.
struct Figures {
    name: String,
    recall: f64,
    index_ms: f64,
    median_us: f64,
    p90_us: f64,
    p99_us: f64,
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let rounds = if bench {
        std::env::var("SEARCH_BENCH_ROUNDS")
            .ok()
            .and_then(|r| r.parse().ok())
            .filter(|&r| r > 0)
            .unwrap_or(ROUNDS)
    } else {
        1
    };
    let (Ok(tools_text), Ok(queries_text)) = (
        std::fs::read_to_string(TOOLS),
        std::fs::read_to_string(QUERIES),
    ) else {
        println!("search bench skipped: the BFCL data ({TOOLS}, {QUERIES}) is not there");
        return;
    };

    let start = Instant::now();
    let doc: Value = serde_json::from_str(&tools_text).expect("tools.json is JSON");
    let imported = catalog_check::import::from_mcp("tools.json", &doc)
        .expect("tools.json is a tools/list result");
    let import_ms = ms(start);
    let start = Instant::now();
    let catalog = catalog_check::compile(&imported.toml).unwrap_or_else(|d| {
        panic!(
            "{}",
            catalog_check::render_all("tools.toml", &imported.toml, &d)
        )
    });
    let compile_ms = ms(start);
    let mut builds = Vec::new();
    let mut index = None;
    for _ in 0..if bench { BUILDS } else { 1 } {
        drop(index.take()); // not timed
        let start = Instant::now();
        index = Some(black_box(catalog_check::search::index(
            &catalog,
            Weights::DEFAULT,
        )));
        builds.push(ms(start));
    }
    builds.sort_by(f64::total_cmp);
    let index = index.expect("built at least once");
    let view = index.view();

    let queries = read_queries(&catalog, &queries_text);

    let mut scratch = Scratch::default();
    let mut recall = 0.0;
    for (query, expected) in &queries {
        let top = view.search(query, K, &mut scratch);
        let found = expected
            .iter()
            .filter(|e| top.iter().any(|h| h.doc == **e))
            .count();
        recall += count(found) / count(expected.len());
    }
    recall /= count(queries.len());

    // Warm-up, then every query on its own, `rounds` times.
    for (query, _) in queries.iter().take(100) {
        black_box(view.search(black_box(query), K, &mut scratch));
    }
    let mut times = Vec::with_capacity(queries.len() * rounds);
    for _ in 0..rounds {
        for (query, _) in &queries {
            let start = Instant::now();
            let hits = view.search(black_box(query), K, &mut scratch);
            times.push(start.elapsed().as_secs_f64() * 1e6);
            black_box(hits);
        }
    }
    times.sort_by(f64::total_cmp);
    let ours = Figures {
        name: "catalog-core search (BM25F, default weights)".into(),
        recall,
        index_ms: builds[builds.len() / 2],
        median_us: times[times.len() / 2],
        p90_us: percentile(&times, 900),
        p99_us: percentile(&times, 990),
    };

    println!(
        "BFCL dev: {} tools imported (+ `{}`, `{}`: {} in the catalog), {} queries, K = {K}, {rounds} rounds, one thread{}",
        imported.report.tools(),
        imported.report.search_tool(),
        imported.report.ask_tool(),
        catalog.tools.len(),
        queries.len(),
        if cfg!(debug_assertions) {
            " (debug build: timings mean nothing)"
        } else {
            ""
        }
    );
    println!("import {import_ms:.1} ms, compile {compile_ms:.1} ms");
    print_figures(&ours);
    if !bench {
        return;
    }

    let peer = peer(rounds);
    if let Some(peer) = &peer {
        print_figures(peer);
    }
    print_table(&ours, peer.as_ref());
}

/// The requests, each with its expected tools' documents.
fn read_queries(catalog: &catalog_check::CatalogModel, text: &str) -> Vec<(String, Vec<u32>)> {
    catalog_check::search::requests(catalog, text)
        .unwrap_or_else(|e| panic!("requests, line {e}"))
        .into_iter()
        .map(|r| (r.query, r.expected))
        .collect()
}

/// The figures as a markdown table, with a line of ratios when the peer ran.
fn print_table(ours: &Figures, peer: Option<&Figures>) {
    println!();
    println!("| retriever | recall@{K} | index build | median µs/query | p90 µs | p99 µs |");
    println!("|---|---|---|---|---|---|");
    for f in std::iter::once(ours).chain(peer) {
        println!(
            "| {} | {:.3} | {:.1} ms | {:.1} | {:.1} | {:.1} |",
            f.name, f.recall, f.index_ms, f.median_us, f.p90_us, f.p99_us
        );
    }
    if let Some(p) = peer {
        println!(
            "| ratio: bm25s / ours | | {:.1}× | {:.1}× | {:.1}× | {:.1}× |",
            p.index_ms / ours.index_ms,
            p.median_us / ours.median_us,
            p.p90_us / ours.p90_us,
            p.p99_us / ours.p99_us
        );
    }
}

fn print_figures(f: &Figures) {
    println!(
        "{}: recall@{K} {:.3}, index build {:.2} ms, per query median {:.2} µs, p90 {:.2} µs, p99 {:.2} µs",
        f.name, f.recall, f.index_ms, f.median_us, f.p90_us, f.p99_us
    );
}

/// bm25s's figures, or `None` (with a line saying why) when it cannot run.
fn peer(rounds: usize) -> Option<Figures> {
    let python = std::env::var("BM25S_PYTHON").unwrap_or_else(|_| "python3".into());
    let importable = Command::new(&python)
        .args(["-c", "import bm25s, Stemmer"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !importable {
        println!(
            "bm25s comparison skipped: `{python}` cannot import bm25s and Stemmer; enable it with `{python} -m pip install bm25s PyStemmer` (or set BM25S_PYTHON to an interpreter that has them)"
        );
        return None;
    }
    let out = Command::new(&python)
        .args([PEER, TOOLS, QUERIES, &rounds.to_string(), &K.to_string()])
        .stderr(Stdio::inherit())
        .output();
    let out = match out {
        Ok(out) if out.status.success() => out,
        Ok(out) => {
            println!("bm25s comparison failed: {PEER} exited with {}", out.status);
            return None;
        }
        Err(e) => {
            println!("bm25s comparison failed: cannot run `{python}`: {e}");
            return None;
        }
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let Some(json) = stdout
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str::<Value>(l).ok())
    else {
        println!("bm25s comparison failed: {PEER} printed no JSON line");
        return None;
    };
    let num = |k: &str| json[k].as_f64().unwrap_or(f64::NAN);
    Some(Figures {
        name: format!(
            "{} (name + description + parameters, English stemmer and stop words)",
            json["peer"].as_str().unwrap_or("bm25s")
        ),
        recall: num("recall_at_k"),
        index_ms: num("index_ms"),
        median_us: num("median_us"),
        p90_us: num("p90_us"),
        p99_us: num("p99_us"),
    })
}

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

#[allow(clippy::cast_precision_loss)] // counts far below 2^52
fn count(n: usize) -> f64 {
    n as f64
}
