//! A change as the staging area holds it (JSON in `_staged.change`) and how it is
//! applied to the tables inside a transaction. Each change is checked in Rust first,
//! so the model gets an error that names the column, the key or the reference; SQLite's
//! own constraints stay on as the last word.

use rusqlite::types::Value as Sql;
use rusqlite::{Connection, OptionalExtension, params_from_iter};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Error;
use crate::schema::{self, column_sql, create_sql, quote};
use crate::types::{Column, ColumnType, Row, Table};

/// A change to one table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Change {
    /// Insert a row; columns left out get their default, an integer key the next id.
    Insert {
        /// The given values.
        values: Row,
    },
    /// Set some columns of one row.
    Update {
        /// The row's key, normalized.
        key: Value,
        /// The new values.
        values: Row,
    },
    /// Delete one row.
    Delete {
        /// The row's key, normalized.
        key: Value,
    },
    /// Create the table.
    CreateTable {
        /// The columns.
        columns: Vec<Column>,
        /// The primary-key column.
        primary_key: String,
    },
    /// Add a column; existing rows get its default.
    AddColumn {
        /// The new column.
        column: Column,
    },
    /// Rename a column.
    RenameColumn {
        /// The current name.
        column: String,
        /// The new name.
        new_name: String,
    },
    /// Build an index.
    CreateIndex {
        /// The index's name.
        name: String,
        /// Its columns, in key order.
        columns: Vec<String>,
        /// Whether it also enforces unique values.
        unique: bool,
    },
}

