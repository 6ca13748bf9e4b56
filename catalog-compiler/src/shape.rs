//! A published JSON Schema read into the [`Shape`] the verifier checks.
//!
//! [`read`] is the one reader: it turns a schema (the output of [`crate::schema::input`] or
//! [`crate::schema::output`], so typed parameters and the `input-schema` escape hatch go the
//! same way) into a [`Node`] tree. The tree becomes the tokens of a `Shape` for the generated
//! code ([`Node::tokens`]) or a leaked `Shape` for a catalog loaded at run time
//! ([`Node::leak`]), so both read a schema by the same rule.
//!
//! The reader never refuses a schema: what it does not read checks nothing
//! ([`Shape::Any`] for that part), so the verifier may let through a value the schema
//! refuses, but never refuses one the schema accepts.

use catalog_core::shape::{Bounds, Object, Property, Shape};
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use serde_json::{Map, Value};

/// A [`Shape`] with owned parts: what [`read`] builds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Any,
    Null,
    Boolean,
    Integer(Bounds),
    Number(Bounds),
    /// A string; one of the values when there are any.
    String(Vec<String>),
    Array(Box<Node>),
    Object {
        properties: Vec<Prop>,
        closed: bool,
    },
    Either(Vec<Node>),
}

/// A declared property of a [`Node::Object`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Prop {
    name: String,
    required: bool,
    node: Node,
}

/// Reads a JSON Schema. Deterministic: properties keep the schema's order.
pub(crate) fn read(schema: &Value) -> Node {
    // `true`, and anything that is not a schema object, checks nothing.
    let Value::Object(m) = schema else {
        return Node::Any;
    };
    // Beside a `$ref`, older drafts ignore every other keyword: reading them could refuse
    // what the reference accepts.
    if m.contains_key("$ref") {
        return Node::Any;
    }
    let node = if let Some(branches) = m.get("anyOf").or_else(|| m.get("oneOf")) {
        match branches {
            Value::Array(branches) => either(branches.iter().map(read).collect()),
            _ => Node::Any,
        }
    } else if let Some(values) = m.get("enum") {
        string_enum(values)
    } else {
        typed(m)
    };
    if m.get("nullable") == Some(&Value::Bool(true)) {
        either(vec![node, Node::Null])
    } else {
        node
    }
}

/// An `enum` of strings; any other value in it leaves the part unchecked.
fn string_enum(values: &Value) -> Node {
    let strings: Option<Vec<String>> = values.as_array().and_then(|values| {
        values
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect()
    });
    match strings {
        Some(values) if !values.is_empty() => Node::String(values),
        _ => Node::Any,
    }
}

/// The schema by its `type`; without one, an object when it has `properties`.
fn typed(m: &Map<String, Value>) -> Node {
    match m.get("type") {
        Some(Value::String(t)) if !t.is_empty() => of_type(t, m),
        Some(Value::Array(types)) if !types.is_empty() => either(
            types
                .iter()
                .map(|t| t.as_str().map_or(Node::Any, |t| of_type(t, m)))
                .collect(),
        ),
        None | Some(Value::String(_) | Value::Array(_)) if m.contains_key("properties") => {
            object(m)
        }
        _ => Node::Any,
    }
}

fn of_type(t: &str, m: &Map<String, Value>) -> Node {
    match t {
        "null" => Node::Null,
        "boolean" => Node::Boolean,
        "integer" => Node::Integer(bounds(m)),
        "number" => Node::Number(bounds(m)),
        "string" => Node::String(Vec::new()),
        "array" => Node::Array(Box::new(items(m))),
        "object" => object(m),
        _ => Node::Any,
    }
}

fn bounds(m: &Map<String, Value>) -> Bounds {
    Bounds {
        minimum: m.get("minimum").and_then(Value::as_f64),
        maximum: m.get("maximum").and_then(Value::as_f64),
    }
}

/// The items of an array: one schema for all of them, else unchecked (a tuple's `items`,
/// or `items` after `prefixItems`, which covers only the items past the prefix).
fn items(m: &Map<String, Value>) -> Node {
    match m.get("items") {
        Some(items @ Value::Object(_)) if !m.contains_key("prefixItems") => read(items),
        _ => Node::Any,
    }
}

fn object(m: &Map<String, Value>) -> Node {
    let required: Vec<&str> = m
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let declared = m.get("properties").and_then(Value::as_object);
    let mut properties: Vec<Prop> = declared
        .into_iter()
        .flatten()
        .map(|(name, schema)| Prop {
            name: name.clone(),
            required: required.contains(&name.as_str()),
            node: read(schema),
        })
        .collect();
    // A required property the schema does not describe must still be there.
    for name in required {
        if !properties.iter().any(|p| p.name == name) {
            properties.push(Prop {
                name: name.to_string(),
                required: true,
                node: Node::Any,
            });
        }
    }
    // `patternProperties` admits properties that `additionalProperties` does not see.
    let closed = m.get("additionalProperties") == Some(&Value::Bool(false))
        && !m.contains_key("patternProperties");
    Node::Object { properties, closed }
}

