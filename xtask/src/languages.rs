//! `cargo xtask eval-languages`: the search measured on each set of
//! `tests/data/languages/` (its README says how they were written and split), in one table:
//! recall@k on the requests for choosing parameters (`<lang>-01` to `-20`, and `-45`
//! onwards where a set has them), MRR@k on both together, the share of the catalog's own
//! examples found with each left out of the index (as the `unnamed-need` lint searches
//! them), recall@k and MRR@k on the requests for reporting (`-21` to `-44`), and the
//! median time per query.
//!
//! Each catalog is searched in the `language` its `[settings]` declare, as `catalog!` and
//! `cargo catalog search` would search it. A second table gives the same figures for the
//! peer, bm25s over character bigrams (`peer.rs`), when it can run; with `--model`, a third
//! the embedding model alone and its fusion with BM25F (`catalog-embed`), the tools'
//! vectors computed at start-up.

use std::ops::Range;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use cargo_catalog::Usage;
use catalog_check::CatalogModel;
use catalog_check::lint::Options;
use catalog_check::search::{Request, percentile};
use catalog_core::search::{OwnedIndex, Scratch, Weights};
use catalog_embed::{Fusion, Hybrid, Model, Vectors};

mod peer;

/// Requests `<lang>-01` to `<lang>-20` choose parameters, `-21` to `-44` report, and any
/// from `-45` on, added later, choose parameters too.
const TUNING: usize = 20;
const REPORT_END: usize = 44;

