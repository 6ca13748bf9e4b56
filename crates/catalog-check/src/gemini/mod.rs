//! A tool's input schema in the Gemini API's dialect: the `Schema` object that
//! `FunctionDeclaration.parameters` takes, a subset of the `OpenAPI` 3.0 schema.
//!
//! # Why `parameters`, and which fields
//!
//! A function declaration takes its parameters either as `parameters`, a `Schema`, or as
//! `parametersJsonSchema`, plain JSON Schema. `parameters` is the one every Gemini model and
//! both the Gemini API and Vertex AI document field by field; what the server does with a
//! JSON Schema keyword it does not support is not documented, and a constraint dropped
//! there is dropped without a word. Converting here makes every loss visible: the
//! `schema-portability` lint reports each one with the row and the JSON Pointer.
//!
//! The Gemini API's `Schema` (v1beta) has `type` (one of `STRING`, `NUMBER`, `INTEGER`,
//! `BOOLEAN`, `ARRAY`, `OBJECT`, `NULL`), `format`, `title`, `description`, `nullable`,
//! `enum` (strings), `default`, `example`, `items`, `minItems`, `maxItems`, `properties`,
//! `required`, `propertyOrdering`, `minProperties`, `maxProperties`, `minimum`, `maximum`,
//! `minLength`, `maxLength`, `pattern` and `anyOf`. `additionalProperties`, `$ref` and `$defs`
//! exist only on Vertex AI's (google-genai refuses `additionalProperties` outside Vertex AI
//! mode), so nothing here writes them. Field names are the REST API's camelCase, types its
//! upper-case enum names, as google-genai's own `Schema.model_dump` writes them.
//!
//! # The rules
//!
//! - `"type": [..]` becomes one type when one is left after `null`, else `anyOf` with a
//!   branch per type, each holding the keywords that apply to its type (Gemini refuses
//!   `properties` beside a type other than `OBJECT`); `null` among the types, an `anyOf`
//!   branch `{"type": "null"}` or `null` in an `enum` become `nullable: true`.
//! - `oneOf` becomes `anyOf`: the verifier reads both alike (a value matching several
//!   branches passes it too), and the lint says the model is told `anyOf`.
//! - `enum` and `const`: strings stay strings (an `enum` of strings makes the node a string
//!   whatever its `type`, as the verifier reads it); numbers, which Gemini's string-only `enum`
//!   takes as `format: "enum"` with the numbers as text (the `Schema` reference's own
//!   example), go that way.
//! - `exclusiveMinimum`/`exclusiveMaximum` on an integer become the `minimum`/`maximum`
//!   that mean the same.
//! - Each object with more than one property lists them in `propertyOrdering`, in the
//!   catalog's order, as google-genai does for the declarations it builds: the API keeps
//!   properties in a map, which has no order of its own.
//! - A tool without parameters has no `parameters` at all: the reference says to leave it
//!   unset, and Gemini refuses an `OBJECT` whose `properties` are empty at the root.
//! - Dropped without a trace, since nothing is lost: a `null` default (google-genai reads
//!   it as unset), `additionalProperties: false` (the
//!   declared properties are all the model is shown, and the verifier refuses any other)
//!   and `true` (the default), keywords of a type the node does not have (`minLength` on
//!   an integer constrains nothing), and `$schema`, `$id`, `$comment`, `$anchor`, the
//!   `examples` after the first (which becomes `example`).
//! - Anything else Gemini's `Schema` cannot say (`additionalProperties` as a schema,
//!   `multipleOf`, `uniqueItems`, `not`, `allOf`, `$ref`, ...) is a constraint the
//!   verifier does not check either: rather than lose it, the node's description ends with
//!   it as JSON Schema text, so the model is still told, and the lint reports it.

use serde_json::{Map, Value};

mod keys;

pub(crate) use keys::keys_of;
use keys::{GENERAL, SILENT, TYPES};

/// The Gemini form of one input schema, and what it could not carry as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    /// `FunctionDeclaration.parameters`; `None` for a tool without parameters.
    pub parameters: Option<Value>,
    /// What the conversion could not keep as a keyword, in schema order.
    pub losses: Vec<Loss>,
}

