//! The database state behind the lock, and the tools that read or stage through it.
//!
//! Every method here either succeeds or leaves the state as it found it: changes are
//! checked on a scratch copy of the tables before anything is staged, committed or
//! dropped.

use app_catalog as cat;
use app_catalog::Tool;
use serde_json::{Value, json};

use crate::Error;
use crate::clock::{Now, parse_date_time};
use crate::db::{
    Applied, Change, Column, ColumnType, Condition, Filter, Op, Row, Table, Tables, apply, order,
    same, table, table_mut,
};

/// A change waiting in the staging area.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Staged {
    pub id: String,
    pub table: String,
    pub change: Change,
    pub note: Option<String>,
}

/// A commit in the history.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Commit {
    pub id: String,
    pub unix_seconds: i64,
    pub time: String,
    pub author: String,
    pub message: Option<String>,
    pub tables: Vec<String>,
    pub changes: usize,
    pub applied: Vec<Applied>,
}

/// A file the user attached to the conversation.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Attachment {
    pub id: String,
    pub file_name: String,
    pub media_type: String,
    pub text: String,
}

/// Everything the database holds: tables, staging area, history, attachments.
#[derive(Clone, Debug, Default)]
pub(crate) struct State {
    pub tables: Tables,
    pub staging: Vec<Staged>,
    pub commits: Vec<Commit>,
    pub attachments: Vec<Attachment>,
    next_change: u64,
    next_commit: u64,
    next_attachment: u64,
}

/// An integer argument within the bounds the catalog declares. The generated argument
/// types are `i64` and `parse` does not check `minimum`/`maximum`, so this does.
fn bounded(tool: Tool, name: &str, value: i64, min: i64, max: i64) -> Result<usize, Error> {
    let bad = || {
        let max = if max == i64::MAX {
            String::from("any larger")
        } else {
            max.to_string()
        };
        Error::invalid(
            tool,
            format!("{name} must be from {min} to {max}, not {value}"),
        )
    };
    if (min..=max).contains(&value) {
        usize::try_from(value).map_err(|_| bad())
    } else {
        Err(bad())
    }
}

/// The generated crate has one filter type per tool that takes a filter (five of them,
/// same shape); this turns each into the one [`Filter`] the database evaluates. The
/// matches on the op enums are exhaustive, so a new op in `catalog.toml` fails here.
macro_rules! filter_from {
    ($filter:ident, $match:ident, $op:ident) => {
        impl From<cat::$filter> for Filter {
            fn from(f: cat::$filter) -> Filter {
                Filter {
                    any: f.r#match == cat::$match::Any,
                    conditions: f
                        .conditions
                        .into_iter()
                        .map(|c| Condition {
                            column: c.column,
                            op: match c.op {
                                cat::$op::Eq => Op::Eq,
                                cat::$op::Ne => Op::Ne,
                                cat::$op::Lt => Op::Lt,
                                cat::$op::Le => Op::Le,
                                cat::$op::Gt => Op::Gt,
                                cat::$op::Ge => Op::Ge,
                                cat::$op::Contains => Op::Contains,
                                cat::$op::StartsWith => Op::StartsWith,
                                cat::$op::In => Op::In,
                                cat::$op::IsNull => Op::IsNull,
                                cat::$op::NotNull => Op::NotNull,
                            },
                            value: c.value,
                        })
                        .collect(),
                }
            }
        }
    };
}
filter_from!(
    QueryRowsFilter,
    QueryRowsFilterMatch,
    QueryRowsFilterConditionsItemOp
);
filter_from!(
    BulkEditFilter,
    BulkEditFilterMatch,
    BulkEditFilterConditionsItemOp
);
filter_from!(
    AggregateFilter,
    AggregateFilterMatch,
    AggregateFilterConditionsItemOp
);

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

/// Sorts rows by `(column, descending)` keys, nulls last either way; stable.
fn sort_rows(rows: &mut [&Row], keys: &[(String, bool)]) {
    rows.sort_by(|a, b| {
        keys.iter()
            .map(|(column, desc)| {
                let (x, y) = (Table::cell(a, column), Table::cell(b, column));
                match (x.is_null(), y.is_null()) {
                    (true, true) => core::cmp::Ordering::Equal,
                    (true, false) => core::cmp::Ordering::Greater,
                    (false, true) => core::cmp::Ordering::Less,
                    (false, false) if *desc => order(y, x),
                    (false, false) => order(x, y),
                }
            })
            .find(|o| o.is_ne())
            .unwrap_or(core::cmp::Ordering::Equal)
    });
}

