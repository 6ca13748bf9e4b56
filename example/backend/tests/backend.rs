//! The backend driven the way the agent loop drives it: a tool name and JSON arguments
//! verified into a generated `ToolCall`, then run on the backend as `Handler`, on a
//! database file in a temporary folder.
//! Over 600 lines: independent cases sharing one fixture; read one test at a time.

mod common;

use app_backend::{Area, Backend, Error, UiEvent, ViewMode, refreshes};
use app_catalog::{Catalog, Tool, ToolCall};
use catalog_core::{Access, AllowAll, CallError, Caller, Dispatch, ErrorClass, Via};
use common::{Db, call, call_as, customer_names, ok, staged_ids, verify_as};
use serde_json::{Value, json};

fn backend() -> Db {
    Db::new()
}

#[test]
fn staged_insert_is_reviewed_committed_and_queried_back() {
    let b = backend();
    let out = ok(
        &b,
        "stageItem",
        json!({
            "table": "customers",
            "operation": "insert",
            "values": {"name": "Acme GmbH", "city": "Munich", "country": "DE"},
            "note": "requested in chat",
        }),
    );
    assert_eq!(out, json!({"changeId": "s1", "pendingChanges": 1}));

    // Staged, shown in the staging area, not yet in the table.
    let staged = ok(&b, "showStaging", json!({}));
    assert_eq!(staged.as_array().unwrap().len(), 1);
    assert_eq!(staged[0]["changeId"], "s1");
    assert_eq!(staged[0]["table"], "customers");
    assert_eq!(staged[0]["kind"], "insert");
    let summary = staged[0]["summary"].as_str().unwrap();
    assert!(
        summary.contains("Acme GmbH") && summary.contains("requested in chat"),
        "{summary}"
    );
    assert!(!customer_names(&b).contains(&"Acme GmbH".to_owned()));
    assert!(b.take_ui_events().contains(&UiEvent::OpenStagingPanel));

    let commit = ok(&b, "commitStaged", json!({"message": "new customer"}));
    assert_eq!(
        commit,
        json!({"commitId": "c1", "applied": 1, "rowsAffected": 1})
    );
    assert_eq!(b.staged_count().unwrap(), 0);
    let events = b.take_ui_events();
    for area in [
        Area::Grid,
        Area::StagingPanel,
        Area::History,
        Area::TableList,
    ] {
        assert!(
            events.contains(&UiEvent::Refresh(area)),
            "{area:?} not refreshed: {events:?}"
        );
    }

    // The row is there, with the next id and the column defaults.
    let found = ok(
        &b,
        "queryRows",
        json!({
            "table": "customers",
            "filter": {"conditions": [{"column": "name", "op": "startsWith", "value": "acme"}]},
        }),
    );
    assert_eq!(found["totalMatching"], 1);
    let row = &found["rows"][0];
    assert_eq!(row["id"], 6);
    assert_eq!(row["city"], "Munich");
    assert_eq!(row["vip"], false);
    assert_eq!(row["email"], Value::Null);

    let commits = ok(&b, "listCommits", json!({"table": "customers"}));
    assert_eq!(commits[0]["commitId"], "c1");
    assert_eq!(commits[0]["message"], "new customer");
    assert_eq!(commits[0]["time"], "2025-03-14T09:30:00+01:00");
    assert_eq!(commits[0]["author"], "assistant");
}

