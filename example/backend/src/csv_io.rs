//! importCsv and exportCsv through the `csv` crate. An import is staged like any other
//! change (a createTable first when asked for); an export writes the file's bytes for
//! the app's save dialog and returns the text.

use std::collections::HashSet;

use app_catalog as cat;
use app_catalog::Tool;
use rusqlite::{Connection, params_from_iter};
use serde_json::{Map, Value, json};

use crate::change::{Change, row};
use crate::ddl::{check_name, new_table};
use crate::filter::Filter;
use crate::schema::{self, quote};
use crate::staging::stage;
use crate::time::{parse_date, parse_instant};
use crate::types::{Column, ColumnType, Row, Table};
use crate::{Error, attachments, reads};

/// Warnings listed in an import's result; the rest are counted.
const MAX_WARNINGS: usize = 20;

/// The export text returned in the result up to this size; larger files go only to the
/// save dialog, so a big export does not flood the conversation.
const MAX_INLINE_EXPORT: usize = 64 * 1024;

/// The separator a file uses: of `,` `;` tab `|`, the one its first line has most of.
fn detect(text: &str) -> u8 {
    let first = text.lines().next().unwrap_or_default();
    [b',', b';', b'\t', b'|']
        .into_iter()
        .max_by_key(|d| first.bytes().filter(|b| b == d).count())
        .filter(|d| first.bytes().any(|b| b == *d))
        .unwrap_or(b',')
}

fn records(text: &str, delimiter: u8) -> Result<Vec<(u64, Vec<String>)>, Error> {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(false)
        .from_reader(text.as_bytes());
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, csv::Position::line);
            let message = match e.kind() {
                csv::ErrorKind::UnequalLengths {
                    expected_len, len, ..
                } => format!(
                    "it has {len} fields where the lines before have {expected_len} (a stray \
                     separator, or a quote left open)"
                ),
                _ => e.to_string(),
            };
            Error::BadCsv { line, message }
        })?;
        let line = record.position().map_or(0, csv::Position::line);
        out.push((line, record.iter().map(str::to_owned).collect()));
    }
    Ok(out)
}

/// A cell read as a value of `ty`; `None` when it does not fit. An empty cell is null.
fn parse_cell(cell: &str, ty: ColumnType) -> Option<Value> {
    let cell = cell.trim();
    if cell.is_empty() {
        return Some(Value::Null);
    }
    match ty {
        ColumnType::Text => Some(Value::from(cell)),
        ColumnType::Integer => cell.parse::<i64>().ok().map(Value::from),
        // A decimal comma, as spreadsheets in many locales write it, reads as a point.
        ColumnType::Real => cell
            .parse::<f64>()
            .ok()
            .or_else(|| {
                (!cell.contains('.'))
                    .then(|| cell.replace(',', ".").parse().ok())
                    .flatten()
            })
            .filter(|f: &f64| f.is_finite())
            .map(Value::from),
        ColumnType::Boolean => match cell.to_lowercase().as_str() {
            "true" | "yes" | "y" | "1" => Some(Value::Bool(true)),
            "false" | "no" | "n" | "0" => Some(Value::Bool(false)),
            _ => None,
        },
        ColumnType::Date => parse_date(cell).map(|_| Value::from(cell)),
        ColumnType::Datetime => parse_instant(cell).map(|_| Value::from(cell)),
        ColumnType::Json => Some(serde_json::from_str(cell).unwrap_or_else(|_| Value::from(cell))),
    }
}

/// The narrowest type every non-empty cell of a column fits.
fn infer(cells: &[&str]) -> ColumnType {
    let filled: Vec<&str> = cells
        .iter()
        .map(|c| c.trim())
        .filter(|c| !c.is_empty())
        .collect();
    [
        ColumnType::Integer,
        ColumnType::Real,
        ColumnType::Boolean,
        ColumnType::Date,
        ColumnType::Datetime,
    ]
    .into_iter()
    .find(|ty| !filled.is_empty() && filled.iter().all(|c| parse_cell(c, *ty).is_some()))
    // A column of 0s and 1s is more likely a count than a flag.
    .filter(|ty| *ty != ColumnType::Boolean || filled.iter().any(|c| c.parse::<i64>().is_err()))
    .unwrap_or(ColumnType::Text)
}

/// An import in progress: what is staged so far, and what was skipped and why.
struct Import {
    changes: Vec<(String, Change)>,
    staged: usize,
    skipped: usize,
    warnings: Vec<String>,
    /// Keys met so far in the file, so a key twice in it is a conflict too.
    keys_seen: HashSet<String>,
    /// Whether the table is created by this import (no committed rows to conflict with).
    create: bool,
}

