//! One value of a key: a string, a number, a list, a choice among names; each with the
//! error that says what was expected.

use catalog_core::TaskSupport;
use serde_json::Value;
use toml::Spanned;
use toml::de::DeValue;

use super::At;
use super::json::json;
use super::table::unknown_value;
use crate::diag::{Diagnostic, Errors};
use crate::model::{HEADER_PREFIX, ParamHeader, has_header_prefix, is_tchar};
use crate::pin as digests;

/// A `rust-name`: a plain Rust identifier (not a keyword).
pub(super) fn rust_ident(v: &Spanned<DeValue<'_>>, errors: &mut Errors) -> Option<At<String>> {
    let (s, span) = string(v, "rust-name", errors)?;
    if !crate::names::is_rust_name(&s) {
        errors.push(
            Diagnostic::new(span, format!("`rust-name` `{s}` is not a Rust identifier")).help(
                "use ASCII letters, digits and `_`, not starting with a digit, and not a keyword",
            ),
        );
        return None;
    }
    Some((s, span))
}

/// A parameter's `header`: the name MCP clients send its value under, after
/// `Mcp-Param-`, an HTTP token ([`crate::model::is_header_name`]).
pub(super) fn header_name(v: &Spanned<DeValue<'_>>, errors: &mut Errors) -> Option<ParamHeader> {
    let (s, span) = string(v, "header", errors)?;
    let d = if s.is_empty() {
        Diagnostic::new(span, "`header` is empty").help(
            "name the header, e.g. `header = \"Region\"` (clients then send the value as `Mcp-Param-Region`), or remove `header`",
        )
    } else if has_header_prefix(&s) {
        let rest = &s[HEADER_PREFIX.len()..];
        let rest = if rest.is_empty() { "Region" } else { rest };
        Diagnostic::new(span, format!("`header` `{s}` repeats the `{HEADER_PREFIX}` that clients put before it"))
            .help(format!("write only what follows it, e.g. `header = \"{rest}\"`: clients send `{HEADER_PREFIX}{rest}`"))
    } else if let Some(bad) = s.chars().find(|c| !u8::try_from(*c).is_ok_and(is_tchar)) {
        let what = match bad {
            ' ' => "a space".to_string(),
            c if c.is_control() => "a control character".to_string(),
            c if !c.is_ascii() => format!("`{c}`, which is not ASCII"),
            c => format!("`{c}`"),
        };
        Diagnostic::new(span, format!("`header` `{}` is not an HTTP header name: it holds {what}", s.escape_debug()))
            .help(format!("use letters, digits and ! # $ % & ' * + - . ^ _ ` | ~ only (an HTTP token), e.g. `header = \"{}\"`", token_like(&s)))
    } else {
        return Some(ParamHeader { name: s, span });
    };
    errors.push(d);
    None
}

/// `s` as an HTTP token: each run of other characters a `-`, none at either end.
fn token_like(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if u8::try_from(c).is_ok_and(is_tchar) {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        "Region".into()
    } else {
        out.into()
    }
}

pub(super) fn string(
    v: &Spanned<DeValue<'_>>,
    key: &str,
    errors: &mut Errors,
) -> Option<At<String>> {
    if let Some(s) = v.get_ref().as_str() {
        return Some((s.to_string(), v.span()));
    }
    errors.push(wrong_type(v, key, "a string"));
    None
}

/// A string with something in it.
pub(super) fn non_empty(
    v: &Spanned<DeValue<'_>>,
    key: &str,
    errors: &mut Errors,
) -> Option<At<String>> {
    let (s, span) = string(v, key, errors)?;
    if s.trim().is_empty() {
        errors.push(
            Diagnostic::new(span, format!("`{key}` is empty"))
                .help(format!("write the value, or remove `{key}`")),
        );
        return None;
    }
    Some((s, span))
}

/// `upstream-digest`: `sha256:` and 64 lowercase hex digits.
pub(super) fn digest(v: &Spanned<DeValue<'_>>, errors: &mut Errors) -> Option<At<String>> {
    let (s, span) = string(v, "upstream-digest", errors)?;
    if !digests::is_digest(&s) {
        errors.push(
            Diagnostic::new(span, format!("`upstream-digest` `{s}` is not a SHA-256 digest"))
                .help("write `sha256:` and 64 lowercase hex digits, as the importer writes them: import the tool again to get its digest"),
        );
        return None;
    }
    Some((s, span))
}

pub(super) fn boolean(
    v: &Spanned<DeValue<'_>>,
    key: &str,
    errors: &mut Errors,
) -> Option<At<bool>> {
    if let Some(b) = v.get_ref().as_bool() {
        return Some((b, v.span()));
    }
    errors.push(wrong_type(v, key, "`true` or `false`"));
    None
}

