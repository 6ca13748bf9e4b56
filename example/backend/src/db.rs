//! The in-memory database: typed tables, row and schema changes, filters and ordering.

use core::cmp::Ordering;
use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::Error;
use crate::clock::{parse_date, parse_date_time};

/// One row: column name to value. Columns a row lacks read as `null`.
pub type Row = Map<String, Value>;

/// A column's type, as `describeTable` and `createTable` spell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColumnType {
    /// UTF-8 text.
    Text,
    /// A 64-bit integer.
    Integer,
    /// A floating-point number.
    Real,
    /// `true` or `false`.
    Boolean,
    /// A calendar date, `YYYY-MM-DD`.
    Date,
    /// An ISO 8601 date-time.
    Datetime,
    /// Any JSON value.
    Json,
}

impl ColumnType {
    /// The type as the catalog spells it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ColumnType::Text => "text",
            ColumnType::Integer => "integer",
            ColumnType::Real => "real",
            ColumnType::Boolean => "boolean",
            ColumnType::Date => "date",
            ColumnType::Datetime => "datetime",
            ColumnType::Json => "json",
        }
    }

    /// Whether a non-null value fits the type.
    #[must_use]
    pub fn accepts(self, value: &Value) -> bool {
        match self {
            ColumnType::Text => value.is_string(),
            ColumnType::Integer => value.is_i64(),
            ColumnType::Real => value.is_number(),
            ColumnType::Boolean => value.is_boolean(),
            ColumnType::Date => value.as_str().is_some_and(|s| parse_date(s).is_some()),
            ColumnType::Datetime => value
                .as_str()
                .is_some_and(|s| parse_date_time(s, 0).is_some()),
            ColumnType::Json => true,
        }
    }

    /// Whether sums and averages make sense.
    #[must_use]
    pub const fn is_numeric(self) -> bool {
        matches!(self, ColumnType::Integer | ColumnType::Real)
    }

    /// Whether the values are text that `contains` and `startsWith` can search.
    #[must_use]
    pub const fn is_textual(self) -> bool {
        matches!(
            self,
            ColumnType::Text | ColumnType::Date | ColumnType::Datetime
        )
    }
}

/// A column of a table.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: ColumnType,
    /// Whether it may be `null`.
    pub nullable: bool,
    /// What an insert that leaves it out gets.
    pub default: Option<Value>,
}

impl Column {
    /// A column without a default.
    #[must_use]
    pub fn new(name: &str, ty: ColumnType, nullable: bool) -> Column {
        Column {
            name: name.to_owned(),
            ty,
            nullable,
            default: None,
        }
    }

    /// This column with a default value.
    #[must_use]
    pub fn with_default(mut self, default: Value) -> Column {
        self.default = Some(default);
        self
    }
}

/// `column` of this table holds keys of `table`'s primary key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForeignKey {
    /// The referencing column.
    pub column: String,
    /// The referenced table; the reference is to its primary key.
    pub table: String,
}

/// A table: columns, a single-column primary key, foreign keys and rows in table order.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Its name.
    pub name: String,
    /// Its columns, in order.
    pub columns: Vec<Column>,
    /// The primary-key column; integer keys are assigned on insert when left out.
    pub primary_key: String,
    /// References to other tables.
    pub foreign_keys: Vec<ForeignKey>,
    /// The rows, in insertion order.
    pub rows: Vec<Row>,
    next_id: i64,
}

impl Table {
    /// An empty table. `primary_key` must name one of `columns`.
    #[must_use]
    pub fn new(name: &str, columns: Vec<Column>, primary_key: &str) -> Table {
        Table {
            name: name.to_owned(),
            columns,
            primary_key: primary_key.to_owned(),
            foreign_keys: Vec::new(),
            rows: Vec::new(),
            next_id: 1,
        }
    }

    /// This table with a foreign key from `column` to `table`'s primary key.
    #[must_use]
    pub fn references(mut self, column: &str, table: &str) -> Table {
        self.foreign_keys.push(ForeignKey {
            column: column.to_owned(),
            table: table.to_owned(),
        });
        self
    }

    /// The column of this name.
    ///
    /// # Errors
    /// [`Error::NoSuchColumn`], with the closest name as a suggestion.
    pub fn column(&self, name: &str) -> Result<&Column, Error> {
        self.columns
            .iter()
            .find(|c| c.name == name)
            .ok_or_else(|| Error::NoSuchColumn {
                table: self.name.clone(),
                column: name.to_owned(),
                suggestion: suggest(name, self.columns.iter().map(|c| c.name.as_str())),
            })
    }

