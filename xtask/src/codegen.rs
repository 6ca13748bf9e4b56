//! `cargo xtask codegen`: writes the files generated from the compiler's own tables, so
//! that a checked-in copy never drifts from them: `catalog.schema.json`, the editor schema
//! of `catalog.toml`, and the book's reference of every key written from it;
//! `catalog-compiler`'s tests fail when either is stale.

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
    let files = [
        ("catalog.schema.json", catalog_compiler::editor_schema()),
        ("book/src/reference.md", catalog_compiler::reference()),
    ];
    for (name, text) in files {
        let path = root.join(name);
        if std::fs::read_to_string(&path).is_ok_and(|old| old == text) {
            println!("{name} is up to date");
            continue;
        }
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("error: cannot write {name}: {e}");
            return Ok(ExitCode::FAILURE);
        }
        println!("{name} updated");
    }
    Ok(ExitCode::SUCCESS)
}