impl Import {
    fn warn(&mut self, warning: String) {
        self.warnings.push(warning);
    }
}

/// The columns of a table to be created from the file: names from the header (renamed
/// by columnMap), types inferred, an `id` key when the file has a unique `id` column.
fn table_from_file(
    name: &str,
    headers: &[String],
    rows: &[(u64, Vec<String>)],
) -> Result<Table, Error> {
    let tool = Tool::ImportCsv;
    check_name(tool, "table", name)?;
    let mut columns = Vec::new();
    let mut keys = Vec::new();
    for (i, header) in headers.iter().enumerate() {
        let cells: Vec<&str> = rows.iter().map(|(_, r)| r[i].as_str()).collect();
        let ty = infer(&cells);
        let nullable = cells.iter().any(|c| c.trim().is_empty());
        let distinct: HashSet<&str> = cells.iter().map(|c| c.trim()).collect();
        if header.eq_ignore_ascii_case("id") && !nullable && distinct.len() == cells.len() {
            keys.push(header.clone());
        }
        columns.push(Column::new(header, ty, nullable));
    }
    let (columns, primary_key) = new_table(tool, columns, &keys)?;
    Ok(Table {
        name: name.to_owned(),
        columns,
        primary_key,
        foreign_keys: Vec::new(),
        rows: Vec::new(),
    })
}

/// The header's names, renamed by columnMap.
fn header_names(header: Vec<String>, map: &Map<String, Value>) -> Result<Vec<String>, Error> {
    let mut names = Vec::new();
    for h in header {
        let h = h.trim().to_owned();
        let target = match map.get(&h) {
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                return Err(Error::invalid(
                    Tool::ImportCsv,
                    format!(
                        "columnMap maps `{h}` to {other}; map each header to a column name (a string)"
                    ),
                ));
            }
            None => h,
        };
        if target.is_empty() {
            return Err(Error::BadCsv {
                line: 1,
                message: "a column has no name in the header".to_owned(),
            });
        }
        names.push(target);
    }
    Ok(names)
}

/// The table the rows go to, and whether the import creates it.
fn target_table(
    conn: &Connection,
    args: &cat::ImportCsvArgs,
    headers: &[String],
    rows: &[(u64, Vec<String>)],
) -> Result<(Table, bool), Error> {
    if !args.create_table {
        return Ok((schema::load(conn, &args.table)?, false));
    }
    let staged = conn
        .prepare_cached("SELECT 1 FROM _staged WHERE tbl = ?1")?
        .exists([&args.table])?;
    if schema::exists(conn, &args.table)? || staged {
        return Err(Error::invalid(
            Tool::ImportCsv,
            format!(
                "a table `{}` already exists or is staged; pass createTable = false to add the \
                 rows to it, or pick another name",
                args.table
            ),
        ));
    }
    let generated: Vec<String>;
    let headers = if args.has_header {
        headers
    } else {
        generated = (1..=rows[0].1.len())
            .map(|i| format!("column_{i}"))
            .collect();
        &generated
    };
    Ok((table_from_file(&args.table, headers, rows)?, true))
}

/// The column each field of a record goes to; `None` for a field that is skipped.
fn targets<'t>(
    t: &'t Table,
    headers: Option<&[String]>,
    width: usize,
    warnings: &mut Vec<String>,
) -> Result<Vec<Option<&'t Column>>, Error> {
    let tool = Tool::ImportCsv;
    let targets: Vec<Option<&Column>> = if let Some(headers) = headers {
        headers
            .iter()
            .map(|h| {
                let found = t.column(h).ok();
                if found.is_none() {
                    warnings.push(format!(
                        "header `{h}` matches no column of `{}` and was skipped; map it with \
                         columnMap",
                        t.name
                    ));
                }
                found
            })
            .collect()
    } else {
        // Without a header, fields go to the columns in order; a file one field short
        // leaves out the integer key, which the database assigns.
        let auto = t.columns.len() == width + 1
            && t.type_of(&t.primary_key) == ColumnType::Integer
            && t.columns[0].name == t.primary_key;
        let columns: Vec<&Column> = t.columns.iter().skip(usize::from(auto)).collect();
        if columns.len() != width {
            return Err(Error::invalid(
                tool,
                format!(
                    "the file has {width} fields a line and no header, and `{}` has {} columns; \
                     add a header naming the columns",
                    t.name,
                    t.columns.len()
                ),
            ));
        }
        columns.into_iter().map(Some).collect()
    };
    if targets.iter().all(Option::is_none) {
        return Err(Error::invalid(
            tool,
            format!(
                "no header matches a column of `{}`; map the headers with columnMap (describeTable \
                 lists the columns)",
                t.name
            ),
        ));
    }
    Ok(targets)
}

