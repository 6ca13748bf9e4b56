//! What a failed tool call returns. Every message names a way out, because the model
//! reads it and has to decide what to call next.

use core::fmt;

use app_catalog::Tool;
use serde_json::{Value, json};

/// A tool call that did not do what it was asked. Nothing was changed: a call that
/// fails leaves the tables, the staging area and the history as they were (each call's
/// writes are one SQLite transaction, rolled back on any error).
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// No table of this name.
    NoSuchTable {
        /// The name asked for.
        name: String,
        /// The closest existing name, if one is close.
        suggestion: Option<String>,
    },
    /// The table has no column of this name.
    NoSuchColumn {
        /// The table.
        table: String,
        /// The name asked for.
        column: String,
        /// The closest existing column, if one is close.
        suggestion: Option<String>,
    },
    /// No row with this primary key.
    NoSuchRow {
        /// The table.
        table: String,
        /// The key asked for, as JSON.
        key: Value,
    },
    /// A row key that is not a value of the table's primary-key column.
    WrongKey {
        /// The table.
        table: String,
        /// The key as passed.
        given: Value,
        /// The primary-key column.
        primary_key: String,
    },
    /// An insert's primary key is taken.
    DuplicateKey {
        /// The table.
        table: String,
        /// The key, as JSON.
        key: Value,
    },
    /// A value does not fit its column's type.
    InvalidValue {
        /// The table.
        table: String,
        /// The column.
        column: String,
        /// The column's type, as `describeTable` spells it.
        expected: &'static str,
        /// The value given.
        got: Value,
    },
    /// A column that must not be empty got no value.
    MissingValue {
        /// The table.
        table: String,
        /// The column.
        column: String,
    },
    /// A foreign key would point nowhere.
    ForeignKey {
        /// Table and column of the reference, `orders.customer_id`.
        from: String,
        /// Table and column referenced, `customers.id`.
        to: String,
        /// The value involved.
        key: Value,
        /// Whether the referenced row is missing (insert or update) rather than still
        /// referenced (delete).
        missing: bool,
    },
    /// A table would be dropped while another table's foreign key references it.
    Referenced {
        /// The table to drop.
        table: String,
        /// `table.column` of the reference.
        by: String,
    },
    /// An argument is out of range or inconsistent with the others.
    InvalidArgument {
        /// The tool called.
        tool: Tool,
        /// What is wrong and what to pass instead.
        message: String,
    },
    /// No staged change has this id.
    NoSuchChange {
        /// The id asked for.
        id: String,
    },
    /// No commit has this id.
    NoSuchCommit {
        /// The id asked for.
        id: String,
    },
    /// There is nothing staged to act on.
    NothingStaged,
    /// A table has staged changes, so an immediate operation on it would strand them.
    StagedChangesPending {
        /// The table.
        table: String,
        /// How many changes are staged for it.
        count: usize,
    },
    /// Rows were staged for a table that exists only as a staged `createTable`.
    NotCreatedYet {
        /// The table.
        table: String,
    },
    /// A staged change no longer applies; nothing was committed.
    CommitFailed {
        /// The change that failed.
        change_id: String,
        /// Why it failed.
        reason: Box<Error>,
    },
    /// No attachment has this id.
    NoSuchAttachment {
        /// The id asked for.
        id: String,
    },
    /// The user has not answered a question.
    Unanswered,
    /// SQLite could not prepare or run a `runSql` statement.
    Sql {
        /// SQLite's message.
        message: String,
    },
    /// A `runSql` statement that would change something.
    WritingSql {
        /// What it would do, in SQLite's terms.
        what: String,
    },
    /// A `runSql` statement ran past the time limit and was stopped.
    SqlTimeout {
        /// The limit, in milliseconds.
        millis: u128,
    },
    /// A table that holds the app's own bookkeeping, not data.
    InternalTable {
        /// The table.
        table: String,
    },
    /// A CSV attachment that does not parse.
    BadCsv {
        /// The 1-based line where it went wrong.
        line: u64,
        /// What is wrong there.
        message: String,
    },
    /// No saved view spec of this name.
    NoSuchSpec {
        /// The name asked for.
        name: String,
        /// The closest existing name, if one is close.
        suggestion: Option<String>,
    },
    /// A spec of this name exists and `overwrite` was not set.
    SpecExists {
        /// The name.
        name: String,
    },
    /// The table has no index of this name.
    NoSuchIndex {
        /// The table.
        table: String,
        /// The name asked for.
        index: String,
        /// The table's indexes.
        indexes: Vec<String>,
    },
    /// `vectorSearch` on a column that has no embeddings.
    NoEmbeddings {
        /// `table.column` asked for.
        column: String,
        /// `table.column` of every column that has them.
        available: Vec<String>,
    },
    /// A time zone name that is not in the IANA database.
    NoSuchTimeZone {
        /// The name given.
        name: String,
    },
    /// SQLite refused a change the checks above it let through (a constraint).
    Refused {
        /// SQLite's message.
        message: String,
    },
    /// A database file that cannot be opened or created.
    Open {
        /// The path given.
        path: String,
        /// Why, in SQLite's words.
        reason: String,
    },
    /// The database itself failed: the disk, the file, a lock held too long.
    Database {
        /// What failed, with SQLite's message.
        message: String,
    },
}

