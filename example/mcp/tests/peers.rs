//! `app-mcp`, the example app's server, as it is deployed: over streamable HTTP with a
//! bearer token per access level, driven by the official MCP Python SDK (catalog-mcp's
//! `tests/clients/*.py`). Each client sees exactly its level's tables of the example
//! catalog and runs the example's own calls: read, stage, fail, and be refused the
//! commit; many clients at once lose no staged change.
//!
//! What any server built on catalog-mcp does (each level over stdio and HTTP, every
//! protocol revision, the gated-tool policies and asking, refusals, log messages) is
//! tested once, in catalog-mcp's `tests/peers.rs` on its tracker example.

#[path = "../../../crates/catalog-mcp/tests/common/mod.rs"]
mod common;

use std::path::Path;

use app_catalog::{Catalog, Tool};
use catalog_core::Access;
use common::report::{
    Cause, assert_gated_refusal, assert_level_refusal, check_listing, check_probes, every_name,
    ran, rejected, steps,
};
use common::{HttpServer, LIMIT, NOW, Peer, token};
use serde_json::{Value, json};

const SERVER: &str = env!("CARGO_BIN_EXE_app-mcp");

/// Each server's own database, fresh and gone with the process: these tests compare
/// what they staged with everything staged.
const MEMORY: [&str; 2] = ["--db", ":memory:"];

/// `showStaging` without opening the app's panel.
fn show_staging() -> Value {
    json!({"openPanel": false})
}

/// `stageItem` arguments that insert a customer called `name`.
fn insert(name: &str) -> Value {
    json!({"table": "customers", "operation": "insert",
           "values": {"name": name, "city": "Munich", "country": "DE"}})
}

/// `queryRows` arguments that count the customers called `name`.
fn customers_named(name: &str) -> Value {
    json!({"table": "customers",
           "filter": {"conditions": [{"column": "name", "op": "eq", "value": name}]}})
}

/// What one client does after listing and probing: read, stage, fail, try to commit.
fn conformance_calls(tag: &str) -> String {
    let name = format!("Conformance {tag}");
    steps(&[
        ("listTables", "listTables", json!({})),
        (
            "queryRows",
            "queryRows",
            json!({"table": "customers", "limit": 2}),
        ),
        ("badArguments", "queryRows", json!({"table": 5, "limit": 0})),
        ("stagedBefore", "showStaging", show_staging()),
        ("stageItem", "stageItem", insert(&name)),
        ("stagedAfterStage", "showStaging", show_staging()),
        (
            "failedStage",
            "stageItem",
            json!({"table": "noSuchTable", "operation": "insert", "values": {"name": "x"}}),
        ),
        ("stagedAfterFailure", "showStaging", show_staging()),
        (
            "commitStaged",
            "commitStaged",
            json!({"message": format!("from {tag}")}),
        ),
        ("stagedAfterCommit", "showStaging", show_staging()),
        ("committed", "queryRows", customers_named(&name)),
    ])
}

fn staged_ids(list: &Value) -> Vec<&str> {
    list.as_array()
        .map(|changes| {
            changes
                .iter()
                .filter_map(|c| c["changeId"].as_str())
                .collect()
        })
        .unwrap_or_default()
}

/// Everything one client at `level` saw, checked against the generated tables. The
/// server's policy for gated tools is the default, ask, which these clients cannot answer
/// ([`Cause::Unasked`]).
fn check_conformance(report: &Value, level: Access, tag: &str) {
    assert_eq!(report["initialize"]["protocolVersion"], NOW, "{tag}");
    check_listing(Catalog, report, level, "app-mcp");
    check_probes(Catalog, report, level, NOW);
    check_calls(&report["calls"], level, tag, NOW, Cause::Unasked);
}

#[test]
fn each_tokens_client_sees_its_tables_and_the_apps_calls_do_what_they_say() {
    let Some(peer) =
        Peer::find("each_tokens_client_sees_its_tables_and_the_apps_calls_do_what_they_say")
    else {
        return;
    };
    let tokens: Vec<(String, &str)> = Access::ALL
        .iter()
        .map(|level| (token(level.as_str()), level.as_str()))
        .collect();
    let server = HttpServer::start(Path::new(SERVER), &tokens, &MEMORY);
    for (level, (token, _)) in Access::ALL.into_iter().zip(&tokens) {
        let tag = format!("http-{level}");
        let calls = conformance_calls(&tag);
        let report = peer.conformance(&every_name(Catalog), &calls, NOW, &server.connection(token));
        check_conformance(&report, level, &tag);
    }
}

