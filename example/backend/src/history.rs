//! Committing the staging area in one transaction, the commit history (`_commits`,
//! with each row's before and after in `_commit_rows` for reverting), and the
//! immediate operations' entries in it.

use app_catalog as cat;
use app_catalog::Tool;
use rusqlite::{Connection, TransactionBehavior};
use serde_json::{Value, json};

use crate::change::{Applied, Change, apply};
use crate::staging::{self, parse_id, stage};
use crate::time::{Now, instant_in};
use crate::types::Row;
use crate::vectors::{self, Embedder};
use crate::{Error, schema, specs};

/// A history entry about to be written.
pub(crate) struct Entry<'a> {
    pub now: &'a Now,
    pub author: &'a str,
    pub message: Option<&'a str>,
    pub tables: Vec<String>,
    pub changes: usize,
    pub rows_affected: usize,
    /// Row changes that revertCommit can undo.
    pub applied: &'a [Applied],
}

/// Writes a history entry in the caller's transaction; returns its id, `c` and a number.
pub(crate) fn record(conn: &Connection, entry: &Entry<'_>) -> Result<String, Error> {
    let tables = serde_json::to_string(&entry.tables).unwrap_or_default();
    conn.prepare_cached(
        "INSERT INTO _commits (unix_seconds, time, author, message, tables, changes, \
         rows_affected) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(rusqlite::params![
        entry.now.unix_seconds(),
        entry.now.iso(),
        entry.author,
        entry.message,
        tables,
        i64::try_from(entry.changes).unwrap_or(i64::MAX),
        i64::try_from(entry.rows_affected).unwrap_or(i64::MAX),
    ])?;
    let id = conn.last_insert_rowid();
    let mut insert = conn.prepare_cached(
        "INSERT INTO _commit_rows (commit_id, seq, tbl, before, after) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    let text = |row: &Option<Row>| row.as_ref().map(|r| Value::Object(r.clone()).to_string());
    for (seq, a) in entry.applied.iter().enumerate() {
        insert.execute(rusqlite::params![
            id,
            i64::try_from(seq).unwrap_or(i64::MAX),
            a.table,
            text(&a.before),
            text(&a.after)
        ])?;
    }
    Ok(format!("c{id}"))
}

pub(crate) fn commit(
    conn: &mut Connection,
    args: &cat::CommitStagedArgs,
    now: &Now,
    author: &str,
    embedder: &dyn Embedder,
) -> Result<Value, Error> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let staged = staging::all(&tx)?;
    if staged.is_empty() {
        return Err(Error::NothingStaged);
    }
    let chosen: Vec<i64> = match &args.change_ids {
        None => staged.iter().map(|s| s.id).collect(),
        Some(ids) if ids.is_empty() => {
            return Err(Error::invalid(
                Tool::CommitStaged,
                "changeIds is empty; leave it out to commit everything staged",
            ));
        }
        Some(ids) => ids
            .iter()
            .map(|id| {
                parse_id(id)
                    .filter(|n| staged.iter().any(|s| s.id == *n))
                    .ok_or_else(|| Error::NoSuchChange { id: id.clone() })
            })
            .collect::<Result<_, _>>()?,
    };
    let mut applied = Vec::new();
    let mut tables: Vec<String> = Vec::new();
    for s in staged.iter().filter(|s| chosen.contains(&s.id)) {
        // Any failure drops `tx`, which rolls back every change applied so far.
        let done = apply(&tx, &s.table, &s.change).map_err(|e| Error::CommitFailed {
            change_id: s.change_id(),
            reason: Box::new(e),
        })?;
        applied.extend(done);
        // Saved specs follow a committed rename. They are kept here, not in `apply`:
        // specs read tables through `reads`, which sits above `change`.
        if let Change::RenameColumn { column, new_name } = &s.change {
            specs::rename_column(&tx, &s.table, column, new_name)?;
        }
        if !tables.contains(&s.table) {
            tables.push(s.table.clone());
        }
        tx.execute("DELETE FROM _staged WHERE id = ?1", [s.id])?;
    }
    vectors::follow(&tx, &applied, embedder)?;
    let id = record(
        &tx,
        &Entry {
            now,
            author,
            message: args.message.as_deref(),
            tables,
            changes: chosen.len(),
            rows_affected: applied.len(),
            applied: &applied,
        },
    )?;
    tx.commit()?;
    Ok(json!({ "commitId": id, "applied": chosen.len(), "rowsAffected": applied.len() }))
}

