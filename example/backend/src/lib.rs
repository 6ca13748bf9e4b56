//! An in-memory backend for the example table-database app: it implements the
//! generated [`app_catalog::Handler`] over typed tables, a staging area the user
//! reviews, and a commit history.
//!
//! The agent never writes to a table directly: `stageItem`, `bulkEdit` and the schema
//! tools put changes in the staging area, and `commitStaged` applies them in one
//! transaction. A call that fails changes nothing.
//!
//! Calls reach it only through the verifier, which decides who may call what: the
//! backend itself never checks the caller's access.
//!
//! ```
//! use app_backend::Backend;
//! use app_catalog::Catalog;
//! use catalog_core::{Access, DenyAll, Dispatch, Gate, Verified};
//! use serde_json::json;
//!
//! let backend = Backend::new();
//! let arguments = json!({"table": "customers", "operation": "insert",
//!                        "values": {"name": "Acme GmbH", "city": "Munich", "country": "DE"}});
//! let gate = Gate::Mcp(Access::ReadAndStage);
//! let Ok(Verified::Run(call)) = Catalog::verify(gate, "stageItem", arguments, &mut DenyAll) else {
//!     unreachable!("stageItem is a silent read-and-stage tool")
//! };
//! let Dispatch::Ran(result) = pollster::block_on(call.dispatch(&backend)) else {
//!     unreachable!("stageItem is not the search tool")
//! };
//! assert_eq!(result.unwrap()["pendingChanges"], 1);
//! ```

mod areas;
mod clock;
mod db;
mod error;
mod seed;
mod state;

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use app_catalog::{self as cat, Handler, Tool};
use catalog_core::Caller;
use serde_json::{Value, json};

pub use areas::{Area, refreshes};
pub use clock::{Clock, FixedClock, Now, SystemClock};
pub use db::{Column, ColumnType, ForeignKey, Row, Table};
pub use error::Error;

use state::State;

/// How a table opens: many rows, or one row at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViewMode {
    /// Many rows in a grid.
    Grid,
    /// One row at a time with every field.
    Form,
}

// `openTable` and `proposeOpenTable` each get their own generated enum for the same
// `["grid", "form"]`, so both need converting.
impl From<cat::OpenTableMode> for ViewMode {
    fn from(mode: cat::OpenTableMode) -> ViewMode {
        match mode {
            cat::OpenTableMode::Grid => ViewMode::Grid,
            cat::OpenTableMode::Form => ViewMode::Form,
        }
    }
}

impl From<cat::ProposeOpenTableMode> for ViewMode {
    fn from(mode: cat::ProposeOpenTableMode) -> ViewMode {
        match mode {
            cat::ProposeOpenTableMode::Grid => ViewMode::Grid,
            cat::ProposeOpenTableMode::Form => ViewMode::Form,
        }
    }
}

/// Something the app's window should do, recorded for the UI to pick up.
#[derive(Clone, Debug, PartialEq)]
pub enum UiEvent {
    /// Switch the main grid to a table.
    OpenTable {
        /// The table.
        table: String,
        /// Grid or form.
        mode: ViewMode,
        /// The row to select, by primary key.
        row_key: Option<Value>,
    },
    /// Show a chip in the chat that opens a table when clicked.
    TableChip {
        /// The table.
        table: String,
        /// The chip's text.
        label: String,
        /// Grid or form.
        mode: ViewMode,
    },
    /// Show a chip in the chat that opens a join of two tables when clicked.
    JoinViewChip {
        /// The left table.
        left_table: String,
        /// The right table.
        right_table: String,
        /// `(left column, right column)` pairs that must be equal.
        on: Vec<(String, String)>,
        /// `inner`, `left`, `right` or `full`.
        join_type: &'static str,
        /// The chip's text.
        label: String,
    },
    /// Open the staging panel.
    OpenStagingPanel,
    /// A question for the user in the chat.
    Question {
        /// The question.
        question: String,
        /// Answers offered as buttons.
        choices: Vec<String>,
    },
    /// Redraw an area after a tool changed what it shows.
    Refresh(Area),
}

