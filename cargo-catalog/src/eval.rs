//! `eval-search`: how well the catalog's own search finds the tools a set of requests
//! need (recall, hit rate and MRR at k), and how long a query takes.

use std::process::ExitCode;
use std::time::Instant;

use catalog_compiler::model::Catalog;
use catalog_compiler::search::Request;
use catalog_core::search::{OwnedIndex, Scratch, Weights};
use serde_json::json;

use crate::args::{EvalSearch, Format, Usage};
use crate::defaults::Defaults;
use crate::numbers::count_f64;
use crate::search::load;

/// Rounds of timing: each query is timed this many times.
const ROUNDS: usize = 5;

/// `eval-search [--catalog PATH] --queries FILE.jsonl [--k N] [--format human|json]
/// [--weights W] [--show-misses N]`.
pub(crate) fn command(args: &EvalSearch, defaults: &Defaults) -> Result<ExitCode, Usage> {
    let weights = args.weights.weights.unwrap_or(Weights::DEFAULT);
    let (path, source) = defaults.read_catalog(args.catalog.path.as_deref())?;
    match load(&path, &source, weights) {
        Ok((catalog, index)) => eval(
            &catalog,
            &index,
            &args.queries,
            args.k,
            args.format,
            args.show_misses.unwrap_or(0),
        ),
        Err(code) => Ok(code),
    }
}

/// The requests of a `dev.jsonl`-format file.
fn read_queries(catalog: &Catalog, queries_path: &str) -> Result<Vec<Request>, Usage> {
    let text = std::fs::read_to_string(queries_path)
        .map_err(|e| Usage(format!("cannot read `{queries_path}`: {e}")))?;
    let queries = catalog_compiler::search::requests(catalog, &text)
        .map_err(|e| Usage(format!("{queries_path}:{e}")))?;
    if queries.is_empty() {
        return Err(Usage(format!("`{queries_path}` holds no query")));
    }
    Ok(queries)
}

/// Recall, hit rate and MRR at `k`, and the median time per query.
fn eval(
    catalog: &Catalog,
    index: &OwnedIndex,
    queries_path: &str,
    k: usize,
    format: Format,
    show_misses: usize,
) -> Result<ExitCode, Usage> {
    let queries = read_queries(catalog, queries_path)?;
    // One step per query searched for the figures, then per query timed.
    let progress = crate::progress::bar(
        u64::try_from(queries.len() * (1 + ROUNDS)).unwrap_or(u64::MAX),
        "eval-search",
    );
    let view = index.view();
    let mut scratch = Scratch::default();
    let (mut recall, mut hit, mut mrr) = (0.0f64, 0.0f64, 0.0f64);
    let mut misses = 0;
    for q in &queries {
        let expected = &q.expected;
        let top: Vec<u32> = view
            .search(&q.query, k, &mut scratch)
            .iter()
            .map(|h| h.doc)
            .collect();
        let found = expected.iter().filter(|e| top.contains(e)).count();
        if found < expected.len() && misses < show_misses {
            misses += 1;
            let names = |docs: &[u32]| {
                let names: Vec<&str> = docs
                    .iter()
                    .map(|&d| catalog.tools[d as usize].name.as_str())
                    .collect();
                names.join(", ")
            };
            progress.suspend(|| {
                eprintln!(
                    "miss {}: {}\n  expected: {}\n  got:      {}",
                    q.id,
                    q.query,
                    names(expected),
                    names(&top)
                );
            });
        }
        recall += count_f64(found) / count_f64(expected.len());
        hit += f64::from(u8::from(found == expected.len()));
        if let Some(rank) = top.iter().position(|d| expected.contains(d)) {
            mrr += 1.0 / count_f64(rank + 1);
        }
        progress.inc(1);
    }
    // Time every query on its own, a few rounds, and take the median: one slow outlier
    // (a page fault, the other core) must not move the figure.
    // The bar moves once a round, never between two timed queries.
    let mut times = Vec::with_capacity(queries.len() * ROUNDS);
    for _ in 0..ROUNDS {
        for q in &queries {
            let start = Instant::now();
            let hits = view.search(&q.query, k, &mut scratch);
            times.push(start.elapsed().as_secs_f64() * 1e6);
            std::hint::black_box(hits);
        }
        progress.inc(u64::try_from(queries.len()).unwrap_or(u64::MAX));
    }
    progress.finish_and_clear();
    times.sort_by(f64::total_cmp);
    let median = catalog_compiler::search::percentile(&times, 500);
    let n = count_f64(queries.len());
    let report = json!({
        "tools": catalog.tools.len(),
        "queries": queries.len(),
        "k": k,
        "recall_at_k": recall / n,
        "hit_at_k": hit / n,
        "mrr_at_k": mrr / n,
        "median_query_us": median,
    });
    match format {
        Format::Json => println!("{report:#}"),
        Format::Human => {
            println!("tools            {}", catalog.tools.len());
            println!("queries          {}", queries.len());
            println!("recall@{k:<9} {:.3}", recall / n);
            println!("hit@{k:<12} {:.3}", hit / n);
            println!("MRR@{k:<12} {:.3}", mrr / n);
            println!(
                "median query     {median:.2} µs{}",
                if cfg!(debug_assertions) {
                    " (debug build: use --release for timings)"
                } else {
                    ""
                }
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
