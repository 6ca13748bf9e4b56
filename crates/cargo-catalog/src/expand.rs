//! `expand`: the Rust code `catalog!` generates for a catalog, formatted.

use std::io::Write as _;
use std::process::ExitCode;

use crate::args::{Expand, Usage};
use crate::defaults::Defaults;

/// `expand [--catalog PATH]`.
pub(crate) fn command(args: &Expand, defaults: &Defaults) -> Result<ExitCode, Usage> {
    let (path, source) = defaults.read_catalog(args.catalog.path.as_deref())?;
    Ok(run(&path, &source))
}

/// Prints the formatted code `catalog!` generates for a catalog (without the tracking of
/// the file, which names it by a path only the macro knows); exit 1 with its errors.
fn run(path: &str, source: &str) -> ExitCode {
    match catalog_check::compile(source) {
        Ok(catalog) => {
            let tokens = catalog_codegen::expand(&catalog, &catalog_codegen::Options::default());
            match catalog_codegen::format(tokens) {
                Ok(code) => {
                    // A closed pipe (`| head`) is the reader's choice, not an error.
                    let _ = std::io::stdout().write_all(code.as_bytes());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("internal error: the generated code does not parse: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(diagnostics) => {
            eprint!("{}", catalog_check::render_all(path, source, &diagnostics));
            ExitCode::FAILURE
        }
    }
}
