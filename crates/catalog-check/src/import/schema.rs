//! JSON Schema → the type language, when it says exactly the same; the reason it goes
//! through an escape hatch otherwise.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::model::{Bounds, Field, Input, Kind, Reason, Type};
use crate::model::{
    HEADER_MAX_INTEGER, bounds_in_order, enum_faults, is_field_name, is_header_name, is_list_item,
    may_have_default,
};

/// A tool's `inputSchema`: a parameter table when the type language holds the object
/// itself (type, properties, required, and whether it is closed), the whole schema
/// otherwise; and whether the table is open to other arguments (`additional-params`).
pub(super) fn input(schema: &Value) -> (Input, bool) {
    let whole = |reason| (Input::Whole(schema.clone(), reason), false);
    let Some(obj) = schema.as_object() else {
        return whole(Reason::NotAnObject);
    };
    for (key, value) in obj {
        match key.as_str() {
            "type" | "properties" | "required" => {}
            // Closed, as the compiler writes a parameter table, or open, as
            // `additional-params` writes it.
            "additionalProperties" if value.is_boolean() => {}
            other => return whole(Reason::TopLevelKey(other.to_string())),
        }
    }
    if obj.get("type").and_then(Value::as_str) != Some("object") {
        return whole(Reason::TopLevelType);
    }
    let open = obj.get("additionalProperties") != Some(&Value::Bool(false));
    let mirrors = Mirrors {
        repeated: repeated_headers(obj),
    };
    match fields(obj, Some(&mirrors)) {
        Ok(params) => (Input::Params(params), open),
        Err(reason) => whole(reason),
    }
}

/// What a property's `x-mcp-header` may become: a field's `header`, on a property reached
/// from the arguments through `properties` alone, unless another property of the tool
/// names the same header (whatever its case), which the compiler refuses: those keep
/// their schema as written.
pub(super) struct Mirrors {
    repeated: BTreeSet<String>,
}

/// The header names, lowercased, that more than one property of an input schema's
/// `properties` chains says in `x-mcp-header`.
fn repeated_headers(obj: &Map<String, Value>) -> BTreeSet<String> {
    fn walk(
        obj: &Map<String, Value>,
        seen: &mut BTreeSet<String>,
        repeated: &mut BTreeSet<String>,
    ) {
        let Some(Value::Object(props)) = obj.get("properties") else {
            return;
        };
        for prop in props.values().filter_map(Value::as_object) {
            if let Some(Value::String(header)) = prop.get("x-mcp-header")
                && !seen.insert(header.to_ascii_lowercase())
            {
                repeated.insert(header.to_ascii_lowercase());
            }
            walk(prop, seen, repeated);
        }
    }
    let (mut seen, mut repeated) = (BTreeSet::new(), BTreeSet::new());
    walk(obj, &mut seen, &mut repeated);
    repeated
}

/// The properties of an object schema as fields; an error when the object itself cannot be
/// written (a name the format rejects, a `required` list that is not a set of its names).
/// With `mirrors`, the object is reached through `properties` alone, and a property's
/// `x-mcp-header` may become its `header`.
pub(super) fn fields(
    obj: &Map<String, Value>,
    mirrors: Option<&Mirrors>,
) -> Result<Vec<Field>, Reason> {
    let empty = Map::new();
    let props = match obj.get("properties") {
        None => &empty,
        Some(Value::Object(p)) => p,
        Some(_) => return Err(Reason::Keyword("properties".into())),
    };
    if let Some(bad) = props.keys().find(|k| !is_field_name(k)) {
        return Err(Reason::PropertyName(bad.clone()));
    }
    let required: Vec<&str> = match obj.get("required") {
        None => Vec::new(),
        Some(Value::Array(list)) => list
            .iter()
            .map(|v| v.as_str().ok_or(Reason::RequiredList))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(Reason::RequiredList),
    };
    let set: BTreeSet<&str> = required.iter().copied().collect();
    if set.len() != required.len() || set.iter().any(|r| !props.contains_key(*r)) {
        return Err(Reason::RequiredList);
    }
    Ok(props
        .iter()
        .map(|(name, schema)| field(name, schema, set.contains(name.as_str()), mirrors))
        .collect())
}

