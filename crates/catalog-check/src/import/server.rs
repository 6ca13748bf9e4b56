//! A live MCP server → catalog rows it serves: its `tools/list` as rows that name the
//! server (`upstream`) and pin each tool's definition (`upstream-digest`), in a new catalog
//! or appended to an existing one.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::Value;

use super::model::{Row, RowSource, Server};
use super::names::{Taken, agent_tools, assign_rust_names, role_variants};
use super::write::{one_line, write_catalog, write_row, write_upstream};
use super::{Imported, Report, compare_schemas, rows_of, servable};
use crate::model::{Arguments, Transport};
use crate::{names, pin};

/// What [`from_server`] made: the catalog and report, and the definitions it pinned.
#[derive(Debug, Clone)]
pub struct FromServer {
    /// The catalog text (a new one, or the existing text with the new rows after it) and
    /// what the mapping did.
    pub imported: Imported,
    /// Each imported tool's `tools/list` object exactly as the server sent it, by its name
    /// on the server: what each row's `upstream-digest` is the [`pin::digest`] of.
    /// Store it beside the catalog, so that when a digest no longer matches,
    /// [`pin::changes`] can name the fields that changed.
    pub wire: BTreeMap<String, Value>,
    /// On a re-import into a catalog that already declares the server: the rows whose
    /// `upstream-digest` was rewritten because the server's definition changed. Their
    /// other keys are as the user left them, to be reviewed against the new definition.
    pub repinned: Vec<String>,
    /// On a re-import: the rows whose tool the server no longer lists. They are kept (a
    /// gateway withholds them) for the user to delete.
    pub gone: Vec<String>,
}

/// Imports the tools a live server lists (`tools`: the `tools` array of its `tools/list`
/// result) as rows served by it.
///
/// With `into` = `None`, the result is a new catalog as [`super::from_mcp`] writes it
/// (the same rows, header, search and ask tools) with the server's `[[upstream]]` table,
/// and every row names it and pins its tool's digest. With `into` = the text of an
/// existing catalog, that text is kept byte for byte and the table and rows are appended
/// after it: the catalog keeps its own search and ask tools, settings and lints. An
/// imported tool whose name a row of the catalog already has is an error, unless
/// `prefix` is given: then that row is named `prefix` + its name and says
/// `upstream-tool = "<its name on the server>"`. Rust names that would collide with the
/// catalog's get a numbered `rust-name`, as [`super::from_mcp`] gives them.
///
/// ```
/// use catalog_check::import::{Server, from_server};
/// use catalog_check::model::Transport;
///
/// let server = Server {
///     name: "time".into(),
///     transport: Transport::Stdio { command: "mcp-server-time".into(), args: vec![], env: vec![] },
/// };
/// let tools = [serde_json::json!({
///     "name": "get_current_time",
///     "description": "Current time in a timezone.",
///     "inputSchema": {"type": "object", "properties": {"timezone": {"type": "string"}}},
///     "annotations": {"readOnlyHint": true}
/// })];
/// let done = from_server(&server, &tools, None, None).unwrap();
/// let catalog = catalog_check::compile(&done.imported.toml).unwrap();
/// let source = catalog.tools[2].upstream.as_ref().unwrap();
/// assert_eq!((source.upstream.as_str(), source.tool.as_str()), ("time", "get_current_time"));
/// assert_eq!(source.digest, catalog_check::pin::digest(&done.wire["get_current_time"]));
/// print!("{}", done.imported.toml);
/// ```
///
/// # Errors
/// When the server's name or transport could not be an `[[upstream]]`, a tool has no string
/// `name` or the server lists a name twice, `into` has errors, or imported names
/// collide with the catalog's rows (every one is named) and no usable `prefix` is given.
pub fn from_server(
    server: &Server,
    tools: &[Value],
    into: Option<&str>,
    prefix: Option<&str>,
) -> Result<FromServer, String> {
    check_server(server)?;
    let mut wire = BTreeMap::new();
    for (i, tool) in tools.iter().enumerate() {
        let name = tool
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("tool {} has no string `name`", i + 1))?;
        if wire.insert(name.to_string(), tool.clone()).is_some() {
            return Err(format!(
                "the server lists tool `{name}` twice: a row serves one tool, found by its name; fix the server"
            ));
        }
    }
    let mut report = Report::default();
    report.served = true;
    let tools = servable(tools, &mut report);
    wire.retain(|name, _| {
        tools
            .iter()
            .any(|t| t.get("name").and_then(Value::as_str) == Some(name))
    });
    let mut rows = rows_of(&tools, &mut report)?;
    for (row, tool) in rows.iter_mut().zip(&tools) {
        row.upstream = Some(RowSource {
            upstream: server.name.clone(),
            tool: None,
            digest: pin::digest(tool),
        });
    }
    let mut repinned = Vec::new();
    let mut gone = Vec::new();
    let toml = match into {
        Some(text) if declares(text, &server.name) => {
            let (text, pinned) = repin(server, text, &wire, &mut repinned, &mut gone)?;
            rows.retain(|row| !pinned.contains(&row.name));
            if rows.is_empty() {
                text
            } else {
                append(server, &text, &mut rows, prefix, &mut report)?
            }
        }
        None => {
            let (search, ask) = agent_tools(&rows);
            assign_rust_names(&mut rows, &role_variants(&search, &ask));
            report.search.clone_from(&search);
            report.ask.clone_from(&ask);
            let source = format!(
                "`cargo catalog import` from the MCP server `{}`",
                one_line(&server.name)
            );
            write_catalog(&source, &rows, &search, &ask, Some(server))
        }
        Some(text) => append(server, text, &mut rows, prefix, &mut report)?,
    };
    for row in &rows {
        report.add(row);
    }
    let pinned_rows: Vec<&Value> = rows
        .iter()
        .filter_map(|row| {
            let name = row.upstream.as_ref()?.tool.as_deref().unwrap_or(&row.name);
            wire.get(name)
        })
        .collect();
    if pinned_rows.len() == rows.len() {
        let pinned: Vec<Value> = pinned_rows.into_iter().cloned().collect();
        compare_schemas(&toml, &rows, &pinned, &mut report);
    }
    Ok(FromServer {
        imported: Imported { toml, report },
        wire,
        repinned,
        gone,
    })
}

