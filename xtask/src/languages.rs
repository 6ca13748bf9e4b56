//! `cargo xtask eval-languages`: the search measured on each set of
//! `tests/data/languages/` (its README says how they were written and split), in one table:
//! recall@k and MRR@k on the requests for choosing parameters (`<lang>-01` to `-20`), on
//! the rest (for reporting), and on all, with the median time per query.
//!
//! Each catalog is searched in the `language` its `[settings]` declare, as `catalog!` and
//! `cargo catalog search` would search it.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use cargo_catalog::{Flags, Usage};
use catalog_compiler::search::{Request, percentile};
use catalog_core::search::{OwnedIndex, Scratch, Weights};

/// Requests `<lang>-01` to `<lang>-20` choose parameters; the rest report.
const TUNING: usize = 20;

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
        "| set | tools | requests | recall@{k}, 01–{TUNING} | MRR@{k}, 01–{TUNING} | recall@{k}, {r}–end | MRR@{k}, {r}–end | recall@{k}, all | median µs/query |",
        r = TUNING + 1
    );
    println!("|---|---|---|---|---|---|---|---|---|");
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
        let (tune, report) = requests.split_at(TUNING.min(requests.len()));
        let (tune_recall, tune_mrr) = score(&index, tune, k);
        let (report_recall, report_mrr) = score(&index, report, k);
        println!(
            "| `{dir}` | {} | {} | {tune_recall:.3} | {tune_mrr:.3} | **{report_recall:.3}** | {report_mrr:.3} | {:.3} | {:.1} |",
            catalog.tools.len(),
            requests.len(),
            score(&index, &requests, k).0,
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
