//! The SQLite connections: one writer behind a lock, a pool of read-only readers, the
//! pragmas every connection gets, the SQL functions the tools call, and the app's own
//! bookkeeping tables.
//!
//! A file database runs in WAL mode, so readers see the last committed state while the
//! writer works, and with `synchronous = NORMAL`: a transaction that returned is in the
//! WAL file and survives the process being killed (a power cut may lose the last few,
//! never corrupt the file). An in-memory database cannot be shared between connections,
//! so there every call goes through the writer's lock.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rusqlite::functions::{Aggregate, Context, FunctionFlags};
use rusqlite::{Connection, OpenFlags, TransactionBehavior};

use crate::Error;
use crate::seed;
use crate::time::parse_instant;

/// How long a connection waits for another process's lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The version of the bookkeeping tables, kept in SQLite's `user_version`.
const SCHEMA_VERSION: i64 = 1;

/// The app's own tables, beside the user's. Names starting with `_` are reserved for
/// them: the tools refuse to create or read such a table as data.
const BOOKKEEPING: &str = "
CREATE TABLE IF NOT EXISTS _staged (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tbl TEXT NOT NULL,
    change TEXT NOT NULL,
    note TEXT
);
CREATE TABLE IF NOT EXISTS _commits (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    unix_seconds INTEGER NOT NULL,
    time TEXT NOT NULL,
    author TEXT NOT NULL,
    message TEXT,
    tables TEXT NOT NULL,
    changes INTEGER NOT NULL,
    rows_affected INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS _commit_rows (
    commit_id INTEGER NOT NULL REFERENCES _commits (id),
    seq INTEGER NOT NULL,
    tbl TEXT NOT NULL,
    before TEXT,
    after TEXT,
    PRIMARY KEY (commit_id, seq)
);
CREATE TABLE IF NOT EXISTS _specs (
    name TEXT PRIMARY KEY NOT NULL,
    description TEXT,
    tbl TEXT NOT NULL,
    spec TEXT NOT NULL,
    saved_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS _attachments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    file_name TEXT NOT NULL,
    media_type TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS _embedded (
    tbl TEXT NOT NULL,
    col TEXT NOT NULL,
    model TEXT NOT NULL,
    PRIMARY KEY (tbl, col)
);
CREATE TABLE IF NOT EXISTS _vectors (
    tbl TEXT NOT NULL,
    col TEXT NOT NULL,
    row_key TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (tbl, col, row_key)
);
";

/// The connections to one database.
pub(crate) struct Store {
    writer: Mutex<Connection>,
    /// Idle read-only connections; `None` for an in-memory database.
    readers: Option<Mutex<Vec<Connection>>>,
    path: Option<PathBuf>,
    /// How often queries used each index since the start, by index name.
    scans: Mutex<HashMap<String, u64>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic inside a transaction rolled it back on unwinding: the data is whole.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn open_error(path: &Path, e: &rusqlite::Error) -> Error {
    Error::Open {
        path: path.display().to_string(),
        reason: e.to_string(),
    }
}

impl Store {
    /// A fresh in-memory database with the example data.
    pub(crate) fn memory() -> Result<Store, Error> {
        let conn = Connection::open_in_memory()?;
        configure(&conn)?;
        let store = Store {
            writer: Mutex::new(conn),
            readers: None,
            path: None,
            scans: Mutex::new(HashMap::new()),
        };
        store.initialize()?;
        Ok(store)
    }

    /// The database in `path`, created with the example data when the file is new.
    pub(crate) fn open(path: &Path) -> Result<Store, Error> {
        let conn = Connection::open(path).map_err(|e| open_error(path, &e))?;
        // A file that is not a database fails at its first read, here.
        configure(&conn).map_err(|e| match e {
            Error::Database { message } => Error::Open {
                path: path.display().to_string(),
                reason: message,
            },
            other => other,
        })?;
        let mode: String = conn
            .pragma_update_and_check(None, "journal_mode", "wal", |row| row.get(0))
            .map_err(|e| open_error(path, &e))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(Error::Open {
                path: path.display().to_string(),
                reason: format!(
                    "it cannot use write-ahead logging, the journal mode stays `{mode}`; a \
                     file on a local disk can"
                ),
            });
        }
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        let store = Store {
            writer: Mutex::new(conn),
            readers: Some(Mutex::new(Vec::new())),
            path: Some(path.to_owned()),
            scans: Mutex::new(HashMap::new()),
        };
        store.initialize()?;
        Ok(store)
    }

    /// Creates the bookkeeping tables once, and seeds a database that has no tables.
    fn initialize(&self) -> Result<(), Error> {
        self.write(|conn| {
            let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
            if version >= SCHEMA_VERSION {
                return Ok(());
            }
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let empty: bool = tx.query_row(
                "SELECT count(*) = 0 FROM sqlite_schema WHERE type = 'table'",
                [],
                |r| r.get(0),
            )?;
            tx.execute_batch(BOOKKEEPING)?;
            if empty {
                seed::example(&tx)?;
            }
            tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
            tx.commit()?;
            Ok(())
        })
    }

    /// Runs `f` with the writer. Callers open their own transaction.
    pub(crate) fn write<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, Error>,
    ) -> Result<T, Error> {
        f(&mut lock(&self.writer))
    }

    /// Runs `f` inside one read transaction, so everything it reads is one state: on a
    /// pooled read-only connection for a file, on the writer in memory.
    pub(crate) fn read<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let (Some(readers), Some(path)) = (&self.readers, &self.path) else {
            let conn = lock(&self.writer);
            let tx = conn.unchecked_transaction()?;
            return f(&tx);
        };
        let idle = lock(readers).pop();
        let conn = if let Some(conn) = idle {
            conn
        } else {
            let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
            let conn =
                Connection::open_with_flags(path, flags).map_err(|e| open_error(path, &e))?;
            configure(&conn)?;
            conn
        };
        let result = {
            let tx = conn.unchecked_transaction()?;
            f(&tx)
        };
        lock(readers).push(conn);
        result
    }

    /// Counts the indexes SQLite's plan for `sql` uses, for `indexStats`.
    pub(crate) fn note_plan(
        &self,
        conn: &Connection,
        sql: &str,
        params: &[rusqlite::types::Value],
    ) {
        let plan = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .and_then(|mut stmt| {
                stmt.query_map(rusqlite::params_from_iter(params), |r| {
                    r.get::<_, String>(3)
                })?
                .collect::<Result<Vec<String>, _>>()
            });
        // The plan is advice for statistics; a statement that cannot be explained ran
        // (or failed) on its own and is not counted.
        let Ok(plan) = plan else { return };
        let mut scans = lock(&self.scans);
        for detail in plan {
            if let Some(name) = index_in_plan(&detail) {
                *scans.entry(name.to_owned()).or_default() += 1;
            }
        }
    }

    /// How often queries used the index `name` since the start.
    pub(crate) fn scans(&self, name: &str) -> u64 {
        lock(&self.scans).get(name).copied().unwrap_or(0)
    }
}