/// Something of a schema Gemini's dialect does not carry as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Loss {
    /// Where, as a JSON Pointer into the input schema as the catalog publishes it.
    pub pointer: String,
    /// What.
    pub kind: LossKind,
}

/// What a [`Loss`] is.
#[derive(Debug, Clone, PartialEq)]
pub enum LossKind {
    /// Keywords `Schema` lacks, told in the node's description instead (an object of them).
    Described(Map<String, Value>),
    /// `oneOf`, sent as `anyOf`.
    OneOf,
    /// An array without `items`: Gemini requires them ("items: missing field").
    NoItems,
    /// A node with no type and no `anyOf` (any value): Gemini's `Schema` cannot say "any".
    Untyped,
    /// A parameter name outside what Gemini on Vertex AI documents for them,
    /// `[A-Za-z_][A-Za-z0-9_]{0,63}` (the Gemini API states no rule); it goes as written.
    ParameterName(String),
    /// A `required` name that `properties` does not declare, which Gemini refuses; left
    /// out of `required`.
    UndeclaredRequired(String),
}

/// Converts an input schema (an object schema, as the compiler publishes it).
#[must_use]
pub(crate) fn convert(schema: &Value) -> Converted {
    let mut losses = Vec::new();
    let root = node(schema, "", &mut losses);
    let empty = root
        .keyword("properties")
        .and_then(Value::as_object)
        .is_none_or(Map::is_empty);
    if let Some(Value::Object(properties)) = root.keyword("properties") {
        for name in properties.keys() {
            if !is_parameter_name(name) {
                losses.insert(
                    0,
                    Loss {
                        pointer: format!("/properties/{}", escape(name)),
                        kind: LossKind::ParameterName(name.clone()),
                    },
                );
            }
        }
    }
    let is_object = root.keyword("type").and_then(Value::as_str) == Some("OBJECT");
    Converted {
        parameters: if is_object && empty && root.len() <= 2 {
            // `{"type": "OBJECT"}`, with a description at most: no parameters.
            None
        } else {
            Some(Value::Object(root))
        },
        losses,
    }
}

/// Whether Gemini on Vertex AI documents `name` as a valid parameter name: a letter or
/// `_`, then letters, digits and `_`, 64 at most.
#[must_use]
pub(crate) fn is_parameter_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// `name` as one JSON Pointer segment (RFC 6901).
#[must_use]
pub fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// Keyword lookups on a schema node, which holds a few keys: a scan of them costs less
/// than hashing the key (`serde_json`'s map uses `SipHash`), and a large catalog
/// makes millions of lookups.
trait Keywords {
    fn keyword(&self, key: &str) -> Option<&Value>;

    fn has(&self, key: &str) -> bool {
        self.keyword(key).is_some()
    }
}

impl Keywords for Map<String, Value> {
    fn keyword(&self, key: &str) -> Option<&Value> {
        if self.len() > 16 {
            return self.get(key);
        }
        self.iter().find_map(|(k, v)| (k == key).then_some(v))
    }
}

