//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
//! `tests/peers/package.json`) run against a server over streamable HTTP, or driving a
//! client program (the client leg, below), its result read per scenario and held against
//! `tests/peers/conformance.json`: the scenarios a server or client cannot pass because of
//! a defect of the suite itself, each named. A scored scenario that fails and is not
//! listed fails the test, and so does one listed that passes (the list must stay true) or
//! that no longer runs.
//!
//! The suite runs what a protocol revision requires (each of [`REVISIONS`] has its
//! requirement set, `requirements/<revision>.yaml` in the package), on that revision's
//! wire: its scored scenarios are held, the ones it runs without scoring (extensions,
//! drafts, and scenarios added after the revision) are printed only, but for those a
//! server's `"held"` table in the same file names, with why: those must pass too.
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
        let bin = catalog_testkit::peer(test, "CATALOG_PEER_NODE_BIN")?;
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

    /// Runs only `scenarios`, each on `revision`'s wire; an extension's too, which is on
    /// no revision's timeline, so the suite runs it only when told to (`--force`).
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
                &[
                    "--scenario",
                    scenario,
                    "--spec-version",
                    revision,
                    "--force",
                ],
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
        listed(&self.requirements(revision), "server")
    }

    /// The text of `revision`'s requirement set.
    fn requirements(&self, revision: &str) -> String {
        let path = self
            .package
            .parent()
            .expect("the package file is in its folder")
            .join(format!("requirements/{revision}.yaml"));
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
    }

    fn run_with(&self, url: &str, token: &str, what: &[&str]) -> BTreeMap<String, Outcome> {
        let out = super::scratch("conformance");
        let bearer = super::workspace().join("crates/catalog-mcp/tests/clients/bearer.mjs");
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

/// The `server:` or `client:` list of a requirement set (`leg`): YAML of the simplest
/// kind, a key and its `- name` items.
fn listed(yaml: &str, leg: &str) -> Vec<String> {
    let mut scored = Vec::new();
    let mut inside = false;
    for line in yaml.lines() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if !line.starts_with(' ') && !line.starts_with('-') {
            inside = line.trim_end() == format!("{leg}:");
            continue;
        }
        if inside && let Some(item) = line.trim().strip_prefix("- ") {
            scored.push(item.trim().to_owned());
        }
    }
    assert!(
        !scored.is_empty(),
        "the requirement set scores no {leg} scenario"
    );
    scored
}

/// The scenarios of `leg` a requirement set runs without scoring: its `not_scored:` items,
/// each a `- scenario: NAME` with a `leg: LEG` line below.
fn not_scored(yaml: &str, leg: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut inside = false;
    let mut scenario = None;
    for line in yaml.lines() {
        if !line.starts_with(' ') && !line.starts_with('-') && !line.trim().is_empty() {
            inside = line.trim_end() == "not_scored:";
            continue;
        }
        if !inside {
            continue;
        }
        let item = line.trim().trim_start_matches("- ");
        if let Some(name) = item.strip_prefix("scenario:") {
            scenario = Some(name.trim().to_owned());
        } else if let Some(of) = item.strip_prefix("leg:")
            && of.trim() == leg
            && let Some(name) = scenario.take()
        {
            found.push(name);
        }
    }
    found
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
        outcomes.insert(scenario.to_owned(), read_checks(&dir.join("checks.json")));
    }
    outcomes
}

/// What one scenario's `checks.json` says: its checks that failed or warned.
fn read_checks(path: &Path) -> Outcome {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("no {}: {e}", path.display()));
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
    Outcome { failed }
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

