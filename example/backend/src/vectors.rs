//! `vectorSearch`: nearest neighbours by cosine similarity over vectors stored in the
//! same database as the rows (`_vectors`, one per row and embedded column), kept up to
//! date in the transaction of every commit that changes those rows.
//!
//! The search is a plain scan of a column's vectors. A vector extension (sqlite-vec)
//! would have to be loaded into SQLite through `unsafe` code, which this workspace
//! forbids, and at this app's sizes a scan is fast: 10,000 rows of 1,024 dimensions
//! are 10 million multiply-adds, a few milliseconds.
//!
//! Vectors come from an [`Embedder`]. The default, [`HashingEmbedder`], needs no model:
//! it hashes words and their three-letter pieces into 1,024 dimensions, so it finds rows
//! that share words or word stems with the query (`chairs` finds `chair`), not
//! synonyms. An app with an embedding model implements [`Embedder`] and passes it to
//! [`crate::Backend::with_embedder`]; the stored vectors of every embedded column are
//! then recomputed with it, once.

use rusqlite::{Connection, OptionalExtension};
use serde_json::{Value, json};

use app_catalog as cat;

use crate::Error;
use crate::change::{Applied, read_row};
use crate::schema::{self, quote};
use crate::types::Table;

/// Turns text into a vector. Vectors are compared by cosine similarity, so their length
/// does not matter; they should have no negative parts if scores are to stay within
/// 0 to 1, as `vectorSearch` promises.
pub trait Embedder: Send + Sync {
    /// A name for the model and its settings, stored with the vectors: when it changes,
    /// the vectors are recomputed.
    fn name(&self) -> &str;
    /// The vector of `text`.
    fn embed(&self, text: &str) -> Vec<f32>;
}

/// The embedder that needs no model: feature hashing of words (but a few stop words) and
/// of the three-letter pieces of each word, into [`HashingEmbedder::DIMENSIONS`]
/// dimensions.
#[derive(Clone, Copy, Debug, Default)]
pub struct HashingEmbedder;

impl HashingEmbedder {
    /// The vectors' length.
    pub const DIMENSIONS: usize = 1024;
}

/// Words that say nothing about what a text is about; they would only add noise.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it", "of", "on",
    "or", "that", "the", "this", "to", "with",
];

/// FNV-1a: a stable hash, so stored vectors stay valid across builds and platforms.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Embedder for HashingEmbedder {
    fn name(&self) -> &'static str {
        "hashing-words-trigrams-1024"
    }

    fn embed(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0.0_f32; Self::DIMENSIONS];
        let mut add = |feature: &str, weight: f32| {
            let slot = usize::try_from(fnv1a(feature.as_bytes()) % Self::DIMENSIONS as u64)
                .unwrap_or_default();
            v[slot] += weight;
        };
        let lower = text.to_lowercase();
        for word in lower
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty() && !STOP_WORDS.contains(w))
        {
            add(word, 1.0);
            let padded: Vec<char> = format!("<{word}>").chars().collect();
            for piece in padded.windows(3) {
                add(&piece.iter().collect::<String>(), 0.5);
            }
        }
        v
    }
}

fn normalized(mut v: Vec<f32>) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        for x in &mut v {
            *x /= norm;
        }
    }
    v
}

