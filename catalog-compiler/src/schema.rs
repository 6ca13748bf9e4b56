//! JSON Schema of a tool's input and output, as MCP and the model providers read it.

use serde_json::{Map, Value, json};

use crate::model::{Field, Kind, Tool, TypeSpec};

/// The input schema: an object of the tool's parameters. Unknown properties are refused,
/// since a model that invents an argument has misread the tool.
#[must_use]
pub fn input(tool: &Tool) -> Value {
    match &tool.input_schema {
        Some(raw) => raw.clone(),
        None => object(&tool.params, None),
    }
}

/// The output schema, when the row declares one.
#[must_use]
pub fn output(tool: &Tool) -> Option<Value> {
    tool.output.as_ref().map(type_spec)
}

fn object(fields: &[Field], description: Option<&str>) -> Value {
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    if let Some(d) = description {
        schema.insert("description".into(), d.into());
    }
    let mut props = Map::new();
    for f in fields {
        let mut p = type_spec(&f.ty);
        if let (Some(d), Value::Object(m)) = (&f.default, &mut p) {
            m.insert("default".into(), d.clone());
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
    schema.insert("additionalProperties".into(), false.into());
    Value::Object(schema)
}

fn type_spec(t: &TypeSpec) -> Value {
    let description = t.description.as_deref();
    let mut v = match &t.kind {
        Kind::Object(Some(fields)) => return object(fields, description),
        Kind::Object(None) => json!({"type": "object"}),
        Kind::String { values: None } => json!({"type": "string"}),
        Kind::String {
            values: Some(values),
        } => json!({"type": "string", "enum": values}),
        Kind::Integer { minimum, maximum } => bounded("integer", *minimum, *maximum),
        Kind::Number { minimum, maximum } => bounded("number", *minimum, *maximum),
        Kind::Boolean => json!({"type": "boolean"}),
        Kind::Array(item) => json!({"type": "array", "items": type_spec(item)}),
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
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        #[allow(clippy::cast_possible_truncation)]
        Value::from(x as i64)
    } else {
        json!(x)
    }
}
