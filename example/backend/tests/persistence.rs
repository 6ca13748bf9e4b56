//! The database file: what survives a restart, commits that conflict with a change made
//! meanwhile, several writers and readers at once, and files that cannot be used.

mod common;

use app_backend::{Backend, Error};
use common::{Db, call, customer_names, ok, staged_ids};
use rusqlite::Connection;
use serde_json::json;

#[test]
fn staged_changes_commits_specs_and_attachments_survive_a_restart() {
    let db = Db::new();
    ok(
        &db,
        "stageItem",
        json!({"table": "customers", "operation": "insert", "values": {"name": "Acme GmbH"}}),
    );
    let commit = ok(&db, "commitStaged", json!({"message": "Acme"}));
    ok(
        &db,
        "stageItem",
        json!({"table": "orders", "operation": "update", "key": 1003, "values": {"status": "shipped"}, "note": "paid"}),
    );
    ok(
        &db,
        "createTable",
        json!({"name": "returns", "columns": [{"name": "reason", "type": "text"}]}),
    );
    ok(
        &db,
        "saveSpec",
        json!({"name": "Open orders", "spec": {"table": "orders", "filter": {"conditions": [{"column": "status", "op": "eq", "value": "open"}]}}}),
    );
    let attachment = db.attach("notes.txt", "text/plain", "call back").unwrap();
    let staged = ok(&db, "showStaging", json!({}));
    let history = ok(&db, "listCommits", json!({}));

    let db = db.restart();
    assert_eq!(ok(&db, "showStaging", json!({})), staged);
    assert_eq!(ok(&db, "listCommits", json!({})), history);
    assert_eq!(history[0]["commitId"], commit["commitId"]);
    assert!(customer_names(&db).contains(&"Acme GmbH".to_owned()));
    assert_eq!(
        ok(&db, "listSavedSpecs", json!({}))[0]["name"],
        "Open orders"
    );
    assert_eq!(ok(&db, "listAttachments", json!({}))[0]["id"], attachment);
    // New ids go on from where they were, never reusing one.
    let next = ok(
        &db,
        "stageItem",
        json!({"table": "products", "operation": "delete", "key": "LMP-204"}),
    );
    assert_eq!(next["changeId"], "s4");
    assert_eq!(ok(&db, "commitStaged", json!({}))["commitId"], "c2");
}

#[test]
fn a_new_file_is_seeded_once_and_then_kept_as_it_was_left() {
    let db = Db::new();
    assert_eq!(
        ok(&db, "listTables", json!({})).as_array().unwrap().len(),
        3
    );
    ok(
        &db,
        "stageItem",
        json!({"table": "products", "operation": "delete", "key": "LMP-204"}),
    );
    ok(&db, "commitStaged", json!({}));
    ok(
        &db,
        "truncateTable",
        json!({"table": "orders", "resetIds": false}),
    );
    let db = db.restart();
    assert_eq!(db.table("products").unwrap().rows.len(), 2);
    assert!(
        db.table("orders").unwrap().rows.is_empty(),
        "not seeded again"
    );
    // Without resetIds the ids go on after the highest there was.
    ok(
        &db,
        "stageItem",
        json!({"table": "orders", "operation": "insert", "values": {"customer_id": 1, "ordered_on": "2025-03-14", "total": 5}}),
    );
    ok(&db, "commitStaged", json!({}));
    assert_eq!(db.table("orders").unwrap().rows[0]["id"], 1007);
}

#[test]
fn the_file_is_in_wal_mode_and_a_reader_does_not_block_staging() {
    let db = Db::new();
    let other = Connection::open(db.path()).unwrap();
    let mode: String = other
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    // A long read in another connection: staging and committing still go through.
    other.execute_batch("BEGIN").unwrap();
    let before: i64 = other
        .query_row("SELECT count(*) FROM customers", [], |r| r.get(0))
        .unwrap();
    ok(
        &db,
        "stageItem",
        json!({"table": "customers", "operation": "insert", "values": {"name": "During a read"}}),
    );
    ok(&db, "commitStaged", json!({}));
    let during: i64 = other
        .query_row("SELECT count(*) FROM customers", [], |r| r.get(0))
        .unwrap();
    assert_eq!(during, before, "the reader keeps its snapshot");
    other.execute_batch("COMMIT").unwrap();
    let after: i64 = other
        .query_row("SELECT count(*) FROM customers", [], |r| r.get(0))
        .unwrap();
    assert_eq!(after, before + 1);
}