    /// Checks a value for a column: the type, and `null` only where allowed.
    ///
    /// # Errors
    /// [`Error::MissingValue`] or [`Error::InvalidValue`].
    pub fn check_value(&self, column: &Column, value: &Value) -> Result<(), Error> {
        if value.is_null() {
            if column.nullable {
                return Ok(());
            }
            return Err(Error::MissingValue {
                table: self.name.clone(),
                column: column.name.clone(),
            });
        }
        if column.ty.accepts(value) {
            Ok(())
        } else {
            Err(Error::InvalidValue {
                table: self.name.clone(),
                column: column.name.clone(),
                expected: column.ty.as_str(),
                got: value.clone(),
            })
        }
    }

    /// A key as the model passed it (a value, or `{"column": value}`), in the form the
    /// rows hold it. Digits in a string are taken as an integer key.
    ///
    /// # Errors
    /// [`Error::WrongKey`] for anything that is not a value of the primary-key column.
    pub fn key(&self, key: &Value) -> Result<Value, Error> {
        let wrong = || Error::WrongKey {
            table: self.name.clone(),
            given: key.clone(),
            primary_key: self.primary_key.clone(),
        };
        let value = match key {
            Value::Object(fields) => match fields.get(&self.primary_key) {
                Some(value) if fields.len() == 1 => value.clone(),
                _ => return Err(wrong()),
            },
            other => other.clone(),
        };
        let column = self.column(&self.primary_key)?;
        let value = match (&value, column.ty) {
            (Value::String(s), ColumnType::Integer) => s.parse::<i64>().map_or(value, Value::from),
            _ => value,
        };
        if value.is_null() || !column.ty.accepts(&value) {
            return Err(wrong());
        }
        Ok(value)
    }

    /// The index of the row with this (normalized) key.
    #[must_use]
    pub fn position(&self, key: &Value) -> Option<usize> {
        self.rows
            .iter()
            .position(|r| r.get(&self.primary_key) == Some(key))
    }

    /// The row with this key, as the model passed it.
    ///
    /// # Errors
    /// As [`Table::key`], or [`Error::NoSuchRow`].
    pub fn row(&self, key: &Value) -> Result<&Row, Error> {
        let key = self.key(key)?;
        match self.position(&key) {
            Some(i) => Ok(&self.rows[i]),
            None => Err(Error::NoSuchRow {
                table: self.name.clone(),
                key,
            }),
        }
    }

    /// A cell, `null` when the row lacks the column.
    #[must_use]
    pub fn cell<'r>(row: &'r Row, column: &str) -> &'r Value {
        row.get(column).unwrap_or(&Value::Null)
    }

    /// Restarts integer keys at 1, for an emptied table.
    pub(crate) fn reset_ids(&mut self) {
        self.next_id = 1;
    }

    /// Seeds a committed row, bypassing staging. For building fixtures.
    pub(crate) fn seed(&mut self, row: Value) {
        if let Value::Object(row) = row {
            if let Some(id) = row.get(&self.primary_key).and_then(Value::as_i64) {
                self.next_id = self.next_id.max(id + 1);
            }
            self.rows.push(row);
        }
    }
}

/// The closest of `options` to `name`, if it is close enough to be a likely typo.
pub(crate) fn suggest<'a>(name: &str, options: impl Iterator<Item = &'a str>) -> Option<String> {
    let lower = name.to_lowercase();
    options
        .map(|o| (strsim::levenshtein(&lower, &o.to_lowercase()), o))
        .filter(|&(d, o)| d <= (o.chars().count() / 3).max(1))
        .min_by_key(|&(d, _)| d)
        .map(|(_, o)| o.to_owned())
}

/// The tables of a database, by name.
pub type Tables = BTreeMap<String, Table>;

/// Looks up a table.
///
/// # Errors
/// [`Error::NoSuchTable`], with the closest name as a suggestion.
pub fn table<'t>(tables: &'t Tables, name: &str) -> Result<&'t Table, Error> {
    tables.get(name).ok_or_else(|| Error::NoSuchTable {
        name: name.to_owned(),
        suggestion: suggest(name, tables.keys().map(String::as_str)),
    })
}

pub(crate) fn table_mut<'t>(tables: &'t mut Tables, name: &str) -> Result<&'t mut Table, Error> {
    let suggestion = if tables.contains_key(name) {
        None
    } else {
        suggest(name, tables.keys().map(String::as_str))
    };
    tables.get_mut(name).ok_or_else(|| Error::NoSuchTable {
        name: name.to_owned(),
        suggestion,
    })
}