/// The backend: a database behind a lock, the UI events it records, and a clock.
///
/// It is `Sync`: concurrent calls serialize on the database lock, reads share it.
pub struct Backend {
    state: RwLock<State>,
    ui: Mutex<Vec<UiEvent>>,
    answers: Mutex<VecDeque<String>>,
    clock: Box<dyn Clock>,
}

impl Default for Backend {
    fn default() -> Backend {
        Backend::new()
    }
}

/// Takes a lock even if a thread panicked while holding it. Every change to the state
/// is prepared on a copy and swapped in, so a poisoned lock still guards whole state.
fn recover<G>(result: Result<G, PoisonError<G>>) -> G {
    result.unwrap_or_else(PoisonError::into_inner)
}

impl Backend {
    /// The example database (`customers`, `orders`, `products`) on the system clock.
    #[must_use]
    pub fn new() -> Backend {
        Backend::with_clock(SystemClock)
    }

    /// The example database on the given clock.
    #[must_use]
    pub fn with_clock(clock: impl Clock + 'static) -> Backend {
        let backend = Backend::empty(clock);
        backend.write_state().tables = seed::tables();
        backend
    }

    /// A database without tables on the given clock.
    #[must_use]
    pub fn empty(clock: impl Clock + 'static) -> Backend {
        Backend {
            state: RwLock::new(State::default()),
            ui: Mutex::new(Vec::new()),
            answers: Mutex::new(VecDeque::new()),
            clock: Box::new(clock),
        }
    }

    /// Queues the user's answer to the next `ask` call.
    pub fn queue_answer(&self, answer: &str) {
        recover(self.answers.lock()).push_back(answer.to_owned());
    }

    /// Attaches a text file to the conversation; returns its id.
    pub fn attach(&self, file_name: &str, media_type: &str, text: &str) -> String {
        self.write_state().attach(file_name, media_type, text)
    }

    /// Takes the UI events recorded so far, oldest first.
    pub fn take_ui_events(&self) -> Vec<UiEvent> {
        core::mem::take(&mut *recover(self.ui.lock()))
    }

    /// A snapshot of a committed table.
    #[must_use]
    pub fn table(&self, name: &str) -> Option<Table> {
        self.read_state().tables.get(name).cloned()
    }

    /// How many changes wait in the staging area.
    #[must_use]
    pub fn staged_count(&self) -> usize {
        self.read_state().staging.len()
    }

    fn read_state(&self) -> RwLockReadGuard<'_, State> {
        recover(self.state.read())
    }

    fn write_state(&self) -> RwLockWriteGuard<'_, State> {
        recover(self.state.write())
    }

    fn ui(&self) -> MutexGuard<'_, Vec<UiEvent>> {
        recover(self.ui.lock())
    }

    /// Records the redraws a successful call causes, and passes its result on.
    fn done(&self, tool: Tool, result: Result<Value, Error>) -> Result<Value, Error> {
        if result.is_ok() {
            self.ui()
                .extend(refreshes(tool).iter().copied().map(UiEvent::Refresh));
        }
        result
    }

    fn read(
        &self,
        tool: Tool,
        f: impl FnOnce(&State) -> Result<Value, Error>,
    ) -> Result<Value, Error> {
        let result = f(&self.read_state());
        self.done(tool, result)
    }

    fn write(
        &self,
        tool: Tool,
        f: impl FnOnce(&mut State) -> Result<Value, Error>,
    ) -> Result<Value, Error> {
        let result = f(&mut self.write_state());
        self.done(tool, result)
    }

    /// What a tool this backend does not implement returns.
    fn unsupported(tool: Tool, instead: &'static str) -> Result<Value, Error> {
        Err(Error::Unsupported { tool, instead })
    }

    /// Records a UI event after checking the table it is about, under the read lock.
    fn intent(
        &self,
        tool: Tool,
        check: impl FnOnce(&State) -> Result<(UiEvent, Value), Error>,
    ) -> Result<Value, Error> {
        let (event, value) = check(&self.read_state())?;
        self.ui().push(event);
        self.done(tool, Ok(value))
    }
}

