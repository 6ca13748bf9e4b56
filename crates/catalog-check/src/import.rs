//! MCP → catalog: an MCP `tools/list` result as the text of a valid `catalog.toml`, one row
//! per tool, losing nothing. `cargo catalog import --from mcp` is a command-line shell over
//! [`from_mcp`].
//!
//! Each parameter is mapped into the catalog's type language when the type language says
//! exactly the same; anything it cannot say (a combinator, a `format`, a default that does
//! not fit, ...) is kept as the original JSON through the `schema = '...'` escape hatch, at
//! the smallest level that needs it (a property, an array's items, a parameter). A whole
//! input that the parameter table cannot hold (extra top-level keys, property names the
//! format rejects) goes through the tool-level `input-schema = '...'` instead.
//!
//! Every tool is discoverable. Its effect comes from the annotations ([`effect_of`]): a
//! tool that reads runs silently, every other one is gated. The catalog denies the `poisoned-description` lint: an
//! imported description that addresses the model fails the build until reviewed. Names are kept exactly: where two of them would become the
//! same Rust identifier or generated type, the later one gets a numbered `rust-name`. A
//! search tool and an ask tool are added.
//!
//! The mapping's own model is in `model`, JSON Schema → type language in `schema`, the
//! `rust-name`s in `names`, the report in `report`, the TOML text in `write`, and the
//! import from a live server in `server`.
//!
//! ```
//! let tools_list = serde_json::json!({"tools": [{
//!     "name": "get_weather",
//!     "description": "Current weather for a city.",
//!     "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
//!     "annotations": {"readOnlyHint": true}
//! }]});
//! let imported = catalog_check::import::from_mcp("tools.json", &tools_list).unwrap();
//! let catalog = catalog_check::compile(&imported.toml).unwrap();
//! assert_eq!(catalog.tools.len(), 3); // with the added search and ask tools
//! assert_eq!(imported.report.tools(), 1);
//! print!("{}", imported.report); // what was mapped exactly, what was kept as JSON, ...
//! ```

use serde_json::Value;

mod model;
mod names;
mod offers;
mod report;
mod schema;
mod server;
mod write;

pub use model::Server;
pub use offers::{Offers, OffersImported, import_offers, snapshot_key};
pub use report::Report;
pub use server::{FromServer, from_server};

use model::{Input, Row};
use names::{agent_tools, assign_rust_names, role_variants};
use schema::{exact_or_raw, input};
use write::{one_line, write_catalog};

/// A catalog imported from MCP: its TOML text and what the mapping did.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The `catalog.toml` text. It compiles with [`crate::compile`] unless a bug in the
    /// importer says otherwise; callers should still compile it before relying on it.
    pub toml: String,
    /// What was mapped exactly, kept as JSON, renamed or dropped.
    pub report: Report,
}

/// Imports an MCP `tools/list` result: `{"tools": [...]}`, bare or as the `result` of a
/// JSON-RPC response. `base_name` names the source in the catalog's header comment
/// (control characters become spaces); give a file name, not a machine-specific path.
///
/// # Errors
/// When `tools_list` has no `tools` array at the top, or a tool has no string `name`.
pub fn from_mcp(base_name: &str, tools_list: &Value) -> Result<Imported, String> {
    import(base_name, tools_list).map(|(toml, report)| Imported { toml, report })
}

/// The tool rows of a `tools/list` result (bare, or inside a JSON-RPC `result`).
fn tools_of(doc: &Value) -> Result<&Vec<Value>, String> {
    let doc = match doc.get("result") {
        Some(r) if doc.get("tools").is_none() => r,
        _ => doc,
    };
    doc.get("tools")
        .and_then(Value::as_array)
        .ok_or_else(|| "no `tools` array at the top".to_string())
}

/// The catalog text and the report.
fn import(base: &str, doc: &Value) -> Result<(String, Report), String> {
    let mut report = Report::default();
    let tools = servable(tools_of(doc)?, &mut report);
    let mut rows = rows_of(&tools, &mut report)?;
    let (search, ask) = agent_tools(&rows);
    assign_rust_names(&mut rows, &role_variants(&search, &ask));
    for row in &rows {
        report.add(row);
    }
    report.search.clone_from(&search);
    report.ask.clone_from(&ask);
    let source = format!("`cargo catalog import --from mcp` from {}", one_line(base));
    let toml = write_catalog(&source, &rows, &search, &ask, None);
    compare_schemas(&toml, &rows, &tools, &mut report);
    Ok((toml, report))
}

