//! Files the user attached to the conversation, kept in `_attachments` so an import
//! can still read them after a restart.

use app_catalog as cat;
use rusqlite::{Connection, OptionalExtension};
use serde_json::{Value, json};

use crate::Error;

/// A stored attachment.
pub(crate) struct Attachment {
    pub file_name: String,
    pub media_type: String,
    pub text: String,
}

pub(crate) fn attach(
    conn: &Connection,
    file_name: &str,
    media_type: &str,
    text: &str,
) -> Result<String, Error> {
    conn.execute(
        "INSERT INTO _attachments (file_name, media_type, text) VALUES (?1, ?2, ?3)",
        [file_name, media_type, text],
    )?;
    Ok(format!("a{}", conn.last_insert_rowid()))
}

pub(crate) fn get(conn: &Connection, id: &str) -> Result<Attachment, Error> {
    let missing = || Error::NoSuchAttachment { id: id.to_owned() };
    let row: i64 = id
        .strip_prefix('a')
        .and_then(|n| n.parse().ok())
        .ok_or_else(missing)?;
    conn.prepare_cached("SELECT file_name, media_type, text FROM _attachments WHERE id = ?1")?
        .query_row([row], |r| {
            Ok(Attachment {
                file_name: r.get(0)?,
                media_type: r.get(1)?,
                text: r.get(2)?,
            })
        })
        .optional()?
        .ok_or_else(missing)
}

pub(crate) fn list(conn: &Connection) -> Result<Value, Error> {
    let rows = conn
        .prepare_cached("SELECT id, file_name, media_type, length(CAST(text AS BLOB)) FROM _attachments ORDER BY id")?
        .query_map([], |r| {
            Ok(json!({
                "id": format!("a{}", r.get::<_, i64>(0)?),
                "fileName": r.get::<_, String>(1)?,
                "mediaType": r.get::<_, String>(2)?,
                "sizeBytes": r.get::<_, i64>(3)?,
            }))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Value::Array(rows))
}

pub(crate) fn read(conn: &Connection, args: &cat::ReadAttachmentArgs) -> Result<Value, Error> {
    let a = get(conn, &args.attachment_id)?;
    let offset = usize::try_from(args.offset).unwrap_or(0);
    let max = usize::try_from(args.max_chars).unwrap_or(0);
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