#[test]
fn a_commit_that_conflicts_with_a_change_made_meanwhile_rolls_back_whole() {
    let db = Db::new();
    ok(
        &db,
        "stageItem",
        json!({"table": "products", "operation": "update", "key": "TBL-010", "values": {"price": 949.0}}),
    );
    ok(
        &db,
        "stageItem",
        json!({"table": "orders", "operation": "update", "key": 1003, "values": {"status": "shipped"}}),
    );
    ok(
        &db,
        "stageItem",
        json!({"table": "customers", "operation": "update", "key": 3, "values": {"city": "Cork"}}),
    );
    // Another program deletes order 1003 between staging and committing.
    let other = Connection::open(db.path()).unwrap();
    other
        .execute("DELETE FROM orders WHERE id = 1003", [])
        .unwrap();

    let e = call(&db, "commitStaged", json!({"message": "three changes"})).unwrap_err();
    let Error::CommitFailed { change_id, reason } = &e else {
        panic!("{e}")
    };
    assert_eq!(change_id, "s2");
    assert!(matches!(**reason, Error::NoSuchRow { .. }), "{reason}");
    let message = e.to_string();
    assert!(
        message.starts_with("nothing was committed: staged change `s2`")
            && message.contains("discardStaged"),
        "{message}"
    );
    // Nothing of it applied, nothing of it lost, no history entry.
    assert_eq!(db.table("products").unwrap().rows[1]["price"], 899.0);
    assert_eq!(staged_ids(&db), ["s1", "s2", "s3"]);
    assert_eq!(ok(&db, "listCommits", json!({})), json!([]));
    let db = db.restart();
    assert_eq!(db.table("products").unwrap().rows[1]["price"], 899.0);
    assert_eq!(staged_ids(&db), ["s1", "s2", "s3"]);

    ok(&db, "discardStaged", json!({"changeIds": ["s2"]}));
    assert_eq!(ok(&db, "commitStaged", json!({}))["applied"], 2);
    assert_eq!(db.table("products").unwrap().rows[1]["price"], 949.0);
}

#[test]
fn a_commit_that_breaks_a_constraint_names_the_change_and_applies_nothing() {
    let db = Db::new();
    ok(
        &db,
        "stageItem",
        json!({"table": "customers", "operation": "insert", "values": {"name": "One", "email": "same@example.com"}}),
    );
    ok(
        &db,
        "createIndex",
        json!({"table": "customers", "columns": ["email"], "unique": true}),
    );
    // Valid when staged: the unique index does not exist yet.
    ok(
        &db,
        "stageItem",
        json!({"table": "customers", "operation": "insert", "values": {"name": "Two", "email": "same@example.com"}}),
    );
    let e = call(&db, "commitStaged", json!({})).unwrap_err();
    let Error::CommitFailed { change_id, reason } = &e else {
        panic!("{e}")
    };
    assert_eq!(change_id, "s3");
    assert!(
        matches!(&**reason, Error::Refused { message } if message.contains("UNIQUE")),
        "{reason}"
    );
    assert!(!customer_names(&db).contains(&"One".to_owned()));
    let indexes = ok(&db, "describeTable", json!({"table": "customers"}))["indexes"].clone();
    assert_eq!(indexes, json!([]), "the index was rolled back too");
    assert_eq!(staged_ids(&db), ["s1", "s2", "s3"]);
}

#[test]
fn writers_on_one_file_lose_nothing() {
    let db = Db::new();
    let path = db.path();
    // A second backend on the same file, as a second process would have.
    let second = common::open(&path);
    std::thread::scope(|s| {
        for (t, backend) in [
            (0, &db.backend),
            (1, &second),
            (2, &db.backend),
            (3, &second),
        ] {
            s.spawn(move || {
                for i in 0..25 {
                    let name = format!("Customer {t}-{i}");
                    ok(
                        backend,
                        "stageItem",
                        json!({"table": "customers", "operation": "insert", "values": {"name": name}}),
                    );
                    ok(backend, "queryRows", json!({"table": "customers", "limit": 1}));
                    ok(backend, "showStaging", json!({"openPanel": false}));
                }
            });
        }
    });
    let mut ids = staged_ids(&db);
    assert_eq!(ids.len(), 100);
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 100, "change ids are unique");
    assert_eq!(ok(&second, "commitStaged", json!({}))["rowsAffected"], 100);
    assert_eq!(db.table("customers").unwrap().rows.len(), 105);
}

#[test]
fn a_path_that_cannot_hold_a_database_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no such folder").join("tables.db");
    let Err(e) = Backend::open(&missing) else {
        panic!("opened {}", missing.display())
    };
    let message = e.to_string();
    assert!(
        message.contains("no such folder") && message.contains("a folder that exists"),
        "{message}"
    );
    let not_a_database = dir.path().join("notes.txt");
    std::fs::write(
        &not_a_database,
        "this is not SQLite, just some text in a file",
    )
    .unwrap();
    let Err(e) = Backend::open(&not_a_database) else {
        panic!("opened a text file")
    };
    assert!(matches!(e, Error::Open { .. }), "{e}");
    assert!(e.to_string().contains("notes.txt"), "{e}");
}

#[test]
fn another_sqlite_file_opens_without_seeding() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("inventory.db");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(
        "CREATE TABLE parts (code TEXT PRIMARY KEY NOT NULL, qty INTEGER NOT NULL);
         INSERT INTO parts VALUES ('A-1', 4), ('B-2', 0);",
    )
    .unwrap();
    drop(conn);
    let db = common::open(&path);
    let tables = ok(&db, "listTables", json!({}));
    assert_eq!(
        tables,
        json!([{"name": "parts", "kind": "table", "rowCount": 2, "columnCount": 2}])
    );
    ok(
        &db,
        "stageItem",
        json!({"table": "parts", "operation": "update", "key": "B-2", "values": {"qty": 10}}),
    );
    ok(&db, "commitStaged", json!({}));
    assert_eq!(db.table("parts").unwrap().rows[1]["qty"], 10);
}
