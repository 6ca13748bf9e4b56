//! The command line of a server built on `catalog_mcp::main` (the tracker example):
//! unusable input is a clear message in clap's style and exit status 2, never a panic; the
//! program's name, not this crate's, in what it prints.

mod common;

use std::process::Command;
use std::time::Duration;

use common::{example_binary, run, scratch};

#[test]
fn unusable_arguments_exit_2_with_the_reason_and_the_usage() {
    // The cases with `--http 127.0.0.1:0` parse; their tokens file is what is unusable.
    let dir = scratch("cli");
    let short = dir.join("short.toml");
    std::fs::write(
        &short,
        "[[token]]\nvalue = \"abc\"\naccess = \"read-only\"\n",
    )
    .unwrap();
    let broken = dir.join("broken.toml");
    std::fs::write(&broken, "[[token]\n").unwrap();
    let missing = dir.join("missing.toml");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--access".into(), "admin".into()],
            "invalid value 'admin' for '--access <LEVEL>'",
        ),
        (
            vec!["--gated".into()],
            "a value is required for '--gated <POLICY>'",
        ),
        (
            vec![
                "--http".into(),
                "0.0.0.0:8931".into(),
                "--tokens".into(),
                "t".into(),
            ],
            "only loopback addresses",
        ),
        (
            vec!["--http".into(), "127.0.0.1:8931".into()],
            "--http needs --tokens FILE",
        ),
        (vec!["--verbose".into()], "unexpected argument '--verbose'"),
        (
            vec![
                "--http".into(),
                "127.0.0.1:0".into(),
                "--tokens".into(),
                short.display().to_string(),
            ],
            "shorter than 16 characters",
        ),
        (
            vec![
                "--http".into(),
                "127.0.0.1:0".into(),
                "--tokens".into(),
                broken.display().to_string(),
            ],
            "broken.toml: ",
        ),
        (
            vec![
                "--http".into(),
                "127.0.0.1:0".into(),
                "--tokens".into(),
                missing.display().to_string(),
            ],
            "cannot read",
        ),
    ];
    let server = example_binary("tracker");
    for (args, expected) in cases {
        let done = run(Command::new(&server).args(&args), Duration::from_secs(20));
        assert_eq!(done.status.code(), Some(2), "{args:?}: {}", done.stderr);
        // clap's style, as `cargo catalog` reports its own.
        assert!(
            done.stderr.starts_with("error: "),
            "{args:?}: {}",
            done.stderr
        );
        assert!(done.stderr.contains(expected), "{args:?}: {}", done.stderr);
        assert!(
            !done.stderr.contains("panicked"),
            "{args:?}: {}",
            done.stderr
        );
        assert_eq!(done.stdout, "", "{args:?}");
        // Every error, a tokens file's too, ends as clap ends its own.
        assert!(
            done.stderr
                .ends_with("For more information, try '--help'.\n"),
            "{args:?}: {}",
            done.stderr
        );
    }
}

#[test]
fn help_and_version_go_to_stdout() {
    let server = example_binary("tracker");
    let help = run(Command::new(&server).arg("--help"), Duration::from_secs(20));
    assert!(help.status.success());
    assert!(
        help.stdout.contains("Usage: tracker-mcp [OPTIONS]")
            && help.stdout.contains("--http <ADDRESS>")
            && help.stdout.contains("--tokens <FILE>"),
        "{}",
        help.stdout
    );
    assert!(!help.stdout.contains("catalog-mcp"), "{}", help.stdout);
    let version = run(Command::new(&server).arg("-V"), Duration::from_secs(20));
    assert!(version.status.success());
    assert_eq!(
        version.stdout.trim(),
        format!("tracker-mcp (catalog-mcp {})", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn stdio_ends_cleanly_when_the_client_goes_away() {
    // No client at all: stdin is empty, so the session ends at once, with no output on
    // stdout (the transport) and the start line on stderr.
    let done = run(
        Command::new(example_binary("tracker")).args(["--access", "read-only"]),
        Duration::from_secs(20),
    );
    assert_eq!(done.stdout, "");
    assert!(
        done.stderr
            .contains("serving MCP over stdio at read-only (gated tools: ask)"),
        "{}",
        done.stderr
    );
    assert!(!done.stderr.contains("panicked"), "{}", done.stderr);
}
