//! MCP's tasks extension as the reference catalog's task rows serve it, over HTTP to raw
//! clients of 2026-07-28, for what the conformance suite does not hold: a task is its
//! client's alone, an answer is checked before its handler gets it, a cancelled task
//! takes no more answers, and a tool that runs only as a task refuses other clients
//! before anything runs. (`conformance.rs` runs the suite's ten tasks scenarios.)

mod common;

use common::stateless::Client;
use common::{HttpServer, example_binary, token};
use serde_json::{Value, json};

fn server() -> (HttpServer, String, String) {
    let (mine, other) = (token("mine"), token("other"));
    let server = HttpServer::start(
        &example_binary("reference"),
        &[
            (mine.clone(), "full-access"),
            (other.clone(), "full-access"),
        ],
        &[],
    );
    (server, mine, other)
}

/// The task a call was answered with: its id.
fn created(result: &Value) -> String {
    assert_eq!(result["resultType"], "task", "{result}");
    assert_eq!(result["status"], "working", "{result}");
    assert!(result.get("requestState").is_none(), "{result}");
    result["taskId"].as_str().expect("a task id").to_owned()
}

fn status(task: &Value) -> &str {
    task["status"].as_str().unwrap_or_default()
}

#[test]
fn a_task_is_its_clients_alone() {
    let (server, mine, other) = server();
    let (me, them) = (
        Client::taking_tasks(&server.address, &mine),
        Client::taking_tasks(&server.address, &other),
    );
    let id = created(&me.call(
        "slow_compute",
        json!({"seconds": 60, "label": "x"}),
        json!({}),
    ));
    assert_eq!(id.len(), 32, "128 random bits, in hex: {id}");
    // Another client, even at the same level, reads, answers and cancels nothing of it:
    // to it the id names no task, as a made-up one does.
    let made_up = "0123456789abcdef0123456789abcdef";
    for task in [&id[..], made_up] {
        for (method, params) in [
            ("tasks/get", json!({"taskId": task})),
            (
                "tasks/update",
                json!({"taskId": task, "inputResponses": {}}),
            ),
            ("tasks/cancel", json!({"taskId": task})),
        ] {
            let refused = them.request(method, params);
            assert_eq!(refused["error"]["code"], -32602, "{method}: {refused}");
            let message = refused["error"]["message"].as_str().unwrap_or_default();
            assert!(message.contains(&format!("no task `{task}`")), "{message}");
        }
    }
    assert_eq!(status(&me.task(&id)), "working");
    let ack = me.request("tasks/cancel", json!({"taskId": id}));
    assert_eq!(ack, json!({"resultType": "complete"}));
    assert_eq!(status(&me.task(&id)), "cancelled");
    // Cancelling again changes nothing, and says so the same way.
    assert_eq!(me.request("tasks/cancel", json!({"taskId": id})), ack);
    assert_eq!(status(&me.task(&id)), "cancelled");
}

#[test]
fn an_answer_reaches_the_waiting_handler_only_when_it_answers_the_question() {
    let (server, mine, _) = server();
    let me = Client::taking_tasks(&server.address, &mine);
    let id = created(&me.call(
        "confirm_delete",
        json!({"filename": "notes.txt"}),
        json!({}),
    ));
    let asking = me.task_until(&id, |t| status(t) == "input_required");
    let requests = asking["inputRequests"].as_object().expect("the questions");
    assert_eq!(requests.len(), 1, "{asking}");
    let (key, question) = requests.iter().next().unwrap();
    assert_eq!(question["method"], "elicitation/create", "{question}");
    assert_eq!(
        question["params"]["message"], "Delete notes.txt?",
        "{question}"
    );

    // Not an elicitation's result: refused, naming the key, and the question still waits.
    let refused = me.request(
        "tasks/update",
        json!({"taskId": id, "inputResponses": {key.as_str(): {"confirm": true}}}),
    );
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(&format!("`{key}` is not an elicitation result")),
        "{message}"
    );
    assert_eq!(status(&me.task(&id)), "input_required");

    // An answer to no question it waits on is ignored; the right one ends it.
    let answer = json!({"action": "accept", "content": {"confirm": true}});
    let ack = me.request(
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"elicit-9": answer, key.as_str(): answer}}),
    );
    assert_eq!(ack, json!({"resultType": "complete"}));
    let done = me.task_until(&id, |t| status(t) == "completed");
    assert_eq!(
        done["result"]["content"][0]["text"], "Deleted notes.txt",
        "{done}"
    );
    assert!(done.get("inputRequests").is_none(), "{done}");
}

