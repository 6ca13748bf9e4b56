//! What the gateway's tests that import a catalog share: `cargo-catalog`, and a catalog of
//! `mcp-server-time` imported as a user would. Each includes `common` beside it.

#![allow(dead_code)] // Each test file uses its own part of this module.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::common::run;

/// `cargo-catalog`, which `cargo test --workspace` builds beside this package's binary.
pub fn cargo_catalog() -> PathBuf {
    let gateway = Path::new(env!("CARGO_BIN_EXE_catalog-gateway"));
    let binary = gateway.with_file_name(format!("cargo-catalog{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.is_file(),
        "{} is not built: run `cargo build -p cargo-catalog --features upstreams` (or `cargo xtask test`)",
        binary.display()
    );
    binary
}

/// A catalog of `mcp-server-time`'s tools (installed beside `python`), imported over
/// stdio into `dir`: its path.
pub fn time_catalog(python: &Path, dir: &Path) -> PathBuf {
    let catalog = dir.join("catalog.toml");
    let done = run(
        Command::new(cargo_catalog())
            .args(["import", "--from-server", "--name", "time", "--out"])
            .arg(&catalog)
            .arg("--")
            .arg(python.with_file_name("mcp-server-time"))
            .args(["--local-timezone", "UTC"]),
        Duration::from_secs(120),
    );
    assert!(done.status.success(), "import: {}", done.stderr);
    catalog
}
