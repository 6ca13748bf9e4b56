//! `import --from-server` and `--from-url`: a live MCP server's tools as catalog rows that
//! record the server and pin each tool's definition, and its prompts, resources and
//! resource templates as `[[prompt]]` and `[[resource]]` tables pinned the same way. The mapping is
//! [`catalog_check::import::from_server`]; this lists the server, writes the catalog
//! (or appends to one, leaving what is there as it is) and the snapshot of definitions.

use std::path::Path;
use std::process::ExitCode;

use catalog_check::import::{FromServer, Offers, OffersImported, import_offers};
use catalog_check::model::Transport;
use catalog_upstream::drift::{self, Snapshot};

use crate::args::{Import, Usage};

/// Which server to import, under which name, into which catalog.
pub(crate) struct Server {
    name: String,
    endpoint: Transport,
    prefix: Option<String>,
    target: Target,
}

/// Where the rows go.
enum Target {
    /// A new catalog.
    Out(String),
    /// After the text of an existing one.
    Into(String),
}

impl Server {
    /// The server's arguments: `--from-server` with the command after `--`, or
    /// `--from-url URL`; `--name` defaults to the program's file name or the URL's host.
    /// Clap has checked which go together.
    pub(crate) fn from_args(args: Import) -> Result<Server, Usage> {
        let endpoint = match (args.from_url, args.command.split_first()) {
            (Some(url), _) => Transport::Http {
                url,
                headers: Vec::new(),
                oauth: None,
            },
            (None, Some((program, rest))) => Transport::Stdio {
                command: program.clone(),
                args: rest.to_vec(),
                env: Vec::new(),
            },
            (None, None) => {
                return Err(Usage(
                    "`--from-server` needs the server's command after `--`, e.g. `-- mcp-server-time`".into(),
                ));
            }
        };
        let target = match (args.out, args.into) {
            (Some(out), None) => Target::Out(out),
            (None, Some(into)) => Target::Into(into),
            _ => {
                return Err(Usage(
                    "give `--out PATH` (a new catalog) or `--into PATH` (add to one)".into(),
                ));
            }
        };
        let name = match args.name {
            Some(name) => name,
            None => default_name(&endpoint).ok_or_else(|| {
                Usage("cannot derive a name for the server: give `--name NAME`".into())
            })?,
        };
        Ok(Server {
            name,
            endpoint,
            prefix: args.prefix,
            target,
        })
    }
}

/// The program's file name, or the URL's host, as an upstream name: lowercase, other
/// characters than letters, digits, `-` and `_` as `-`.
fn default_name(endpoint: &Transport) -> Option<String> {
    let raw = match endpoint {
        Transport::Stdio { command, .. } => Path::new(command)
            .file_stem()?
            .to_string_lossy()
            .into_owned(),
        Transport::Http { url, .. } => {
            let rest = url.split_once("://")?.1;
            let host = rest.split(['/', ':']).next()?;
            host.to_owned()
        }
    };
    let name: String = raw
        .to_lowercase()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    (!name.is_empty()).then_some(name)
}

/// A re-import that does not compile into the catalog at `path`: the catalog stays as it
/// is, and the combined text goes beside it for review, with the errors.
fn keep_for_review(
    server: &str,
    path: &str,
    combined: &str,
    diagnostics: &[catalog_check::Diagnostic],
) {
    let review = format!("{path}.import.toml");
    eprint!(
        "{}",
        catalog_check::render_all(&review, combined, diagnostics)
    );
    let kept = if std::fs::write(&review, combined).is_ok() {
        format!("; the combined catalog is in `{review}`")
    } else {
        String::new()
    };
    eprintln!(
        "error: the tools of `{server}` do not compile into `{path}`, which is unchanged{kept}"
    );
}

/// On a re-import, the endpoint with the `env`, or `headers` and `oauth`, that the
/// catalog's table of the server declares, read as the gateway reads them: a server that
/// wants a credential is listed with it.
fn with_declared(endpoint: &Transport, name: &str, existing: Option<&str>) -> Transport {
    let declared = existing
        .and_then(|text| catalog_check::validate(text).ok())
        .and_then(|c| c.upstreams.into_iter().find(|u| u.name == name));
    match (endpoint.clone(), declared.map(|u| u.transport)) {
        (Transport::Stdio { command, args, .. }, Some(Transport::Stdio { env, .. })) => {
            Transport::Stdio { command, args, env }
        }
        (Transport::Http { url, .. }, Some(Transport::Http { headers, oauth, .. })) => {
            Transport::Http {
                url,
                headers,
                oauth,
            }
        }
        (endpoint, _) => endpoint,
    }
}

/// On a re-import (the catalog at `path` declares the server already): each pinned row
/// whose tool changed or is gone, named from the snapshot on record.
fn changes_since_import(
    server: &Server,
    path: &str,
    existing: Option<&str>,
    listed: &[serde_json::Value],
) -> Vec<(String, drift::Standing)> {
    let Some(catalog) = existing
        .and_then(|text| catalog_check::validate(text).ok())
        .filter(|c| c.upstreams.iter().any(|u| u.name == server.name))
    else {
        return Vec::new();
    };
    let snapshot = Snapshot::read_for(Path::new(path)).unwrap_or_default();
    drift::compare(&catalog, &server.name, listed, &snapshot)
        .rows
        .into_iter()
        .filter(|(_, standing)| !standing.is_current())
        .map(|(i, standing)| (catalog.tools[i].name.clone(), standing))
        .collect()
}

