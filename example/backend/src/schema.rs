//! Tables as SQLite's own catalog describes them (`sqlite_schema` and the `table_info`,
//! `foreign_key_list` and `index_list` pragmas), and the DDL text for new ones.

use rusqlite::{Connection, OptionalExtension};
use serde_json::Value;

use crate::Error;
use crate::types::{Column, ColumnType, ForeignKey, Table, suggest};

/// A name SQLite or this app keeps for itself.
pub(crate) fn is_reserved(name: &str) -> bool {
    name.starts_with('_') || name.to_ascii_lowercase().starts_with("sqlite_")
}

/// `"name"`, quoted as an SQL identifier.
pub(crate) fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The user's tables (or views), by name.
pub(crate) fn names(conn: &Connection, kind: &str) -> Result<Vec<String>, Error> {
    let mut stmt =
        conn.prepare_cached("SELECT name FROM sqlite_schema WHERE type = ?1 ORDER BY name")?;
    let names = stmt
        .query_map([kind], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(names.into_iter().filter(|n| !is_reserved(n)).collect())
}

/// Whether a user table of this name exists.
pub(crate) fn exists(conn: &Connection, name: &str) -> Result<bool, Error> {
    if is_reserved(name) {
        return Ok(false);
    }
    Ok(conn
        .prepare_cached("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1")?
        .exists([name])?)
}

/// The schema of a user table (no rows).
///
/// # Errors
/// [`Error::InternalTable`] for a bookkeeping table, [`Error::NotCreatedYet`] for one
/// that only a staged `createTable` makes, else [`Error::NoSuchTable`] with the
/// closest name.
pub(crate) fn load(conn: &Connection, name: &str) -> Result<Table, Error> {
    if is_reserved(name) {
        return Err(Error::InternalTable {
            table: name.to_owned(),
        });
    }
    if !exists(conn, name)? {
        let staged = conn
            .prepare_cached(
                "SELECT 1 FROM _staged WHERE tbl = ?1 \
                 AND json_extract(change, '$.kind') = 'createTable'",
            )?
            .exists([name])?;
        if staged {
            return Err(Error::NotCreatedYet {
                table: name.to_owned(),
            });
        }
        let tables = names(conn, "table")?;
        return Err(Error::NoSuchTable {
            name: name.to_owned(),
            suggestion: suggest(name, tables.iter().map(String::as_str)),
        });
    }
    let mut columns = Vec::new();
    let mut primary_key = Vec::new();
    let mut stmt = conn.prepare_cached(
        "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?1) ORDER BY cid",
    )?;
    let mut rows = stmt.query([name])?;
    while let Some(row) = rows.next()? {
        let column: String = row.get(0)?;
        let ty = ColumnType::from_declared(&row.get::<_, String>(1)?);
        let not_null: bool = row.get(2)?;
        let default: Option<String> = row.get(3)?;
        let pk: i64 = row.get(4)?;
        if pk > 0 {
            primary_key.push((pk, column.clone()));
        }
        columns.push(Column {
            nullable: !not_null && pk == 0,
            default: default.map(|d| parse_literal(&d, ty)),
            ty,
            name: column,
        });
    }
    primary_key.sort();
    // Tables this app makes have one key column; another file's table without one is
    // addressed by SQLite's rowid.
    let primary_key = primary_key
        .into_iter()
        .next()
        .map_or_else(|| "rowid".to_owned(), |(_, c)| c);
    let foreign_keys = foreign_keys(conn, name)?;
    Ok(Table {
        name: name.to_owned(),
        columns,
        primary_key,
        foreign_keys,
        rows: Vec::new(),
    })
}

fn foreign_keys(conn: &Connection, name: &str) -> Result<Vec<ForeignKey>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT \"from\", \"table\", \"to\" FROM pragma_foreign_key_list(?1) ORDER BY id, seq",
    )?;
    let listed = stmt
        .query_map([name], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut keys = Vec::new();
    for (column, table, to) in listed {
        let references = match to {
            Some(to) => to,
            None => primary_key_of(conn, &table)?.unwrap_or_else(|| "rowid".to_owned()),
        };
        keys.push(ForeignKey {
            column,
            table,
            references,
        });
    }
    Ok(keys)
}

