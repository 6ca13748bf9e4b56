//! The server driven by the official MCP Python SDK (`tests/clients/*.py`) over stdio and
//! streamable HTTP. The clients report what they saw; these tests compare it with the
//! catalog's generated tables, for every tool at every level.

mod common;

use std::path::Path;
use std::time::Duration;

use app_catalog::{Catalog, Tool};
use catalog_core::{Access, Caller, Reach};
use common::{HttpServer, SERVER, peer_python, run_client, token};
use serde_json::{Value, json};

const LIMIT: Duration = Duration::from_secs(120);

fn tool_names() -> String {
    let names: Vec<&str> = Tool::ALL.iter().map(|t| t.name()).collect();
    serde_json::to_string(&names).unwrap()
}

fn stdio_args(level: Access, gated: &str) -> Vec<String> {
    [SERVER, "--access", level.as_str(), "--gated", gated]
        .map(String::from)
        .to_vec()
}

fn http_args(server: &HttpServer, token: &str) -> Vec<String> {
    vec![
        "--http".into(),
        server.url.clone(),
        "--token".into(),
        token.to_owned(),
    ]
}

/// The protocol revisions a client opens with: `initialize` (the newest handshake
/// revision, with sessions) or `server/discover` (2026-07-28, stateless).
const REVISIONS: [(bool, &str); 2] = [(false, "2025-11-25"), (true, "2026-07-28")];

fn conformance(python: &Path, tag: &str, modern: bool, connection: &[String]) -> Value {
    let mut args = vec!["--tools".into(), tool_names(), "--tag".into(), tag.into()];
    if modern {
        args.push("--modern".into());
    }
    // `--stdio` takes the rest of the command line, so it goes last.
    args.extend(connection.iter().cloned());
    run_client(python, "conformance.py", &args, LIMIT)
}

/// The JSON-RPC error a call got, or a panic naming what came instead.
fn error<'a>(outcome: &'a Value, what: &str) -> &'a Value {
    outcome
        .get("error")
        .unwrap_or_else(|| panic!("{what}: expected a JSON-RPC error, got {outcome}"))
}

fn assert_level_refusal(outcome: &Value, tool: Tool, level: Access, what: &str) {
    let needed = tool.spec().access.unwrap();
    let e = error(outcome, what);
    assert_eq!(e["code"], -32602, "{what}: {e}");
    assert_eq!(e["data"]["error"], "PERMISSION_DENIED", "{what}: {e}");
    assert_eq!(e["data"]["tool"], tool.name(), "{what}: {e}");
    let message = e["message"].as_str().unwrap();
    assert!(
        message.contains(&format!(
            "needs the {needed} access level; this connection has {level}"
        )),
        "{what}: {message}"
    );
}

fn staged_ids(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|c| c["changeId"].as_str().unwrap())
        .collect()
}

/// Everything one client at `level` saw, checked against the generated tables. The
/// server's policy for gated tools is deny, or ask with a client that cannot be asked.
fn check_conformance(report: &Value, level: Access, tag: &str, revision: &str) {
    assert_eq!(report["initialize"]["protocolVersion"], revision, "{tag}");
    check_listing(report, level);
    check_probes(report, level);
    check_calls(report, level, tag);
}