/// The tools a catalog can serve as their server defines them; each other one is left
/// out and named in the report with why. A tool that requires running as a task
/// (`execution.taskSupport: "required"`) is a gateway's to forward, whose upstream
/// answers the call as it would the client direct; a catalog of the application's own
/// runs no tasks.
fn servable(tools: &[Value], report: &mut Report) -> Vec<Value> {
    tools
        .iter()
        .filter(|tool| {
            let required = !report.served
                && tool.pointer("/execution/taskSupport") == Some(&Value::from("required"));
            if required {
                let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
                report.refused.push(format!(
                    "`{name}`: its `execution.taskSupport` is \"required\", and calls here are never tasks"
                ));
            }
            !required
        })
        .cloned()
        .collect()
}

/// Holds each imported row's schemas, as the catalog compiles them, to the server's: every
/// place where they differ goes in the report (none, unless the importer has a bug).
fn compare_schemas(toml: &str, rows: &[Row], tools: &[Value], report: &mut Report) {
    let Ok(catalog) = crate::validate(toml) else {
        // A catalog that does not compile is reported by the caller, with its errors.
        return;
    };
    for (row, tool) in rows.iter().zip(tools) {
        let Some(compiled) = catalog.tools.iter().rev().find(|t| t.name == row.name) else {
            continue;
        };
        let mut changed = Vec::new();
        let empty = serde_json::json!({"type": "object"});
        let input = tool.get("inputSchema").unwrap_or(&empty);
        for pointer in crate::pin::schema_differences(&crate::schema::mcp_input(compiled), input) {
            changed.push(format!("/inputSchema{pointer}"));
        }
        match (crate::schema::output(compiled), tool.get("outputSchema")) {
            (None, None) => {}
            (Some(out), Some(server)) => {
                for pointer in crate::pin::schema_differences(&out, server) {
                    changed.push(format!("/outputSchema{pointer}"));
                }
            }
            _ => changed.push("/outputSchema".to_string()),
        }
        if !changed.is_empty() {
            report
                .changed
                .push(format!("`{}`: {}", row.name, changed.join(", ")));
        }
    }
}

/// One row per tool, in order, with the report's notes on what had no place in a row.
fn rows_of(tools: &[Value], report: &mut Report) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (i, tool) in tools.iter().enumerate() {
        let name = tool
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("tool {} has no string `name`", i + 1))?
            .to_string();
        let text = |v: Option<&Value>| {
            v.and_then(Value::as_str)
                .filter(|s| !s.trim().is_empty())
                .map(str::to_string)
        };
        let annotations = tool.get("annotations");
        report.not_kept(tool, annotations, text(tool.get("description")).is_some());
        let title =
            text(tool.get("title")).or_else(|| text(annotations.and_then(|a| a.get("title"))));
        let description = text(tool.get("description"))
            .or_else(|| {
                let title = title.clone()?;
                report.titled_descriptions.push(name.clone());
                Some(title)
            })
            .unwrap_or_else(|| {
                report.filled_descriptions.push(name.clone());
                name.clone()
            });
        let effect = effect_of(annotations);
        let (input, additional_params) = match tool.get("inputSchema") {
            None => (Input::Params(Vec::new()), false),
            Some(schema) => input(schema),
        };
        let output = tool.get("outputSchema").map(|s| exact_or_raw(s, false));
        rows.push(Row {
            name,
            rust_name: None,
            description,
            effect,
            input,
            additional_params,
            output,
            upstream: None,
            json_arguments: false,
        });
    }
    Ok(rows)
}

/// **An imported tool's effect**, from its MCP annotations, by
/// [`Effect::from_hints`](crate::model::Effect::from_hints).
#[must_use]
pub fn effect_of(annotations: Option<&Value>) -> crate::model::Effect {
    crate::model::Effect::from_hints(|key| {
        annotations
            .and_then(|a| a.get(key))
            .and_then(Value::as_bool)
    })
}