fn project(row: &Row, columns: &[&str]) -> Value {
    Value::Object(
        columns
            .iter()
            .map(|c| ((*c).to_owned(), Table::cell(row, c).clone()))
            .collect(),
    )
}

/// The columns named, checked; all of the table's when `None`.
fn columns<'a>(
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

impl State {
    /// Puts changes in the staging area, all or none: each is checked against the
    /// committed tables with the earlier ones of the same call applied.
    pub(crate) fn stage(
        &mut self,
        changes: Vec<(String, Change)>,
        note: Option<&str>,
    ) -> Result<Vec<String>, Error> {
        let mut scratch = self.tables.clone();
        for (name, change) in &changes {
            if !scratch.contains_key(name) && !matches!(change, Change::CreateTable { .. }) {
                self.table(name)?;
            }
            apply(&mut scratch, name, change)?;
        }
        let mut ids = Vec::with_capacity(changes.len());
        for (table, change) in changes {
            self.next_change += 1;
            let id = format!("s{}", self.next_change);
            ids.push(id.clone());
            self.staging.push(Staged {
                id,
                table,
                change,
                note: note.map(str::to_owned),
            });
        }
        Ok(ids)
    }

    /// A committed table; a table that exists only as a staged `createTable` gets
    /// [`Error::NotCreatedYet`] rather than a plain "no table".
    fn table(&self, name: &str) -> Result<&Table, Error> {
        table(&self.tables, name).map_err(|e| {
            let staged = self
                .staging
                .iter()
                .any(|s| s.table == name && matches!(s.change, Change::CreateTable { .. }));
            if staged {
                Error::NotCreatedYet {
                    table: name.to_owned(),
                }
            } else {
                e
            }
        })
    }

    fn staged_for(&self, table: &str) -> usize {
        self.staging.iter().filter(|s| s.table == table).count()
    }

    /// Fails when `table` has staged changes that an immediate operation would strand.
    fn no_staged(&self, table: &str) -> Result<(), Error> {
        match self.staged_for(table) {
            0 => Ok(()),
            count => Err(Error::StagedChangesPending {
                table: table.to_owned(),
                count,
            }),
        }
    }

    pub(crate) fn list_tables(&self, _args: &cat::ListTablesArgs) -> Value {
        // This database has no saved views, so `includeViews` adds nothing.
        Value::Array(
            self.tables
                .values()
                .map(|t| {
                    json!({
                        "name": t.name,
                        "kind": "table",
                        "rowCount": t.rows.len(),
                        "columnCount": t.columns.len(),
                    })
                })
                .collect(),
        )
    }

    pub(crate) fn describe_table(&self, args: &cat::DescribeTableArgs) -> Result<Value, Error> {
        let t = self.table(&args.table)?;
        let samples = bounded(Tool::DescribeTable, "sampleRows", args.sample_rows, 0, 20)?;
        let referenced_by: Vec<Value> = self
            .tables
            .values()
            .flat_map(|o| {
                o.foreign_keys
                    .iter()
                    .filter(|fk| fk.table == t.name)
                    .map(|fk| Value::from(format!("{}.{}", o.name, fk.column)))
            })
            .collect();
        Ok(json!({
            "table": t.name,
            "columns": t.columns.iter().map(|c| json!({
                "name": c.name,
                "type": c.ty.as_str(),
                "nullable": c.nullable,
                "default": c.default,
                "hasEmbeddings": false,
            })).collect::<Vec<_>>(),
            "primaryKey": [t.primary_key],
            "indexes": [],
            "foreignKeys": t.foreign_keys.iter().map(|fk| {
                let target = self.tables.get(&fk.table).map_or("", |r| r.primary_key.as_str());
                json!({ "column": fk.column, "references": format!("{}.{target}", fk.table) })
            }).collect::<Vec<_>>(),
            "referencedBy": referenced_by,
            "rowCount": t.rows.len(),
            "sampleRows": t.rows.iter().take(samples).collect::<Vec<_>>(),
        }))
    }