fn check_listing(report: &Value, level: Access) {
    let init = &report["initialize"];
    assert_eq!(init["serverName"], "catalog-mcp");
    assert_eq!(init["tools"], true);

    // tools/list: exactly the level's set, in catalog order, each entry as rendered.
    let listed: Vec<&str> = report["listed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    let allowed: Vec<&str> = Catalog::mcp_allowed(level)
        .into_iter()
        .map(Tool::name)
        .collect();
    assert_eq!(listed, allowed, "{level}: tools/list");
    for entry in report["listed"].as_array().unwrap() {
        let tool = Tool::from_name(entry["name"].as_str().unwrap()).unwrap();
        let spec = tool.spec();
        assert_eq!(entry["description"], spec.description);
        let input: Value = serde_json::from_str(spec.input_schema).unwrap();
        assert_eq!(entry["inputSchema"], input, "{}", spec.name);
        let object_output = spec
            .output_schema
            .map(|s| serde_json::from_str::<Value>(s).unwrap())
            .filter(|s| s["type"] == "object");
        assert_eq!(
            entry["outputSchema"],
            object_output.unwrap_or(Value::Null),
            "{}",
            spec.name
        );
        let hints = match spec.access.unwrap() {
            Access::ReadOnly => (json!(true), Value::Null),
            Access::ReadAndStage => (json!(false), json!(false)),
            Access::FullAccess => (json!(false), json!(true)),
        };
        assert_eq!(
            (
                entry["readOnlyHint"].clone(),
                entry["destructiveHint"].clone()
            ),
            hints,
            "{}",
            spec.name
        );
    }
}

/// Every tool of the catalog, called with arguments no tool takes: the level's tools
/// reach the argument check, the others are refused before it.
fn check_probes(report: &Value, level: Access) {
    for tool in Tool::ALL {
        let name = tool.name();
        let outcome = &report["probe"][name];
        let what = format!("{level}: probe of {name}");
        match tool.spec().reach(Caller::Mcp(level), false) {
            Reach::Hidden => {
                let e = error(outcome, &what);
                assert_eq!(e["code"], -32602, "{what}");
                assert_eq!(e["message"], format!("Unknown tool: {name}"), "{what}");
                assert_eq!(e["data"]["tool"], Value::Null, "{what}");
            }
            Reach::Below(_) => assert_level_refusal(outcome, tool, level, &what),
            Reach::Allowed => {
                let e = error(outcome, &what);
                assert_eq!(e["code"], -32602, "{what}");
                assert_eq!(e["data"]["error"], "SCHEMA_RESOLUTION", "{what}");
                let message = e["message"].as_str().unwrap();
                assert!(
                    message.starts_with(&format!("Invalid arguments for `{name}`")),
                    "{what}: {message}"
                );
                let unknown = e["data"]["issues"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|i| i["path"] == "/catalogProbe");
                assert!(unknown, "{what}: {e}");
            }
        }
    }
    let unknown = error(&report["probe"]["noSuchTool"], "noSuchTool");
    assert_eq!(unknown["code"], -32602);
    assert_eq!(unknown["message"], "Unknown tool: noSuchTool");
}

fn check_calls(report: &Value, level: Access, tag: &str) {
    // A read tool runs at every level.
    let tables = &report["listTables"];
    assert_eq!(tables["isError"], false, "{tables}");
    let names: Vec<&str> = tables["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["customers", "orders", "products"]);
    let rows = &report["queryRows"];
    assert_eq!(rows["isError"], false, "{rows}");
    assert_eq!(rows["content"]["rows"].as_array().unwrap().len(), 2);
    assert_eq!(
        rows["structuredContent"], rows["content"],
        "structured and text agree"
    );

    // Arguments that do not fit: invalid params, every issue with its place.
    let bad = error(&report["badArguments"], "bad arguments");
    assert_eq!(bad["code"], -32602);
    let paths: Vec<&str> = bad["data"]["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["/table", "/limit"]);

    // Staging: refused at read-only, else staged and shown.
    let before = staged_ids(&report["stagedBefore"]);
    let after = staged_ids(&report["stagedAfterStage"]);
    if level == Access::ReadOnly {
        assert_level_refusal(&report["stageItem"], Tool::StageItem, level, "stageItem");
        assert_eq!(after, before);
        assert_level_refusal(
            &report["failedStage"],
            Tool::StageItem,
            level,
            "failed stage",
        );
    } else {
        let staged = &report["stageItem"];
        assert_eq!(staged["isError"], false, "{staged}");
        let id = staged["content"]["changeId"].as_str().unwrap();
        assert_eq!(staged["structuredContent"], staged["content"]);
        assert_eq!(after.len(), before.len() + 1, "{level}");
        assert!(after.contains(&id));
        let mine = report["stagedAfterStage"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["changeId"] == id)
            .unwrap();
        assert!(
            mine["summary"]
                .as_str()
                .unwrap()
                .contains(&format!("Conformance {tag}"))
        );
        // A call that fails in the handler is a tool error and loses nothing staged.
        let failed = &report["failedStage"];
        assert_eq!(failed["isError"], true, "{failed}");
        assert_eq!(failed["content"]["error"], "RUNTIME_ERROR");
        assert!(
            failed["content"]["message"]
                .as_str()
                .unwrap()
                .contains("noSuchTable")
        );
    }
    assert_eq!(report["stagedAfterFailure"], report["stagedAfterStage"]);

    // commitStaged: above the level below full access; refused by the policy at it.
    if level < Access::FullAccess {
        assert_level_refusal(
            &report["commitStaged"],
            Tool::CommitStaged,
            level,
            "commitStaged",
        );
    } else {
        let e = error(&report["commitStaged"], "commitStaged");
        assert_eq!(e["code"], -32602);
        assert_eq!(e["data"]["error"], "PERMISSION_DENIED");
        assert!(
            e["message"]
                .as_str()
                .unwrap()
                .contains("refused to run `commitStaged`")
        );
    }
    assert_eq!(
        report["stagedAfterCommit"], report["stagedAfterFailure"],
        "nothing committed"
    );
    assert_eq!(report["committedRows"], 0);
}

#[test]
fn stdio_clients_at_each_level_see_exactly_their_tables() {
    let Some(python) = peer_python("stdio_clients_at_each_level_see_exactly_their_tables") else {
        return;
    };
    for level in Access::ALL {
        let mut connection = vec!["--stdio".to_owned()];
        connection.extend(stdio_args(level, "deny"));
        let (modern, revision) = REVISIONS[0];
        let tag = format!("stdio-{level}");
        let report = conformance(&python, &tag, modern, &connection);
        check_conformance(&report, level, &tag, revision);
    }
}

#[test]
fn http_clients_get_the_level_of_their_token() {
    let Some(python) = peer_python("http_clients_get_the_level_of_their_token") else {
        return;
    };
    let tokens: Vec<(String, &str)> = Access::ALL
        .iter()
        .map(|level| (token(level.as_str()), level.as_str()))
        .collect();
    // The default policy, ask: these clients declare no elicitation, so it falls back
    // to deny.
    let server = HttpServer::start(&tokens, &[]);
    for (modern, revision) in REVISIONS {
        for (level, (token, _)) in Access::ALL.into_iter().zip(&tokens) {
            let tag = format!("http-{revision}-{level}");
            let report = conformance(&python, &tag, modern, &http_args(&server, token));
            check_conformance(&report, level, &tag, revision);
        }
    }
    // The tokens never reach the log.
    let log = server.log();
    assert!(
        tokens.iter().all(|(t, _)| !log.contains(t.as_str())),
        "{log}"
    );
}

fn elicit(python: &Path, answer: &str, modern: bool, connection: &[String]) -> Value {
    let mut args = vec![
        "--answer".into(),
        answer.into(),
        "--tag".into(),
        answer.into(),
    ];
    if modern {
        args.push("--modern".into());
    }
    args.extend(connection.iter().cloned());
    run_client(python, "elicit.py", &args, LIMIT)
}

/// `asked`: whether the client could be asked (it declared elicitation and opened
/// with a revision that allows requests to it mid-call).
fn check_elicited(report: &Value, answer: &str, asked: bool) {
    assert_eq!(report["stageItem"]["isError"], false, "{report}");
    let commit = &report["commitStaged"];
    if asked && answer == "accept" {
        assert_eq!(commit["isError"], false, "{commit}");
        assert_eq!(commit["content"]["applied"], 1, "{commit}");
        assert_eq!(report["staged"], json!([]));
        assert_eq!(report["committedRows"], 1);
    } else {
        let e = error(commit, answer);
        assert_eq!(e["data"]["error"], "PERMISSION_DENIED", "{answer}: {e}");
        assert_eq!(
            report["staged"].as_array().unwrap().len(),
            1,
            "{answer}: kept staged"
        );
        assert_eq!(report["committedRows"], 0);
    }
    let questions = report["questions"].as_array().unwrap();
    if asked {
        assert_eq!(questions.len(), 1, "{report}");
        assert_eq!(questions[0]["mode"], "form");
        let message = questions[0]["message"].as_str().unwrap();
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
    let Some(python) = peer_python("the_ask_policy_asks_the_client_and_obeys_the_answer") else {
        return;
    };
    let mut connection = vec!["--stdio".to_owned()];
    connection.extend(stdio_args(Access::FullAccess, "ask"));
    for answer in ["accept", "decline", "cancel", "none"] {
        let report = elicit(&python, answer, false, &connection);
        check_elicited(&report, answer, answer != "none");
    }
    // 2026-07-28 forbids asking mid-call: refused, though the client would accept.
    let report = elicit(&python, "accept", true, &connection);
    assert_eq!(report["protocolVersion"], "2026-07-28");
    check_elicited(&report, "accept", false);
    // Over HTTP the question travels on the session's stream.
    let full = token("full");
    let server = HttpServer::start(&[(full.clone(), "full-access")], &[]);
    let report = elicit(&python, "accept", false, &http_args(&server, &full));
    check_elicited(&report, "accept", true);
}

#[test]
fn the_allow_policy_runs_gated_tools_without_asking() {
    let Some(python) = peer_python("the_allow_policy_runs_gated_tools_without_asking") else {
        return;
    };
    let mut connection = vec!["--stdio".to_owned()];
    connection.extend(stdio_args(Access::FullAccess, "allow"));
    let report = elicit(&python, "none", false, &connection);
    assert_eq!(report["commitStaged"]["content"]["applied"], 1, "{report}");
    assert_eq!(report["committedRows"], 1);
}

#[test]
fn concurrent_http_clients_lose_no_staged_change() {
    let Some(python) = peer_python("concurrent_http_clients_lose_no_staged_change") else {
        return;
    };
    let stage = token("stage");
    let server = HttpServer::start(&[(stage.clone(), "read-and-stage")], &[]);
    let (clients, calls) = (16, 50);
    let mut args = vec![
        "--clients".into(),
        clients.to_string(),
        "--calls".into(),
        calls.to_string(),
        "--deadline".into(),
        "90".into(),
    ];
    args.extend(http_args(&server, &stage));
    let cpu_before = server.cpu_seconds();
    let report = run_client(&python, "load.py", &args, LIMIT);
    println!("load on loopback: {report}");
    if let (Some(before), Some(after)) = (cpu_before, server.cpu_seconds()) {
        // The final check's calls count too: the server's cost per call, client excluded.
        let calls = report["calls"].as_f64().unwrap() + 1.0;
        println!(
            "server CPU: {:.2} s for {calls} calls, {:.2} ms a call",
            after - before,
            (after - before) * 1000.0 / calls
        );
    }
    assert_eq!(report["failureCount"], 0, "{report}");
    assert_eq!(report["calls"], clients * calls);
    let staged = clients * calls / 2;
    assert_eq!(report["stagedByClients"], staged);
    assert_eq!(report["distinctChangeIds"], staged);
    assert_eq!(report["foundOnce"], staged, "{report}");
    assert_eq!(report["missing"], json!([]));
    assert_eq!(report["duplicates"], json!([]));
    assert!(report["callsPerSecond"].as_f64().unwrap() > 0.0);
}
