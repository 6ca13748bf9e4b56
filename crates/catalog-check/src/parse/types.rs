//! The type language: a parameter's or property's `type` and the keys that shape it, or
//! the `schema` escape hatch.

use std::collections::HashMap;

use serde_json::{Map, Value};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::default::check_default;
use super::json::json;
use super::table::{Table, table, unknown_value};
use super::values::{boolean, header_name, number, rust_ident, spanned_strings, string};
use super::{At, FIELD_ONLY_KEYS, TYPE_KEYS, TYPE_NAMES};
use crate::diag::{Diagnostic, Errors, Span};
use crate::model::{
    EnumFault, Field, Kind, ParamHeader, TypeSpec, bounds_in_order, enum_faults, is_field_name,
    may_have_default,
};

/// Reads a table of named fields (`params`, or an object's `properties`).
pub(super) fn fields(t: &DeTable<'_>, what: &str, errors: &mut Errors) -> Vec<Field> {
    let mut out = Vec::new();
    for (key, value) in t {
        let name = key.get_ref().to_string();
        check_field_name(&name, key.span(), what, errors);
        let Some(spec) = table(value, &format!("{what} `{name}`"), errors) else {
            continue;
        };
        let (ty, extra) = type_spec(
            spec,
            value.span(),
            &format!("{what} `{name}`"),
            true,
            errors,
        );
        let Extra {
            required,
            default,
            rust_name,
            header,
        } = extra;
        let default = default.and_then(|(v, span)| check_default(&ty, v, span, errors));
        let required = match (required, &default) {
            (Some((required, span)), Some(_)) if !may_have_default(required) => {
                errors.push(
                    Diagnostic::new(span, format!("{what} `{name}` is required and has a default"))
                        .help("a default only applies when the value is left out: remove `required = true` (a field with a default is optional) or remove `default`"),
                );
                false
            }
            (Some((r, _)), _) => r,
            (None, d) => d.is_none(),
        };
        out.push(Field {
            name,
            span: key.span(),
            rust_name,
            ty,
            required,
            default,
            header,
        });
    }
    out
}

fn check_field_name(name: &str, span: Span, what: &str, errors: &mut Errors) {
    if !is_field_name(name) {
        errors.push(
            Diagnostic::new(
                span,
                format!("{what} name `{name}` is not accepted by model providers"),
            )
            .help("use 1 to 64 characters of A-Z a-z 0-9 _ . -"),
        );
    }
}

/// The keys only a field (a parameter or property) may carry.
pub(super) struct Extra {
    required: Option<At<bool>>,
    default: Option<At<Value>>,
    rust_name: Option<String>,
    header: Option<ParamHeader>,
}

/// Reads a type; `field` says whether `required` and `default` may appear (parameters and
/// properties), as opposed to `items` and `output`.
pub(super) fn type_spec(
    t: &DeTable<'_>,
    span: Span,
    what: &str,
    field: bool,
    errors: &mut Errors,
) -> (TypeSpec, Extra) {
    let mut t = Table::new(t, span.clone(), what);
    let description = t
        .take("description")
        .and_then(|(v, _)| string(v, "description", errors))
        .map(|(s, _)| s);
    let mut extra = Extra {
        required: None,
        default: None,
        rust_name: None,
        header: None,
    };
    if field {
        extra.rust_name = t
            .take("rust-name")
            .and_then(|(v, _)| rust_ident(v, errors))
            .map(|(s, _)| s);
        extra.required = t
            .take("required")
            .and_then(|(v, _)| boolean(v, "required", errors));
        extra.default = t
            .take("default")
            .and_then(|(v, _)| json(v, errors).map(|j| (j, v.span())));
        extra.header = t.take("header").and_then(|(v, _)| header_name(v, errors));
    }
    let schema = t.take("schema");
    let ty = t.take("type");
    let values = t.take("enum");
    let items = t.take("items");
    let properties = t.take("properties");
    let minimum = t
        .take("minimum")
        .and_then(|(v, _)| number(v, "minimum", errors));
    let maximum = t
        .take("maximum")
        .and_then(|(v, _)| number(v, "maximum", errors));
    let field_keys = [TYPE_KEYS, FIELD_ONLY_KEYS].concat();
    let seen = t.finish(if field { &field_keys } else { TYPE_KEYS }, errors);
    let keys = &seen.taken;

    let kind = if let Some((raw, _)) = schema {
        for key in ["type", "enum", "items", "properties", "minimum", "maximum"] {
            if let Some(span) = keys.get(key) {
                errors.push(
                    Diagnostic::new(span.clone(), format!("`schema` replaces `{key}` ({what})"))
                        .help(format!(
                            "remove `{key}`, or remove `schema` and use the type keys only"
                        )),
                );
            }
        }
        raw_schema(raw, "schema", errors)
    } else if let Some((v, _)) = ty {
        match string(v, "type", errors) {
            None => Kind::Raw(Value::Object(Map::new())),
            Some((name, tspan)) => {
                let parts = Parts {
                    values,
                    items,
                    properties,
                    minimum,
                    maximum,
                };
                declared_kind(&name, tspan, parts, keys, what, errors)
            }
        }
    } else {
        // A misspelt `type` (`tpye`) is already reported as an unknown key.
        if !seen.has("type") {
            errors.push(
            Diagnostic::new(span.clone(), format!("{what} has no `type`"))
                .help("add `type = \"string\"` (or integer, number, boolean, array, object), or `schema = '...'` for a JSON Schema the type language cannot express"),
        );
        }
        Kind::Raw(Value::Object(Map::new()))
    };
    keys_apply(&kind, keys, what, errors);
    (
        TypeSpec {
            kind,
            description,
            span,
        },
        extra,
    )
}

