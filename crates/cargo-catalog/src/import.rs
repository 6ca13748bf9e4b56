//! `import --from mcp FILE --out PATH`: an MCP `tools/list` result → a valid
//! `catalog.toml`, one row per tool, losing nothing. The mapping is
//! [`catalog_check::import`]; this is its command line: read, write, compile the result
//! before reporting success, exit codes.

use std::path::Path;
use std::process::ExitCode;

use serde_json::Value;

use crate::args::{Import, Usage};

/// Runs the command: exit 0 when the written catalog compiles, 1 when the input is not an
/// MCP `tools/list` result, the server cannot be listed, or the output does not compile,
/// 2 for unusable arguments. Clap has checked which options go together: `--from mcp`
/// with its FILE and `--out`, or a live server's.
pub(crate) fn command(args: Import) -> Result<ExitCode, Usage> {
    if args.from_server || args.from_url.is_some() {
        #[cfg(feature = "upstreams")]
        return crate::import_server::Server::from_args(args)
            .and_then(|server| crate::import_server::command(&server));
        #[cfg(not(feature = "upstreams"))]
        return Err(crate::args::needs_upstreams(if args.from_server {
            "--from-server"
        } else {
            "--from-url"
        }));
    }
    match (args.file, args.out) {
        (Some(file), Some(out)) => from_file(&file, &out),
        _ => Err(Usage("`import` needs `--from mcp FILE --out PATH`".into())),
    }
}

fn from_file(file: &str, out: &str) -> Result<ExitCode, Usage> {
    let text =
        std::fs::read_to_string(file).map_err(|e| Usage(format!("cannot read `{file}`: {e}")))?;
    let base = Path::new(file)
        .file_name()
        .map_or_else(|| file.to_owned(), |n| n.to_string_lossy().into_owned());
    let doc: Value = match serde_json::from_str(&text) {
        Ok(doc) => doc,
        Err(e) => {
            eprintln!("error: `{file}` is not JSON: {e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let catalog_check::import::Imported {
        toml: catalog,
        report,
    } = match catalog_check::import::from_mcp(&base, &doc) {
        Ok(done) => done,
        Err(e) => {
            eprintln!("error: `{file}` is not an MCP `tools/list` result: {e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    std::fs::write(out, &catalog).map_err(|e| Usage(format!("cannot write `{out}`: {e}")))?;
    match catalog_check::compile(&catalog) {
        Ok(compiled) => {
            eprint!(
                "imported {} tools from {base} into {out}, with `{}` and `{}` added: {} tools, valid\n{report}",
                report.tools(),
                report.search_tool(),
                report.ask_tool(),
                compiled.tools.len()
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(diagnostics) => {
            eprint!("{}", catalog_check::render_all(out, &catalog, &diagnostics));
            eprintln!(
                "error: the catalog imported from `{base}` does not compile (written to `{out}`)"
            );
            Ok(ExitCode::FAILURE)
        }
    }
}
