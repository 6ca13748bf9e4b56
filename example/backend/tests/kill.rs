//! A process that stages and commits through the backend is killed with SIGKILL in the
//! middle of its work, then the file is opened again: every change it acknowledged is
//! still there (staged, or in a commit), and every commit is there whole or not at all.
//!
//! The process is this test's own executable started again with `STAGER_DB` set: a
//! custom harness (`harness = false`), because the libtest harness has no way to run one
//! test as a child without marking it ignored.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use app_backend::{Backend, Error};
use app_catalog::{Catalog, ToolCall};
use catalog_core::{Access, AllowAll, Dispatch, Output, Verified, Via};
use serde_json::{Value, json};

/// Names of the rows the stager inserts start with this.
const PREFIX: &str = "killed-";

fn run(backend: &Backend, name: &str, args: Value) -> Result<Value, Error> {
    let call: catalog_core::VerifiedCall<ToolCall> = match Catalog::verify(
        Via::Mcp(Access::FullAccess, &Catalog),
        name,
        args,
        &mut AllowAll,
    ) {
        Ok(Verified::Run(call)) => call,
        other => panic!("{name} not verified: {:?}", other.err()),
    };
    match pollster::block_on(call.dispatch(backend)) {
        Dispatch::Ran(result) => result.map(|output| match output {
            Output::Value(value) => value,
            other => panic!("{name} answered with {other:?}, not a value"),
        }),
        Dispatch::Search(_) => panic!("{name} is not the search tool"),
    }
}

/// The child: stages an insert after another and commits every seventh time, printing
/// each acknowledgement only after the call returned, until it is killed.
fn stager(path: &str, round: usize) {
    let backend = Backend::open(path).unwrap_or_else(|e| panic!("{e}"));
    let mut out = std::io::stdout().lock();
    for i in 0.. {
        let name = format!("{PREFIX}{round}-{i}");
        let staged = run(
            &backend,
            "stageItem",
            json!({"table": "customers", "operation": "insert", "values": {"name": name}}),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        writeln!(
            out,
            "staged {} {name}",
            staged["changeId"].as_str().unwrap_or("?")
        )
        .ok();
        out.flush().ok();
        if i % 7 == 6 {
            let commit = run(&backend, "commitStaged", json!({})).unwrap_or_else(|e| panic!("{e}"));
            writeln!(
                out,
                "committed {} {}",
                commit["commitId"], commit["rowsAffected"]
            )
            .ok();
            out.flush().ok();
        }
    }
}

/// Starts the stager on `path`, kills it after `acks` acknowledgements, and returns the
/// names it acknowledged as staged.
fn stage_until_killed(path: &std::path::Path, round: usize, acks: usize) -> Vec<String> {
    let exe = std::env::current_exe().expect("the test knows its own executable");
    let mut child = Command::new(exe)
        .env("STAGER_DB", path)
        .env("STAGER_ROUND", round.to_string())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the stager starts");
    let stdout = child.stdout.take().expect("piped");
    let mut names = Vec::new();
    let mut lines = BufReader::new(stdout).lines();
    let started = Instant::now();
    while names.len() < acks {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the stager is too slow"
        );
        let line = lines
            .next()
            .expect("the stager ended early")
            .expect("its output is text");
        if let Some(rest) = line.strip_prefix("staged ") {
            names.push(rest.split(' ').nth(1).unwrap_or_default().to_owned());
        }
    }
    // SIGKILL: no destructor, no flush, no rollback runs in the child.
    child.kill().expect("the stager can be killed");
    child.wait().expect("the stager is reaped");
    names
}

fn check(path: &std::path::Path, acknowledged: &BTreeSet<String>) -> (usize, usize) {
    let backend = Backend::open(path).unwrap_or_else(|e| panic!("reopening: {e}"));
    let staged =
        run(&backend, "showStaging", json!({"openPanel": false})).unwrap_or_else(|e| panic!("{e}"));
    let staged: Vec<String> = staged
        .as_array()
        .expect("an array")
        .iter()
        .filter_map(|c| {
            let summary = c["summary"].as_str()?;
            let start = summary.find(PREFIX)?;
            Some(summary[start..].trim_end_matches('"').to_owned())
        })
        .collect();
    let table = backend.table("customers").expect("customers is there");
    let committed: Vec<String> = table
        .rows
        .iter()
        .filter_map(|r| r["name"].as_str())
        .filter(|n| n.starts_with(PREFIX))
        .map(str::to_owned)
        .collect();
    let staged_set: BTreeSet<&String> = staged.iter().collect();
    let committed_set: BTreeSet<&String> = committed.iter().collect();
    assert_eq!(staged_set.len(), staged.len(), "a change staged twice");
    assert_eq!(
        committed_set.len(),
        committed.len(),
        "a row committed twice"
    );
    assert!(
        staged_set.is_disjoint(&committed_set),
        "a change both staged and committed"
    );
    for name in acknowledged {
        assert!(
            staged_set.contains(name) || committed_set.contains(name),
            "acknowledged {name} is lost"
        );
    }
    // Whole commits only: the rows in the table are exactly what the history says.
    let history =
        run(&backend, "listCommits", json!({"limit": 200})).unwrap_or_else(|e| panic!("{e}"));
    let recorded: i64 = history
        .as_array()
        .expect("an array")
        .iter()
        .map(|c| c["rowsAffected"].as_i64().unwrap_or_default())
        .sum();
    assert_eq!(
        usize::try_from(recorded).unwrap_or_default(),
        committed.len(),
        "the rows committed and the history disagree"
    );
    (staged.len(), committed.len())
}

fn main() {
    if let (Ok(path), Ok(round)) = (std::env::var("STAGER_DB"), std::env::var("STAGER_ROUND")) {
        stager(&path, round.parse().unwrap_or_default());
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("tables.db");
    let mut acknowledged = BTreeSet::new();
    // Three kills at different points, each run going on from the file the last left.
    for (round, acks) in [(0, 40), (1, 95), (2, 160)] {
        acknowledged.extend(stage_until_killed(&path, round, acks));
        let (staged, committed) = check(&path, &acknowledged);
        println!(
            "kill {round}: {} acknowledged in all, {staged} staged and {committed} committed after restart",
            acknowledged.len()
        );
    }
    println!("1 passed, 0 failed");
}