/// The keys that shape a declared `type`.
struct Parts<'a, 'i> {
    values: Option<(&'a Spanned<DeValue<'i>>, Span)>,
    items: Option<(&'a Spanned<DeValue<'i>>, Span)>,
    properties: Option<(&'a Spanned<DeValue<'i>>, Span)>,
    minimum: Option<f64>,
    maximum: Option<f64>,
}

/// The kind a `type = "..."` declares, read with the keys that shape it.
fn declared_kind(
    name: &str,
    tspan: Span,
    parts: Parts<'_, '_>,
    keys: &HashMap<String, Span>,
    what: &str,
    errors: &mut Errors,
) -> Kind {
    let Parts {
        values,
        items,
        properties,
        minimum,
        maximum,
    } = parts;
    match name {
        "string" => Kind::String {
            values: values.and_then(|(v, _)| enum_values(v, errors)),
        },
        "integer" | "number" => {
            if let (Some(lo), Some(hi)) = (minimum, maximum)
                && !bounds_in_order(minimum, maximum)
            {
                errors.push(
                    Diagnostic::new(
                        keys["minimum"].clone(),
                        format!("`minimum` {lo} is above `maximum` {hi} ({what})"),
                    )
                    .help("swap the bounds"),
                );
            }
            if name == "integer" {
                Kind::Integer { minimum, maximum }
            } else {
                Kind::Number { minimum, maximum }
            }
        }
        "boolean" => Kind::Boolean,
        "array" => {
            if let Some((v, _)) = items {
                match table(v, &format!("{what} items"), errors) {
                    Some(it) => Kind::Array(Box::new(
                        type_spec(it, v.span(), &format!("{what} items"), false, errors).0,
                    )),
                    None => Kind::Raw(Value::Object(Map::new())),
                }
            } else {
                errors.push(
                    Diagnostic::new(tspan, format!("array without `items` ({what})"))
                        .help("say what the array holds, e.g. `items = { type = \"string\" }`"),
                );
                Kind::Raw(Value::Object(Map::new()))
            }
        }
        "object" => Kind::Object(properties.and_then(|(v, _)| {
            table(v, &format!("{what} properties"), errors).map(|p| fields(p, "property", errors))
        })),
        other => {
            errors.push(unknown_value(tspan, "type", other, TYPE_NAMES));
            Kind::Raw(Value::Object(Map::new()))
        }
    }
}

/// Reports keys that do not apply to the kind declared (`items` on a string, ...).
fn keys_apply(kind: &Kind, keys: &HashMap<String, Span>, what: &str, errors: &mut Errors) {
    let not_for = |key: &str, kind: &str, errors: &mut Errors| {
        if let Some(span) = keys.get(key) {
            errors.push(
                Diagnostic::new(
                    span.clone(),
                    format!("`{key}` does not apply to {kind} ({what})"),
                )
                .help(format!("remove `{key}`")),
            );
        }
    };

    match kind {
        Kind::String { .. } => {
            not_for("items", "a string", errors);
            not_for("properties", "a string", errors);
            not_for("minimum", "a string", errors);
            not_for("maximum", "a string", errors);
        }
        Kind::Integer { .. } | Kind::Number { .. } => {
            for k in ["enum", "items", "properties"] {
                not_for(k, "a number", errors);
            }
        }
        Kind::Boolean => {
            for k in ["enum", "items", "properties", "minimum", "maximum"] {
                not_for(k, "a boolean", errors);
            }
        }
        Kind::Array(_) => {
            for k in ["enum", "properties", "minimum", "maximum"] {
                not_for(k, "an array", errors);
            }
        }
        Kind::Object(_) => {
            for k in ["enum", "items", "minimum", "maximum"] {
                not_for(k, "an object", errors);
            }
        }
        Kind::Raw(_) => {}
    }
}

fn enum_values(v: &Spanned<DeValue<'_>>, errors: &mut Errors) -> Option<Vec<String>> {
    let values = spanned_strings(v, "enum", errors);
    let names: Vec<&str> = values.iter().map(|(s, _)| s.as_str()).collect();
    for fault in enum_faults(&names) {
        match fault {
            EnumFault::Empty => {
                errors.push(
                    Diagnostic::new(v.span(), "`enum` is empty: no value could ever be passed")
                        .help("list the allowed values, e.g. `enum = [\"asc\", \"desc\"]`, or remove `enum`"),
                );
                return None;
            }
            EnumFault::Repeated { at, first } => {
                let (s, span) = &values[at];
                errors.push(
                    Diagnostic::new(span.clone(), format!("`enum` lists `{s}` twice"))
                        .related(values[first].1.clone(), "the first")
                        .help("remove the repeated value"),
                );
            }
        }
    }
    Some(values.into_iter().map(|(s, _)| s).collect())
}

pub(super) fn raw_schema(v: &Spanned<DeValue<'_>>, key: &str, errors: &mut Errors) -> Kind {
    let Some((text, span)) = string(v, key, errors) else {
        return Kind::Raw(Value::Object(Map::new()));
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(schema @ (Value::Object(_) | Value::Bool(_))) => Kind::Raw(schema),
        Ok(_) => {
            errors.push(
                Diagnostic::new(
                    span,
                    format!("`{key}` must hold a JSON object (a JSON Schema)"),
                )
                .help(format!(
                    "write it as a single-quoted TOML string: {key} = '{{\"type\": \"string\"}}'"
                )),
            );
            Kind::Raw(Value::Object(Map::new()))
        }
        Err(e) => {
            errors.push(
                Diagnostic::new(span, format!("`{key}` is not valid JSON: {e}")).help(format!(
                    "write it as a single-quoted TOML string: {key} = '{{\"type\": \"string\"}}'"
                )),
            );
            Kind::Raw(Value::Object(Map::new()))
        }
    }
}