impl Error {
    /// A short, stable name for the kind of failure, for logs and for the JSON form.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Error::NoSuchTable { .. } => "noSuchTable",
            Error::NoSuchColumn { .. } => "noSuchColumn",
            Error::NoSuchRow { .. } => "noSuchRow",
            Error::WrongKey { .. } => "wrongKey",
            Error::DuplicateKey { .. } => "duplicateKey",
            Error::InvalidValue { .. } => "invalidValue",
            Error::MissingValue { .. } => "missingValue",
            Error::ForeignKey { .. } => "foreignKey",
            Error::Referenced { .. } => "referenced",
            Error::InvalidArgument { .. } => "invalidArgument",
            Error::NoSuchChange { .. } => "noSuchChange",
            Error::NoSuchCommit { .. } => "noSuchCommit",
            Error::NothingStaged => "nothingStaged",
            Error::StagedChangesPending { .. } => "stagedChangesPending",
            Error::NotCreatedYet { .. } => "notCreatedYet",
            Error::CommitFailed { .. } => "commitFailed",
            Error::NoSuchAttachment { .. } => "noSuchAttachment",
            Error::Unanswered => "unanswered",
            Error::Sql { .. } => "sql",
            Error::WritingSql { .. } => "writingSql",
            Error::SqlTimeout { .. } => "sqlTimeout",
            Error::InternalTable { .. } => "internalTable",
            Error::BadCsv { .. } => "badCsv",
            Error::NoSuchSpec { .. } => "noSuchSpec",
            Error::SpecExists { .. } => "specExists",
            Error::NoSuchIndex { .. } => "noSuchIndex",
            Error::NoEmbeddings { .. } => "noEmbeddings",
            Error::NoSuchTimeZone { .. } => "noSuchTimeZone",
            Error::Refused { .. } => "refused",
            Error::Open { .. } => "open",
            Error::Database { .. } => "database",
        }
    }

    /// The error as the model should see it: `{"error": kind, "message": ...}`.
    #[must_use]
    pub fn to_json(&self) -> Value {
        json!({ "error": self.kind(), "message": self.to_string() })
    }

    pub(crate) fn invalid(tool: Tool, message: impl Into<String>) -> Error {
        Error::InvalidArgument {
            tool,
            message: message.into(),
        }
    }
}

fn did_you_mean(f: &mut fmt::Formatter<'_>, suggestion: Option<&String>) -> fmt::Result {
    match suggestion {
        Some(s) => write!(f, "did you mean `{s}`? "),
        None => Ok(()),
    }
}

