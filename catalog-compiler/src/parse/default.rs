//! A parameter's `default` against its declared type.

use serde_json::Value;

use crate::diag::{Diagnostic, Errors, Span};
use crate::model::{Kind, TypeSpec};

/// Checks a default against its type; returns it when it fits.
pub(super) fn check_default(
    ty: &TypeSpec,
    value: Value,
    span: Span,
    errors: &mut Errors,
) -> Option<Value> {
    match fits(&ty.kind, &value) {
        Ok(()) => Some(value),
        Err(why) => {
            errors.push(
                Diagnostic::new(span, format!("default {value} {why}"))
                    .help("give a default of the declared type, or remove it"),
            );
            None
        }
    }
}

/// Whether a JSON value fits a kind; the reason when it does not.
pub(super) fn fits(kind: &Kind, v: &Value) -> Result<(), String> {
    match (kind, v) {
        (Kind::String { values: Some(vals) }, Value::String(s)) if !vals.contains(s) => Err(
            format!("is not one of the enum values ({})", vals.join(", ")),
        ),
        (Kind::String { .. }, Value::String(_))
        | (Kind::Boolean, Value::Bool(_))
        | (Kind::Object(None), Value::Object(_))
        | (Kind::Raw(_), _) => Ok(()),
        (Kind::Integer { minimum, maximum }, Value::Number(n)) if n.is_i64() || n.is_u64() => {
            in_range(n.as_f64().unwrap_or(0.0), *minimum, *maximum)
        }
        (Kind::Number { minimum, maximum }, Value::Number(n)) => {
            in_range(n.as_f64().unwrap_or(0.0), *minimum, *maximum)
        }
        (Kind::Array(item), Value::Array(xs)) => xs.iter().try_for_each(|x| fits(&item.kind, x)),
        (Kind::Object(Some(props)), Value::Object(map)) => {
            for (k, x) in map {
                let p = props
                    .iter()
                    .find(|p| &p.name == k)
                    .ok_or_else(|| format!("has unknown property `{k}`"))?;
                fits(&p.ty.kind, x)?;
            }
            match props
                .iter()
                .find(|p| p.required && !map.contains_key(&p.name))
            {
                Some(p) => Err(format!("lacks required property `{}`", p.name)),
                None => Ok(()),
            }
        }
        (k, _) => Err(format!("is not {}", kind_name(k))),
    }
}

fn in_range(x: f64, lo: Option<f64>, hi: Option<f64>) -> Result<(), String> {
    match (lo, hi) {
        (Some(lo), _) if x < lo => Err(format!("is below the minimum {lo}")),
        (_, Some(hi)) if x > hi => Err(format!("is above the maximum {hi}")),
        _ => Ok(()),
    }
}

fn kind_name(k: &Kind) -> &'static str {
    match k {
        Kind::String { .. } => "a string",
        Kind::Integer { .. } => "an integer",
        Kind::Number { .. } => "a number",
        Kind::Boolean => "a boolean",
        Kind::Array(_) => "an array",
        Kind::Object(_) => "an object",
        Kind::Raw(_) => "a value",
    }
}
