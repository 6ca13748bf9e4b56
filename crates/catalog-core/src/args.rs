//! Typed arguments from a model's JSON: what generated argument types implement.
//!
//! Generated types read JSON through [`FromJson`] and not `serde`'s derives: a derived
//! `Deserialize` is a visitor, a field enum and a map loop per type, and in a catalog of
//! thousands of tools that code was most of the user's build. Here each generated type is
//! one short function over the helpers below, which are compiled once.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde_json::{Map, Value};

use crate::verify::words::{describe, push_segment};

/// A value read from JSON, as a model sends tool arguments.
pub trait FromJson: Sized {
    /// Reads `value`.
    ///
    /// # Errors
    /// Where and why the value does not fit the type.
    fn from_json(value: Value) -> Result<Self, ArgError>;
}

/// Why a JSON value does not fit a Rust type, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgError {
    /// Steps from the top of the arguments to the value at fault, innermost last.
    path: Vec<String>,
    message: String,
}

impl ArgError {
    fn new(message: String) -> ArgError {
        ArgError {
            path: Vec::new(),
            message,
        }
    }

    /// The error one level up: the value it is about sat under `step` (a key or an index).
    fn under(mut self, step: &(impl fmt::Display + ?Sized)) -> ArgError {
        self.path.insert(0, step.to_string());
        self
    }

    /// The value's location as a JSON Pointer (`""` for the arguments as a whole).
    #[must_use]
    pub fn pointer(&self) -> String {
        let mut pointer = String::new();
        for step in &self.path {
            push_segment(&mut pointer, step);
        }
        pointer
    }

    /// What is wrong with the value.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "at `{}`: {}", self.pointer(), self.message)
        }
    }
}

impl core::error::Error for ArgError {}

fn invalid(value: &Value, expected: &str) -> ArgError {
    ArgError::new(format!("expected {expected}, found {}", describe(value)))
}

impl FromJson for Value {
    fn from_json(value: Value) -> Result<Self, ArgError> {
        Ok(value)
    }
}

impl FromJson for String {
    fn from_json(value: Value) -> Result<Self, ArgError> {
        match value {
            Value::String(s) => Ok(s),
            other => Err(invalid(&other, "a string")),
        }
    }
}

impl FromJson for bool {
    fn from_json(value: Value) -> Result<Self, ArgError> {
        match value {
            Value::Bool(b) => Ok(b),
            other => Err(invalid(&other, "a boolean")),
        }
    }
}

impl FromJson for i64 {
    fn from_json(value: Value) -> Result<Self, ArgError> {
        match &value {
            Value::Number(n) => n.as_i64().ok_or_else(|| {
                ArgError::new(if n.is_f64() {
                    format!("expected an integer, found the number {n}")
                } else {
                    format!("the integer {n} is out of range for a 64-bit signed integer")
                })
            }),
            other => Err(invalid(other, "an integer")),
        }
    }
}

impl FromJson for f64 {
    fn from_json(value: Value) -> Result<Self, ArgError> {
        match &value {
            Value::Number(n) => n
                .as_f64()
                .ok_or_else(|| ArgError::new(format!("the number {n} is out of range"))),
            other => Err(invalid(other, "a number")),
        }
    }
}

