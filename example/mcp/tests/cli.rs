//! `app-mcp` is `catalog_mcp::main` under its own name: the command line, the usage and
//! the server's name say `app-mcp`.

#[path = "../../../crates/catalog-mcp/tests/common/mod.rs"]
mod common;

use std::process::Command;
use std::time::Duration;

use common::run;

const SERVER: &str = env!("CARGO_BIN_EXE_app-mcp");

#[test]
fn the_program_speaks_under_its_own_name() {
    let help = run(Command::new(SERVER).arg("--help"), Duration::from_secs(20));
    assert!(help.status.success());
    assert!(
        help.stdout.contains("Usage: app-mcp [OPTIONS]")
            && help.stdout.contains("app-mcp's own options:")
            && help.stdout.contains("--db <PATH>"),
        "{}",
        help.stdout
    );
    let version = run(
        Command::new(SERVER).arg("--version"),
        Duration::from_secs(20),
    );
    assert_eq!(
        version.stdout.trim(),
        format!("app-mcp (catalog-mcp {})", catalog_mcp::VERSION)
    );
    let wrong = run(
        Command::new(SERVER).args(["--access", "admin"]),
        Duration::from_secs(20),
    );
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        wrong
            .stderr
            .starts_with("error: invalid value 'admin' for '--access <LEVEL>'"),
        "{}",
        wrong.stderr
    );
}
