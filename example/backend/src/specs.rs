//! Saved view specs in `_specs`: a table with a filter, sort and columns in queryRows'
//! shape, saved under a name. They are project settings, so `saveSpec` writes at once;
//! a committed column rename and a dropped table or column update them.

use app_catalog as cat;
use app_catalog::Tool;
use catalog_core::FromJson;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior};
use serde_json::{Map, Value, json};

use crate::time::Now;
use crate::types::suggest;
use crate::{Error, reads};

/// A spec as queryRows' arguments, checked against the table it names.
fn checked(conn: &Connection, spec: &Value) -> Result<cat::QueryRowsArgs, Error> {
    let bad = |message: String| Error::invalid(Tool::SaveSpec, message);
    let Some(fields) = spec.as_object() else {
        return Err(bad(
            "spec must be an object with table, and optionally filter, sort and columns".into(),
        ));
    };
    let mut query = Map::new();
    for key in ["table", "filter", "sort", "columns"] {
        if let Some(v) = fields.get(key) {
            query.insert(key.to_owned(), v.clone());
        }
    }
    let args = cat::QueryRowsArgs::from_json(Value::Object(query))
        .map_err(|e| bad(format!("spec does not have queryRows' shape: {e}")))?;
    reads::check_query(conn, &args, Tool::SaveSpec)?;
    Ok(args)
}

/// A one-line summary of a spec for listSavedSpecs.
fn summary(spec: &Value) -> String {
    let table = spec["table"].as_str().unwrap_or_default();
    let mut text = table.to_owned();
    if let Some(conditions) = spec["filter"]["conditions"]
        .as_array()
        .filter(|c| !c.is_empty())
    {
        let parts: Vec<String> = conditions
            .iter()
            .map(|c| {
                let value = c.get("value").map(|v| format!(" {v}")).unwrap_or_default();
                format!(
                    "{} {}{value}",
                    c["column"].as_str().unwrap_or_default(),
                    c["op"].as_str().unwrap_or_default()
                )
            })
            .collect();
        let joiner = if spec["filter"]["match"] == "any" {
            " or "
        } else {
            " and "
        };
        text = format!("{text} where {}", parts.join(joiner));
    }
    if let Some(sort) = spec["sort"].as_array().filter(|s| !s.is_empty()) {
        let keys: Vec<&str> = sort.iter().filter_map(|k| k["column"].as_str()).collect();
        text = format!("{text}, sorted by {}", keys.join(", "));
    }
    text
}

pub(crate) fn save(
    conn: &mut Connection,
    args: cat::SaveSpecArgs,
    current: Option<Value>,
    now: &Now,
) -> Result<Value, Error> {
    let Some(spec) = args.spec.or(current) else {
        return Err(Error::invalid(
            Tool::SaveSpec,
            "no view is open to save; pass spec with at least a table (and filter, sort, \
             columns as in queryRows), or open the table with openTable first",
        ));
    };
    let query = checked(conn, &spec)?;
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let taken = tx
        .prepare_cached("SELECT 1 FROM _specs WHERE name = ?1")?
        .exists([&args.name])?;
    if taken && !args.overwrite {
        return Err(Error::SpecExists { name: args.name });
    }
    tx.execute(
        "INSERT OR REPLACE INTO _specs (name, description, tbl, spec, saved_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        rusqlite::params![args.name, args.description, query.table, spec.to_string(), now.iso()],
    )?;
    tx.commit()?;
    Ok(json!({ "saved": args.name, "table": query.table, "replaced": taken }))
}

pub(crate) fn list(conn: &Connection, args: &cat::ListSavedSpecsArgs) -> Result<Value, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT name, description, tbl, spec FROM _specs WHERE ?1 IS NULL OR tbl = ?1 ORDER BY name",
    )?;
    let rows = stmt
        .query_map([&args.table], |r| {
            let spec: Value = serde_json::from_str(&r.get::<_, String>(3)?).unwrap_or_default();
            let description: Option<String> = r.get(1)?;
            Ok(json!({
                "name": r.get::<_, String>(0)?,
                "table": r.get::<_, String>(2)?,
                "summary": description.unwrap_or_else(|| summary(&spec)),
            }))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Value::Array(rows))
}