impl fmt::Display for Error {
    #[allow(clippy::too_many_lines, reason = "one arm per variant")]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoSuchTable { name, suggestion } => {
                write!(f, "no table `{name}`; ")?;
                did_you_mean(f, suggestion.as_ref())?;
                f.write_str("call listTables to see the tables")
            }
            Error::NoSuchColumn {
                table,
                column,
                suggestion,
            } => {
                write!(f, "table `{table}` has no column `{column}`; ")?;
                did_you_mean(f, suggestion.as_ref())?;
                write!(
                    f,
                    "call describeTable with table `{table}` to see its columns"
                )
            }
            Error::NoSuchRow { table, key } => write!(
                f,
                "no row with key {key} in `{table}`; call queryRows on `{table}` to find the \
                 row's key (staged inserts get their key only when committed)"
            ),
            Error::WrongKey {
                table,
                given,
                primary_key,
            } => write!(
                f,
                "{given} is not a key of `{table}`: its primary key is the column \
                 `{primary_key}`; pass that column's value, e.g. {{\"{primary_key}\": ...}}, \
                 as queryRows on `{table}` shows it"
            ),
            Error::DuplicateKey { table, key } => write!(
                f,
                "`{table}` already has a row with key {key}; stage an update of that row \
                 instead, or leave the key out to get a new one"
            ),
            Error::InvalidValue {
                table,
                column,
                expected,
                got,
            } => write!(
                f,
                "column `{column}` of `{table}` holds {expected} values, not {got}; pass a \
                 {expected} value{}",
                match *expected {
                    "date" => " as YYYY-MM-DD",
                    "datetime" => " as ISO 8601, e.g. 2025-03-14T09:30:00+01:00",
                    _ => "",
                }
            ),
            Error::MissingValue { table, column } => write!(
                f,
                "column `{column}` of `{table}` must not be empty and has no default; pass \
                 it in values"
            ),
            Error::ForeignKey {
                from,
                to,
                key,
                missing: true,
            } => write!(
                f,
                "{from} = {key} refers to no row of {to}; use an existing key (queryRows on \
                 the referenced table) or stage and commit that row first"
            ),
            Error::ForeignKey {
                from,
                to,
                key,
                missing: false,
            } => write!(
                f,
                "rows whose {from} = {key} still refer to {to} = {key}; stage deletes or \
                 updates of those rows first (bulkEdit with a filter on {from})"
            ),
            Error::Referenced { table, by } => write!(
                f,
                "{by} references `{table}`; pass cascade = true to also remove that foreign \
                 key, or leave the table"
            ),
            Error::InvalidArgument { tool, message } => write!(f, "`{tool}`: {message}"),
            Error::NoSuchChange { id } => {
                write!(
                    f,
                    "no staged change `{id}`; call showStaging to see the change ids"
                )
            }
            Error::NoSuchCommit { id } => {
                write!(
                    f,
                    "no commit `{id}`; call listCommits to see the commit ids"
                )
            }
            Error::NothingStaged => f.write_str(
                "the staging area is empty; stage changes with stageItem or bulkEdit first",
            ),
            Error::StagedChangesPending { table, count } => write!(
                f,
                "`{table}` has {count} staged change(s) that this would strand; ask the user \
                 to commit them (commitStaged) or discard them (discardStaged with table \
                 `{table}`) first"
            ),
            Error::NotCreatedYet { table } => write!(
                f,
                "table `{table}` is staged but exists only once the user commits it; ask \
                 them to commit (commitStaged), then stage its rows"
            ),
            Error::CommitFailed { change_id, reason } => write!(
                f,
                "nothing was committed: staged change `{change_id}` no longer applies ({reason}); \
                 discard it with discardStaged and stage a corrected change"
            ),
            Error::NoSuchAttachment { id } => write!(
                f,
                "no attachment `{id}`; call listAttachments to see the attachment ids"
            ),
            Error::Unanswered => f.write_str(
                "the user has not answered; go on with what you know, or ask again in your \
                 reply",
            ),
            Error::Sql { message } => write!(
                f,
                "SQLite could not run the statement: {message}; fix it and call runSql \
                 again (listTables and describeTable give the table and column names)"
            ),
            Error::WritingSql { what } => write!(
                f,
                "runSql only reads, and this statement would {what}; write a SELECT, and \
                 stage changes with stageItem, bulkEdit or the schema tools instead"
            ),
            Error::SqlTimeout { millis } => write!(
                f,
                "the statement ran longer than {millis} ms and was stopped; narrow it with \
                 WHERE conditions or a LIMIT, or compute the totals with aggregate"
            ),
            Error::InternalTable { table } => write!(
                f,
                "`{table}` holds the app's own bookkeeping, not data; query the tables \
                 listTables shows (showStaging and listCommits read the staging area and \
                 the history)"
            ),
            Error::BadCsv { line, message } => write!(
                f,
                "the CSV is malformed at line {line}: {message}; nothing was staged. Ask the \
                 user to fix the file, or pass delimiter and hasHeader if they were guessed \
                 wrong (readAttachment shows the file)"
            ),
            Error::NoSuchSpec { name, suggestion } => {
                write!(f, "no saved view spec `{name}`; ")?;
                did_you_mean(f, suggestion.as_ref())?;
                f.write_str("call listSavedSpecs to see the saved specs")
            }
            Error::SpecExists { name } => write!(
                f,
                "a saved view spec `{name}` exists; pick another name, or pass overwrite = \
                 true to replace it"
            ),
            Error::NoSuchIndex {
                table,
                index,
                indexes,
            } => write!(
                f,
                "`{table}` has no index `{index}`; its indexes are [{}] (indexStats lists \
                 them with their tables)",
                indexes.join(", ")
            ),
            Error::NoEmbeddings { column, available } => write!(
                f,
                "{column} has no embeddings; columns with embeddings: [{}]. Search one of \
                 those, or use queryRows with contains conditions on a few likely words \
                 (match any)",
                available.join(", ")
            ),
            Error::NoSuchTimeZone { name } => write!(
                f,
                "`{name}` is not an IANA time zone; pass a name such as Europe/Berlin or \
                 America/New_York"
            ),
            Error::Refused { message } => write!(
                f,
                "the database refused the change ({message}); check the values against the \
                 columns, keys and indexes describeTable shows"
            ),
            Error::Open { path, reason } => write!(
                f,
                "cannot open {path} as a SQLite database ({reason}); pass the path of a \
                 SQLite file, or of a new file in a folder that exists and is writable"
            ),
            Error::Database { message } => write!(
                f,
                "the database failed: {message}; nothing was changed. Try again; if it \
                 keeps failing, tell the user the database file needs attention"
            ),
        }
    }
}

impl std::error::Error for Error {}

impl From<rusqlite::Error> for Error {
    /// SQLite failures the tools did not foresee: a constraint is the data's fault and
    /// says so, anything else is the database's.
    fn from(e: rusqlite::Error) -> Error {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::ConstraintViolation) => Error::Refused {
                message: sqlite_message(&e),
            },
            _ => Error::Database {
                message: e.to_string(),
            },
        }
    }
}

/// SQLite's own words for a failure, without rusqlite's wrapping.
pub(crate) fn sqlite_message(e: &rusqlite::Error) -> String {
    match e {
        rusqlite::Error::SqliteFailure(_, Some(message)) => message.clone(),
        other => other.to_string(),
    }
}
