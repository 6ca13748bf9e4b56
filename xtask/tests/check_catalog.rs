//! `cargo xtask check-catalog`: output and exit codes, locked by snapshots.

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

#[test]
fn broken_catalog_reports_every_error() {
    let (code, stdout, stderr) =
        xtask(&["check-catalog", "--catalog", "tests/fixtures/broken.toml"]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    insta::assert_snapshot!(stderr);
}

#[test]
fn broken_catalog_json() {
    let (code, stdout, _) = xtask(&[
        "check-catalog",
        "--catalog",
        "tests/fixtures/broken.toml",
        "--format=json",
    ]);
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["valid"], false);
    for e in doc["errors"].as_array().unwrap() {
        for key in ["file", "line", "column", "message", "help"] {
            assert!(e.get(key).is_some(), "error without `{key}`: {e}");
        }
    }
    insta::assert_snapshot!(stdout);
}

#[test]
fn unusable_arguments_exit_2() {
    for args in [
        &["check-catalog", "--format", "yaml"][..],
        &["check-catalog", "--nope", "x"],
        &["frobnicate"],
        &[],
        &["check-catalog", "--catalog", "missing.toml"],
    ] {
        let (code, _, stderr) = xtask(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains("usage:") || stderr.contains("cannot read"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn expand_prints_formatted_rust() {
    let (code, stdout, _) = xtask(&["expand"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("pub enum Tool {"));
    assert!(stdout.contains("pub trait Handler"));
}