/// A change to one table, as the staging area holds it.
#[derive(Clone, Debug, PartialEq)]
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
}

impl Change {
    /// The kind `showStaging` reports: `insert`, `update`, `delete` or `schema`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Change::Insert { .. } => "insert",
            Change::Update { .. } => "update",
            Change::Delete { .. } => "delete",
            Change::CreateTable { .. } | Change::AddColumn { .. } | Change::RenameColumn { .. } => {
                "schema"
            }
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

fn check_references(tables: &Tables, table: &Table, row: &Row) -> Result<(), Error> {
    for fk in &table.foreign_keys {
        let value = Table::cell(row, &fk.column);
        if value.is_null() {
            continue;
        }
        let target = self::table(tables, &fk.table)?;
        if target.position(value).is_none() {
            return Err(Error::ForeignKey {
                from: format!("{}.{}", table.name, fk.column),
                to: format!("{}.{}", target.name, target.primary_key),
                key: value.clone(),
                missing: true,
            });
        }
    }
    Ok(())
}

fn check_not_referenced(tables: &Tables, table: &Table, row: &Row) -> Result<(), Error> {
    let key = Table::cell(row, &table.primary_key);
    for other in tables.values() {
        for fk in other
            .foreign_keys
            .iter()
            .filter(|fk| fk.table == table.name)
        {
            if other.rows.iter().any(|r| Table::cell(r, &fk.column) == key) {
                return Err(Error::ForeignKey {
                    from: format!("{}.{}", other.name, fk.column),
                    to: format!("{}.{}", table.name, table.primary_key),
                    key: key.clone(),
                    missing: false,
                });
            }
        }
    }
    Ok(())
}

fn check_values(table: &Table, values: &Row) -> Result<(), Error> {
    for (name, value) in values {
        table.check_value(table.column(name)?, value)?;
    }
    Ok(())
}

/// Applies one change to `tables`, checking it fully first: on an error `tables` is
/// unchanged. Returns what a row change did; schema changes return `None`.
///
/// # Errors
/// Whatever makes the change not apply: a missing table, column or row, a taken key,
/// a value of the wrong type, a broken foreign key.
pub fn apply(tables: &mut Tables, name: &str, change: &Change) -> Result<Option<Applied>, Error> {
    match change {
        Change::Insert { values } => insert(tables, name, values).map(Some),
        Change::Update { key, values } => update(tables, name, key, values).map(Some),
        Change::Delete { key } => delete(tables, name, key).map(Some),
        Change::CreateTable {
            columns,
            primary_key,
        } => create_table(tables, name, columns, primary_key).map(|()| None),
        Change::AddColumn { column } => add_column(tables, name, column).map(|()| None),
        Change::RenameColumn { column, new_name } => {
            rename_column(tables, name, column, new_name).map(|()| None)
        }
    }
}

fn insert(tables: &mut Tables, name: &str, values: &Row) -> Result<Applied, Error> {
    let t = table(tables, name)?;
    check_values(t, values)?;
    let mut row = Row::new();
    let mut next_id = t.next_id;
    for column in &t.columns {
        let value = match values.get(&column.name).or(column.default.as_ref()) {
            Some(v) => v.clone(),
            None if column.name == t.primary_key && column.ty == ColumnType::Integer => {
                next_id += 1;
                Value::from(next_id - 1)
            }
            None => Value::Null,
        };
        t.check_value(column, &value)?;
        row.insert(column.name.clone(), value);
    }
    let key = Table::cell(&row, &t.primary_key).clone();
    if t.position(&key).is_some() {
        return Err(Error::DuplicateKey {
            table: t.name.clone(),
            key,
        });
    }
    check_references(tables, t, &row)?;
    let t = table_mut(tables, name)?;
    t.next_id = key.as_i64().map_or(next_id, |id| next_id.max(id + 1));
    t.rows.push(row.clone());
    Ok(Applied {
        table: name.to_owned(),
        before: None,
        after: Some(row),
    })
}

fn update(tables: &mut Tables, name: &str, key: &Value, values: &Row) -> Result<Applied, Error> {
    let t = table(tables, name)?;
    check_values(t, values)?;
    let i = t.position(key).ok_or_else(|| Error::NoSuchRow {
        table: t.name.clone(),
        key: key.clone(),
    })?;
    let before = t.rows[i].clone();
    let mut after = before.clone();
    after.extend(values.iter().map(|(k, v)| (k.clone(), v.clone())));
    let new_key = Table::cell(&after, &t.primary_key);
    if new_key != key && t.position(new_key).is_some() {
        return Err(Error::DuplicateKey {
            table: t.name.clone(),
            key: new_key.clone(),
        });
    }
    check_references(tables, t, &after)?;
    table_mut(tables, name)?.rows[i].clone_from(&after);
    Ok(Applied {
        table: name.to_owned(),
        before: Some(before),
        after: Some(after),
    })
}

fn delete(tables: &mut Tables, name: &str, key: &Value) -> Result<Applied, Error> {
    let t = table(tables, name)?;
    let i = t.position(key).ok_or_else(|| Error::NoSuchRow {
        table: t.name.clone(),
        key: key.clone(),
    })?;
    check_not_referenced(tables, t, &t.rows[i])?;
    let before = table_mut(tables, name)?.rows.remove(i);
    Ok(Applied {
        table: name.to_owned(),
        before: Some(before),
        after: None,
    })
}

fn create_table(
    tables: &mut Tables,
    name: &str,
    columns: &[Column],
    primary_key: &str,
) -> Result<(), Error> {
    if tables.contains_key(name) {
        return Err(Error::invalid(
            app_catalog::Tool::CreateTable,
            format!("a table `{name}` already exists; pick another name"),
        ));
    }
    tables.insert(
        name.to_owned(),
        Table::new(name, columns.to_vec(), primary_key),
    );
    Ok(())
}

fn add_column(tables: &mut Tables, name: &str, column: &Column) -> Result<(), Error> {
    let t = table(tables, name)?;
    if t.column(&column.name).is_ok() {
        return Err(Error::invalid(
            app_catalog::Tool::AddColumn,
            format!(
                "`{name}` already has a column `{}`; pick another name",
                column.name
            ),
        ));
    }
    let fill = column.default.clone().unwrap_or(Value::Null);
    if !t.rows.is_empty() {
        t.check_value(column, &fill)?;
    }
    let t = table_mut(tables, name)?;
    t.columns.push(column.clone());
    for row in &mut t.rows {
        row.insert(column.name.clone(), fill.clone());
    }
    Ok(())
}

fn rename_column(
    tables: &mut Tables,
    name: &str,
    column: &str,
    new_name: &str,
) -> Result<(), Error> {
    let t = table(tables, name)?;
    t.column(column)?;
    if t.column(new_name).is_ok() {
        return Err(Error::invalid(
            app_catalog::Tool::RenameColumn,
            format!("`{name}` already has a column `{new_name}`; pick another name"),
        ));
    }
    let t = table_mut(tables, name)?;
    for c in &mut t.columns {
        if c.name == *column {
            new_name.clone_into(&mut c.name);
        }
    }
    if t.primary_key == *column {
        new_name.clone_into(&mut t.primary_key);
    }
    for fk in &mut t.foreign_keys {
        if fk.column == *column {
            new_name.clone_into(&mut fk.column);
        }
    }
    for row in &mut t.rows {
        if let Some(v) = row.remove(column) {
            row.insert(new_name.to_owned(), v);
        }
    }
    Ok(())
}

/// A comparison of a filter condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Less than.
    Lt,
    /// Less than or equal.
    Le,
    /// Greater than.
    Gt,
    /// Greater than or equal.
    Ge,
    /// Contains the text, ignoring case.
    Contains,
    /// Starts with the text, ignoring case.
    StartsWith,
    /// Equal to one of an array's values.
    In,
    /// Is `null`.
    IsNull,
    /// Is not `null`.
    NotNull,
}

