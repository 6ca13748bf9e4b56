//! A large catalog read in pieces, on the threads the caller allows. The text is cut before `[[tool]]` lines into pieces
//! of about [`SIZE`] bytes; each piece is parsed and its rows read on their own, and the
//! rows are put back together in file order. A piece is parsed as a document of its own,
//! and every span of its tree is then moved to where the piece starts in the file, so the
//! rows read from it are located as reading the file whole locates them.
//!
//! Reading in pieces also bounds memory: a parsed TOML tree is about 25 times the size of
//! its text, and each piece's tree is dropped before the next one is parsed.
//!
//! The cuts stand only when they cannot change what the file means; otherwise the file is
//! read whole, as a small one is, and reports what it reports. Each piece must parse
//! without error. A piece that parses ends where no string, array or table is left open,
//! so a `[[tool]]` line after it is a header. Every piece but the first must hold nothing
//! but `[[tool]]` rows, so no key is written in two pieces. In any piece, `tool` must come
//! from `[[tool]]` headers, so no `tool = [...]` array is added to.

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::{RawCatalog, document};
use crate::diag::Errors;

/// About how many bytes of the file one piece holds: small enough that a piece's tree,
/// about 25 times its text, stays in the processor's caches while its rows are read, and
/// that the memory of one piece is reused for the next rather than taken anew.
pub(super) const SIZE: usize = 1 << 17;

/// The raw catalog and the errors found in its rows, when `source` is larger than `size`
/// and its pieces can stand for it.
pub(super) fn read(source: &str, size: usize) -> Option<(RawCatalog, Errors)> {
    let starts = cuts(source, size);
    if starts.len() < 2 {
        return None;
    }
    let ranges: Vec<Range<usize>> = starts
        .iter()
        .zip(starts.iter().skip(1).chain([&source.len()]))
        .map(|(&start, &end)| start..end)
        .collect();
    let mut read = crate::threads::map(&ranges, |range| piece(source, range)).into_iter();
    let (mut raw, mut errors) = read.next()??;
    for more in read {
        let (more, found) = more?;
        if let Some(at) = more.seen.taken.get("tool")
            && !raw.seen.taken.contains_key("tool")
        {
            raw.seen.taken.insert("tool".to_string(), at.clone());
        }
        raw.tools.extend(more.tools);
        errors.extend(found);
    }
    Some((raw, errors))
}

/// Where each piece starts: 0, then a line that is exactly `[[tool]]`, at least `size`
/// bytes after the previous start.
fn cuts(source: &str, size: usize) -> Vec<usize> {
    const HEADER: &str = "\n[[tool]]";
    let mut starts = vec![0];
    let mut from = size;
    while from < source.len() {
        // Text in most scripts has characters of several bytes: look from the next one.
        while !source.is_char_boundary(from) {
            from += 1;
        }
        let Some(at) = source[from..].find(HEADER) else {
            break;
        };
        let at = from + at + 1;
        let after = &source[at + HEADER.len() - 1..];
        if after.is_empty() || after.starts_with('\n') || after.starts_with("\r\n") {
            starts.push(at);
            from = at + size;
        } else {
            from = at;
        }
    }
    starts
}

/// One piece, read as the file reads it; `None` when it does not parse or holds what only
/// the whole file can judge.
fn piece(source: &str, range: &Range<usize>) -> Option<(RawCatalog, Errors)> {
    let text = &source[range.clone()];
    let (doc, syntax) = DeTable::parse_recoverable(text);
    if !syntax.is_empty() {
        return None;
    }
    for (key, value) in doc.get_ref() {
        let rows = key.get_ref() == "tool"
            && matches!(value.get_ref(), DeValue::Array(_))
            && text[key.span().end..].trim_start().starts_with(']');
        if !rows && (range.start > 0 || key.get_ref() == "tool") {
            return None;
        }
    }
    // The document's span, as the whole file's, starts at the file's start.
    let doc = Spanned::new(0..range.end, moved_table(doc.into_inner(), range.start));
    let mut errors = Errors::default();
    let raw = document(&doc, &mut errors);
    Some((raw, errors))
}