/// The index a line of `EXPLAIN QUERY PLAN` names: `SEARCH orders USING INDEX
/// orders_customer_id (customer_id=?)`, `SCAN t USING COVERING INDEX i`.
fn index_in_plan(detail: &str) -> Option<&str> {
    let (_, rest) = detail.split_once("USING ")?;
    let rest = rest.strip_prefix("COVERING ").unwrap_or(rest);
    let rest = rest.strip_prefix("INDEX ")?;
    rest.split_whitespace().next()
}

/// What every connection gets: foreign keys enforced, a busy timeout, the functions.
fn configure(conn: &Connection) -> Result<(), Error> {
    conn.pragma_update(None, "foreign_keys", true)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    // SQLite's lower() folds ASCII only; the filters' contains and startsWith, and
    // findDuplicates' ignoreCase, should treat `Müller` and `MÜLLER` alike.
    conn.create_scalar_function("app_fold", 1, flags, |ctx: &Context<'_>| {
        Ok(ctx.get::<Option<String>>(0)?.map(|s| s.to_lowercase()))
    })?;
    // Date-times with different offsets compare as instants, not as text.
    conn.create_scalar_function("app_instant", 1, flags, |ctx: &Context<'_>| {
        Ok(ctx
            .get::<Option<String>>(0)?
            .and_then(|s| parse_instant(&s)))
    })?;
    conn.create_aggregate_function("app_median", 1, flags, Median)?;
    Ok(())
}

/// `aggregate`'s median: SQLite has none built in.
struct Median;

impl Aggregate<Vec<f64>, Option<f64>> for Median {
    fn init(&self, _: &mut Context<'_>) -> rusqlite::Result<Vec<f64>> {
        Ok(Vec::new())
    }

    fn step(&self, ctx: &mut Context<'_>, values: &mut Vec<f64>) -> rusqlite::Result<()> {
        if let Some(v) = ctx.get::<Option<f64>>(0)? {
            values.push(v);
        }
        Ok(())
    }

    fn finalize(
        &self,
        _: &mut Context<'_>,
        values: Option<Vec<f64>>,
    ) -> rusqlite::Result<Option<f64>> {
        let mut values = values.unwrap_or_default();
        values.sort_by(f64::total_cmp);
        let mid = values.len() / 2;
        Ok(match values.len() {
            0 => None,
            n if n % 2 == 1 => Some(values[mid]),
            _ => Some(f64::midpoint(values[mid - 1], values[mid])),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::index_in_plan;

    #[test]
    fn reads_index_names_from_query_plans() {
        assert_eq!(
            index_in_plan("SEARCH orders USING INDEX orders_customer_id (customer_id=?)"),
            Some("orders_customer_id")
        );
        assert_eq!(
            index_in_plan("SCAN t USING COVERING INDEX t_a_b"),
            Some("t_a_b")
        );
        assert_eq!(
            index_in_plan("SEARCH t USING INTEGER PRIMARY KEY (rowid=?)"),
            None
        );
        assert_eq!(index_in_plan("SCAN customers"), None);
    }
}
