//! How messages name things: places, values, keys, and the text of an unknown key.

use alloc::format;
use alloc::string::{String, ToString};
use core::fmt::Write as _;

use super::suggest::closest;
use crate::Value;
use crate::shape::Object;

/// What the checked value is, for the words of the messages.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Subject {
    /// A call's arguments: top-level properties are "parameters".
    Arguments,
    /// A handler's result.
    Result,
}

/// Longest string or key quoted in a message; longer ones are cut, the pointer stays exact.
const QUOTE_CHARS: usize = 40;

/// The message for an undeclared key of a closed object.
pub(super) fn unknown(subject: Subject, object: &Object, key: &str, parent: &str) -> String {
    let noun = noun(subject, parent);
    let mut out = if parent.is_empty() {
        String::new()
    } else {
        format!("{}: ", place(subject, parent))
    };
    let _ = write!(out, "unknown {noun} {}", quote_key(key));
    if let Some(near) = closest(key, object) {
        let _ = write!(out, " (did you mean `{near}`?)");
    }
    if object.properties.is_empty() {
        let _ = write!(out, "; there are no {}", plural(noun));
    } else {
        let _ = write!(out, "; the {} are ", plural(noun));
        for (i, p) in object.properties.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "`{}`", p.name);
        }
    }
    out
}

/// How a message names a place: the pointer, or the whole value.
pub(super) fn place(subject: Subject, path: &str) -> String {
    if path.is_empty() {
        String::from(match subject {
            Subject::Arguments => "the arguments",
            Subject::Result => "the result",
        })
    } else {
        format!("`{path}`")
    }
}

/// What a property of the object at `path` is called.
pub(super) fn noun(subject: Subject, path: &str) -> &'static str {
    if path.is_empty() && subject == Subject::Arguments {
        "parameter"
    } else {
        "property"
    }
}

/// The plural of a [`noun`].
fn plural(noun: &str) -> &'static str {
    if noun == "parameter" {
        "parameters"
    } else {
        "properties"
    }
}

/// Appends one JSON Pointer segment, escaped as RFC 6901 says.
pub(crate) fn push_segment(path: &mut String, key: &str) {
    path.push('/');
    for c in key.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

/// A value as a message names it: `the string "5"`, `the number 2.5`, `an array`.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => String::from("null"),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {}", quote(s)),
        Value::Array(_) => String::from("an array"),
        Value::Object(_) => String::from("an object"),
    }
}

/// A number as JSON wrote it.
pub(super) fn number(value: &Value) -> String {
    match value {
        Value::Number(n) => n.to_string(),
        other => describe(other),
    }
}

/// A string as a JSON literal, cut to [`QUOTE_CHARS`] characters.
pub(super) fn quote(s: &str) -> String {
    let cut = cut(s);
    let mut out = serde_json::to_string(cut).unwrap_or_default();
    if cut.len() < s.len() {
        // After the closing quote, so the literal itself stays exactly what was sent.
        out.push('…');
    }
    out
}

/// A key between backticks, cut to [`QUOTE_CHARS`] characters.
fn quote_key(key: &str) -> String {
    let cut = cut(key);
    let ellipsis = if cut.len() < key.len() { "…" } else { "" };
    format!("`{cut}{ellipsis}`")
}

fn cut(s: &str) -> &str {
    match s.char_indices().nth(QUOTE_CHARS) {
        Some((at, _)) => &s[..at],
        None => s,
    }
}
