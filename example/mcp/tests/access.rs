//! The example app's call path in `catalog-mcp`, without a transport: every tool at
//! every level, the gated-tool policy, failures that keep what is staged, concurrent
//! staging.

#[path = "../../../catalog-mcp/tests/common/mod.rs"]
mod common;

use std::sync::Mutex;

use app_backend::{Backend, FixedClock};
use app_catalog::{Catalog, Tool};
use catalog_core::{Access, Value};
use catalog_mcp::rmcp::ErrorData;
use catalog_mcp::rmcp::model::{CallToolResponse, CallToolResult, ProtocolVersion};
use catalog_mcp::{Answer, Asker, GatedPolicy, NoAsker};
use serde_json::json;

use common::report::{check_listed_names, check_probes, probe_in_process};

type Tools = catalog_mcp::Tools<Catalog, Backend, { Catalog::WORDS }>;

fn tools(gated: GatedPolicy) -> Tools {
    let clock = FixedClock::at("2025-03-14T09:30:00+01:00", "Europe/Berlin").unwrap();
    Tools::new(Catalog, Backend::with_clock(clock), gated)
}

/// The revision the Python SDK's `initialize` asks for, and the last one before SEP-1303.
const NOW: ProtocolVersion = ProtocolVersion::V_2025_11_25;
const BEFORE: ProtocolVersion = ProtocolVersion::V_2025_06_18;

/// A call from a client on [`NOW`].
fn call(
    tools: &Tools,
    level: Access,
    name: &str,
    arguments: Value,
    asker: &impl Asker<Tool>,
) -> Result<CallToolResult, ErrorData> {
    call_on(&NOW, tools, level, name, arguments, asker)
}

fn call_on(
    revision: &ProtocolVersion,
    tools: &Tools,
    level: Access,
    name: &str,
    arguments: Value,
    asker: &impl Asker<Tool>,
) -> Result<CallToolResult, ErrorData> {
    pollster::block_on(tools.call(level, revision, name, arguments, asker)).map(|response| {
        match response {
            CallToolResponse::Complete(result) => result,
            other => panic!("not a complete result: {other:?}"),
        }
    })
}

fn text(result: &CallToolResult) -> Value {
    let text = &result.content[0].as_text().unwrap().text;
    serde_json::from_str(text).unwrap()
}

fn staged(tools: &Tools) -> Value {
    let result = call(tools, Access::ReadOnly, "showStaging", json!({}), &NoAsker).unwrap();
    text(&result)
}

/// `stageItem` arguments that insert a customer.
fn insert(name: &str) -> Value {
    json!({"table": "customers", "operation": "insert",
           "values": {"name": name, "city": "Munich", "country": "DE"}})
}

/// `stageItem` arguments that fit the schema but name no row: the handler fails.
fn delete_missing_row() -> Value {
    json!({"table": "customers", "operation": "delete", "key": 999_999})
}

/// Records the questions it is asked and gives one answer to all.
struct Recorder {
    answer: Answer,
    asked: Mutex<Vec<(Tool, Value)>>,
}

impl Recorder {
    fn new(answer: Answer) -> Recorder {
        Recorder {
            answer,
            asked: Mutex::new(Vec::new()),
        }
    }
}

impl Asker<Tool> for Recorder {
    async fn ask(&self, tool: Tool, arguments: &Value) -> Answer {
        self.asked.lock().unwrap().push((tool, arguments.clone()));
        self.answer.clone()
    }
}

#[test]
fn every_tool_at_every_level_is_listed_and_reached_as_the_tables_say() {
    let tools = tools(GatedPolicy::Deny);
    for revision in [BEFORE, NOW] {
        for level in Access::ALL {
            let report = probe_in_process(&tools, level, &revision);
            check_listed_names(Catalog, &report, level);
            check_probes(Catalog, &report, level, revision.as_str());
        }
    }
    assert_eq!(staged(&tools), json!([]), "the probes ran nothing");
}

#[test]
fn the_rejection_travels_whole_in_the_result_or_the_error_data() {
    let tools = tools(GatedPolicy::Deny);
    let query = |revision| {
        call_on(
            revision,
            &tools,
            Access::ReadOnly,
            "queryRows",
            json!({"table": 5}),
            &NoAsker,
        )
    };
    let result = query(&NOW).unwrap();
    assert_eq!(result.is_error, Some(true));
    let rejection = text(&result);
    assert_eq!(
        rejection,
        json!({"error": "SCHEMA_RESOLUTION", "tool": "queryRows", "message": rejection["message"],
               "issues": [{"path": "/table", "class": "SCHEMA_RESOLUTION",
                           "message": "`/table`: expected a string, got the number 5"}]})
    );
    let error = query(&BEFORE).unwrap_err();
    assert_eq!(error.code.0, -32602);
    assert_eq!(rejection["message"], error.message.as_ref());
    assert_eq!(error.data, Some(rejection));
}