fn check_calls(calls: &Value, level: Access, tag: &str, revision: &str, gated: Cause) {
    // A read tool runs at every level.
    let tables = ran(&calls["listTables"], "listTables");
    let names: Vec<&str> = tables
        .as_array()
        .map(|t| t.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names, ["customers", "orders", "products"]);
    let rows = ran(&calls["queryRows"], "queryRows");
    assert_eq!(rows["rows"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        calls["queryRows"]["structuredContent"], *rows,
        "structured and text agree"
    );

    // Arguments that do not fit: every issue with its place, in a tool result from
    // 2025-11-25 on, as invalid params before.
    let bad = rejected(&calls["badArguments"], revision, "bad arguments");
    assert_eq!(bad["tool"], "queryRows");
    let paths: Vec<&str> = bad["issues"]
        .as_array()
        .map(|issues| issues.iter().filter_map(|i| i["path"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(paths, ["/table", "/limit"]);

    // Staging: refused at read-only, else staged and shown.
    let before = staged_ids(&calls["stagedBefore"]["content"]);
    let after = staged_ids(&calls["stagedAfterStage"]["content"]);
    if level == Access::ReadOnly {
        assert_level_refusal(
            &calls["stageItem"],
            Tool::StageItem.spec(),
            level,
            "stageItem",
        );
        assert_eq!(after, before);
        assert_level_refusal(
            &calls["failedStage"],
            Tool::StageItem.spec(),
            level,
            "failed stage",
        );
    } else {
        let staged = ran(&calls["stageItem"], "stageItem");
        let id = staged["changeId"].as_str().unwrap_or_default();
        assert_eq!(calls["stageItem"]["structuredContent"], *staged);
        assert_eq!(after.len(), before.len() + 1, "{level}");
        assert!(after.contains(&id));
        let mine = calls["stagedAfterStage"]["content"]
            .as_array()
            .and_then(|changes| changes.iter().find(|c| c["changeId"] == id))
            .unwrap_or_else(|| panic!("{id} is not staged"));
        assert!(
            mine["summary"]
                .as_str()
                .is_some_and(|s| s.contains(&format!("Conformance {tag}")))
        );
        // A call that fails in the handler is a tool error and loses nothing staged.
        let failed = &calls["failedStage"];
        assert_eq!(failed["isError"], true, "{failed}");
        assert_eq!(failed["content"]["error"], "RUNTIME_ERROR");
        assert!(
            failed["content"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("noSuchTable"))
        );
    }
    assert_eq!(
        calls["stagedAfterFailure"]["content"],
        calls["stagedAfterStage"]["content"]
    );

    // commitStaged: above the level below full access; refused by the policy at it.
    if level < Access::FullAccess {
        assert_level_refusal(
            &calls["commitStaged"],
            Tool::CommitStaged.spec(),
            level,
            "commitStaged",
        );
    } else {
        assert_gated_refusal(
            &calls["commitStaged"],
            Tool::CommitStaged.spec(),
            gated,
            revision,
            "commitStaged",
        );
    }
    assert_eq!(
        calls["stagedAfterCommit"]["content"], calls["stagedAfterFailure"]["content"],
        "nothing committed"
    );
    assert_eq!(calls["committed"]["content"]["totalMatching"], 0);
}

#[test]
fn concurrent_http_clients_lose_no_staged_change() {
    let Some(peer) = Peer::find("concurrent_http_clients_lose_no_staged_change") else {
        return;
    };
    let stage = token("stage");
    let server = HttpServer::start(
        Path::new(SERVER),
        &[(stage.clone(), "read-and-stage")],
        &MEMORY,
    );
    let (clients, calls) = (16, 50);
    let write = json!(["stageItem", {
        "table": "customers", "operation": "insert",
        "values": {"name": "{tag}", "city": "Load", "country": "DE"}, "note": "{tag}"}]);
    let reads = json!([
        ["queryRows", {"table": "customers", "limit": 5}],
        ["showStaging", show_staging()],
    ]);
    let mut args = vec![
        "--write".into(),
        write.to_string(),
        "--reads".into(),
        reads.to_string(),
        "--final".into(),
        json!(["showStaging", show_staging()]).to_string(),
        "--clients".into(),
        clients.to_string(),
        "--calls".into(),
        calls.to_string(),
        "--deadline".into(),
        "90".into(),
    ];
    args.extend(server.connection(&stage));
    let cpu_before = server.cpu_seconds();
    let report = peer.run("load.py", &args, LIMIT);
    println!(
        "load on loopback: {} clients, {} calls in {} s, {} calls/s, latency ms {}, {} failed",
        report["clients"],
        report["calls"],
        report["seconds"],
        report["callsPerSecond"],
        report["latencyMs"],
        report["failureCount"]
    );
    if let (Some(before), Some(after)) = (cpu_before, server.cpu_seconds()) {
        // The final call counts too: the server's cost per call, client excluded.
        let calls = report["calls"].as_f64().unwrap_or_default() + 1.0;
        println!(
            "server CPU: {:.2} s for {calls} calls, {:.2} ms a call",
            after - before,
            (after - before) * 1000.0 / calls
        );
    }
    assert_eq!(report["failureCount"], 0, "{}", report["failures"]);
    assert_eq!(report["calls"], clients * calls);
    assert!(report["callsPerSecond"].as_f64().is_some_and(|c| c > 0.0));

    // Every change a client staged is in the staging area exactly once, under the id it
    // was given and with its own tag.
    let writes = report["writes"].as_array().expect("the writes");
    assert_eq!(writes.len(), clients * calls / 2);
    let staging = ran(&report["final"], "final showStaging")
        .as_array()
        .expect("the staging area");
    let mut ids: Vec<&str> = Vec::with_capacity(writes.len());
    for write in writes {
        let tag = write["tag"].as_str().unwrap_or_default();
        let id = write["content"]["changeId"].as_str().unwrap_or_default();
        ids.push(id);
        let under_id = staging.iter().filter(|c| c["changeId"] == id).count();
        let tagged = staging
            .iter()
            .filter(|c| {
                c["summary"]
                    .as_str()
                    .is_some_and(|s| s.contains(&format!("({tag})")))
            })
            .count();
        assert_eq!((under_id, tagged), (1, 1), "{tag} ({id})");
    }
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), writes.len(), "every change has its own id");
}
