//! `cargo xtask codegen`: writes the files generated from the compiler's own tables, so
//! that a checked-in copy never drifts from them: `catalog.schema.json`, the editor schema
//! of `catalog.toml`, and the book's reference of every key written from it;
//! `catalog-check`'s tests fail when either is stale. Then the book's copies of the
//! files it shows, below each `<!-- include: ... -->` marker (`copies.rs`); the
//! book's tests fail when one is stale.

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
        ("catalog.schema.json", catalog_check::editor_schema()),
        ("book/src/reference.md", catalog_check::reference()),
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
    // After the reference, which is a page of the book too.
    for page in crate::copies::pages(&root) {
        let name = format!(
            "book/src/{}",
            page.file_name().unwrap_or_default().display()
        );
        let Ok(text) = std::fs::read_to_string(&page) else {
            eprintln!("error: cannot read {name}");
            return Ok(ExitCode::FAILURE);
        };
        let refreshed = match crate::copies::refresh(&page, &name, &text) {
            Ok(refreshed) => refreshed,
            Err(problems) => {
                for problem in problems {
                    eprintln!("error: {problem}");
                }
                return Ok(ExitCode::FAILURE);
            }
        };
        if refreshed.text == text {
            continue;
        }
        if let Err(e) = std::fs::write(&page, &refreshed.text) {
            eprintln!("error: cannot write {name}: {e}");
            return Ok(ExitCode::FAILURE);
        }
        for copy in refreshed.stale {
            println!("{copy}: copied again");
        }
    }
    Ok(ExitCode::SUCCESS)
}