/// One condition on a column.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    /// The column tested.
    pub column: String,
    /// The comparison.
    pub op: Op,
    /// The value compared with.
    pub value: Option<Value>,
}

/// The filter shape `queryRows`, `bulkEdit`, `exportCsv`, `aggregate` and `findReplace`
/// share: conditions joined by AND (`any == false`) or OR.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Filter {
    /// OR instead of AND.
    pub any: bool,
    /// The conditions; none matches every row.
    pub conditions: Vec<Condition>,
}

impl Filter {
    /// Checks the filter against a table's columns before it runs.
    ///
    /// # Errors
    /// [`Error::NoSuchColumn`], or [`Error::InvalidArgument`] naming the condition
    /// that takes no value, lacks one, or compares with a value of the wrong kind.
    pub fn check(&self, table: &Table, tool: app_catalog::Tool) -> Result<(), Error> {
        for c in &self.conditions {
            let column = table.column(&c.column)?;
            let bad = |what: &str| {
                Err(Error::invalid(
                    tool,
                    format!("the condition on `{}` {what}", c.column),
                ))
            };
            match (c.op, &c.value) {
                (Op::IsNull | Op::NotNull, Some(v)) if !v.is_null() => {
                    return bad("takes no value with isNull or notNull; leave value out");
                }
                (Op::IsNull | Op::NotNull, _) => {}
                (_, None) => return bad("needs a value to compare with"),
                (Op::In, Some(Value::Array(items))) => {
                    for item in items.iter().filter(|v| !v.is_null()) {
                        if !fits(column.ty, item) {
                            return bad(&format!(
                                "compares a {} column with {item}",
                                column.ty.as_str()
                            ));
                        }
                    }
                }
                (Op::In, Some(_)) => return bad("needs an array value with op `in`"),
                (Op::Contains | Op::StartsWith, Some(v)) => {
                    if !column.ty.is_textual() || !v.is_string() {
                        return bad(&format!(
                            "uses contains or startsWith, which need a text column and a \
                             string value; use eq or in for {} values",
                            column.ty.as_str()
                        ));
                    }
                }
                (_, Some(v)) if v.is_array() || (!v.is_null() && !fits(column.ty, v)) => {
                    return bad(&format!(
                        "compares a {} column with {v}",
                        column.ty.as_str()
                    ));
                }
                (_, Some(_)) => {}
            }
        }
        Ok(())
    }