    pub(crate) fn query_rows(&self, args: cat::QueryRowsArgs) -> Result<Value, Error> {
        let tool = Tool::QueryRows;
        let t = self.table(&args.table)?;
        let limit = bounded(tool, "limit", args.limit, 1, 1000)?;
        let offset = bounded(tool, "offset", args.offset, 0, i64::MAX)?;
        let filter = args.filter.map(Filter::from).unwrap_or_default();
        filter.check(t, tool)?;
        let columns = columns(t, tool, args.columns.as_deref())?;
        let mut sort = Vec::new();
        for key in args.sort.unwrap_or_default() {
            t.column(&key.column)?;
            sort.push((
                key.column,
                key.direction == cat::QueryRowsSortItemDirection::Desc,
            ));
        }
        let mut rows: Vec<&Row> = t.rows.iter().filter(|r| filter.matches(r)).collect();
        sort_rows(&mut rows, &sort);
        let total = rows.len();
        let page: Vec<Value> = rows
            .into_iter()
            .skip(offset)
            .take(limit)
            .map(|r| project(r, &columns))
            .collect();
        Ok(json!({
            "rows": page,
            "totalMatching": total,
            "hasMore": offset.saturating_add(limit) < total,
        }))
    }

    fn pending(&self, ids: &[String]) -> Value {
        match ids {
            [id] => json!({ "changeId": id, "pendingChanges": self.staging.len() }),
            _ => json!({ "changeIds": ids, "pendingChanges": self.staging.len() }),
        }
    }

    pub(crate) fn stage_item(&mut self, args: cat::StageItemArgs) -> Result<Value, Error> {
        use cat::StageItemOperation as O;
        let tool = Tool::StageItem;
        let t = self.table(&args.table)?;
        let values = args.values.filter(|v| !v.is_empty());
        let change = match (args.operation, args.key, values) {
            (O::Insert, key, Some(mut values)) => {
                if let Some(key) = key {
                    let key = t.key(&key)?;
                    values.entry(t.primary_key.clone()).or_insert(key);
                }
                Change::Insert { values }
            }
            (O::Update, Some(key), Some(values)) => {
                let key = t.key(&key)?;
                if values.get(&t.primary_key).is_some_and(|v| !same(v, &key)) {
                    return Err(Error::invalid(
                        tool,
                        format!(
                            "an update cannot change the primary key `{}`; stage a delete \
                             and an insert instead",
                            t.primary_key
                        ),
                    ));
                }
                Change::Update { key, values }
            }
            (O::Delete, Some(key), _) => Change::Delete { key: t.key(&key)? },
            (O::Insert | O::Update, _, None) => {
                return Err(Error::invalid(
                    tool,
                    format!(
                        "{} needs values: an object of column name to value (describeTable \
                         lists the columns)",
                        args.operation.as_str()
                    ),
                ));
            }
            (O::Update | O::Delete, None, _) => {
                return Err(Error::invalid(
                    tool,
                    format!(
                        "{} needs key: the `{}` of the row, as queryRows shows it",
                        args.operation.as_str(),
                        t.primary_key
                    ),
                ));
            }
        };
        let ids = self.stage(vec![(args.table, change)], args.note.as_deref())?;
        Ok(self.pending(&ids))
    }

    pub(crate) fn bulk_edit(&mut self, args: cat::BulkEditArgs) -> Result<Value, Error> {
        let tool = Tool::BulkEdit;
        let t = self.table(&args.table)?;
        let max_rows = bounded(tool, "maxRows", args.max_rows, 1, 100_000)?;
        if args.filter.conditions.is_empty() {
            return Err(Error::invalid(
                tool,
                "filter.conditions is empty; bulkEdit needs at least one condition (to \
                 change every row, use a condition that every row meets, e.g. notNull on \
                 the primary key)",
            ));
        }
        let filter = Filter::from(args.filter);
        filter.check(t, tool)?;
        let set = match (args.operation, args.set) {
            (cat::BulkEditOperation::Update, Some(set)) if !set.is_empty() => {
                if set.contains_key(&t.primary_key) {
                    return Err(Error::invalid(
                        tool,
                        format!("set cannot change the primary key `{}`", t.primary_key),
                    ));
                }
                Some(set)
            }
            (cat::BulkEditOperation::Update, _) => {
                return Err(Error::invalid(
                    tool,
                    "update needs set: an object of column name to new value",
                ));
            }
            (cat::BulkEditOperation::Delete, _) => None,
        };
        let keys: Vec<Value> = t
            .rows
            .iter()
            .filter(|r| filter.matches(r))
            .map(|r| Table::cell(r, &t.primary_key).clone())
            .collect();
        let matched = keys.len();
        if matched > max_rows {
            return Ok(json!({ "matched": matched, "staged": 0 }));
        }
        let changes = keys
            .into_iter()
            .map(|key| {
                let change = match &set {
                    Some(values) => Change::Update {
                        key,
                        values: values.clone(),
                    },
                    None => Change::Delete { key },
                };
                (args.table.clone(), change)
            })
            .collect();
        let ids = self.stage(changes, args.note.as_deref())?;
        Ok(json!({ "matched": matched, "staged": ids.len() }))
    }