impl Change {
    /// The kind `showStaging` reports: `insert`, `update`, `delete` or `schema`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Change::Insert { .. } => "insert",
            Change::Update { .. } => "update",
            Change::Delete { .. } => "delete",
            Change::CreateTable { .. }
            | Change::AddColumn { .. }
            | Change::RenameColumn { .. }
            | Change::CreateIndex { .. } => "schema",
        }
    }

    /// A one-line summary for the staging panel.
    #[must_use]
    pub fn summary(&self, table: &str) -> String {
        let list = |values: &Row| {
            values
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Change::Insert { values } => format!("insert into {table}: {}", list(values)),
            Change::Update { key, values } => {
                format!("update {table} row {key}: {}", list(values))
            }
            Change::Delete { key } => format!("delete {table} row {key}"),
            Change::CreateTable { columns, .. } => format!(
                "create table {table} ({})",
                columns
                    .iter()
                    .map(|c| format!("{} {}", c.name, c.ty.as_str()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Change::AddColumn { column } => {
                format!("add column {table}.{} {}", column.name, column.ty.as_str())
            }
            Change::RenameColumn { column, new_name } => {
                format!("rename column {table}.{column} to {new_name}")
            }
            Change::CreateIndex {
                name,
                columns,
                unique,
            } => format!(
                "create {}index {name} on {table} ({})",
                if *unique { "unique " } else { "" },
                columns.join(", ")
            ),
        }
    }
}

/// What a row change did, kept in the history so a commit can be reverted.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    /// The table.
    pub table: String,
    /// The row before; `None` for an insert.
    pub before: Option<Row>,
    /// The row after; `None` for a delete.
    pub after: Option<Row>,
}

/// Applies one change inside the caller's transaction. Returns what a row change did;
/// schema changes return `None`.
///
/// # Errors
/// Whatever makes the change not apply: a missing table, column or row, a taken key,
/// a value of the wrong type, a broken foreign key, a constraint SQLite enforces.
pub(crate) fn apply(
    conn: &Connection,
    name: &str,
    change: &Change,
) -> Result<Option<Applied>, Error> {
    match change {
        Change::Insert { values } => insert(conn, &schema::load(conn, name)?, values).map(Some),
        Change::Update { key, values } => {
            update(conn, &schema::load(conn, name)?, key, values).map(Some)
        }
        Change::Delete { key } => delete(conn, &schema::load(conn, name)?, key).map(Some),
        Change::CreateTable {
            columns,
            primary_key,
        } => create_table(conn, name, columns, primary_key).map(|()| None),
        Change::AddColumn { column } => {
            add_column(conn, &schema::load(conn, name)?, column).map(|()| None)
        }
        Change::RenameColumn { column, new_name } => {
            rename_column(conn, &schema::load(conn, name)?, column, new_name).map(|()| None)
        }
        Change::CreateIndex {
            name: index,
            columns,
            unique,
        } => create_index(conn, &schema::load(conn, name)?, index, columns, *unique).map(|()| None),
    }
}

/// The row of this key, every column.
pub(crate) fn row(conn: &Connection, t: &Table, key: &Value) -> Result<Option<Row>, Error> {
    let sql = format!(
        "SELECT * FROM {} WHERE {} = ?1",
        quote(&t.name),
        quote(&t.primary_key)
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    Ok(stmt
        .query_row([t.key_sql(key)], |r| Ok(read_row(t, r)))
        .optional()?)
}

/// A result row of `SELECT *` on `t` as JSON, by the columns' types.
pub(crate) fn read_row(t: &Table, r: &rusqlite::Row<'_>) -> Row {
    let mut row = Row::new();
    for (i, column) in t.columns.iter().enumerate() {
        let cell = r.get_ref(i).map_or(Value::Null, |c| column.ty.to_json(c));
        row.insert(column.name.clone(), cell);
    }
    row
}

fn no_row(t: &Table, key: &Value) -> Error {
    Error::NoSuchRow {
        table: t.name.clone(),
        key: key.clone(),
    }
}

/// Every foreign key of `t` that `row` sets must find its row.
fn check_references(conn: &Connection, t: &Table, row: &Row) -> Result<(), Error> {
    for fk in &t.foreign_keys {
        let value = row.get(&fk.column).unwrap_or(&Value::Null);
        if value.is_null() {
            continue;
        }
        let target = schema::load(conn, &fk.table)?;
        let sql = format!(
            "SELECT 1 FROM {} WHERE {} = ?1",
            quote(&fk.table),
            quote(&fk.references)
        );
        let found = conn
            .prepare_cached(&sql)?
            .exists([target.type_of(&fk.references).to_sql(value)])?;
        if !found {
            return Err(Error::ForeignKey {
                from: format!("{}.{}", t.name, fk.column),
                to: format!("{}.{}", fk.table, fk.references),
                key: value.clone(),
                missing: true,
            });
        }
    }
    Ok(())
}

/// No other row may still reference the row `before` of `t`.
fn check_not_referenced(conn: &Connection, t: &Table, before: &Row) -> Result<(), Error> {
    for (other, fk) in schema::referencing(conn, &t.name)? {
        let value = before.get(&fk.references).unwrap_or(&Value::Null);
        if value.is_null() {
            continue;
        }
        let sql = format!(
            "SELECT 1 FROM {} WHERE {} = ?1",
            quote(&other),
            quote(&fk.column)
        );
        if conn
            .prepare_cached(&sql)?
            .exists([t.type_of(&fk.references).to_sql(value)])?
        {
            return Err(Error::ForeignKey {
                from: format!("{other}.{}", fk.column),
                to: format!("{}.{}", t.name, fk.references),
                key: value.clone(),
                missing: false,
            });
        }
    }
    Ok(())
}

fn insert(conn: &Connection, t: &Table, values: &Row) -> Result<Applied, Error> {
    t.check_values(values)?;
    for column in &t.columns {
        let given = values.get(&column.name).is_some_and(|v| !v.is_null());
        let assigned = column.name == t.primary_key && column.ty == ColumnType::Integer;
        if !given && !column.nullable && column.default.is_none() && !assigned {
            return Err(Error::MissingValue {
                table: t.name.clone(),
                column: column.name.clone(),
            });
        }
    }
    if let Some(key) = values.get(&t.primary_key).filter(|k| !k.is_null())
        && row(conn, t, key)?.is_some()
    {
        return Err(Error::DuplicateKey {
            table: t.name.clone(),
            key: key.clone(),
        });
    }
    check_references(conn, t, values)?;
    let sql = if values.is_empty() {
        format!("INSERT INTO {} DEFAULT VALUES", quote(&t.name))
    } else {
        let columns: Vec<String> = values.keys().map(|c| quote(c)).collect();
        let marks: Vec<String> = (1..=values.len()).map(|i| format!("?{i}")).collect();
        format!(
            "INSERT INTO {} ({}) VALUES ({})",
            quote(&t.name),
            columns.join(", "),
            marks.join(", ")
        )
    };
    let params: Vec<Sql> = values.iter().map(|(c, v)| t.type_of(c).to_sql(v)).collect();
    conn.prepare_cached(&sql)?
        .execute(params_from_iter(params))?;
    let rowid = conn.last_insert_rowid();
    let after = conn
        .prepare_cached(&format!(
            "SELECT * FROM {} WHERE rowid = ?1",
            quote(&t.name)
        ))?
        .query_row([rowid], |r| Ok(read_row(t, r)))?;
    Ok(Applied {
        table: t.name.clone(),
        before: None,
        after: Some(after),
    })
}

fn update(conn: &Connection, t: &Table, key: &Value, values: &Row) -> Result<Applied, Error> {
    t.check_values(values)?;
    let before = row(conn, t, key)?.ok_or_else(|| no_row(t, key))?;
    let mut merged = before.clone();
    merged.extend(values.iter().map(|(k, v)| (k.clone(), v.clone())));
    check_references(conn, t, &merged)?;
    if !values.is_empty() {
        let sets: Vec<String> = values
            .keys()
            .enumerate()
            .map(|(i, c)| format!("{} = ?{}", quote(c), i + 2))
            .collect();
        let sql = format!(
            "UPDATE {} SET {} WHERE {} = ?1",
            quote(&t.name),
            sets.join(", "),
            quote(&t.primary_key)
        );
        let mut params = vec![t.key_sql(key)];
        params.extend(values.iter().map(|(c, v)| t.type_of(c).to_sql(v)));
        conn.prepare_cached(&sql)?
            .execute(params_from_iter(params))?;
    }
    let after = row(conn, t, key)?.ok_or_else(|| no_row(t, key))?;
    Ok(Applied {
        table: t.name.clone(),
        before: Some(before),
        after: Some(after),
    })
}

fn delete(conn: &Connection, t: &Table, key: &Value) -> Result<Applied, Error> {
    let before = row(conn, t, key)?.ok_or_else(|| no_row(t, key))?;
    check_not_referenced(conn, t, &before)?;
    let sql = format!(
        "DELETE FROM {} WHERE {} = ?1",
        quote(&t.name),
        quote(&t.primary_key)
    );
    conn.prepare_cached(&sql)?.execute([t.key_sql(key)])?;
    Ok(Applied {
        table: t.name.clone(),
        before: Some(before),
        after: None,
    })
}

fn taken(tool: app_catalog::Tool, what: &str) -> Error {
    Error::invalid(tool, format!("{what} already exists; pick another name"))
}

fn create_table(
    conn: &Connection,
    name: &str,
    columns: &[Column],
    primary_key: &str,
) -> Result<(), Error> {
    if schema::exists(conn, name)? {
        return Err(taken(
            app_catalog::Tool::CreateTable,
            &format!("a table `{name}`"),
        ));
    }
    let table = Table {
        name: name.to_owned(),
        columns: columns.to_vec(),
        primary_key: primary_key.to_owned(),
        foreign_keys: Vec::new(),
        rows: Vec::new(),
    };
    conn.execute_batch(&create_sql(name, &table))?;
    Ok(())
}

fn add_column(conn: &Connection, t: &Table, column: &Column) -> Result<(), Error> {
    if t.column(&column.name).is_ok() {
        return Err(taken(
            app_catalog::Tool::AddColumn,
            &format!("`{}` has a column `{}`", t.name, column.name),
        ));
    }
    let fill = column.default.clone().unwrap_or(Value::Null);
    let rows: i64 = conn.query_row(
        &format!("SELECT count(*) FROM {}", quote(&t.name)),
        [],
        |r| r.get(0),
    )?;
    if rows > 0 {
        t.check_value(column, &fill)?;
    }
    if !column.nullable && fill.is_null() {
        // SQLite's ADD COLUMN refuses NOT NULL without a default even on an empty
        // table: build the table anew with the column.
        let mut new = t.clone();
        new.columns.push(column.clone());
        return schema::rebuild(conn, t, &new);
    }
    conn.execute_batch(&format!(
        "ALTER TABLE {} ADD COLUMN {}",
        quote(&t.name),
        column_sql(column, false)
    ))?;
    Ok(())
}

fn rename_column(conn: &Connection, t: &Table, column: &str, new_name: &str) -> Result<(), Error> {
    t.column(column)?;
    if t.column(new_name).is_ok() {
        return Err(taken(
            app_catalog::Tool::RenameColumn,
            &format!("`{}` has a column `{new_name}`", t.name),
        ));
    }
    // SQLite renames the column in the table, its indexes and the foreign keys of
    // other tables that reference it.
    conn.execute_batch(&format!(
        "ALTER TABLE {} RENAME COLUMN {} TO {}",
        quote(&t.name),
        quote(column),
        quote(new_name)
    ))?;
    conn.execute(
        "UPDATE _embedded SET col = ?3 WHERE tbl = ?1 AND col = ?2",
        [&t.name, column, new_name],
    )?;
    conn.execute(
        "UPDATE _vectors SET col = ?3 WHERE tbl = ?1 AND col = ?2",
        [&t.name, column, new_name],
    )?;
    Ok(())
}

fn create_index(
    conn: &Connection,
    t: &Table,
    name: &str,
    columns: &[String],
    unique: bool,
) -> Result<(), Error> {
    for c in columns {
        t.column(c)?;
    }
    let exists = conn
        .prepare_cached("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?1")?
        .exists([name])?;
    if exists {
        return Err(taken(
            app_catalog::Tool::CreateIndex,
            &format!("an index `{name}`"),
        ));
    }
    let list: Vec<String> = columns.iter().map(|c| quote(c)).collect();
    let sql = format!(
        "CREATE {}INDEX {} ON {} ({})",
        if unique { "UNIQUE " } else { "" },
        quote(name),
        quote(&t.name),
        list.join(", ")
    );
    conn.execute_batch(&sql)
        .map_err(|e| match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::ConstraintViolation) => Error::invalid(
                app_catalog::Tool::CreateIndex,
                format!(
                    "some rows of `{}` share values in ({}), so a unique index cannot be built; \
                 find them with findDuplicates and stage fixes first, or leave unique false",
                    t.name,
                    columns.join(", ")
                ),
            ),
            _ => Error::from(e),
        })
}
