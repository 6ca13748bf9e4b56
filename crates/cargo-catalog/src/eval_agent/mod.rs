//! `eval-agent`: a catalog's requests run through a chat provider, each through the same
//! agent step an application runs (`catalog_wire::agent`), once per split of its rows
//! into inline and discoverable; the report scores each split's tool selection, success,
//! searches, rejections and tokens, and a plot sets accuracy against tokens.
//!
//! Handlers run nothing: a call is answered with the smallest value of the row's declared
//! output, or `{"ok": true}`. Gated tools are allowed, as a user who says yes.

mod plot;
mod report;
mod run;
mod send;
mod split;

use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use catalog_providers::{Api, default_model};

use crate::args::{EvalAgent, Usage};
use crate::defaults::Defaults;
use run::Record;
use send::Sender;
use split::{Choice, Split};

/// `eval-agent --provider P --requests FILE.jsonl [--split S]... [--runs N] ...`.
pub(crate) fn command(args: &EvalAgent, defaults: &Defaults) -> Result<ExitCode, Usage> {
    let (path, source) = defaults.read_catalog(args.catalog.path.as_deref())?;
    let catalog = match catalog_check::compile(&source) {
        Ok(catalog) => catalog,
        Err(errors) => {
            eprint!("{}", catalog_check::render_all(&path, &source, &errors));
            return Ok(ExitCode::FAILURE);
        }
    };
    let text = std::fs::read_to_string(&args.requests)
        .map_err(|e| Usage(format!("cannot read `{}`: {e}", args.requests)))?;
    let requests = catalog_check::search::agent_requests(&catalog, &text)
        .map_err(|e| Usage(crate::eval::located(&args.requests, &e)))?;
    if requests.is_empty() {
        return Err(Usage(format!("`{}` holds no request", args.requests)));
    }
    let mut splits = Vec::new();
    let mut unusable = Vec::new();
    for (i, choice) in args.splits.iter().enumerate() {
        if args.splits[..i].contains(choice) {
            unusable.push(format!("the split `{choice}` is given twice"));
            continue;
        }
        match Split::new(&catalog, Choice::parse(choice)) {
            Ok(split) => splits.push(split),
            Err(errors) => unusable.extend(errors),
        }
    }
    if !unusable.is_empty() {
        return Err(Usage(unusable.join("\n")));
    }
    let provider = args.provider.0;
    let model = args.model.as_deref().unwrap_or(default_model(provider));
    let api = Api::new(provider, args.base_url.as_deref(), model, |name| {
        std::env::var(name).ok().filter(|v| !v.is_empty())
    })
    .map_err(|failure| Usage(failure.message))?;
    let cache = (!args.no_cache).then_some(args.cache.as_str());
    let sender = Sender::new(api, cache).map_err(Usage)?;

    // Every (split, run, request), in report order.
    let count = requests.len();
    let jobs: Vec<(usize, usize, usize)> = (0..splits.len())
        .flat_map(|s| (0..args.runs).flat_map(move |r| (0..count).map(move |q| (s, r, q))))
        .collect();
    let progress =
        crate::progress::bar(u64::try_from(jobs.len()).unwrap_or(u64::MAX), "eval-agent");
    // Off a terminal, a line per finished request instead of the bar.
    let plain = progress.is_hidden();
    let records: Mutex<Vec<Option<Record>>> = Mutex::new(vec![None; jobs.len()]);
    let next = AtomicUsize::new(0);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.min(jobs.len()) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(s, r, q)) = jobs.get(i) else { break };
                    let record = run::run(&splits[s], &sender, model, &requests[q], r, args.steps);
                    if plain {
                        eprintln!("{}", report::line(&record));
                    }
                    progress.inc(1);
                    records
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)[i] = Some(record);
                }
            });
        }
    });
    progress.finish_and_clear();
    let records: Vec<Record> = records
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .into_iter()
        .flatten()
        .collect();
    let report = report::Report::new(
        &splits,
        &records,
        report::Run {
            provider: provider.name(),
            model,
            requests: requests.len(),
            runs: args.runs,
            steps: args.steps,
            sent: sender.sent.load(Ordering::Relaxed),
            retried: sender.retried.load(Ordering::Relaxed),
            seconds: start.elapsed().as_secs_f64(),
        },
    );
    std::fs::write(&args.plot, plot::svg(&report))
        .map_err(|e| Usage(format!("cannot write the plot `{}`: {e}", args.plot)))?;
    report.print(args.format, args.paths);
    eprintln!("plot: {}", args.plot);
    let failed = records
        .iter()
        .filter(|r| matches!(r.end, run::End::Failed(_)))
        .count();
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