fn author(caller: Caller) -> String {
    match caller {
        Caller::Chat => "assistant".to_owned(),
        Caller::Mcp(level) => format!("MCP client ({level})"),
    }
}

impl Handler for Backend {
    type Error = Error;

    async fn ask(&self, _caller: Caller, args: cat::AskArgs) -> Result<Value, Error> {
        let choices = args.choices.unwrap_or_default();
        if choices.len() > 6 {
            return Err(Error::invalid(
                Tool::Ask,
                "offer at most six choices; the user can still type any other answer",
            ));
        }
        self.ui().push(UiEvent::Question {
            question: args.question,
            choices,
        });
        let answer = recover(self.answers.lock())
            .pop_front()
            .ok_or(Error::Unanswered)?;
        self.done(Tool::Ask, Ok(json!({ "answer": answer })))
    }

    async fn get_current_time(
        &self,
        _caller: Caller,
        _args: cat::GetCurrentTimeArgs,
    ) -> Result<Value, Error> {
        let now = self.clock.now();
        Ok(json!({ "now": now.iso(), "weekday": now.weekday(), "timeZone": now.time_zone }))
    }

    async fn list_attachments(
        &self,
        _caller: Caller,
        _args: cat::ListAttachmentsArgs,
    ) -> Result<Value, Error> {
        self.read(Tool::ListAttachments, |s| Ok(s.list_attachments()))
    }

    async fn read_attachment(
        &self,
        _caller: Caller,
        args: cat::ReadAttachmentArgs,
    ) -> Result<Value, Error> {
        self.read(Tool::ReadAttachment, |s| s.read_attachment(&args))
    }

    async fn open_table(&self, _caller: Caller, args: cat::OpenTableArgs) -> Result<Value, Error> {
        self.intent(Tool::OpenTable, |s| {
            let t = db::table(&s.tables, &args.table)?;
            let row_key = match &args.row_key {
                Some(key) => Some(t.key(key).and_then(|k| t.row(&k).map(|_| k))?),
                None => None,
            };
            let value = json!({ "opened": t.name, "mode": args.mode.as_str() });
            let event = UiEvent::OpenTable {
                table: args.table,
                mode: args.mode.into(),
                row_key,
            };
            Ok((event, value))
        })
    }

    async fn propose_open_table(
        &self,
        _caller: Caller,
        args: cat::ProposeOpenTableArgs,
    ) -> Result<Value, Error> {
        self.intent(Tool::ProposeOpenTable, |s| {
            db::table(&s.tables, &args.table)?;
            let label = args.label.unwrap_or_else(|| args.table.clone());
            let value = json!({ "shown": true, "label": label });
            Ok((
                UiEvent::TableChip {
                    table: args.table,
                    label,
                    mode: args.mode.into(),
                },
                value,
            ))
        })
    }

    async fn list_tables(
        &self,
        _caller: Caller,
        args: cat::ListTablesArgs,
    ) -> Result<Value, Error> {
        self.read(Tool::ListTables, |s| Ok(s.list_tables(&args)))
    }

    async fn describe_table(
        &self,
        _caller: Caller,
        args: cat::DescribeTableArgs,
    ) -> Result<Value, Error> {
        self.read(Tool::DescribeTable, |s| s.describe_table(&args))
    }

    async fn query_rows(&self, _caller: Caller, args: cat::QueryRowsArgs) -> Result<Value, Error> {
        self.read(Tool::QueryRows, |s| s.query_rows(args))
    }