    /// Whether a row passes.
    #[must_use]
    pub fn matches(&self, row: &Row) -> bool {
        let test = |c: &Condition| condition(c, Table::cell(row, &c.column));
        if self.conditions.is_empty() {
            true
        } else if self.any {
            self.conditions.iter().any(test)
        } else {
            self.conditions.iter().all(test)
        }
    }
}

/// Whether a filter value can be compared with a column's values.
fn fits(ty: ColumnType, value: &Value) -> bool {
    match ty {
        ColumnType::Integer | ColumnType::Real => value.is_number(),
        ColumnType::Text | ColumnType::Date | ColumnType::Datetime => value.is_string(),
        ColumnType::Boolean => value.is_boolean(),
        ColumnType::Json => true,
    }
}

fn condition(c: &Condition, cell: &Value) -> bool {
    let value = c.value.as_ref().unwrap_or(&Value::Null);
    let text = |f: fn(&str, &str) -> bool| match (cell.as_str(), value.as_str()) {
        (Some(cell), Some(value)) => f(&cell.to_lowercase(), &value.to_lowercase()),
        _ => false,
    };
    let ordered = |f: fn(Ordering) -> bool| {
        !cell.is_null() && !value.is_null() && compare(cell, value).is_some_and(f)
    };
    match c.op {
        Op::IsNull => cell.is_null(),
        Op::NotNull => !cell.is_null(),
        Op::Eq => same(cell, value),
        Op::Ne => !same(cell, value),
        Op::Lt => ordered(Ordering::is_lt),
        Op::Le => ordered(Ordering::is_le),
        Op::Gt => ordered(Ordering::is_gt),
        Op::Ge => ordered(Ordering::is_ge),
        Op::Contains => text(|cell, value| cell.contains(value)),
        Op::StartsWith => text(|cell, value| cell.starts_with(value)),
        Op::In => value
            .as_array()
            .is_some_and(|items| items.iter().any(|v| same(cell, v))),
    }
}

/// Equality that takes `3` and `3.0` as equal.
#[must_use]
pub fn same(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => (x - y).abs() < f64::EPSILON * x.abs().max(1.0),
        _ => a == b,
    }
}

/// Compares two values of the same kind: numbers by value, date-times as instants,
/// other strings by code point, `false < true`. `None` for values of different kinds.
#[must_use]
pub fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64()?.partial_cmp(&y.as_f64()?),
        (Value::String(x), Value::String(y)) => {
            match (parse_date_time(x, 0), parse_date_time(y, 0)) {
                (Some((x, _)), Some((y, _))) => Some(x.cmp(&y)),
                _ => Some(x.cmp(y)),
            }
        }
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

/// A total order for sorting: `null` last, then by [`compare`], values of different
/// kinds by kind.
#[must_use]
pub fn order(a: &Value, b: &Value) -> Ordering {
    let rank = |v: &Value| match v {
        Value::Bool(_) => 0,
        Value::Number(_) => 1,
        Value::String(_) => 2,
        Value::Array(_) => 3,
        Value::Object(_) => 4,
        Value::Null => 5,
    };
    compare(a, b).unwrap_or_else(|| rank(a).cmp(&rank(b)))
}
