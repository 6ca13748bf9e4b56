//! `cargo xtask check-catalog` on the example catalog, locked by snapshots, and the catalog
//! commands reached through xtask with this repository's defaults. The commands' own
//! behaviour is tested in `crates/cargo-catalog/tests`.

use std::process::Command;

fn xtask(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn example_catalog_is_valid_with_a_summary() {
    let (code, stdout, _) = xtask(&["check-catalog"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!(stdout);
}

#[test]
fn example_catalog_json() {
    let (code, stdout, _) = xtask(&["check-catalog", "--format", "json"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!(stdout);
}

/// The guide's table of lints names every lint of the registry with its default level.
#[test]
fn the_guide_lists_every_lint() {
    let chapter =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../book/src/lints.md"))
            .unwrap();
    for l in catalog_check::lint::LINTS {
        let row = format!("| `{}` | {} |", l.name, l.default.as_str());
        assert!(
            chapter.contains(&row),
            "book/src/lints.md's table lacks `{row}`"
        );
    }
}

#[test]
fn unusable_arguments_exit_2() {
    for args in [
        &["check-catalog", "--format", "yaml"][..],
        &["check-catalog", "--nope", "x"],
        &["frobnicate"],
        &["check"],
        &[],
        &["check-catalog", "--catalog", "missing.toml"],
        &["import", "--from", "mcp"],
        &["render", "--provider", "cohere"],
    ] {
        let (code, _, stderr) = xtask(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        // clap's form: the error, naming the argument (and the fix), then where to look.
        assert!(
            stderr.starts_with("error: ")
                && stderr.ends_with("For more information, try '--help'.\n"),
            "{args:?}: {stderr}"
        );
    }
}

/// The catalog commands read the root's `catalog.toml` when run from any folder: here
/// `xtask/`, where there is none.
#[test]
fn catalog_commands_default_to_the_root_catalog() {
    let (code, stdout, stderr) = xtask(&["search", "export the table as csv"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("exportCsv"), "{stdout}");
    let (code, stdout, stderr) = xtask(&["render", "--provider", "mcp", "--tools", "inline"]);
    assert_eq!(code, 0, "{stderr}");
    let list: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(list["tools"].is_array(), "{stdout}");
}

#[test]
fn expand_prints_formatted_rust() {
    let (code, stdout, _) = xtask(&["expand"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("pub enum Tool {"));
    assert!(stdout.contains("pub trait Handler"));
}