#[test]
fn failed_calls_leave_the_staging_area_intact() {
    let b = backend();
    ok(
        &b,
        "stageItem",
        json!({"table": "orders", "operation": "update", "key": 1003, "values": {"status": "shipped"}}),
    );
    let before = ok(&b, "showStaging", json!({}));

    // A misspelled table: the message suggests the right one and how to list tables.
    let e = call(
        &b,
        "stageItem",
        json!({"table": "custmers", "operation": "delete", "key": 3}),
    )
    .unwrap_err();
    assert!(matches!(&e, Error::NoSuchTable { suggestion: Some(s), .. } if s == "customers"));
    let message = e.to_string();
    assert!(
        message.contains("`customers`") && message.contains("listTables"),
        "{message}"
    );

    // A misspelled column, a value of the wrong type, a missing row, a broken reference.
    let e = call(&b, "stageItem", json!({"table": "orders", "operation": "update", "key": 1001, "values": {"stauts": "open"}}))
        .unwrap_err();
    assert!(e.to_string().contains("did you mean `status`?"), "{e}");
    let e = call(&b, "stageItem", json!({"table": "orders", "operation": "update", "key": 1001, "values": {"total": "a lot"}}))
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::InvalidValue {
                expected: "real",
                ..
            }
        ),
        "{e}"
    );
    let e = call(
        &b,
        "stageItem",
        json!({"table": "orders", "operation": "delete", "key": 999}),
    )
    .unwrap_err();
    assert!(matches!(e, Error::NoSuchRow { .. }), "{e}");
    let e = call(&b, "stageItem", json!({"table": "orders", "operation": "insert", "values": {"customer_id": 77, "ordered_on": "2025-03-14", "total": 10}}))
        .unwrap_err();
    assert!(matches!(e, Error::ForeignKey { missing: true, .. }), "{e}");
    // A delete that would orphan orders.
    let e = call(
        &b,
        "stageItem",
        json!({"table": "customers", "operation": "delete", "key": {"id": 2}}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("orders.customer_id"), "{e}");
    // A bulk edit whose set names an unknown column stages none of its rows.
    let e = call(&b, "bulkEdit", json!({"table": "orders", "filter": {"conditions": [{"column": "status", "op": "eq", "value": "open"}]}, "set": {"priority": 1}}))
        .unwrap_err();
    assert!(matches!(e, Error::NoSuchColumn { .. }), "{e}");
    // Out-of-range arguments never reach the backend: the verifier refuses them.
    let e = refused(
        Access::FullAccess,
        "queryRows",
        json!({"table": "orders", "limit": 0}),
    );
    assert_eq!(e.class, ErrorClass::ConstraintViolation);
    // Discarding an unknown id discards nothing.
    let e = call(&b, "discardStaged", json!({"changeIds": ["s1", "s99"]})).unwrap_err();
    assert_eq!(e, Error::NoSuchChange { id: "s99".into() });

    assert_eq!(ok(&b, "showStaging", json!({})), before);
}

#[test]
fn a_commit_that_fails_applies_nothing_and_keeps_what_is_staged() {
    let b = backend();
    let insert = |name: &str| json!({"table": "customers", "operation": "insert", "values": {"id": 42, "name": name}});
    // Each insert alone is valid; together they collide on id 42.
    ok(
        &b,
        "stageItem",
        json!({"table": "orders", "operation": "update", "key": 1003, "values": {"status": "shipped"}}),
    );
    ok(&b, "stageItem", insert("First"));
    ok(&b, "stageItem", insert("Second"));
    let staged = ok(&b, "showStaging", json!({}));
    let orders_before = b.table("orders").unwrap();

    let e = call(&b, "commitStaged", json!({})).unwrap_err();
    let Error::CommitFailed { change_id, reason } = &e else {
        panic!("{e}")
    };
    assert_eq!(change_id, "s3");
    assert!(matches!(**reason, Error::DuplicateKey { .. }), "{reason}");
    assert!(e.to_string().starts_with("nothing was committed"), "{e}");

    assert_eq!(ok(&b, "showStaging", json!({})), staged);
    assert_eq!(
        b.table("orders").unwrap(),
        orders_before,
        "the first change was rolled back"
    );
    assert!(!customer_names(&b).contains(&"First".to_owned()));

    // Drop the offending change and the rest commits.
    ok(&b, "discardStaged", json!({"changeIds": ["s3"]}));
    let commit = ok(&b, "commitStaged", json!({}));
    assert_eq!(commit["applied"], 2);
    assert!(customer_names(&b).contains(&"First".to_owned()));
}