impl FromJson for Map<String, Value> {
    fn from_json(value: Value) -> Result<Self, ArgError> {
        match value {
            Value::Object(m) => Ok(m),
            other => Err(invalid(&other, "an object")),
        }
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(value: Value) -> Result<Self, ArgError> {
        match value {
            Value::Array(items) => items
                .into_iter()
                .enumerate()
                .map(|(i, v)| T::from_json(v).map_err(|e| e.under(&i)))
                .collect(),
            other => Err(invalid(&other, "an array")),
        }
    }
}

/// The fields of a JSON object being read into a generated struct. Not part of the public
/// API: the generated `FromJson` impls call it.
#[doc(hidden)]
pub struct Fields(Map<String, Value>);

impl Fields {
    /// The object's fields, refusing one the struct does not declare (a model that invents
    /// an argument has misread the tool).
    ///
    /// # Errors
    /// `value` is not an object, or has a field not in `known`.
    pub fn new(value: Value, known: &[&str]) -> Result<Fields, ArgError> {
        let map = Map::from_json(value)?;
        let unknown: Vec<&str> = map
            .keys()
            .map(String::as_str)
            .filter(|k| !known.contains(k))
            .collect();
        if unknown.is_empty() {
            return Ok(Fields(map));
        }
        let list = |names: &[&str]| {
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let expected = if known.is_empty() {
            "no fields".into()
        } else {
            format!("one of {}", list(known))
        };
        let noun = if unknown.len() == 1 {
            "field"
        } else {
            "fields"
        };
        let e = ArgError::new(format!(
            "unknown {noun} {}, expected {expected}",
            list(&unknown)
        ));
        // One field is the place at fault; several, the object holding them.
        Err(match unknown[..] {
            [one] => e.under(one),
            _ => e,
        })
    }

    /// A field that must be present (`null` counts as present, for `Value` fields).
    ///
    /// # Errors
    /// The field is missing or does not fit `T`.
    pub fn required<T: FromJson>(&mut self, key: &str) -> Result<T, ArgError> {
        match self.0.remove(key) {
            Some(v) => T::from_json(v).map_err(|e| e.under(key)),
            None => Err(ArgError::new(format!("missing field `{key}`"))),
        }
    }

    /// A field that may be missing or `null`.
    ///
    /// # Errors
    /// The field is present and does not fit `T`.
    pub fn optional<T: FromJson>(&mut self, key: &str) -> Result<Option<T>, ArgError> {
        match self.0.remove(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => T::from_json(v).map(Some).map_err(|e| e.under(key)),
        }
    }

    /// A field with a default, used when it is missing.
    ///
    /// # Errors
    /// The field is present and does not fit `T`.
    pub fn or_default<T: FromJson>(
        &mut self,
        key: &str,
        default: fn() -> T,
    ) -> Result<T, ArgError> {
        match self.0.remove(key) {
            None => Ok(default()),
            Some(v) => T::from_json(v).map_err(|e| e.under(key)),
        }
    }
}

/// The position of a string among `values`, for a generated string enum. Not part of the
/// public API.
///
/// # Errors
/// `value` is not a string, or not one of `values`.
#[doc(hidden)]
pub fn variant(value: Value, values: &[&str]) -> Result<usize, ArgError> {
    let s = String::from_json(value)?;
    values.iter().position(|v| *v == s).ok_or_else(|| {
        let expected: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
        ArgError::new(format!(
            "unknown variant `{s}`, expected one of {}",
            expected.join(", ")
        ))
    })
}

/// A tool's arguments, read into its generated type (`null` counts as no arguments). Not
/// part of the public API: the generated `Call::from_checked` calls it.
///
/// # Errors
/// The error as text, for `CallError::BadArguments` and the verifier.
#[doc(hidden)]
pub fn arguments<T: FromJson>(arguments: Value) -> Result<T, String> {
    let arguments = match arguments {
        Value::Null => Value::Object(Map::new()),
        other => other,
    };
    T::from_json(arguments).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use serde_json::json;

    #[derive(Debug, PartialEq)]
    struct Row {
        id: i64,
        tags: Option<Vec<String>>,
        limit: i64,
    }

    impl FromJson for Row {
        fn from_json(value: Value) -> Result<Self, ArgError> {
            let mut f = Fields::new(value, &["id", "tags", "limit"])?;
            Ok(Row {
                id: f.required("id")?,
                tags: f.optional("tags")?,
                limit: f.or_default("limit", || 10)?,
            })
        }
    }

    fn read(v: Value) -> Result<Vec<Row>, String> {
        Vec::<Row>::from_json(v).map_err(|e| e.to_string())
    }

    #[test]
    fn reads_fields_defaults_and_nulls() {
        let rows = read(json!([
            {"id": 1},
            {"id": 2, "tags": null, "limit": 3},
            {"id": 3, "tags": ["a", "b"]},
        ]))
        .unwrap();
        assert_eq!(
            rows,
            [
                Row {
                    id: 1,
                    tags: None,
                    limit: 10
                },
                Row {
                    id: 2,
                    tags: None,
                    limit: 3
                },
                Row {
                    id: 3,
                    tags: Some(vec!["a".into(), "b".into()]),
                    limit: 10
                },
            ]
        );
    }

    #[test]
    fn errors_name_the_place_and_the_fault() {
        let cases = [
            (json!([{"id": 1}, {}]), "at `/1`: missing field `id`"),
            (
                json!([{"id": 1, "tags": ["a", 2]}]),
                "at `/0/tags/1`: expected a string, found the number 2",
            ),
            (
                json!([{"id": 1.5}]),
                "at `/0/id`: expected an integer, found the number 1.5",
            ),
            (
                json!([{"id": 18_446_744_073_709_551_615_u64}]),
                "at `/0/id`: the integer 18446744073709551615 is out of range for a 64-bit signed integer",
            ),
            (
                json!([{"id": 1, "idd": 2}]),
                "at `/0/idd`: unknown field `idd`, expected one of `id`, `tags`, `limit`",
            ),
            (
                json!([{"id": 1, "a/b": 2, "c": 3}]),
                "at `/0`: unknown fields `a/b`, `c`, expected one of `id`, `tags`, `limit`",
            ),
            (
                json!([{"id": null}]),
                "at `/0/id`: expected an integer, found null",
            ),
            (json!({"id": 1}), "expected an array, found an object"),
            (
                json!(["x"]),
                "at `/0`: expected an object, found the string \"x\"",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(read(input.clone()).unwrap_err(), expected, "{input}");
        }
    }

    #[test]
    fn pointers_escape_keys() {
        let e = ArgError::new("x".into()).under("a/b~c").under(&0);
        assert_eq!(e.pointer(), "/0/a~1b~0c");
    }

    #[test]
    fn variants_and_null_arguments() {
        assert_eq!(variant(json!("desc"), &["asc", "desc"]), Ok(1));
        assert_eq!(
            variant(json!("up"), &["asc", "desc"])
                .unwrap_err()
                .to_string(),
            "unknown variant `up`, expected one of `asc`, `desc`"
        );
        let empty: Map<String, Value> = arguments(Value::Null).unwrap();
        assert!(empty.is_empty());
        assert_eq!(
            arguments::<Map<String, Value>>(json!(1)).unwrap_err(),
            "expected an object, found the number 1"
        );
    }
}
