//! The table model the tools speak: column types as the catalog names them, columns,
//! tables, and the conversion of cells between JSON (what the model reads and writes)
//! and SQLite's storage classes.
//!
//! SQLite stores `integer`, `real` and `text` as such; the catalog's other types are
//! kept in them and told apart by the column's declared type: `boolean` as 0 or 1,
//! `date` and `datetime` as ISO 8601 text, `json` as JSON text.

use rusqlite::types::{Value as Sql, ValueRef};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Error;
use crate::time::{parse_date, parse_instant};

/// One row: column name to value.
pub type Row = Map<String, Value>;

/// A column's type, as `describeTable` and `createTable` spell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColumnType {
    /// UTF-8 text.
    Text,
    /// A 64-bit integer.
    Integer,
    /// A floating-point number.
    Real,
    /// `true` or `false`, stored as 1 or 0.
    Boolean,
    /// A calendar date, `YYYY-MM-DD`.
    Date,
    /// An ISO 8601 date-time.
    Datetime,
    /// Any JSON value, stored as its text.
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

    /// The type declared in `CREATE TABLE`; [`ColumnType::from_declared`] reads it back.
    #[must_use]
    pub const fn declared(self) -> &'static str {
        match self {
            ColumnType::Text => "TEXT",
            ColumnType::Integer => "INTEGER",
            ColumnType::Real => "REAL",
            ColumnType::Boolean => "BOOLEAN",
            ColumnType::Date => "DATE",
            ColumnType::Datetime => "DATETIME",
            ColumnType::Json => "JSON",
        }
    }

    /// The type of a column declared as `declared`, for tables this app created and for
    /// those of any other SQLite file, by SQLite's own affinity rules where the name is
    /// not one of ours.
    #[must_use]
    pub fn from_declared(declared: &str) -> ColumnType {
        let d = declared.to_ascii_uppercase();
        if d.contains("BOOL") {
            ColumnType::Boolean
        } else if d.contains("DATETIME") || d.contains("TIMESTAMP") {
            ColumnType::Datetime
        } else if d.contains("DATE") {
            ColumnType::Date
        } else if d.contains("JSON") {
            ColumnType::Json
        } else if d.contains("INT") {
            ColumnType::Integer
        } else if ["REAL", "FLOA", "DOUB", "NUMERIC", "DECIMAL"]
            .iter()
            .any(|n| d.contains(n))
        {
            ColumnType::Real
        } else {
            ColumnType::Text
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
            ColumnType::Datetime => value.as_str().is_some_and(|s| parse_instant(s).is_some()),
            ColumnType::Json => true,
        }
    }

    /// Whether sums and averages make sense.
    #[must_use]
    pub const fn is_numeric(self) -> bool {
        matches!(self, ColumnType::Integer | ColumnType::Real)
    }

    /// Whether the values are text that `contains`, `startsWith` and `findReplace` read.
    #[must_use]
    pub const fn is_textual(self) -> bool {
        matches!(
            self,
            ColumnType::Text | ColumnType::Date | ColumnType::Datetime
        )
    }

    /// A JSON value as SQLite stores it in a column of this type. The value has been
    /// checked with [`ColumnType::accepts`] (or is a filter's operand, checked to fit).
    #[must_use]
    pub fn to_sql(self, value: &Value) -> Sql {
        match (self, value) {
            (_, Value::Null) => Sql::Null,
            (ColumnType::Json, v) => Sql::Text(v.to_string()),
            (_, v) => plain_to_sql(v),
        }
    }

    /// A stored cell as JSON.
    #[must_use]
    pub fn to_json(self, cell: ValueRef<'_>) -> Value {
        match (self, cell) {
            (ColumnType::Boolean, ValueRef::Integer(i)) => Value::Bool(i != 0),
            (ColumnType::Json, ValueRef::Text(t)) => {
                let text = String::from_utf8_lossy(t);
                serde_json::from_str(&text).unwrap_or(Value::String(text.into_owned()))
            }
            (_, cell) => plain_to_json(cell),
        }
    }
}

/// A JSON scalar as SQLite stores it when no column type says otherwise: booleans as
/// 1 and 0, arrays and objects as JSON text.
#[must_use]
pub fn plain_to_sql(value: &Value) -> Sql {
    match value {
        Value::Null => Sql::Null,
        Value::Bool(b) => Sql::Integer(i64::from(*b)),
        Value::Number(n) => n
            .as_i64()
            .map_or_else(|| Sql::Real(n.as_f64().unwrap_or(f64::NAN)), Sql::Integer),
        Value::String(s) => Sql::Text(s.clone()),
        other => Sql::Text(other.to_string()),
    }
}

/// A stored value as JSON by its storage class alone; a blob becomes hex text.
#[must_use]
pub fn plain_to_json(cell: ValueRef<'_>) -> Value {
    match cell {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::from(i),
        ValueRef::Real(r) => serde_json::Number::from_f64(r).map_or(Value::Null, Value::Number),
        ValueRef::Text(t) => Value::String(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let hex = b
                .iter()
                .flat_map(|byte| [HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 15)]])
                .map(char::from)
                .collect();
            Value::String(hex)
        }
    }
}

/// A column of a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Column {
    /// Its name.
    pub name: String,
    /// Its type.
    #[serde(rename = "type")]
    pub ty: ColumnType,
    /// Whether it may be `null`.
    pub nullable: bool,
    /// What an insert that leaves it out gets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
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

/// `column` of this table holds keys of `table`'s `references` column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForeignKey {
    /// The referencing column.
    pub column: String,
    /// The referenced table.
    pub table: String,
    /// The referenced column, usually that table's primary key.
    pub references: String,
}

/// A table: its columns, a single-column primary key, its foreign keys, and (in a
/// snapshot from [`crate::Backend::table`]) its rows in table order.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Its name.
    pub name: String,
    /// Its columns, in order.
    pub columns: Vec<Column>,
    /// The primary-key column; an integer key is assigned on insert when left out.
    pub primary_key: String,
    /// References to other tables.
    pub foreign_keys: Vec<ForeignKey>,
    /// The rows, in table order; empty when only the schema was read.
    pub rows: Vec<Row>,
}

impl Table {
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

    /// The type of a column, `text` for one the table lacks.
    #[must_use]
    pub fn type_of(&self, name: &str) -> ColumnType {
        self.columns
            .iter()
            .find(|c| c.name == name)
            .map_or(ColumnType::Text, |c| c.ty)
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

    /// Checks every value of a row change against its column.
    ///
    /// # Errors
    /// As [`Table::column`] and [`Table::check_value`].
    pub fn check_values(&self, values: &Row) -> Result<(), Error> {
        for (name, value) in values {
            self.check_value(self.column(name)?, value)?;
        }
        Ok(())
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

    /// A key in the form SQLite compares it with the primary-key column.
    #[must_use]
    pub fn key_sql(&self, key: &Value) -> Sql {
        self.type_of(&self.primary_key).to_sql(key)
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
