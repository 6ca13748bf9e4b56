//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
//! `tests/peers/package.json`) run against a server over streamable HTTP, its result read
//! per scenario and held against `tests/peers/conformance.json`: the scenarios a server
//! cannot pass because of a defect of the suite itself, each named. A scored scenario
//! that fails and is not listed fails the test, and so does one listed that passes (the
//! list must stay true) or that no longer runs.
//!
//! The suite runs what a protocol revision requires (each of [`REVISIONS`] has its
//! requirement set, `requirements/<revision>.yaml` in the package), on that revision's
//! wire: its scored scenarios are held, the ones it runs without scoring (extensions,
//! drafts, and scenarios added after the revision) are printed only.
//!
//! The suite needs a Node.js newer than many machines have, so `tests/peers/package.json`
//! installs one (the `node` package) beside it; both are found through
//! `CATALOG_PEER_NODE_BIN`, which `cargo xtask test` sets. The suite has no option for
//! credentials: `clients/bearer.mjs`, preloaded, gives each of its requests the token.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The suite, and the Node.js that runs it.
pub struct Suite {
    node: PathBuf,
    cli: PathBuf,
    package: PathBuf,
}

/// How long the whole suite may take against one server.
const LIMIT: Duration = Duration::from_secs(300);

/// The protocol revisions whose requirement sets the suite runs: the stateful one with
/// the `initialize` handshake, and the stateless one with each request's `_meta`.
pub const REVISIONS: [&str; 2] = ["2025-11-25", "2026-07-28"];

impl Suite {
    /// The suite from `CATALOG_PEER_NODE_BIN`. Unset, a test using it fails under CI and
    /// is skipped with instructions elsewhere.
    #[must_use]
    pub fn find(test: &str) -> Option<Suite> {
        let Some(bin) = std::env::var_os("CATALOG_PEER_NODE_BIN").filter(|b| !b.is_empty()) else {
            assert!(
                std::env::var_os("CI").is_none(),
                "{test}: CATALOG_PEER_NODE_BIN is not set, and CI must run the conformance suite \
                 (`cargo xtask test` installs it and sets the variable)"
            );
            eprintln!(
                "{test}: skipped, CATALOG_PEER_NODE_BIN is not set. `cargo xtask test` sets it up; \
                 or by hand: npm install in a folder holding a copy of tests/peers/package.json, \
                 then CATALOG_PEER_NODE_BIN=<folder>/node_modules/.bin"
            );
            return None;
        };
        let bin = PathBuf::from(bin);
        let package = bin.join("../@modelcontextprotocol/conformance/package.json");
        let suite = Suite {
            node: bin.join("node"),
            cli: bin.join("conformance"),
            package,
        };
        for path in [&suite.node, &suite.cli, &suite.package] {
            assert!(
                path.exists(),
                "{test}: {} is missing; `cargo xtask test` installs tests/peers/package.json",
                path.display()
            );
        }
        Some(suite)
    }

    /// Runs what `revision` requires of a server against the MCP endpoint `url` with
    /// bearer `token`: what each scenario came to, the scored ones and those run without
    /// scoring.
    ///
    /// # Panics
    /// When the suite cannot run, or ran no scenario.
    #[must_use]
    pub fn run(&self, url: &str, token: &str, revision: &str) -> BTreeMap<String, Outcome> {
        self.run_with(url, token, &["--requirements", revision])
    }

    /// Runs only `scenarios`, each on `revision`'s wire.
    ///
    /// # Panics
    /// As [`Suite::run`].
    #[must_use]
    pub fn run_scenarios(
        &self,
        url: &str,
        token: &str,
        revision: &str,
        scenarios: &[&str],
    ) -> BTreeMap<String, Outcome> {
        let mut outcomes = BTreeMap::new();
        for scenario in scenarios {
            outcomes.extend(self.run_with(
                url,
                token,
                &["--scenario", scenario, "--spec-version", revision],
            ));
        }
        outcomes
    }

    /// The scenarios `revision` scores for a server, from the suite's requirement set.
    ///
    /// # Panics
    /// When the set cannot be read.
    #[must_use]
    pub fn scored(&self, revision: &str) -> Vec<String> {
        let path = self
            .package
            .parent()
            .expect("the package file is in its folder")
            .join(format!("requirements/{revision}.yaml"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        scored_servers(&text)
    }

    fn run_with(&self, url: &str, token: &str, what: &[&str]) -> BTreeMap<String, Outcome> {
        let out = super::scratch("conformance");
        let bearer = super::workspace().join("catalog-mcp/tests/clients/bearer.mjs");
        let done = super::run(
            Command::new(&self.node)
                .arg("--import")
                .arg(&bearer)
                .arg(&self.cli)
                .args(["server", "--url", url])
                .args(what)
                .arg("--output-dir")
                .arg(&out)
                .env("CONFORMANCE_BEARER", token)
                .env("CONFORMANCE_PACKAGE", &self.package)
                .env("NO_COLOR", "1"),
            LIMIT,
        );
        let outcomes = read_outcomes(&out);
        assert!(
            !outcomes.is_empty(),
            "the suite ran no scenario ({}):\n{}\n{}",
            done.status,
            done.stdout,
            done.stderr
        );
        outcomes
    }
}

/// The `server:` list of a requirement set: YAML of the simplest kind, a key and its
/// `- name` items.
fn scored_servers(yaml: &str) -> Vec<String> {
    let mut scored = Vec::new();
    let mut inside = false;
    for line in yaml.lines() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if !line.starts_with(' ') && !line.starts_with('-') {
            inside = line.trim_end() == "server:";
            continue;
        }
        if inside && let Some(item) = line.trim().strip_prefix("- ") {
            scored.push(item.trim().to_owned());
        }
    }
    assert!(
        !scored.is_empty(),
        "the requirement set scores no server scenario"
    );
    scored
}

/// What one scenario came to: its checks that failed or warned, each as `id: message`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Outcome {
    pub failed: Vec<String>,
}