#[test]
fn a_cancelled_task_drops_its_question_and_takes_no_answer() {
    let (server, mine, _) = server();
    let me = Client::taking_tasks(&server.address, &mine);
    let id = created(&me.call("multi_input", json!({}), json!({})));
    let asking = me.task_until(&id, |t| {
        t["inputRequests"].as_object().is_some_and(|r| r.len() == 2)
    });
    let keys: Vec<String> = asking["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    let ack = me.request("tasks/cancel", json!({"taskId": id}));
    assert_eq!(ack, json!({"resultType": "complete"}));
    let cancelled = me.task(&id);
    assert_eq!(status(&cancelled), "cancelled");
    assert!(cancelled.get("inputRequests").is_none(), "{cancelled}");
    let answer = json!({"action": "accept", "content": {"name": "late", "confirm": true}});
    let responses: serde_json::Map<String, Value> =
        keys.iter().map(|k| (k.clone(), answer.clone())).collect();
    let ack = me.request(
        "tasks/update",
        json!({"taskId": id, "inputResponses": responses}),
    );
    assert_eq!(ack, json!({"resultType": "complete"}));
    assert_eq!(status(&me.task(&id)), "cancelled");
}

#[test]
fn a_tool_that_runs_only_as_a_task_refuses_other_clients_before_it_runs() {
    let (server, mine, _) = server();
    // Form elicitation, no tasks: `test_tool_with_task` would ask first, but is refused.
    let plain = Client::new(&server.address, &mine, json!({"elicitation": {"form": {}}}));
    for tool in ["failing_job", "test_tool_with_task"] {
        let refused = plain.call(tool, json!({}), json!({}));
        assert_eq!(refused["error"]["code"], -32021, "{tool}: {refused}");
        assert_eq!(
            refused["error"]["data"]["requiredCapabilities"],
            json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}),
            "{tool}"
        );
        let message = refused["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(&format!("`{tool}` runs only as a task")),
            "{message}"
        );
    }
    assert!(
        !server.log().contains("goes on as a task"),
        "{}",
        server.log()
    );
    // A tool that may be a task answers such a client in the response, as any tool.
    let answered = plain.call(
        "slow_compute",
        json!({"seconds": 0, "label": "now"}),
        json!({}),
    );
    assert_eq!(answered["resultType"], "complete", "{answered}");
    assert_eq!(answered["content"][0]["text"], "Computed now in 0 seconds");
}

#[test]
fn a_handler_that_asks_first_asks_in_rounds_then_goes_on_as_a_task() {
    let (server, mine, _) = server();
    let me = Client::taking_tasks(&server.address, &mine);
    let asked = me.call("test_tool_with_task", json!({}), json!({}));
    assert_eq!(asked["resultType"], "input_required", "{asked}");
    assert!(asked.get("taskId").is_none(), "{asked}");
    let state = asked["requestState"].as_str().expect("a state");
    let id = created(&me.call(
        "test_tool_with_task",
        json!({}),
        json!({
            "requestState": state,
            "inputResponses": {"user_name": {"action": "accept", "content": {"name": "Ada"}}},
        }),
    ));
    let done = me.task_until(&id, |t| status(t) == "completed");
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Ada!",
        "{done}"
    );
}