/// `value`, every span in it `by` bytes later.
fn moved(value: Spanned<DeValue<'_>>, by: usize) -> Spanned<DeValue<'_>> {
    let span = value.span();
    let value = match value.into_inner() {
        DeValue::Table(table) => DeValue::Table(moved_table(table, by)),
        DeValue::Array(mut items) => {
            for item in items.iter_mut() {
                let taken = std::mem::replace(item, Spanned::new(0..0, DeValue::Boolean(false)));
                *item = moved(taken, by);
            }
            DeValue::Array(items)
        }
        other => other,
    };
    Spanned::new(span.start + by..span.end + by, value)
}

fn moved_table(table: DeTable<'_>, by: usize) -> DeTable<'_> {
    table
        .into_iter()
        .map(|(key, value)| {
            let span = key.span();
            (
                Spanned::new(span.start + by..span.end + by, key.into_inner()),
                moved(value, by),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::diag::Errors;

    /// The catalog and errors that `source` gives read in pieces of `size` bytes, as text
    /// to compare; whether the pieces stood.
    fn verdict(source: &str, size: usize) -> (String, bool) {
        let mut errors = Errors::default();
        let (raw, syntax_ok) = super::super::read_in(source, size, &mut errors);
        let catalog = crate::check::lower(raw, &mut errors);
        let pieces = size < source.len() && super::read(source, size).is_some();
        (
            format!("{syntax_ok} {catalog:?} {:?}", errors.into_sorted()),
            pieces,
        )
    }

    /// Every catalog of the repository's error tests, the tables and language catalogs
    /// and BFCL's import, cut before every `[[tool]]` line (BFCL's, 1.4 MB, in pieces of
    /// 64 KiB): the same catalog, the same errors in the same order, as reading each file
    /// whole.
    #[test]
    fn pieces_read_as_the_whole_file_does() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let mut files = vec![
            format!("{root}/tests/data/tables.toml"),
            format!("{root}/tests/data/languages/ja/catalog.toml"),
            format!("{root}/tests/data/languages/de/catalog.toml"),
        ];
        for dir in std::fs::read_dir(format!("{root}/tests/ui")).unwrap() {
            for file in std::fs::read_dir(dir.unwrap().path()).unwrap() {
                let path = file.unwrap().path();
                if path.extension().is_some_and(|e| e == "toml") {
                    files.push(path.display().to_string());
                }
            }
        }
        let mut sources: Vec<String> = files
            .iter()
            .map(|f| std::fs::read_to_string(f).unwrap())
            .collect();
        let bfcl: serde_json::Value =
            serde_json::from_str(include_str!("../../../../tests/data/bfcl/tools.json")).unwrap();
        sources.push(crate::import::from_mcp("tools.json", &bfcl).unwrap().toml);
        let mut stood = 0;
        for source in &sources {
            let whole = verdict(source, usize::MAX).0;
            let sizes: &[usize] = if source.len() > 1 << 16 {
                &[1 << 16]
            } else {
                &[1, 4096]
            };
            for &size in sizes {
                let (read, pieces) = verdict(source, size);
                assert_eq!(read, whole, "pieces of {size} bytes of:\n{source}");
                stood += usize::from(pieces);
            }
        }
        // Most files are cut; those that are not are checked by the cases below.
        assert!(stood > sources.len(), "{stood} of {} files", sources.len());
    }

    #[test]
    fn cuts_fall_before_header_lines_whatever_the_script() {
        let text = "ある\n[[tool]]\nx = 1\n[[tool]] # no\n[[tool]]\r\n[[tools]]\n[[tool]]";
        let starts = super::cuts(text, 1);
        assert_eq!(starts, [0, 7, 36, 56]);
        for &at in &starts[1..] {
            assert!(text[at..].starts_with("[[tool]]"), "{at}");
        }
        assert_eq!(super::cuts(text, 40), [0, 56]);
        assert_eq!(super::cuts(text, text.len()), [0]);
    }

    /// Files whose cuts would change what they mean, or that hold errors no piece alone
    /// can see, are read whole; rows' errors read in pieces are the whole file's.
    #[test]
    fn pieces_stand_only_for_what_the_file_means() {
        let row = |name: &str, more: &str| {
            format!(
                "\n[[tool]]\nname = \"{name}\"\ndescription = \"Does {name}.\"\nvisibility = \"discoverable\"\neffect = \"reads\"\ntier = \"silent\"\n{more}"
            )
        };
        let head = crate::TEST_HEAD;
        let rows: String = ["one", "two", "three"].iter().map(|n| row(n, "")).collect();
        let cases = [
            // A `[[tool]]` line inside a multi-line string is text, not a header.
            (
                format!(
                    "{head}{}{rows}",
                    row(
                        "zero",
                        "keywords = [\"\"\"\n[[tool]]\nname = \"x\"\n\"\"\"]\n"
                    )
                ),
                false,
            ),
            // A table after the rows, and a table written twice.
            (
                format!("{head}{rows}\n[lints]\nunnamed-need = \"deny\"\n"),
                false,
            ),
            (
                format!("{head}{rows}\n[settings]\nsearch-results = 3\n"),
                false,
            ),
            // `tool` as an inline array, then rows added to it.
            (
                format!("tool = [{{ name = \"zero\" }}]\n{head}{rows}"),
                false,
            ),
            // A syntax error in a late row.
            (format!("{head}{rows}\n[[tool]]\nname = \"four\n"), false),
            // Errors in rows of several pieces, and across them.
            (
                format!(
                    "tool2 = 1\n{head}{rows}{}{}",
                    row("one", ""),
                    row("four", "visiblity = 1\n")
                ),
                true,
            ),
            // Windows line ends, and a header with a comment (not cut there).
            (format!("{head}{rows}").replace('\n', "\r\n"), true),
            (
                format!("{head}{rows}")
                    .replace("[[tool]]\nname = \"two\"", "[[tool]] # two\nname = \"two\""),
                true,
            ),
        ];
        for (source, stands) in &cases {
            let (read, pieces) = verdict(source, 1);
            assert_eq!(read, verdict(source, usize::MAX).0, "{source}");
            assert_eq!(pieces, *stands, "{source}");
        }
    }
}