/// Whether the catalog `text` declares an upstream named `name` (an invalid catalog is
/// reported by [`append`]).
fn declares(text: &str, name: &str) -> bool {
    crate::validate(text).is_ok_and(|c| c.upstreams.iter().any(|u| u.name == name))
}

/// A re-import's pins: each row pinned to `server` whose tool's digest changed gets the
/// new one, rewritten inside the row's own text. Returns the new text and the server's
/// tool names that rows already pin.
fn repin(
    server: &Server,
    text: &str,
    wire: &BTreeMap<String, Value>,
    repinned: &mut Vec<String>,
    gone: &mut Vec<String>,
) -> Result<(String, BTreeSet<String>), String> {
    let catalog = crate::validate(text).map_err(|_| "the catalog has errors".to_string())?;
    let mut out = text.to_string();
    let mut pinned = BTreeSet::new();
    let mut headers: Vec<usize> = catalog
        .tools
        .iter()
        .map(|t| t.spans.row.start)
        .chain(catalog.upstreams.iter().map(|u| u.span.start))
        .chain(catalog.offers.iter().map(|o| o.span.start))
        .collect();
    headers.sort_unstable();
    // From the end, so the spans of the rows before stay valid.
    for tool in catalog.tools.iter().rev() {
        let Some(source) = tool.upstream.as_ref().filter(|s| s.upstream == server.name) else {
            continue;
        };
        pinned.insert(source.tool.clone());
        let Some(now) = wire.get(&source.tool) else {
            gone.push(tool.name.clone());
            continue;
        };
        let digest = pin::digest(now);
        if digest == source.digest {
            continue;
        }
        // The row's text runs to the next `[[tool]]`, `[[upstream]]`, `[[prompt]]` or
        // `[[resource]]` header.
        let start = tool.spans.row.start;
        let end = headers
            .iter()
            .copied()
            .find(|&h| h > start)
            .unwrap_or(out.len());
        let row = start..end;
        let within = &out[row.clone()];
        if within.matches(source.digest.as_str()).count() != 1 {
            return Err(format!(
                "cannot find the one `upstream-digest` of `{}` in its row: write `upstream-digest = \"{digest}\"` there by hand",
                tool.name
            ));
        }
        let rewritten = within.replacen(source.digest.as_str(), &digest, 1);
        out.replace_range(row, &rewritten);
        repinned.push(tool.name.clone());
    }
    repinned.reverse();
    gone.reverse();
    Ok((out, pinned))
}

