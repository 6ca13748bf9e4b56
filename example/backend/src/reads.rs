//! The tools that only read tables: listTables, describeTable, queryRows, aggregate and
//! findDuplicates, each one or two SQL statements built from checked arguments.

use app_catalog as cat;
use app_catalog::Tool;
use rusqlite::types::Value as Sql;
use rusqlite::{Connection, params_from_iter};
use serde_json::{Map, Value, json};

use crate::change::read_row;
use crate::filter::{Filter, compared};
use crate::schema::{self, quote};
use crate::store::Store;
use crate::types::{ColumnType, Table, plain_to_json};
use crate::{Error, vectors};

fn count(n: i64) -> usize {
    usize::try_from(n).unwrap_or(0)
}

/// Runs `sql` and reads each row as an object of `names`, each cell converted by its
/// type; counts the indexes SQLite used.
pub(crate) fn select(
    store: &Store,
    conn: &Connection,
    sql: &str,
    params: &[Sql],
    names: &[(String, Option<ColumnType>)],
) -> Result<Vec<Value>, Error> {
    store.note_plan(conn, sql, params);
    let mut stmt = conn.prepare(sql)?;
    let rows = stmt
        .query_map(params_from_iter(params), |r| {
            let mut row = Map::new();
            for (i, (name, ty)) in names.iter().enumerate() {
                let cell = r.get_ref(i)?;
                let value = ty.map_or_else(|| plain_to_json(cell), |ty| ty.to_json(cell));
                row.insert(name.clone(), value);
            }
            Ok(Value::Object(row))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

fn scalar(conn: &Connection, sql: &str, params: &[Sql]) -> Result<i64, Error> {
    Ok(conn.query_row(sql, params_from_iter(params), |r| r.get(0))?)
}

/// The columns named, checked; all of the table's when `None`.
pub(crate) fn columns<'a>(
    t: &'a Table,
    tool: Tool,
    names: Option<&'a [String]>,
) -> Result<Vec<&'a str>, Error> {
    match names {
        None => Ok(t.columns.iter().map(|c| c.name.as_str()).collect()),
        Some([]) => Err(Error::invalid(
            tool,
            "columns is empty; leave it out for every column",
        )),
        Some(names) => names
            .iter()
            .map(|n| t.column(n).map(|c| c.name.as_str()))
            .collect(),
    }
}

fn typed<'a>(
    t: &Table,
    columns: impl IntoIterator<Item = &'a str>,
) -> Vec<(String, Option<ColumnType>)> {
    columns
        .into_iter()
        .map(|c| (c.to_owned(), Some(t.type_of(c))))
        .collect()
}