    async fn propose_join_view(
        &self,
        _caller: Caller,
        args: cat::ProposeJoinViewArgs,
    ) -> Result<Value, Error> {
        let tool = Tool::ProposeJoinView;
        self.intent(tool, |s| {
            let left = db::table(&s.tables, &args.left_table)?;
            let right = db::table(&s.tables, &args.right_table)?;
            if args.on.is_empty() {
                return Err(Error::invalid(
                    tool,
                    "on is empty; give at least one pair of columns to join on, usually a \
                     foreign key and the key it references (describeTable shows them)",
                ));
            }
            for pair in &args.on {
                left.column(&pair.left_column)?;
                right.column(&pair.right_column)?;
            }
            for qualified in args.columns.iter().flatten() {
                let Some((t, c)) = qualified.split_once('.') else {
                    return Err(Error::invalid(
                        tool,
                        format!("column `{qualified}` needs its table: write table.column"),
                    ));
                };
                match t {
                    _ if t == left.name => left.column(c)?,
                    _ if t == right.name => right.column(c)?,
                    _ => {
                        return Err(Error::invalid(
                            tool,
                            format!(
                                "column `{qualified}` is not of `{}` or `{}`",
                                left.name, right.name
                            ),
                        ));
                    }
                };
            }
            let label = args
                .label
                .unwrap_or_else(|| format!("{} + {}", args.left_table, args.right_table));
            let value = json!({ "shown": true, "label": label });
            let event = UiEvent::JoinViewChip {
                left_table: args.left_table,
                right_table: args.right_table,
                on: args
                    .on
                    .into_iter()
                    .map(|p| (p.left_column, p.right_column))
                    .collect(),
                join_type: args.join_type.as_str(),
                label,
            };
            Ok((event, value))
        })
    }

    async fn stage_item(&self, _caller: Caller, args: cat::StageItemArgs) -> Result<Value, Error> {
        self.write(Tool::StageItem, |s| s.stage_item(args))
    }

    async fn bulk_edit(&self, _caller: Caller, args: cat::BulkEditArgs) -> Result<Value, Error> {
        self.write(Tool::BulkEdit, |s| s.bulk_edit(args))
    }

    async fn show_staging(
        &self,
        _caller: Caller,
        args: cat::ShowStagingArgs,
    ) -> Result<Value, Error> {
        let result = self.read(Tool::ShowStaging, |s| s.show_staging(&args));
        if result.is_ok() && args.open_panel {
            self.ui().push(UiEvent::OpenStagingPanel);
        }
        result
    }

    async fn undo_staged(
        &self,
        _caller: Caller,
        args: cat::UndoStagedArgs,
    ) -> Result<Value, Error> {
        self.write(Tool::UndoStaged, |s| s.undo_staged(&args))
    }

    async fn discard_staged(
        &self,
        _caller: Caller,
        args: cat::DiscardStagedArgs,
    ) -> Result<Value, Error> {
        self.write(Tool::DiscardStaged, |s| s.discard_staged(args))
    }

    async fn commit_staged(
        &self,
        caller: Caller,
        args: cat::CommitStagedArgs,
    ) -> Result<Value, Error> {
        let now = self.clock.now();
        self.write(Tool::CommitStaged, |s| {
            s.commit_staged(args, &now, author(caller))
        })
    }

    async fn list_commits(
        &self,
        _caller: Caller,
        args: cat::ListCommitsArgs,
    ) -> Result<Value, Error> {
        let now = self.clock.now();
        self.read(Tool::ListCommits, |s| s.list_commits(&args, &now))
    }

    async fn revert_commit(
        &self,
        _caller: Caller,
        args: cat::RevertCommitArgs,
    ) -> Result<Value, Error> {
        self.write(Tool::RevertCommit, |s| s.revert_commit(&args))
    }

    async fn export_csv(&self, _caller: Caller, _args: cat::ExportCsvArgs) -> Result<Value, Error> {
        Backend::unsupported(
            Tool::ExportCsv,
            "it needs the app's save dialog; show the rows with queryRows or openTable and \
             let the user export them from the grid",
        )
    }

    async fn import_csv(&self, _caller: Caller, _args: cat::ImportCsvArgs) -> Result<Value, Error> {
        Backend::unsupported(
            Tool::ImportCsv,
            "read the file with readAttachment and stage its rows with stageItem, or ask \
             the user to import it from the File menu",
        )
    }

    async fn aggregate(&self, _caller: Caller, args: cat::AggregateArgs) -> Result<Value, Error> {
        self.read(Tool::Aggregate, |s| s.aggregate(args))
    }

    async fn propose_chart(
        &self,
        _caller: Caller,
        _args: cat::ProposeChartArgs,
    ) -> Result<Value, Error> {
        Backend::unsupported(
            Tool::ProposeChart,
            "compute the numbers with aggregate and give them in your reply",
        )
    }