/// A parameter or property: exact when its type, default and `x-mcp-header` can be
/// written, the original JSON otherwise.
pub(super) fn field(
    name: &str,
    schema: &Value,
    required: bool,
    mirrors: Option<&Mirrors>,
) -> Field {
    let (ty, default, header) = match mirrored(schema, required, mirrors) {
        Ok(done) => done,
        Err(reason) => (
            Type {
                kind: Kind::Raw(schema.clone(), reason),
                description: None,
            },
            None,
            None,
        ),
    };
    Field {
        name: name.to_string(),
        rust_name: None,
        ty,
        required,
        default,
        header,
    }
}

/// A field's type and default, and its `header` when its schema says `x-mcp-header` and
/// the compiler would take it as one: a header name on a string, boolean or integer MCP
/// mirrors, where `mirrors` allows one.
fn mirrored(
    schema: &Value,
    required: bool,
    mirrors: Option<&Mirrors>,
) -> Result<(Type, Option<Value>, Option<String>), Reason> {
    let Some(Value::String(header)) = schema.get("x-mcp-header") else {
        let (ty, default) = exact_field(schema, required, mirrors)?;
        return Ok((ty, default, None));
    };
    let refused = || Reason::Keyword("x-mcp-header".into());
    let allowed = mirrors.is_some_and(|m| !m.repeated.contains(&header.to_ascii_lowercase()));
    if !allowed || !is_header_name(header) {
        return Err(refused());
    }
    let mut rest = schema.clone();
    if let Value::Object(keys) = &mut rest {
        keys.remove("x-mcp-header");
    }
    let (ty, default) = exact_field(&rest, required, mirrors)?;
    let within = |b: &Option<serde_json::Number>| {
        b.as_ref()
            .and_then(serde_json::Number::as_f64)
            .is_none_or(|b| b.abs() <= HEADER_MAX_INTEGER)
    };
    match &ty.kind {
        Kind::String(_) | Kind::Boolean => {}
        Kind::Integer(b) if within(&b.minimum) && within(&b.maximum) => {}
        _ => return Err(refused()),
    }
    Ok((ty, default, Some(header.clone())))
}

pub(super) fn exact_field(
    schema: &Value,
    required: bool,
    mirrors: Option<&Mirrors>,
) -> Result<(Type, Option<Value>), Reason> {
    let ty = exact_type(schema, true, mirrors)?;
    let Some(default) = schema.get("default") else {
        return Ok((ty, None));
    };
    if !may_have_default(required) {
        return Err(Reason::RequiredWithDefault);
    }
    if default.is_null() {
        return Err(Reason::DefaultNull);
    }
    if !writable(default) {
        return Err(Reason::DefaultUnwritable);
    }
    if ty.to_model().kind.fits(default).is_err() {
        return Err(Reason::DefaultDoesNotFit);
    }
    Ok((ty, Some(default.clone())))
}

/// A type exactly, or the original JSON (for `items` and `output`).
pub(super) fn exact_or_raw(schema: &Value, field: bool) -> Type {
    exact_type(schema, field, None).unwrap_or_else(|reason| Type {
        kind: Kind::Raw(schema.clone(), reason),
        description: None,
    })
}