pub(crate) fn import(conn: &mut Connection, args: &cat::ImportCsvArgs) -> Result<Value, Error> {
    use cat::ImportCsvDelimiter as D;
    let file = attachments::get(conn, &args.attachment_id)?;
    let delimiter = match args.delimiter {
        D::Auto => detect(&file.text),
        D::Comma => b',',
        D::Semicolon => b';',
        D::Tab => b'\t',
        D::Pipe => b'|',
    };
    let mut rows = records(file.text.trim_start_matches('\u{feff}'), delimiter)?;
    if rows.is_empty() || (args.has_header && rows.len() == 1) {
        return Err(Error::BadCsv {
            line: 1,
            message: "the file has no data rows".to_owned(),
        });
    }
    let headers = if args.has_header {
        let (_, header) = rows.remove(0);
        Some(header_names(
            header,
            &args.column_map.clone().unwrap_or_default(),
        )?)
    } else {
        None
    };
    let (t, create) = target_table(conn, args, headers.as_deref().unwrap_or_default(), &rows)?;
    let mut import = Import {
        changes: Vec::new(),
        staged: 0,
        skipped: 0,
        warnings: Vec::new(),
        keys_seen: HashSet::new(),
        create,
    };
    let targets = targets(
        &t,
        headers.as_deref(),
        rows[0].1.len(),
        &mut import.warnings,
    )?;
    if create {
        import.changes.push((
            t.name.clone(),
            Change::CreateTable {
                columns: t.columns.clone(),
                primary_key: t.primary_key.clone(),
            },
        ));
    }
    for (line, fields) in rows {
        import.record(conn, args, &t, &targets, line, &fields)?;
    }
    let note = format!("import of {}", file.file_name);
    if !import.changes.is_empty() {
        stage(conn, &import.changes, Some(&note))?;
    }
    let more = import.warnings.len().saturating_sub(MAX_WARNINGS);
    import.warnings.truncate(MAX_WARNINGS);
    if more > 0 {
        import.warnings.push(format!("... and {more} more"));
    }
    Ok(json!({ "staged": import.staged, "skipped": import.skipped, "warnings": import.warnings }))
}

impl Import {
    /// Stages one record, or counts it skipped with a warning.
    fn record(
        &mut self,
        conn: &Connection,
        args: &cat::ImportCsvArgs,
        t: &Table,
        targets: &[Option<&Column>],
        line: u64,
        fields: &[String],
    ) -> Result<(), Error> {
        use cat::ImportCsvOnConflict as C;
        let mut values = Row::new();
        for (field, column) in fields.iter().zip(targets) {
            let Some(column) = column else { continue };
            match parse_cell(field, column.ty) {
                Some(Value::Null) => {}
                Some(value) => {
                    values.insert(column.name.clone(), value);
                }
                None => {
                    self.skipped += 1;
                    self.warn(format!(
                        "line {line}: `{}` = {field:?} is not a {} value; row skipped",
                        column.name,
                        column.ty.as_str()
                    ));
                    return Ok(());
                }
            }
        }
        let assigned = |c: &Column| c.name == t.primary_key && c.ty == ColumnType::Integer;
        let missing = t.columns.iter().find(|c| {
            !c.nullable && c.default.is_none() && !assigned(c) && !values.contains_key(&c.name)
        });
        if let Some(c) = missing {
            self.skipped += 1;
            self.warn(format!(
                "line {line}: `{}` is empty and must not be; row skipped",
                c.name
            ));
            return Ok(());
        }
        let key = values.get(&t.primary_key).cloned();
        let conflict = match &key {
            Some(key) => {
                !self.keys_seen.insert(key.to_string())
                    || (!self.create && row(conn, t, key)?.is_some())
            }
            None => false,
        };
        let change = match (conflict, args.on_conflict, key) {
            (false, _, _) | (true, _, None) => Change::Insert { values },
            (true, C::Error, Some(key)) => {
                return Err(Error::invalid(
                    Tool::ImportCsv,
                    format!(
                        "line {line}: `{}` already has a row with key {key}; nothing was staged. \
                         Pass onConflict = skip to leave such rows out, or update to stage them \
                         as updates",
                        t.name
                    ),
                ));
            }
            (true, C::Skip, Some(key)) => {
                self.skipped += 1;
                self.warn(format!("line {line}: key {key} exists; row skipped"));
                return Ok(());
            }
            (true, C::Update, Some(key)) => {
                values.remove(&t.primary_key);
                Change::Update { key, values }
            }
        };
        self.changes.push((t.name.clone(), change));
        self.staged += 1;
        Ok(())
    }
}