/// The scenarios the suite runs on `revision` without scoring (pending ones) that
/// `server` is held to all the same, each with why, from the `"held"` table of `server`
/// in `tests/peers/conformance.json`; none when it has no such table.
///
/// # Panics
/// When the table is not one of revisions, scenarios and reasons, or a reason is empty.
#[must_use]
pub fn held(server: &str, revision: &str) -> BTreeMap<String, String> {
    let path = super::workspace().join("tests/peers/conformance.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let file: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let table = &file[server]["held"][revision];
    if table.is_null() {
        return BTreeMap::new();
    }
    let held: BTreeMap<String, String> =
        serde_json::from_value(table.clone()).unwrap_or_else(|e| {
            panic!(
                "{}: \"{server}\".\"held\".\"{revision}\" is no object of scenarios and reasons: {e}",
                path.display()
            )
        });
    for (scenario, reason) in &held {
        assert!(
            !reason.trim().is_empty(),
            "{}: {server} is held to {scenario} on {revision} for no reason",
            path.display()
        );
    }
    held
}

/// Holds what the suite found for `server` on `revision` against its list: every scored
/// scenario ran, and passed or is listed; every listed one ran and failed; every one it
/// is held to without scoring ([`held`]) ran and passed. The other scenarios run without
/// scoring are printed, not held. Every mismatch is named at once.
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
    let held = held(server, revision);
    for (scenario, why) in &held {
        match outcomes.get(scenario) {
            _ if scored.contains(scenario) => wrong.push(format!(
                "{scenario} is scored now: take it off the held list"
            )),
            None => wrong.push(format!("{scenario} is held ({why}) but did not run")),
            Some(outcome) if !outcome.passed() => wrong.push(format!(
                "{scenario} is held ({why}) and failed: {}",
                outcome.failed.join("; ")
            )),
            Some(_) => {}
        }
    }
    let unheld = |s: &String| !scored.contains(s) && !held.contains_key(s);
    for (scenario, outcome) in outcomes.iter().filter(|(s, _)| unheld(s)) {
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
        "{server} on {revision}: {passed} of {} scored conformance scenarios passed, {} listed as defects of the suite; held to {} not scored",
        scored.len(),
        expected.len(),
        held.len()
    );
    assert!(
        wrong.is_empty(),
        "{server} on {revision} against tests/peers/conformance.json:\n  {}",
        wrong.join("\n  ")
    );
}

// The client leg: the suite starts a mock server per scenario and runs a client program
// against it (`conformance client --command CLIENT --scenario NAME --spec-version REV`),
// appending the server's URL and naming the scenario, the revision and what the client is
// handed (credentials, say) in `MCP_CONFORMANCE_*` variables. Each scenario runs alone, so
// that its verdict (a client that exits with an error or runs over its time fails though
// no check did) is its own.

/// How long one client scenario may take, the suite's own 30 s for the client included.
const CLIENT_LIMIT: Duration = Duration::from_secs(120);

impl Suite {
    /// The client scenarios of `revision`'s requirement set: the scored ones, and those
    /// it runs without scoring (extensions, scenarios added after the revision).
    ///
    /// # Panics
    /// When the set cannot be read or scores no client scenario.
    #[must_use]
    pub fn client_scenarios(&self, revision: &str) -> (Vec<String>, Vec<String>) {
        let text = self.requirements(revision);
        (listed(&text, "client"), not_scored(&text, "client"))
    }

    /// Runs client scenario `scenario` on `revision`'s wire with the program `client`: the
    /// checks that failed or warned, and the suite's verdict on the run when no check says
    /// why it failed.
    ///
    /// # Panics
    /// When the suite cannot run or writes no `checks.json`.
    #[must_use]
    pub fn run_client(&self, client: &Path, scenario: &str, revision: &str) -> Outcome {
        let command = client.to_str().expect("the client's path is UTF-8");
        // The suite splits the command at spaces.
        assert!(!command.contains(' '), "{command}: a path with a space");
        let out = super::scratch("conformance-client");
        let done = super::run(
            Command::new(&self.node)
                .arg(&self.cli)
                .args(["client", "--command", command, "--scenario", scenario])
                .args(["--spec-version", revision])
                // Extensions are on no revision's timeline: run them on this one's wire.
                .arg("--force")
                .arg("--output-dir")
                .arg(&out)
                .env("NO_COLOR", "1"),
            CLIENT_LIMIT,
        );
        let checks = find(&out, "checks.json").unwrap_or_else(|| {
            panic!(
                "{scenario} at {revision} wrote no checks.json ({}):\n{}\n{}",
                done.status, done.stdout, done.stderr
            )
        });
        let mut outcome = read_checks(&checks);
        if !done.status.success() && outcome.failed.is_empty() {
            let said: Vec<&str> = done.stderr.lines().rev().take(12).collect();
            let said: Vec<&str> = said.into_iter().rev().collect();
            outcome.failed.push(format!(
                "the suite failed the run ({}): {}",
                done.status,
                said.join(" / ")
            ));
        }
        outcome
    }
}