#[test]
fn search_tool_calls_go_back_to_the_agent_loop() {
    let b = backend();
    let call = verify_as(
        Caller::Chat,
        "searchTools",
        json!({"query": "export rows to CSV"}),
    );
    assert_eq!(call.tool(), Catalog::SEARCH_TOOL);
    match pollster::block_on(call.dispatch(&b.backend)) {
        Dispatch::Search(args) => assert_eq!(args.query, "export rows to CSV"),
        Dispatch::Ran(result) => panic!("searchTools ran a handler: {result:?}"),
    }
    assert!(b.take_ui_events().is_empty());
}

#[test]
fn parse_rejects_unknown_tools_and_arguments() {
    assert_eq!(
        ToolCall::parse("stageRow", json!({})).unwrap_err(),
        CallError::UnknownTool("stageRow".into())
    );
    let e = ToolCall::parse(
        "stageItem",
        json!({"table": "orders", "operation": "upsert"}),
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            CallError::BadArguments {
                tool: "stageItem",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn query_rows_filters_sorts_and_pages() {
    let b = backend();
    let page = ok(
        &b,
        "queryRows",
        json!({
            "table": "orders",
            "columns": ["id", "total"],
            "filter": {"match": "all", "conditions": [
                {"column": "status", "op": "ne", "value": "cancelled"},
                {"column": "ordered_on", "op": "ge", "value": "2025-02-01"},
            ]},
            "sort": [{"column": "total", "direction": "desc"}],
            "limit": 2,
            "offset": 1,
        }),
    );
    // Matching: 1002 (312.00), 1003 (89.90), 1004 (560.00), 1006 (2210.75).
    assert_eq!(page["totalMatching"], 4);
    assert_eq!(page["hasMore"], true);
    assert_eq!(
        page["rows"],
        json!([{"id": 1004, "total": 560.0}, {"id": 1002, "total": 312.0}])
    );

    let any = ok(
        &b,
        "queryRows",
        json!({
            "table": "customers",
            "filter": {"match": "any", "conditions": [
                {"column": "country", "op": "in", "value": ["IE", "NO"]},
                {"column": "email", "op": "isNull"},
            ]},
            "sort": [{"column": "name"}],
        }),
    );
    let names: Vec<&str> = any["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Blue Harbor Ltd", "Fjord Supplies AS"]);
    assert_eq!(any["hasMore"], false);

    let e = call(&b, "queryRows", json!({"table": "orders", "filter": {"conditions": [{"column": "total", "op": "contains", "value": "5"}]}}))
        .unwrap_err();
    assert!(e.to_string().contains("use eq or in"), "{e}");
}

#[test]
fn bulk_edit_stages_one_change_per_matching_row_within_max_rows() {
    let b = backend();
    let args = |max: u32| {
        json!({
            "table": "customers",
            "filter": {"conditions": [{"column": "country", "op": "eq", "value": "DE"}]},
            "set": {"vip": true},
            "maxRows": max,
            "note": "German customers are VIPs",
        })
    };
    assert_eq!(
        ok(&b, "bulkEdit", args(1)),
        json!({"matched": 2, "staged": 0})
    );
    assert_eq!(b.staged_count().unwrap(), 0);
    assert_eq!(
        ok(&b, "bulkEdit", args(10)),
        json!({"matched": 2, "staged": 2})
    );
    ok(&b, "commitStaged", json!({}));
    let vips = ok(
        &b,
        "queryRows",
        json!({"table": "customers", "columns": ["id"], "filter": {"conditions": [{"column": "vip", "op": "eq", "value": true}]}}),
    );
    assert_eq!(vips["rows"], json!([{"id": 1}, {"id": 2}, {"id": 5}]));

    // Deletes need no set; orders of customer 5 can go.
    let deleted = ok(
        &b,
        "bulkEdit",
        json!({"table": "orders", "operation": "delete", "filter": {"conditions": [{"column": "customer_id", "op": "eq", "value": 5}]}}),
    );
    assert_eq!(deleted, json!({"matched": 2, "staged": 2}));
    let commit = ok(&b, "commitStaged", json!({}));
    assert_eq!(commit["rowsAffected"], 2);
    assert_eq!(b.table("orders").unwrap().rows.len(), 4);
}

#[test]
fn undo_and_discard_remove_only_what_they_name() {
    let b = backend();
    for status in ["a", "b", "c"] {
        ok(
            &b,
            "stageItem",
            json!({"table": "orders", "operation": "update", "key": "1001", "values": {"status": status}}),
        );
    }
    ok(
        &b,
        "stageItem",
        json!({"table": "products", "operation": "update", "key": "LMP-204", "values": {"price": 79.0}}),
    );
    assert_eq!(
        ok(&b, "undoStaged", json!({})),
        json!({"undone": ["s4"], "pendingChanges": 3})
    );
    assert_eq!(staged_ids(&b), ["s1", "s2", "s3"]);
    ok(
        &b,
        "stageItem",
        json!({"table": "products", "operation": "delete", "key": {"sku": "CHR-001"}}),
    );
    assert_eq!(
        ok(&b, "discardStaged", json!({"table": "orders"}))["discarded"],
        3
    );
    assert_eq!(staged_ids(&b), ["s5"]);
    let e = call(&b, "discardStaged", json!({})).unwrap_err();
    assert!(e.to_string().contains("all = true"), "{e}");
    assert_eq!(
        ok(&b, "discardStaged", json!({"all": true}))["discarded"],
        1
    );
    assert_eq!(
        call(&b, "undoStaged", json!({})).unwrap_err(),
        Error::NothingStaged
    );
}

#[test]
fn revert_commit_stages_the_inverse() {
    let b = backend();
    ok(
        &b,
        "stageItem",
        json!({"table": "products", "operation": "update", "key": "TBL-010", "values": {"price": 949.0, "in_stock": true}}),
    );
    ok(
        &b,
        "stageItem",
        json!({"table": "products", "operation": "insert", "values": {"sku": "SOF-300", "name": "Linen sofa", "price": 1490.0}}),
    );
    ok(
        &b,
        "stageItem",
        json!({"table": "products", "operation": "delete", "key": "CHR-001"}),
    );
    let before = b.table("products").unwrap();
    ok(&b, "commitStaged", json!({}));
    assert_ne!(b.table("products").unwrap().rows, before.rows);

    let out = ok(&b, "revertCommit", json!({"commitId": "c1"}));
    assert_eq!(out["pendingChanges"], 3);
    ok(&b, "commitStaged", json!({"message": "revert"}));
    let mut after = b.table("products").unwrap().rows;
    let mut expected = before.rows;
    let by_sku = |a: &serde_json::Map<String, Value>, b: &serde_json::Map<String, Value>| {
        a["sku"].as_str().cmp(&b["sku"].as_str())
    };
    after.sort_by(by_sku);
    expected.sort_by(by_sku);
    assert_eq!(after, expected);
    assert_eq!(
        call(&b, "revertCommit", json!({"commitId": "c9"})).unwrap_err(),
        Error::NoSuchCommit { id: "c9".into() }
    );
}

#[test]
fn schema_changes_are_staged_and_applied_on_commit() {
    let b = backend();
    ok(
        &b,
        "createTable",
        json!({"name": "returns", "columns": [
            {"name": "order_id", "type": "integer", "nullable": false},
            {"name": "reason", "type": "text"},
        ]}),
    );
    ok(
        &b,
        "addColumn",
        json!({"table": "customers", "name": "phone", "type": "text"}),
    );
    ok(
        &b,
        "renameColumn",
        json!({"table": "orders", "column": "total", "newName": "amount"}),
    );
    // Rows for a table that exists only in the staging area have to wait for the commit.
    let e = call(
        &b,
        "stageItem",
        json!({"table": "returns", "operation": "insert", "values": {"order_id": 1001}}),
    )
    .unwrap_err();
    assert_eq!(
        e,
        Error::NotCreatedYet {
            table: "returns".into()
        }
    );
    let kinds: Vec<Value> = ok(&b, "showStaging", json!({}))
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].clone())
        .collect();
    assert_eq!(kinds, [json!("schema"), json!("schema"), json!("schema")]);
    ok(&b, "commitStaged", json!({}));

    let described = ok(
        &b,
        "describeTable",
        json!({"table": "returns", "sampleRows": 0}),
    );
    assert_eq!(described["primaryKey"], json!(["id"]));
    assert_eq!(described["columns"].as_array().unwrap().len(), 3);
    assert!(
        b.table("orders")
            .unwrap()
            .rows
            .iter()
            .all(|r| r.contains_key("amount"))
    );
    ok(
        &b,
        "stageItem",
        json!({"table": "returns", "operation": "insert", "values": {"order_id": 1001, "reason": "scratched"}}),
    );
    ok(&b, "commitStaged", json!({}));
    let tables = ok(&b, "listTables", json!({}));
    let returns = tables
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "returns")
        .unwrap();
    assert_eq!(returns["rowCount"], 1);
}