/// Converts one schema node.
#[allow(clippy::too_many_lines)] // the node's branches, types and annotations, in order
fn node(schema: &Value, at: &str, losses: &mut Vec<Loss>) -> Map<String, Value> {
    let Value::Object(m) = schema else {
        // `true` (any value) or `false` (none): no type Gemini can say.
        losses.push(Loss {
            pointer: at.to_string(),
            kind: LossKind::Untyped,
        });
        return Map::new();
    };
    let mut out = Map::new();
    let mut described = Map::new();
    let mut nullable = m.keyword("nullable") == Some(&Value::Bool(true));

    let branches = m
        .keyword("anyOf")
        .map(|b| ("anyOf", b))
        .or_else(|| m.keyword("oneOf").map(|b| ("oneOf", b)));
    // The types the node may have, `null` apart.
    let mut types: Vec<&str> = Vec::new();
    let mut read: Vec<&str> = GENERAL.to_vec();
    if let Some((key, Value::Array(list))) = branches {
        if key == "oneOf" && list.len() > 1 {
            losses.push(Loss {
                pointer: format!("{at}/oneOf"),
                kind: LossKind::OneOf,
            });
        }
        let mut converted = Vec::new();
        for (i, b) in list.iter().enumerate() {
            if b.get("type").and_then(Value::as_str) == Some("null")
                && b.as_object().is_some_and(|o| o.len() == 1)
            {
                nullable = true;
                continue;
            }
            converted.push(Value::Object(node(b, &format!("{at}/{key}/{i}"), losses)));
        }
        if m.has("anyOf") && m.has("oneOf") {
            described.insert("oneOf".into(), m["oneOf"].clone());
        }
        match converted.len() {
            0 => {}
            1 => {
                if let Some(Value::Object(only)) = converted.pop() {
                    out.extend(only);
                }
            }
            _ => {
                out.insert("anyOf".into(), Value::Array(converted));
            }
        }
    } else {
        let string_enum = m
            .keyword("enum")
            .and_then(Value::as_array)
            .is_some_and(|v| !v.is_empty() && v.iter().all(Value::is_string));
        match m.keyword("type") {
            // The verifier reads an enum of strings as a string enum whatever the type
            // says (BFCL has `"type": "boolean"` with `["True", "False", "dontcare"]`):
            // the declaration tells the model the same.
            _ if string_enum => types.push("string"),
            Some(Value::String(t)) => types.push(t),
            Some(Value::Array(list)) => types.extend(list.iter().filter_map(Value::as_str)),
            _ => {
                // Without `type`: what the keywords say.
                if m.has("properties") {
                    types.push("object");
                } else if m.has("items") {
                    types.push("array");
                } else if m
                    .keyword("enum")
                    .and_then(Value::as_array)
                    .is_some_and(|v| {
                        !v.is_empty() && v.iter().all(|x| x.is_string() || x.is_null())
                    })
                {
                    types.push("string");
                }
            }
        }
        types.retain(|t| TYPES.iter().any(|(name, _)| name == t));
        if types.len() > 1 && types.contains(&"null") {
            nullable = true;
            types.retain(|t| *t != "null");
        }
        for t in &types {
            read.extend(keys_of(t));
        }
        match types.as_slice() {
            [] => losses.push(Loss {
                pointer: at.to_string(),
                kind: LossKind::Untyped,
            }),
            [t] => typed(t, m, at, &mut out, &mut described, &mut nullable, losses),
            many => {
                let mut list = Vec::new();
                for t in many {
                    let mut branch = Map::new();
                    let mut branch_nullable = false;
                    typed(
                        t,
                        m,
                        at,
                        &mut branch,
                        &mut described,
                        &mut branch_nullable,
                        losses,
                    );
                    nullable |= branch_nullable;
                    list.push(Value::Object(branch));
                }
                out.insert("anyOf".into(), Value::Array(list));
            }
        }
    }

    // Keywords no rule read: constraints Gemini cannot carry as keywords.
    for (k, v) in m {
        if read.contains(&k.as_str()) || SILENT.contains(&k.as_str()) {
            continue;
        }
        let of_another_type =
            TYPES.iter().any(|(t, _)| keys_of(t).contains(&k.as_str())) && !types.is_empty();
        if of_another_type {
            continue;
        }
        described.insert(k.clone(), v.clone());
    }

    // Annotations on the node itself, whatever its branches.
    let mut description = m
        .keyword("description")
        .and_then(Value::as_str)
        .map(str::to_string);
    if !described.is_empty() {
        let text = Value::Object(described.clone()).to_string();
        description = Some(match description {
            Some(d) => format!("{d} (JSON Schema: {text})"),
            None => format!("JSON Schema: {text}"),
        });
        losses.push(Loss {
            pointer: at.to_string(),
            kind: LossKind::Described(described),
        });
    }
    let mut annotated = Map::new();
    if let Some(t) = out.shift_remove("type") {
        annotated.insert("type".into(), t);
    }
    if let Some(Value::String(title)) = m.keyword("title") {
        annotated.insert("title".into(), Value::String(title.clone()));
    }
    match description {
        Some(d) => {
            annotated.insert("description".into(), Value::String(d));
        }
        None => {
            if let Some(d) = out.shift_remove("description") {
                annotated.insert("description".into(), d);
            }
        }
    }
    // A single `anyOf` branch merged in may say it is nullable too.
    nullable |= out.shift_remove("nullable") == Some(Value::Bool(true));
    if nullable {
        annotated.insert("nullable".into(), Value::Bool(true));
    }
    annotated.extend(out);
    // A `null` default or example is left out: google-genai reads `None` as unset, so it
    // never reaches the API, and an optional parameter says the same without it.
    if let Some(d) = m.keyword("default").filter(|d| !d.is_null()) {
        annotated.insert("default".into(), d.clone());
    }
    let example = m.keyword("example").or_else(|| {
        m.keyword("examples")
            .and_then(Value::as_array)
            .and_then(|e| e.first())
    });
    if let Some(e) = example.filter(|e| !e.is_null()) {
        annotated.insert("example".into(), e.clone());
    }
    annotated
}

