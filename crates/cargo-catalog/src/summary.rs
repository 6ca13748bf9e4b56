//! What a valid catalog declares: its derived sets, its settings and the search tool's
//! description, then the token, reach and lint reports, and the closing count.

use std::fmt::Write as _;

use catalog_check::lint::{Level, Report};
use catalog_check::model::{CatalogModel, DERIVED_SETS};
use serde_json::json;

use crate::lints::lints_table;
use crate::numbers::plural;
use crate::reach::reach_text;
use crate::tokens::tokens_table;

/// Derived sets by name, members in catalog order: the list the generated `Catalog` uses.
fn sets(c: &CatalogModel) -> Vec<(&'static str, Vec<&str>)> {
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

/// The human report that follows the findings of a valid catalog.
pub(crate) fn summary(path: &str, c: &CatalogModel, report: &Report) -> String {
    let errors = report
        .findings
        .iter()
        .filter(|f| f.level == Level::Deny)
        .count();
    let verdict = match errors {
        0 => "valid".to_string(),
        1 => "not valid: a denied lint above fails the build".to_string(),
        n => format!("not valid: {n} findings of denied lints above fail the build"),
    };
    let mut out = format!("{path}: {verdict}, {} tools\n\n", c.tools.len());
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
    let warnings = report.findings.len() - errors;
    let _ = writeln!(
        out,
        "\n{path}: {errors} error{}, {warnings} warning{}",
        plural(errors),
        plural(warnings)
    );
    out
}

/// The derived sets and settings as JSON.
pub(crate) fn summary_json(c: &CatalogModel) -> serde_json::Value {
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