/// The server's tools as rows, then its prompts, resources and templates as tables,
/// in a new catalog or after the text of `existing`.
fn map(
    server: &Server,
    listed: &[serde_json::Value],
    offers: &Offers,
    existing: Option<&str>,
) -> Result<(FromServer, OffersImported), String> {
    let source = catalog_check::import::Server {
        name: server.name.clone(),
        transport: server.endpoint.clone(),
    };
    let mut imported =
        catalog_check::import::from_server(&source, listed, existing, server.prefix.as_deref())?;
    let offered = import_offers(
        &server.name,
        offers,
        &imported.imported.toml,
        server.prefix.as_deref(),
    )?;
    imported.imported.toml.clone_from(&offered.toml);
    imported.wire.extend(offered.wire.clone());
    Ok((imported, offered))
}

/// Lists the server, maps its tools, and writes the catalog and the snapshot.
pub(crate) fn command(server: &Server) -> Result<ExitCode, Usage> {
    let (path, existing) = match &server.target {
        // A new catalog never replaces one: that would lose its review.
        Target::Out(path) if Path::new(path).exists() => {
            return Err(Usage(format!(
                "`{path}` exists: `--into {path}` adds the server's tools to it (or imports it again), `--out` writes a new catalog"
            )));
        }
        Target::Out(path) => (path.as_str(), None),
        Target::Into(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Usage(format!("cannot read `{path}`: {e}")))?;
            (path.as_str(), Some(text))
        }
    };
    let listing = crate::progress::spinner(format!(
        "listing upstream `{}` ({})",
        server.name, server.endpoint
    ));
    let endpoint = with_declared(&server.endpoint, &server.name, existing.as_deref());
    let listed = crate::upstreams::list(&server.name, &endpoint);
    listing.finish_and_clear();
    let (listed, offers) = match listed {
        Ok(listed) => listed,
        Err(message) => {
            eprintln!("error: {message}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let changes = changes_since_import(server, path, existing.as_deref(), &listed);
    let (imported, offered) = match map(server, &listed, &offers, existing.as_deref()) {
        Ok(imported) => imported,
        Err(message) => {
            eprintln!("error: {message}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let compiled = catalog_check::compile(&imported.imported.toml);
    if let (Err(diagnostics), Some(_)) = (&compiled, &existing) {
        // The user's catalog stays as it is; the combined text is kept for review.
        keep_for_review(&server.name, path, &imported.imported.toml, diagnostics);
        return Ok(ExitCode::FAILURE);
    }
    std::fs::write(path, &imported.imported.toml)
        .map_err(|e| Usage(format!("cannot write `{path}`: {e}")))?;
    let catalog_path = Path::new(path);
    let mut snapshot = match (&existing, Snapshot::read_for(catalog_path)) {
        (Some(_), Ok(snapshot)) => snapshot,
        (None, _) => Snapshot::default(),
        (Some(_), Err(message)) => {
            eprintln!("warning: {message}; starting a new snapshot");
            Snapshot::default()
        }
    };
    snapshot.set(&server.name, imported.wire.clone());
    if let Err(message) = snapshot.write_for(catalog_path) {
        eprintln!("error: {message}");
        return Ok(ExitCode::FAILURE);
    }
    for (row, standing) in &changes {
        let verb = if imported.gone.contains(row) {
            "kept, but its tool is gone"
        } else {
            "re-pinned"
        };
        eprintln!(
            "{verb}: `{row}`: {standing}\n  = help: review the row (description, parameters, access) against the server's definition"
        );
    }
    report_offers(&server.name, &offered);
    match compiled {
        Ok(compiled) => {
            eprint!(
                "imported {} tools of upstream `{}` ({}) into {path}: {} tools, valid; definitions in {}\n{}",
                imported.imported.report.tools(),
                server.name,
                server.endpoint,
                compiled.tools.len(),
                Snapshot::path_for(catalog_path).display(),
                imported.imported.report
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(diagnostics) => {
            eprint!(
                "{}",
                catalog_check::render_all(path, &imported.imported.toml, &diagnostics)
            );
            eprintln!(
                "error: the catalog imported from upstream `{}` does not compile (written to `{path}` for review)",
                server.name
            );
            Ok(ExitCode::FAILURE)
        }
    }
}

/// What the import did with the server's prompts, resources and templates.
fn report_offers(server: &str, offered: &OffersImported) {
    for what in &offered.repinned {
        eprintln!(
            "re-pinned: {what}: its listing changed since import\n  = help: review its table (description, arguments, access) against the server's listing"
        );
    }
    for what in &offered.gone {
        eprintln!("kept, but the server no longer lists it: {what}; delete its table");
    }
    for what in &offered.skipped {
        eprintln!("not imported: {what}");
    }
    if !offered.renamed.is_empty() {
        eprintln!(
            "renamed with the prefix (their name elsewhere in the catalog): {}",
            offered.renamed.join(", ")
        );
    }
    if !offered.added.is_empty() {
        eprintln!(
            "pinned {} of upstream `{}`, each at access read-only: {}",
            offered.added.len(),
            server,
            offered.added.join(", ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_is_named_by_its_program_or_host() {
        let command = |p: &str| Transport::Stdio {
            command: p.into(),
            args: vec![],
            env: vec![],
        };
        assert_eq!(
            default_name(&command("/usr/bin/mcp-server-time")).as_deref(),
            Some("mcp-server-time")
        );
        assert_eq!(
            default_name(&command("Server.Py")).as_deref(),
            Some("server")
        );
        assert_eq!(
            default_name(&Transport::Http {
                url: "http://127.0.0.1:8000/mcp".into(),
                headers: vec![],
                oauth: None,
            })
            .as_deref(),
            Some("127-0-0-1")
        );
    }
}
