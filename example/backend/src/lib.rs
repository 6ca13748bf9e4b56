//! The example table-database app's backend: the generated [`app_catalog::Handler`]
//! over a SQLite database (`rusqlite`, SQLite compiled in), with a staging area the
//! user reviews and a commit history, all in one file.
//!
//! The agent never writes to a table directly: `stageItem`, `bulkEdit`, `findReplace`,
//! `importCsv`, `revertCommit` and the schema tools `createTable`, `addColumn`,
//! `renameColumn` and `createIndex` put changes in the staging area, and `commitStaged`
//! applies them in one transaction. The gated tools `deleteColumn`, `dropIndex`,
//! `truncateTable` and `dropTable` run at once, after the user approved the call, as
//! the catalog tells the model; each is one transaction with its entry in the history.
//! A call that fails changes nothing.
//!
//! Calls reach it only through the verifier, which decides who may call what and checks
//! the arguments against the catalog's schema: the backend never checks the caller's
//! access.
//!
//! # Where the data lives
//!
//! [`Backend::open`] uses a database file, created and filled with the example tables
//! (`customers`, `orders`, `products`) the first time, and kept across restarts: the
//! tables, the staging area (`_staged`), the history (`_commits`, `_commit_rows`),
//! saved view specs (`_specs`), attachments and vectors. Tables whose names start with
//! `_` are the app's own and hidden from the tools. The file runs in WAL mode (readers
//! do not wait for the writer) with `synchronous = NORMAL`: a change that was
//! acknowledged is in the file even if the process is killed the next instant, and a
//! commit is either all there or not at all. To start over, delete the file and its
//! `-wal` and `-shm` companions. [`Backend::new`] is the same database in memory, fresh
//! each time, for tests and demos. Any other SQLite file opens too: it is not seeded,
//! and its tables need a single-column primary key to be edited.
//!
//! # Choices
//!
//! - **runSql** runs one statement that SQLite itself judges read-only: an authorizer
//!   refuses every action but reading as the statement is prepared, the statement must
//!   be read-only by `sqlite3_stmt_readonly`, and it runs under `PRAGMA query_only`. It
//!   returns at most `limit` rows (the catalog's default 200, at most 5,000) and is
//!   stopped after [`DEFAULT_SQL_TIME_LIMIT`] (2 s; [`Backend::sql_time_limit`] changes
//!   it).
//! - **vectorSearch** scans the stored vectors of a column (no vector extension: one
//!   would have to be loaded through `unsafe` code, which this workspace forbids, and a
//!   scan of a few thousand rows takes milliseconds). Vectors are computed from the
//!   column's text by an [`Embedder`] when a row is committed, in the same transaction,
//!   and for every row when a column is embedded ([`Backend::embed_column`]; the example
//!   embeds `products.description`). The default [`HashingEmbedder`] needs no model
//!   and matches words and word pieces; [`Backend::with_embedder`] puts a real
//!   embedding model in, and the stored vectors are recomputed with it.
//! - **getCurrentTime** answers in the user's IANA time zone through `jiff`, with the
//!   time zone database compiled in: the machine's zone by default (`TZ` overrides it),
//!   or one named with [`SystemClock::in_zone`].
//! - **proposeChart** returns a Vega-Lite specification with the data inline.
//!
//! ```
//! use app_backend::Backend;
//! use app_catalog::Catalog;
//! use catalog_core::{Access, DenyAll, Dispatch, Output, Via, Verified};
//! use serde_json::json;
//!
//! let backend = Backend::new();
//! let arguments = json!({"table": "customers", "operation": "insert",
//!                        "values": {"name": "Acme GmbH", "city": "Munich", "country": "DE"}});
//! let via = Via::Mcp(Access::ReadAndStage, &Catalog);
//! let Ok(Verified::Run(call)) = Catalog::verify(via, "stageItem", arguments, &mut DenyAll) else {
//!     unreachable!("stageItem is a silent read-and-stage tool")
//! };
//! let Dispatch::Ran(result) = pollster::block_on(call.dispatch(&backend)) else {
//!     unreachable!("stageItem is not the search tool")
//! };
//! let Ok(Output::Value(staged)) = result else {
//!     unreachable!("stageItem answers with a JSON value")
//! };
//! assert_eq!(staged["pendingChanges"], 1);
//! ```

mod areas;
mod attachments;
mod change;
mod chart;
mod csv_io;
mod ddl;
mod edits;
mod error;
mod filter;
mod handler;
mod history;
mod index_stats;
mod reads;
mod schema;
mod seed;
mod specs;
mod sql;
mod staging;
mod store;
mod time;
mod types;
mod ui;
mod vectors;

use std::collections::VecDeque;
use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde_json::Value;

pub use areas::{Area, refreshes};
pub use change::{Applied, Change};
pub use error::Error;
pub use filter::{Condition, Filter, Op};
pub use sql::DEFAULT_TIME_LIMIT as DEFAULT_SQL_TIME_LIMIT;
pub use time::{Clock, FixedClock, Now, SystemClock};
pub use types::{Column, ColumnType, ForeignKey, Row, Table};
pub use ui::{UiEvent, ViewMode};
pub use vectors::{Embedder, HashingEmbedder};

use store::Store;