/// Runs the command, counting the first `k` hits, with the embedding model in `model` and
/// BM25F's shares of the fusion `fusion` when given.
pub(crate) fn run(k: usize, model: Option<&Path>, fusion: &[f32]) -> Result<ExitCode, Usage> {
    let model = model
        .map(|dir| Model::load(dir).map(Arc::new))
        .transpose()
        .map_err(|e| Usage(e.to_string()))?;
    let fusions = Fusion::each(fusion);
    let mut model_rows = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/languages");
    let mut dirs: Vec<String> = std::fs::read_dir(&root)
        .map_err(|e| Usage(format!("cannot read {}: {e}", root.display())))?
        .filter_map(|e| Some(e.ok()?.file_name().to_str()?.to_string()))
        .filter(|name| root.join(name).join("requests.jsonl").is_file())
        .collect();
    dirs.sort();
    println!(
        "| set | tools | requests | recall@{k}, 01–{TUNING} | recall@{k}, {t}– | MRR@{k}, tuning | examples found@{k}, left out | recall@{k}, {r}–{REPORT_END} (report) | MRR@{k}, {r}–{REPORT_END} | median µs/query |",
        r = TUNING + 1,
        t = REPORT_END + 1,
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut peer_rows = Vec::new();
    let mut peer_skipped = None;
    for dir in dirs {
        let read = |file: &str| {
            std::fs::read_to_string(root.join(&dir).join(file))
                .map_err(|e| Usage(format!("cannot read {dir}/{file}: {e}")))
        };
        let source = read("catalog.toml")?;
        let catalog = catalog_check::compile(&source).map_err(|d| {
            Usage(catalog_check::render_all(
                &format!("{dir}/catalog.toml"),
                &source,
                &d,
            ))
        })?;
        let requests = catalog_check::search::requests(&catalog, &read("requests.jsonl")?)
            .map_err(|e| Usage(format!("{dir}/requests.jsonl:{e}")))?;
        let index = catalog_check::search::index(&catalog, Weights::DEFAULT);
        let parts = Parts::of(&requests);
        let hits = ours(&index, &requests, k);
        let (found, total) = examples_found(&catalog, &source, k);
        let median = median_us(&index, &requests, k);
        let (tuning, report) = parts.figures(&requests, &hits);
        println!(
            "| `{dir}` | {} | {} | {tuning} | {found} of {total} | {report} | {median:.1} |",
            catalog.tools.len(),
            requests.len(),
        );
        if let Some(model) = &model {
            let vectors = Vectors::compute(model, &catalog, &index.view())
                .map_err(|e| Usage(e.to_string()))?;
            let hybrid = Hybrid::new(Arc::clone(model), vectors);
            for (name, hits, median) in embedded(&hybrid, &index, &requests, k, &fusions)? {
                let (tuning, report) = parts.figures(&requests, &hits);
                model_rows.push(format!(
                    "| `{dir}` {name} | {tuning} | {report} | {median:.0} |"
                ));
            }
        }
        if peer_skipped.is_none() {
            match peer::run(&catalog, &requests, k) {
                Ok(p) => {
                    let (tuning, report) = parts.figures(&requests, &p.hits);
                    peer_rows.push(format!(
                        "| `{dir}` | {tuning} | {report} | {:.1} | {:.0}× |",
                        p.median_us,
                        p.median_us / median,
                    ));
                }
                Err(why) => peer_skipped = Some(why),
            }
        }
    }
    if let Some(why) = peer_skipped {
        println!("\npeer skipped: {why}");
    } else {
        print_table(
            peer::NAME,
            "set",
            &["median, peer / this crate"],
            &peer_rows,
            k,
        );
    }
    if !model_rows.is_empty() {
        print_table(
            "The embedding model alone, and fused with BM25F (fusion W: BM25F's share of the weight)",
            "set and ranker",
            &[],
            &model_rows,
            k,
        );
    }
    if cfg!(debug_assertions) {
        println!(
            "\n(debug build: use `cargo run --release -p xtask -- eval-languages` for timings)"
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// A second table: its title, the name of its first column, its last columns after the
/// median, and its rows.
fn print_table(title: &str, first: &str, extra: &[&str], rows: &[String], k: usize) {
    println!("\n{title}, on the same requests:\n");
    let columns = [
        first.to_string(),
        format!("recall@{k}, 01–{TUNING}"),
        format!("recall@{k}, {}–", REPORT_END + 1),
        format!("MRR@{k}, tuning"),
        format!("recall@{k}, {}–{REPORT_END} (report)", TUNING + 1),
        format!("MRR@{k}, {}–{REPORT_END}", TUNING + 1),
        "median µs/query".to_string(),
    ];
    let columns: Vec<String> = columns
        .into_iter()
        .chain(extra.iter().map(ToString::to_string))
        .collect();
    println!("| {} |", columns.join(" | "));
    println!("|{}", "---|".repeat(columns.len()));
    for row in rows {
        println!("{row}");
    }
}

/// A ranker's name, its top `k` for each request, and its median µs per query.
type Ranked = (String, Vec<Vec<u32>>, f64);

/// The embedding model's top `k` for each request, then each fusion's, with their median
/// times per query, each query timed once (it costs milliseconds).
fn embedded(
    hybrid: &Hybrid,
    index: &OwnedIndex,
    requests: &[Request],
    k: usize,
    fusions: &[Fusion],
) -> Result<Vec<Ranked>, Usage> {
    let (view, mut scratch) = (index.view(), Scratch::default());
    let names = std::iter::once("embedding".to_string())
        .chain(fusions.iter().map(|f| format!("fusion {}", f.lexical)));
    let mut rows: Vec<(String, Vec<Vec<u32>>, Vec<f64>)> =
        names.map(|name| (name, Vec::new(), Vec::new())).collect();
    for r in requests {
        let c = hybrid
            .compare(&view, &r.query, k, fusions, &mut scratch)
            .map_err(|e| Usage(e.to_string()))?;
        let ranked = std::iter::once((&c.dense, c.dense_us)).chain(c.fused.iter().zip(c.fused_us));
        for (row, (hits, us)) in rows.iter_mut().zip(ranked) {
            row.1.push(hits.iter().map(|h| h.doc).collect());
            row.2.push(us);
        }
    }
    Ok(rows
        .into_iter()
        .map(|(name, hits, mut times)| {
            times.sort_by(f64::total_cmp);
            (name, hits, percentile(&times, 500))
        })
        .collect())
}

/// Where each part of a set's requests lies in it.
struct Parts {
    first: Range<usize>,
    report: Range<usize>,
    added: Range<usize>,
}

impl Parts {
    fn of(requests: &[Request]) -> Parts {
        let n = requests.len();
        Parts {
            first: 0..TUNING.min(n),
            report: TUNING.min(n)..REPORT_END.min(n),
            added: REPORT_END.min(n)..n,
        }
    }

    /// The table's columns: recall on the first part, on the added part (`–` when there
    /// is none), MRR on both; then recall and MRR on the report part.
    fn figures(&self, requests: &[Request], hits: &[Vec<u32>]) -> (String, String) {
        let score = |at: &mut dyn Iterator<Item = usize>| score(requests, hits, at);
        let added = if self.added.is_empty() {
            "–".to_string()
        } else {
            format!("{:.3}", score(&mut self.added.clone()).0)
        };
        let (report_recall, report_mrr) = score(&mut self.report.clone());
        let tuning = format!(
            "{:.3} | {added} | {:.3}",
            score(&mut self.first.clone()).0,
            score(&mut self.first.clone().chain(self.added.clone())).1,
        );
        (tuning, format!("**{report_recall:.3}** | {report_mrr:.3}"))
    }
}

/// This crate's top `k` for each request.
fn ours(index: &OwnedIndex, requests: &[Request], k: usize) -> Vec<Vec<u32>> {
    let mut scratch = Scratch::default();
    requests
        .iter()
        .map(|r| {
            let hits = index.view().search(&r.query, k, &mut scratch);
            hits.iter().map(|h| h.doc).collect()
        })
        .collect()
}

/// Mean recall and MRR of `hits` (best first, each at most k long) over the requests
/// `at`.
#[allow(clippy::cast_precision_loss)] // counts
fn score(
    requests: &[Request],
    hits: &[Vec<u32>],
    at: &mut dyn Iterator<Item = usize>,
) -> (f64, f64) {
    let (mut n, mut recall, mut mrr) = (0usize, 0.0, 0.0);
    for i in at {
        let (r, top) = (&requests[i], &hits[i]);
        n += 1;
        let found = r.expected.iter().filter(|e| top.contains(e)).count();
        recall += found as f64 / r.expected.len().max(1) as f64;
        if let Some(rank) = top.iter().position(|d| r.expected.contains(d)) {
            mrr += 1.0 / (rank + 1) as f64;
        }
    }
    if n == 0 {
        return (0.0, 0.0);
    }
    (recall / n as f64, mrr / n as f64)
}

/// How many of the catalog's examples find their own tool in the top `k` when each is
/// searched with itself left out of the index, of how many there are: the ranks the
/// `unnamed-need` lint measures, over every tool with examples.
fn examples_found(catalog: &CatalogModel, source: &str, k: usize) -> (usize, usize) {
    let report = catalog_check::lint::run(catalog, source, &Options::default());
    let examples: Vec<_> = report
        .reach
        .iter()
        .flatten()
        .flat_map(|t| &t.examples)
        .collect();
    let found = examples.iter().filter(|e| e.found(k)).count();
    (found, examples.len())
}

/// The median time of one search, over five rounds of every request.
fn median_us(index: &OwnedIndex, requests: &[Request], k: usize) -> f64 {
    let mut scratch = Scratch::default();
    let mut times = Vec::new();
    for _ in 0..5 {
        for r in requests {
            let start = Instant::now();
            std::hint::black_box(index.view().search(&r.query, k, &mut scratch));
            times.push(start.elapsed().as_secs_f64() * 1e6);
        }
    }
    times.sort_by(f64::total_cmp);
    percentile(&times, 500)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(expected: &[u32]) -> Request {
        Request {
            id: String::new(),
            query: String::new(),
            expected: expected.to_vec(),
        }
    }

    #[test]
    fn recall_counts_each_expected_tool_and_mrr_the_first_found() {
        let requests = [request(&[1]), request(&[2, 3]), request(&[4])];
        let hits = [vec![1, 9], vec![9, 3], vec![]];
        let (recall, mrr) = score(&requests, &hits, &mut (0..3));
        assert!((recall - 1.5 / 3.0).abs() < 1e-12, "{recall}");
        assert!((mrr - 1.5 / 3.0).abs() < 1e-12, "{mrr}");
        assert_eq!(score(&requests, &hits, &mut (2..3)), (0.0, 0.0));
    }

    #[test]
    fn the_parts_are_01_to_20_21_to_44_and_45_on() {
        let requests: Vec<Request> = (0..50).map(|i| request(&[i])).collect();
        // Each request's own tool found at rank 1 in the report part only.
        let hits: Vec<Vec<u32>> = (0..50)
            .map(|i| {
                if (20..44).contains(&i) {
                    vec![i]
                } else {
                    vec![]
                }
            })
            .collect();
        let (tuning, report) = Parts::of(&requests).figures(&requests, &hits);
        assert_eq!(tuning, "0.000 | 0.000 | 0.000");
        assert_eq!(report, "**1.000** | 1.000");
        let (tuning, _) = Parts::of(&requests[..30]).figures(&requests[..30], &hits);
        assert_eq!(tuning, "0.000 | – | 0.000");
    }
}