pub(super) fn number(v: &Spanned<DeValue<'_>>, key: &str, errors: &mut Errors) -> Option<f64> {
    match json(v, errors) {
        Some(Value::Number(n)) => n.as_f64(),
        Some(_) => {
            errors.push(wrong_type(v, key, "a number"));
            None
        }
        None => None,
    }
}

pub(super) fn count(
    v: &Spanned<DeValue<'_>>,
    key: &str,
    lo: usize,
    hi: usize,
    errors: &mut Errors,
) -> Option<At<usize>> {
    let n = match json(v, errors) {
        Some(Value::Number(n)) if n.is_i64() => n.as_i64().unwrap_or(0),
        Some(_) => {
            errors.push(wrong_type(v, key, "an integer"));
            return None;
        }
        None => return None,
    };
    let Some(n) = usize::try_from(n).ok().filter(|n| (lo..=hi).contains(n)) else {
        errors.push(
            Diagnostic::new(v.span(), format!("`{key}` is {n}"))
                .help(format!("use a whole number from {lo} to {hi}")),
        );
        return None;
    };
    Some((n, v.span()))
}

/// A number above 0 and at most 1, with at most three decimals, in thousandths.
pub(super) fn thousandths(
    v: &Spanned<DeValue<'_>>,
    key: &str,
    errors: &mut Errors,
) -> Option<At<u16>> {
    let x = match json(v, errors) {
        Some(Value::Number(n)) => n.as_f64().unwrap_or(f64::NAN),
        Some(_) => {
            errors.push(wrong_type(v, key, "a number"));
            return None;
        }
        None => return None,
    };
    let scaled = x * 1000.0;
    if !(x > 0.0 && x <= 1.0) || (scaled - scaled.round()).abs() > 1e-6 {
        errors.push(
            Diagnostic::new(v.span(), format!("`{key}` is {x}")).help(
                "use a number above 0 and at most 1, with at most three decimals (0.9, 0.75)",
            ),
        );
        return None;
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Some((scaled.round() as u16, v.span()))
}

pub(super) fn strings(v: &Spanned<DeValue<'_>>, key: &str, errors: &mut Errors) -> Vec<String> {
    spanned_strings(v, key, errors)
        .into_iter()
        .map(|(s, _)| s)
        .collect()
}

/// A list of non-empty strings, each with where it is written.
pub(super) fn spanned_strings(
    v: &Spanned<DeValue<'_>>,
    key: &str,
    errors: &mut Errors,
) -> Vec<At<String>> {
    let DeValue::Array(items) = v.get_ref() else {
        errors.push(wrong_type(v, key, "a list of strings"));
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items {
        match item.get_ref().as_str() {
            Some(s) if crate::model::is_list_item(s) => out.push((s.to_string(), item.span())),
            Some(_) => errors.push(
                Diagnostic::new(item.span(), format!("empty string in `{key}`")).help("remove it"),
            ),
            None => errors.push(wrong_type(item, key, "a string")),
        }
    }
    out
}

pub(super) fn choice<T: Copy>(
    v: &Spanned<DeValue<'_>>,
    key: &str,
    options: &[(&str, T)],
    errors: &mut Errors,
) -> Option<At<T>> {
    let (s, span) = string(v, key, errors)?;
    if let Some((_, t)) = options.iter().find(|(name, _)| *name == s) {
        return Some((*t, span));
    }
    let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
    errors.push(unknown_value(span, key, &s, &names));
    None
}

/// `task`: `"optional"` or `"required"`. A boolean is the likeliest slip, so its help says
/// what each string means.
pub(super) fn task_support(
    v: &Spanned<DeValue<'_>>,
    errors: &mut Errors,
) -> Option<At<TaskSupport>> {
    if let DeValue::Boolean(b) = v.get_ref() {
        let help = if *b {
            "write `task = \"optional\"` (a client that declared MCP's tasks extension may get a task, any other the result) or `task = \"required\"` (only such clients may call it)"
        } else {
            "remove `task`: without it every call answers in its response"
        };
        errors.push(
            Diagnostic::new(
                v.span(),
                "`task` is `\"optional\"` or `\"required\"`, not a boolean",
            )
            .help(help),
        );
        return None;
    }
    let choices = TaskSupport::ALL.map(|s| (s.as_str(), s));
    choice(v, "task", &choices, errors)
}

pub(super) fn wrong_type(v: &Spanned<DeValue<'_>>, key: &str, expected: &str) -> Diagnostic {
    Diagnostic::new(
        v.span(),
        format!(
            "`{key}` must be {expected}, found {}",
            v.get_ref().type_str()
        ),
    )
    .help(format!("write `{key}` as {expected}"))
}