/// The server can be written as an `[[upstream]]` table the compiler accepts.
fn check_server(server: &Server) -> Result<(), String> {
    let name = &server.name;
    if !pin::is_name(name) {
        return Err(format!(
            "`{name}` cannot name an upstream: use lowercase letters, digits, `-` and `_` (`--name`)"
        ));
    }
    match &server.transport {
        Transport::Http { url, .. } if !pin::is_url(url) => Err(format!(
            "`{url}` is not an HTTP address: give the server's streamable HTTP endpoint, starting with `http://` or `https://`"
        )),
        Transport::Stdio { command, .. } if command.trim().is_empty() => {
            Err("the command is empty: name the program that runs the server".to_string())
        }
        Transport::Stdio { env, .. } => match env
            .iter()
            .find(|(k, _)| k.is_empty() || k.contains(['=', '\0']))
        {
            Some((k, _)) => Err(format!(
                "`{k}` is not an environment variable name: use a name without `=`"
            )),
            None => Ok(()),
        },
        Transport::Http { .. } => Ok(()),
    }
}

/// The existing catalog `text`, then the server's table and `rows`, named and renamed to
/// fit beside the catalog's rows.
fn append(
    server: &Server,
    text: &str,
    rows: &mut [Row],
    prefix: Option<&str>,
    report: &mut Report,
) -> Result<String, String> {
    let catalog = crate::validate(text).map_err(|errors| {
        let first = errors.first().map_or_else(String::new, |d| {
            let (line, _) = crate::diag::line_col(text, d.span.start);
            format!(" (line {line}: {})", d.message)
        });
        format!(
            "the catalog to import into has {} error{}{first}: fix it first (`cargo catalog check` lists them)",
            errors.len(),
            if errors.len() == 1 { "" } else { "s" }
        )
    })?;
    // Declared already: a re-import adding the tools no row pins yet.
    let declared = catalog.upstreams.iter().any(|u| u.name == server.name);
    let taken: BTreeSet<&str> = catalog.tools.iter().map(|t| t.name.as_str()).collect();
    let colliding: Vec<String> = rows
        .iter()
        .filter(|r| taken.contains(r.name.as_str()))
        .map(|r| r.name.clone())
        .collect();
    if !colliding.is_empty() {
        let Some(prefix) = prefix else {
            let list: Vec<String> = colliding.iter().map(|n| format!("`{n}`")).collect();
            return Err(format!(
                "the catalog already has tools named {}: give a prefix (`--prefix {}_`) to import them as `{}_<name>`",
                list.join(", "),
                server.name,
                server.name
            ));
        };
        let own: BTreeSet<String> = rows.iter().map(|r| r.name.clone()).collect();
        for row in rows.iter_mut() {
            if !taken.contains(row.name.as_str()) {
                continue;
            }
            let renamed = format!("{prefix}{}", row.name);
            if !names::is_tool_name(&renamed) {
                return Err(format!(
                    "`{renamed}` is not a valid tool name: choose a prefix of A-Z a-z 0-9 _ - . that keeps names within 128 characters"
                ));
            }
            if taken.contains(renamed.as_str()) || own.contains(&renamed) {
                return Err(format!(
                    "with the prefix `{prefix}`, `{renamed}` is taken too: choose another prefix"
                ));
            }
            report.renamed.push(format!("`{}` → `{renamed}`", row.name));
            let original = std::mem::replace(&mut row.name, renamed);
            if let Some(source) = &mut row.upstream {
                source.tool = Some(original);
            }
        }
    }
    let existing = Taken {
        variants: catalog
            .tools
            .iter()
            .map(crate::model::Tool::variant)
            .collect(),
        types: catalog
            .tools
            .iter()
            .flat_map(crate::model::Tool::generated_types)
            .map(|g| g.name)
            .collect(),
    };
    assign_rust_names(rows, &existing);
    let json = catalog.settings.arguments == Arguments::Json;
    for row in rows.iter_mut() {
        // Served by the gateway, not by a handler method of the application.
        row.json_arguments = !json;
    }
    report.search.clone_from(&catalog.search_tool().name);
    report.ask.clone_from(&catalog.ask_tool().name);
    let mut out = text.to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    if declared {
        let _ = write!(
            out,
            "\n# Re-imported by `cargo catalog import`: tools the MCP server `{}` lists since its\n# first import, each pinned to its definition as imported (`upstream-digest`).\n",
            server.name
        );
    } else {
        let _ = write!(
            out,
            "\n# Imported by `cargo catalog import` from the MCP server `{}`: the rows below are its\n# tools, each pinned to its definition as imported (`upstream-digest`).\n",
            server.name
        );
        write_upstream(&mut out, server);
    }
    for row in rows.iter() {
        write_row(&mut out, row);
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
