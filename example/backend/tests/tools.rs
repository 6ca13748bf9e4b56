//! The tools the in-memory backend lacked, each through the verifier and the handler
//! against a database file: runSql, the schema and index tools, CSV import and export,
//! findReplace, saved specs, vectorSearch, proposeChart and the time zone; and one
//! valid call of every tool, none of which may fail.
//! Over 600 lines: one section per tool, sharing one fixture.

mod common;

use std::time::{Duration, Instant};

use app_backend::{Backend, Error, FixedClock, SystemClock, UiEvent};
use app_catalog::Tool;
use catalog_core::Value;
use common::{Db, call, ok, staged_ids};
use serde_json::json;

fn rows(out: &Value) -> &Vec<Value> {
    out["rows"].as_array().unwrap()
}

#[test]
fn run_sql_reads_with_parameters_types_and_a_row_cap() {
    let db = Db::new();
    let out = ok(
        &db,
        "runSql",
        json!({"sql": "SELECT c.name, c.vip, o.id, o.total FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.total > ? ORDER BY o.total DESC",
               "parameters": [500]}),
    );
    assert_eq!(out["columns"], json!(["name", "vip", "id", "total"]));
    assert_eq!(
        rows(&out)[0],
        json!({"name": "Fjord Supplies AS", "vip": true, "id": 1006, "total": 2210.75})
    );
    assert_eq!(out["rowCount"], 3);
    assert_eq!(out["truncated"], false);
    // A join's columns of the same name are all kept.
    let both = ok(
        &db,
        "runSql",
        json!({"sql": "SELECT o.id, c.id FROM orders o JOIN customers c ON c.id = o.customer_id LIMIT 1"}),
    );
    assert_eq!(both["columns"], json!(["id", "id:2"]));
    let capped = ok(
        &db,
        "runSql",
        json!({"sql": "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n", "limit": 3}),
    );
    assert_eq!(rows(&capped).len(), 3);
    assert_eq!(capped["truncated"], true);
}

#[test]
fn run_sql_refuses_writes_and_says_what_to_fix() {
    let db = Db::new();
    for sql in [
        "INSERT INTO customers (name) VALUES ('x')",
        "UPDATE orders SET status = 'lost'",
        "DELETE FROM products",
        "DROP TABLE orders",
        "CREATE TABLE t (a)",
        "PRAGMA journal_mode = DELETE",
        "ATTACH DATABASE 'other.db' AS other",
        "WITH gone AS (SELECT 1) DELETE FROM orders",
    ] {
        let e = call(&db, "runSql", json!({"sql": sql})).unwrap_err();
        assert!(matches!(e, Error::WritingSql { .. }), "{sql}: {e}");
        assert!(
            e.to_string().contains("stage changes with stageItem"),
            "{e}"
        );
    }
    assert_eq!(db.table("products").unwrap().rows.len(), 3);
    assert_eq!(db.table("orders").unwrap().rows.len(), 6);

    let e = call(
        &db,
        "runSql",
        json!({"sql": "SELECT 1; DELETE FROM orders"}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("one statement at a time"), "{e}");
    let e = call(&db, "runSql", json!({"sql": "SELEC name FROM customers"})).unwrap_err();
    assert!(
        e.to_string().contains("syntax error") && e.to_string().contains("listTables"),
        "{e}"
    );
    let e = call(&db, "runSql", json!({"sql": "SELECT * FROM invoices"})).unwrap_err();
    assert!(e.to_string().contains("no such table: invoices"), "{e}");
    let e = call(&db, "runSql", json!({"sql": "SELECT nam FROM customers"})).unwrap_err();
    assert!(e.to_string().contains("no such column: nam"), "{e}");
    let e = call(&db, "runSql", json!({"sql": "SELECT * FROM _staged"})).unwrap_err();
    assert_eq!(
        e,
        Error::InternalTable {
            table: "_staged".into()
        }
    );
    let e = call(
        &db,
        "runSql",
        json!({"sql": "SELECT * FROM orders WHERE id = ? AND status = ?", "parameters": [1001]}),
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("2 placeholder(s) and 1 parameter(s)"),
        "{e}"
    );
    // After all that the connection reads and writes as before.
    ok(
        &db,
        "stageItem",
        json!({"table": "orders", "operation": "delete", "key": 1005}),
    );
    ok(&db, "commitStaged", json!({}));
    assert_eq!(
        ok(
            &db,
            "runSql",
            json!({"sql": "SELECT count(*) AS n FROM orders"})
        )["rows"][0]["n"],
        5
    );
}

#[test]
fn run_sql_stops_a_statement_at_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let b = Backend::open(dir.path().join("tables.db"))
        .unwrap()
        .sql_time_limit(Duration::from_millis(300));
    let started = Instant::now();
    let e = call(
        &b,
        "runSql",
        json!({"sql": "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"}),
    )
    .unwrap_err();
    assert_eq!(e, Error::SqlTimeout { millis: 300 });
    assert!(e.to_string().contains("narrow it with WHERE"), "{e}");
    assert!(started.elapsed() < Duration::from_secs(5));
    // The limit is per statement: the next one runs normally.
    let out = ok(
        &b,
        "runSql",
        json!({"sql": "SELECT count(*) AS n FROM customers"}),
    );
    assert_eq!(out["rows"][0]["n"], 5);
}

