//! `runSql`: one read-only statement, with a row cap and a time limit.
//!
//! SQLite decides what reads, not this code reading the text: as the statement is
//! prepared, an authorizer hears from SQLite every action it would take, and a
//! statement with any action but reading (SELECT, reads of the user's tables,
//! functions, recursive CTEs) is refused before it runs; the prepared statement must be
//! one SQLite itself calls read-only (`sqlite3_stmt_readonly`); and the connection runs
//! it under `PRAGMA query_only`, so SQLite fails any write that got past both. A
//! progress handler stops it at the time limit.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use app_catalog as cat;
use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::{Connection, ErrorCode, params_from_iter};
use serde_json::{Map, Value, json};

use crate::Error;
use crate::error::sqlite_message;
use crate::schema::is_reserved;
use crate::store::Store;
use crate::types::{ColumnType, plain_to_json, plain_to_sql};

/// How long a statement may run before it is stopped.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(2);

/// Why the authorizer refused a statement, for the error message.
#[derive(Clone, Debug)]
enum Refusal {
    Internal(String),
    Writes(String),
}

fn authorize(ctx: &AuthContext<'_>) -> Result<(), Refusal> {
    match ctx.action {
        AuthAction::Read { table_name, .. }
            if is_reserved(table_name) && !table_name.starts_with("sqlite_") =>
        {
            Err(Refusal::Internal(table_name.to_owned()))
        }
        AuthAction::Select
        | AuthAction::Function { .. }
        | AuthAction::Recursive
        | AuthAction::Read { .. } => Ok(()),
        other => Err(Refusal::Writes(describe(&other))),
    }
}

/// What a refused action would do, in words for the model.
fn describe(action: &AuthAction<'_>) -> String {
    let text = format!("{action:?}");
    let name = text
        .split([' ', '{', '('])
        .next()
        .unwrap_or("change the database");
    // `Insert` → `insert`, `CreateTable` → `create table`, `Pragma` → `pragma`.
    let mut words = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            words.push(' ');
        }
        words.extend(c.to_lowercase());
    }
    format!("run {words}")
}

/// Runs the statement on `conn` with the authorizer, `query_only` and the time limit in
/// place, and takes them all off again whatever happened.
pub(crate) fn run(
    store: &Store,
    conn: &Connection,
    args: &cat::RunSqlArgs,
    limit: Duration,
) -> Result<Value, Error> {
    let refusal: Arc<Mutex<Option<Refusal>>> = Arc::new(Mutex::new(None));
    let seen = Arc::clone(&refusal);
    // query_only first: the authorizer would refuse the PRAGMA that sets it.
    conn.pragma_update(None, "query_only", true)?;
    // The authorizer only records: preparing runs nothing, and rusqlite also prepares
    // what follows a first statement, which should fail as a second statement rather
    // than as whatever that one would do.
    conn.authorizer(Some(move |ctx: AuthContext<'_>| {
        if let Err(why) = authorize(&ctx) {
            seen.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(why);
        }
        Authorization::Allow
    }))?;
    let deadline = Instant::now() + limit;
    conn.progress_handler(10_000, Some(move || Instant::now() > deadline))?;
    let result = execute(store, conn, args, limit, &refusal);
    conn.progress_handler(0, None::<fn() -> bool>)?;
    conn.authorizer(None::<fn(AuthContext<'_>) -> Authorization>)?;
    conn.pragma_update(None, "query_only", false)?;
    result
}

fn execute(
    store: &Store,
    conn: &Connection,
    args: &cat::RunSqlArgs,
    limit: Duration,
    refusal: &Mutex<Option<Refusal>>,
) -> Result<Value, Error> {
    let mut stmt = conn
        .prepare(&args.sql)
        .map_err(|e| statement_error(&e, limit))?;
    match refusal
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
    {
        Some(Refusal::Internal(table)) => return Err(Error::InternalTable { table }),
        Some(Refusal::Writes(what)) => return Err(Error::WritingSql { what }),
        None => {}
    }
    if !stmt.readonly() {
        return Err(Error::WritingSql {
            what: "change the database".to_owned(),
        });
    }
    let params: Vec<rusqlite::types::Value> =
        args.parameters.iter().flatten().map(plain_to_sql).collect();
    let wanted = stmt.parameter_count();
    if wanted != params.len() {
        return Err(Error::Sql {
            message: format!(
                "the statement has {wanted} placeholder(s) and {} parameter(s) were given; pass \
                 one value in parameters for each ?",
                params.len()
            ),
        });
    }
    // Result columns read straight from a table keep its types (booleans, JSON).
    let columns: Vec<(String, Option<ColumnType>)> = stmt
        .columns()
        .iter()
        .map(|c| {
            (
                c.name().to_owned(),
                c.decl_type().map(ColumnType::from_declared),
            )
        })
        .collect();
    let names = unique_names(&columns);
    let cap = usize::try_from(args.limit).unwrap_or(usize::MAX);
    let mut rows = Vec::new();
    let mut truncated = false;
    {
        let mut cursor = stmt
            .query(params_from_iter(&params))
            .map_err(|e| statement_error(&e, limit))?;
        while let Some(r) = cursor.next().map_err(|e| statement_error(&e, limit))? {
            if rows.len() == cap {
                truncated = true;
                break;
            }
            let mut row = Map::new();
            for (i, ((_, ty), name)) in columns.iter().zip(&names).enumerate() {
                let cell = r.get_ref(i).map_err(|e| statement_error(&e, limit))?;
                let value = match ty {
                    Some(ty) => ty.to_json(cell),
                    None => plain_to_json(cell),
                };
                row.insert(name.clone(), value);
            }
            rows.push(Value::Object(row));
        }
    }
    store.note_plan(conn, &args.sql, &params);
    Ok(json!({
        "columns": names,
        "rows": rows,
        "rowCount": rows.len(),
        "truncated": truncated,
    }))
}

/// Column names made unique (`id`, `id:2`), so a join's rows keep every column.
fn unique_names(columns: &[(String, Option<ColumnType>)]) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(columns.len());
    for (name, _) in columns {
        let mut candidate = name.clone();
        let mut n = 1;
        while names.contains(&candidate) {
            n += 1;
            candidate = format!("{name}:{n}");
        }
        names.push(candidate);
    }
    names
}

fn statement_error(e: &rusqlite::Error, limit: Duration) -> Error {
    match e {
        rusqlite::Error::MultipleStatement => Error::Sql {
            message: "runSql runs one statement at a time; send them in separate calls, or \
                      combine them with WITH and subqueries"
                .to_owned(),
        },
        _ if e.sqlite_error_code() == Some(ErrorCode::OperationInterrupted) => Error::SqlTimeout {
            millis: limit.as_millis(),
        },
        _ if e.sqlite_error_code() == Some(ErrorCode::ReadOnly) => Error::WritingSql {
            what: "write to the database".to_owned(),
        },
        _ => Error::Sql {
            message: sqlite_message(e),
        },
    }
}
