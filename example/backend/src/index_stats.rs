//! indexStats from SQLite's own catalog: the indexes from `index_list` and
//! `index_info`, their size from the `dbstat` table, distinct keys counted, and how
//! often the queries of this process used each (read from `EXPLAIN QUERY PLAN` as they
//! ran, see [`Store::note_plan`]).

use app_catalog as cat;
use rusqlite::Connection;
use serde_json::{Value, json};

use crate::Error;
use crate::schema::{self, Index, quote};
use crate::store::Store;

/// `redundant` when another index of the table starts with the same columns (and this
/// one enforces nothing), `unused` when no query used it since the start.
fn advice(index: &Index, others: &[Index], scans: u64) -> &'static str {
    let is_prefix = |other: &Index| {
        other.name != index.name
            && other.columns.len() >= index.columns.len()
            && other.columns[..index.columns.len()] == index.columns[..]
            && (other.columns.len() > index.columns.len() || other.name < index.name)
    };
    if index.origin != "c" || index.unique {
        // It enforces a key or uniqueness: keep it whatever the queries do.
        "ok"
    } else if others.iter().any(is_prefix) {
        "redundant"
    } else if scans == 0 {
        "unused"
    } else {
        "ok"
    }
}

pub(crate) fn stats(
    store: &Store,
    conn: &Connection,
    args: &cat::IndexStatsArgs,
) -> Result<Value, Error> {
    let tables = match &args.table {
        Some(t) => vec![schema::load(conn, t)?.name],
        None => schema::names(conn, "table")?,
    };
    let mut out = Vec::new();
    for table in tables {
        let indexes = schema::indexes(conn, &table)?;
        for index in &indexes {
            let size: i64 = conn.query_row(
                "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name = ?1",
                [&index.name],
                |r| r.get(0),
            )?;
            let list: Vec<String> = index.columns.iter().map(|c| quote(c)).collect();
            let distinct: i64 = conn.query_row(
                &format!(
                    "SELECT count(*) FROM (SELECT DISTINCT {} FROM {})",
                    list.join(", "),
                    quote(&table)
                ),
                [],
                |r| r.get(0),
            )?;
            let scans = store.scans(&index.name);
            out.push(json!({
                "table": table,
                "index": index.name,
                "columns": index.columns,
                "unique": index.unique,
                "sizeBytes": size,
                "distinctKeys": distinct,
                "scans": scans,
                "advice": advice(index, &indexes, scans),
            }));
        }
    }
    Ok(Value::Array(out))
}