    pub(crate) fn show_staging(&self, args: &cat::ShowStagingArgs) -> Result<Value, Error> {
        if let Some(name) = &args.table
            && self.staged_for(name) == 0
        {
            self.table(name)?;
        }
        Ok(Value::Array(
            self.staging
                .iter()
                .filter(|s| args.table.as_ref().is_none_or(|t| *t == s.table))
                .map(|s| {
                    let mut summary = s.change.summary(&s.table);
                    if let Some(note) = &s.note {
                        summary = format!("{summary} ({note})");
                    }
                    json!({
                        "changeId": s.id,
                        "table": s.table,
                        "kind": s.change.kind(),
                        "summary": summary,
                    })
                })
                .collect(),
        ))
    }

    pub(crate) fn undo_staged(&mut self, args: &cat::UndoStagedArgs) -> Result<Value, Error> {
        let count = bounded(Tool::UndoStaged, "count", args.count, 1, 100)?;
        if self.staging.is_empty() {
            return Err(Error::NothingStaged);
        }
        let keep = self.staging.len().saturating_sub(count);
        let undone: Vec<String> = self.staging.drain(keep..).rev().map(|s| s.id).collect();
        Ok(json!({ "undone": undone, "pendingChanges": self.staging.len() }))
    }

    pub(crate) fn discard_staged(&mut self, args: cat::DiscardStagedArgs) -> Result<Value, Error> {
        let before = self.staging.len();
        match (args.change_ids, args.table, args.all) {
            (Some(ids), _, _) => {
                if let Some(id) = ids
                    .iter()
                    .find(|id| !self.staging.iter().any(|s| s.id == **id))
                {
                    return Err(Error::NoSuchChange { id: id.clone() });
                }
                self.staging.retain(|s| !ids.contains(&s.id));
            }
            (None, Some(name), _) => {
                if self.staged_for(&name) == 0 {
                    self.table(&name)?;
                }
                self.staging.retain(|s| s.table != name);
            }
            (None, None, true) => self.staging.clear(),
            (None, None, false) => {
                return Err(Error::invalid(
                    Tool::DiscardStaged,
                    "say what to discard: changeIds from showStaging, a table, or all = true",
                ));
            }
        }
        Ok(json!({
            "discarded": before - self.staging.len(),
            "pendingChanges": self.staging.len(),
        }))
    }

    pub(crate) fn commit_staged(
        &mut self,
        args: cat::CommitStagedArgs,
        now: &Now,
        author: String,
    ) -> Result<Value, Error> {
        if self.staging.is_empty() {
            return Err(Error::NothingStaged);
        }
        if let Some(ids) = &args.change_ids {
            if ids.is_empty() {
                return Err(Error::invalid(
                    Tool::CommitStaged,
                    "changeIds is empty; leave it out to commit everything staged",
                ));
            }
            if let Some(id) = ids
                .iter()
                .find(|id| !self.staging.iter().any(|s| s.id == **id))
            {
                return Err(Error::NoSuchChange { id: id.clone() });
            }
        }
        let chosen = |s: &Staged| {
            args.change_ids
                .as_ref()
                .is_none_or(|ids| ids.contains(&s.id))
        };
        let mut tables = self.tables.clone();
        let mut applied = Vec::new();
        let mut touched: Vec<String> = Vec::new();
        let mut count = 0;
        for s in self.staging.iter().filter(|s| chosen(s)) {
            let done =
                apply(&mut tables, &s.table, &s.change).map_err(|e| Error::CommitFailed {
                    change_id: s.id.clone(),
                    reason: Box::new(e),
                })?;
            applied.extend(done);
            if !touched.contains(&s.table) {
                touched.push(s.table.clone());
            }
            count += 1;
        }
        self.tables = tables;
        self.staging.retain(|s| !chosen(s));
        self.next_commit += 1;
        let id = format!("c{}", self.next_commit);
        let rows = applied.len();
        self.commits.push(Commit {
            id: id.clone(),
            unix_seconds: now.unix_seconds,
            time: now.iso(),
            author,
            message: args.message,
            tables: touched,
            changes: count,
            applied,
        });
        Ok(json!({ "commitId": id, "applied": count, "rowsAffected": rows }))
    }