/// A cell as CSV text: empty for null, JSON text for arrays and objects.
fn csv_cell(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// What an export produced, for the app's save dialog.
pub(crate) struct Export {
    pub file_name: String,
    pub bytes: Vec<u8>,
    pub result: Value,
}

pub(crate) fn export(conn: &Connection, args: &cat::ExportCsvArgs) -> Result<Export, Error> {
    use cat::ExportCsvDelimiter as D;
    use cat::ExportCsvEncoding as E;
    let tool = Tool::ExportCsv;
    let t = schema::load(conn, &args.table)?;
    let columns = reads::columns(&t, tool, args.columns.as_deref())?;
    let filter = args.filter.clone().map(Filter::from).unwrap_or_default();
    filter.check(&t, tool)?;
    let mut params = Vec::new();
    let condition = filter.to_sql(&t, &mut params);
    let list: Vec<String> = columns.iter().map(|c| quote(c)).collect();
    let sql = format!(
        "SELECT {} FROM {} WHERE {condition} ORDER BY rowid",
        list.join(", "),
        quote(&t.name)
    );
    let types: Vec<ColumnType> = columns.iter().map(|c| t.type_of(c)).collect();
    let delimiter = match args.delimiter {
        D::Comma => b',',
        D::Semicolon => b';',
        D::Tab => b'\t',
        D::Pipe => b'|',
    };
    let mut writer = csv::WriterBuilder::new()
        .delimiter(delimiter)
        .from_writer(Vec::new());
    let failed = |e: csv::Error| Error::Database {
        message: format!("the CSV could not be written ({e})"),
    };
    if args.include_header {
        writer.write_record(&columns).map_err(failed)?;
    }
    let mut stmt = conn.prepare(&sql)?;
    let mut rows = stmt.query(params_from_iter(params))?;
    let mut count = 0_usize;
    while let Some(r) = rows.next()? {
        let mut record = Vec::with_capacity(columns.len());
        for (i, ty) in types.iter().enumerate() {
            record.push(csv_cell(&ty.to_json(r.get_ref(i)?)));
        }
        writer.write_record(&record).map_err(failed)?;
        count += 1;
    }
    let text = String::from_utf8(
        writer
            .into_inner()
            .map_err(|e| failed(e.into_error().into()))?,
    )
    .map_err(|e| Error::Database {
        message: format!("the CSV is not text ({e})"),
    })?;
    let bytes = match args.encoding {
        E::Utf8 => text.clone().into_bytes(),
        E::Utf8Bom => [&[0xEF, 0xBB, 0xBF][..], text.as_bytes()].concat(),
        E::Latin1 => latin1(&text)?,
    };
    let file_name = format!("{}.csv", t.name);
    let mut result = Map::new();
    result.insert("fileName".into(), json!(file_name));
    result.insert("rowCount".into(), json!(count));
    result.insert("sizeBytes".into(), json!(bytes.len()));
    if text.len() <= MAX_INLINE_EXPORT {
        result.insert("text".into(), json!(text));
    } else {
        result.insert(
            "note".into(),
            json!("the file is too large to show here; it is in the save dialog"),
        );
    }
    Ok(Export {
        file_name,
        bytes,
        result: Value::Object(result),
    })
}

/// The text in ISO 8859-1, or an error naming the first character it lacks.
fn latin1(text: &str) -> Result<Vec<u8>, Error> {
    text.chars()
        .map(|c| {
            u8::try_from(u32::from(c)).map_err(|_| {
                Error::invalid(
                    Tool::ExportCsv,
                    format!(
                        "`{c}` has no Latin-1 form; export with encoding utf-8-bom, which older \
                         Excel versions read correctly too"
                    ),
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_separators_and_infers_types() {
        assert_eq!(detect("a;b;c\n1;2;3"), b';');
        assert_eq!(detect("a\tb\n"), b'\t');
        assert_eq!(detect("single"), b',');
        assert_eq!(infer(&["1", "2", ""]), ColumnType::Integer);
        assert_eq!(infer(&["1", "2.5"]), ColumnType::Real);
        assert_eq!(infer(&["0", "1"]), ColumnType::Integer);
        assert_eq!(infer(&["yes", "no"]), ColumnType::Boolean);
        assert_eq!(infer(&["2025-01-01", "2024-02-29"]), ColumnType::Date);
        assert_eq!(infer(&["2025-01-01", "soon"]), ColumnType::Text);
        assert_eq!(parse_cell("12,50", ColumnType::Real), Some(json!(12.5)));
        assert_eq!(parse_cell("x", ColumnType::Integer), None);
    }
}
