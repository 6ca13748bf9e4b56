//! `cargo xtask codegen`: writes the files generated from the compiler's own tables, so
//! that a checked-in copy never drifts from them. Today that is `catalog.schema.json`, the
//! editor schema of `catalog.toml`; `catalog-compiler`'s tests fail when it is stale.

use std::path::Path;
use std::process::ExitCode;

use cargo_catalog::Usage;

/// Regenerates every generated file; says which changed.
pub fn run(args: &[String]) -> Result<ExitCode, Usage> {
    if let Some(extra) = args.first() {
        return Err(Usage(format!(
            "`codegen` takes no arguments, found `{extra}`"
        )));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let path = root.join("catalog.schema.json");
    let text = catalog_compiler::editor_schema();
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    if old == text {
        println!("catalog.schema.json is up to date");
        return Ok(ExitCode::SUCCESS);
    }
    if let Err(e) = std::fs::write(&path, text) {
        eprintln!("error: cannot write catalog.schema.json: {e}");
        return Ok(ExitCode::FAILURE);
    }
    println!("catalog.schema.json updated");
    Ok(ExitCode::SUCCESS)
}
