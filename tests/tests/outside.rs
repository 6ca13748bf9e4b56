//! The project as another repository uses it: `tests/outside` is a workspace of its own (not
//! a member of this one) with its own catalog, compiled in one crate and implemented and
//! served over MCP in another. This test builds it and runs its tests with cargo, as its
//! owner would; drives its MCP server (the generic `catalog-mcp`) with the official Python
//! SDK at every level; then installs `cargo catalog` as the README says and checks that
//! catalog from that workspace's folder.
//!
//! Builds go to `target/outside/` (a target directory of their own: cargo holds this
//! workspace's while the tests run).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use catalog_core::{Access, Caller, Reach, ToolSpec};
use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn outside() -> PathBuf {
    root().join("tests/outside")
}

/// Where the nested builds go: beside this workspace's own target directory.
fn target() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the temporary directory is inside the target directory")
        .join("outside")
}

fn cargo() -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.env("CARGO_TARGET_DIR", target().join("build"));
    command
}

/// Runs a command to its end and hands back what it printed; a command that could not
/// start fails the test with what was tried.
fn output(command: &mut Command) -> Output {
    command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The outside catalog's rows, read at run time: this workspace cannot link the crate that
/// compiles them.
fn notes_specs() -> catalog_check::Specs {
    let source = std::fs::read_to_string(outside().join("catalog.toml")).unwrap();
    let catalog = catalog_check::validate(&source).expect("the notes catalog is valid");
    catalog_check::specs(&catalog)
}

/// One client per level over stdio, with the official `mcp` SDK (on its newest
/// `initialize` revision, 2025-11-25): the listing is exactly what the access rule lets
/// that level reach, every tool is reached or refused as the rule says, and a read runs
/// while a write runs only from `read-and-stage` up. A tool out of reach is a JSON-RPC
/// error; arguments that break a reached tool's schema, and a gated call the policy
/// refuses, are tool results with `isError: true` for the model to read.
fn serve_over_mcp(server: &Path) {
    let Some(python) =
        catalog_testkit::peer("the outside server's MCP checks", "CATALOG_PEER_PYTHON")
    else {
        return;
    };
    let specs = notes_specs();
    let specs = specs.get();
    let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
    let calls = json!([
        ["list", "listNotes", {"limit": 5}],
        ["add", "addNote", {"title": "Idea", "text": "Serve the notes over MCP."}],
        ["delete", "deleteNote", {"id": 1}],
    ]);
    for level in Access::ALL {
        let done = output(
            Command::new(&python)
                .arg(root().join("crates/catalog-mcp/tests/clients/conformance.py"))
                .args(["--probe", &serde_json::to_string(&names).unwrap()])
                .args(["--calls", &calls.to_string()])
                .arg("--stdio")
                .arg(server)
                .args(["--access", level.as_str(), "--gated", "deny"])
                .env("PYTHONDONTWRITEBYTECODE", "1"),
        );
        assert!(
            done.status.success(),
            "{level}: {}\n{}",
            text(&done.stdout),
            text(&done.stderr)
        );
        let stdout = text(&done.stdout);
        let report: Value = serde_json::from_str(stdout.lines().last().unwrap_or_default())
            .unwrap_or_else(|e| panic!("{level}: no JSON report ({e}): {stdout}"));
        assert_eq!(report["initialize"]["serverName"], "notes-mcp", "{level}");

        let listed: Vec<&str> = report["listed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        let reach = |spec: &ToolSpec<'_>| spec.reach(Caller::Mcp(level), false);
        let expected: Vec<&str> = specs
            .iter()
            .filter(|s| reach(s) == Reach::Allowed)
            .map(|s| s.name)
            .collect();
        assert_eq!(listed, expected, "{level}: tools/list");

        for spec in specs {
            let outcome = &report["probe"][spec.name];
            let what = format!("{level}: probe of {}", spec.name);
            let (message, expected) = match reach(spec) {
                Reach::Allowed => {
                    assert_eq!(outcome["isError"], true, "{what}: {outcome}");
                    (
                        &outcome["content"]["message"],
                        "Invalid arguments".to_owned(),
                    )
                }
                Reach::Below(needed) => (
                    &outcome["error"]["message"],
                    format!("`{}` needs the {needed} access level", spec.name),
                ),
                Reach::Hidden => (
                    &outcome["error"]["message"],
                    format!("Unknown tool: {}", spec.name),
                ),
            };
            if reach(spec) != Reach::Allowed {
                assert_eq!(outcome["error"]["code"], -32602, "{what}: {outcome}");
            }
            let message = message.as_str().unwrap_or_default();
            assert!(message.starts_with(&expected), "{what}: {message}");
        }

        let calls = &report["calls"];
        assert_eq!(
            calls["list"]["isError"], false,
            "{level}: {}",
            calls["list"]
        );
        let added = calls["add"]["isError"] == false;
        assert_eq!(
            added,
            level >= Access::ReadAndStage,
            "{level}: {}",
            calls["add"]
        );
        // Gated, and the server's policy is deny: refused at every level, nothing deleted;
        // by the level below full access, by the policy (a tool result) at it.
        let delete = &calls["delete"];
        let refused = if level == Access::FullAccess {
            assert_eq!(delete["isError"], true, "{level}: {delete}");
            &delete["content"]
        } else {
            &delete["error"]["data"]
        };
        assert_eq!(refused["error"], "PERMISSION_DENIED", "{level}: {delete}");
    }
}

#[test]
fn an_outside_workspace_builds_runs_its_tests_and_checks_its_catalog() {
    // Its own tests: the generated API used from a second crate, verified calls, the
    // discovery loop and the MCP levels.
    let tested = output(
        cargo()
            .current_dir(outside())
            .args(["test", "--workspace", "--quiet"]),
    );
    assert!(
        tested.status.success(),
        "cargo test in tests/outside failed:\n{}\n{}",
        text(&tested.stdout),
        text(&tested.stderr)
    );
    let report = text(&tested.stdout);
    assert!(report.contains("test result: ok."), "{report}");

    serve_over_mcp(&target().join(format!(
        "build/debug/notes-mcp{}",
        std::env::consts::EXE_SUFFIX
    )));

    // `cargo install --path crates/cargo-catalog`, then `cargo catalog check` in that folder.
    let install = target().join("install");
    let installed = output(
        cargo()
            .current_dir(root())
            .args([
                "install",
                "--quiet",
                "--debug",
                "--locked",
                "--force",
                "--path",
                "crates/cargo-catalog",
                "--root",
            ])
            .arg(&install),
    );
    assert!(
        installed.status.success(),
        "cargo install --path crates/cargo-catalog failed:\n{}",
        text(&installed.stderr)
    );
    let path = std::env::join_paths(std::iter::once(install.join("bin")).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let check = |dir: &Path, args: &[&str]| {
        output(
            cargo()
                .current_dir(dir)
                .env("PATH", &path)
                .args(["catalog", "check"])
                .args(args),
        )
    };

    let valid = check(&outside(), &[]);
    let printed = text(&valid.stdout);
    assert_eq!(
        valid.status.code(),
        Some(0),
        "{printed}\n{}",
        text(&valid.stderr)
    );
    assert!(printed.contains("listNotes"), "{printed}");

    // A broken copy of the catalog: exit 1, every error at the place the compiler names.
    let broken_dir = target().join("broken");
    std::fs::create_dir_all(&broken_dir).unwrap();
    let source = std::fs::read_to_string(outside().join("catalog.toml"))
        .unwrap()
        .replace("tier = \"gated\"", "tier = \"gatd\"")
        .replace("effect = \"stages\"", "efect = \"stages\"");
    std::fs::write(broken_dir.join("catalog.toml"), &source).unwrap();
    let broken = check(&broken_dir, &[]);
    let printed = text(&broken.stdout) + &text(&broken.stderr);
    assert_eq!(broken.status.code(), Some(1), "{printed}");
    let expected = catalog_check::validate(&source).expect_err("the copy is broken");
    assert!(expected.len() >= 2, "{expected:?}");
    for diagnostic in &expected {
        let (line, column) = catalog_check::diag::line_col(&source, diagnostic.span.start);
        // The message, then where, as rustc prints them.
        let title = format!("error: {}", diagnostic.message);
        let at = format!("--> catalog.toml:{line}:{column}");
        let located = printed
            .lines()
            .zip(printed.lines().skip(1))
            .any(|(first, second)| first == title && second.trim_start() == at);
        assert!(located, "missing `{title}` at `{at}` in:\n{printed}");
    }
    let json = check(&broken_dir, &["--format", "json"]);
    assert_eq!(json.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        report["errors"].as_array().map(Vec::len),
        Some(expected.len()),
        "{report}"
    );

    let unusable = check(&outside(), &["--no-such-option"]);
    assert_eq!(unusable.status.code(), Some(2));
}
