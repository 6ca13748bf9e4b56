//! The closing table of `check`: every lint, its level in this catalog, its findings.

use std::fmt::Write as _;

use catalog_check::lint::{self, Report};
use catalog_check::model::CatalogModel;
use serde_json::json;

/// The closing table: every lint, its level here, what it checks, its findings.
pub(crate) fn lints_table(c: &CatalogModel, report: &Report) -> String {
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

/// The same table as JSON: `findings` is `null` for a lint that did not run.
pub(crate) fn lints_json(c: &CatalogModel, report: &Report) -> serde_json::Value {
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
