//! `app-mcp` killed with SIGKILL in the middle of a load over HTTP, then started again on
//! the same database file, three times: every change the clients were told was staged
//! is still there, staged or committed, exactly once; every commit is there whole.
//!
//! The clients are the official MCP Python SDK (`load.py --stream`, which prints each
//! acknowledged write as it comes); the server is the build of this test's profile
//! (`cargo test --release` runs it on the release build).

#[path = "../../../crates/catalog-mcp/tests/common/mod.rs"]
mod common;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::report::{ran, steps};
use common::{HttpServer, Peer, scratch, token};
use serde_json::{Value, json};

const SERVER: &str = env!("CARGO_BIN_EXE_app-mcp");

const LIMIT: Duration = Duration::from_secs(120);

/// Runs a load of staging clients, some calls committing, until `acks` writes were
/// acknowledged; then kills the server. Returns the names of the rows acknowledged.
fn load_until_killed(
    peer: &Peer,
    server: HttpServer,
    key: &str,
    round: usize,
    acks: usize,
) -> Vec<String> {
    let prefix = format!("r{round}-");
    let write = json!(["stageItem", {
        "table": "customers", "operation": "insert",
        "values": {"name": format!("{prefix}{{tag}}"), "city": "Load"}, "note": format!("{prefix}{{tag}}")}]);
    // One call in eight commits whatever is staged, so kills land in commits too.
    let reads = json!([
        ["queryRows", {"table": "customers", "limit": 5}],
        ["showStaging", {"openPanel": false}],
        ["queryRows", {"table": "orders", "limit": 5}],
        ["commitStaged", {"message": "load"}],
    ]);
    let mut load = peer
        .command("load.py")
        .args([
            "--stream",
            "--clients",
            "8",
            "--calls",
            "1000",
            "--deadline",
            "100",
        ])
        .args(["--write", &write.to_string(), "--reads", &reads.to_string()])
        .args([
            "--final",
            &json!(["showStaging", {"openPanel": false}]).to_string(),
        ])
        .args(["--http", &server.url, "--token", key])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("load.py starts");
    let stdout = load.stdout.take().expect("piped");
    let started = Instant::now();
    let mut names = Vec::new();
    for line in BufReader::new(stdout).lines().map_while(Result::ok) {
        let Ok(report) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if let Some(tag) = report["write"]["tag"].as_str() {
            names.push(format!("{prefix}{tag}"));
        }
        if names.len() >= acks || started.elapsed() > LIMIT {
            break;
        }
    }
    assert!(
        names.len() >= acks,
        "only {} writes acknowledged in time",
        names.len()
    );
    // HttpServer's drop is SIGKILL: nothing in the server runs after it.
    drop(server);
    let _ = load.kill();
    let _ = load.wait();
    names
}

/// What the restarted server holds: the names staged, the names committed, and the
/// rows the history says its commits wrote.
fn holdings(peer: &Peer, server: &HttpServer, key: &str) -> (Vec<String>, Vec<String>, i64) {
    let calls = steps(&[
        ("staged", "showStaging", json!({"openPanel": false})),
        (
            "committed",
            "queryRows",
            json!({"table": "customers", "columns": ["name"], "limit": 1000,
                   "filter": {"conditions": [{"column": "city", "op": "eq", "value": "Load"}]}}),
        ),
        ("history", "listCommits", json!({"limit": 200})),
    ]);
    let report = peer.run(
        "conformance.py",
        &[
            "--probe".into(),
            "[]".into(),
            "--calls".into(),
            calls,
            "--http".into(),
            server.url.clone(),
            "--token".into(),
            key.into(),
        ],
        LIMIT,
    );
    let calls = &report["calls"];
    let staged = ran(&calls["staged"], "showStaging")
        .as_array()
        .expect("the staging area")
        .iter()
        .filter_map(|c| {
            let summary = c["summary"].as_str()?;
            let note = summary.rsplit_once(" (")?.1.strip_suffix(')')?;
            Some(note.to_owned())
        })
        .collect();
    let committed = ran(&calls["committed"], "queryRows")["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["name"].as_str().map(str::to_owned))
        .collect();
    let history = ran(&calls["history"], "listCommits")
        .as_array()
        .expect("the history")
        .iter()
        .map(|c| c["rowsAffected"].as_i64().unwrap_or_default())
        .sum();
    (staged, committed, history)
}

#[test]
fn a_server_killed_mid_load_loses_no_acknowledged_change() {
    let Some(peer) = Peer::find("a_server_killed_mid_load_loses_no_acknowledged_change") else {
        return;
    };
    let dir = scratch("kill");
    let db = dir.join("tables.db");
    let db = db.to_str().expect("a UTF-8 path");
    let key = token("full");
    let tokens = [(key.clone(), "full-access")];
    let extra = ["--db", db, "--gated", "allow"];
    let mut acknowledged = BTreeSet::new();
    let mut server = HttpServer::start(Path::new(SERVER), &tokens, &extra);
    for (round, acks) in [(0, 60), (1, 150), (2, 250)] {
        acknowledged.extend(load_until_killed(&peer, server, &key, round, acks));
        server = HttpServer::start(Path::new(SERVER), &tokens, &extra);
        let (staged, committed, recorded) = holdings(&peer, &server, &key);
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
        let lost: Vec<&String> = acknowledged
            .iter()
            .filter(|n| !staged_set.contains(n) && !committed_set.contains(n))
            .collect();
        assert!(lost.is_empty(), "acknowledged but lost: {lost:?}");
        assert_eq!(
            usize::try_from(recorded).unwrap_or_default(),
            committed.len(),
            "the rows committed and the history disagree: a commit half there"
        );
        println!(
            "kill {round}: {} writes acknowledged so far; after the restart {} staged, {} committed",
            acknowledged.len(),
            staged.len(),
            committed.len()
        );
    }
}