#[test]
fn the_gated_policy_decides_and_silent_tools_are_never_asked_about() {
    for (gated, answer, commits) in [
        (GatedPolicy::Deny, Answer::Approved, false),
        (GatedPolicy::Allow, Answer::Declined, true),
        (GatedPolicy::Ask, Answer::Approved, true),
        (GatedPolicy::Ask, Answer::Declined, false),
        (GatedPolicy::Ask, Answer::Unasked, false),
    ] {
        let what = format!("{gated} / {answer:?}");
        let tools = tools(gated);
        let asker = Recorder::new(answer);
        let staged_result = call(
            &tools,
            Access::FullAccess,
            "stageItem",
            insert("GatedPolicy"),
            &asker,
        )
        .unwrap();
        assert_eq!(staged_result.is_error, Some(false), "{what}");
        let commit = call(
            &tools,
            Access::FullAccess,
            "commitStaged",
            json!({"message": "m"}),
            &asker,
        );
        let questions = asker.asked.lock().unwrap().clone();
        if gated == GatedPolicy::Ask {
            assert_eq!(
                questions,
                [(Tool::CommitStaged, json!({"message": "m"}))],
                "{what}"
            );
        } else {
            assert!(questions.is_empty(), "{what}");
        }
        if commits {
            assert_eq!(text(&commit.unwrap())["applied"], 1, "{what}");
            assert_eq!(staged(&tools), json!([]), "{what}");
        } else {
            let result = commit.unwrap();
            assert_eq!(result.is_error, Some(true), "{what}");
            assert_eq!(text(&result)["error"], "PERMISSION_DENIED", "{what}");
            assert_eq!(
                staged(&tools).as_array().unwrap().len(),
                1,
                "{what}: still staged"
            );
        }
    }
}

#[test]
fn failed_calls_are_tool_errors_and_lose_nothing_staged() {
    let tools = tools(GatedPolicy::Deny);
    call(
        &tools,
        Access::ReadAndStage,
        "stageItem",
        insert("Kept"),
        &NoAsker,
    )
    .unwrap();
    let before = staged(&tools);
    for (name, arguments) in [
        (
            "stageItem",
            json!({"table": "nope", "operation": "insert", "values": {"a": 1}}),
        ),
        (
            "stageItem",
            json!({"table": "customers", "operation": "update", "values": {"a": 1}}),
        ),
        (
            "bulkEdit",
            json!({"table": "customers", "operation": "update", "set": {"nope": 1},
                            "filter": {"conditions": [{"column": "id", "op": "notNull"}]}}),
        ),
        ("undoStaged", json!({"count": 0})),
        (
            "exportCsv",
            json!({"table": "customers", "fileName": "c.csv"}),
        ),
    ] {
        // A failed handler, or the verifier catching it before the handler (just as
        // harmless): a tool error either way.
        let result = call(&tools, Access::ReadAndStage, name, arguments, &NoAsker).unwrap();
        assert_eq!(result.is_error, Some(true), "{name}");
        let rejection = text(&result);
        assert_ne!(
            rejection["error"], "PERMISSION_DENIED",
            "{name}: {rejection}"
        );
        assert_eq!(rejection["tool"], name);
        assert!(result.structured_content.is_none());
        assert_eq!(staged(&tools), before, "{name}");
    }
}

#[test]
fn results_are_text_and_structured_when_the_listing_declares_an_output() {
    let tools = tools(GatedPolicy::Deny);
    let rows = call(
        &tools,
        Access::ReadOnly,
        "queryRows",
        json!({"table": "orders", "limit": 1}),
        &NoAsker,
    )
    .unwrap();
    assert_eq!(rows.structured_content.as_ref(), Some(&text(&rows)));
    let listed = tools.list(Access::ReadOnly);
    let query_rows = listed.iter().find(|t| t.name == "queryRows").unwrap();
    assert!(query_rows.output_schema.is_some());
    // listTables declares an array: MCP's outputSchema is an object, so neither is sent.
    let tables = call(&tools, Access::ReadOnly, "listTables", json!({}), &NoAsker).unwrap();
    assert!(tables.structured_content.is_none());
    assert_eq!(text(&tables).as_array().unwrap().len(), 3);
    let list_tables = listed.iter().find(|t| t.name == "listTables").unwrap();
    assert!(list_tables.output_schema.is_none());
}

#[test]
fn concurrent_callers_stage_every_change_once() {
    let tools = tools(GatedPolicy::Deny);
    let (threads, each) = (8, 40);
    std::thread::scope(|scope| {
        for t in 0..threads {
            let tools = &tools;
            scope.spawn(move || {
                for i in 0..each {
                    let name = format!("thread-{t}-{i}");
                    let result = call(
                        tools,
                        Access::ReadAndStage,
                        "stageItem",
                        insert(&name),
                        &NoAsker,
                    )
                    .unwrap();
                    assert_eq!(result.is_error, Some(false));
                    // A failing call between the others changes nothing.
                    let _ = call(
                        tools,
                        Access::ReadAndStage,
                        "stageItem",
                        delete_missing_row(),
                        &NoAsker,
                    );
                }
            });
        }
    });
    let staged = staged(&tools);
    let summaries: Vec<&str> = staged
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["summary"].as_str().unwrap())
        .collect();
    assert_eq!(summaries.len(), threads * each);
    for t in 0..threads {
        for i in 0..each {
            let name = format!("name = \"thread-{t}-{i}\"");
            assert_eq!(
                summaries.iter().filter(|s| s.contains(&name)).count(),
                1,
                "{name}"
            );
        }
    }
}
