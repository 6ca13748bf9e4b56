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
