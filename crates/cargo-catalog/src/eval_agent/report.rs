//! The figures of each split, as a table for people or one JSON document whose shape
//! stays stable for CI.

use serde::Serialize;
use serde_json::json;

use super::run::{End, Record};
use super::split::Split;
use crate::args::Format;
use crate::numbers::count_f64;

/// What was run, for the report's head.
#[derive(Serialize)]
pub(super) struct Run<'a> {
    pub(super) provider: &'a str,
    pub(super) model: &'a str,
    pub(super) requests: usize,
    pub(super) runs: usize,
    pub(super) steps: usize,
    /// Requests sent to the provider, retries included: 0 when the cache held every reply.
    pub(super) sent: usize,
    pub(super) retried: usize,
    pub(super) seconds: f64,
}

/// A figure over the runs: its mean, and its least and greatest run.
#[derive(Clone, Copy, Serialize)]
pub(super) struct Spread {
    pub(super) mean: f64,
    pub(super) min: f64,
    pub(super) max: f64,
}

/// One split's figures.
#[derive(Serialize)]
pub(super) struct Figures {
    pub(super) split: String,
    pub(super) inline: usize,
    pub(super) discoverable: usize,
    /// Requests whose first call of a tool other than search named an expected tool.
    pub(super) selection_accuracy: Spread,
    /// Requests where every expected tool ran.
    pub(super) success: Spread,
    pub(super) searches_per_request: f64,
    /// Per run: searches refused for a spent budget, calls refused for their arguments,
    /// calls of a tool not in the active set.
    pub(super) budget_exhausted: f64,
    pub(super) argument_rejections: f64,
    pub(super) unavailable_calls: f64,
    pub(super) input_tokens_per_request: f64,
    pub(super) output_tokens_per_request: f64,
    pub(super) median_seconds_per_request: f64,
    /// Requests the provider failed (after retries), over all runs.
    pub(super) failed: usize,
}

/// The whole report.
pub(super) struct Report<'a> {
    pub(super) run: Run<'a>,
    pub(super) splits: Vec<Figures>,
    records: &'a [Record],
}

impl<'a> Report<'a> {
    pub(super) fn new(splits: &[Split], records: &'a [Record], run: Run<'a>) -> Self {
        let splits = splits
            .iter()
            .map(|split| {
                let name = split.choice.name();
                let mine: Vec<&Record> = records.iter().filter(|r| r.split == name).collect();
                figures(split, &mine, run.runs)
            })
            .collect();
        Report {
            run,
            splits,
            records,
        }
    }

    /// Prints the report; `paths` adds every request's path to the table.
    pub(super) fn print(&self, format: Format, paths: bool) {
        match format {
            Format::Json => {
                let report = json!({
                    "run": self.run,
                    "splits": self.splits,
                    "requests": self.records,
                });
                println!("{report:#}");
            }
            Format::Human => self.print_table(paths),
        }
    }

    fn print_table(&self, paths: bool) {
        let run = &self.run;
        println!(
            "{} {}: {} requests × {} run{}, at most {} steps each",
            run.provider,
            run.model,
            run.requests,
            run.runs,
            if run.runs == 1 { "" } else { "s" },
            run.steps
        );
        println!(
            "{:<18} {:>6} {:>6} {:>17} {:>17} {:>8} {:>9} {:>7} {:>6} {:>9} {:>8} {:>6}",
            "split",
            "inline",
            "disc.",
            "selection",
            "success",
            "searches",
            "exhausted",
            "arg-rej",
            "hidden",
            "in-tok",
            "out-tok",
            "s/req"
        );
        for f in &self.splits {
            println!(
                "{:<18} {:>6} {:>6} {:>17} {:>17} {:>8.2} {:>9.1} {:>7.1} {:>6.1} {:>9.0} {:>8.0} {:>6.2}",
                f.split,
                f.inline,
                f.discoverable,
                spread(f.selection_accuracy, run.runs),
                spread(f.success, run.runs),
                f.searches_per_request,
                f.budget_exhausted,
                f.argument_rejections,
                f.unavailable_calls,
                f.input_tokens_per_request,
                f.output_tokens_per_request,
                f.median_seconds_per_request,
            );
        }
        println!(
            "selection: the first call of a tool other than search named an expected tool; success: every expected tool ran; searches, in-tok and out-tok per request; exhausted, arg-rej and hidden per run"
        );
        let failed: usize = self.splits.iter().map(|f| f.failed).sum();
        println!(
            "sent {} request{} to the provider ({} retried) in {:.1} s{}",
            run.sent,
            if run.sent == 1 { "" } else { "s" },
            run.retried,
            run.seconds,
            if failed > 0 {
                format!("; {failed} request(s) failed, shown below")
            } else {
                String::new()
            }
        );
        for record in self.records {
            if paths || matches!(record.end, End::Failed(_)) {
                println!("{}", line(record));
            }
        }
    }
}

