//! `cargo xtask eval-languages`: the search measured on each set of
//! `tests/data/languages/` (its README says how they were written and split), in one table:
//! recall@k on the requests for choosing parameters (`<lang>-01` to `-20`, and `-45`
//! onwards where a set has them), MRR@k on both together, the share of the catalog's own
//! examples found with each left out of the index (as the `unnamed-need` lint searches
//! them), recall@k and MRR@k on the requests for reporting (`-21` to `-44`), and the
//! median time per query.
//!
//! Each catalog is searched in the `language` its `[settings]` declare, as `catalog!` and
//! `cargo catalog search` would search it.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use cargo_catalog::{Flags, Usage};
use catalog_compiler::Catalog;
use catalog_compiler::lint::Options;
use catalog_compiler::search::{Request, percentile};
use catalog_core::search::{OwnedIndex, Scratch, Weights};

/// Requests `<lang>-01` to `<lang>-20` choose parameters, `-21` to `-44` report, and any
/// from `-45` on, added later, choose parameters too.
const TUNING: usize = 20;
const REPORT_END: usize = 44;

/// Runs the command.
pub(crate) fn run(flags: &Flags) -> Result<ExitCode, Usage> {
    flags.only(&["k"])?;
    let k = flags.count("k", 5)?;
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
    for dir in dirs {
        let read = |file: &str| {
            std::fs::read_to_string(root.join(&dir).join(file))
                .map_err(|e| Usage(format!("cannot read {dir}/{file}: {e}")))
        };
        let source = read("catalog.toml")?;
        let catalog = catalog_compiler::compile(&source).map_err(|d| {
            Usage(catalog_compiler::render_all(
                &format!("{dir}/catalog.toml"),
                &source,
                &d,
            ))
        })?;
        let requests = catalog_compiler::search::requests(&catalog, &read("requests.jsonl")?)
            .map_err(|e| Usage(format!("{dir}/requests.jsonl:{e}")))?;
        let index = catalog_compiler::search::index(&catalog, Weights::DEFAULT);
        let (first, rest) = requests.split_at(TUNING.min(requests.len()));
        let (report, added) = rest.split_at((REPORT_END - TUNING).min(rest.len()));
        let tuning: Vec<Request> = first.iter().chain(added).cloned().collect();
        let added = if added.is_empty() {
            "–".to_string()
        } else {
            format!("{:.3}", score(&index, added, k).0)
        };
        let (report_recall, report_mrr) = score(&index, report, k);
        let (found, total) = examples_found(&catalog, &source, k);
        println!(
            "| `{dir}` | {} | {} | {:.3} | {added} | {:.3} | {found} of {total} | **{report_recall:.3}** | {report_mrr:.3} | {:.1} |",
            catalog.tools.len(),
            requests.len(),
            score(&index, first, k).0,
            score(&index, &tuning, k).1,
            median_us(&index, &requests, k),
        );
    }
    if cfg!(debug_assertions) {
        println!(
            "\n(debug build: use `cargo run --release -p xtask -- eval-languages` for timings)"
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Mean recall@k and MRR@k over `requests`.
#[allow(clippy::cast_precision_loss)] // counts
fn score(index: &OwnedIndex, requests: &[Request], k: usize) -> (f64, f64) {
    if requests.is_empty() {
        return (0.0, 0.0);
    }
    let mut scratch = Scratch::default();
    let (mut recall, mut mrr) = (0.0, 0.0);
    for r in requests {
        let top: Vec<u32> = index
            .view()
            .search(&r.query, k, &mut scratch)
            .iter()
            .map(|h| h.doc)
            .collect();
        let found = r.expected.iter().filter(|e| top.contains(e)).count();
        recall += found as f64 / r.expected.len().max(1) as f64;
        if let Some(rank) = top.iter().position(|d| r.expected.contains(d)) {
            mrr += 1.0 / (rank + 1) as f64;
        }
    }
    let n = requests.len() as f64;
    (recall / n, mrr / n)
}

/// How many of the catalog's examples find their own tool in the top `k` when each is
/// searched with itself left out of the index, of how many there are: the ranks the
/// `unnamed-need` lint measures, over every tool with examples.
fn examples_found(catalog: &Catalog, source: &str, k: usize) -> (usize, usize) {
    let report = catalog_compiler::lint::run(catalog, source, &Options::default());
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