fn select_list(columns: &[&str]) -> String {
    columns
        .iter()
        .map(|c| quote(c))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn list_tables(conn: &Connection, args: &cat::ListTablesArgs) -> Result<Value, Error> {
    let mut kinds = vec!["table"];
    if args.include_views {
        kinds.push("view");
    }
    let mut out = Vec::new();
    for kind in kinds {
        for name in schema::names(conn, kind)? {
            let rows = scalar(conn, &format!("SELECT count(*) FROM {}", quote(&name)), &[])?;
            let columns = scalar(
                conn,
                "SELECT count(*) FROM pragma_table_info(?1)",
                &[Sql::Text(name.clone())],
            )?;
            out.push(
                json!({ "name": name, "kind": kind, "rowCount": rows, "columnCount": columns }),
            );
        }
    }
    Ok(Value::Array(out))
}

pub(crate) fn describe_table(
    conn: &Connection,
    args: &cat::DescribeTableArgs,
) -> Result<Value, Error> {
    let t = schema::load(conn, &args.table)?;
    let embedded = vectors::embedded(conn)?;
    let has_embeddings = |c: &str| embedded.iter().any(|(tt, cc)| *tt == t.name && cc == c);
    let referenced_by: Vec<String> = schema::referencing(conn, &t.name)?
        .into_iter()
        .map(|(other, fk)| format!("{other}.{}", fk.column))
        .collect();
    let indexes: Vec<Value> = schema::indexes(conn, &t.name)?
        .into_iter()
        .map(|i| json!({ "name": i.name, "columns": i.columns, "unique": i.unique }))
        .collect();
    let mut stmt = conn.prepare(&format!(
        "SELECT * FROM {} ORDER BY rowid LIMIT ?1",
        quote(&t.name)
    ))?;
    let samples = stmt
        .query_map([args.sample_rows], |r| Ok(Value::Object(read_row(&t, r))))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(json!({
        "table": t.name,
        "columns": t.columns.iter().map(|c| json!({
            "name": c.name,
            "type": c.ty.as_str(),
            "nullable": c.nullable,
            "default": c.default,
            "hasEmbeddings": has_embeddings(&c.name),
        })).collect::<Vec<_>>(),
        "primaryKey": [t.primary_key],
        "indexes": indexes,
        "foreignKeys": t.foreign_keys.iter().map(|fk| json!({
            "column": fk.column,
            "references": format!("{}.{}", fk.table, fk.references),
        })).collect::<Vec<_>>(),
        "referencedBy": referenced_by,
        "rowCount": scalar(conn, &format!("SELECT count(*) FROM {}", quote(&t.name)), &[])?,
        "sampleRows": samples,
    }))
}

/// Checks queryRows' arguments against the table; returns its schema and the filter.
pub(crate) fn check_query(
    conn: &Connection,
    args: &cat::QueryRowsArgs,
    tool: Tool,
) -> Result<(Table, Filter), Error> {
    let t = schema::load(conn, &args.table)?;
    let filter = args.filter.clone().map(Filter::from).unwrap_or_default();
    filter.check(&t, tool)?;
    columns(&t, tool, args.columns.as_deref())?;
    for key in args.sort.iter().flatten() {
        t.column(&key.column)?;
    }
    Ok((t, filter))
}

/// `ORDER BY` for sort keys, nulls last either way, then table order.
fn order_by(t: &Table, keys: &[(String, bool)]) -> String {
    let mut parts: Vec<String> = keys
        .iter()
        .map(|(column, desc)| {
            let col = compared(column, t.type_of(column));
            format!(
                "{col} IS NULL, {col} {}",
                if *desc { "DESC" } else { "ASC" }
            )
        })
        .collect();
    parts.push("rowid".to_owned());
    parts.join(", ")
}

pub(crate) fn query_rows(
    store: &Store,
    conn: &Connection,
    args: &cat::QueryRowsArgs,
) -> Result<Value, Error> {
    let (t, filter) = check_query(conn, args, Tool::QueryRows)?;
    let columns = columns(&t, Tool::QueryRows, args.columns.as_deref())?;
    let sort: Vec<(String, bool)> = args
        .sort
        .iter()
        .flatten()
        .map(|k| {
            (
                k.column.clone(),
                k.direction == cat::QueryRowsSortItemDirection::Desc,
            )
        })
        .collect();
    let mut params = Vec::new();
    let condition = filter.to_sql(&t, &mut params);
    let total = scalar(
        conn,
        &format!("SELECT count(*) FROM {} WHERE {condition}", quote(&t.name)),
        &params,
    )?;
    params.push(Sql::Integer(args.limit));
    params.push(Sql::Integer(args.offset));
    let sql = format!(
        "SELECT {} FROM {} WHERE {condition} ORDER BY {} LIMIT ?{} OFFSET ?{}",
        select_list(&columns),
        quote(&t.name),
        order_by(&t, &sort),
        params.len() - 1,
        params.len()
    );
    let rows = select(
        store,
        conn,
        &sql,
        &params,
        &typed(&t, columns.iter().copied()),
    )?;
    Ok(json!({
        "rows": rows,
        "totalMatching": total,
        "hasMore": args.offset.saturating_add(args.limit) < total,
    }))
}

pub(crate) fn aggregate(
    store: &Store,
    conn: &Connection,
    args: &cat::AggregateArgs,
) -> Result<Value, Error> {
    use cat::AggregateMeasuresItemFunction as F;
    let tool = Tool::Aggregate;
    let t = schema::load(conn, &args.table)?;
    let filter = args.filter.clone().map(Filter::from).unwrap_or_default();
    filter.check(&t, tool)?;
    let group_by: Vec<String> = args.group_by.clone().unwrap_or_default();
    for c in &group_by {
        t.column(c)?;
    }
    if args.measures.is_empty() {
        return Err(Error::invalid(
            tool,
            "measures is empty; ask for at least a count",
        ));
    }
    let mut names: Vec<(String, Option<ColumnType>)> =
        typed(&t, group_by.iter().map(String::as_str));
    let mut exprs: Vec<String> = group_by.iter().map(|c| quote(c)).collect();
    for m in &args.measures {
        let column = match &m.column {
            Some(c) => Some(t.column(c)?),
            None if m.function == F::Count => None,
            None => {
                return Err(Error::invalid(
                    tool,
                    format!(
                        "{} needs a column; only count works without one",
                        m.function.as_str()
                    ),
                ));
            }
        };
        if let Some(c) = column
            .filter(|c| matches!(m.function, F::Sum | F::Avg | F::Median) && !c.ty.is_numeric())
        {
            return Err(Error::invalid(
                tool,
                format!(
                    "{} needs a number column, and `{}` is {}; use count, min or max",
                    m.function.as_str(),
                    c.name,
                    c.ty.as_str()
                ),
            ));
        }
        let col = column.map(|c| quote(&c.name)).unwrap_or_default();
        let expr = match (m.function, column) {
            (F::Count, None) => "count(*)".to_owned(),
            (F::Count, Some(_)) => format!("count({col})"),
            (F::CountDistinct, _) => format!("count(DISTINCT {col})"),
            (F::Sum, _) => format!("sum({col})"),
            (F::Avg, _) => format!("avg({col})"),
            (F::Min, _) => format!("min({col})"),
            (F::Max, _) => format!("max({col})"),
            (F::Median, _) => format!("app_median({col})"),
        };
        exprs.push(format!("{expr} AS _m{}", exprs.len()));
        let alias = m.alias.clone().unwrap_or_else(|| match column {
            Some(c) => format!("{}_{}", m.function.as_str(), c.name),
            None => m.function.as_str().to_owned(),
        });
        // min and max keep the column's type (a date, a boolean); the rest are numbers.
        let ty = column
            .filter(|_| matches!(m.function, F::Min | F::Max))
            .map(|c| c.ty);
        names.push((alias, ty));
    }
    let mut params = Vec::new();
    let condition = filter.to_sql(&t, &mut params);
    let group = if group_by.is_empty() {
        String::new()
    } else {
        format!(" GROUP BY {}", exprs[..group_by.len()].join(", "))
    };
    let first = format!("_m{}", group_by.len());
    let from = format!("FROM {} WHERE {condition}{group}", quote(&t.name));
    let groups = scalar(
        conn,
        &format!("SELECT count(*) FROM (SELECT 1 {from})"),
        &params,
    )?;
    let groups = if group_by.is_empty() { 1 } else { groups };
    params.push(Sql::Integer(args.limit));
    let sql = format!(
        "SELECT {} {from} ORDER BY {first} IS NULL, {first} DESC, min(rowid) LIMIT ?{}",
        exprs.join(", "),
        params.len()
    );
    let rows = select(store, conn, &sql, &params, &names)?;
    Ok(json!({ "groups": rows, "groupCount": groups }))
}

pub(crate) fn find_duplicates(
    store: &Store,
    conn: &Connection,
    args: &cat::FindDuplicatesArgs,
) -> Result<Value, Error> {
    let tool = Tool::FindDuplicates;
    let t = schema::load(conn, &args.table)?;
    let columns = columns(&t, tool, Some(&args.columns))?;
    let normalized: Vec<String> = columns
        .iter()
        .map(|c| {
            let mut e = quote(c);
            if args.trim_spaces && t.type_of(c).is_textual() {
                e = format!("trim({e})");
            }
            if args.ignore_case && t.type_of(c).is_textual() {
                e = format!("app_fold({e})");
            }
            e
        })
        .collect();
    let all_null = columns
        .iter()
        .map(|c| format!("{} IS NULL", quote(c)))
        .collect::<Vec<_>>()
        .join(" AND ");
    let sql = format!(
        "SELECT count(*) AS n, json_group_array({pk}), min(rowid) FROM \
         (SELECT rowid, * FROM {table} ORDER BY rowid) WHERE NOT ({all_null}) \
         GROUP BY {group} HAVING count(*) > 1 ORDER BY n DESC, min(rowid)",
        pk = quote(&t.primary_key),
        table = quote(&t.name),
        group = normalized.join(", "),
    );
    store.note_plan(conn, &sql, &[]);
    let groups: Vec<(i64, String, i64)> = conn
        .prepare(&sql)?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    let first_sql = format!(
        "SELECT {} FROM {} WHERE rowid = ?1",
        select_list(&columns),
        quote(&t.name)
    );
    let mut out = Vec::new();
    for (n, keys, first) in groups.iter().take(count(args.limit)) {
        let values = select(
            store,
            conn,
            &first_sql,
            &[Sql::Integer(*first)],
            &typed(&t, columns.iter().copied()),
        )?;
        out.push(json!({
            "values": values.into_iter().next().unwrap_or_default(),
            "count": n,
            "keys": serde_json::from_str::<Value>(keys).unwrap_or_default(),
        }));
    }
    Ok(json!({ "groups": out, "groupCount": groups.len() }))
}

/// A table with its rows, for [`crate::Backend::table`].
pub(crate) fn snapshot(conn: &Connection, name: &str) -> Result<Table, Error> {
    let mut t = schema::load(conn, name)?;
    let mut stmt = conn.prepare(&format!("SELECT * FROM {} ORDER BY rowid", quote(name)))?;
    let rows = stmt
        .query_map([], |r| Ok(read_row(&t, r)))?
        .collect::<Result<Vec<_>, _>>()?;
    t.rows = rows;
    Ok(t)
}