/// The keywords of one type `t` of the node `m`, written into `out`.
#[allow(clippy::too_many_lines, clippy::many_single_char_names)] // one arm per type, each short
fn typed(
    t: &str,
    m: &Map<String, Value>,
    at: &str,
    out: &mut Map<String, Value>,
    described: &mut Map<String, Value>,
    nullable: &mut bool,
    losses: &mut Vec<Loss>,
) {
    let gemini = TYPES
        .iter()
        .find(|(name, _)| *name == t)
        .map_or("STRING", |(_, g)| g);
    out.insert("type".into(), Value::String(gemini.to_string()));
    let copy = |out: &mut Map<String, Value>, keys: &[&str]| {
        for k in keys {
            if let Some(v) = m.keyword(k) {
                out.insert((*k).to_string(), v.clone());
            }
        }
    };
    // `enum`, with `const` as an enum of one; `null` among the values makes it nullable.
    let values: Option<Vec<&Value>> = match (m.keyword("enum"), m.keyword("const")) {
        (Some(Value::Array(values)), _) => Some(values.iter().collect()),
        (None, Some(c)) => Some(vec![c]),
        _ => None,
    };
    let values = values.map(|values| {
        if values.iter().any(|v| v.is_null()) {
            *nullable = true;
        }
        values
            .into_iter()
            .filter(|v| !v.is_null())
            .collect::<Vec<_>>()
    });
    match t {
        "string" => {
            copy(out, &["format", "minLength", "maxLength", "pattern"]);
            if let Some(values) = values {
                let strings: Vec<Value> = values
                    .iter()
                    .filter(|v| v.is_string())
                    .map(|v| (*v).clone())
                    .collect();
                if !strings.is_empty() {
                    out.insert("enum".into(), Value::Array(strings));
                }
            }
            for k in ["contentEncoding", "contentMediaType"] {
                if let Some(v) = m.keyword(k) {
                    described.insert(k.into(), v.clone());
                }
            }
        }
        "integer" | "number" => {
            copy(out, &["format", "minimum", "maximum"]);
            let integer = t == "integer";
            for (key, bound, step) in [
                ("exclusiveMinimum", "minimum", 1.0),
                ("exclusiveMaximum", "maximum", -1.0),
            ] {
                let Some(v) = m.keyword(key) else { continue };
                // Draft 6 on: the bound itself; draft 4: `true` beside `minimum`/`maximum`
                // (`false` there changes nothing).
                let limit = match v {
                    Value::Bool(false) => continue,
                    Value::Number(n) => n.as_f64(),
                    Value::Bool(true) => m.keyword(bound).and_then(Value::as_f64),
                    _ => None,
                };
                match limit {
                    Some(x) if integer && x.abs() < 9.0e15 => {
                        // n > x (or n < x) for a whole n: the next whole number on.
                        let whole = if step > 0.0 {
                            x.floor() + 1.0
                        } else {
                            x.ceil() - 1.0
                        };
                        let tighter = match out.keyword(bound).and_then(Value::as_f64) {
                            Some(b) if (step > 0.0 && b > whole) || (step < 0.0 && b < whole) => b,
                            _ => whole,
                        };
                        out.insert(bound.into(), crate::schema::number(tighter));
                    }
                    _ => {
                        described.insert(key.into(), v.clone());
                    }
                }
            }
            if let Some(v) = m.keyword("multipleOf") {
                described.insert("multipleOf".into(), v.clone());
            }
            if let Some(values) = values {
                let numbers: Vec<Value> = values
                    .iter()
                    .filter_map(|v| v.as_number())
                    .map(|n| Value::String(n.to_string()))
                    .collect();
                if !numbers.is_empty() {
                    if let Some(format) = out.insert("format".into(), Value::String("enum".into()))
                    {
                        described.insert("format".into(), format);
                    }
                    out.insert("enum".into(), Value::Array(numbers));
                }
            }
        }
        "boolean" => {
            if let Some(values) = values {
                let key = if m.has("enum") { "enum" } else { "const" };
                if !values.is_empty() {
                    described.insert(key.into(), m[key].clone());
                }
            }
        }
        "array" => {
            copy(out, &["minItems", "maxItems"]);
            match m.keyword("items") {
                Some(items @ (Value::Object(_) | Value::Bool(true))) => {
                    out.insert(
                        "items".into(),
                        Value::Object(node(items, &format!("{at}/items"), losses)),
                    );
                }
                Some(other) => {
                    // A tuple (draft 4's array form) or `false`.
                    described.insert("items".into(), other.clone());
                }
                None => losses.push(Loss {
                    pointer: at.to_string(),
                    kind: LossKind::NoItems,
                }),
            }
            // Every other array keyword Gemini lacks goes into the description, so one
            // added to the array's keys is never dropped unsaid.
            for &k in keys_of("array") {
                if let (false, Some(v)) =
                    (["items", "minItems", "maxItems"].contains(&k), m.keyword(k))
                {
                    described.insert(k.into(), v.clone());
                }
            }
        }
        "object" => object(m, at, out, described, losses),
        _ => {}
    }
}

