//! JSON Schema of a tool's input and output, as MCP and the model providers read it.

use serde_json::{Map, Value, json};

use crate::model::{Field, Kind, Tool, TypeSpec};

/// The input schema: an object of the tool's parameters. Unknown properties are refused,
/// since a model that invents an argument has misread the tool, unless the row says
/// `additional-params = true`.
#[must_use]
pub fn input(tool: &Tool) -> Value {
    input_as(tool, Listed::Provider)
}

/// The input schema as MCP lists it: [`input`], with `x-mcp-header` on each property the
/// row mirrors in an HTTP header (`header`), so a client sends its value as
/// `Mcp-Param-{name}` too. Only MCP's listing says it: other providers' models would read
/// a keyword that means nothing to them, and `OpenAI`'s strict mode refuses it.
#[must_use]
pub fn mcp_input(tool: &Tool) -> Value {
    input_as(tool, Listed::Mcp)
}

/// Whom a schema is written for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Listed {
    /// A model provider: no `x-mcp-header`.
    Provider,
    /// An MCP client: `x-mcp-header` where a field has a `header`.
    Mcp,
}

fn input_as(tool: &Tool, listed: Listed) -> Value {
    match &tool.input_schema {
        Some(raw) => raw.clone(),
        None => object(&tool.params, None, !tool.additional_params, listed),
    }
}

/// The output schema, when the row declares one.
#[must_use]
pub fn output(tool: &Tool) -> Option<Value> {
    tool.output.as_ref().map(|t| type_spec(t, Listed::Provider))
}

/// The keywords `OpenAI`'s strict mode reads; a schema with any other is not strict.
const STRICT_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "enum",
    "items",
    "description",
    "anyOf",
    "minimum",
    "maximum",
];

/// Whether an input schema meets `OpenAI`'s strict mode, so a renderer may set `strict`: the
/// root is an object, every object (at any depth) declares its `properties`, lists every
/// one in `required` and has `additionalProperties: false`, and no schema uses a keyword
/// but `type`, `properties`, `required`, `additionalProperties`, `enum`, `items`,
/// `description`, `anyOf`, `minimum` and `maximum` (so no `default`, no `$ref`, no
/// `format`). A parameter that is optional or has a default therefore makes its tool not
/// strict.
#[must_use]
pub fn strict(schema: &Value) -> bool {
    schema.as_object().is_some_and(is_object) && strict_part(schema)
}

fn strict_part(schema: &Value) -> bool {
    let Value::Object(m) = schema else {
        // `true` or a tuple of items: not a schema strict mode reads.
        return false;
    };
    if !m.keys().all(|k| STRICT_KEYWORDS.contains(&k.as_str())) {
        return false;
    }
    if is_object(m) {
        // Without `properties`, a free-form object: strict mode has no shape for it.
        let Some(Value::Object(properties)) = m.get("properties") else {
            return false;
        };
        let required: Vec<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if m.get("additionalProperties") != Some(&Value::Bool(false))
            || !properties.keys().all(|k| required.contains(&k.as_str()))
            || !properties.values().all(strict_part)
        {
            return false;
        }
    }
    let items_strict = m.get("items").is_none_or(strict_part);
    let branches_strict = m
        .get("anyOf")
        .is_none_or(|b| b.as_array().is_some_and(|b| b.iter().all(strict_part)));
    items_strict && branches_strict
}

/// Whether a schema describes an object: its `type` is or includes `object`, or it has
/// `properties`.
fn is_object(m: &Map<String, Value>) -> bool {
    let typed = match m.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => false,
    };
    typed || m.contains_key("properties")
}

