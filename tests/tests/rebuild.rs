//! Editing `catalog.toml` rebuilds the crate that expands it, and nothing else does.
//!
//! Builds a throwaway crate under the target directory with cargo itself, so this checks
//! what a user sees, not a detail of the expansion.

use std::path::{Path, PathBuf};
use std::process::Command;

const SMALL: &str = include_str!("../fixtures/small.toml");

const MAIN: &str = r#"
catalog_macros::catalog!("catalog.toml");
fn main() {
    println!("{}", Tool::COUNT);
}
"#;

const NEW_ROW: &str = r#"
[[tool]]
name = "renameTable"
description = "Renames a table."
visibility = "discoverable"
effect = "stages"
tier = "silent"
[tool.params]
table = { type = "string", description = "The table." }
"#;

fn target_dir() -> PathBuf {
    // The test binary lives in <target>/<profile>/deps/.
    let exe = std::env::current_exe().unwrap();
    exe.ancestors().nth(3).unwrap().to_path_buf()
}

/// Builds the probe; returns whether cargo recompiled it, and what it prints.
fn build(dir: &Path, target: &Path) -> (bool, String) {
    let out = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--message-format=json"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "probe build failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut fresh = None;
    let mut exe = None;
    for line in stdout.lines() {
        let msg: serde_json::Value = serde_json::from_str(line).unwrap();
        if msg["reason"] == "compiler-artifact" && msg["target"]["name"] == "rebuild-probe" {
            fresh = msg["fresh"].as_bool();
            exe = msg["executable"].as_str().map(PathBuf::from);
        }
    }
    let printed = Command::new(exe.expect("cargo reported no executable"))
        .output()
        .unwrap();
    (
        !fresh.expect("cargo reported no artifact for the probe"),
        String::from_utf8_lossy(&printed.stdout).trim().to_string(),
    )
}

#[test]
fn editing_the_catalog_rebuilds_the_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let target = target_dir().join("tests").join("rebuild");
    let dir = target.join("probe");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"rebuild-probe\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\ncatalog-core = {{ path = {:?} }}\ncatalog-macros = {{ path = {:?} }}\n\n[workspace]\n",
        root.join("crates/catalog-core"),
        root.join("crates/catalog-macros"),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("src/main.rs"), MAIN).unwrap();
    std::fs::write(dir.join("catalog.toml"), SMALL).unwrap();

    let (_, count) = build(&dir, &target);
    assert_eq!(count, "4");

    let (rebuilt, _) = build(&dir, &target);
    assert!(!rebuilt, "nothing changed, yet the probe was rebuilt");

    std::fs::write(dir.join("catalog.toml"), format!("{SMALL}{NEW_ROW}")).unwrap();
    let (rebuilt, count) = build(&dir, &target);
    assert!(rebuilt, "editing catalog.toml did not rebuild the probe");
    assert_eq!(count, "5", "the rebuilt probe does not see the new row");
}