#[test]
fn destructive_tools_act_at_once_but_respect_staging_and_references() {
    let b = backend();
    ok(
        &b,
        "stageItem",
        json!({"table": "products", "operation": "delete", "key": "CHR-001"}),
    );
    let e = call(&b, "truncateTable", json!({"table": "products"})).unwrap_err();
    assert!(
        e.to_string()
            .contains("discardStaged with table `products`"),
        "{e}"
    );
    ok(&b, "discardStaged", json!({"all": true}));
    assert_eq!(
        ok(&b, "truncateTable", json!({"table": "products"}))["deleted"],
        3
    );

    let e = call(&b, "dropTable", json!({"table": "customers"})).unwrap_err();
    assert_eq!(
        e,
        Error::Referenced {
            table: "customers".into(),
            by: "orders.customer_id".into()
        }
    );
    assert!(b.table("customers").is_some());
    ok(
        &b,
        "dropTable",
        json!({"table": "customers", "cascade": true}),
    );
    assert!(b.table("customers").is_none());
    assert!(b.table("orders").unwrap().foreign_keys.is_empty());

    let e = call(
        &b,
        "deleteColumn",
        json!({"table": "orders", "column": "id"}),
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            Error::InvalidArgument {
                tool: Tool::DeleteColumn,
                ..
            }
        ),
        "{e}"
    );
    ok(
        &b,
        "deleteColumn",
        json!({"table": "orders", "column": "status"}),
    );
    assert!(b.table("orders").unwrap().column("status").is_err());
}

