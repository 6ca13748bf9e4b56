//! `cargo xtask check-catalog`: the compiler's verdict on a catalog, and a summary.

use std::fmt::Write as _;
use std::process::ExitCode;

use catalog_compiler::model::{Catalog, DERIVED_SETS};
use catalog_compiler::{Diagnostic, Located};
use serde_json::json;

/// Output format.
#[derive(Clone, Copy)]
pub enum Format {
    /// Rendered diagnostics or a summary, for people.
    Human,
    /// One JSON document, for CI.
    Json,
}

/// Validates `source` (read from `path`) and prints the verdict; exit 0 valid, 1 invalid.
pub fn run(path: &str, source: &str, format: Format) -> ExitCode {
    match (catalog_compiler::compile(source), format) {
        (Ok(catalog), Format::Human) => {
            print!("{}", summary(path, &catalog));
            ExitCode::SUCCESS
        }
        (Ok(catalog), Format::Json) => {
            println!(
                "{:#}",
                json!({ "file": path, "valid": true, "errors": [], "summary": summary_json(&catalog) })
            );
            ExitCode::SUCCESS
        }
        (Err(diagnostics), Format::Human) => {
            eprint!(
                "{}",
                catalog_compiler::render_all(path, source, &diagnostics)
            );
            ExitCode::FAILURE
        }
        (Err(diagnostics), Format::Json) => {
            let errors: Vec<_> = diagnostics
                .iter()
                .map(|d| error_json(path, source, d))
                .collect();
            println!(
                "{:#}",
                json!({ "file": path, "valid": false, "errors": errors })
            );
            ExitCode::FAILURE
        }
    }
}

fn error_json(path: &str, source: &str, d: &Diagnostic) -> serde_json::Value {
    let at = Located::new(path, source, d);
    json!({ "file": at.file, "line": at.line, "column": at.column, "message": d.message, "help": d.help })
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

fn summary(path: &str, c: &Catalog) -> String {
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
