//! `app-mcp`, the example app's server, driven by the official MCP Python SDK
//! (catalog-mcp's `tests/clients/*.py`) over stdio and streamable HTTP. The clients report
//! what they saw; these tests compare it with the example catalog's generated tables, for
//! every tool at every level, and run the example's own calls: read, stage, fail, commit.

#[path = "../../../catalog-mcp/tests/common/mod.rs"]
mod common;

use std::path::Path;
use std::time::Duration;

use app_catalog::{Catalog, Tool};
use catalog_core::Access;
use common::report::{
    Cause, assert_gated_refusal, assert_level_refusal, check_listing, check_probes, every_name,
    ran, rejected, steps,
};
use common::{HttpServer, Peer, token};
use serde_json::{Value, json};

const SERVER: &str = env!("CARGO_BIN_EXE_app-mcp");

fn peer(test: &str) -> Option<Peer> {
    Peer::find(
        test,
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../catalog-mcp/tests/clients"
        ),
    )
}

const LIMIT: Duration = Duration::from_secs(120);

/// Each server's own database, fresh and gone with the process: these tests compare
/// what they staged with everything staged.
const MEMORY: [&str; 2] = ["--db", ":memory:"];

fn stdio(level: Access, gated: &str) -> Vec<String> {
    [
        "--stdio",
        SERVER,
        "--access",
        level.as_str(),
        "--gated",
        gated,
        MEMORY[0],
        MEMORY[1],
    ]
    .map(String::from)
    .to_vec()
}

fn http(server: &HttpServer, token: &str) -> Vec<String> {
    ["--http", &server.url, "--token", token]
        .map(String::from)
        .to_vec()
}

/// The protocol revisions a client opens with: `initialize` at the last revision before
/// SEP-1303 made invalid arguments tool results, `initialize` at the newest handshake
/// revision (with sessions, the SDK's default), or `server/discover` (2026-07-28,
/// stateless).
const REVISIONS: [&str; 3] = ["2025-06-18", NOW, "2026-07-28"];

/// What the SDK's `initialize` asks for.
const NOW: &str = "2025-11-25";

/// The client's arguments that open a session on `revision`.
fn opening(revision: &str) -> Vec<String> {
    if revision == "2026-07-28" {
        vec!["--modern".into()]
    } else {
        vec!["--revision".into(), revision.into()]
    }
}

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

