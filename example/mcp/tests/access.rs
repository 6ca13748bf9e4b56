//! The example app's own calls through `catalog-mcp`'s call path, without a transport:
//! a failed call is a tool error and loses nothing staged, and concurrent callers stage
//! every change once.
//!
//! What the call path does for any catalog (every tool at every level, the rejections
//! on each protocol revision, the gated-tool policy, listings and results) is
//! catalog-mcp's `tests/calls.rs`, on its tracker example; the example catalog's listing
//! and probes at each level run over a real client in `tests/peers.rs`.

use std::sync::Arc;

use app_backend::{Backend, FixedClock};
use app_catalog::Catalog;
use catalog_core::talk::NoPeer;
use catalog_core::{Access, Value};
use catalog_mcp::rmcp::ErrorData;
use catalog_mcp::rmcp::model::{CallToolResponse, CallToolResult, ProtocolVersion};
use catalog_mcp::{Asker, GatedPolicy, NoAsker};
use serde_json::json;

type Tools = catalog_mcp::Tools<Catalog, Backend, { Catalog::WORDS }>;

fn tools(gated: GatedPolicy) -> Tools {
    let clock = FixedClock::at("2025-03-14T09:30:00+01:00", "Europe/Berlin").unwrap();
    Tools::new(Catalog, Backend::with_clock(clock), gated)
}

/// A call from a client on the revision the Python SDK's `initialize` asks for.
fn call(
    tools: &Tools,
    level: Access,
    name: &str,
    arguments: Value,
    asker: &impl Asker,
) -> Result<CallToolResult, ErrorData> {
    let revision = ProtocolVersion::V_2025_11_25;
    pollster::block_on(tools.call(level, &revision, name, arguments, asker, Arc::new(NoPeer))).map(
        |response| match response {
            CallToolResponse::Complete(result) => result,
            other => panic!("not a complete result: {other:?}"),
        },
    )
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