impl Outcome {
    /// Passed: no check failed or warned, as the suite's own baseline counts.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.failed.is_empty()
    }
}

/// The scenarios in an output folder: one `server-SCENARIO-TIMESTAMP/checks.json` each.
fn read_outcomes(out: &Path) -> BTreeMap<String, Outcome> {
    let mut outcomes = BTreeMap::new();
    for entry in std::fs::read_dir(out).expect("the suite's output folder") {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix("server-") else {
            continue;
        };
        // The timestamp is `-YYYY-MM-DDTHH-MM-SS-mmmZ`, 25 characters.
        let scenario = rest
            .len()
            .checked_sub(25)
            .filter(|&cut| rest.ends_with('Z') && rest[cut..].starts_with('-'))
            .map_or_else(
                || panic!("an output folder the suite did not name: {name}"),
                |cut| &rest[..cut],
            );
        let text = std::fs::read_to_string(dir.join("checks.json"))
            .unwrap_or_else(|e| panic!("{name}: no checks.json: {e}"));
        let checks: serde_json::Value = serde_json::from_str(&text).unwrap();
        let failed = checks
            .as_array()
            .expect("checks.json is a list")
            .iter()
            .filter(|c| matches!(c["status"].as_str(), Some("FAILURE" | "WARNING")))
            .map(|c| {
                let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_owned();
                let message = c["errorMessage"]
                    .as_str()
                    .or_else(|| c["details"]["message"].as_str())
                    .unwrap_or_default();
                format!("{} {}: {message}", text(&c["status"]), text(&c["id"]))
            })
            .collect();
        outcomes.insert(scenario.to_owned(), Outcome { failed });
    }
    outcomes
}

/// The scenarios `server` is expected to fail on `revision`, each with the defect of the
/// suite that makes it fail, from `tests/peers/conformance.json`.
///
/// # Panics
/// When the file has no table for `server` and `revision`, or a reason is empty.
#[must_use]
pub fn expected_failures(server: &str, revision: &str) -> BTreeMap<String, String> {
    let path = super::workspace().join("tests/peers/conformance.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let file: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let expected: BTreeMap<String, String> = serde_json::from_value(file[server][revision].clone())
        .unwrap_or_else(|e| {
            panic!(
                "{} has no \"{server}\".\"{revision}\" object of scenarios and reasons: {e}",
                path.display()
            )
        });
    for (scenario, reason) in &expected {
        assert!(
            !reason.trim().is_empty(),
            "{}: {server}'s {scenario} on {revision} gives no reason",
            path.display()
        );
    }
    expected
}

/// Holds what the suite found for `server` on `revision` against its list: every scored
/// scenario ran, and passed or is listed; every listed one ran and failed. The scenarios
/// run without scoring are printed, not held. Every mismatch is named at once.
///
/// # Panics
/// On any mismatch.
pub fn check(
    server: &str,
    revision: &str,
    scored: &[String],
    outcomes: &BTreeMap<String, Outcome>,
) {
    let expected = expected_failures(server, revision);
    let mut wrong = Vec::new();
    for scenario in scored {
        let Some(outcome) = outcomes.get(scenario) else {
            wrong.push(format!("{scenario} is scored but did not run"));
            continue;
        };
        match (outcome.passed(), expected.get(scenario)) {
            (false, None) => wrong.push(format!(
                "{scenario} failed and is not listed: {}",
                outcome.failed.join("; ")
            )),
            (true, Some(reason)) => wrong.push(format!(
                "{scenario} passes now: take it off the list (it said: {reason})"
            )),
            _ => {}
        }
    }
    for scenario in expected.keys().filter(|s| !scored.contains(*s)) {
        wrong.push(format!("{scenario} is listed but not scored"));
    }
    for (scenario, outcome) in outcomes.iter().filter(|(s, _)| !scored.contains(*s)) {
        let how = if outcome.passed() { "passed" } else { "failed" };
        eprintln!(
            "{server} on {revision}: {scenario} (not scored) {how} {}",
            outcome.failed.join("; ")
        );
    }
    let passed = scored
        .iter()
        .filter(|s| outcomes.get(*s).is_some_and(Outcome::passed))
        .count();
    eprintln!(
        "{server} on {revision}: {passed} of {} scored conformance scenarios passed, {} listed as defects of the suite",
        scored.len(),
        expected.len()
    );
    assert!(
        wrong.is_empty(),
        "{server} on {revision} against tests/peers/conformance.json:\n  {}",
        wrong.join("\n  ")
    );
}