fn object(fields: &[Field], description: Option<&str>, closed: bool, listed: Listed) -> Value {
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    if let Some(d) = description {
        schema.insert("description".into(), d.into());
    }
    let mut props = Map::new();
    for f in fields {
        let mut p = type_spec(&f.ty, listed);
        if let Value::Object(m) = &mut p {
            if let Some(d) = &f.default {
                m.insert("default".into(), d.clone());
            }
            if let (Listed::Mcp, Some(header)) = (listed, &f.header) {
                m.insert("x-mcp-header".into(), header.name.clone().into());
            }
        }
        props.insert(f.name.clone(), p);
    }
    schema.insert("properties".into(), Value::Object(props));
    let required: Vec<Value> = fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name.clone().into())
        .collect();
    if !required.is_empty() {
        schema.insert("required".into(), Value::Array(required));
    }
    if closed {
        schema.insert("additionalProperties".into(), false.into());
    }
    Value::Object(schema)
}

fn type_spec(t: &TypeSpec, listed: Listed) -> Value {
    let description = t.description.as_deref();
    let mut v = match &t.kind {
        Kind::Object(Some(fields)) => return object(fields, description, true, listed),
        Kind::Object(None) => json!({"type": "object"}),
        Kind::String { values: None } => json!({"type": "string"}),
        Kind::String {
            values: Some(values),
        } => json!({"type": "string", "enum": values}),
        Kind::Integer { minimum, maximum } => bounded("integer", *minimum, *maximum),
        Kind::Number { minimum, maximum } => bounded("number", *minimum, *maximum),
        Kind::Boolean => json!({"type": "boolean"}),
        Kind::Array(item) => json!({"type": "array", "items": type_spec(item, listed)}),
        // The escape hatch is kept exactly as written, but for a description given beside it.
        Kind::Raw(schema) => schema.clone(),
    };
    if let (Some(d), Value::Object(m)) = (description, &mut v) {
        m.entry("description").or_insert_with(|| d.into());
    }
    v
}

fn bounded(ty: &str, minimum: Option<f64>, maximum: Option<f64>) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), ty.into());
    for (key, bound) in [("minimum", minimum), ("maximum", maximum)] {
        if let Some(b) = bound {
            m.insert(key.into(), number(b));
        }
    }
    Value::Object(m)
}

/// Whole bounds print as integers (`1`, not `1.0`).
pub(crate) fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        #[allow(clippy::cast_possible_truncation)]
        Value::from(x as i64)
    } else {
        json!(x)
    }
}

