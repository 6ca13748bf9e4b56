//! The project as another repository uses it: `tests/outside` is a workspace of its own (not
//! a member of this one) with its own catalog, compiled in one crate and implemented and
//! served over MCP in another. This test builds it and runs its tests with cargo, as its
//! owner would, then installs `cargo catalog` as the README says and checks that catalog
//! from that workspace's folder.
//!
//! Builds go to `target/outside/` (a target directory of their own: cargo holds this
//! workspace's while the tests run).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

    // `cargo install --path cargo-catalog`, then `cargo catalog check` in that folder.
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
                "cargo-catalog",
                "--root",
            ])
            .arg(&install),
    );
    assert!(
        installed.status.success(),
        "cargo install --path cargo-catalog failed:\n{}",
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
        .replace("access = \"read-and-stage\"", "acess = \"read-and-stage\"");
    std::fs::write(broken_dir.join("catalog.toml"), &source).unwrap();
    let broken = check(&broken_dir, &[]);
    let printed = text(&broken.stdout) + &text(&broken.stderr);
    assert_eq!(broken.status.code(), Some(1), "{printed}");
    let expected = catalog_compiler::validate(&source).expect_err("the copy is broken");
    assert!(expected.len() >= 2, "{expected:?}");
    for diagnostic in &expected {
        let (line, column) = catalog_compiler::diag::line_col(&source, diagnostic.span.start);
        let at = format!("catalog.toml:{line}:{column}: {}", diagnostic.message);
        assert!(printed.contains(&at), "missing `{at}` in:\n{printed}");
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
