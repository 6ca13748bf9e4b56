//! `import --from mcp FILE --out PATH`: an MCP `tools/list` result → a valid
//! `catalog.toml`, one row per tool, losing nothing. The mapping is
//! [`catalog_compiler::import`]; this is its command line: read, write, compile the result
//! before reporting success, exit codes.

use std::path::Path;
use std::process::ExitCode;

use serde_json::Value;

use crate::args::Usage;

/// Runs the command: exit 0 when the written catalog compiles, 1 when the input is not an
/// MCP `tools/list` result or the output does not compile, 2 for unusable arguments.
pub(crate) fn command(args: &[String]) -> Result<ExitCode, Usage> {
    let args = Args::parse(args)?;
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

/// The command line: `--from mcp FILE --out PATH`, in any order.
struct Args {
    file: String,
    out: String,
}

impl Args {
    fn parse(args: &[String]) -> Result<Args, Usage> {
        let (mut from, mut out, mut file) = (None, None, None);
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let Some(flag) = a.strip_prefix("--") else {
                if file.replace(a.clone()).is_some() {
                    return Err(Usage(format!(
                        "unexpected argument `{a}`: `import` reads one FILE"
                    )));
                }
                continue;
            };
            let (key, value) = match flag.split_once('=') {
                Some((k, v)) => (k, v.to_string()),
                None => match it.next() {
                    Some(v) => (flag, v.clone()),
                    None => return Err(Usage(format!("`--{flag}` needs a value"))),
                },
            };
            let slot = match key {
                "from" => &mut from,
                "out" => &mut out,
                other => return Err(Usage(format!("unknown option `--{other}`"))),
            };
            if slot.replace(value).is_some() {
                return Err(Usage(format!("`--{key}` is given twice")));
            }
        }
        match from.as_deref() {
            Some("mcp") => {}
            Some(other) => {
                return Err(Usage(format!(
                    "unknown source `--from {other}`: the only one is `mcp`"
                )));
            }
            None => return Err(Usage("`import` needs `--from mcp`".into())),
        }
        let file = file.ok_or_else(|| Usage("`import` needs the FILE to read".into()))?;
        let out = out.ok_or_else(|| Usage("`import` needs `--out PATH`".into()))?;
        Ok(Args { file, out })
    }
}
