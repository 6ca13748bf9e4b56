//! A TOML syntax error that causes the others: an array or inline table left open reads
//! every line after it as its items, and the parser reports each of them, with the cause
//! (`unclosed array`) at the end of the file. That cascade is replaced by one error at the
//! bracket that is never closed. A table header left open is closed where the parser
//! expected it and the file read again, so only what is still wrong is reported beside it.

use crate::diag::{Diagnostic, Span};
use toml::de::DeTable;

/// The diagnostics for the parser's syntax errors `found` (each with its span): one per
/// cause.
pub(super) fn errors(source: &str, found: &[(Span, String)]) -> Vec<Diagnostic> {
    unclosed_headers(source, found).unwrap_or_else(|| others(source, found))
}

/// [`errors`] for a file with no header left open.
fn others(source: &str, found: &[(Span, String)]) -> Vec<Diagnostic> {
    if let Some(cause) = unclosed(source, found) {
        return vec![cause];
    }
    found
        .iter()
        .map(|(span, message)| {
            Diagnostic::new(span.clone(), format!("invalid TOML: {message}"))
                .help("fix the TOML syntax; the catalog is read only once it parses")
        })
        .collect()
}

/// The parser's syntax errors in `source`, each with its span.
fn parse_errors(source: &str) -> Vec<(Span, String)> {
    listed(&DeTable::parse_recoverable(source).1)
}

/// The parser's errors, each with its span.
pub(super) fn listed(found: &[toml::de::Error]) -> Vec<(Span, String)> {
    found
        .iter()
        .map(|e| (e.span().unwrap_or(0..0), e.message().trim_end().to_string()))
        .collect()
}

/// A header left open (`[tool.params`) makes the parser read the lines after it as keys of
/// the wrong table, each repeated one reported as a duplicate. Each open header is reported
/// once; the file is read again with it closed, and what is still wrong then is reported at
/// its place in the file as written.
fn unclosed_headers(source: &str, found: &[(Span, String)]) -> Option<Vec<Diagnostic>> {
    let mut repaired = source.to_owned();
    // What was inserted into `repaired`: (offset there, length), in order of offset, since
    // each is after the last.
    let mut inserted: Vec<(usize, usize)> = Vec::new();
    let mut found = found.to_vec();
    let mut headers = Vec::new();
    while let Some((at, close)) = found.iter().find_map(|(span, message)| {
        let close = if message.starts_with("unclosed array table") {
            "]]"
        } else if message.starts_with("unclosed table") {
            "]"
        } else {
            return None;
        };
        Some((span.start.min(repaired.len()), close))
    }) {
        // Each pass closes one header, further down the file than the last; a file has far
        // fewer than this.
        let last = inserted.last().map(|(offset, _)| *offset);
        if headers.len() == 256 || !repaired.is_char_boundary(at) || last.is_some_and(|l| at <= l) {
            break;
        }
        let end = original(at, &inserted);
        let start = source[..end].rfind('\n').map_or(0, |n| n + 1);
        let header = source[start..end].trim();
        headers.push(
            Diagnostic::new(
                start..end,
                format!("invalid TOML: the table header `{header}` is never closed"),
            )
            .help(format!("close it: `{header}{close}`")),
        );
        inserted.push((at, close.len()));
        repaired.insert_str(at, close);
        found = parse_errors(&repaired);
    }
    if headers.is_empty() {
        return None;
    }
    let rest = others(&repaired, &found).into_iter().map(|mut d| {
        d.span = original(d.span.start, &inserted)..original(d.span.end, &inserted);
        for r in &mut d.related {
            r.span = original(r.span.start, &inserted)..original(r.span.end, &inserted);
        }
        d
    });
    headers.extend(rest);
    Some(headers)
}

/// Where offset `at` of the repaired text is in the text as written.
fn original(at: usize, inserted: &[(usize, usize)]) -> usize {
    inserted
        .iter()
        .filter(|(offset, _)| *offset < at)
        .map(|(offset, len)| (at - offset).min(*len))
        .fold(at, |at, shift| at - shift)
}

/// The one error to report instead of `found` (the parser's syntax errors, each with its
/// span), when they come from a bracket left open before the first of them.
fn unclosed(source: &str, found: &[(Span, String)]) -> Option<Diagnostic> {
    let cascade = found
        .iter()
        .any(|(_, m)| m.starts_with("unclosed array") || m.starts_with("unclosed inline table"));
    let first = found.iter().map(|(span, _)| span).min_by_key(|s| s.start)?;
    if !cascade {
        return None;
    }
    let (bracket, at) = open_at(source, first.start)?;
    let (what, close) = if bracket == '[' {
        ("array", ']')
    } else {
        ("inline table", '}')
    };
    let (line, _) = crate::diag::line_col(source, first.start);
    Some(
        Diagnostic::new(
            at..at + 1,
            format!("invalid TOML: this {what}'s `{bracket}` is never closed"),
        )
        .related(first.clone(), format!("read as part of the {what} from here"))
        .help(format!(
            "close it with `{close}` where its value ends: from line {line} on, every line is read as part of it, so no other error is reported until it is closed"
        )),
    )
}