fn to_blob(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn from_blob(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The columns with embeddings, as `(table, column)`.
pub(crate) fn embedded(conn: &Connection) -> Result<Vec<(String, String)>, Error> {
    Ok(conn
        .prepare_cached("SELECT tbl, col FROM _embedded ORDER BY tbl, col")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?)
}

fn store_row(
    conn: &Connection,
    t: &Table,
    column: &str,
    row: &crate::Row,
    embedder: &dyn Embedder,
) -> Result<(), Error> {
    let key = row.get(&t.primary_key).unwrap_or(&Value::Null).to_string();
    conn.prepare_cached("DELETE FROM _vectors WHERE tbl = ?1 AND col = ?2 AND row_key = ?3")?
        .execute([&t.name, column, &key])?;
    if let Some(text) = row.get(column).and_then(Value::as_str) {
        let vector = normalized(embedder.embed(text));
        conn.prepare_cached(
            "INSERT INTO _vectors (tbl, col, row_key, vector) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(rusqlite::params![t.name, column, key, to_blob(&vector)])?;
    }
    Ok(())
}

/// Marks `table.column` as embedded and computes the vectors of its rows, in the
/// caller's transaction.
pub(crate) fn enable(
    conn: &Connection,
    table: &str,
    column: &str,
    embedder: &dyn Embedder,
) -> Result<usize, Error> {
    let t = schema::load(conn, table)?;
    if !t.column(column)?.ty.is_textual() {
        return Err(Error::invalid(
            app_catalog::Tool::VectorSearch,
            format!("`{table}.{column}` is not a text column, so it cannot have embeddings"),
        ));
    }
    conn.execute(
        "DELETE FROM _vectors WHERE tbl = ?1 AND col = ?2",
        [table, column],
    )?;
    conn.execute(
        "INSERT OR REPLACE INTO _embedded (tbl, col, model) VALUES (?1, ?2, ?3)",
        [table, column, embedder.name()],
    )?;
    let mut stmt = conn.prepare(&format!("SELECT * FROM {} ORDER BY rowid", quote(table)))?;
    let rows = stmt
        .query_map([], |r| Ok(read_row(&t, r)))?
        .collect::<Result<Vec<_>, _>>()?;
    for row in &rows {
        store_row(conn, &t, column, row, embedder)?;
    }
    Ok(rows.len())
}

/// Recomputes every embedded column whose vectors another embedder made (or none yet,
/// as after seeding).
pub(crate) fn refresh(conn: &mut Connection, embedder: &dyn Embedder) -> Result<(), Error> {
    let stale: Vec<(String, String)> = conn
        .prepare("SELECT tbl, col FROM _embedded WHERE model <> ?1")?
        .query_map([embedder.name()], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    if stale.is_empty() {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    for (table, column) in stale {
        if schema::exists(&tx, &table)? {
            enable(&tx, &table, &column, embedder)?;
        } else {
            tx.execute("DELETE FROM _embedded WHERE tbl = ?1", [&table])?;
        }
    }
    tx.commit()?;
    Ok(())
}

/// Keeps the vectors of committed rows current, in the commit's transaction.
pub(crate) fn follow(
    conn: &Connection,
    applied: &[Applied],
    embedder: &dyn Embedder,
) -> Result<(), Error> {
    let columns = embedded(conn)?;
    for a in applied {
        let mine: Vec<&String> = columns
            .iter()
            .filter(|(t, _)| *t == a.table)
            .map(|(_, c)| c)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let t = schema::load(conn, &a.table)?;
        for column in mine {
            if let Some(before) = &a.before {
                let key = before
                    .get(&t.primary_key)
                    .unwrap_or(&Value::Null)
                    .to_string();
                conn.prepare_cached(
                    "DELETE FROM _vectors WHERE tbl = ?1 AND col = ?2 AND row_key = ?3",
                )?
                .execute([&t.name, column, &key])?;
            }
            if let Some(after) = &a.after {
                store_row(conn, &t, column, after, embedder)?;
            }
        }
    }
    Ok(())
}

/// Forgets the vectors of a dropped table or column (`column` `None`: every column).
pub(crate) fn forget(conn: &Connection, table: &str, column: Option<&str>) -> Result<(), Error> {
    for sql in [
        "DELETE FROM _vectors WHERE tbl = ?1 AND (?2 IS NULL OR col = ?2)",
        "DELETE FROM _embedded WHERE tbl = ?1 AND (?2 IS NULL OR col = ?2)",
    ] {
        conn.execute(sql, rusqlite::params![table, column])?;
    }
    Ok(())
}

pub(crate) fn search(
    conn: &Connection,
    args: &cat::VectorSearchArgs,
    embedder: &dyn Embedder,
) -> Result<Value, Error> {
    let t = schema::load(conn, &args.table)?;
    t.column(&args.column)?;
    let model: Option<String> = conn
        .prepare_cached("SELECT model FROM _embedded WHERE tbl = ?1 AND col = ?2")?
        .query_row([&args.table, &args.column], |r| r.get(0))
        .optional()?;
    if model.is_none() {
        return Err(Error::NoEmbeddings {
            column: format!("{}.{}", args.table, args.column),
            available: embedded(conn)?
                .into_iter()
                .map(|(t, c)| format!("{t}.{c}"))
                .collect(),
        });
    }
    let query = normalized(embedder.embed(&args.query));
    let mut stmt =
        conn.prepare_cached("SELECT row_key, vector FROM _vectors WHERE tbl = ?1 AND col = ?2")?;
    let mut scored: Vec<(f64, String)> = Vec::new();
    let mut rows = stmt.query([&args.table, &args.column])?;
    while let Some(r) = rows.next()? {
        let vector = from_blob(&r.get::<_, Vec<u8>>(1)?);
        let dot: f32 = vector.iter().zip(&query).map(|(a, b)| a * b).sum();
        let score = f64::from(dot).clamp(0.0, 1.0);
        if score >= args.min_score && score > 0.0 {
            scored.push((score, r.get(0)?));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    scored.truncate(usize::try_from(args.limit).unwrap_or(usize::MAX));
    let mut out = Vec::new();
    for (score, key) in scored {
        let key: Value = serde_json::from_str(&key).unwrap_or(Value::Null);
        if let Some(row) = crate::change::row(conn, &t, &key)? {
            // Three decimals: more would only show the float's noise.
            let score = (score * 1000.0).round() / 1000.0;
            out.push(json!({ "score": score, "row": row }));
        }
    }
    Ok(Value::Array(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_words_and_stems_score_higher() {
        let e = HashingEmbedder;
        let q = normalized(e.embed("chairs"));
        let near = normalized(e.embed("Solid oak dining chair"));
        let far = normalized(e.embed("Brass desk lamp"));
        let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
        let (near, far) = (dot(&q, &near), dot(&q, &far));
        assert!(near > 0.15 && far < 0.05, "{near} {far}");
        let v = normalized(e.embed("round trip"));
        assert_eq!(from_blob(&to_blob(&v)), v);
    }
}