fn conformance(peer: &Peer, tag: &str, revision: &str, connection: &[String]) -> Value {
    let mut args = vec![
        "--probe".into(),
        every_name(Catalog),
        "--calls".into(),
        conformance_calls(tag),
    ];
    args.extend(opening(revision));
    // `--stdio` takes the rest of the command line, so it goes last.
    args.extend(connection.iter().cloned());
    peer.run("conformance.py", &args, LIMIT)
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
/// server's policy for gated tools is deny ([`Cause::Policy`]), or ask with a client that
/// cannot be asked ([`Cause::Unasked`]).
fn check_conformance(report: &Value, level: Access, tag: &str, revision: &str, gated: Cause) {
    assert_eq!(report["initialize"]["protocolVersion"], revision, "{tag}");
    check_listing(Catalog, report, level, "app-mcp");
    check_probes(Catalog, report, level, revision);
    check_calls(&report["calls"], level, tag, revision, gated);
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
        assert_level_refusal(&calls["stageItem"], Tool::StageItem, level, "stageItem");
        assert_eq!(after, before);
        assert_level_refusal(
            &calls["failedStage"],
            Tool::StageItem,
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
            Tool::CommitStaged,
            level,
            "commitStaged",
        );
    } else {
        assert_gated_refusal(
            &calls["commitStaged"],
            Tool::CommitStaged,
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
fn stdio_clients_at_each_level_see_exactly_their_tables() {
    let Some(peer) = peer("stdio_clients_at_each_level_see_exactly_their_tables") else {
        return;
    };
    for level in Access::ALL {
        let tag = format!("stdio-{level}");
        let report = conformance(&peer, &tag, NOW, &stdio(level, "deny"));
        check_conformance(&report, level, &tag, NOW, Cause::Policy);
    }
}

#[test]
fn http_clients_get_the_level_of_their_token() {
    let Some(peer) = peer("http_clients_get_the_level_of_their_token") else {
        return;
    };
    let tokens: Vec<(String, &str)> = Access::ALL
        .iter()
        .map(|level| (token(level.as_str()), level.as_str()))
        .collect();
    // The default policy, ask: these clients declare no elicitation, so it falls back
    // to deny.
    let server = HttpServer::start(Path::new(SERVER), &tokens, &MEMORY);
    for revision in REVISIONS {
        for (level, (token, _)) in Access::ALL.into_iter().zip(&tokens) {
            let tag = format!("http-{revision}-{level}");
            let report = conformance(&peer, &tag, revision, &http(&server, token));
            check_conformance(&report, level, &tag, revision, Cause::Unasked);
        }
    }
    // The tokens never reach the log.
    let log = server.log();
    assert!(
        tokens.iter().all(|(t, _)| !log.contains(t.as_str())),
        "{log}"
    );
}

fn elicit(peer: &Peer, answer: &str, modern: bool, connection: &[String]) -> Value {
    let name = format!("Elicit {answer}");
    let calls = steps(&[
        ("stageItem", "stageItem", insert(&name)),
        ("commitStaged", "commitStaged", json!({"message": answer})),
        ("staged", "showStaging", json!({})),
        ("committed", "queryRows", customers_named(&name)),
    ]);
    let mut args = vec!["--answer".into(), answer.into(), "--calls".into(), calls];
    if modern {
        args.push("--modern".into());
    }
    args.extend(connection.iter().cloned());
    peer.run("elicit.py", &args, LIMIT)
}

/// What a client answering `answer` saw: asked once (`"none"` declares no elicitation, so
/// it is refused unasked), the commit made only on "accept". On 2026-07-28 the question
/// came in an input-required result and the call was made again with the answer.
fn check_elicited(report: &Value, answer: &str) {
    let revision = report["protocolVersion"].as_str().unwrap_or_default();
    let asked = answer != "none";
    let calls = &report["calls"];
    let _ = ran(&calls["stageItem"], "stageItem");
    let staged = ran(&calls["staged"], "showStaging");
    let committed = &ran(&calls["committed"], "queryRows")["totalMatching"];
    if answer == "accept" {
        let commit = ran(&calls["commitStaged"], answer);
        assert_eq!(commit["applied"], 1, "{commit}");
        assert_eq!(staged, &json!([]));
        assert_eq!(committed, 1);
    } else {
        let cause = if asked {
            Cause::Declined
        } else {
            Cause::Unasked
        };
        assert_gated_refusal(
            &calls["commitStaged"],
            Tool::CommitStaged,
            cause,
            revision,
            answer,
        );
        assert_eq!(
            staged.as_array().map(Vec::len),
            Some(1),
            "{answer}: kept staged"
        );
        assert_eq!(committed, 0);
    }
    let rounds = &calls["commitStaged"]["inputRounds"];
    if asked && revision == "2026-07-28" {
        assert_eq!(
            rounds, 1,
            "{answer}: one input-required result, then the answer"
        );
    } else {
        assert_eq!(
            rounds,
            &Value::Null,
            "{answer}: asked mid-call or not at all"
        );
    }
    let questions = report["questions"].as_array().expect("a list of questions");
    if asked {
        assert_eq!(questions.len(), 1, "{report}");
        assert_eq!(questions[0]["mode"], "form");
        let message = questions[0]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("`commitStaged` (full-access)")
                && message.contains(&format!("\"message\":\"{answer}\"")),
            "{message}"
        );
    } else {
        assert!(questions.is_empty(), "{report}");
    }
}

#[test]
fn the_ask_policy_asks_the_client_and_obeys_the_answer() {
    let Some(peer) = peer("the_ask_policy_asks_the_client_and_obeys_the_answer") else {
        return;
    };
    // Up to 2025-11-25 the question is a request to the client mid-call; on 2026-07-28
    // it travels in the result and the client calls again with the answer.
    let connection = stdio(Access::FullAccess, "ask");
    for modern in [false, true] {
        for answer in ["accept", "decline", "cancel", "none"] {
            let report = elicit(&peer, answer, modern, &connection);
            let revision = if modern { "2026-07-28" } else { NOW };
            assert_eq!(report["protocolVersion"], revision, "{answer}");
            check_elicited(&report, answer);
        }
    }
    // Over HTTP, on the session's stream or (2026-07-28, no session) in the result; a
    // server each, as each run checks everything staged.
    let full = token("full");
    for modern in [false, true] {
        for answer in ["decline", "accept"] {
            let server =
                HttpServer::start(Path::new(SERVER), &[(full.clone(), "full-access")], &MEMORY);
            let report = elicit(&peer, answer, modern, &http(&server, &full));
            check_elicited(&report, answer);
        }
    }
}

#[test]
fn the_allow_policy_runs_gated_tools_without_asking() {
    let Some(peer) = peer("the_allow_policy_runs_gated_tools_without_asking") else {
        return;
    };
    let report = elicit(&peer, "none", false, &stdio(Access::FullAccess, "allow"));
    let calls = &report["calls"];
    assert_eq!(
        ran(&calls["commitStaged"], "commit")["applied"],
        1,
        "{report}"
    );
    assert_eq!(calls["committed"]["content"]["totalMatching"], 1);
}

#[test]
fn concurrent_http_clients_lose_no_staged_change() {
    let Some(peer) = peer("concurrent_http_clients_lose_no_staged_change") else {
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
    args.extend(http(&server, &stage));
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
