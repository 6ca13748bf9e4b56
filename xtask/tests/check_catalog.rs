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

/// Lint findings: a denied one fails the run (exit 1), warnings do not; the summary and
/// the lint table still print.
#[test]
fn lint_findings_are_located_and_a_denied_one_fails() {
    let (code, stdout, stderr) =
        xtask(&["check-catalog", "--catalog", "tests/fixtures/linted.toml"]);
    assert_eq!(code, 1, "{stderr}");
    insta::assert_snapshot!("linted_stderr", stderr);
    insta::assert_snapshot!("linted_stdout", stdout);
}

#[test]
fn lint_findings_json() {
    let (code, stdout, _) = xtask(&[
        "check-catalog",
        "--catalog",
        "tests/fixtures/linted.toml",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["valid"], false);
    let lints = |key: &str| -> Vec<(String, String)> {
        doc[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                for k in ["file", "line", "column", "message", "help", "lint", "level"] {
                    assert!(e.get(k).is_some(), "{key} entry without `{k}`: {e}");
                }
                (
                    e["lint"].as_str().unwrap().to_string(),
                    e["level"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let pair = |l: &str, v: &str| (l.to_string(), v.to_string());
    assert_eq!(lints("errors"), [pair("poisoned-description", "deny")]);
    assert_eq!(
        lints("warnings"),
        [
            pair("unnamed-need", "warn"),
            pair("inline-token-budget", "warn"),
            pair("description-url", "warn"),
            pair("confusable-tools", "warn"),
        ]
    );
    assert_eq!(doc["tokens"]["tokenizer"], "o200k_base");
    assert_eq!(
        doc["lints"].as_array().unwrap().len(),
        catalog_compiler::lint::LINTS.len()
    );
}

/// The README's table of lints names every lint of the registry with its default level.
#[test]
fn readme_lists_every_lint() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    let section = readme
        .split("\n## Lints\n")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("README has a `## Lints` section");
    for l in catalog_compiler::lint::LINTS {
        let row = format!("| `{}` | {} |", l.name, l.default.as_str());
        assert!(section.contains(&row), "README's lint table lacks `{row}`");
    }
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
