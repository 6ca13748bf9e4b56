//! The reader on hand-written schemas.
use catalog_core::packed::{self, Writer};
use catalog_core::shape::{Object, Property, Rules, Shape};
use serde_json::json;

use super::*;

fn shape(schema: &Value) -> Shape<'static> {
    unpacked(&read(schema))
}

/// The node packed and read back, as the generated code reads it (and kept for the test's
/// process, as the generated code's are).
fn unpacked(node: &Node) -> Shape<'static> {
    let mut w = Writer::new();
    node.pack(&mut w);
    let (text, data) = w.finish();
    packed::unpack_shape(text.leak(), data.leak(), &packed::Leak).unwrap()
}

/// The node a shape was packed from: the packed format's inverse, to compare the two.
fn node_of(shape: &Shape) -> Node {
    let object = |o: &Object| Obj {
        properties: o
            .properties
            .iter()
            .map(|p| Prop {
                name: p.name.to_string(),
                required: p.required,
                node: node_of(&p.shape),
            })
            .collect(),
        closed: o.closed,
        others: o.others.map(|others| {
            Box::new(super::Others {
                patterns: others
                    .patterns
                    .iter()
                    .map(|p| {
                        (
                            super::Pattern {
                                source: p.pattern.source.to_string(),
                                unicode: p.pattern.unicode,
                            },
                            node_of(&p.shape),
                        )
                    })
                    .collect(),
                additional: node_of(&others.additional),
            })
        }),
    };
    let strings = |v: &[&str]| v.iter().map(ToString::to_string).collect();
    match shape {
        Shape::Any => Node::Any,
        Shape::Null => Node::Null,
        Shape::Boolean => Node::Boolean,
        Shape::Integer(b) => Node::Integer(*b),
        Shape::Int64(b) => Node::Int64(*b),
        Shape::Number(b) => Node::Number(*b),
        Shape::String { values } => Node::String(strings(values)),
        Shape::Array(item) => Node::Array(Box::new(node_of(item))),
        Shape::Object(o) => Node::Object(object(o)),
        Shape::Either(all) => Node::Either(all.iter().map(node_of).collect()),
        Shape::All(all) => Node::All(all.iter().map(node_of).collect()),
        Shape::Enum(values) => Node::Enum(strings(values)),
        Shape::Rules(r) => Node::Rules(Box::new(super::Rules {
            bounds: r.bounds,
            min_length: r.min_length,
            max_length: r.max_length,
            min_items: r.min_items,
            max_items: r.max_items,
            items: node_of(&r.items),
            object: r.object.as_ref().map(object),
            pattern: r.pattern.map(|p| super::Pattern {
                source: p.source.to_string(),
                unicode: p.unicode,
            }),
            multiple_of: r.multiple_of,
            prefix_items: r.prefix_items.iter().map(node_of).collect(),
            unique_items: r.unique_items,
            min_properties: r.min_properties,
            max_properties: r.max_properties,
            property_names: node_of(&r.property_names),
            dependent_required: r
                .dependent_required
                .iter()
                .map(|d| (d.name.to_string(), strings(d.requires)))
                .collect(),
        })),
        Shape::Defs(d) => Node::Defs(
            Box::new(node_of(&d.shape)),
            d.defs.iter().map(node_of).collect(),
        ),
        Shape::Ref(i) => Node::Ref(*i),
        Shape::Not(inner) => Node::Not(Box::new(node_of(inner))),
        Shape::If(c) => Node::If(Box::new([
            node_of(&c.test),
            node_of(&c.then),
            node_of(&c.otherwise),
        ])),
    }
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
            maximum: Some(2.5),
            ..Bounds::NONE
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
                // Required, but undeclared in a closed object: no value of it passes.
                Property {
                    name: "c",
                    required: true,
                    shape: Shape::Enum(&[])
                },
            ],
            closed: true,
            others: None,
        })
    );
    for open in [
        json!({"type": "object"}),
        json!({"type": "object", "additionalProperties": true}),
        json!({"type": "object", "additionalProperties": {"type": "string"}}),
        // A pattern the verifier cannot read could match any name.
        json!({"type": "object", "additionalProperties": false, "patternProperties": {"(": {}}}),
    ] {
        assert!(
            matches!(shape(&open), Shape::Object(Object { closed: false, .. })),
            "{open}"
        );
    }
    // Patterns and `additionalProperties` as a schema say what the undeclared properties
    // are; a required one no pattern matches is held to `additionalProperties`.
    let Shape::Object(o) = shape(&json!({
        "type": "object",
        "patternProperties": {"^x": {"type": "integer"}},
        "additionalProperties": {"type": "string"},
        "required": ["xa", "b"]
    })) else {
        panic!("an object");
    };
    let others = o.others.expect("patterns and a schema");
    assert_eq!(
        (
            &*others.patterns[0].pattern.source,
            others.additional,
            o.properties[0].shape,
            o.properties[1].shape
        ),
        ("^x", ANY_STRING, Shape::Any, ANY_STRING)
    );
    assert!(!o.closed);
    // Without a type, properties hold for objects only.
    for untyped in [
        json!({"properties": {"a": {}}, "required": ["a"]}),
        json!({"type": [], "properties": {"a": {}}, "required": ["a"]}),
    ] {
        assert!(
            matches!(
                shape(&untyped),
                Shape::Rules(Rules {
                    object: Some(_),
                    ..
                })
            ),
            "{untyped}"
        );
    }
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
                maximum: None,
                ..Bounds::NONE
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
        json!(3),
        json!({}),
        json!({"$ref": "#/definitions/x", "type": "string"}),
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
    // `false` admits nothing.
    assert_eq!(shape(&json!(false)), Shape::Enum(&[]));
    // A pattern `regress` cannot read, a `multipleOf` not above 0, an `if` without
    // `then` or `else`: nothing to check.
    for schema in [
        json!({"pattern": "("}),
        json!({"multipleOf": 0}),
        json!({"if": {"type": "string"}}),
    ] {
        assert_eq!(shape(&schema), Shape::Any, "{schema}");
    }
}