    pub(crate) fn list_commits(
        &self,
        args: &cat::ListCommitsArgs,
        now: &Now,
    ) -> Result<Value, Error> {
        let tool = Tool::ListCommits;
        let limit = bounded(tool, "limit", args.limit, 1, 200)?;
        let since = match &args.since {
            None => None,
            Some(s) => Some(
                parse_date_time(s, now.utc_offset_minutes)
                    .map(|(t, _)| t)
                    .ok_or_else(|| {
                        Error::invalid(
                            tool,
                            format!(
                                "since `{s}` is not an ISO 8601 date or date-time; pass e.g. \
                             2025-03-14 or 2025-03-14T09:30:00+01:00 (getCurrentTime gives \
                             today's date)"
                            ),
                        )
                    })?,
            ),
        };
        if let Some(name) = &args.table {
            let in_history = self.commits.iter().any(|c| c.tables.contains(name));
            if !in_history {
                self.table(name)?;
            }
        }
        Ok(Value::Array(
            self.commits
                .iter()
                .rev()
                .filter(|c| args.table.as_ref().is_none_or(|t| c.tables.contains(t)))
                .filter(|c| since.is_none_or(|s| c.unix_seconds >= s))
                .take(limit)
                .map(|c| {
                    json!({
                        "commitId": c.id,
                        "time": c.time,
                        "author": c.author,
                        "message": c.message,
                        "tables": c.tables,
                        "changes": c.changes,
                        "rowsAffected": c.applied.len(),
                    })
                })
                .collect(),
        ))
    }

    pub(crate) fn revert_commit(&mut self, args: &cat::RevertCommitArgs) -> Result<Value, Error> {
        let commit = self
            .commits
            .iter()
            .find(|c| c.id == args.commit_id)
            .ok_or_else(|| Error::NoSuchCommit {
                id: args.commit_id.clone(),
            })?;
        if commit.applied.is_empty() {
            return Err(Error::invalid(
                Tool::RevertCommit,
                format!(
                    "commit `{}` changed only the schema, which revertCommit does not revert; \
                     stage the opposite schema change instead",
                    commit.id
                ),
            ));
        }
        let mut changes = Vec::new();
        for a in commit.applied.iter().rev() {
            let t = self.table(&a.table)?;
            let key_of = |row: &Row| t.key(Table::cell(row, &t.primary_key));
            let change = match (&a.before, &a.after) {
                (None, Some(after)) => Change::Delete {
                    key: key_of(after)?,
                },
                (Some(before), None) => Change::Insert {
                    values: before.clone(),
                },
                (Some(before), Some(after)) => Change::Update {
                    key: key_of(after)?,
                    values: before
                        .iter()
                        .filter(|(k, v)| after.get(*k) != Some(*v))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                },
                (None, None) => continue,
            };
            changes.push((a.table.clone(), change));
        }
        let note = format!("revert of commit {}", commit.id);
        let ids = self.stage(changes, Some(&note))?;
        Ok(self.pending(&ids))
    }

