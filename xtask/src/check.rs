//! `cargo xtask check-catalog`: the compiler's verdict on a catalog, every lint's findings,
//! and a summary: the derived sets, the tokens each provider's request spends on the tools,
//! which examples the catalog's own search answers, and a table of the lints.

use std::fmt::Write as _;
use std::process::ExitCode;

use catalog_compiler::lint::{self, Finding, Level, LintId, Report, TokenReport, Tokenizer};
use catalog_compiler::model::{Catalog, DERIVED_SETS, Visibility};
use catalog_compiler::{Diagnostic, Located};
use serde_json::json;

use crate::thousands;

/// Output format.
#[derive(Clone, Copy)]
pub enum Format {
    /// Rendered diagnostics and a summary, for people.
    Human,
    /// One JSON document, for CI.
    Json,
}

/// OpenAI's `o200k_base` encoding: the tokenizer of current OpenAI models, and the count
/// this project reports for every provider (Anthropic's and Amazon's are not public).
struct O200k(tiktoken_rs::CoreBPE);

impl Tokenizer for O200k {
    fn name(&self) -> &'static str {
        "o200k_base"
    }

    fn count(&self, text: &str) -> usize {
        self.0.encode_ordinary(text).len()
    }
}

/// Validates `source` (read from `path`), runs every lint and prints the verdict: exit 0
/// when nothing is denied, 1 when the catalog breaks a rule or a denied lint finds
/// something.
pub fn run(path: &str, source: &str, format: Format) -> ExitCode {
    let catalog = match catalog_compiler::validate(source) {
        Ok(catalog) => catalog,
        Err(diagnostics) => {
            match format {
                Format::Human => eprint!(
                    "{}",
                    catalog_compiler::render_all(path, source, &diagnostics)
                ),
                Format::Json => {
                    let errors: Vec<_> = diagnostics
                        .iter()
                        .map(|d| diagnostic_json(path, source, d, None))
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
    // Loading the tokenizer's tables takes a while: only when the budget lint runs.
    let tokenizer = if catalog.lints.level(LintId::InlineTokenBudget) == Level::Allow {
        None
    } else {
        match tiktoken_rs::o200k_base() {
            Ok(bpe) => Some(O200k(bpe)),
            Err(e) => {
                eprintln!("internal error: the o200k_base tokenizer does not load: {e}");
                return ExitCode::FAILURE;
            }
        }
    };
    let options = lint::Options {
        tokenizer: tokenizer.as_ref().map(|t| t as &dyn Tokenizer),
        at_least: Level::Warn,
    };
    let report = lint::run(&catalog, source, &options);
    let denied = report.findings.iter().any(|f| f.level == Level::Deny);
    match format {
        Format::Human => {
            for f in &report.findings {
                eprintln!("{}", catalog_compiler::render(path, source, &f.labelled()));
            }
            print!("{}", summary(path, &catalog, &report));
        }
        Format::Json => {
            let (errors, warnings): (Vec<&Finding>, Vec<&Finding>) =
                report.findings.iter().partition(|f| f.level == Level::Deny);
            let list = |fs: Vec<&Finding>| -> Vec<serde_json::Value> {
                fs.into_iter()
                    .map(|f| diagnostic_json(path, source, &f.diagnostic, Some(f)))
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
    source: &str,
    d: &Diagnostic,
    finding: Option<&Finding>,
) -> serde_json::Value {
    let at = Located::new(path, source, d);
    let mut v = json!({ "file": at.file, "line": at.line, "column": at.column, "message": d.message, "help": d.help });
    if let Some(f) = finding {
        v["lint"] = json!(f.lint.name());
        v["level"] = json!(f.level.as_str());
    }
    v
}

/// Derived sets by name, members in catalog order: the list the generated `Catalog` uses.
fn sets(c: &Catalog) -> Vec<(&'static str, Vec<&str>)> {
    DERIVED_SETS
        .iter()
        .map(|d| {
            (
                d.name,
                c.tools
                    .iter()
                    .filter(|t| (d.contains)(t))
                    .map(|t| t.name.as_str())
                    .collect(),
            )
        })
        .collect()
}

fn summary(path: &str, c: &Catalog, report: &Report) -> String {
    let mut out = format!("{path}: valid, {} tools\n\n", c.tools.len());
    for (name, tools) in sets(c) {
        let _ = writeln!(
            out,
            "{:<20} {:>3}  {}",
            name.to_lowercase(),
            tools.len(),
            tools.join(", ")
        );
    }
    let s = &c.settings;
    let _ = writeln!(
        out,
        "\nsearch tool `{}` ({} results per call, {} searches per turn, found tools kept for the {}); ask tool `{}`",
        c.search_tool().name,
        s.search_results,
        s.searches_per_turn,
        s.keep_discovered.as_str(),
        c.ask_tool().name
    );
    let _ = writeln!(
        out,
        "\nsearch tool description:\n{}",
        c.search_description()
    );
    if let Some(tokens) = &report.tokens {
        out.push_str(&tokens_table(c, tokens));
    }
    out.push_str(&reach_text(c, report));
    out.push_str(&lints_table(c, report));
    let errors = report
        .findings
        .iter()
        .filter(|f| f.level == Level::Deny)
        .count();
    let warnings = report.findings.len() - errors;
    let _ = writeln!(
        out,
        "\n{path}: {errors} error{}, {warnings} warning{}",
        plural(errors),
        plural(warnings)
    );
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn tokens_table(c: &Catalog, t: &TokenReport) -> String {
    let inline = c
        .tools
        .iter()
        .filter(|x| x.visibility == Visibility::Inline)
        .count();
    let mut out = format!(
        "\ntokens ({}) of the tool list, as each provider's request carries it:\n{:<18} {:>14} {:>14} {:>8}\n",
        t.tokenizer,
        "provider",
        format!("inline ({inline})"),
        format!("all ({})", c.tools.len()),
        "saving"
    );
    for p in &t.providers {
        let cell =
            |r: &Result<usize, String>| r.as_ref().map_or("-".to_string(), |n| thousands(*n));
        let saving = p
            .saving()
            .map_or("-".to_string(), |s| format!("{:.0}%", s * 100.0));
        let _ = writeln!(
            out,
            "{:<18} {:>14} {:>14} {:>8}",
            p.provider,
            cell(&p.inline),
            cell(&p.all),
            saving
        );
    }
    let notes: Vec<String> = t
        .providers
        .iter()
        .flat_map(|p| {
            [&p.inline, &p.all]
                .into_iter()
                .filter_map(|r| r.as_ref().err())
                .map(|e| format!("  {}: {e}", p.provider))
                .collect::<Vec<_>>()
        })
        .collect();
    for n in notes {
        let _ = writeln!(out, "{n}");
    }
    let largest: Vec<String> = t
        .inline_tools
        .iter()
        .take(5)
        .map(|(i, n)| format!("{} {n}", c.tools[*i].name))
        .collect();
    let _ = writeln!(
        out,
        "largest inline tools: {}; budget (`inline-token-budget`) {}",
        largest.join(", "),
        thousands(t.max_tokens)
    );
    out
}

/// The reach report: inline tools that search finds from every example (candidates to
/// defer), inline tools that some example does not find (the unnamed needs that keep them
/// inline), and how many examples of discoverable tools search answers.
fn reach_text(c: &Catalog, report: &Report) -> String {
    let Some(reach) = &report.reach else {
        return String::new();
    };
    let k = c.settings.search_results;
    let mut out = format!(
        "\nreach: each example searched with the catalog's own search (that example left out of the index), top {k}:\n"
    );
    let (mut defer, mut keep) = (Vec::new(), Vec::new());
    let (mut found, mut total) = (0, 0);
    for r in reach {
        let tool = &c.tools[r.tool];
        let hits = r.examples.iter().filter(|e| e.found(k)).count();
        if tool.visibility == Visibility::Discoverable {
            found += hits;
            total += r.examples.len();
            continue;
        }
        if hits == r.examples.len() {
            defer.push(format!("{} ({hits}/{hits})", tool.name));
        } else {
            let missed: Vec<String> = r
                .examples
                .iter()
                .filter(|e| !e.found(k))
                .map(|e| match e.rank {
                    Some(n) => format!("{:?} (rank {n})", e.text),
                    None => format!("{:?} (no match)", e.text),
                })
                .collect();
            keep.push(format!("  {}: {}", tool.name, missed.join(", ")));
        }
    }
    let _ = writeln!(
        out,
        "  candidates to defer, inline tools that search finds from every example: {}",
        if defer.is_empty() {
            "none".to_string()
        } else {
            defer.join(", ")
        }
    );
    let _ = writeln!(
        out,
        "  inline tools that requests need without naming them (search misses these examples):"
    );
    if keep.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for line in keep {
        let _ = writeln!(out, "  {line}");
    }
    let _ = writeln!(
        out,
        "  discoverable tools: search finds {found} of {total} examples"
    );
    out
}

/// The closing table: every lint, its level here, what it checks, its findings.
fn lints_table(c: &Catalog, report: &Report) -> String {
    let mut out = format!(
        "\n{:<22} {:<7} {:>8}  {}\n",
        "lint", "level", "findings", "checks"
    );
    for l in lint::LINTS {
        let level = c.lints.level(l.id);
        let overrides = c
            .tools
            .iter()
            .filter(|t| t.lints.contains_key(&l.id))
            .count();
        let n = report.findings.iter().filter(|f| f.lint == l.id).count();
        let findings = if report.ran.contains(&l.id) {
            n.to_string()
        } else {
            "-".to_string()
        };
        let level = if overrides > 0 {
            format!("{}*", level.as_str())
        } else {
            level.as_str().to_string()
        };
        let _ = writeln!(
            out,
            "{:<22} {:<7} {:>8}  {}",
            l.name, level, findings, l.checks
        );
    }
    if c.tools.iter().any(|t| !t.lints.is_empty()) {
        let _ = writeln!(out, "* some rows set their own level in `[tool.lints]`");
    }
    out
}

fn summary_json(c: &Catalog) -> serde_json::Value {
    let sets: serde_json::Map<String, serde_json::Value> = sets(c)
        .into_iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect();
    let s = &c.settings;
    json!({
        "tools": c.tools.len(),
        "sets": sets,
        "searchTool": c.search_tool().name,
        "askTool": c.ask_tool().name,
        "searchResults": s.search_results,
        "searchesPerTurn": s.searches_per_turn,
        "keepDiscovered": s.keep_discovered.as_str(),
        "searchDescription": c.search_description(),
    })
}

fn tokens_json(t: &TokenReport) -> serde_json::Value {
    let count = |r: &Result<usize, String>| match r {
        Ok(n) => json!(n),
        Err(_) => serde_json::Value::Null,
    };
    json!({
        "tokenizer": t.tokenizer,
        "maxTokens": t.max_tokens,
        "providers": t.providers.iter().map(|p| json!({
            "provider": p.provider,
            "inline": count(&p.inline),
            "all": count(&p.all),
            "saving": p.saving(),
        })).collect::<Vec<_>>(),
    })
}

fn reach_json(c: &Catalog, report: &Report) -> serde_json::Value {
    let Some(reach) = &report.reach else {
        return serde_json::Value::Null;
    };
    let k = c.settings.search_results;
    json!(
        reach
            .iter()
            .map(|r| {
                let t = &c.tools[r.tool];
                json!({
                    "tool": t.name,
                    "visibility": match t.visibility {
                        Visibility::Inline => "inline",
                        Visibility::Discoverable => "discoverable",
                    },
                    "examples": r.examples.iter().map(|e| json!({
                        "text": e.text,
                        "rank": e.rank,
                        "found": e.found(k),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect::<Vec<_>>()
    )
}

fn lints_json(c: &Catalog, report: &Report) -> serde_json::Value {
    json!(
        lint::LINTS
            .iter()
            .map(|l| {
                let ran = report.ran.contains(&l.id);
                json!({
                    "lint": l.name,
                    "level": c.lints.level(l.id).as_str(),
                    "default": l.default.as_str(),
                    "ran": ran,
                    "findings": ran.then(|| report.findings.iter().filter(|f| f.lint == l.id).count()),
                })
            })
            .collect::<Vec<_>>()
    )
}
