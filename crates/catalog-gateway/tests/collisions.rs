//! Start-up on a catalog whose upstreams offer names the gateway could not tell apart
//! (tools, their Rust names, prompts, resources, templates): the gateway runs the
//! compiler's check, prints every error as `cargo catalog check` does, located and with
//! its fix, exits 2 and starts no upstream. Needs no peer: nothing is served.

#[path = "../../catalog-mcp/tests/common/mod.rs"]
mod common;
mod support;

use std::process::{Command, Stdio};

use common::scratch;
use support::cargo_catalog;

/// `cargo-catalog`'s fixture, whose every upstream would leave a file `started` behind.
const CATALOG: &str = include_str!("../../cargo-catalog/tests/fixtures/colliding_upstreams.toml");

#[test]
fn colliding_upstreams_are_refused_at_start_with_the_checks_located_errors() {
    let dir = scratch("collisions");
    std::fs::write(dir.join("gateway.toml"), CATALOG).unwrap();
    let gateway = Command::new(env!("CARGO_BIN_EXE_catalog-gateway"))
        .args(["--catalog", "gateway.toml", "--access", "read-only"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let check = Command::new(cargo_catalog())
        .args(["check", "--catalog", "gateway.toml"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let gateway_err = String::from_utf8(gateway.stderr).unwrap();
    let check_err = String::from_utf8(check.stderr).unwrap();
    assert_eq!(gateway.status.code(), Some(2), "{gateway_err}");
    assert_eq!(check.status.code(), Some(1), "{check_err}");

    // The same diagnostics, word for word, and the gateway's line on what it did.
    assert!(
        check_err.ends_with("gateway.toml: 6 errors\n"),
        "{check_err}"
    );
    assert_eq!(
        gateway_err,
        format!("{check_err}catalog-gateway: `gateway.toml` does not compile; nothing is served\n")
    );
    for (message, at) in [
        ("tool `now` is declared twice", "gateway.toml:76:8"),
        (
            "tools `get_zone` and `get-zone` both become `Tool::GetZone` in Rust",
            "gateway.toml:85:8",
        ),
        (
            "upstreams `time` and `clock` both give clients prompt `schedule`",
            "gateway.toml:94:8",
        ),
        (
            "upstreams `time` and `clock` both give clients resource `time://zones`",
            "gateway.toml:101:7",
        ),
        (
            "resource template `time://{+path}` of upstream `clock` matches",
            "gateway.toml:108:16",
        ),
        (
            "resource `time://zones/utc` of upstream `clock` is matched by",
            "gateway.toml:115:7",
        ),
    ] {
        let found = gateway_err
            .find(&format!("error: {message}"))
            .unwrap_or_else(|| panic!("no `{message}` in\n{gateway_err}"));
        let located = gateway_err[found..].lines().nth(1).unwrap_or_default();
        assert!(located.ends_with(at), "`{message}` at {located}, not {at}");
    }
    for fix in [
        "`name = \"clock_now\"`, with `upstream-tool = \"now\"`",
        "`rust-name = \"GetZone2\"`",
        "`name = \"clock_schedule\"`, with `upstream-prompt = \"schedule\"`",
        "`cargo catalog import --prefix clock_`",
        "remove one of the two tables",
    ] {
        assert!(gateway_err.contains(fix), "no `{fix}` in\n{gateway_err}");
    }
    assert!(!gateway_err.contains("panicked"), "{gateway_err}");
    assert!(
        !dir.join("started").exists(),
        "an upstream was started for a catalog with errors"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