/// One of several nodes, flattened; unchecked when one of them is.
fn either(nodes: Vec<Node>) -> Node {
    let mut flat = Vec::new();
    for node in nodes {
        match node {
            Node::Any => return Node::Any,
            Node::Either(inner) => flat.extend(inner),
            other => {
                if !flat.contains(&other) {
                    flat.push(other);
                }
            }
        }
    }
    match flat.len() {
        0 => Node::Any,
        1 => flat.pop().unwrap_or(Node::Any),
        _ => Node::Either(flat),
    }
}

impl Node {
    /// A constant expression of the `Shape`, its nested parts `&` of constants promoted to
    /// `'static`. It names `Shape`, `Object`, `Property`, `Bounds`, `Some` and `None`
    /// unqualified: the expansion imports them in the one block that holds every spec,
    /// since full paths would be most of a large catalog's tokens.
    pub(crate) fn tokens(&self) -> TokenStream {
        match self {
            Node::Any => quote!(Shape::Any),
            Node::Null => quote!(Shape::Null),
            Node::Boolean => quote!(Shape::Boolean),
            Node::Integer(b) => {
                let b = bounds_tokens(*b);
                quote!(Shape::Integer(#b))
            }
            Node::Number(b) => {
                let b = bounds_tokens(*b);
                quote!(Shape::Number(#b))
            }
            Node::String(values) => quote!(Shape::String { values: &[ #( #values ),* ] }),
            Node::Array(item) => {
                let item = item.tokens();
                quote!(Shape::Array(&#item))
            }
            Node::Object { properties, closed } => {
                let properties = properties.iter().map(|p| {
                    let (name, required, shape) = (&p.name, p.required, p.node.tokens());
                    quote!(Property { name: #name, required: #required, shape: #shape })
                });
                quote! {
                    Shape::Object(Object {
                        properties: &[ #( #properties ),* ],
                        closed: #closed,
                    })
                }
            }
            Node::Either(nodes) => {
                let nodes = nodes.iter().map(Node::tokens);
                quote!(Shape::Either(&[ #( #nodes ),* ]))
            }
        }
    }

    /// The `Shape` as a value, its parts leaked: for a catalog that lives as long as the
    /// program.
    pub(crate) fn leak(&self) -> Shape {
        match self {
            Node::Any => Shape::Any,
            Node::Null => Shape::Null,
            Node::Boolean => Shape::Boolean,
            Node::Integer(b) => Shape::Integer(*b),
            Node::Number(b) => Shape::Number(*b),
            Node::String(values) => Shape::String {
                values: Box::leak(values.iter().map(|v| leak_str(v)).collect()),
            },
            Node::Array(item) => Shape::Array(Box::leak(Box::new(item.leak()))),
            Node::Object { properties, closed } => Shape::Object(Object {
                properties: Box::leak(
                    properties
                        .iter()
                        .map(|p| Property {
                            name: leak_str(&p.name),
                            required: p.required,
                            shape: p.node.leak(),
                        })
                        .collect(),
                ),
                closed: *closed,
            }),
            Node::Either(nodes) => Shape::Either(Box::leak(nodes.iter().map(Node::leak).collect())),
        }
    }
}

/// A string that lives as long as the program.
pub(crate) fn leak_str(s: &str) -> &'static str {
    Box::leak(s.into())
}

fn bounds_tokens(b: Bounds) -> TokenStream {
    // `f64_unsuffixed` prints the shortest text that reads back to the same value; JSON
    // numbers are finite, which it requires. The sign is its own token, as Rust spells a
    // negative literal.
    let bound = |x: Option<f64>| {
        let Some(x) = x else {
            return quote!(None);
        };
        let magnitude = Literal::f64_unsuffixed(x.abs());
        let x = if x.is_sign_negative() {
            quote!(-#magnitude)
        } else {
            quote!(#magnitude)
        };
        quote!(Some(#x))
    };
    let (minimum, maximum) = (bound(b.minimum), bound(b.maximum));
    quote!(Bounds { minimum: #minimum, maximum: #maximum })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn shape(schema: &Value) -> Shape {
        read(schema).leak()
    }

    const ANY_STRING: Shape = Shape::String { values: &[] };

    #[test]
    fn types_are_read() {
        assert_eq!(shape(&json!({"type": "null"})), Shape::Null);
        assert_eq!(shape(&json!({"type": "boolean"})), Shape::Boolean);
        assert_eq!(shape(&json!({"type": "string"})), ANY_STRING);
        assert_eq!(
            shape(&json!({"type": "integer", "minimum": 0, "maximum": 2.5})),
            Shape::Integer(Bounds {
                minimum: Some(0.0),
                maximum: Some(2.5)
            })
        );
        assert_eq!(
            shape(&json!({"type": "number"})),
            Shape::Number(Bounds::default())
        );
        assert_eq!(
            shape(&json!({"type": "array", "items": {"type": "string"}})),
            Shape::Array(&ANY_STRING)
        );
        assert_eq!(shape(&json!({"type": "array"})), Shape::Array(&Shape::Any));
        assert_eq!(
            shape(&json!({"type": "string", "enum": ["a", "b"]})),
            Shape::String {
                values: &["a", "b"]
            }
        );
    }

    #[test]
    fn objects_are_read_in_order_with_required_and_closed() {
        let s = shape(&json!({
            "type": "object",
            "properties": {"b": {"type": "string"}, "a": {"type": "boolean"}},
            "required": ["a", "c"],
            "additionalProperties": false
        }));
        assert_eq!(
            s,
            Shape::Object(Object {
                properties: &[
                    Property {
                        name: "b",
                        required: false,
                        shape: ANY_STRING
                    },
                    Property {
                        name: "a",
                        required: true,
                        shape: Shape::Boolean
                    },
                    Property {
                        name: "c",
                        required: true,
                        shape: Shape::Any
                    },
                ],
                closed: true,
            })
        );
        for open in [
            json!({"type": "object"}),
            json!({"type": "object", "additionalProperties": true}),
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            json!({"type": "object", "additionalProperties": false, "patternProperties": {"^x": {}}}),
        ] {
            assert!(
                matches!(shape(&open), Shape::Object(Object { closed: false, .. })),
                "{open}"
            );
        }
        // Without a type, properties make an object.
        assert!(matches!(
            shape(&json!({"properties": {"a": {}}})),
            Shape::Object(_)
        ));
        assert!(matches!(
            shape(&json!({"type": [], "properties": {"a": {}}})),
            Shape::Object(_)
        ));
    }

    #[test]
    fn alternatives_become_either() {
        assert_eq!(
            shape(&json!({"type": ["string", "null"]})),
            Shape::Either(&[ANY_STRING, Shape::Null])
        );
        assert_eq!(
            shape(&json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})),
            Shape::Either(&[
                ANY_STRING,
                Shape::Integer(Bounds {
                    minimum: None,
                    maximum: None
                })
            ])
        );
        assert_eq!(
            shape(&json!({"oneOf": [{"type": "boolean"}]})),
            Shape::Boolean
        );
        assert_eq!(
            shape(&json!({"type": "string", "nullable": true})),
            Shape::Either(&[ANY_STRING, Shape::Null])
        );
        // One unchecked alternative leaves the whole unchecked.
        assert_eq!(
            shape(&json!({"anyOf": [{"type": "string"}, {"$ref": "#/x"}]})),
            Shape::Any
        );
    }

    #[test]
    fn what_is_not_read_is_any() {
        for schema in [
            json!(true),
            json!(false),
            json!(3),
            json!({}),
            json!({"$ref": "#/definitions/x", "type": "string"}),
            json!({"allOf": [{"type": "string"}]}),
            json!({"const": "x"}),
            json!({"enum": ["a", 1]}),
            json!({"enum": []}),
            json!({"type": "date"}),
            json!({"type": ["string", 3]}),
            json!({"anyOf": "x"}),
        ] {
            assert_eq!(shape(&schema), Shape::Any, "{schema}");
        }
        assert_eq!(
            shape(&json!({"type": "array", "items": [{"type": "string"}]})),
            Shape::Array(&Shape::Any)
        );
        assert_eq!(
            shape(&json!({"type": "array", "prefixItems": [{}], "items": {"type": "string"}})),
            Shape::Array(&Shape::Any)
        );
    }

    #[test]
    fn tokens_are_a_constant_expression() {
        let schema = json!({
            "type": "object",
            "properties": {
                "n": {"type": "number", "minimum": 0.1, "maximum": 1e300},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["x"]}},
                "v": {"type": ["integer", "null"], "minimum": -3}
            },
            "required": ["n"],
            "additionalProperties": false
        });
        let tokens = read(&schema).tokens();
        let item: syn::ItemStatic =
            syn::parse2(quote!(static S: ::catalog_core::Shape = #tokens;)).unwrap();
        let text = quote!(#item).to_string();
        assert!(text.contains("Some (0.1)"), "{text}");
        assert!(text.contains("Some (- 3.0)"), "{text}");
        assert_eq!(tokens.to_string(), read(&schema).tokens().to_string());
    }
}