/// The spec saved under `name`.
pub(crate) fn load(conn: &Connection, name: &str) -> Result<Value, Error> {
    let spec: Option<String> = conn
        .prepare_cached("SELECT spec FROM _specs WHERE name = ?1")?
        .query_row([name], |r| r.get(0))
        .optional()?;
    let Some(spec) = spec else {
        let names: Vec<String> = conn
            .prepare_cached("SELECT name FROM _specs")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        return Err(Error::NoSuchSpec {
            name: name.to_owned(),
            suggestion: suggest(name, names.iter().map(String::as_str)),
        });
    };
    serde_json::from_str(&spec).map_err(|e| Error::Database {
        message: format!("saved spec `{name}` cannot be read ({e}); save it again"),
    })
}

/// Rewrites every spec of `table` with `f`, in the caller's transaction.
fn rewrite(conn: &Connection, table: &str, f: impl Fn(&mut Value)) -> Result<(), Error> {
    let specs: Vec<(String, String)> = conn
        .prepare_cached("SELECT name, spec FROM _specs WHERE tbl = ?1")?
        .query_map([table], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (name, text) in specs {
        let Ok(mut spec) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        f(&mut spec);
        conn.execute(
            "UPDATE _specs SET spec = ?2 WHERE name = ?1",
            [&name, &spec.to_string()],
        )?;
    }
    Ok(())
}

/// A committed column rename reaches the specs that name the column.
pub(crate) fn rename_column(
    conn: &Connection,
    table: &str,
    column: &str,
    new_name: &str,
) -> Result<(), Error> {
    rewrite(conn, table, |spec| {
        let rename = |v: &mut Value| {
            if v.as_str() == Some(column) {
                *v = Value::from(new_name);
            }
        };
        if let Some(columns) = spec.get_mut("columns").and_then(Value::as_array_mut) {
            columns.iter_mut().for_each(rename);
        }
        if let Some(sort) = spec.get_mut("sort").and_then(Value::as_array_mut) {
            sort.iter_mut()
                .filter_map(|k| k.get_mut("column"))
                .for_each(rename);
        }
        if let Some(conditions) = spec
            .pointer_mut("/filter/conditions")
            .and_then(Value::as_array_mut)
        {
            conditions
                .iter_mut()
                .filter_map(|c| c.get_mut("column"))
                .for_each(rename);
        }
    })
}

/// A deleted column leaves the specs that name it: from their columns, sort and
/// conditions alike, so each still opens.
pub(crate) fn delete_column(conn: &Connection, table: &str, column: &str) -> Result<(), Error> {
    rewrite(conn, table, |spec| {
        if let Some(columns) = spec.get_mut("columns").and_then(Value::as_array_mut) {
            columns.retain(|c| c.as_str() != Some(column));
        }
        if let Some(sort) = spec.get_mut("sort").and_then(Value::as_array_mut) {
            sort.retain(|k| k["column"].as_str() != Some(column));
        }
        if let Some(conditions) = spec
            .pointer_mut("/filter/conditions")
            .and_then(Value::as_array_mut)
        {
            conditions.retain(|c| c["column"].as_str() != Some(column));
        }
    })
}

/// A dropped table takes its specs with it; returns their names.
pub(crate) fn drop_table(conn: &Connection, table: &str) -> Result<Vec<String>, Error> {
    let names: Vec<String> = conn
        .prepare_cached("SELECT name FROM _specs WHERE tbl = ?1 ORDER BY name")?
        .query_map([table], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    conn.execute("DELETE FROM _specs WHERE tbl = ?1", [table])?;
    Ok(names)
}
