//! The schema tools. createTable, addColumn, renameColumn and createIndex stage their
//! DDL like any row change. deleteColumn, dropIndex, truncateTable and dropTable are
//! gated: they run at once, after the user approved the call, as the catalog says, in
//! one transaction that also writes their entry in the history.

use app_catalog as cat;
use app_catalog::Tool;
use rusqlite::{Connection, Transaction, TransactionBehavior};
use serde_json::{Value, json};

use crate::change::Change;
use crate::history::{Entry, record};
use crate::schema::{self, is_reserved, quote};
use crate::staging::{none_for, pending, stage};
use crate::time::Now;
use crate::types::{Column, ColumnType};
use crate::{Error, specs, vectors};

/// Who did an immediate operation, and when, for its history entry.
pub(crate) struct Actor<'a> {
    pub now: &'a Now,
    pub author: &'a str,
}

impl From<cat::CreateTableColumnsItemType> for ColumnType {
    fn from(t: cat::CreateTableColumnsItemType) -> ColumnType {
        use cat::CreateTableColumnsItemType as T;
        match t {
            T::Text => ColumnType::Text,
            T::Integer => ColumnType::Integer,
            T::Real => ColumnType::Real,
            T::Boolean => ColumnType::Boolean,
            T::Date => ColumnType::Date,
            T::Datetime => ColumnType::Datetime,
            T::Json => ColumnType::Json,
        }
    }
}

impl From<cat::AddColumnType> for ColumnType {
    fn from(t: cat::AddColumnType) -> ColumnType {
        use cat::AddColumnType as T;
        match t {
            T::Text => ColumnType::Text,
            T::Integer => ColumnType::Integer,
            T::Real => ColumnType::Real,
            T::Boolean => ColumnType::Boolean,
            T::Date => ColumnType::Date,
            T::Datetime => ColumnType::Datetime,
            T::Json => ColumnType::Json,
        }
    }
}

/// A name for a new table or column: not empty, not one SQLite or the app reserves.
pub(crate) fn check_name(tool: Tool, what: &str, name: &str) -> Result<(), Error> {
    if name.trim().is_empty() {
        return Err(Error::invalid(
            tool,
            format!("the {what} name is empty; give it a name"),
        ));
    }
    if is_reserved(name) {
        return Err(Error::invalid(
            tool,
            format!(
                "`{name}` is reserved (names starting with `_` or `sqlite_` belong to the \
                 database and the app); pick another {what} name"
            ),
        ));
    }
    Ok(())
}

fn table_is_free(conn: &Connection, tool: Tool, name: &str) -> Result<(), Error> {
    check_name(tool, "table", name)?;
    let staged = conn
        .prepare_cached("SELECT 1 FROM _staged WHERE tbl = ?1")?
        .exists([name])?;
    if schema::exists(conn, name)? || staged {
        return Err(Error::invalid(
            tool,
            format!("a table `{name}` already exists or is staged; pick another name"),
        ));
    }
    Ok(())
}

/// The columns and primary key of a new table; an integer `id` key is added when no
/// column is marked as the key.
pub(crate) fn new_table(
    tool: Tool,
    mut columns: Vec<Column>,
    keys: &[String],
) -> Result<(Vec<Column>, String), Error> {
    if columns.is_empty() {
        return Err(Error::invalid(
            tool,
            "columns is empty; give the table at least one column",
        ));
    }
    for (i, c) in columns.iter().enumerate() {
        check_name(tool, "column", &c.name)?;
        if columns[..i].iter().any(|o| o.name == c.name) {
            return Err(Error::invalid(
                tool,
                format!("column `{}` is listed twice", c.name),
            ));
        }
    }
    let primary_key = match keys {
        [] if columns.iter().any(|c| c.name == "id") => {
            return Err(Error::invalid(
                tool,
                "no column is the primary key and `id` is taken; mark one column with \
                 primaryKey = true",
            ));
        }
        [] => {
            columns.insert(0, Column::new("id", ColumnType::Integer, false));
            "id".to_owned()
        }
        [key] => key.clone(),
        _ => {
            return Err(Error::invalid(
                tool,
                "this database supports only single-column primary keys; mark one column",
            ));
        }
    };
    for c in &mut columns {
        if c.name == primary_key {
            c.nullable = false;
        }
    }
    Ok((columns, primary_key))
}