fn primary_key_of(conn: &Connection, table: &str) -> Result<Option<String>, Error> {
    Ok(conn
        .prepare_cached("SELECT name FROM pragma_table_info(?1) WHERE pk = 1")?
        .query_row([table], |r| r.get(0))
        .optional()?)
}

/// Every foreign key of another table that references `table`, as
/// `(referencing table, its key)`.
pub(crate) fn referencing(
    conn: &Connection,
    table: &str,
) -> Result<Vec<(String, ForeignKey)>, Error> {
    let mut found = Vec::new();
    for other in names(conn, "table")? {
        for fk in foreign_keys(conn, &other)? {
            if fk.table == table {
                found.push((other.clone(), fk));
            }
        }
    }
    Ok(found)
}

/// An index of a table, from `index_list` and `index_info`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Index {
    pub name: String,
    pub columns: Vec<String>,
    pub unique: bool,
    /// `c` for `CREATE INDEX`, `u` for a UNIQUE constraint, `pk` for a primary key.
    pub origin: String,
}

pub(crate) fn indexes(conn: &Connection, table: &str) -> Result<Vec<Index>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT name, \"unique\", origin FROM pragma_index_list(?1) ORDER BY name",
    )?;
    let listed = stmt
        .query_map([table], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, bool>(1)?,
                r.get::<_, String>(2)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut columns =
        conn.prepare_cached("SELECT name FROM pragma_index_info(?1) ORDER BY seqno")?;
    let mut out = Vec::new();
    for (name, unique, origin) in listed {
        let cols = columns
            .query_map([&name], |r| r.get::<_, Option<String>>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        out.push(Index {
            columns: cols.into_iter().map(Option::unwrap_or_default).collect(),
            name,
            unique,
            origin,
        });
    }
    Ok(out)
}

/// A default as `table_info` gives it (SQL text) read as a value of the column's type.
fn parse_literal(text: &str, ty: ColumnType) -> Value {
    let value = if text.eq_ignore_ascii_case("null") {
        Value::Null
    } else if let Some(inner) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        Value::String(inner.replace("''", "'"))
    } else if let Ok(i) = text.parse::<i64>() {
        Value::from(i)
    } else if let Ok(f) = text.parse::<f64>() {
        Value::from(f)
    } else if text.eq_ignore_ascii_case("true") || text.eq_ignore_ascii_case("false") {
        Value::Bool(text.eq_ignore_ascii_case("true"))
    } else {
        // An expression such as CURRENT_TIMESTAMP: shown as written.
        Value::String(text.to_owned())
    };
    match (ty, value) {
        (ColumnType::Boolean, Value::Number(n)) => Value::Bool(n.as_f64() != Some(0.0)),
        (ColumnType::Json, Value::String(s)) => {
            serde_json::from_str(&s).unwrap_or(Value::String(s))
        }
        (ColumnType::Real, Value::Number(n)) => n.as_f64().map_or(Value::Number(n), Value::from),
        (_, value) => value,
    }
}

/// A value as an SQL literal, for `DEFAULT` clauses.
pub(crate) fn literal(value: &Value, ty: ColumnType) -> String {
    match (ty, value) {
        (_, Value::Null) => "NULL".to_owned(),
        (ColumnType::Json, v) => text_literal(&v.to_string()),
        (_, Value::Bool(b)) => i64::from(*b).to_string(),
        (ColumnType::Real, Value::Number(n)) => {
            let f = n.as_f64().unwrap_or_default();
            // `129` would read back as an integer: keep the point.
            if f.fract() == 0.0 && f.abs() < 1e15 {
                format!("{f:.1}")
            } else {
                f.to_string()
            }
        }
        (_, Value::Number(n)) => n.to_string(),
        (_, Value::String(s)) => text_literal(s),
        (_, other) => text_literal(&other.to_string()),
    }
}