fn parse_commit_id(id: &str) -> Option<i64> {
    id.strip_prefix('c')?.parse().ok()
}

pub(crate) fn list(
    conn: &Connection,
    args: &cat::ListCommitsArgs,
    now: &Now,
) -> Result<Value, Error> {
    let since = match &args.since {
        None => i64::MIN,
        Some(s) => instant_in(s, now.zone()).ok_or_else(|| {
            Error::invalid(
                Tool::ListCommits,
                format!(
                    "since `{s}` is not an ISO 8601 date or date-time; pass e.g. 2025-03-14 \
                     or 2025-03-14T09:30:00+01:00 (getCurrentTime gives today's date)"
                ),
            )
        })?,
    };
    if let Some(name) = &args.table {
        let in_history = conn
            .prepare_cached(
                "SELECT 1 FROM _commits, json_each(_commits.tables) WHERE json_each.value = ?1",
            )?
            .exists([name])?;
        if !in_history {
            schema::load(conn, name)?;
        }
    }
    let mut stmt = conn.prepare_cached(
        "SELECT id, time, author, message, tables, changes, rows_affected FROM _commits \
         WHERE unix_seconds >= ?1 AND (?2 IS NULL OR EXISTS \
           (SELECT 1 FROM json_each(_commits.tables) WHERE json_each.value = ?2)) \
         ORDER BY id DESC LIMIT ?3",
    )?;
    let rows = stmt
        .query_map(rusqlite::params![since, args.table, args.limit], |r| {
            let tables: String = r.get(4)?;
            Ok(json!({
                "commitId": format!("c{}", r.get::<_, i64>(0)?),
                "time": r.get::<_, String>(1)?,
                "author": r.get::<_, String>(2)?,
                "message": r.get::<_, Option<String>>(3)?,
                "tables": serde_json::from_str::<Value>(&tables).unwrap_or_default(),
                "changes": r.get::<_, i64>(5)?,
                "rowsAffected": r.get::<_, i64>(6)?,
            }))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Value::Array(rows))
}

pub(crate) fn revert(conn: &mut Connection, args: &cat::RevertCommitArgs) -> Result<Value, Error> {
    let no_commit = || Error::NoSuchCommit {
        id: args.commit_id.clone(),
    };
    let id = parse_commit_id(&args.commit_id).ok_or_else(no_commit)?;
    let exists = conn
        .prepare_cached("SELECT 1 FROM _commits WHERE id = ?1")?
        .exists([id])?;
    if !exists {
        return Err(no_commit());
    }
    let rows: Vec<(String, Option<String>, Option<String>)> = conn
        .prepare_cached(
            "SELECT tbl, before, after FROM _commit_rows WHERE commit_id = ?1 ORDER BY seq DESC",
        )?
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    if rows.is_empty() {
        return Err(Error::invalid(
            Tool::RevertCommit,
            format!(
                "commit `{}` changed only the schema (or ran at once, like truncateTable), \
                 which revertCommit does not revert; stage the opposite schema change instead",
                args.commit_id
            ),
        ));
    }
    let parse = |text: Option<String>| -> Option<Row> {
        text.and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| v.as_object().cloned())
    };
    let mut changes = Vec::new();
    for (table, before, after) in rows {
        let t = schema::load(conn, &table)?;
        let key_of = |row: &Row| t.key(row.get(&t.primary_key).unwrap_or(&Value::Null));
        let change = match (parse(before), parse(after)) {
            (None, Some(after)) => Change::Delete {
                key: key_of(&after)?,
            },
            (Some(before), None) => Change::Insert { values: before },
            (Some(before), Some(after)) => Change::Update {
                key: key_of(&after)?,
                values: before
                    .iter()
                    .filter(|(k, v)| after.get(*k) != Some(*v))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            },
            (None, None) => continue,
        };
        changes.push((table, change));
    }
    let note = format!("revert of commit {}", args.commit_id);
    let ids = stage(conn, &changes, Some(&note))?;
    staging::pending(conn, &ids)
}
