//! The staging area as rows of `_staged`: putting changes in (each checked by applying
//! it in a savepoint that is rolled back), listing, undoing and discarding them.

use app_catalog as cat;
use app_catalog::Tool;
use rusqlite::{Connection, DropBehavior, TransactionBehavior};
use serde_json::{Value, json};

use crate::Error;
use crate::change::{Change, apply};
use crate::schema;

/// A change waiting in the staging area.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Staged {
    pub id: i64,
    pub table: String,
    pub change: Change,
    pub note: Option<String>,
}

impl Staged {
    /// The id the tools show: `s` and the row id.
    pub(crate) fn change_id(&self) -> String {
        format!("s{}", self.id)
    }
}

/// The row id of a change id the model passed (`s12`).
pub(crate) fn parse_id(id: &str) -> Option<i64> {
    id.strip_prefix('s')?.parse().ok()
}

/// Every staged change, oldest first.
pub(crate) fn all(conn: &Connection) -> Result<Vec<Staged>, Error> {
    let mut stmt = conn.prepare_cached("SELECT id, tbl, change, note FROM _staged ORDER BY id")?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<String>>(3)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter()
        .map(|(id, table, change, note)| {
            let change = serde_json::from_str(&change).map_err(|e| Error::Database {
                message: format!("staged change s{id} cannot be read ({e}); discard it"),
            })?;
            Ok(Staged {
                id,
                table,
                change,
                note,
            })
        })
        .collect()
}

pub(crate) fn count(conn: &Connection) -> Result<usize, Error> {
    let n: i64 = conn.query_row("SELECT count(*) FROM _staged", [], |r| r.get(0))?;
    Ok(usize::try_from(n).unwrap_or(0))
}

fn count_for(conn: &Connection, table: &str) -> Result<usize, Error> {
    let n: i64 = conn.query_row(
        "SELECT count(*) FROM _staged WHERE tbl = ?1",
        [table],
        |r| r.get(0),
    )?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// Fails when `table` has staged changes that an immediate operation would strand.
pub(crate) fn none_for(conn: &Connection, table: &str) -> Result<(), Error> {
    match count_for(conn, table)? {
        0 => Ok(()),
        count => Err(Error::StagedChangesPending {
            table: table.to_owned(),
            count,
        }),
    }
}

/// Puts changes in the staging area, all or none, in one transaction: each is first
/// applied to the committed tables (with the earlier ones of the same call) in a
/// savepoint that is then rolled back, so what is staged applied cleanly when it was
/// staged. Returns the new change ids.
pub(crate) fn stage(
    conn: &mut Connection,
    changes: &[(String, Change)],
    note: Option<&str>,
) -> Result<Vec<String>, Error> {
    let mut tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    {
        let mut trial = tx.savepoint()?;
        trial.set_drop_behavior(DropBehavior::Rollback);
        for (table, change) in changes {
            apply(&trial, table, change)?;
        }
    }
    let mut ids = Vec::with_capacity(changes.len());
    {
        let mut insert =
            tx.prepare_cached("INSERT INTO _staged (tbl, change, note) VALUES (?1, ?2, ?3)")?;
        for (table, change) in changes {
            let text = serde_json::to_string(change).map_err(|e| Error::Database {
                message: format!("cannot write the change ({e})"),
            })?;
            insert.execute(rusqlite::params![table, text, note])?;
            ids.push(format!("s{}", tx.last_insert_rowid()));
        }
    }
    tx.commit()?;
    Ok(ids)
}

/// What a staging tool answers: the new id(s) and how many changes wait.
pub(crate) fn pending(conn: &Connection, ids: &[String]) -> Result<Value, Error> {
    let pending = count(conn)?;
    Ok(match ids {
        [id] => json!({ "changeId": id, "pendingChanges": pending }),
        _ => json!({ "changeIds": ids, "pendingChanges": pending }),
    })
}

pub(crate) fn show(conn: &Connection, args: &cat::ShowStagingArgs) -> Result<Value, Error> {
    if let Some(name) = &args.table
        && count_for(conn, name)? == 0
    {
        schema::load(conn, name)?;
    }
    Ok(Value::Array(
        all(conn)?
            .into_iter()
            .filter(|s| args.table.as_ref().is_none_or(|t| *t == s.table))
            .map(|s| {
                let mut summary = s.change.summary(&s.table);
                if let Some(note) = &s.note {
                    summary = format!("{summary} ({note})");
                }
                json!({
                    "changeId": s.change_id(),
                    "table": s.table,
                    "kind": s.change.kind(),
                    "summary": summary,
                })
            })
            .collect(),
    ))
}

pub(crate) fn undo(conn: &mut Connection, args: &cat::UndoStagedArgs) -> Result<Value, Error> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let ids: Vec<i64> = tx
        .prepare_cached("SELECT id FROM _staged ORDER BY id DESC LIMIT ?1")?
        .query_map([args.count], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    if ids.is_empty() {
        return Err(Error::NothingStaged);
    }
    for id in &ids {
        tx.execute("DELETE FROM _staged WHERE id = ?1", [id])?;
    }
    let undone: Vec<String> = ids.iter().map(|id| format!("s{id}")).collect();
    let out = json!({ "undone": undone, "pendingChanges": count(&tx)? });
    tx.commit()?;
    Ok(out)
}

pub(crate) fn discard(conn: &mut Connection, args: cat::DiscardStagedArgs) -> Result<Value, Error> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let before = count(&tx)?;
    match (args.change_ids, args.table, args.all) {
        (Some(ids), _, _) => {
            let staged = all(&tx)?;
            for id in &ids {
                let row = parse_id(id).filter(|n| staged.iter().any(|s| s.id == *n));
                let Some(row) = row else {
                    return Err(Error::NoSuchChange { id: id.clone() });
                };
                tx.execute("DELETE FROM _staged WHERE id = ?1", [row])?;
            }
        }
        (None, Some(name), _) => {
            if count_for(&tx, &name)? == 0 {
                schema::load(&tx, &name)?;
            }
            tx.execute("DELETE FROM _staged WHERE tbl = ?1", [&name])?;
        }
        (None, None, true) => {
            tx.execute("DELETE FROM _staged", [])?;
        }
        (None, None, false) => {
            return Err(Error::invalid(
                Tool::DiscardStaged,
                "say what to discard: changeIds from showStaging, a table, or all = true",
            ));
        }
    }
    let after = count(&tx)?;
    tx.commit()?;
    Ok(json!({ "discarded": before - after, "pendingChanges": after }))
}
