//! The tools that stage row changes: stageItem, bulkEdit and findReplace.

use app_catalog as cat;
use app_catalog::Tool;
use regex::{NoExpand, RegexBuilder};
use rusqlite::{Connection, params_from_iter};
use serde_json::{Value, json};

use crate::Error;
use crate::change::Change;
use crate::filter::Filter;
use crate::schema::{self, quote};
use crate::staging::{pending, stage};
use crate::types::{Row, Table};

pub(crate) fn stage_item(conn: &mut Connection, args: cat::StageItemArgs) -> Result<Value, Error> {
    use cat::StageItemOperation as O;
    let tool = Tool::StageItem;
    let t = schema::load(conn, &args.table)?;
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
            if values
                .get(&t.primary_key)
                .is_some_and(|v| t.key(v).ok().as_ref() != Some(&key))
            {
                return Err(Error::invalid(
                    tool,
                    format!(
                        "an update cannot change the primary key `{}`; stage a delete and an \
                         insert instead",
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
                    "{} needs values: an object of column name to value (describeTable lists \
                     the columns)",
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
    let ids = stage(conn, &[(args.table, change)], args.note.as_deref())?;
    pending(conn, &ids)
}

/// The keys of the rows matching a checked filter, in table order.
fn matching_keys(conn: &Connection, t: &Table, filter: &Filter) -> Result<Vec<Value>, Error> {
    let mut params = Vec::new();
    let condition = filter.to_sql(t, &mut params);
    let sql = format!(
        "SELECT {} FROM {} WHERE {condition} ORDER BY rowid",
        quote(&t.primary_key),
        quote(&t.name)
    );
    let ty = t.type_of(&t.primary_key);
    let keys = conn
        .prepare(&sql)?
        .query_map(params_from_iter(params), |r| Ok(ty.to_json(r.get_ref(0)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(keys)
}

pub(crate) fn bulk_edit(conn: &mut Connection, args: cat::BulkEditArgs) -> Result<Value, Error> {
    let tool = Tool::BulkEdit;
    let t = schema::load(conn, &args.table)?;
    if args.filter.conditions.is_empty() {
        return Err(Error::invalid(
            tool,
            "filter.conditions is empty; bulkEdit needs at least one condition (to change \
             every row, use a condition that every row meets, e.g. notNull on the primary key)",
        ));
    }
    let filter = Filter::from(args.filter);
    filter.check(&t, tool)?;
    let set = match (args.operation, args.set) {
        (cat::BulkEditOperation::Update, Some(set)) if !set.is_empty() => {
            if set.contains_key(&t.primary_key) {
                return Err(Error::invalid(
                    tool,
                    format!("set cannot change the primary key `{}`", t.primary_key),
                ));
            }
            t.check_values(&set)?;
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
    let keys = matching_keys(conn, &t, &filter)?;
    let matched = keys.len();
    if matched > usize::try_from(args.max_rows).unwrap_or(usize::MAX) {
        return Ok(json!({ "matched": matched, "staged": 0 }));
    }
    let changes: Vec<(String, Change)> = keys
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
    let ids = stage(conn, &changes, args.note.as_deref())?;
    Ok(json!({ "matched": matched, "staged": ids.len() }))
}

pub(crate) fn find_replace(
    conn: &mut Connection,
    args: cat::FindReplaceArgs,
) -> Result<Value, Error> {
    use cat::FindReplaceMatch as M;
    let tool = Tool::FindReplace;
    let t = schema::load(conn, &args.table)?;
    if args.columns.is_empty() {
        return Err(Error::invalid(
            tool,
            "columns is empty; name the text columns to search in",
        ));
    }
    for name in &args.columns {
        let c = t.column(name)?;
        if !c.ty.is_textual() {
            return Err(Error::invalid(
                tool,
                format!(
                    "`{name}` is a {} column and findReplace edits text; set its values with \
                     bulkEdit instead",
                    c.ty.as_str()
                ),
            ));
        }
    }
    if args.find.is_empty() {
        return Err(Error::invalid(tool, "find is empty; give the text to find"));
    }
    let pattern = match args.r#match {
        M::Substring => regex::escape(&args.find),
        M::WholeCell => format!("^{}$", regex::escape(&args.find)),
        M::Regex => args.find.clone(),
    };
    let regex = RegexBuilder::new(&pattern)
        .case_insensitive(!args.case_sensitive)
        .build()
        .map_err(|e| {
            Error::invalid(
                tool,
                format!(
                    "find is not a valid regular expression ({e}); fix it, or use match = \
                     substring to find the text literally"
                ),
            )
        })?;
    let filter = args.filter.map(Filter::from).unwrap_or_default();
    filter.check(&t, tool)?;
    let mut params = Vec::new();
    let condition = filter.to_sql(&t, &mut params);
    let list: Vec<String> = args.columns.iter().map(|c| quote(c)).collect();
    let sql = format!(
        "SELECT {}, {} FROM {} WHERE {condition} ORDER BY rowid",
        quote(&t.primary_key),
        list.join(", "),
        quote(&t.name)
    );
    let key_type = t.type_of(&t.primary_key);
    let rows: Vec<(Value, Vec<Option<String>>)> = conn
        .prepare(&sql)?
        .query_map(params_from_iter(params), |r| {
            let key = key_type.to_json(r.get_ref(0)?);
            let cells = (1..=args.columns.len())
                .map(|i| r.get::<_, Option<String>>(i))
                .collect::<Result<Vec<_>, _>>()?;
            Ok((key, cells))
        })?
        .collect::<Result<_, _>>()?;
    let mut matched = 0;
    let mut changes = Vec::new();
    for (key, cells) in rows {
        let mut values = Row::new();
        for (column, cell) in args.columns.iter().zip(cells) {
            let Some(text) = cell.filter(|c| regex.is_match(c)) else {
                continue;
            };
            matched += 1;
            let new = match args.r#match {
                M::Regex => regex.replace_all(&text, args.replace.as_str()),
                M::Substring | M::WholeCell => regex.replace_all(&text, NoExpand(&args.replace)),
            };
            if new != text {
                values.insert(column.clone(), Value::String(new.into_owned()));
            }
        }
        if !values.is_empty() {
            changes.push((args.table.clone(), Change::Update { key, values }));
        }
    }
    let note = format!("replace {:?} with {:?}", args.find, args.replace);
    let staged = if changes.is_empty() {
        0
    } else {
        stage(conn, &changes, Some(&note))?.len()
    };
    Ok(json!({ "matched": matched, "staged": staged }))
}