/// The verifier's refusal of a call from an MCP client at `level`.
fn refused(level: Access, name: &str, args: Value) -> catalog_core::Rejection {
    match Catalog::verify(Via::Mcp(level, &Catalog), name, args, &mut AllowAll) {
        Err(rejection) => rejection,
        Ok(verified) => panic!("{name} passed at {level}: {:?}", verified.call()),
    }
}

#[test]
fn mcp_clients_get_only_their_level() {
    let b = backend();
    let read_only = Caller::Mcp(Access::ReadOnly);
    let stage = json!({"table": "orders", "operation": "delete", "key": 1005});
    let e = refused(Access::ReadOnly, "stageItem", stage.clone());
    assert_eq!(e.class, ErrorClass::PermissionDenied);
    assert!(
        e.to_string()
            .contains("needs the read-and-stage access level"),
        "{e}"
    );
    assert_eq!(b.staged_count().unwrap(), 0);
    // Reads work; tools hidden from MCP do not, at any level.
    assert!(call_as(&b, read_only, "queryRows", json!({"table": "orders"})).is_ok());
    let e = refused(
        Access::FullAccess,
        "proposeOpenTable",
        json!({"table": "orders"}),
    );
    assert!(
        e.to_string().contains("Unknown tool: proposeOpenTable"),
        "{e}"
    );

    let stager = Caller::Mcp(Access::ReadAndStage);
    call_as(
        &b,
        stager,
        "stageItem",
        json!({"table": "orders", "operation": "delete", "key": 1005}),
    )
    .unwrap();
    let e = refused(Access::ReadAndStage, "commitStaged", json!({}));
    assert_eq!(e.class, ErrorClass::PermissionDenied);
    let commit = call_as(
        &b,
        Caller::Mcp(Access::FullAccess),
        "commitStaged",
        json!({}),
    )
    .unwrap();
    assert_eq!(commit["rowsAffected"], 1);
    let log = ok(&b, "listCommits", json!({}));
    assert_eq!(log[0]["author"], "MCP client (full-access)");
}

