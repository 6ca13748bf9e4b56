//! A live MCP server → catalog rows it serves: its `tools/list` as rows that name the
//! server (`upstream`) and pin each tool's definition (`upstream-digest`), in a new catalog
//! or appended to an existing one.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::Value;

use super::{
    Imported, Report, Row, RowSource, Taken, agent_tools, assign_rust_names, key, one_line,
    rows_of, string, write_catalog, write_row,
};
use crate::model::{Arguments, Transport};
use crate::{names, upstream};

/// A live MCP server to import: the `[[upstream]]` table its rows will name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server {
    /// The upstream's name in the catalog (lowercase letters, digits, `-`, `_`).
    pub name: String,
    /// How the gateway reaches it.
    pub transport: Transport,
}

/// What [`from_server`] made: the catalog and report, and the definitions it pinned.
#[derive(Debug, Clone)]
pub struct FromServer {
    /// The catalog text (a new one, or the existing text with the new rows after it) and
    /// what the mapping did.
    pub imported: Imported,
    /// Each imported tool's `tools/list` object exactly as the server sent it, by its name
    /// on the server: what each row's `upstream-digest` is the [`upstream::digest`] of.
    /// Store it beside the catalog, so that when a digest no longer matches,
    /// [`upstream::changes`] can name the fields that changed.
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
/// use catalog_compiler::import::{Server, from_server};
/// use catalog_compiler::model::Transport;
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
/// let catalog = catalog_compiler::compile(&done.imported.toml).unwrap();
/// let source = catalog.tools[2].upstream.as_ref().unwrap();
/// assert_eq!((source.upstream.as_str(), source.tool.as_str()), ("time", "get_current_time"));
/// assert_eq!(source.digest, catalog_compiler::upstream::digest(&done.wire["get_current_time"]));
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
    let mut rows = rows_of(tools, &mut report)?;
    for (row, tool) in rows.iter_mut().zip(tools) {
        row.upstream = Some(RowSource {
            upstream: server.name.clone(),
            tool: None,
            digest: upstream::digest(tool),
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
            assign_rust_names(&mut rows, &super::role_variants(&search, &ask));
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
        let digest = upstream::digest(now);
        if digest == source.digest {
            continue;
        }
        // The row's text runs to the next `[[tool]]` or `[[upstream]]` header.
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
    if !upstream::is_name(name) {
        return Err(format!(
            "`{name}` cannot name an upstream: use lowercase letters, digits, `-` and `_` (`--name`)"
        ));
    }
    match &server.transport {
        Transport::Http { url } if !upstream::is_url(url) => Err(format!(
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

/// The `[[upstream]]` table.
pub(super) fn write_upstream(out: &mut String, server: &Server) {
    let _ = write!(out, "\n[[upstream]]\nname = {}\n", string(&server.name));
    match &server.transport {
        Transport::Stdio { command, args, env } => {
            let _ = writeln!(out, "command = {}", string(command));
            if !args.is_empty() {
                let list: Vec<String> = args.iter().map(|a| string(a)).collect();
                let _ = writeln!(out, "args = [{}]", list.join(", "));
            }
            if !env.is_empty() {
                let vars: Vec<String> = env
                    .iter()
                    .map(|(k, v)| format!("{} = {}", key(k), string(v)))
                    .collect();
                let _ = writeln!(out, "env = {{ {} }}", vars.join(", "));
            }
        }
        Transport::Http { url } => {
            let _ = writeln!(out, "url = {}", string(url));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::TEST_HEAD;
    use crate::model::{Catalog, Source, Upstream};

    /// Two tools as `mcp-server-time` lists them, the first with annotations and `_meta`.
    fn time_tools() -> Vec<Value> {
        let zone = "IANA timezone name (e.g., 'America/New_York', 'Europe/London').";
        vec![
            json!({
                "name": "get_current_time",
                "description": "Get current time in a specific timezones",
                "inputSchema": {
                    "type": "object",
                    "properties": {"timezone": {"type": "string", "description": zone}},
                    "required": ["timezone"]
                },
                "annotations": {"readOnlyHint": true, "title": "Current time"},
                "_meta": {"io.example/version": "2025.1"}
            }),
            json!({
                "name": "convert_time",
                "description": "Convert time between timezones",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "source_timezone": {"type": "string", "description": zone},
                        "time": {"type": "string", "description": "Time to convert in 24-hour format (HH:MM)"},
                        "target_timezone": {"type": "string", "description": zone}
                    },
                    "required": ["source_timezone", "time", "target_timezone"]
                }
            }),
        ]
    }

    fn stdio() -> Server {
        Server {
            name: "time".into(),
            transport: Transport::Stdio {
                command: "mcp-server-time".into(),
                args: vec!["--local-timezone".into(), "UTC".into()],
                env: vec![("TZ".into(), "UTC".into())],
            },
        }
    }

    fn http(name: &str) -> Server {
        Server {
            name: name.into(),
            transport: Transport::Http {
                url: "http://127.0.0.1:8000/mcp".into(),
            },
        }
    }

    fn compiled(text: &str) -> Catalog {
        crate::compile(text)
            .unwrap_or_else(|e| panic!("{}", crate::render_all("catalog.toml", text, &e)))
    }

    /// Every row that names an upstream pins the digest of the wire object it names.
    fn assert_pinned(catalog: &Catalog, wire: &BTreeMap<String, Value>, upstream: &str) {
        let sources: Vec<&Source> = catalog
            .tools
            .iter()
            .filter_map(|t| t.upstream.as_ref())
            .collect();
        assert_eq!(sources.len(), wire.len());
        for source in sources {
            assert_eq!(source.upstream, upstream);
            assert_eq!(
                source.digest,
                upstream::digest(&wire[&source.tool]),
                "{}",
                source.tool
            );
        }
    }

    #[test]
    fn a_new_catalog_has_the_rows_of_from_mcp_and_the_upstream() {
        let tools = time_tools();
        let done = from_server(&stdio(), &tools, None, None).unwrap();
        let catalog = compiled(&done.imported.toml);
        assert_eq!(
            catalog.upstreams,
            [Upstream {
                name: "time".into(),
                transport: stdio().transport,
                span: catalog.upstreams[0].span.clone(),
            }]
        );
        assert!(done.imported.toml.contains("\n[[upstream]]\nname = \"time\"\ncommand = \"mcp-server-time\"\nargs = [\"--local-timezone\", \"UTC\"]\nenv = { TZ = \"UTC\" }\n"));
        let wire: Vec<&Value> = done.wire.values().collect();
        assert_eq!(wire, [&tools[1], &tools[0]], "by name, exactly as sent");
        assert_pinned(&catalog, &done.wire, "time");
        let row = catalog
            .tools
            .iter()
            .find(|t| t.name == "get_current_time")
            .unwrap();
        assert_eq!(
            row.upstream.as_ref().unwrap().digest,
            upstream::digest(&tools[0])
        );
        // The same rows as `from_mcp` writes, with the upstream keys added.
        let mcp = crate::import::from_mcp("tools.json", &json!({"tools": tools})).unwrap();
        let plain = compiled(&mcp.toml);
        let shape = |c: &Catalog| -> Vec<String> {
            c.tools
                .iter()
                .map(|t| {
                    format!(
                        "{} {:?} {:?} {:?} {}",
                        t.name, t.visibility, t.role, t.arguments, t.description
                    )
                })
                .collect()
        };
        assert_eq!(shape(&catalog), shape(&plain));
        // The whole text too, but for the first line (what made it), the upstream table
        // and its comment, and the rows' upstream keys.
        let table = done
            .imported
            .toml
            .find("\n# The server the tools below come from.")
            .unwrap();
        let end = table + done.imported.toml[table..].find("\n\n[[tool]]").unwrap() + 1;
        let text = format!(
            "{}{}",
            &done.imported.toml[..table],
            &done.imported.toml[end..]
        );
        let without: Vec<&str> = text
            .lines()
            .skip(1)
            .filter(|l| !l.starts_with("upstream"))
            .collect();
        let from_mcp: Vec<&str> = mcp.toml.lines().skip(1).collect();
        assert_eq!(without, from_mcp);
        assert_eq!(done.imported.report.tools(), 2);
        assert_eq!(done.imported.report.read_only(), 1);
    }

    #[test]
    fn into_keeps_the_catalog_byte_for_byte_and_appends_the_rows() {
        // No final line break, and a comment the compiler ignores: both kept.
        let text = format!("# Our own tools.\n{}", TEST_HEAD.trim_end());
        let done = from_server(&http("web"), &time_tools(), Some(&text), None).unwrap();
        let toml = &done.imported.toml;
        assert!(toml.starts_with(&text));
        assert_eq!(
            toml.matches("[settings]").count(),
            1,
            "no second settings table"
        );
        let catalog = compiled(toml);
        assert_eq!(
            catalog.tools.len(),
            4,
            "searchTools, ask and the two imported"
        );
        assert_eq!(catalog.search_tool().name, "searchTools");
        assert_eq!(catalog.upstreams[0].transport, http("web").transport);
        assert_pinned(&catalog, &done.wire, "web");
        for t in &catalog.tools[2..] {
            assert_eq!(
                t.arguments,
                Arguments::Json,
                "{}: the gateway serves it",
                t.name
            );
        }
        assert_eq!(done.imported.report.search_tool(), "searchTools");
    }

    #[test]
    fn names_the_catalog_has_are_errors_without_a_prefix() {
        let text = format!(
            "{TEST_HEAD}{}{}",
            row("convert_time"),
            row("get_current_time")
        );
        let e = from_server(&stdio(), &time_tools(), Some(&text), None).unwrap_err();
        assert!(e.contains("`get_current_time`, `convert_time`"), "{e}");
        assert!(e.contains("`--prefix time_`"), "{e}");
    }

    #[test]
    fn a_prefix_renames_the_colliding_rows_and_keeps_their_name_on_the_server() {
        let text = format!("{TEST_HEAD}{}", row("convert_time"));
        let done = from_server(&stdio(), &time_tools(), Some(&text), Some("time_")).unwrap();
        let catalog = compiled(&done.imported.toml);
        let names: Vec<&str> = catalog.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "searchTools",
                "ask",
                "convert_time",
                "get_current_time",
                "time_convert_time"
            ]
        );
        let renamed = catalog
            .tools
            .iter()
            .find(|t| t.name == "time_convert_time")
            .unwrap();
        assert_eq!(renamed.upstream.as_ref().unwrap().tool, "convert_time");
        assert!(
            done.imported
                .toml
                .contains("name = \"time_convert_time\"\n")
        );
        assert!(
            done.imported
                .toml
                .contains("upstream-tool = \"convert_time\"\n")
        );
        assert_eq!(done.imported.toml.matches("upstream-tool").count(), 1);
        assert_pinned(&catalog, &done.wire, "time");
        assert_eq!(
            done.imported.report.renamed(),
            ["`convert_time` → `time_convert_time`"]
        );
        let e = from_server(&stdio(), &time_tools(), Some(&text), Some("no space ")).unwrap_err();
        assert!(e.contains("is not a valid tool name"), "{e}");
    }

    #[test]
    fn rust_names_the_catalog_has_get_numbered() {
        let text = format!("{TEST_HEAD}{}", row("getCurrentTime"));
        let done = from_server(&stdio(), &time_tools(), Some(&text), None).unwrap();
        let catalog = compiled(&done.imported.toml);
        let row = catalog
            .tools
            .iter()
            .find(|t| t.name == "get_current_time")
            .unwrap();
        assert_eq!(row.rust_name.as_deref(), Some("GetCurrentTime2"));
    }

    #[test]
    fn a_reimport_repins_changed_tools_in_place_and_adds_new_ones() {
        let tools = time_tools();
        let first = from_server(&stdio(), &tools, None, None).unwrap();
        // The reviewer's own edit, which a re-import keeps.
        let reviewed = first.imported.toml.replacen(
            "visibility = \"discoverable\"",
            "visibility = \"inline\"",
            1,
        );
        let mut now = vec![
            tools[0].clone(),
            json!({"name": "get_time_zones", "inputSchema": {"type": "object"}}),
        ];
        now[0]["description"] = json!("Get the current time, now in any timezone.");
        let again = from_server(&stdio(), &now, Some(&reviewed), None).unwrap();
        let changed = tools[0]["name"].as_str().unwrap();
        assert_eq!(again.repinned, [changed]);
        assert_eq!(again.gone, [tools[1]["name"].as_str().unwrap()]);
        let toml = &again.imported.toml;
        let old = upstream::digest(&tools[0]);
        let new = upstream::digest(&now[0]);
        // Only the digest changed in what was there; the new tool comes after it.
        assert_eq!(toml[..reviewed.len()].replacen(&new, &old, 1), reviewed);
        let catalog = compiled(toml);
        let pinned = |name: &str| {
            let found = catalog.tools.iter().find(|t| t.name == name).unwrap();
            found.upstream.as_ref().unwrap().digest.clone()
        };
        assert_eq!(pinned(changed), new);
        assert_eq!(pinned("get_time_zones"), upstream::digest(&now[1]));
        assert_eq!(catalog.upstreams.len(), 1);
        assert!(toml.contains("visibility = \"inline\""));
    }

    #[test]
    fn bad_inputs_are_errors_that_say_what_to_do() {
        let tools = time_tools();
        let e = from_server(
            &stdio(),
            &tools,
            Some("[settings]\nsearch-tool = 1\n"),
            None,
        )
        .unwrap_err();
        assert!(e.starts_with("the catalog to import into has"), "{e}");
        let twice = [tools[0].clone(), tools[0].clone()];
        let e = from_server(&stdio(), &twice, None, None).unwrap_err();
        assert!(e.contains("lists tool `get_current_time` twice"), "{e}");
        let e = from_server(&http("Time"), &tools, None, None).unwrap_err();
        assert!(e.contains("`Time` cannot name an upstream"), "{e}");
        let mut ftp = http("web");
        ftp.transport = Transport::Http {
            url: "ftp://x".into(),
        };
        assert!(
            from_server(&ftp, &tools, None, None)
                .unwrap_err()
                .contains("not an HTTP address")
        );
        let e = from_server(&stdio(), &[json!({"description": "x"})], None, None).unwrap_err();
        assert_eq!(e, "tool 1 has no string `name`");
    }

    /// A plain row of the catalog imported into.
    fn row(name: &str) -> String {
        format!(
            "\n[[tool]]\nname = \"{name}\"\ndescription = \"Our own {name}.\"\nvisibility = \"inline\"\ntier = \"silent\"\naccess = \"read-only\"\n"
        )
    }
}