pub(crate) fn create_table(
    conn: &mut Connection,
    args: cat::CreateTableArgs,
) -> Result<Value, Error> {
    let tool = Tool::CreateTable;
    table_is_free(conn, tool, &args.name)?;
    let keys: Vec<String> = args
        .columns
        .iter()
        .filter(|c| c.primary_key)
        .map(|c| c.name.clone())
        .collect();
    let columns = args
        .columns
        .into_iter()
        .map(|c| Column::new(&c.name, c.r#type.into(), c.nullable))
        .collect();
    let (columns, primary_key) = new_table(tool, columns, &keys)?;
    let change = Change::CreateTable {
        columns,
        primary_key,
    };
    let ids = stage(conn, &[(args.name, change)], None)?;
    pending(conn, &ids)
}

pub(crate) fn add_column(conn: &mut Connection, args: cat::AddColumnArgs) -> Result<Value, Error> {
    let t = schema::load(conn, &args.table)?;
    check_name(Tool::AddColumn, "column", &args.name)?;
    let mut column = Column::new(&args.name, args.r#type.into(), args.nullable);
    if let Some(default) = args.default_value.filter(|v| !v.is_null()) {
        t.check_value(&column, &default)?;
        column = column.with_default(default);
    } else if !args.nullable {
        let rows: i64 = conn.query_row(
            &format!("SELECT count(*) FROM {}", quote(&t.name)),
            [],
            |r| r.get(0),
        )?;
        if rows > 0 {
            return Err(Error::invalid(
                Tool::AddColumn,
                format!(
                    "`{}` has rows, so a column with nullable = false needs a defaultValue for \
                     them",
                    t.name
                ),
            ));
        }
    }
    let ids = stage(conn, &[(args.table, Change::AddColumn { column })], None)?;
    pending(conn, &ids)
}

pub(crate) fn rename_column(
    conn: &mut Connection,
    args: cat::RenameColumnArgs,
) -> Result<Value, Error> {
    check_name(Tool::RenameColumn, "column", &args.new_name)?;
    let change = Change::RenameColumn {
        column: args.column,
        new_name: args.new_name,
    };
    let ids = stage(conn, &[(args.table, change)], None)?;
    pending(conn, &ids)
}

pub(crate) fn create_index(
    conn: &mut Connection,
    args: cat::CreateIndexArgs,
) -> Result<Value, Error> {
    let tool = Tool::CreateIndex;
    let t = schema::load(conn, &args.table)?;
    if args.columns.is_empty() {
        return Err(Error::invalid(
            tool,
            "columns is empty; name the columns to index, in key order",
        ));
    }
    for c in &args.columns {
        t.column(c)?;
    }
    let name = args
        .name
        .unwrap_or_else(|| format!("{}_{}", args.table, args.columns.join("_")));
    check_name(tool, "index", &name)?;
    let same = schema::indexes(conn, &t.name)?
        .into_iter()
        .find(|i| i.columns == args.columns && (i.unique || !args.unique));
    if let Some(existing) = same {
        return Err(Error::invalid(
            tool,
            format!(
                "`{}` already has index `{}` on ({}); it serves the same queries",
                t.name,
                existing.name,
                args.columns.join(", ")
            ),
        ));
    }
    let change = Change::CreateIndex {
        name,
        columns: args.columns,
        unique: args.unique,
    };
    let ids = stage(conn, &[(args.table, change)], None)?;
    pending(conn, &ids)
}

/// Runs an immediate operation in one transaction with foreign keys off (SQLite's way
/// to rebuild a table that others reference), checks them before committing, and
/// turns them back on whatever happened.
fn immediate<T>(
    conn: &mut Connection,
    f: impl FnOnce(&Transaction<'_>) -> Result<T, Error>,
) -> Result<T, Error> {
    conn.pragma_update(None, "foreign_keys", false)?;
    let result = (|| {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let out = f(&tx)?;
        let broken: Option<(String, i64)> = tx
            .prepare("PRAGMA foreign_key_check")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .next()
            .transpose()?;
        if let Some((table, rowid)) = broken {
            return Err(Error::Refused {
                message: format!(
                    "row {rowid} of `{table}` would refer to a row that no longer exists"
                ),
            });
        }
        tx.commit()?;
        Ok(out)
    })();
    conn.pragma_update(None, "foreign_keys", true)?;
    result
}

/// Writes the history entry of an immediate operation.
fn write_entry(
    conn: &Connection,
    actor: &Actor<'_>,
    message: &str,
    table: &str,
    rows: usize,
) -> Result<String, Error> {
    record(
        conn,
        &Entry {
            now: actor.now,
            author: actor.author,
            message: Some(message),
            tables: vec![table.to_owned()],
            changes: 1,
            rows_affected: rows,
            applied: &[],
        },
    )
}

pub(crate) fn delete_column(
    conn: &mut Connection,
    args: &cat::DeleteColumnArgs,
    actor: &Actor<'_>,
) -> Result<Value, Error> {
    let t = schema::load(conn, &args.table)?;
    t.column(&args.column)?;
    if t.primary_key == args.column {
        return Err(Error::invalid(
            Tool::DeleteColumn,
            format!(
                "`{}` is the primary key of `{}` and cannot be deleted; drop the table instead \
                 if it is no longer needed",
                args.column, t.name
            ),
        ));
    }
    none_for(conn, &args.table)?;
    immediate(conn, |tx| {
        let in_key = t.foreign_keys.iter().any(|fk| fk.column == args.column);
        let indexes: Vec<String> = schema::indexes(tx, &t.name)?
            .into_iter()
            .filter(|i| i.columns.contains(&args.column))
            .map(|i| i.name)
            .collect();
        if in_key || !indexes.is_empty() {
            // ALTER TABLE DROP COLUMN refuses a column in a foreign key or an index.
            let mut new = t.clone();
            new.columns.retain(|c| c.name != args.column);
            new.foreign_keys.retain(|fk| fk.column != args.column);
            schema::rebuild(tx, &t, &new)?;
        } else {
            tx.execute_batch(&format!(
                "ALTER TABLE {} DROP COLUMN {}",
                quote(&t.name),
                quote(&args.column)
            ))?;
        }
        specs::delete_column(tx, &t.name, &args.column)?;
        vectors::forget(tx, &t.name, Some(&args.column))?;
        let id = write_entry(
            tx,
            actor,
            &format!("deleteColumn {}.{}", t.name, args.column),
            &t.name,
            0,
        )?;
        Ok(json!({
            "deleted": format!("{}.{}", t.name, args.column),
            "droppedIndexes": indexes,
            "commitId": id,
        }))
    })
}

pub(crate) fn drop_index(
    conn: &mut Connection,
    args: &cat::DropIndexArgs,
    actor: &Actor<'_>,
) -> Result<Value, Error> {
    let t = schema::load(conn, &args.table)?;
    let indexes = schema::indexes(conn, &t.name)?;
    let Some(index) = indexes.iter().find(|i| i.name == args.index) else {
        return Err(Error::NoSuchIndex {
            table: t.name.clone(),
            index: args.index.clone(),
            indexes: indexes.into_iter().map(|i| i.name).collect(),
        });
    };
    if index.origin != "c" {
        return Err(Error::invalid(
            Tool::DropIndex,
            format!(
                "`{}` enforces the primary key or a UNIQUE constraint of `{}` and goes only with \
                 it; it cannot be dropped",
                index.name, t.name
            ),
        ));
    }
    immediate(conn, |tx| {
        tx.execute_batch(&format!("DROP INDEX {}", quote(&args.index)))?;
        let id = write_entry(tx, actor, &format!("dropIndex {}", args.index), &t.name, 0)?;
        Ok(json!({ "dropped": args.index, "table": t.name, "commitId": id }))
    })
}

pub(crate) fn truncate_table(
    conn: &mut Connection,
    args: &cat::TruncateTableArgs,
    actor: &Actor<'_>,
) -> Result<Value, Error> {
    let t = schema::load(conn, &args.table)?;
    none_for(conn, &args.table)?;
    for (other, fk) in schema::referencing(conn, &t.name)? {
        if other == t.name {
            continue;
        }
        let sql = format!(
            "SELECT {col} FROM {other_q} WHERE {col} IN (SELECT {refd} FROM {t}) LIMIT 1",
            col = quote(&fk.column),
            other_q = quote(&other),
            refd = quote(&fk.references),
            t = quote(&t.name)
        );
        let found: Option<Value> = conn
            .prepare(&sql)?
            .query_map([], |r| Ok(crate::types::plain_to_json(r.get_ref(0)?)))?
            .next()
            .transpose()?;
        if let Some(key) = found {
            return Err(Error::ForeignKey {
                from: format!("{other}.{}", fk.column),
                to: format!("{}.{}", t.name, fk.references),
                key,
                missing: false,
            });
        }
    }
    immediate(conn, |tx| {
        let deleted = tx.execute(&format!("DELETE FROM {}", quote(&t.name)), [])?;
        let has_sequence = tx
            .prepare("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_sequence'")?
            .exists([])?;
        if args.reset_ids && has_sequence {
            tx.execute("DELETE FROM sqlite_sequence WHERE name = ?1", [&t.name])?;
        }
        tx.execute("DELETE FROM _vectors WHERE tbl = ?1", [&t.name])?;
        let id = write_entry(
            tx,
            actor,
            &format!("truncateTable {}", t.name),
            &t.name,
            deleted,
        )?;
        Ok(json!({ "deleted": deleted, "commitId": id }))
    })
}

pub(crate) fn drop_table(
    conn: &mut Connection,
    args: &cat::DropTableArgs,
    actor: &Actor<'_>,
) -> Result<Value, Error> {
    let t = schema::load(conn, &args.table)?;
    none_for(conn, &args.table)?;
    let references: Vec<(String, String)> = schema::referencing(conn, &t.name)?
        .into_iter()
        .filter(|(other, _)| *other != t.name)
        .map(|(other, fk)| (other, fk.column))
        .collect();
    if let (Some((other, column)), false) = (references.first(), args.cascade) {
        return Err(Error::Referenced {
            table: t.name.clone(),
            by: format!("{other}.{column}"),
        });
    }
    immediate(conn, |tx| {
        let mut rebuilt: Vec<String> = references.iter().map(|(o, _)| o.clone()).collect();
        rebuilt.dedup();
        for other in rebuilt {
            let old = schema::load(tx, &other)?;
            let mut new = old.clone();
            new.foreign_keys.retain(|fk| fk.table != t.name);
            schema::rebuild(tx, &old, &new)?;
        }
        tx.execute_batch(&format!("DROP TABLE {}", quote(&t.name)))?;
        let specs = specs::drop_table(tx, &t.name)?;
        vectors::forget(tx, &t.name, None)?;
        let id = write_entry(tx, actor, &format!("dropTable {}", t.name), &t.name, 0)?;
        Ok(json!({
            "dropped": t.name,
            "removedForeignKeys": references.iter().map(|(o, c)| format!("{o}.{c}")).collect::<Vec<_>>(),
            "removedSpecs": specs,
            "commitId": id,
        }))
    })
}