/// The first file named `name` under `dir`.
fn find(dir: &Path, name: &str) -> Option<PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find(&path, name) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|n| n == name) {
            return Some(path);
        }
    }
    None
}

/// What `tests/peers/conformance.json` says of a client: the scenarios that do not apply
/// to it, each with why; those it is held to though the suite does not score them; and,
/// per revision, the scored ones it cannot pass because of a defect of the suite.
pub struct ClientList {
    pub not_applicable: BTreeMap<String, String>,
    pub held: Vec<String>,
    pub defects: BTreeMap<String, BTreeMap<String, String>>,
}

impl ClientList {
    /// The list of `client`.
    ///
    /// # Panics
    /// When the file has no such table, or a reason is empty.
    #[must_use]
    pub fn of(client: &str) -> ClientList {
        let path = super::workspace().join("tests/peers/conformance.json");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let file: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let table = &file[client];
        let reasons = |key: &str, value: &serde_json::Value| -> BTreeMap<String, String> {
            let reasons: BTreeMap<String, String> = serde_json::from_value(value.clone())
                .unwrap_or_else(|e| {
                    panic!(
                        "{}: {client}'s \"{key}\" is no object of scenarios and reasons: {e}",
                        path.display()
                    )
                });
            for (scenario, reason) in &reasons {
                assert!(
                    !reason.trim().is_empty(),
                    "{}: {client}'s {scenario} gives no reason",
                    path.display()
                );
            }
            reasons
        };
        let held = serde_json::from_value(table["held"].clone()).unwrap_or_else(|e| {
            panic!(
                "{}: {client} has no \"held\" list of scenarios: {e}",
                path.display()
            )
        });
        let defects = table["defects"]
            .as_object()
            .unwrap_or_else(|| panic!("{}: {client} has no \"defects\" object", path.display()))
            .iter()
            .map(|(revision, list)| (revision.clone(), reasons(revision, list)))
            .collect();
        ClientList {
            not_applicable: reasons("not applicable", &table["not applicable"]),
            held,
            defects,
        }
    }

    /// The scenarios of `revision` to run: the scored ones and those held, less those
    /// that do not apply.
    #[must_use]
    pub fn to_run(&self, scored: &[String], not_scored: &[String]) -> Vec<String> {
        scored
            .iter()
            .chain(not_scored.iter().filter(|s| self.held.contains(s)))
            .filter(|s| !self.not_applicable.contains_key(*s))
            .cloned()
            .collect()
    }

    /// Holds what the suite found at `revision` against the list: every scenario run
    /// passed or is a listed defect, every listed defect ran and failed, and every
    /// scenario the list names is one the suite runs. The mismatches, each in words.
    #[must_use]
    pub fn check(
        &self,
        revision: &str,
        scored: &[String],
        not_scored: &[String],
        outcomes: &BTreeMap<String, Outcome>,
    ) -> Vec<String> {
        let none = BTreeMap::new();
        let defects = self.defects.get(revision).unwrap_or(&none);
        let mut wrong = Vec::new();
        for scenario in self.to_run(scored, not_scored) {
            let Some(outcome) = outcomes.get(&scenario) else {
                wrong.push(format!("{revision}: {scenario} did not run"));
                continue;
            };
            match (outcome.passed(), defects.get(&scenario)) {
                (false, None) => wrong.push(format!(
                    "{revision}: {scenario} failed and is not listed: {}",
                    outcome.failed.join("; ")
                )),
                (true, Some(reason)) => wrong.push(format!(
                    "{revision}: {scenario} passes now: take it off the list (it said: {reason})"
                )),
                _ => {}
            }
        }
        let runs = |s: &String| scored.contains(s) || not_scored.contains(s);
        for scenario in defects.keys().filter(|s| !runs(s)) {
            wrong.push(format!(
                "{revision}: {scenario} is listed as a defect but the suite does not run it"
            ));
        }
        for scenario in self.held.iter().filter(|s| !not_scored.contains(s)) {
            wrong.push(format!(
                "{revision}: {scenario} is held but is not among the scenarios run without scoring"
            ));
        }
        wrong
    }
}