/// The smallest value that fits a JSON Schema, as a handler that runs nothing answers
/// (`eval-agent`) or a scripted model calls: an object with its required properties, the first
/// of an enum, a `const`, the first branch of a union, a number at its lower bound, a string
/// and an array at their least length. Patterns and formats are not read.
///
/// A value of `schema`: an object with its required properties, the first of an enum, a
/// `const`, the first branch of a union, a number at its lower bound, a string and an
/// array at their least length.
#[must_use]
pub fn sample(schema: &Value) -> Value {
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    for union in ["anyOf", "oneOf"] {
        if let Some(first) = schema
            .get(union)
            .and_then(Value::as_array)
            .and_then(|b| b.first())
        {
            return sample(first);
        }
    }
    let kind = match schema.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        // `["string", "null"]`: the first type that is not null.
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|k| *k != "null")
            .unwrap_or("null"),
        _ if schema.get("properties").is_some() => "object",
        _ => return json!({}),
    };
    let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
    let length = |key: &str| schema.get(key).and_then(Value::as_u64).unwrap_or(0);
    match kind {
        "object" => {
            let properties = schema.get("properties").and_then(Value::as_object);
            let mut out = Map::new();
            for name in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                let property = properties.and_then(|p| p.get(name)).unwrap_or(&Value::Null);
                out.insert(name.to_string(), sample(property));
            }
            Value::Object(out)
        }
        "array" => {
            let items = schema.get("items").unwrap_or(&Value::Null);
            let n = usize::try_from(length("minItems")).unwrap_or(0);
            Value::Array((0..n).map(|_| sample(items)).collect())
        }
        "string" => {
            let n = usize::try_from(length("minLength")).unwrap_or(0);
            Value::String("x".repeat(n))
        }
        "integer" => {
            let int = |key: &str| schema.get(key).and_then(Value::as_i64);
            let least = int("minimum")
                .or_else(|| int("exclusiveMinimum").map(|m| m.saturating_add(1)))
                .unwrap_or(0);
            let most = int("maximum").unwrap_or(i64::MAX);
            json!(if least <= 0 && most >= 0 { 0 } else { least })
        }
        "number" => {
            let least = bound("minimum")
                .or_else(|| bound("exclusiveMinimum").map(|m| m + 1.0))
                .unwrap_or(0.0);
            let most = bound("maximum").unwrap_or(f64::INFINITY);
            json!(if least <= 0.0 && most >= 0.0 {
                0.0
            } else {
                least
            })
        }
        "boolean" => Value::Bool(false),
        "null" => Value::Null,
        _ => json!({}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_schemas() {
        let closed = json!({
            "type": "object",
            "description": "d",
            "properties": {
                "a": {"type": ["string", "null"], "enum": ["x", "y", null]},
                "b": {"type": "array", "items": {
                    "type": "object",
                    "properties": {"c": {"type": "integer", "minimum": 0, "maximum": 9}},
                    "required": ["c"],
                    "additionalProperties": false
                }},
                "d": {"anyOf": [{"type": "string"}, {"type": "number"}]}
            },
            "required": ["a", "b", "d"],
            "additionalProperties": false
        });
        assert!(strict(&closed));
        let empty = json!({"type": "object", "properties": {}, "additionalProperties": false});
        assert!(strict(&empty));
    }

    /// One schema per reason a schema is not strict.
    #[test]
    fn schemas_that_are_not_strict() {
        let cases = [
            (
                "an object not closed",
                json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}),
            ),
            (
                "a nested object open to more",
                json!({"type": "object", "properties": {"a": {
                    "type": "object", "properties": {}, "additionalProperties": true
                }}, "required": ["a"], "additionalProperties": false}),
            ),
            (
                "a property not required",
                json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}),
            ),
            (
                "a free-form object",
                json!({"type": "object", "properties": {"a": {"type": "object"}}, "required": ["a"], "additionalProperties": false}),
            ),
            (
                "a default",
                json!({"type": "object", "properties": {"a": {"type": "string", "default": "x"}}, "required": ["a"], "additionalProperties": false}),
            ),
            (
                "a keyword strict mode does not read",
                json!({"type": "object", "properties": {"a": {"type": "string", "format": "date"}}, "required": ["a"], "additionalProperties": false}),
            ),
            (
                "a keyword in an anyOf branch",
                json!({"type": "object", "properties": {"a": {"anyOf": [{"$ref": "#/x"}]}}, "required": ["a"], "additionalProperties": false}),
            ),
            (
                "tuple items",
                json!({"type": "object", "properties": {"a": {"type": "array", "items": [{"type": "string"}]}}, "required": ["a"], "additionalProperties": false}),
            ),
            ("a root that is not an object", json!({"type": "string"})),
        ];
        for (reason, schema) in cases {
            assert!(!strict(&schema), "strict despite {reason}: {schema}");
        }
    }

    /// Properties named like keywords are names, not keywords.
    #[test]
    fn property_names_are_not_keywords() {
        let schema = json!({
            "type": "object",
            "properties": {"default": {"type": "string"}, "format": {"type": "string"}},
            "required": ["default", "format"],
            "additionalProperties": false
        });
        assert!(strict(&schema));
    }

    #[test]
    fn a_sample_fits_what_its_schema_asks() {
        let schema = json!({
            "type": "object",
            "properties": {
                "rows": {"type": "array", "items": {"type": "object"}, "minItems": 1},
                "count": {"type": "integer", "minimum": 3},
                "status": {"type": "string", "enum": ["ok", "partial"]},
                "note": {"type": ["string", "null"], "minLength": 2},
                "optional": {"type": "string"}
            },
            "required": ["rows", "count", "status", "note"]
        });
        assert_eq!(
            super::sample(&schema),
            json!({"rows": [{}], "count": 3, "status": "ok", "note": "xx"})
        );
    }
}