/// The keywords of an object node.
fn object(
    m: &Map<String, Value>,
    at: &str,
    out: &mut Map<String, Value>,
    described: &mut Map<String, Value>,
    losses: &mut Vec<Loss>,
) {
    let mut names: Vec<&str> = Vec::new();
    if let Some(Value::Object(properties)) = m.keyword("properties") {
        let mut converted = Map::new();
        for (name, p) in properties {
            let pointer = format!("{at}/properties/{}", escape(name));
            converted.insert(name.clone(), Value::Object(node(p, &pointer, losses)));
            names.push(name);
        }
        out.insert("properties".into(), Value::Object(converted));
    }
    if let Some(Value::Array(required)) = m.keyword("required") {
        let mut kept = Vec::new();
        for r in required {
            match r.as_str() {
                Some(name) if names.contains(&name) => kept.push(r.clone()),
                Some(name) => losses.push(Loss {
                    pointer: format!("{at}/required"),
                    kind: LossKind::UndeclaredRequired(name.to_string()),
                }),
                None => {}
            }
        }
        if !kept.is_empty() {
            out.insert("required".into(), Value::Array(kept));
        }
    }
    match m.keyword("propertyOrdering") {
        Some(order @ Value::Array(_)) => {
            out.insert("propertyOrdering".into(), order.clone());
        }
        _ if names.len() > 1 => {
            out.insert(
                "propertyOrdering".into(),
                Value::Array(
                    names
                        .iter()
                        .map(|n| Value::String((*n).to_string()))
                        .collect(),
                ),
            );
        }
        _ => {}
    }
    for k in ["minProperties", "maxProperties"] {
        if let Some(v) = m.keyword(k) {
            out.insert(k.into(), v.clone());
        }
    }
    match m.keyword("additionalProperties") {
        None | Some(Value::Bool(_)) => {}
        Some(schema) => {
            described.insert("additionalProperties".into(), schema.clone());
        }
    }
    for k in [
        "patternProperties",
        "propertyNames",
        "dependentRequired",
        "dependentSchemas",
        "dependencies",
        "unevaluatedProperties",
    ] {
        if let Some(v) = m.keyword(k) {
            described.insert(k.into(), v.clone());
        }
    }
}

#[cfg(test)]
mod tests;