#[test]
fn indexes_are_staged_reported_and_dropped() {
    let db = Db::new();
    ok(
        &db,
        "createIndex",
        json!({"table": "orders", "columns": ["status", "ordered_on"]}),
    );
    let e = call(
        &db,
        "createIndex",
        json!({"table": "orders", "columns": ["statu"]}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("did you mean `status`"), "{e}");
    let e = call(
        &db,
        "createIndex",
        json!({"table": "customers", "columns": ["country"], "unique": true}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("findDuplicates"), "{e}");
    ok(&db, "commitStaged", json!({}));
    // Queries by customer use the index on customer_id; indexStats counts it.
    ok(
        &db,
        "queryRows",
        json!({"table": "orders", "filter": {"conditions": [{"column": "customer_id", "op": "eq", "value": 2}]}}),
    );
    let stats = ok(&db, "indexStats", json!({"table": "orders"}));
    let by_name = |name: &str| {
        stats
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["index"] == name)
            .unwrap_or_else(|| panic!("{name} in {stats}"))
            .clone()
    };
    let customer = by_name("orders_customer_id");
    assert_eq!(customer["columns"], json!(["customer_id"]));
    assert_eq!(customer["distinctKeys"], 4);
    assert!(customer["scans"].as_i64().unwrap() >= 1, "{customer}");
    assert_eq!(customer["advice"], "ok");
    assert!(customer["sizeBytes"].as_i64().unwrap() > 0);
    assert_eq!(by_name("orders_ordered_on")["advice"], "unused");
    assert_eq!(by_name("orders_status_ordered_on")["advice"], "unused");
    assert_eq!(by_name("orders_status_ordered_on")["distinctKeys"], 6);
    // The key of products is an index SQLite made; it cannot be dropped.
    let all = ok(&db, "indexStats", json!({}));
    assert!(
        all.as_array()
            .unwrap()
            .iter()
            .any(|s| s["table"] == "products")
    );
    let e = call(
        &db,
        "dropIndex",
        json!({"table": "products", "index": "sqlite_autoindex_products_1"}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("cannot be dropped"), "{e}");
    let e = call(
        &db,
        "dropIndex",
        json!({"table": "orders", "index": "nope"}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("orders_customer_id"), "{e}");

    ok(
        &db,
        "dropIndex",
        json!({"table": "orders", "index": "orders_ordered_on"}),
    );
    let indexes = ok(&db, "describeTable", json!({"table": "orders"}))["indexes"].clone();
    assert_eq!(
        indexes,
        json!([
            {"name": "orders_customer_id", "columns": ["customer_id"], "unique": false},
            {"name": "orders_status_ordered_on", "columns": ["status", "ordered_on"], "unique": false},
        ])
    );
    let log = ok(&db, "listCommits", json!({"limit": 1}));
    assert_eq!(log[0]["message"], "dropIndex orders_ordered_on");
}

#[test]
fn an_index_that_starts_another_is_redundant() {
    let db = Db::new();
    ok(
        &db,
        "createIndex",
        json!({"table": "orders", "columns": ["customer_id", "ordered_on"], "name": "orders_by_customer_date"}),
    );
    ok(&db, "commitStaged", json!({}));
    let stats = ok(&db, "indexStats", json!({"table": "orders"}));
    let advice: Vec<(String, String)> = stats
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["index"].as_str().unwrap().to_owned(),
                s["advice"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        advice.contains(&("orders_customer_id".into(), "redundant".into())),
        "{advice:?}"
    );
}

#[test]
fn deleting_a_referencing_column_rebuilds_the_table_and_keeps_its_rows() {
    let db = Db::new();
    let before = db.table("orders").unwrap();
    ok(
        &db,
        "deleteColumn",
        json!({"table": "orders", "column": "customer_id"}),
    );
    let after = db.table("orders").unwrap();
    assert!(after.foreign_keys.is_empty());
    assert_eq!(after.rows.len(), before.rows.len());
    assert_eq!(after.rows[0]["total"], before.rows[0]["total"]);
    assert!(!after.rows[0].contains_key("customer_id"));
    let described = ok(&db, "describeTable", json!({"table": "orders"}));
    assert_eq!(
        described["indexes"],
        json!([{"name": "orders_ordered_on", "columns": ["ordered_on"], "unique": false}])
    );
    assert_eq!(
        ok(&db, "describeTable", json!({"table": "customers"}))["referencedBy"],
        json!([])
    );
    // Ids go on after the rebuild.
    ok(
        &db,
        "stageItem",
        json!({"table": "orders", "operation": "insert", "values": {"ordered_on": "2025-03-14", "total": 1}}),
    );
    ok(&db, "commitStaged", json!({}));
    assert_eq!(db.table("orders").unwrap().rows[6]["id"], 1007);
}

#[test]
fn add_column_not_null_on_an_empty_table_and_rename_reach_the_schema() {
    let db = Db::new();
    ok(
        &db,
        "createTable",
        json!({"name": "returns", "columns": [{"name": "reason", "type": "text"}]}),
    );
    ok(&db, "commitStaged", json!({}));
    ok(
        &db,
        "addColumn",
        json!({"table": "returns", "name": "received", "type": "date", "nullable": false}),
    );
    let e = call(
        &db,
        "addColumn",
        json!({"table": "customers", "name": "tier", "type": "integer", "nullable": false}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("needs a defaultValue"), "{e}");
    ok(
        &db,
        "addColumn",
        json!({"table": "customers", "name": "tier", "type": "integer", "nullable": false, "defaultValue": 1}),
    );
    ok(
        &db,
        "renameColumn",
        json!({"table": "customers", "column": "city", "newName": "town"}),
    );
    let e = call(
        &db,
        "renameColumn",
        json!({"table": "customers", "column": "name", "newName": "email"}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("pick another name"), "{e}");
    let e = call(
        &db,
        "createTable",
        json!({"name": "_secret", "columns": [{"name": "a", "type": "text"}]}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("reserved"), "{e}");
    ok(&db, "commitStaged", json!({}));
    let returns = db.table("returns").unwrap();
    let received = returns.column("received").unwrap();
    assert!(!received.nullable);
    let customers = db.table("customers").unwrap();
    assert_eq!(customers.rows[0]["tier"], 1);
    assert_eq!(customers.rows[0]["town"], "Munich");
}

#[test]
fn import_csv_stages_rows_matched_by_header_with_conflicts_handled() {
    let db = Db::new();
    let file = "SKU;Name;price;in_stock\nCHR-002;Beech chair;99,50;yes\nLMP-204;Brass lamp;79,00;true\nTBL-011;Pine table;abc;no\n";
    let id = db.attach("prices.csv", "text/csv", file).unwrap();
    let args = |on_conflict: &str| json!({"attachmentId": id, "table": "products", "columnMap": {"SKU": "sku", "Name": "name"}, "onConflict": on_conflict});
    let e = call(&db, "importCsv", args("error")).unwrap_err();
    assert!(
        e.to_string().contains("line 3") && e.to_string().contains("onConflict = skip"),
        "{e}"
    );
    assert!(staged_ids(&db).is_empty(), "nothing staged");

    let skipped = ok(&db, "importCsv", args("skip"));
    assert_eq!(skipped["staged"], 1);
    assert_eq!(skipped["skipped"], 2);
    let warnings = skipped["warnings"].to_string();
    assert!(
        warnings.contains("line 4: `price` = \\\"abc\\\" is not a real"),
        "{warnings}"
    );
    ok(&db, "discardStaged", json!({"all": true}));

    let updated = ok(&db, "importCsv", args("update"));
    assert_eq!(updated["staged"], 2);
    let kinds: Vec<Value> = ok(&db, "showStaging", json!({}))
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].clone())
        .collect();
    assert_eq!(kinds, [json!("insert"), json!("update")]);
    ok(&db, "commitStaged", json!({}));
    let products = db.table("products").unwrap();
    assert_eq!(products.rows.len(), 4);
    let lamp = products
        .rows
        .iter()
        .find(|r| r["sku"] == "LMP-204")
        .unwrap();
    assert_eq!(lamp["price"], 79.0);
    let chair = products
        .rows
        .iter()
        .find(|r| r["sku"] == "CHR-002")
        .unwrap();
    assert_eq!(chair["in_stock"], true);
}

#[test]
fn import_csv_can_create_the_table_and_refuses_a_malformed_file() {
    let db = Db::new();
    let file = "id,reason,received,refund\n1,scratched,2025-03-01,12.5\n2,wrong size,2025-03-02,\n";
    let id = db.attach("returns.csv", "text/csv", file).unwrap();
    let out = ok(
        &db,
        "importCsv",
        json!({"attachmentId": id, "table": "returns", "createTable": true}),
    );
    assert_eq!(out["staged"], 2);
    let staged = ok(&db, "showStaging", json!({}));
    assert_eq!(staged[0]["kind"], "schema");
    assert!(
        staged[0]["summary"]
            .as_str()
            .unwrap()
            .contains("received date")
    );
    ok(&db, "commitStaged", json!({}));
    let described = ok(&db, "describeTable", json!({"table": "returns"}));
    let types: Vec<&str> = described["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["integer", "text", "date", "real"]);
    assert_eq!(described["primaryKey"], json!(["id"]));
    assert_eq!(described["rowCount"], 2);

    let broken = db
        .attach(
            "broken.csv",
            "text/csv",
            "sku,name,price\nX-1,Stool,20\nX-2,Bench,30,extra\n",
        )
        .unwrap();
    let e = call(
        &db,
        "importCsv",
        json!({"attachmentId": broken, "table": "products"}),
    )
    .unwrap_err();
    assert!(
        matches!(&e, Error::BadCsv { line: 3, .. }) && e.to_string().contains("nothing was staged"),
        "{e}"
    );
    let e = call(
        &db,
        "importCsv",
        json!({"attachmentId": "a99", "table": "products"}),
    )
    .unwrap_err();
    assert!(matches!(e, Error::NoSuchAttachment { .. }), "{e}");
    let unmatched = db
        .attach("other.csv", "text/csv", "foo,bar\n1,2\n")
        .unwrap();
    let e = call(
        &db,
        "importCsv",
        json!({"attachmentId": unmatched, "table": "products"}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("columnMap"), "{e}");
    assert!(staged_ids(&db).is_empty());
}

#[test]
fn export_csv_writes_the_file_for_the_save_dialog() {
    let db = Db::new();
    let out = ok(
        &db,
        "exportCsv",
        json!({"table": "customers", "columns": ["name", "city", "vip"], "delimiter": "semicolon",
               "filter": {"conditions": [{"column": "country", "op": "eq", "value": "DE"}]}}),
    );
    assert_eq!(out["rowCount"], 2);
    assert_eq!(
        out["text"],
        "name;city;vip\nMüller Bau GmbH;Munich;false\nNorthwind Traders;Berlin;true\n"
    );
    let events = db.take_ui_events();
    let saved = events
        .iter()
        .find_map(|e| match e {
            UiEvent::SaveFile {
                file_name, bytes, ..
            } => Some((file_name.clone(), bytes.clone())),
            _ => None,
        })
        .unwrap();
    assert_eq!(saved.0, "customers.csv");
    assert_eq!(saved.1, out["text"].as_str().unwrap().as_bytes());

    ok(
        &db,
        "exportCsv",
        json!({"table": "customers", "columns": ["name"], "encoding": "latin-1", "includeHeader": false,
               "filter": {"conditions": [{"column": "id", "op": "eq", "value": 1}]}}),
    );
    let latin1 = db.take_ui_events().into_iter().find_map(|e| match e {
        UiEvent::SaveFile { bytes, .. } => Some(bytes),
        _ => None,
    });
    assert_eq!(latin1.unwrap(), b"M\xfcller Bau GmbH\n");
    ok(
        &db,
        "exportCsv",
        json!({"table": "products", "encoding": "utf-8-bom"}),
    );
    let bom = db.take_ui_events().into_iter().find_map(|e| match e {
        UiEvent::SaveFile { bytes, .. } => Some(bytes),
        _ => None,
    });
    assert!(bom.unwrap().starts_with(&[0xEF, 0xBB, 0xBF, b's']));

    ok(
        &db,
        "stageItem",
        json!({"table": "products", "operation": "insert", "values": {"sku": "EUR-1", "name": "Price in €", "price": 1}}),
    );
    ok(&db, "commitStaged", json!({}));
    let e = call(
        &db,
        "exportCsv",
        json!({"table": "products", "encoding": "latin-1"}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("utf-8-bom"), "{e}");
    let e = call(
        &db,
        "exportCsv",
        json!({"table": "customers", "columns": ["mail"]}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("did you mean `email`"), "{e}");
}

#[test]
fn find_replace_stages_one_update_per_changed_row() {
    let db = Db::new();
    let out = ok(
        &db,
        "findReplace",
        json!({"table": "customers", "columns": ["name", "email"], "find": "GMBH", "replace": "AG"}),
    );
    assert_eq!(out, json!({"matched": 1, "staged": 1}));
    let regex = ok(
        &db,
        "findReplace",
        json!({"table": "customers", "columns": ["email"], "find": "^(\\w+)@(\\w+)\\.example$", "replace": "$2.$1@example.com",
               "match": "regex", "filter": {"conditions": [{"column": "country", "op": "in", "value": ["FR", "NO"]}]}}),
    );
    assert_eq!(regex, json!({"matched": 2, "staged": 2}));
    let whole = ok(
        &db,
        "findReplace",
        json!({"table": "customers", "columns": ["city"], "find": "munich", "replace": "München", "match": "wholeCell"}),
    );
    assert_eq!(whole["staged"], 1);
    let none = ok(
        &db,
        "findReplace",
        json!({"table": "customers", "columns": ["city"], "find": "Mun", "replace": "X", "match": "wholeCell"}),
    );
    assert_eq!(none, json!({"matched": 0, "staged": 0}));
    ok(&db, "commitStaged", json!({}));
    let customers = db.table("customers").unwrap();
    assert_eq!(customers.rows[0]["name"], "Müller Bau AG");
    assert_eq!(customers.rows[0]["city"], "München");
    assert_eq!(customers.rows[3]["email"], "lumiere.bonjour@example.com");

    let e = call(
        &db,
        "findReplace",
        json!({"table": "customers", "columns": ["name"], "find": "(", "replace": "", "match": "regex"}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("match = substring"), "{e}");
    let e = call(
        &db,
        "findReplace",
        json!({"table": "orders", "columns": ["total"], "find": "1", "replace": "2"}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("bulkEdit"), "{e}");
}

#[test]
fn saved_specs_are_saved_listed_loaded_and_follow_the_schema() {
    let db = Db::new();
    let spec = json!({"table": "customers", "columns": ["name", "city"], "sort": [{"column": "city"}],
                      "filter": {"conditions": [{"column": "city", "op": "ne", "value": "Lyon"}]}});
    ok(&db, "saveSpec", json!({"name": "By city", "spec": spec}));
    let e = call(&db, "saveSpec", json!({"name": "By city", "spec": spec})).unwrap_err();
    assert!(e.to_string().contains("overwrite = true"), "{e}");
    let e = call(
        &db,
        "saveSpec",
        json!({"name": "Broken", "spec": {"table": "customers", "columns": ["town"]}}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("`town`"), "{e}");
    let e = call(&db, "saveSpec", json!({"name": "Current"})).unwrap_err();
    assert!(e.to_string().contains("openTable"), "{e}");
    ok(&db, "openTable", json!({"table": "orders"}));
    ok(
        &db,
        "saveSpec",
        json!({"name": "Current", "description": "All orders"}),
    );
    let listed = ok(&db, "listSavedSpecs", json!({}));
    assert_eq!(
        listed,
        json!([
            {"name": "By city", "table": "customers", "summary": "customers where city ne \"Lyon\", sorted by city"},
            {"name": "Current", "table": "orders", "summary": "All orders"},
        ])
    );
    assert_eq!(
        ok(&db, "listSavedSpecs", json!({"table": "orders"}))
            .as_array()
            .unwrap()
            .len(),
        1
    );
    db.take_ui_events();
    let loaded = ok(&db, "loadSpec", json!({"name": "By city"}));
    assert_eq!(loaded["spec"], spec);
    assert!(db.take_ui_events().contains(&UiEvent::LoadSpec {
        name: "By city".into(),
        spec: spec.clone()
    }));
    let e = call(&db, "loadSpec", json!({"name": "by city"})).unwrap_err();
    assert!(e.to_string().contains("did you mean `By city`"), "{e}");

    // A committed rename reaches the spec; a dropped table takes its specs along.
    ok(
        &db,
        "renameColumn",
        json!({"table": "customers", "column": "city", "newName": "town"}),
    );
    ok(&db, "commitStaged", json!({}));
    let renamed = ok(&db, "loadSpec", json!({"name": "By city"}))["spec"].clone();
    assert_eq!(renamed["columns"], json!(["name", "town"]));
    assert_eq!(renamed["sort"][0]["column"], "town");
    assert_eq!(renamed["filter"]["conditions"][0]["column"], "town");
    ok(&db, "dropTable", json!({"table": "orders"}));
    assert_eq!(ok(&db, "listSavedSpecs", json!({}))[0]["name"], "By city");
    assert_eq!(
        ok(&db, "listSavedSpecs", json!({}))
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn vector_search_ranks_rows_by_their_stored_vectors() {
    let db = Db::new();
    let hits = ok(
        &db,
        "vectorSearch",
        json!({"table": "products", "column": "description", "query": "chairs for the dining room"}),
    );
    assert_eq!(hits[0]["row"]["sku"], "CHR-001", "{hits}");
    let scores: Vec<f64> = hits
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["score"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert!(scores.iter().all(|s| (0.0..=1.0).contains(s)));

    // A committed row gets its vector in the same commit, and keeps it across a restart.
    ok(
        &db,
        "stageItem",
        json!({"table": "products", "operation": "insert", "values": {"sku": "SOF-300", "name": "Linen sofa", "price": 1490.0,
               "description": "Three-seat linen sofa with deep cushions"}}),
    );
    ok(&db, "commitStaged", json!({}));
    let db = db.restart();
    let sofa = ok(
        &db,
        "vectorSearch",
        json!({"table": "products", "column": "description", "query": "sofa cushions", "limit": 1}),
    );
    assert_eq!(sofa[0]["row"]["sku"], "SOF-300", "{sofa}");
    let strict = ok(
        &db,
        "vectorSearch",
        json!({"table": "products", "column": "description", "query": "sofa cushions", "minScore": 0.99}),
    );
    assert_eq!(strict, json!([]));

    let e = call(
        &db,
        "vectorSearch",
        json!({"table": "customers", "column": "name", "query": "bakeries"}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("[products.description]"), "{e}");
    assert_eq!(db.embed_column("customers", "name").unwrap(), 5);
    let cafe = ok(
        &db,
        "vectorSearch",
        json!({"table": "customers", "column": "name", "query": "cafe lumiere", "limit": 1}),
    );
    assert_eq!(cafe[0]["row"]["id"], 4, "{cafe}");
    let described = ok(&db, "describeTable", json!({"table": "customers"}));
    assert_eq!(described["columns"][1]["hasEmbeddings"], true);
    assert!(db.embed_column("orders", "total").is_err());
}

#[test]
fn propose_chart_returns_a_vega_lite_spec_with_its_data() {
    let db = Db::new();
    let out = ok(
        &db,
        "proposeChart",
        json!({"table": "orders", "chartType": "bar", "x": "ordered_on", "y": "total", "bucket": "month"}),
    );
    let spec = &out["spec"];
    assert!(spec["$schema"].as_str().unwrap().contains("vega-lite/v5"));
    assert_eq!(spec["mark"]["type"], "bar");
    assert_eq!(
        spec["encoding"]["x"],
        json!({"field": "ordered_on", "type": "temporal", "title": "ordered_on (month)"})
    );
    assert_eq!(spec["encoding"]["y"]["field"], "sum_total");
    assert_eq!(
        spec["data"]["values"],
        json!([
            {"ordered_on": "2025-01-01", "sum_total": 1240.5},
            {"ordered_on": "2025-02-01", "sum_total": 401.9},
            {"ordered_on": "2025-03-01", "sum_total": 2815.75},
        ])
    );
    assert!(matches!(
        db.take_ui_events().first(),
        Some(UiEvent::ChartPreview { .. })
    ));

    let pie = ok(
        &db,
        "proposeChart",
        json!({"table": "orders", "chartType": "pie", "x": "status", "aggregation": "count", "title": "Orders by status"}),
    );
    assert_eq!(pie["spec"]["mark"]["type"], "arc");
    assert_eq!(pie["spec"]["title"], "Orders by status");
    assert_eq!(pie["points"], 3);
    let scatter = ok(
        &db,
        "proposeChart",
        json!({"table": "orders", "chartType": "scatter", "x": "customer_id", "y": "total", "aggregation": "none", "series": "status"}),
    );
    assert_eq!(scatter["points"], 6);
    assert_eq!(scatter["spec"]["encoding"]["color"]["field"], "status");

    let e = call(
        &db,
        "proposeChart",
        json!({"table": "orders", "chartType": "bar", "x": "status", "bucket": "week"}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("leave bucket out"), "{e}");
    let e = call(
        &db,
        "proposeChart",
        json!({"table": "orders", "chartType": "line", "x": "ordered_on", "y": "status"}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("number column"), "{e}");
}

#[test]
fn get_current_time_answers_in_the_users_time_zone() {
    let at = |zone: &str| {
        let clock = FixedClock::at("2025-07-01T12:00:00Z", zone).unwrap();
        ok(&Backend::new().clock(clock), "getCurrentTime", json!({}))
    };
    assert_eq!(
        at("America/New_York"),
        json!({"now": "2025-07-01T08:00:00-04:00", "weekday": "Tuesday", "timeZone": "America/New_York"})
    );
    assert_eq!(at("Asia/Tokyo")["now"], "2025-07-01T21:00:00+09:00");
    let live = Backend::new().clock(SystemClock::in_zone("Europe/Berlin").unwrap());
    let now = ok(&live, "getCurrentTime", json!({}));
    assert_eq!(now["timeZone"], "Europe/Berlin");
    let text = now["now"].as_str().unwrap();
    assert!(
        text.ends_with("+01:00") || text.ends_with("+02:00"),
        "{text}"
    );
    let e = SystemClock::in_zone("Berlin").unwrap_err();
    assert!(e.to_string().contains("Europe/Berlin"), "{e}");
}

/// One valid call of every tool but the search tool, in an order that works.
fn every_call(attachment: &str) -> Vec<(&'static str, Value)> {
    vec![
        ("ask", json!({"question": "Which one?"})),
        ("getCurrentTime", json!({})),
        ("listAttachments", json!({})),
        ("readAttachment", json!({"attachmentId": attachment})),
        ("openTable", json!({"table": "orders"})),
        ("proposeOpenTable", json!({"table": "customers"})),
        ("listTables", json!({"includeViews": true})),
        ("describeTable", json!({"table": "orders"})),
        ("queryRows", json!({"table": "orders"})),
        (
            "proposeJoinView",
            json!({"leftTable": "orders", "rightTable": "customers", "on": [{"leftColumn": "customer_id", "rightColumn": "id"}]}),
        ),
        (
            "stageItem",
            json!({"table": "customers", "operation": "insert", "values": {"name": "Every Tool Ltd"}}),
        ),
        (
            "bulkEdit",
            json!({"table": "orders", "filter": {"conditions": [{"column": "status", "op": "eq", "value": "open"}]}, "set": {"status": "shipped"}}),
        ),
        ("showStaging", json!({})),
        ("undoStaged", json!({})),
        ("commitStaged", json!({"message": "every tool"})),
        ("listCommits", json!({})),
        ("revertCommit", json!({"commitId": "c1"})),
        ("discardStaged", json!({"all": true})),
        ("exportCsv", json!({"table": "products"})),
        (
            "importCsv",
            json!({"attachmentId": attachment, "table": "products"}),
        ),
        (
            "aggregate",
            json!({"table": "orders", "measures": [{"function": "median", "column": "total"}]}),
        ),
        (
            "proposeChart",
            json!({"table": "orders", "chartType": "line", "x": "ordered_on", "y": "total"}),
        ),
        (
            "findDuplicates",
            json!({"table": "customers", "columns": ["country"]}),
        ),
        (
            "vectorSearch",
            json!({"table": "products", "column": "description", "query": "lamp"}),
        ),
        ("runSql", json!({"sql": "SELECT 1 AS one"})),
        ("indexStats", json!({})),
        (
            "saveSpec",
            json!({"name": "All orders", "spec": {"table": "orders"}}),
        ),
        ("listSavedSpecs", json!({})),
        ("loadSpec", json!({"name": "All orders"})),
        (
            "createTable",
            json!({"name": "notes", "columns": [{"name": "text", "type": "text"}]}),
        ),
        (
            "addColumn",
            json!({"table": "customers", "name": "phone", "type": "text"}),
        ),
        (
            "renameColumn",
            json!({"table": "products", "column": "name", "newName": "title"}),
        ),
        (
            "findReplace",
            json!({"table": "customers", "columns": ["city"], "find": "Munich", "replace": "München"}),
        ),
        (
            "createIndex",
            json!({"table": "customers", "columns": ["country"]}),
        ),
        ("commitStaged", json!({})),
        (
            "dropIndex",
            json!({"table": "customers", "index": "customers_country"}),
        ),
        (
            "deleteColumn",
            json!({"table": "customers", "column": "phone"}),
        ),
        ("truncateTable", json!({"table": "notes"})),
        ("dropTable", json!({"table": "notes"})),
    ]
}

#[test]
fn every_tool_runs_against_a_database_file() {
    let db = Db::new();
    let attachment = db
        .attach("more.csv", "text/csv", "sku,name,price\nSTL-1,Stool,45\n")
        .unwrap();
    db.queue_answer("that one");
    let calls = every_call(&attachment);
    let mut covered: Vec<Tool> = Vec::new();
    for (name, args) in calls {
        let result = call(&db, name, args);
        assert!(result.is_ok(), "{name}: {}", result.unwrap_err());
        covered.push(Tool::from_name(name).unwrap());
    }
    let missing: Vec<Tool> = Tool::ALL
        .into_iter()
        .filter(|t| *t != Tool::SearchTools && !covered.contains(t))
        .collect();
    assert!(missing.is_empty(), "no call of {missing:?}");
}
