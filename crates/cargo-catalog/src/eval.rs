//! `eval-search`: how well the catalog's own search finds the tools a set of requests
//! need (recall, hit rate and MRR at k), and how long a query takes; with `--model`, the
//! embedding model alone and its fusion with BM25F beside it.

use std::process::ExitCode;
use std::time::Instant;

use catalog_check::model::CatalogModel;
use catalog_check::search::Request;
use catalog_core::search::{OwnedIndex, Scratch, Weights};
use serde_json::{Value, json};

use crate::args::{EvalSearch, Format, Usage};
use crate::defaults::Defaults;
use crate::indexed::load;
use crate::numbers::count_f64;

/// Rounds of timing: each query is timed this many times.
const ROUNDS: usize = 5;

/// `eval-search [--catalog PATH] --queries FILE.jsonl [--k N] [--format human|json]
/// [--weights W] [--show-misses N] [--model DIR [--vectors FILE] [--fusion LEXICAL]...]`.
pub(crate) fn command(args: &EvalSearch, defaults: &Defaults) -> Result<ExitCode, Usage> {
    let weights = args.weights.weights.unwrap_or(Weights::DEFAULT);
    let (path, source) = defaults.read_catalog(args.catalog.path.as_deref())?;
    let (catalog, index) = match load(&path, &source, weights) {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let queries = read_queries(&catalog, &args.queries)?;
    let bm25f = bm25f(&index, &queries, args.k);
    show_misses(
        &catalog,
        &queries,
        &bm25f.tops,
        args.show_misses.unwrap_or(0),
    );
    let Some(model) = &args.embedding.model else {
        print_one(&catalog, &queries, &bm25f, args.k, args.format);
        return Ok(ExitCode::SUCCESS);
    };
    let models = models(args, model, &catalog, &index, &queries)?;
    let mut rankings = vec![bm25f];
    rankings.extend(models.rankings);
    print_side_by_side(
        &catalog,
        &queries,
        &rankings,
        &models.cost,
        args.k,
        args.format,
    );
    Ok(ExitCode::SUCCESS)
}

/// The requests of a `dev.jsonl`-format file.
fn read_queries(catalog: &CatalogModel, queries_path: &str) -> Result<Vec<Request>, Usage> {
    let text = std::fs::read_to_string(queries_path)
        .map_err(|e| Usage(format!("cannot read `{queries_path}`: {e}")))?;
    let queries = catalog_check::search::requests(catalog, &text)
        .map_err(|e| Usage(located(queries_path, &e)))?;
    if queries.is_empty() {
        return Err(Usage(format!("`{queries_path}` holds no query")));
    }
    Ok(queries)
}

/// Each `LINE: reason` of a requests file's errors as `PATH:LINE: reason`.
pub(crate) fn located(path: &str, errors: &str) -> String {
    errors
        .lines()
        .map(|line| format!("{path}:{line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One ranker's top `k` for each request, and its median time per query.
struct Ranking {
    name: String,
    tops: Vec<Vec<u32>>,
    times: Vec<f64>,
    median_us: f64,
}

impl Ranking {
    fn new(name: String) -> Ranking {
        Ranking {
            name,
            tops: Vec::new(),
            times: Vec::new(),
            median_us: 0.0,
        }
    }

    /// One request's hits, and the microseconds they took.
    #[cfg(feature = "embed")]
    fn push(&mut self, hits: &[catalog_core::search::Hit], us: f64) {
        self.tops.push(hits.iter().map(|h| h.doc).collect());
        self.times.push(us);
    }

    /// The median, taken once every request is in.
    fn done(mut self) -> Ranking {
        self.median_us = median(std::mem::take(&mut self.times));
        self
    }
}

/// What the model's rankers cost beyond BM25F: the seconds the tools' vectors took at
/// start-up (`None` when read from a file), and the memory the model and vectors hold.
struct Cost {
    vectors_seconds: Option<f64>,
    memory_mib: Option<f64>,
}

/// The index's own ranking. Every query is timed on its own over a few rounds, and the
/// median taken: one slow outlier (a page fault, the other core) must not move the figure.
fn bm25f(index: &OwnedIndex, queries: &[Request], k: usize) -> Ranking {
    let progress = crate::progress::bar(
        u64::try_from(queries.len() * (1 + ROUNDS)).unwrap_or(u64::MAX),
        "eval-search",
    );
    let view = index.view();
    let mut scratch = Scratch::default();
    let tops = queries
        .iter()
        .map(|q| {
            progress.inc(1);
            view.search(&q.query, k, &mut scratch)
                .iter()
                .map(|h| h.doc)
                .collect()
        })
        .collect();
    // The bar moves once a round, never between two timed queries.
    let mut times = Vec::with_capacity(queries.len() * ROUNDS);
    for _ in 0..ROUNDS {
        for q in queries {
            let start = Instant::now();
            let hits = view.search(&q.query, k, &mut scratch);
            times.push(start.elapsed().as_secs_f64() * 1e6);
            std::hint::black_box(hits);
        }
        progress.inc(u64::try_from(queries.len()).unwrap_or(u64::MAX));
    }
    progress.finish_and_clear();
    Ranking {
        tops,
        times,
        ..Ranking::new("BM25F".into())
    }
    .done()
}

/// The embedding model's rankings and what they cost.
struct Models {
    rankings: Vec<Ranking>,
    cost: Cost,
}

#[cfg(not(feature = "embed"))]
fn models(
    _: &EvalSearch,
    _: &str,
    _: &CatalogModel,
    _: &OwnedIndex,
    _: &[Request],
) -> Result<Models, Usage> {
    Err(Usage(crate::embed::MISSING.into()))
}

/// The model alone and each fusion asked for, each query timed once: a query costs
/// milliseconds, far above what the machine's noise moves.
#[cfg(feature = "embed")]
fn models(
    args: &EvalSearch,
    model: &str,
    catalog: &CatalogModel,
    index: &OwnedIndex,
    queries: &[Request],
) -> Result<Models, Usage> {
    use catalog_embed::Fusion;

    let before = resident_bytes();
    let view = index.view();
    let (hybrid, vectors_seconds) =
        crate::embed::hybrid(model, args.embedding.vectors.as_deref(), catalog, &view)?;
    let memory_mib = before
        .zip(resident_bytes())
        .map(|(b, a)| count_f64(usize::try_from(a.saturating_sub(b)).unwrap_or(0)) / 1_048_576.0);
    let fusions = Fusion::each(&args.embedding.fusion);
    let progress = crate::progress::bar(
        u64::try_from(queries.len()).unwrap_or(u64::MAX),
        "eval-search --model",
    );
    let (k, mut scratch) = (args.k, Scratch::default());
    let mut dense = Ranking::new("embedding".into());
    let mut fused: Vec<Ranking> = fusions
        .iter()
        .map(|f| Ranking::new(format!("fusion {}", f.lexical)))
        .collect();
    for q in queries {
        let c = hybrid
            .compare(&view, &q.query, k, &fusions, &mut scratch)
            .map_err(|e| Usage(e.to_string()))?;
        dense.push(&c.dense, c.dense_us);
        for ((ranking, hits), us) in fused.iter_mut().zip(&c.fused).zip(c.fused_us) {
            ranking.push(hits, us);
        }
        progress.inc(1);
    }
    progress.finish_and_clear();
    let mut rankings = vec![dense.done()];
    rankings.extend(fused.into_iter().map(Ranking::done));
    Ok(Models {
        rankings,
        cost: Cost {
            vectors_seconds,
            memory_mib,
        },
    })
}

/// The process's resident memory, where the system says (Linux's `/proc`).
#[cfg(feature = "embed")]
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    catalog_check::search::percentile(&times, 500)
}

/// Recall, hit rate and MRR at k of `tops` over the requests `which` keeps (by position,
/// from 0).
fn figures(queries: &[Request], tops: &[Vec<u32>], which: impl Fn(usize) -> bool) -> [f64; 3] {
    let (mut n, mut recall, mut hit, mut mrr) = (0usize, 0.0, 0.0, 0.0);
    for (i, (q, top)) in queries.iter().zip(tops).enumerate() {
        if !which(i) {
            continue;
        }
        n += 1;
        let found = q.expected.iter().filter(|e| top.contains(e)).count();
        recall += count_f64(found) / count_f64(q.expected.len());
        hit += f64::from(u8::from(found == q.expected.len()));
        if let Some(rank) = top.iter().position(|d| q.expected.contains(d)) {
            mrr += 1.0 / count_f64(rank + 1);
        }
    }
    let n = count_f64(n.max(1));
    [recall / n, hit / n, mrr / n]
}

fn show_misses(catalog: &CatalogModel, queries: &[Request], tops: &[Vec<u32>], limit: usize) {
    let names = |docs: &[u32]| {
        let names: Vec<&str> = docs
            .iter()
            .map(|&d| catalog.tools[d as usize].name.as_str())
            .collect();
        names.join(", ")
    };
    let missed = queries
        .iter()
        .zip(tops)
        .filter(|(q, top)| q.expected.iter().any(|e| !top.contains(e)));
    for (q, top) in missed.take(limit) {
        eprintln!(
            "miss {}: {}\n  expected: {}\n  got:      {}",
            q.id,
            q.query,
            names(&q.expected),
            names(top)
        );
    }
}

const DEBUG_NOTE: &str = " (debug build: use --release for timings)";

fn debug_note() -> &'static str {
    if cfg!(debug_assertions) {
        DEBUG_NOTE
    } else {
        ""
    }
}

/// The figures of BM25F alone, as this command has always printed them.
fn print_one(catalog: &CatalogModel, queries: &[Request], r: &Ranking, k: usize, format: Format) {
    let [recall, hit, mrr] = figures(queries, &r.tops, |_| true);
    let median = r.median_us;
    match format {
        Format::Json => println!(
            "{:#}",
            json!({
                "tools": catalog.tools.len(),
                "queries": queries.len(),
                "k": k,
                "recall_at_k": recall,
                "hit_at_k": hit,
                "mrr_at_k": mrr,
                "median_query_us": median,
            })
        ),
        Format::Human => {
            println!("tools            {}", catalog.tools.len());
            println!("queries          {}", queries.len());
            println!("recall@{k:<9} {recall:.3}");
            println!("hit@{k:<12} {hit:.3}");
            println!("MRR@{k:<12} {mrr:.3}");
            println!("median query     {median:.2} µs{}", debug_note());
        }
    }
}

/// Each ranker's figures on every request and on the odd and the even ones (first, third,
/// ... and second, fourth, ...: one half to choose parameters on, the other to report).
fn print_side_by_side(
    catalog: &CatalogModel,
    queries: &[Request],
    rankings: &[Ranking],
    cost: &Cost,
    k: usize,
    format: Format,
) {
    let part = |r: &Ranking, which: &dyn Fn(usize) -> bool| {
        let [recall, hit, mrr] = figures(queries, &r.tops, which);
        json!({ "recall_at_k": recall, "hit_at_k": hit, "mrr_at_k": mrr })
    };
    let rows: Vec<Value> = rankings
        .iter()
        .map(|r| {
            json!({
                "ranker": &r.name,
                "all": part(r, &|_| true),
                "odd": part(r, &|i| i % 2 == 0),
                "even": part(r, &|i| i % 2 == 1),
                "median_query_us": r.median_us,
            })
        })
        .collect();
    if format == Format::Json {
        let report = json!({
            "tools": catalog.tools.len(),
            "queries": queries.len(),
            "k": k,
            "rankers": rows,
            "vectors_seconds": cost.vectors_seconds,
            "model_memory_mib": cost.memory_mib,
        });
        println!("{report:#}");
        return;
    }
    println!(
        "{} tools, {} queries, k = {k}; odd and even: the first, third, ... and the second, fourth, ... requests\n",
        catalog.tools.len(),
        queries.len()
    );
    println!(
        "| ranker | recall@{k} | hit@{k} | MRR@{k} | recall@{k}, odd | MRR@{k}, odd | recall@{k}, even | MRR@{k}, even | median µs/query |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for row in &rows {
        let f = |part: &str, key: &str| format!("{:.3}", row[part][key].as_f64().unwrap_or(0.0));
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.1} |",
            row["ranker"].as_str().unwrap_or(""),
            f("all", "recall_at_k"),
            f("all", "hit_at_k"),
            f("all", "mrr_at_k"),
            f("odd", "recall_at_k"),
            f("odd", "mrr_at_k"),
            f("even", "recall_at_k"),
            f("even", "mrr_at_k"),
            row["median_query_us"].as_f64().unwrap_or(0.0),
        );
    }
    println!();
    match cost.vectors_seconds {
        Some(s) => println!("tool vectors computed at start-up in {s:.2} s"),
        None => println!("tool vectors read from the file"),
    }
    if let Some(mib) = cost.memory_mib {
        println!("model and vectors: {mib:.1} MiB of resident memory");
    }
    let note = debug_note();
    if !note.is_empty() {
        println!("{}", note.trim_start());
    }
}
