//! Every text of a row that the model reads, and where it is written: the tool's name and
//! description; each parameter's and property's name, description, allowed values and
//! default, at any depth, for the input and the output; and in a schema kept as JSON
//! (`input-schema`, `schema`), every key and every string, with its descriptions, titles,
//! allowed values, defaults and examples told apart. Keywords and examples of the row are
//! not here: they feed the search, never the model.

use serde_json::Value;

use crate::diag::Span;
use crate::model::{Field, Kind, Offer, Tool, TypeSpec, field_origin};

/// One piece of text the model reads.
pub(super) struct Text<'a> {
    /// What it is, as a message names it: ``the description of parameter `table` ``.
    pub what: String,
    pub body: &'a str,
    /// Where to look for it in the source.
    pub span: Span,
    pub role: Role,
}

/// What part a text plays, which decides the checks it gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// A description: every check, and its length counts.
    Description,
    /// A title or a value (allowed, default, example): every check but the length.
    Value,
    /// Any other string of a JSON schema (a `format`, a `pattern`, a `$ref`): hidden
    /// characters, mixed scripts and orders only, as URLs are at home there.
    Other,
    /// A name (of the tool, a parameter, a property, a key): hidden characters, mixed
    /// scripts, and orders read in its words (`ignore_previous` as `ignore previous`).
    Name,
}

/// The texts of a `[[prompt]]` or `[[resource]]` table: its description, and a prompt's
/// argument names and descriptions.
pub(super) fn of_offer(offer: &Offer) -> Vec<Text<'_>> {
    let mut texts = Vec::new();
    if let Some(description) = &offer.description {
        texts.push(Text {
            what: "the description".to_string(),
            body: description,
            span: offer.description_span.clone().unwrap_or(offer.span.clone()),
            role: Role::Description,
        });
    }
    for ((name, description), span) in offer.arguments.iter().zip(&offer.argument_spans) {
        texts.push(Text {
            what: format!("the name of argument `{name}`"),
            body: name,
            // The key is written just before its value.
            span: offer.span.start..span.end,
            role: Role::Name,
        });
        texts.push(Text {
            what: format!("the description of argument `{name}`"),
            body: description,
            span: span.clone(),
            role: Role::Description,
        });
    }
    texts
}

/// The texts of one row.
pub(super) fn of_tool(tool: &Tool) -> Vec<Text<'_>> {
    let mut texts = vec![
        Text {
            what: "the name".to_string(),
            body: &tool.name,
            span: tool.name_span.clone(),
            role: Role::Name,
        },
        Text {
            what: "the description".to_string(),
            body: &tool.description,
            span: tool.spans.description.clone(),
            role: Role::Description,
        },
    ];
    fields(&tool.params, None, &mut texts);
    if let Some(schema) = &tool.input_schema {
        let span = tool.spans.input_schema.as_ref().unwrap_or(&tool.spans.row);
        raw("the input schema", schema, span, &mut texts);
    }
    if let Some(out) = &tool.output {
        type_texts(out, "the output", &mut texts);
    }
    texts
}

/// The texts of parameters or properties, recursively.
fn fields<'a>(fields: &'a [Field], parent: Option<&str>, out: &mut Vec<Text<'a>>) {
    for f in fields {
        let origin = field_origin(&f.name, parent);
        out.push(Text {
            what: format!("the name of {origin}"),
            body: &f.name,
            span: f.span.clone(),
            role: Role::Name,
        });
        if let Some(default) = &f.default {
            strings(default, &mut |s, role| {
                out.push(Text {
                    what: format!("the default of {origin}"),
                    body: s,
                    span: f.ty.span.clone(),
                    role,
                });
            });
        }
        type_texts(&f.ty, &origin, out);
    }
}

fn type_texts<'a>(ty: &'a TypeSpec, origin: &str, out: &mut Vec<Text<'a>>) {
    if let Some(d) = &ty.description {
        out.push(Text {
            what: format!("the description of {origin}"),
            body: d,
            span: ty.span.clone(),
            role: Role::Description,
        });
    }
    match &ty.kind {
        Kind::String {
            values: Some(values),
        } => {
            for v in values {
                out.push(Text {
                    what: format!("an allowed value of {origin}"),
                    body: v,
                    span: ty.span.clone(),
                    role: Role::Value,
                });
            }
        }
        Kind::Array(item) => type_texts(item, &format!("the items of {origin}"), out),
        Kind::Object(Some(props)) => fields(props, Some(origin), out),
        Kind::Raw(schema) => raw(&format!("the schema of {origin}"), schema, &ty.span, out),
        _ => {}
    }
}

/// Every key and string anywhere in a schema kept as JSON: the model reads it whole.
fn raw<'a>(what: &str, v: &'a Value, span: &Span, out: &mut Vec<Text<'a>>) {
    let push = |out: &mut Vec<Text<'a>>, kind: &str, body: &'a str, role| {
        out.push(Text {
            what: format!("{kind} in {what}"),
            body,
            span: span.clone(),
            role,
        });
    };
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                if !is_keyword(k) {
                    push(out, "a key", k, Role::Name);
                }
                match (k.as_str(), x) {
                    ("description", Value::String(s)) => {
                        push(out, "a description", s, Role::Description);
                    }
                    ("title", Value::String(s)) => push(out, "a title", s, Role::Value),
                    ("enum" | "const" | "default" | "examples", _) => {
                        strings(x, &mut |s, role| push(out, "a value", s, role));
                    }
                    (
                        "properties" | "patternProperties" | "$defs" | "definitions",
                        Value::Object(m),
                    ) => {
                        for (name, schema) in m {
                            push(out, "a property name", name, Role::Name);
                            raw(what, schema, span, out);
                        }
                    }
                    (_, Value::String(s)) => push(out, "a value", s, Role::Other),
                    _ => raw(what, x, span, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|x| raw(what, x, span, out)),
        _ => {}
    }
}

/// The JSON Schema keywords, which need no reading.
fn is_keyword(key: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "type",
        "description",
        "title",
        "enum",
        "const",
        "default",
        "examples",
        "items",
        "prefixItems",
        "properties",
        "patternProperties",
        "additionalProperties",
        "required",
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "format",
        "pattern",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "uniqueItems",
        "nullable",
        "$ref",
        "$defs",
        "definitions",
        "$schema",
        "$id",
    ];
    KEYWORDS.contains(&key)
}

/// Every string in a value, keys of its objects included, each with its role: values,
/// but keys are names.
fn strings<'a>(v: &'a Value, f: &mut impl FnMut(&'a str, Role)) {
    match v {
        Value::String(s) => f(s, Role::Value),
        Value::Array(items) => items.iter().for_each(|x| strings(x, f)),
        Value::Object(map) => {
            for (k, x) in map {
                f(k, Role::Name);
                strings(x, f);
            }
        }
        _ => {}
    }
}