    pub(crate) fn aggregate(&self, args: cat::AggregateArgs) -> Result<Value, Error> {
        use cat::AggregateMeasuresItemFunction as F;
        let tool = Tool::Aggregate;
        let t = self.table(&args.table)?;
        let limit = bounded(tool, "limit", args.limit, 1, 5000)?;
        let filter = args.filter.map(Filter::from).unwrap_or_default();
        filter.check(t, tool)?;
        let group_by = args.group_by.unwrap_or_default();
        for c in &group_by {
            t.column(c)?;
        }
        if args.measures.is_empty() {
            return Err(Error::invalid(
                tool,
                "measures is empty; ask for at least a count",
            ));
        }
        let mut measures = Vec::new();
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
            let numeric = matches!(m.function, F::Sum | F::Avg | F::Median);
            if let Some(c) = column.filter(|c| numeric && !c.ty.is_numeric()) {
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
            let alias = m.alias.clone().unwrap_or_else(|| match column {
                Some(c) => format!("{}_{}", m.function.as_str(), c.name),
                None => m.function.as_str().to_owned(),
            });
            measures.push((m.function, column.map(|c| c.name.as_str()), alias));
        }
        let mut groups: Vec<(Vec<&Value>, Vec<&Row>)> = Vec::new();
        for row in t.rows.iter().filter(|r| filter.matches(r)) {
            let key: Vec<&Value> = group_by.iter().map(|c| Table::cell(row, c)).collect();
            match groups
                .iter_mut()
                .find(|(k, _)| k.iter().zip(&key).all(|(a, b)| same(a, b)))
            {
                Some((_, rows)) => rows.push(row),
                None => groups.push((key, vec![row])),
            }
        }
        if group_by.is_empty() && groups.is_empty() {
            groups.push((Vec::new(), Vec::new()));
        }
        let mut out: Vec<Value> = groups
            .iter()
            .map(|(key, rows)| {
                let mut obj: Row = group_by
                    .iter()
                    .zip(key)
                    .map(|(c, v)| (c.clone(), (*v).clone()))
                    .collect();
                for (function, column, alias) in &measures {
                    obj.insert(alias.clone(), measure(*function, *column, rows));
                }
                Value::Object(obj)
            })
            .collect();
        let first = &measures[0].2;
        out.sort_by(|a, b| match (&a[first], &b[first]) {
            (x, _) if x.is_null() => core::cmp::Ordering::Greater,
            (_, y) if y.is_null() => core::cmp::Ordering::Less,
            (x, y) => order(y, x),
        });
        let count = out.len();
        out.truncate(limit);
        Ok(json!({ "groups": out, "groupCount": count }))
    }

    pub(crate) fn find_duplicates(&self, args: &cat::FindDuplicatesArgs) -> Result<Value, Error> {
        let tool = Tool::FindDuplicates;
        let t = self.table(&args.table)?;
        let limit = bounded(tool, "limit", args.limit, 1, 1000)?;
        let columns = columns(t, tool, Some(&args.columns))?;
        let normalize = |v: &Value| match v.as_str() {
            Some(s) => {
                let s = if args.trim_spaces { s.trim() } else { s };
                Value::from(if args.ignore_case {
                    s.to_lowercase()
                } else {
                    s.to_owned()
                })
            }
            None => v.clone(),
        };
        let mut groups: Vec<(Vec<Value>, Vec<&Row>)> = Vec::new();
        for row in &t.rows {
            let key: Vec<Value> = columns
                .iter()
                .map(|c| normalize(Table::cell(row, c)))
                .collect();
            if key.iter().all(Value::is_null) {
                continue;
            }
            match groups
                .iter_mut()
                .find(|(k, _)| k.iter().zip(&key).all(|(a, b)| same(a, b)))
            {
                Some((_, rows)) => rows.push(row),
                None => groups.push((key, vec![row])),
            }
        }
        groups.retain(|(_, rows)| rows.len() > 1);
        groups.sort_by_key(|g| core::cmp::Reverse(g.1.len()));
        let count = groups.len();
        let out: Vec<Value> = groups
            .iter()
            .take(limit)
            .map(|(_, rows)| {
                json!({
                    "values": project(rows[0], &columns),
                    "count": rows.len(),
                    "keys": rows.iter().map(|r| Table::cell(r, &t.primary_key)).collect::<Vec<_>>(),
                })
            })
            .collect();
        Ok(json!({ "groups": out, "groupCount": count }))
    }