#[test]
fn time_comes_from_the_clock() {
    let b = backend();
    assert_eq!(
        ok(&b, "getCurrentTime", Value::Null),
        json!({"now": "2025-03-14T09:30:00+01:00", "weekday": "Friday", "timeZone": "Europe/Berlin"})
    );
    ok(
        &b,
        "stageItem",
        json!({"table": "products", "operation": "delete", "key": "LMP-204"}),
    );
    ok(&b, "commitStaged", json!({}));
    assert_eq!(
        ok(&b, "listCommits", json!({"since": "2025-03-14"}))
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        ok(
            &b,
            "listCommits",
            json!({"since": "2025-03-14T10:00:00+01:00"})
        ),
        json!([])
    );
    assert!(call(&b, "listCommits", json!({"since": "yesterday"})).is_err());
}

#[test]
fn ui_intents_and_questions_are_recorded() {
    let b = backend();
    ok(
        &b,
        "openTable",
        json!({"table": "orders", "mode": "form", "rowKey": 1004}),
    );
    ok(
        &b,
        "proposeOpenTable",
        json!({"table": "customers", "label": "Customers"}),
    );
    ok(
        &b,
        "proposeJoinView",
        json!({
            "leftTable": "orders", "rightTable": "customers",
            "on": [{"leftColumn": "customer_id", "rightColumn": "id"}],
            "columns": ["orders.id", "customers.name"],
        }),
    );
    let e = call(&b, "openTable", json!({"table": "orders", "rowKey": 7})).unwrap_err();
    assert!(matches!(e, Error::NoSuchRow { .. }), "{e}");

    assert_eq!(
        call(&b, "ask", json!({"question": "Which Müller?"})).unwrap_err(),
        Error::Unanswered
    );
    b.queue_answer("the one in Munich");
    let answer = ok(
        &b,
        "ask",
        json!({"question": "Which Müller?", "choices": ["Munich", "Hamburg"]}),
    );
    assert_eq!(answer, json!({"answer": "the one in Munich"}));

    let events = b.take_ui_events();
    assert_eq!(
        events[0],
        UiEvent::OpenTable {
            table: "orders".into(),
            mode: ViewMode::Form,
            row_key: Some(json!(1004))
        }
    );
    assert_eq!(events[1], UiEvent::Refresh(Area::Grid));
    assert_eq!(
        events[2],
        UiEvent::TableChip {
            table: "customers".into(),
            label: "Customers".into(),
            mode: ViewMode::Grid
        }
    );
    assert!(
        matches!(&events[4], UiEvent::JoinViewChip { join_type: "left", label, .. } if label == "orders + customers")
    );
    let questions = events
        .iter()
        .filter(|e| matches!(e, UiEvent::Question { .. }))
        .count();
    assert_eq!(questions, 2);
}

