//! What the workspace's tests share, so each rule is written once:
//!
//! - **The peer rule.** A test that needs a real peer (the official SDKs in a Python
//!   environment, npm packages, a model, a program from Debian) runs it when it is there.
//!   When it is not, the test fails under CI (`CI` set), which installs every peer through
//!   `cargo xtask test`, and is skipped elsewhere, saying how to get the peer: [`missing`],
//!   [`peer`], [`program`].
//! - **The head of a test catalog**: the settings and the search and ask rows every
//!   catalog needs, for tests that add the rows they are about ([`CATALOG_HEAD`]).

use std::path::PathBuf;

/// The settings and the two role rows every test catalog starts with: append the rows
/// the test is about.
pub const CATALOG_HEAD: &str = r#"
[settings]
search-tool = "searchTools"
ask-tool = "ask"

[[tool]]
name = "searchTools"
description = "Finds tools."
[tool.params]
query = { type = "string" }

[[tool]]
name = "ask"
description = "Asks the user a question."
visibility = "inline"
effect = "reads"
tier = "silent"
"#;

/// Whether the tests run under CI, which must run every test: `CI` is set.
#[must_use]
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some()
}

/// `test` lacks a peer (`what`, e.g. "`CATALOG_PEER_PYTHON` is not set"): fails under CI,
/// and otherwise notes on stderr that the test is skipped and `how` to get the peer.
///
/// # Panics
/// Under CI.
pub fn missing(test: &str, what: &str, how: &str) {
    assert!(
        !in_ci(),
        "{test}: {what}, and CI must run this test ({how})"
    );
    eprintln!("{test}: skipped, {what} ({how})");
}

/// The path that variable `var` names, set by `cargo xtask test`; `None` after
/// [`missing`] when it is unset or empty.
///
/// # Panics
/// Under CI, when `var` is unset or empty.
#[must_use]
pub fn peer(test: &str, var: &str) -> Option<PathBuf> {
    let value = std::env::var_os(var).filter(|v| !v.is_empty());
    if value.is_none() {
        missing(
            test,
            &format!("{var} is not set"),
            "`cargo xtask test` installs the peers and sets it",
        );
    }
    value.map(PathBuf::from)
}

/// `name` on the `PATH`; `None` after [`missing`] when it is not there, `how` saying how
/// to install it.
///
/// # Panics
/// Under CI, when `name` is not on the `PATH`.
#[must_use]
pub fn program(test: &str, name: &str, how: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        missing(test, &format!("`{name}` is not on the path"), how);
    }
    found
}