    pub(crate) fn create_table(&mut self, args: cat::CreateTableArgs) -> Result<Value, Error> {
        let tool = Tool::CreateTable;
        if self.tables.contains_key(&args.name) || self.staged_for(&args.name) > 0 {
            return Err(Error::invalid(
                tool,
                format!(
                    "a table `{}` already exists or is staged; pick another name",
                    args.name
                ),
            ));
        }
        if args.columns.is_empty() {
            return Err(Error::invalid(
                tool,
                "columns is empty; give the table at least one column",
            ));
        }
        let mut columns: Vec<Column> = Vec::new();
        let mut keys = Vec::new();
        for c in args.columns {
            if columns.iter().any(|o| o.name == c.name) {
                return Err(Error::invalid(
                    tool,
                    format!("column `{}` is listed twice", c.name),
                ));
            }
            if c.primary_key {
                keys.push(c.name.clone());
            }
            columns.push(Column::new(
                &c.name,
                c.r#type.into(),
                c.nullable && !c.primary_key,
            ));
        }
        let primary_key = match keys.as_slice() {
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
        let ids = self.stage(
            vec![(
                args.name,
                Change::CreateTable {
                    columns,
                    primary_key,
                },
            )],
            None,
        )?;
        Ok(self.pending(&ids))
    }

    pub(crate) fn add_column(&mut self, args: cat::AddColumnArgs) -> Result<Value, Error> {
        let t = self.table(&args.table)?;
        let mut column = Column::new(&args.name, args.r#type.into(), args.nullable);
        if let Some(default) = args.default_value.filter(|v| !v.is_null()) {
            t.check_value(&column, &default)?;
            column = column.with_default(default);
        } else if !args.nullable && !t.rows.is_empty() {
            return Err(Error::invalid(
                Tool::AddColumn,
                format!(
                    "`{}` has rows, so a column with nullable = false needs a defaultValue \
                     for them",
                    t.name
                ),
            ));
        }
        let ids = self.stage(vec![(args.table, Change::AddColumn { column })], None)?;
        Ok(self.pending(&ids))
    }

    pub(crate) fn rename_column(&mut self, args: cat::RenameColumnArgs) -> Result<Value, Error> {
        let change = Change::RenameColumn {
            column: args.column,
            new_name: args.new_name,
        };
        let ids = self.stage(vec![(args.table, change)], None)?;
        Ok(self.pending(&ids))
    }

    pub(crate) fn delete_column(&mut self, args: &cat::DeleteColumnArgs) -> Result<Value, Error> {
        let t = self.table(&args.table)?;
        t.column(&args.column)?;
        if t.primary_key == args.column {
            return Err(Error::invalid(
                Tool::DeleteColumn,
                format!(
                    "`{}` is the primary key of `{}` and cannot be deleted; drop the table \
                     instead if it is no longer needed",
                    args.column, t.name
                ),
            ));
        }
        self.no_staged(&args.table)?;
        let t = table_mut(&mut self.tables, &args.table)?;
        t.columns.retain(|c| c.name != args.column);
        t.foreign_keys.retain(|fk| fk.column != args.column);
        for row in &mut t.rows {
            row.remove(&args.column);
        }
        Ok(json!({ "deleted": format!("{}.{}", args.table, args.column) }))
    }

    pub(crate) fn truncate_table(&mut self, args: &cat::TruncateTableArgs) -> Result<Value, Error> {
        let t = self.table(&args.table)?;
        self.no_staged(&args.table)?;
        for other in self.tables.values() {
            for fk in other.foreign_keys.iter().filter(|fk| fk.table == t.name) {
                if let Some(row) = other
                    .rows
                    .iter()
                    .find(|r| !Table::cell(r, &fk.column).is_null())
                {
                    return Err(Error::ForeignKey {
                        from: format!("{}.{}", other.name, fk.column),
                        to: format!("{}.{}", t.name, t.primary_key),
                        key: Table::cell(row, &fk.column).clone(),
                        missing: false,
                    });
                }
            }
        }
        let t = table_mut(&mut self.tables, &args.table)?;
        let deleted = t.rows.len();
        t.rows.clear();
        if args.reset_ids {
            t.reset_ids();
        }
        Ok(json!({ "deleted": deleted }))
    }

    pub(crate) fn drop_table(&mut self, args: &cat::DropTableArgs) -> Result<Value, Error> {
        self.table(&args.table)?;
        self.no_staged(&args.table)?;
        let references: Vec<String> = self
            .tables
            .values()
            .filter(|o| o.name != args.table)
            .flat_map(|o| {
                o.foreign_keys
                    .iter()
                    .filter(|fk| fk.table == args.table)
                    .map(|fk| format!("{}.{}", o.name, fk.column))
            })
            .collect();
        if let (Some(by), false) = (references.first(), args.cascade) {
            return Err(Error::Referenced {
                table: args.table.clone(),
                by: by.clone(),
            });
        }
        self.tables.remove(&args.table);
        for other in self.tables.values_mut() {
            other.foreign_keys.retain(|fk| fk.table != args.table);
        }
        Ok(json!({ "dropped": args.table, "removedForeignKeys": references }))
    }

    pub(crate) fn attach(&mut self, file_name: &str, media_type: &str, text: &str) -> String {
        self.next_attachment += 1;
        let id = format!("a{}", self.next_attachment);
        self.attachments.push(Attachment {
            id: id.clone(),
            file_name: file_name.to_owned(),
            media_type: media_type.to_owned(),
            text: text.to_owned(),
        });
        id
    }

    pub(crate) fn list_attachments(&self) -> Value {
        Value::Array(
            self.attachments
                .iter()
                .map(|a| {
                    json!({
                        "id": a.id,
                        "fileName": a.file_name,
                        "mediaType": a.media_type,
                        "sizeBytes": a.text.len(),
                    })
                })
                .collect(),
        )
    }

    pub(crate) fn read_attachment(&self, args: &cat::ReadAttachmentArgs) -> Result<Value, Error> {
        let tool = Tool::ReadAttachment;
        let a = self
            .attachments
            .iter()
            .find(|a| a.id == args.attachment_id)
            .ok_or_else(|| Error::NoSuchAttachment {
                id: args.attachment_id.clone(),
            })?;
        let offset = bounded(tool, "offset", args.offset, 0, i64::MAX)?;
        let max = bounded(tool, "maxChars", args.max_chars, 1000, 100_000)?;
        let total = a.text.chars().count();
        let text: String = a.text.chars().skip(offset).take(max).collect();
        let end = offset.saturating_add(max);
        Ok(json!({
            "fileName": a.file_name,
            "mediaType": a.media_type,
            "text": text,
            "nextOffset": if end < total { Some(end) } else { None },
        }))
    }
}

#[allow(clippy::cast_precision_loss, reason = "row counts are far below 2^52")]
fn measure(
    function: cat::AggregateMeasuresItemFunction,
    column: Option<&str>,
    rows: &[&Row],
) -> Value {
    use cat::AggregateMeasuresItemFunction as F;
    let Some(column) = column else {
        return Value::from(rows.len());
    };
    let values: Vec<&Value> = rows
        .iter()
        .map(|r| Table::cell(r, column))
        .filter(|v| !v.is_null())
        .collect();
    let numbers: Vec<f64> = values.iter().filter_map(|v| v.as_f64()).collect();
    match function {
        F::Count => Value::from(values.len()),
        F::CountDistinct => {
            let mut distinct: Vec<&Value> = Vec::new();
            for v in &values {
                if !distinct.iter().any(|d| same(d, v)) {
                    distinct.push(v);
                }
            }
            Value::from(distinct.len())
        }
        _ if values.is_empty() => Value::Null,
        F::Sum => match values
            .iter()
            .try_fold(0_i64, |sum, v| sum.checked_add(v.as_i64()?))
        {
            Some(sum) => Value::from(sum),
            None => Value::from(numbers.iter().sum::<f64>()),
        },
        F::Avg => Value::from(numbers.iter().sum::<f64>() / numbers.len() as f64),
        F::Min => values
            .iter()
            .copied()
            .min_by(|a, b| order(a, b))
            .cloned()
            .unwrap_or_default(),
        F::Max => values
            .iter()
            .copied()
            .max_by(|a, b| order(a, b))
            .cloned()
            .unwrap_or_default(),
        F::Median => {
            let mut sorted = numbers;
            sorted.sort_by(f64::total_cmp);
            let mid = sorted.len() / 2;
            if sorted.is_empty() {
                Value::Null
            } else if sorted.len() % 2 == 1 {
                Value::from(sorted[mid])
            } else {
                Value::from(f64::midpoint(sorted[mid - 1], sorted[mid]))
            }
        }
    }
}