#[test]
fn aggregate_and_find_duplicates() {
    let b = backend();
    let per_customer = ok(
        &b,
        "aggregate",
        json!({
            "table": "orders",
            "groupBy": ["customer_id"],
            "measures": [{"function": "sum", "column": "total", "alias": "revenue"}, {"function": "count"}],
            "filter": {"conditions": [{"column": "status", "op": "ne", "value": "cancelled"}]},
            "limit": 2,
        }),
    );
    assert_eq!(per_customer["groupCount"], 4);
    assert_eq!(
        per_customer["groups"],
        json!([
            {"customer_id": 5, "revenue": 2210.75, "count": 1},
            {"customer_id": 2, "revenue": 1800.5, "count": 2},
        ])
    );
    let e = call(
        &b,
        "aggregate",
        json!({"table": "customers", "measures": [{"function": "avg", "column": "name"}]}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("needs a number column"), "{e}");

    ok(
        &b,
        "stageItem",
        json!({"table": "customers", "operation": "insert", "values": {"name": "  northwind traders ", "country": "DE"}}),
    );
    ok(&b, "commitStaged", json!({}));
    let dups = ok(
        &b,
        "findDuplicates",
        json!({"table": "customers", "columns": ["name"]}),
    );
    assert_eq!(dups["groupCount"], 1);
    assert_eq!(dups["groups"][0]["keys"], json!([2, 6]));
    let strict = ok(
        &b,
        "findDuplicates",
        json!({"table": "customers", "columns": ["name"], "ignoreCase": false}),
    );
    assert_eq!(strict["groupCount"], 0);
}

#[test]
fn attachments_are_listed_and_read_in_pages() {
    let b = backend();
    let text = "sku;name\n".repeat(300);
    let id = b.attach("prices.csv", "text/csv", &text).unwrap();
    assert_eq!(
        ok(&b, "listAttachments", json!({})),
        json!([{"id": id, "fileName": "prices.csv", "mediaType": "text/csv", "sizeBytes": 2700}])
    );
    let page = ok(
        &b,
        "readAttachment",
        json!({"attachmentId": id, "maxChars": 1000}),
    );
    assert_eq!(page["text"].as_str().unwrap().len(), 1000);
    assert_eq!(page["nextOffset"], 1000);
    let last = ok(
        &b,
        "readAttachment",
        json!({"attachmentId": id, "offset": 2000, "maxChars": 1000}),
    );
    assert_eq!(last["nextOffset"], Value::Null);
    assert!(matches!(
        call(&b, "readAttachment", json!({"attachmentId": "a9"})),
        Err(Error::NoSuchAttachment { .. })
    ));
}

#[test]
fn concurrent_callers_each_get_their_own_staged_change() {
    let b = backend();
    std::thread::scope(|s| {
        for t in 0..4 {
            let b = &b;
            s.spawn(move || {
                for i in 0..25 {
                    let name = format!("Customer {t}-{i}");
                    ok(b, "stageItem", json!({"table": "customers", "operation": "insert", "values": {"name": name}}));
                    ok(b, "queryRows", json!({"table": "customers", "limit": 1}));
                }
            });
        }
    });
    let mut ids = staged_ids(&b);
    assert_eq!(ids.len(), 100);
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 100, "change ids are unique");
    assert_eq!(ok(&b, "commitStaged", json!({}))["rowsAffected"], 100);
    assert_eq!(b.table("customers").unwrap().rows.len(), 105);
}

#[test]
fn every_tool_has_its_refresh_areas_decided() {
    // The match in `refreshes` is exhaustive; this checks its content is consistent
    // with the catalog: read-only tools redraw no data area.
    for tool in Tool::ALL {
        let areas = refreshes(tool);
        if tool.spec().writes() {
            assert!(!areas.is_empty(), "{tool} writes but refreshes nothing");
        }
        if !tool.spec().writes() {
            assert!(
                !areas
                    .iter()
                    .any(|a| matches!(a, Area::StagingPanel | Area::History | Area::TableList))
                    || tool == Tool::ShowStaging,
                "{tool} only reads but refreshes {areas:?}"
            );
        }
    }
}

#[test]
fn backend_is_a_sync_handler() {
    fn assert_handler<H: app_catalog::Handler + Sync + Send>() {}
    assert_handler::<Backend>();
}
