//! The reach report: which examples the catalog's own search answers. The search runs in
//! the `unnamed-need` lint ([`catalog_check::lint`]); this module prints what it found.

use std::fmt::Write as _;

use catalog_check::lint::Report;
use catalog_check::model::{CatalogModel, Visibility};
use serde_json::json;

/// The reach report: inline tools that search finds from every example (candidates to
/// defer), inline tools that some example does not find (the unnamed needs that keep them
/// inline), and how many examples of discoverable tools search answers.
pub(crate) fn reach_text(c: &CatalogModel, report: &Report) -> String {
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

/// Every searched example with its rank, per tool, as JSON; `null` when the lint did not
/// run.
pub(crate) fn reach_json(c: &CatalogModel, report: &Report) -> serde_json::Value {
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