/// The backend: the database, the UI events it records, the clock and the embedder.
///
/// It is `Sync`: writes serialize on the database's writer, reads run beside them.
/// Handler methods run SQLite synchronously; each call is short (milliseconds, runSql
/// at most its time limit).
pub struct Backend {
    store: Store,
    ui: Mutex<Vec<UiEvent>>,
    answers: Mutex<VecDeque<String>>,
    /// What the main grid shows, as a view spec, for `saveSpec` without a spec.
    view: Mutex<Option<Value>>,
    clock: Box<dyn Clock>,
    embedder: Box<dyn Embedder>,
    sql_time_limit: Duration,
}

impl Default for Backend {
    fn default() -> Backend {
        Backend::new()
    }
}

fn recover<G>(result: Result<G, PoisonError<G>>) -> G {
    // The guarded values are whole at every point a panic could leave them.
    result.unwrap_or_else(PoisonError::into_inner)
}

impl Backend {
    /// The example database in memory, on the system clock.
    ///
    /// # Panics
    /// Only when SQLite cannot allocate a database in memory.
    #[must_use]
    pub fn new() -> Backend {
        Backend::with_clock(SystemClock::new())
    }

    /// The example database in memory, on the given clock.
    ///
    /// # Panics
    /// Only when SQLite cannot allocate a database in memory.
    #[must_use]
    pub fn with_clock(clock: impl Clock + 'static) -> Backend {
        let store = Store::memory()
            .unwrap_or_else(|e| panic!("the in-memory example database cannot be built: {e}"));
        let backend = Backend::on(store).clock(clock);
        backend
            .refresh_vectors()
            .unwrap_or_else(|e| panic!("the example's vectors cannot be computed: {e}"));
        backend
    }

    /// The database in the file `path`: created and filled with the example tables when
    /// the file is new, opened as it was left otherwise.
    ///
    /// # Errors
    /// [`Error::Open`] when the file cannot be opened or created as a SQLite database in
    /// WAL mode, with the path and the reason.
    pub fn open(path: impl AsRef<Path>) -> Result<Backend, Error> {
        let backend = Backend::on(Store::open(path.as_ref())?);
        backend.refresh_vectors()?;
        Ok(backend)
    }

    fn on(store: Store) -> Backend {
        Backend {
            store,
            ui: Mutex::new(Vec::new()),
            answers: Mutex::new(VecDeque::new()),
            view: Mutex::new(None),
            clock: Box::new(SystemClock::new()),
            embedder: Box::new(HashingEmbedder),
            sql_time_limit: DEFAULT_SQL_TIME_LIMIT,
        }
    }

    fn refresh_vectors(&self) -> Result<(), Error> {
        self.store
            .write(|conn| vectors::refresh(conn, self.embedder.as_ref()))
    }

    /// This backend on another clock.
    #[must_use]
    pub fn clock(mut self, clock: impl Clock + 'static) -> Backend {
        self.clock = Box::new(clock);
        self
    }

    /// This backend with runSql's time limit set to `limit`.
    #[must_use]
    pub fn sql_time_limit(mut self, limit: Duration) -> Backend {
        self.sql_time_limit = limit;
        self
    }

    /// This backend with another embedder; the vectors of every embedded column that
    /// another embedder made are recomputed.
    ///
    /// # Errors
    /// [`Error::Database`] when the vectors cannot be written.
    pub fn with_embedder(mut self, embedder: impl Embedder + 'static) -> Result<Backend, Error> {
        self.embedder = Box::new(embedder);
        self.refresh_vectors()?;
        Ok(self)
    }

    /// Gives `table.column` embeddings: computes the vector of every row's text now,
    /// and of every row a commit changes from then on. Returns the rows embedded.
    ///
    /// # Errors
    /// [`Error::NoSuchTable`], [`Error::NoSuchColumn`], or an
    /// [`Error::InvalidArgument`] when the column does not hold text.
    pub fn embed_column(&self, table: &str, column: &str) -> Result<usize, Error> {
        self.store.write(|conn| {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let rows = vectors::enable(&tx, table, column, self.embedder.as_ref())?;
            tx.commit()?;
            Ok(rows)
        })
    }

    /// Queues the user's answer to the next `ask` call.
    pub fn queue_answer(&self, answer: &str) {
        recover(self.answers.lock()).push_back(answer.to_owned());
    }

    /// Attaches a text file to the conversation; returns its id.
    ///
    /// # Errors
    /// [`Error::Database`] when it cannot be stored.
    pub fn attach(&self, file_name: &str, media_type: &str, text: &str) -> Result<String, Error> {
        self.store
            .write(|conn| attachments::attach(conn, file_name, media_type, text))
    }

    /// Takes the UI events recorded so far, oldest first.
    pub fn take_ui_events(&self) -> Vec<UiEvent> {
        core::mem::take(&mut *self.ui())
    }

    /// A snapshot of a committed table with its rows; `None` when there is none.
    #[must_use]
    pub fn table(&self, name: &str) -> Option<Table> {
        self.store.read(|conn| reads::snapshot(conn, name)).ok()
    }

    /// How many changes wait in the staging area.
    ///
    /// # Errors
    /// [`Error::Database`] when the database cannot be read.
    pub fn staged_count(&self) -> Result<usize, Error> {
        self.store.read(staging::count)
    }

    fn ui(&self) -> MutexGuard<'_, Vec<UiEvent>> {
        recover(self.ui.lock())
    }
}
