//! The filter shape `queryRows`, `bulkEdit`, `exportCsv`, `aggregate` and `findReplace`
//! share, checked against a table and turned into an SQL `WHERE` clause with its
//! parameters (values are always bound, never pasted into the SQL).

use app_catalog as cat;
use app_catalog::Tool;
use rusqlite::types::Value as Sql;
use serde_json::Value;

use crate::Error;
use crate::schema::quote;
use crate::types::{ColumnType, Table};

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

/// Conditions joined by AND (`any == false`) or OR.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Filter {
    /// OR instead of AND.
    pub any: bool,
    /// The conditions; none matches every row.
    pub conditions: Vec<Condition>,
}

/// The generated crate has one filter type per tool that takes a filter (same shape);
/// this turns each into the one [`Filter`]. The matches on the op enums are
/// exhaustive, so a new op in `catalog.toml` fails here.
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
filter_from!(
    ExportCsvFilter,
    ExportCsvFilterMatch,
    ExportCsvFilterConditionsItemOp
);
filter_from!(
    FindReplaceFilter,
    FindReplaceFilterMatch,
    FindReplaceFilterConditionsItemOp
);

/// Whether a filter value can be compared with a column's values.
fn fits(ty: ColumnType, value: &Value) -> bool {
    match ty {
        ColumnType::Integer | ColumnType::Real => value.is_number(),
        ColumnType::Text | ColumnType::Date | ColumnType::Datetime => value.is_string(),
        ColumnType::Boolean => value.is_boolean(),
        ColumnType::Json => true,
    }
}

impl Filter {
    /// Checks the filter against a table's columns before it runs.
    ///
    /// # Errors
    /// [`Error::NoSuchColumn`], or [`Error::InvalidArgument`] naming the condition
    /// that takes no value, lacks one, or compares with a value of the wrong kind.
    pub fn check(&self, table: &Table, tool: Tool) -> Result<(), Error> {
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

    /// The `WHERE` clause (without the keyword; `1` for no conditions) and its
    /// parameters, appended to `params`. The filter has been checked.
    pub fn to_sql(&self, table: &Table, params: &mut Vec<Sql>) -> String {
        if self.conditions.is_empty() {
            return "1".to_owned();
        }
        let parts: Vec<String> = self
            .conditions
            .iter()
            .map(|c| condition_sql(c, table.type_of(&c.column), params))
            .collect();
        let joiner = if self.any { " OR " } else { " AND " };
        format!("({})", parts.join(joiner))
    }
}

/// The expression a column is compared by: date-times as instants, so offsets count.
pub(crate) fn compared(column: &str, ty: ColumnType) -> String {
    if ty == ColumnType::Datetime {
        format!("app_instant({})", quote(column))
    } else {
        quote(column)
    }
}

fn condition_sql(c: &Condition, ty: ColumnType, params: &mut Vec<Sql>) -> String {
    let value = c.value.clone().unwrap_or(Value::Null);
    let col = compared(&c.column, ty);
    let mut bind = |v: &Value| {
        params.push(ty.to_sql(v));
        if ty == ColumnType::Datetime {
            format!("app_instant(?{})", params.len())
        } else {
            format!("?{}", params.len())
        }
    };
    match c.op {
        Op::IsNull => format!("{col} IS NULL"),
        Op::NotNull => format!("{col} IS NOT NULL"),
        // IS and IS NOT: `eq null` finds empty cells, and `ne x` keeps them.
        Op::Eq => format!("{col} IS {}", bind(&value)),
        Op::Ne => format!("{col} IS NOT {}", bind(&value)),
        Op::Lt => format!("{col} < {}", bind(&value)),
        Op::Le => format!("{col} <= {}", bind(&value)),
        Op::Gt => format!("{col} > {}", bind(&value)),
        Op::Ge => format!("{col} >= {}", bind(&value)),
        Op::Contains | Op::StartsWith => {
            let folded = Value::String(value.as_str().unwrap_or_default().to_lowercase());
            params.push(Sql::from(folded.as_str().unwrap_or_default().to_owned()));
            let at = format!("instr(app_fold({}), ?{})", quote(&c.column), params.len());
            if c.op == Op::Contains {
                format!("{at} > 0")
            } else {
                format!("{at} = 1")
            }
        }
        Op::In => {
            let items = value.as_array().cloned().unwrap_or_default();
            let null = items.iter().any(Value::is_null);
            let listed: Vec<String> = items
                .iter()
                .filter(|v| !v.is_null())
                .map(&mut bind)
                .collect();
            let mut sql = if listed.is_empty() {
                "0".to_owned()
            } else {
                format!("{col} IN ({})", listed.join(", "))
            };
            if null {
                sql = format!("({sql} OR {col} IS NULL)");
            }
            sql
        }
    }
}