fn text_literal(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// The column definition in `CREATE TABLE` or `ADD COLUMN`.
pub(crate) fn column_sql(column: &Column, primary_key: bool) -> String {
    let mut sql = format!("{} {}", quote(&column.name), column.ty.declared());
    if primary_key {
        sql.push_str(" PRIMARY KEY");
        // Ids are never reused, even after the row with the highest one is deleted;
        // truncateTable's resetIds starts them again at 1.
        if column.ty == ColumnType::Integer {
            sql.push_str(" AUTOINCREMENT");
        }
    }
    if !column.nullable || primary_key {
        sql.push_str(" NOT NULL");
    }
    if let Some(default) = column.default.as_ref().filter(|d| !d.is_null()) {
        sql.push_str(" DEFAULT ");
        sql.push_str(&literal(default, column.ty));
    }
    sql
}

/// `CREATE TABLE` for a table of this shape, under `name`.
pub(crate) fn create_sql(name: &str, table: &Table) -> String {
    let mut parts: Vec<String> = table
        .columns
        .iter()
        .map(|c| column_sql(c, c.name == table.primary_key))
        .collect();
    for fk in &table.foreign_keys {
        parts.push(format!(
            "FOREIGN KEY ({}) REFERENCES {} ({})",
            quote(&fk.column),
            quote(&fk.table),
            quote(&fk.references)
        ));
    }
    format!(
        "CREATE TABLE {} (\n  {}\n)",
        quote(name),
        parts.join(",\n  ")
    )
}

/// Rebuilds `old` in the shape of `new` (same name), copying the columns both have and
/// recreating the indexes whose columns are all still there: SQLite's procedure for the
/// changes `ALTER TABLE` cannot make. The caller holds a transaction with foreign keys
/// off and checks them before committing.
pub(crate) fn rebuild(conn: &Connection, old: &Table, new: &Table) -> Result<(), Error> {
    let kept: Vec<String> = indexes(conn, &old.name)?
        .into_iter()
        .filter(|i| i.origin == "c")
        .filter(|i| i.columns.iter().all(|c| new.column(c).is_ok()))
        .map(|i| i.name)
        .collect();
    let mut index_sql = Vec::new();
    for name in kept {
        let sql: Option<String> = conn.query_row(
            "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?1",
            [&name],
            |r| r.get(0),
        )?;
        index_sql.extend(sql);
    }
    let scratch = "_rebuild";
    conn.execute_batch(&format!("DROP TABLE IF EXISTS {}", quote(scratch)))?;
    conn.execute_batch(&create_sql(scratch, new))?;
    let shared: Vec<String> = new
        .columns
        .iter()
        .filter(|c| old.column(&c.name).is_ok())
        .map(|c| quote(&c.name))
        .collect();
    let list = shared.join(", ");
    conn.execute_batch(&format!(
        "INSERT INTO {} ({list}) SELECT {list} FROM {} ORDER BY rowid;\n\
         DROP TABLE {};\n\
         ALTER TABLE {} RENAME TO {};",
        quote(scratch),
        quote(&old.name),
        quote(&old.name),
        quote(scratch),
        quote(&old.name),
    ))?;
    for sql in index_sql {
        conn.execute_batch(&sql)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn literals_round_trip_through_table_info() {
        for (value, ty) in [
            (json!("it's open"), ColumnType::Text),
            (json!(true), ColumnType::Boolean),
            (json!(129.0), ColumnType::Real),
            (json!(7), ColumnType::Integer),
            (json!({"a": [1, "b"]}), ColumnType::Json),
            (json!(null), ColumnType::Text),
        ] {
            assert_eq!(parse_literal(&literal(&value, ty), ty), value, "{ty:?}");
        }
    }
}