/// The type language's form of a schema, when it says exactly the same. `field` allows a
/// `default` (checked by the caller); `mirrors`, the properties of an object the
/// arguments reach through `properties` alone ([`fields`]).
pub(super) fn exact_type(
    schema: &Value,
    field: bool,
    mirrors: Option<&Mirrors>,
) -> Result<Type, Reason> {
    const TYPED: &[&str] = &[
        "enum",
        "minimum",
        "maximum",
        "items",
        "properties",
        "required",
        "additionalProperties",
    ];
    let Some(obj) = schema.as_object() else {
        return Err(Reason::NotAnObject);
    };
    for key in obj.keys() {
        let known = matches!(key.as_str(), "type" | "description")
            || (field && key == "default")
            || TYPED.contains(&key.as_str());
        if key == "default" && !field {
            return Err(Reason::ItemsDefault);
        }
        if !known {
            return Err(Reason::Keyword(key.clone()));
        }
    }
    let ty = match obj.get("type") {
        None => return Err(Reason::NoType),
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(_)) => return Err(Reason::TypeList),
        Some(other) => return Err(Reason::OtherType(other.to_string())),
    };
    let allowed: &[&str] = match ty {
        "string" => &["enum"],
        "integer" | "number" => &["minimum", "maximum"],
        "boolean" => &[],
        "array" => &["items"],
        "object" => &["properties", "required", "additionalProperties"],
        other => return Err(Reason::OtherType(format!("\"{other}\""))),
    };
    if let Some(k) = TYPED
        .iter()
        .find(|k| obj.contains_key(**k) && !allowed.contains(k))
    {
        return Err(if *k == "enum" {
            Reason::EnumNotStrings
        } else {
            Reason::KeyForOtherType((*k).to_string(), ty.to_string())
        });
    }
    let description = match obj.get("description") {
        None => None,
        Some(Value::String(d)) => Some(d.clone()),
        Some(_) => return Err(Reason::DescriptionNotString),
    };
    let kind = match ty {
        "string" => Kind::String(match obj.get("enum") {
            None => None,
            Some(values) => Some(string_enum(values)?),
        }),
        "integer" | "number" => {
            let bounds = Bounds {
                minimum: bound(obj.get("minimum"))?,
                maximum: bound(obj.get("maximum"))?,
            };
            let number =
                |n: &Option<serde_json::Number>| n.as_ref().and_then(serde_json::Number::as_f64);
            if !bounds_in_order(number(&bounds.minimum), number(&bounds.maximum)) {
                return Err(Reason::BoundsReversed);
            }
            if ty == "integer" {
                Kind::Integer(bounds)
            } else {
                Kind::Number(bounds)
            }
        }
        "boolean" => Kind::Boolean,
        "array" => match obj.get("items") {
            None => return Err(Reason::ArrayWithoutItems),
            Some(items @ (Value::Object(_) | Value::Bool(_))) => {
                Kind::Array(Box::new(exact_or_raw(items, false)))
            }
            Some(_) => return Err(Reason::ItemsNotSchema),
        },
        _ => {
            let has_props = obj.contains_key("properties");
            match obj.get("additionalProperties") {
                // The type language closes an object with properties; one its schema
                // leaves open keeps its meaning as written.
                None if has_props => return Err(Reason::OpenObject),
                None => {}
                Some(Value::Bool(false)) if has_props => {}
                Some(_) => return Err(Reason::AdditionalProperties),
            }
            if has_props {
                Kind::Object(Some(fields(obj, mirrors)?))
            } else if obj.contains_key("required") {
                return Err(Reason::RequiredList);
            } else {
                Kind::Object(None)
            }
        }
    };
    Ok(Type { kind, description })
}

/// A string `enum` the format accepts: strings, at least one, none blank or repeated.
pub(super) fn string_enum(values: &Value) -> Result<Vec<String>, Reason> {
    let list = values.as_array().ok_or(Reason::EnumNotStrings)?;
    let strings: Vec<String> = list
        .iter()
        .map(|v| v.as_str().map(str::to_string).ok_or(Reason::EnumNotStrings))
        .collect::<Result<_, _>>()?;
    let names: Vec<&str> = strings.iter().map(String::as_str).collect();
    if !names.iter().all(|s| is_list_item(s)) || !enum_faults(&names).is_empty() {
        return Err(Reason::EnumRejected);
    }
    Ok(strings)
}

/// A bound the compiler reads back as the same JSON (it keeps bounds as `f64` and writes
/// whole ones as integers).
pub(super) fn bound(v: Option<&Value>) -> Result<Option<serde_json::Number>, Reason> {
    let Some(v) = v else { return Ok(None) };
    let Value::Number(n) = v else {
        return Err(Reason::Bound);
    };
    if !writable(v) {
        return Err(Reason::Bound);
    }
    let x = n.as_f64().ok_or(Reason::Bound)?;
    let again = if x.fract() == 0.0 && x.abs() < 9.0e15 {
        #[allow(clippy::cast_possible_truncation)]
        Value::from(x as i64)
    } else {
        Value::from(x)
    };
    if &again == v {
        Ok(Some(n.clone()))
    } else {
        Err(Reason::Bound)
    }
}

/// Whether TOML can hold a JSON value the way the compiler reads it back: no null, and
/// integers within 64-bit signed range.
pub(super) fn writable(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Number(n) => n.is_i64() || n.is_f64(),
        Value::Bool(_) | Value::String(_) => true,
        Value::Array(xs) => xs.iter().all(writable),
        Value::Object(m) => m.values().all(writable),
    }
}