#[test]
fn patterns_that_backtrack_exponentially_are_left_unchecked() {
    for nested in [
        "^(a+)+$",
        "(a|ab)*",
        "^(\\w+\\s?)*$",
        "((ab)*c){2,}",
        "(x+x+)+y",
        "(?:a*)*",
    ] {
        assert!(repeats_repetition(nested), "{nested}");
        assert_eq!(shape(&json!({"pattern": nested})), Shape::Any, "{nested}");
    }
    for fine in [
        "^\\d{4}-\\d{2}-\\d{2}$",
        "^(a|ab)$",
        "(ab)+",
        "(a+)?",
        "[(a+)]+",
        "\\(a+\\)+",
        "^[a-z]{2,}(x){3}$",
    ] {
        assert!(!repeats_repetition(fine), "{fine}");
    }
}

#[test]
fn tuples_hold_their_items_in_the_rules() {
    let Shape::All([Shape::Array(all), Shape::Rules(rules)]) = shape(&json!({
        "type": "array", "prefixItems": [{"type": "string"}], "items": false
    })) else {
        panic!("an array and its rules");
    };
    assert_eq!(**all, Shape::Any);
    assert_eq!(
        (rules.prefix_items, rules.items),
        (&[ANY_STRING][..], Shape::Enum(&[]))
    );
}

/// Every kind of node, bounds of every sign and size and nesting included, reads back as
/// it was written.
#[test]
fn packed_shapes_read_back_as_written() {
    let schemas = [
        json!({
            "type": "object",
            "properties": {
                "n": {"type": "number", "minimum": 0.1, "maximum": 1e300, "exclusiveMinimum": -0.0},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["x", "", "表"]}},
                "v": {"type": ["integer", "null"], "minimum": -3, "exclusiveMaximum": 9_007_199_254_740_993_u64},
                "any": {"minLength": 2, "maxLength": 300, "minItems": 1, "maxItems": 70000,
                        "items": {"type": "boolean"}, "properties": {"k": {"const": 1.5}}},
                "all": {"allOf": [{"type": "string"}, {"maxLength": 3}]},
                "one": {"oneOf": [{"type": "string"}, {"type": "object"}]}
            },
            "required": ["n"],
            "additionalProperties": false
        }),
        json!({
            "$defs": {"Node": {"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}}}},
            "$ref": "#/$defs/Node"
        }),
        json!({"type": "integer", "enum": [1, 2.5, "x", 3]}),
        json!({}),
        json!({
            "type": "object",
            "properties": {"a": {"type": "string", "pattern": "^\\d+$"}},
            "patternProperties": {"^x-": {"type": "integer", "multipleOf": 0.5}},
            "additionalProperties": {"type": "array", "prefixItems": [{"const": 1}], "items": {"type": "string"}, "uniqueItems": true},
            "propertyNames": {"maxLength": 8},
            "minProperties": 1,
            "maxProperties": 9,
            "dependentRequired": {"a": ["b", "c"]},
            "not": {"required": ["z"]},
            "if": {"properties": {"a": {"const": "1"}}},
            "then": {"required": ["b"]},
            "else": false
        }),
    ];
    for schema in &schemas {
        let node = read(schema);
        assert_eq!(node_of(&unpacked(&node)), node, "{schema}");
    }
    // Every catalog of the repository, typed parameters included.
    for source in [
        include_str!("../../../../tests/data/tables.toml"),
        include_str!("../../../../tests/data/languages/ja/catalog.toml"),
    ] {
        let catalog = crate::validate(source).unwrap();
        for tool in &catalog.tools {
            let node = read_typed(&crate::schema::input(tool), &tool.params);
            assert_eq!(node_of(&unpacked(&node)), node, "{}", tool.name);
        }
    }
}

