//! `check`: the compiler's verdict on a catalog, every lint's findings, and a summary: the
//! derived sets, the tokens each provider's request spends on the tools, which examples
//! the catalog's own search answers, and a table of the lints.

use std::io::IsTerminal as _;
use std::process::ExitCode;

use catalog_check::lint::{self, Finding, Level, LintId, Tokenizer};
use catalog_check::{Diagnostic, Lines, Located, Style};
use serde_json::json;

use crate::args::{Check, Format, Usage};
use crate::defaults::Defaults;
use crate::lints::lints_json;
use crate::reach::reach_json;
use crate::summary::{summary, summary_json};
use crate::tokens::{O200k, tokens_json};

/// `check [--catalog PATH] [--format human|json] [--upstreams]`; with `--upstreams`, a
/// catalog that passes is then compared with its upstream servers.
pub(crate) fn command(args: &Check, defaults: &Defaults) -> Result<ExitCode, Usage> {
    #[cfg(not(feature = "upstreams"))]
    if args.upstreams {
        return Err(crate::args::needs_upstreams("--upstreams"));
    }
    let (path, source) = defaults.read_catalog(args.catalog.path.as_deref())?;
    let verdict = run(&path, &source, args.format);
    if !args.upstreams || verdict != ExitCode::SUCCESS {
        return Ok(verdict);
    }
    #[cfg(feature = "upstreams")]
    let verdict = match catalog_check::validate(&source) {
        Ok(catalog) => crate::upstreams::check(&path, &catalog),
        Err(_) => ExitCode::FAILURE,
    };
    Ok(verdict)
}

/// Validates `source` (read from `path`), runs every lint and prints the verdict: exit 0
/// when nothing is denied, 1 when the catalog breaks a rule or a denied lint finds
/// something.
fn run(path: &str, source: &str, format: Format) -> ExitCode {
    // Loading the tokenizer's tables takes a while: on another core while the catalog is
    // read, and left to finish unused when the budget lint does not run.
    let loading = std::thread::spawn(O200k::load);
    let catalog = match catalog_check::validate(source) {
        Ok(catalog) => catalog,
        Err(diagnostics) => {
            match format {
                Format::Human => {
                    let style = Style {
                        colour: colour(),
                        ..Style::default()
                    };
                    eprint!(
                        "{}",
                        Lines::new(source).render_all(path, &diagnostics, style)
                    );
                }
                Format::Json => {
                    let lines = Lines::new(source);
                    let errors: Vec<_> = diagnostics
                        .iter()
                        .map(|d| diagnostic_json(path, &lines, d, None))
                        .collect();
                    println!(
                        "{:#}",
                        json!({ "file": path, "valid": false, "errors": errors, "warnings": [] })
                    );
                }
            }
            return ExitCode::FAILURE;
        }
    };
    let tokenizer = if catalog.lints.level(LintId::InlineTokenBudget) == Level::Allow {
        None
    } else {
        match loading
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
        {
            Ok(bpe) => Some(bpe),
            Err(e) => {
                eprintln!("internal error: the o200k_base tokenizer does not load: {e}");
                return ExitCode::FAILURE;
            }
        }
    };
    let options = lint::Options {
        tokenizer: tokenizer.as_ref().map(|t| t as &dyn Tokenizer),
        at_least: Level::Warn,
        only: None,
    };
    let report = lint::run(&catalog, source, &options);
    let denied = report.findings.iter().any(|f| f.level == Level::Deny);
    let lines = Lines::new(source);
    match format {
        Format::Human => {
            let _ = report.write(&mut std::io::stderr().lock(), &lines, path, colour());
            print!("{}", summary(path, &catalog, &report));
        }
        Format::Json => {
            let (errors, warnings): (Vec<&Finding>, Vec<&Finding>) =
                report.findings.iter().partition(|f| f.level == Level::Deny);
            let list = |fs: Vec<&Finding>| -> Vec<serde_json::Value> {
                fs.into_iter()
                    .map(|f| diagnostic_json(path, &lines, &f.diagnostic, Some(f)))
                    .collect()
            };
            println!(
                "{:#}",
                json!({
                    "file": path,
                    "valid": !denied,
                    "errors": list(errors),
                    "warnings": list(warnings),
                    "summary": summary_json(&catalog),
                    "tokens": report.tokens.as_ref().map(tokens_json),
                    "reach": reach_json(&catalog, &report),
                    "lints": lints_json(&catalog, &report),
                })
            );
        }
    }
    // The process ends next: freeing a large catalog's millions of values one by one would
    // only add to its time.
    std::mem::forget((catalog, report, tokenizer));
    if denied {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// An error or warning as JSON: where, what, the fix, and for a lint's finding its name
/// and level.
fn diagnostic_json(
    path: &str,
    lines: &Lines<'_>,
    d: &Diagnostic,
    finding: Option<&Finding>,
) -> serde_json::Value {
    let at = Located::at(path, lines, d);
    let related: Vec<_> = d
        .related
        .iter()
        .map(|r| {
            let (line, column) = lines.line_col(r.span.start);
            json!({ "line": line, "column": column, "label": r.label })
        })
        .collect();
    let mut v = json!({ "file": at.file, "line": at.line, "column": at.column, "message": d.message, "help": d.help, "related": related });
    if let Some(f) = finding {
        v["lint"] = json!(f.lint.name());
        v["level"] = json!(f.level.as_str());
    }
    v
}

/// Colours for a terminal, unless `NO_COLOR` is set (<https://no-color.org>).
fn colour() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}
