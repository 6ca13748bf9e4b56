//! The part of a JSON Schema the verifier checks, as static data.
//!
//! The compiler reads every tool's published input and output schema (typed parameters
//! and the `input-schema` escape hatch alike) into a [`Shape`], so what the verifier
//! enforces is exactly what the model was shown. Keywords outside this subset are not
//! checked: their part of the value becomes [`Shape::Any`].

use alloc::string::String;
use alloc::vec::Vec;

/// What a JSON value must look like.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// Anything (a free-form object, or a schema the verifier does not read).
    Any,
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A whole number (JSON Schema's `integer`: `2.0` counts), within the bounds.
    Integer(Bounds),
    /// Any number within the bounds.
    Number(Bounds),
    /// A string; when `values` is not empty, one of them.
    String {
        /// The allowed values (`enum`); empty for any string.
        values: &'static [&'static str],
    },
    /// A list whose every item has the shape.
    Array(&'static Shape),
    /// An object.
    Object(Object),
    /// One of several shapes (`"type": ["string", "null"]`, `anyOf`, `oneOf`).
    Either(&'static [Shape]),
}

/// Inclusive numeric bounds.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bounds {
    /// `minimum`.
    pub minimum: Option<f64>,
    /// `maximum`.
    pub maximum: Option<f64>,
}

/// An object's properties and whether others are allowed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Object {
    /// The declared properties, in schema order.
    pub properties: &'static [Property],
    /// Whether undeclared properties are refused (`additionalProperties: false`).
    pub closed: bool,
}

/// A declared property of an [`Object`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Property {
    /// The name as JSON spells it.
    pub name: &'static str,
    /// Whether the object must have it.
    pub required: bool,
    /// Its shape.
    pub shape: Shape,
}

impl Shape {
    /// The JSON Schema type name, as error messages say it (`an integer`, `one of ...`).
    #[must_use]
    pub fn describe(&self) -> &'static str {
        match self {
            Shape::Any => "any value",
            Shape::Null => "null",
            Shape::Boolean => "a boolean",
            Shape::Integer(_) => "an integer",
            Shape::Number(_) => "a number",
            Shape::String { .. } => "a string",
            Shape::Array(_) => "an array",
            Shape::Object(_) => "an object",
            Shape::Either(_) => "one of several types",
        }
    }

    /// What a value must be, as the verifier's messages say it: [`Shape::describe`], but
    /// with the allowed values of a string enum (`one of "grid", "form"`) and the types of
    /// an [`Shape::Either`] listed (`a string, an integer or null`).
    #[must_use]
    pub fn expected(&self) -> String {
        match self {
            Shape::String { values } if !values.is_empty() => {
                let mut out = String::from("one of ");
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    push_quoted(&mut out, v);
                }
                out
            }
            Shape::Either(_) => {
                let mut kinds = Vec::new();
                self.kinds(&mut kinds, 0);
                let mut out = String::new();
                for (i, kind) in kinds.iter().enumerate() {
                    if i > 0 {
                        out.push_str(if i + 1 == kinds.len() { " or " } else { ", " });
                    }
                    out.push_str(kind);
                }
                if out.is_empty() {
                    out.push_str("nothing");
                }
                out
            }
            _ => String::from(self.describe()),
        }
    }

    /// The distinct kinds an `Either` accepts, nested ones flattened. The depth cap only
    /// guards against a self-referential static; generated shapes never come near it.
    fn kinds(&self, out: &mut Vec<&'static str>, depth: usize) {
        match self {
            Shape::Either(branches) if depth < 16 => {
                for branch in *branches {
                    branch.kinds(out, depth + 1);
                }
            }
            other => {
                let kind = other.describe();
                if !out.contains(&kind) {
                    out.push(kind);
                }
            }
        }
    }
}

/// Appends `s` as a JSON string literal, so an enum value reads exactly as the model must
/// send it.
fn push_quoted(out: &mut String, s: &str) {
    match serde_json::to_string(s) {
        Ok(quoted) => out.push_str(&quoted),
        Err(_) => out.push_str(s),
    }
}
