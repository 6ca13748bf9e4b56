//! `import --from mcp FILE --out PATH`: an MCP `tools/list` result → a valid
//! `catalog.toml`, one row per tool, losing nothing. The mapping is
//! [`catalog_compiler::import`]; this is its command line: read, write, compile the result
//! before reporting success, exit codes.

use std::path::Path;
use std::process::ExitCode;

use serde_json::Value;

use crate::args::Usage;

/// Runs the command: exit 0 when the written catalog compiles, 1 when the input is not an
/// MCP `tools/list` result, the server cannot be listed, or the output does not compile,
/// 2 for unusable arguments.
pub(crate) fn command(args: &[String]) -> Result<ExitCode, Usage> {
    match Args::parse(args)? {
        Args::File { file, out } => from_file(&file, &out),
        Args::Server(server) => crate::import_server::command(&server),
    }
}

fn from_file(file: &str, out: &str) -> Result<ExitCode, Usage> {
    let args = FileArgs {
        file: file.to_owned(),
        out: out.to_owned(),
    };
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| Usage(format!("cannot read `{}`: {e}", args.file)))?;
    let base = Path::new(&args.file)
        .file_name()
        .map_or_else(|| args.file.clone(), |n| n.to_string_lossy().into_owned());
    let doc: Value = match serde_json::from_str(&text) {
        Ok(doc) => doc,
        Err(e) => {
            eprintln!("error: `{}` is not JSON: {e}", args.file);
            return Ok(ExitCode::FAILURE);
        }
    };
    let catalog_compiler::import::Imported {
        toml: catalog,
        report,
    } = match catalog_compiler::import::from_mcp(&base, &doc) {
        Ok(done) => done,
        Err(e) => {
            eprintln!(
                "error: `{}` is not an MCP `tools/list` result: {e}",
                args.file
            );
            return Ok(ExitCode::FAILURE);
        }
    };
    std::fs::write(&args.out, &catalog)
        .map_err(|e| Usage(format!("cannot write `{}`: {e}", args.out)))?;
    match catalog_compiler::compile(&catalog) {
        Ok(compiled) => {
            eprint!(
                "imported {} tools from {base} into {}, with `{}` and `{}` added: {} tools, valid\n{report}",
                report.tools(),
                args.out,
                report.search_tool(),
                report.ask_tool(),
                compiled.tools.len()
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(diagnostics) => {
            eprint!(
                "{}",
                catalog_compiler::render_all(&args.out, &catalog, &diagnostics)
            );
            eprintln!(
                "error: the catalog imported from `{base}` does not compile (written to `{}`)",
                args.out
            );
            Ok(ExitCode::FAILURE)
        }
    }
}

/// A file import's arguments.
struct FileArgs {
    file: String,
    out: String,
}

/// The command line: `--from mcp FILE --out PATH`, or a server's (see
/// [`crate::import_server::Server`]), options in any order.
enum Args {
    File { file: String, out: String },
    Server(crate::import_server::Server),
}

impl Args {
    fn parse(args: &[String]) -> Result<Args, Usage> {
        // A stdio server's command line is everything after `--`, read as it is.
        let (options, command) = match args.iter().position(|a| a == "--") {
            Some(i) => (&args[..i], Some(&args[i + 1..])),
            None => (args, None),
        };
        let mut values: Vec<(String, String)> = Vec::new();
        let mut positional = Vec::new();
        let mut from_server = false;
        let mut it = options.iter();
        while let Some(a) = it.next() {
            let Some(flag) = a.strip_prefix("--") else {
                positional.push(a.clone());
                continue;
            };
            if flag == "from-server" {
                from_server = true;
                continue;
            }
            let (key, value) = match flag.split_once('=') {
                Some((k, v)) => (k.to_owned(), v.to_owned()),
                None => match it.next() {
                    Some(v) => (flag.to_owned(), v.clone()),
                    None => return Err(Usage(format!("`--{flag}` needs a value"))),
                },
            };
            if !["from", "out", "into", "name", "prefix", "from-url"].contains(&key.as_str()) {
                return Err(Usage(format!("unknown option `--{key}`")));
            }
            if values.iter().any(|(k, _)| *k == key) {
                return Err(Usage(format!("`--{key}` is given twice")));
            }
            values.push((key, value));
        }
        let take = |key: &str| {
            values
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
        };
        let url = take("from-url");
        if from_server || url.is_some() {
            if take("from").is_some() {
                return Err(Usage(
                    "`--from mcp FILE` reads a file; a live server is `--from-server -- COMMAND` or `--from-url URL`".into(),
                ));
            }
            if let Some(extra) = positional.first() {
                return Err(Usage(format!(
                    "unexpected argument `{extra}`: put the server's command after `--`"
                )));
            }
            return crate::import_server::Server::from_args(
                from_server,
                url,
                command,
                take("name"),
                take("prefix"),
                take("out"),
                take("into"),
            )
            .map(Args::Server);
        }
        for key in ["name", "prefix", "into"] {
            if take(key).is_some() {
                return Err(Usage(format!(
                    "`--{key}` is for a live server (`--from-server` or `--from-url`)"
                )));
            }
        }
        if command.is_some() {
            return Err(Usage("a command after `--` needs `--from-server`".into()));
        }
        match take("from").as_deref() {
            Some("mcp") => {}
            Some(other) => {
                return Err(Usage(format!(
                    "unknown source `--from {other}`: use `--from mcp FILE`, `--from-server -- COMMAND` or `--from-url URL`"
                )));
            }
            None => {
                return Err(Usage(
                    "`import` needs `--from mcp FILE`, `--from-server -- COMMAND` or `--from-url URL`".into(),
                ));
            }
        }
        let mut positional = positional.into_iter();
        let file = positional
            .next()
            .ok_or_else(|| Usage("`import` needs the FILE to read".into()))?;
        if let Some(extra) = positional.next() {
            return Err(Usage(format!(
                "unexpected argument `{extra}`: `import` reads one FILE"
            )));
        }
        let out = take("out").ok_or_else(|| Usage("`import` needs `--out PATH`".into()))?;
        Ok(Args::File { file, out })
    }
}