/// A figure with its spread over several runs.
fn spread(s: Spread, runs: usize) -> String {
    if runs == 1 {
        format!("{:.3}", s.mean)
    } else {
        format!("{:.3} ({:.2}–{:.2})", s.mean, s.min, s.max)
    }
}

/// One request's line: where it ran, how it ended, and its path.
pub(super) fn line(r: &Record) -> String {
    let verdict = match &r.end {
        End::Expected => String::from("✓"),
        End::Answered => String::from("✗ answered"),
        End::StepBudget => String::from("✗ step budget"),
        End::Failed(why) => format!("✗ failed: {why}"),
    };
    format!(
        "{} run {} {}: {verdict}; {}",
        r.split,
        r.run + 1,
        r.id,
        if r.path.is_empty() {
            String::from("no call")
        } else {
            r.path.join("; ")
        }
    )
}

fn figures(split: &Split, records: &[&Record], runs: usize) -> Figures {
    let n = count_f64(records.len().max(1));
    let per_run = |pick: &dyn Fn(&Record) -> bool| -> Spread {
        let rates: Vec<f64> = (0..runs)
            .map(|run| {
                let of_run: Vec<&&Record> = records.iter().filter(|r| r.run == run).collect();
                let hits = of_run.iter().filter(|r| pick(r)).count();
                count_f64(hits) / count_f64(of_run.len().max(1))
            })
            .collect();
        Spread {
            mean: rates.iter().sum::<f64>() / count_f64(rates.len().max(1)),
            min: rates.iter().copied().fold(f64::INFINITY, f64::min),
            max: rates.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    };
    let sum = |pick: &dyn Fn(&Record) -> f64| records.iter().map(|r| pick(r)).sum::<f64>();
    let runs_f = count_f64(runs.max(1));
    let mut seconds: Vec<f64> = records.iter().map(|r| r.seconds).collect();
    seconds.sort_by(f64::total_cmp);
    let (inline, discoverable) = split.counts();
    Figures {
        split: split.choice.name().to_string(),
        inline,
        discoverable,
        selection_accuracy: per_run(&|r| r.selected == Some(true)),
        success: per_run(&|r| r.success),
        searches_per_request: sum(&|r| count_f64(r.searches)) / n,
        budget_exhausted: sum(&|r| count_f64(r.budget_exhausted)) / runs_f,
        argument_rejections: sum(&|r| count_f64(r.argument_rejections)) / runs_f,
        unavailable_calls: sum(&|r| count_f64(r.unavailable)) / runs_f,
        input_tokens_per_request: sum(&|r| count_f64(r.input_tokens)) / n,
        output_tokens_per_request: sum(&|r| count_f64(r.output_tokens)) / n,
        median_seconds_per_request: seconds.get(seconds.len() / 2).copied().unwrap_or(0.0),
        failed: records
            .iter()
            .filter(|r| matches!(r.end, End::Failed(_)))
            .count(),
    }
}
