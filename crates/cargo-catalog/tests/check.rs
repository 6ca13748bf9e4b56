//! `cargo catalog check`: output and exit codes on catalogs with errors and lint
//! findings, locked by snapshots. (The example catalog's report is `cargo xtask
//! check-catalog`'s, locked in `xtask/tests`.)

use std::process::Command;

/// Runs `cargo-catalog ARGS` in this crate's folder: exit code, stdout, stderr.
fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-catalog"))
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
fn broken_catalog_reports_every_error() {
    let (code, stdout, stderr) = cli(&["check", "--catalog", "tests/fixtures/broken.toml"]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    insta::assert_snapshot!(stderr);
}

#[test]
fn broken_catalog_json() {
    let (code, stdout, _) = cli(&[
        "check",
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
    let (code, stdout, stderr) = cli(&["check", "--catalog", "tests/fixtures/linted.toml"]);
    assert_eq!(code, 1, "{stderr}");
    insta::assert_snapshot!("linted_stderr", stderr);
    insta::assert_snapshot!("linted_stdout", stdout);
}

#[test]
fn lint_findings_json() {
    let (code, stdout, _) = cli(&[
        "check",
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
        catalog_check::lint::LINTS.len()
    );
}

/// Two upstreams whose tools, Rust names, prompts, resources and templates collide: every
/// collision is one error on the second table, naming the first, with the fix (the
/// prefixed name with `upstream-tool` or `upstream-prompt`, a free `rust-name`, or which
/// table to remove).
#[test]
fn upstreams_that_collide_are_located_with_the_fix() {
    let (code, stdout, stderr) = cli(&[
        "check",
        "--catalog",
        "tests/fixtures/colliding_upstreams.toml",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.ends_with("colliding_upstreams.toml: 6 errors\n"),
        "{stderr}"
    );
    insta::assert_snapshot!(stderr);
}