    async fn find_duplicates(
        &self,
        _caller: Caller,
        args: cat::FindDuplicatesArgs,
    ) -> Result<Value, Error> {
        self.read(Tool::FindDuplicates, |s| s.find_duplicates(&args))
    }

    async fn vector_search(
        &self,
        _caller: Caller,
        _args: cat::VectorSearchArgs,
    ) -> Result<Value, Error> {
        Backend::unsupported(
            Tool::VectorSearch,
            "no column has embeddings; use queryRows with contains conditions on a few \
             likely words (op any)",
        )
    }

    async fn run_sql(&self, _caller: Caller, _args: cat::RunSqlArgs) -> Result<Value, Error> {
        Backend::unsupported(
            Tool::RunSql,
            "there is no SQL engine; combine queryRows, aggregate and proposeJoinView",
        )
    }

    async fn index_stats(
        &self,
        _caller: Caller,
        _args: cat::IndexStatsArgs,
    ) -> Result<Value, Error> {
        Backend::unsupported(
            Tool::IndexStats,
            "this in-memory database keeps no indexes, so there is nothing to tune",
        )
    }

    async fn list_saved_specs(
        &self,
        _caller: Caller,
        _args: cat::ListSavedSpecsArgs,
    ) -> Result<Value, Error> {
        Backend::unsupported(
            Tool::ListSavedSpecs,
            "there are no saved views; open tables with openTable and filter with queryRows",
        )
    }

    async fn load_spec(&self, _caller: Caller, _args: cat::LoadSpecArgs) -> Result<Value, Error> {
        Backend::unsupported(
            Tool::LoadSpec,
            "there are no saved views; open the table with openTable instead",
        )
    }

    async fn save_spec(&self, _caller: Caller, _args: cat::SaveSpecArgs) -> Result<Value, Error> {
        Backend::unsupported(
            Tool::SaveSpec,
            "views cannot be saved here; tell the user the filter so they can reapply it",
        )
    }

    async fn create_table(
        &self,
        _caller: Caller,
        args: cat::CreateTableArgs,
    ) -> Result<Value, Error> {
        self.write(Tool::CreateTable, |s| s.create_table(args))
    }

    async fn add_column(&self, _caller: Caller, args: cat::AddColumnArgs) -> Result<Value, Error> {
        self.write(Tool::AddColumn, |s| s.add_column(args))
    }

    async fn rename_column(
        &self,
        _caller: Caller,
        args: cat::RenameColumnArgs,
    ) -> Result<Value, Error> {
        self.write(Tool::RenameColumn, |s| s.rename_column(args))
    }

    async fn find_replace(
        &self,
        _caller: Caller,
        _args: cat::FindReplaceArgs,
    ) -> Result<Value, Error> {
        Backend::unsupported(
            Tool::FindReplace,
            "find the rows with queryRows (op contains) and stage the new values with \
             stageItem or bulkEdit",
        )
    }

    async fn create_index(
        &self,
        _caller: Caller,
        _args: cat::CreateIndexArgs,
    ) -> Result<Value, Error> {
        Backend::unsupported(
            Tool::CreateIndex,
            "this in-memory database keeps no indexes; queries need none",
        )
    }

    async fn drop_index(&self, _caller: Caller, _args: cat::DropIndexArgs) -> Result<Value, Error> {
        Backend::unsupported(
            Tool::DropIndex,
            "this in-memory database keeps no indexes, so there is none to drop",
        )
    }

    async fn delete_column(
        &self,
        _caller: Caller,
        args: cat::DeleteColumnArgs,
    ) -> Result<Value, Error> {
        self.write(Tool::DeleteColumn, |s| s.delete_column(&args))
    }

    async fn truncate_table(
        &self,
        _caller: Caller,
        args: cat::TruncateTableArgs,
    ) -> Result<Value, Error> {
        self.write(Tool::TruncateTable, |s| s.truncate_table(&args))
    }

    async fn drop_table(&self, _caller: Caller, args: cat::DropTableArgs) -> Result<Value, Error> {
        self.write(Tool::DropTable, |s| s.drop_table(&args))
    }
}
