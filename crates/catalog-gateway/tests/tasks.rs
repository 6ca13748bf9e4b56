//! The tasks of an upstream passed on (MCP's tasks extension): the gateway in front of the
//! reference catalog served by `catalog-mcp` (`catalog-mcp/examples/reference`, over
//! stdio, imported as a user would), whose rows that say `task` make tasks for a client
//! that declares the extension. Through the gateway the conformance suite's ten tasks
//! scenarios pass, as against the reference catalog direct; a task's id names it to the
//! client that started it alone; and a client without the extension calls the same tools
//! as before: an optional task answers in the response, a task-only tool refuses it.
//!
//! Needs the suite (`CATALOG_PEER_NODE_BIN`), `cargo-catalog` and the reference example,
//! all of which `cargo xtask test` provides.

#[path = "../../catalog-mcp/tests/common/mod.rs"]
mod common;
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::conformance::{Suite, held};
use common::stateless::Client;
use common::{HttpServer, run, scratch, token};
use serde_json::{Value, json};
use support::cargo_catalog;

/// `catalog-mcp`'s reference example, which `cargo test --workspace` builds beside this
/// package's tests.
fn reference() -> PathBuf {
    let gateway = Path::new(env!("CARGO_BIN_EXE_catalog-gateway"));
    let binary = gateway
        .with_file_name("examples")
        .join(format!("reference{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.is_file(),
        "{} is not built: run `cargo build -p catalog-mcp --example reference` (or `cargo xtask test`)",
        binary.display()
    );
    binary
}

/// The gateway over HTTP in front of the reference catalog, with two full-access tokens.
fn gateway(test: &str) -> (HttpServer, String, String) {
    let dir = scratch(test);
    let catalog = dir.join("gateway.toml");
    let done = run(
        Command::new(cargo_catalog())
            .args(["import", "--from-server", "--name", "reference", "--out"])
            .arg(&catalog)
            .arg("--")
            .arg(reference())
            .args(["--access", "full-access"]),
        Duration::from_secs(120),
    );
    assert!(done.status.success(), "import: {}", done.stderr);
    let (mine, other) = (token("mine"), token("other"));
    let server = HttpServer::start(
        Path::new(env!("CARGO_BIN_EXE_catalog-gateway")),
        &[
            (mine.clone(), "full-access"),
            (other.clone(), "full-access"),
        ],
        &["--catalog", catalog.to_str().unwrap()],
    );
    (server, mine, other)
}

#[test]
fn the_suites_tasks_scenarios_pass_through_the_gateway() {
    let test = "the_suites_tasks_scenarios_pass_through_the_gateway";
    let Some(suite) = Suite::find(test) else {
        return;
    };
    let (server, mine, _) = gateway(test);
    // The tasks scenarios the reference catalog is held to direct.
    let scenarios = held("reference-mcp", "2026-07-28");
    let names: Vec<&str> = scenarios
        .keys()
        .map(String::as_str)
        .filter(|name| name.starts_with("tasks-"))
        .collect();
    assert_eq!(names.len(), 10, "{scenarios:?}");
    let outcomes = suite.run_scenarios(&server.url, &mine, "2026-07-28", &names);
    let failed: Vec<String> = names
        .iter()
        .filter_map(|name| match outcomes.get(*name) {
            None => Some(format!("{name} did not run")),
            Some(outcome) if !outcome.passed() => {
                Some(format!("{name}: {}", outcome.failed.join("; ")))
            }
            Some(_) => None,
        })
        .collect();
    assert!(
        failed.is_empty(),
        "through the gateway:\n  {}\n{}",
        failed.join("\n  "),
        server.log()
    );
}

fn status(task: &Value) -> &str {
    task["status"].as_str().unwrap_or_default()
}

#[test]
fn a_relayed_task_is_its_clients_alone_and_others_call_as_before() {
    let (server, mine, other) = gateway("a_relayed_task_is_its_clients_alone");
    let (me, them) = (
        Client::taking_tasks(&server.address, &mine),
        Client::taking_tasks(&server.address, &other),
    );
    let created = me.call(
        "slow_compute",
        json!({"seconds": 60, "label": "x"}),
        json!({}),
    );
    assert_eq!(created["resultType"], "task", "{created}\n{}", server.log());
    let id = created["taskId"].as_str().expect("a task id").to_owned();
    assert_eq!(status(&me.task(&id)), "working");
    for (method, params) in [
        ("tasks/get", json!({"taskId": id})),
        ("tasks/update", json!({"taskId": id, "inputResponses": {}})),
        ("tasks/cancel", json!({"taskId": id})),
    ] {
        let refused = them.request(method, params);
        assert_eq!(refused["error"]["code"], -32602, "{method}: {refused}");
        let message = refused["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(&format!("no task `{id}`")), "{message}");
    }
    assert_eq!(
        status(&me.task(&id)),
        "working",
        "another's cancel reached it"
    );
    let ack = me.request("tasks/cancel", json!({"taskId": id}));
    assert_eq!(ack, json!({"resultType": "complete"}));
    assert_eq!(status(&me.task(&id)), "cancelled");

    // A question inside a relayed task reaches its client as the upstream put it, and
    // the answer goes back as the client gave it.
    let created = me.call("confirm_delete", json!({"filename": "a.txt"}), json!({}));
    let id = created["taskId"].as_str().expect("a task id").to_owned();
    let asking = me.task_until(&id, |t| status(t) == "input_required");
    let key = asking["inputRequests"]
        .as_object()
        .and_then(|r| r.keys().next().cloned())
        .expect("a question");
    let answer = json!({"action": "accept", "content": {"confirm": true}});
    let ack = me.request(
        "tasks/update",
        json!({"taskId": id, "inputResponses": {key: answer}}),
    );
    assert_eq!(ack, json!({"resultType": "complete"}));
    let done = me.task_until(&id, |t| status(t) == "completed");
    assert_eq!(done["taskId"], id.as_str(), "{done}");
    assert_eq!(
        done["result"]["content"][0]["text"], "Deleted a.txt",
        "{done}"
    );

    // A client that takes no tasks calls as before.
    let plain = Client::new(&server.address, &mine, json!({}));
    let answered = plain.call(
        "slow_compute",
        json!({"seconds": 0, "label": "now"}),
        json!({}),
    );
    assert_eq!(
        answered["content"][0]["text"], "Computed now in 0 seconds",
        "{answered}"
    );
    let refused = plain.call("failing_job", json!({}), json!({}));
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
}
