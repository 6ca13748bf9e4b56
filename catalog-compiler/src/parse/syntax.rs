//! A TOML syntax error that causes the others: an array or inline table left open reads
//! every line after it as its items, and the parser reports each of them, with the cause
//! (`unclosed array`) at the end of the file. That cascade is replaced by one error at the
//! bracket that is never closed.

use crate::diag::{Diagnostic, Span};

/// The one error to report instead of `found` (the parser's syntax errors, each with its
/// span), when they come from a bracket left open before the first of them.
pub(super) fn unclosed(source: &str, found: &[(Span, String)]) -> Option<Diagnostic> {
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
}