/// The bracket of an array or inline table still open at byte `end`, with its offset:
/// strings, comments and table headers are skipped.
fn open_at(source: &str, end: usize) -> Option<(char, usize)> {
    let bytes = source.as_bytes();
    let mut open: Vec<(char, usize)> = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < end.min(bytes.len()) {
        let c = bytes[i];
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'#' => i = line_end(bytes, i),
            b'[' if line_start && open.is_empty() => i = line_end(bytes, i),
            b'"' | b'\'' => i = string_end(bytes, i),
            b'[' | b'{' => {
                open.push((char::from(c), i));
                i += 1;
            }
            b']' | b'}' => {
                let opener = if c == b']' { '[' } else { '{' };
                if open.last().is_some_and(|(o, _)| *o == opener) {
                    open.pop();
                }
                i += 1;
            }
            _ => i += 1,
        }
        line_start = false;
    }
    open.last().copied()
}

/// Where the line holding byte `i` ends.
fn line_end(bytes: &[u8], i: usize) -> usize {
    bytes[i..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |n| i + n)
}

/// Just after the string that starts at byte `i` (basic or literal, one line or several);
/// at the line's end for a string left open there.
fn string_end(bytes: &[u8], i: usize) -> usize {
    let quote = bytes[i];
    let triple = bytes.get(i..i + 3) == Some(&[quote; 3][..]);
    let mut j = i + if triple { 3 } else { 1 };
    while j < bytes.len() {
        match bytes[j] {
            b'\\' if quote == b'"' => j += 2,
            b'\n' if !triple => return j,
            b if b == quote => {
                if !triple {
                    return j + 1;
                }
                if bytes.get(j..j + 3) == Some(&[quote; 3][..]) {
                    return j + 3;
                }
                j += 1;
            }
            _ => j += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;

    #[test]
    fn an_open_bracket_is_found_past_strings_comments_and_headers() {
        let source = "[settings]\n# a [ comment\nname = \"a [ string\"\nkeys = ['x]', \"\"\"\n]\"\"\", { a = 1 }, [\"b\"\nnext = 1\n";
        let next = source.find("next").unwrap();
        let open = source.rfind(", [").unwrap() + 2;
        assert_eq!(open_at(source, next), Some(('[', open)));
        let closed = "[[tool]]\nkeys = [\"a\", \"b\"]\nnext = 1\n";
        assert_eq!(open_at(closed, closed.find("next").unwrap()), None);
    }

    #[test]
    fn a_cascade_becomes_one_error_at_its_bracket() {
        let source = "[[tool]]\nkeywords = [\"find\", \"lookup\"\nvisibility = \"inline\"\n";
        let mut errors = Vec::new();
        let (_, found) = toml::de::DeTable::parse_recoverable(source);
        for e in &found {
            errors.push((e.span().unwrap_or(0..0), e.message().to_string()));
        }
        assert!(errors.len() > 1, "{errors:?}");
        let one = unclosed(source, &errors).unwrap();
        assert_eq!(&source[one.span.clone()], "[");
        assert_eq!(one.span.start, "[[tool]]\nkeywords = ".len());
        assert!(one.message.contains("never closed"), "{one:?}");
        assert!(one.help.unwrap().contains("line 3"));
        // Errors that are not a cascade stay as they are.
        assert!(
            unclosed(
                "a = \"x\nb = inline\n",
                &[(6..6, "invalid basic string".into())]
            )
            .is_none()
        );
    }

    /// A header left open is one error, not one per key read into the wrong table; what is
    /// still wrong once it is closed is reported too, where it is written.
    #[test]
    fn an_open_header_is_one_error_and_later_errors_keep_their_place() {
        let mut source = String::from(
            "[settings]\nsearch-tool = \"s\"\n\n[[tool]]\nname = \"s\"\n\n[tool.params\nquery = { type = \"string\" }\n",
        );
        for i in 0..19 {
            let _ = write!(
                source,
                "\n[[tool]]\nname = \"t{i}\"\ndescription = \"T.\"\n"
            );
        }
        let found = parse_errors(&source);
        assert!(
            found.iter().any(|(_, m)| m.starts_with("duplicate key")),
            "{found:?}"
        );
        let one = errors(&source, &found);
        assert_eq!(one.len(), 1, "{one:#?}");
        assert_eq!(&source[one[0].span.clone()], "[tool.params");
        assert_eq!(one[0].help.as_deref(), Some("close it: `[tool.params]`"));
        // Two open headers, an array-of-tables one among them, and a real error after both.
        let source = "[[tool\nname = \"a\"\n[tool.params\nq = 1\n[[tool]]\nname = \"b\"\nx = \n";
        let all = errors(source, &parse_errors(source));
        assert_eq!(all.len(), 3, "{all:#?}");
        assert_eq!(all[0].help.as_deref(), Some("close it: `[[tool]]`"));
        assert_eq!(&source[all[1].span.clone()], "[tool.params");
        let x = source.find("x = ").unwrap();
        assert!((x..source.len()).contains(&all[2].span.start), "{all:#?}");
    }
}