/// Data the compiler did not write is an error, not a panic, wherever it is cut.
#[test]
fn cut_or_altered_data_is_an_error() {
    let mut w = Writer::new();
    read(&json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": 1}}}))
        .pack(&mut w);
    let (text, data) = w.finish();
    let (text, data): (&'static str, &'static [u8]) = (text.leak(), data.leak());
    for cut in 0..data.len() {
        assert!(
            packed::unpack_shape(text, &data[..cut], &packed::Leak).is_err(),
            "cut at {cut}"
        );
    }
    assert!(
        packed::unpack_shape(text, &[99], &packed::Leak).is_err(),
        "unknown tag"
    );
    assert!(
        packed::unpack_shape("", data, &packed::Leak).is_err(),
        "text missing"
    );
}

#[test]
fn refs_resolve_into_one_table_recursion_included() {
    let schema = json!({
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {"next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}}
            }
        },
        "type": "object",
        "properties": {"head": {"$ref": "#/$defs/Node"}, "tail": {"$ref": "#/$defs/Node"}}
    });
    let Shape::Defs(defs) = shape(&schema) else {
        panic!("expected definitions");
    };
    assert_eq!(defs.defs.len(), 1, "one entry however often it is named");
    let Shape::Object(root) = defs.shape else {
        panic!("expected an object");
    };
    assert_eq!(root.properties[0].shape, Shape::Ref(0));
    // Draft 7's `definitions` too; a pointer that names nothing, or a ref to itself with
    // nothing between, checks nothing.
    assert!(matches!(
        shape(&json!({"definitions": {"a": {"type": "string"}}, "$ref": "#/definitions/a"})),
        Shape::Defs(_)
    ));
    for unchecked in [
        json!({"$ref": "#/$defs/missing"}),
        json!({"$ref": "other.json#/x"}),
        json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}),
    ] {
        let s = shape(&unchecked);
        assert!(
            matches!(s, Shape::Any) || matches!(s, Shape::Defs(d) if d.defs == [Shape::Any]),
            "{unchecked}: {s:?}"
        );
    }
}

#[test]
fn enums_and_consts_of_any_value() {
    assert_eq!(
        shape(&json!({"type": "integer", "enum": [1, 2.5, "x", 3]})),
        Shape::Enum(&["1", "3"]),
        "the type drops what it refuses"
    );
    assert_eq!(
        shape(&json!({"const": "x"})),
        Shape::String { values: &["x"] }
    );
    assert_eq!(shape(&json!({"const": null})), Shape::Enum(&["null"]));
}

#[test]
fn only_typed_integer_parameters_are_64_bit() {
    // The tables catalog: `limit` is a typed integer, `rowKey` an escape hatch.
    let catalog = crate::validate(include_str!("../../../../tests/data/tables.toml")).unwrap();
    let tool = catalog
        .tools
        .iter()
        .find(|t| t.name == "queryRows")
        .unwrap();
    let typed = unpacked(&read_typed(&crate::schema::input(tool), &tool.params));
    let Shape::Object(object) = typed else {
        panic!("expected an object");
    };
    let limit = object
        .properties
        .iter()
        .find(|p| p.name == "limit")
        .unwrap();
    assert!(matches!(limit.shape, Shape::Int64(_)), "{limit:?}");
    assert!(matches!(
        shape(&json!({"type": "integer"})),
        Shape::Integer(_)
    ));
}
