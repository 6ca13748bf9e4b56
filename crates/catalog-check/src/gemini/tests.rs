//! The conversion, rule by rule, and the losses it reports.

use serde_json::json;

use super::*;

fn object(properties: &Value) -> Value {
    json!({"type": "object", "properties": properties, "additionalProperties": false})
}

#[test]
fn types_become_gemini_types_in_catalog_order() {
    let schema = json!({
        "type": "object",
        "properties": {
            "table": {"type": "string", "description": "The table."},
            "limit": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 50},
            "ratio": {"type": "number", "default": null},
            "all": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 3}
        },
        "required": ["table"],
        "additionalProperties": false
    });
    let converted = convert(&schema);
    assert_eq!(converted.losses, []);
    assert_eq!(
        converted.parameters.unwrap(),
        json!({
            "type": "OBJECT",
            "properties": {
                "table": {"type": "STRING", "description": "The table."},
                "limit": {"type": "INTEGER", "minimum": 1, "maximum": 1000, "default": 50},
                "ratio": {"type": "NUMBER"},
                "all": {"type": "BOOLEAN"},
                "tags": {"type": "ARRAY", "items": {"type": "STRING", "enum": ["a", "b"]}, "maxItems": 3}
            },
            "required": ["table"],
            "propertyOrdering": ["table", "limit", "ratio", "all", "tags"]
        })
    );
}

#[test]
fn a_tool_without_parameters_has_none() {
    for schema in [
        json!({"type": "object", "properties": {}, "additionalProperties": false}),
        json!({"type": "object"}),
    ] {
        assert_eq!(convert(&schema).parameters, None, "{schema}");
    }
}

#[test]
fn type_arrays_become_nullable_or_any_of_with_each_types_keywords() {
    let schema = object(&json!({
        "key": {"type": ["string", "integer"], "minimum": 1, "maxLength": 9, "description": "Key."},
        "maybe": {"type": ["string", "null"]},
        "value": {"type": ["string", "number", "null", "array"], "items": {"type": ["string", "null"]}}
    }));
    let converted = convert(&schema);
    assert_eq!(converted.losses, []);
    assert_eq!(
        converted.parameters.unwrap()["properties"],
        json!({
            "key": {"description": "Key.", "anyOf": [
                {"type": "STRING", "maxLength": 9},
                {"type": "INTEGER", "minimum": 1}
            ]},
            "maybe": {"type": "STRING", "nullable": true},
            "value": {"nullable": true, "anyOf": [
                {"type": "STRING"},
                {"type": "NUMBER"},
                {"type": "ARRAY", "items": {"type": "STRING", "nullable": true}}
            ]}
        })
    );
}

#[test]
fn any_of_and_one_of_keep_their_branches_and_null_becomes_nullable() {
    let schema = object(&json!({
        "a": {"anyOf": [{"type": "integer"}, {"type": "null"}], "description": "A."},
        "b": {"oneOf": [{"type": "string"}, {"type": "object", "properties": {"x": {"type": "string"}}}]}
    }));
    let converted = convert(&schema);
    let p = &converted.parameters.unwrap()["properties"];
    assert_eq!(
        p["a"],
        json!({"type": "INTEGER", "description": "A.", "nullable": true})
    );
    assert_eq!(
        p["b"],
        json!({"anyOf": [{"type": "STRING"}, {"type": "OBJECT", "properties": {"x": {"type": "STRING"}}}]})
    );
    assert_eq!(
        converted.losses,
        [Loss {
            pointer: "/properties/b/oneOf".into(),
            kind: LossKind::OneOf
        }]
    );
}

#[test]
fn enums_and_consts_follow_gemini_enum_rules() {
    let schema = object(&json!({
        "s": {"type": "string", "enum": ["x", "y", null]},
        "c": {"type": "string", "const": "only"},
        "n": {"type": "integer", "enum": [1, 2, 30]},
        "untyped": {"enum": ["p", "q"]},
        "loose": {"type": "boolean", "enum": ["True", "False", "dontcare"]}
    }));
    let converted = convert(&schema);
    assert_eq!(converted.losses, []);
    let p = &converted.parameters.unwrap()["properties"];
    assert_eq!(
        p["s"],
        json!({"type": "STRING", "nullable": true, "enum": ["x", "y"]})
    );
    assert_eq!(p["c"], json!({"type": "STRING", "enum": ["only"]}));
    assert_eq!(
        p["n"],
        json!({"type": "INTEGER", "format": "enum", "enum": ["1", "2", "30"]})
    );
    assert_eq!(p["untyped"], json!({"type": "STRING", "enum": ["p", "q"]}));
    // As the verifier reads it: a string enum.
    assert_eq!(
        p["loose"],
        json!({"type": "STRING", "enum": ["True", "False", "dontcare"]})
    );
}

#[test]
fn exclusive_bounds_of_integers_become_inclusive() {
    let schema = object(&json!({
        "n": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10},
        "old": {"type": "integer", "minimum": 5, "exclusiveMinimum": true},
        "x": {"type": "number", "exclusiveMinimum": 0}
    }));
    let converted = convert(&schema);
    let p = &converted.parameters.unwrap()["properties"];
    assert_eq!(
        p["n"],
        json!({"type": "INTEGER", "minimum": 1, "maximum": 9})
    );
    assert_eq!(p["old"], json!({"type": "INTEGER", "minimum": 6}));
    assert_eq!(
        p["x"],
        json!({"type": "NUMBER", "description": "JSON Schema: {\"exclusiveMinimum\":0}"})
    );
    assert_eq!(converted.losses.len(), 1);
    assert_eq!(converted.losses[0].pointer, "/properties/x");
}

#[test]
fn what_gemini_cannot_say_is_told_in_the_description() {
    let schema = object(&json!({
        "key": {"type": "object", "description": "Composite key.",
                "additionalProperties": {"type": "string"}},
        "ids": {"type": "array", "items": {"type": "integer"}, "uniqueItems": true},
        "odd": {"type": "integer", "multipleOf": 2, "minLength": 3, "$comment": "x"}
    }));
    let converted = convert(&schema);
    let p = &converted.parameters.unwrap()["properties"];
    assert_eq!(
        p["key"],
        json!({"type": "OBJECT", "description": "Composite key. (JSON Schema: {\"additionalProperties\":{\"type\":\"string\"}})"})
    );
    assert_eq!(
        p["ids"]["description"],
        json!("JSON Schema: {\"uniqueItems\":true}")
    );
    // `minLength` constrains strings only, `$comment` nothing.
    assert_eq!(
        p["odd"],
        json!({"type": "INTEGER", "description": "JSON Schema: {\"multipleOf\":2}"})
    );
    let pointers: Vec<&str> = converted
        .losses
        .iter()
        .map(|l| l.pointer.as_str())
        .collect();
    assert_eq!(
        pointers,
        ["/properties/key", "/properties/ids", "/properties/odd"]
    );
}

#[test]
fn refusals_are_reported_where_they_are() {
    let schema = json!({
        "type": "object",
        "properties": {
            "Content-Type": {"type": "string"},
            "sort": {"type": "array"},
            "anything": {},
            "spec": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"]}
        }
    });
    let converted = convert(&schema);
    let kinds: Vec<(&str, &LossKind)> = converted
        .losses
        .iter()
        .map(|l| (l.pointer.as_str(), &l.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            (
                "/properties/Content-Type",
                &LossKind::ParameterName("Content-Type".into())
            ),
            ("/properties/sort", &LossKind::NoItems),
            ("/properties/anything", &LossKind::Untyped),
            (
                "/properties/spec/required",
                &LossKind::UndeclaredRequired("b".into())
            ),
        ]
    );
    let p = &converted.parameters.unwrap()["properties"];
    assert_eq!(p["spec"]["required"], json!(["a"]));
    assert_eq!(p["anything"], json!({}));
}

#[test]
fn parameter_names_follow_the_documented_rule() {
    for (name, ok) in [
        ("table", true),
        ("_x9", true),
        ("9x", false),
        ("año", false),
        ("a.b", false),
        ("", false),
    ] {
        assert_eq!(is_parameter_name(name), ok, "{name}");
    }
    assert!(is_parameter_name(&"a".repeat(64)));
    assert!(!is_parameter_name(&"a".repeat(65)));
    assert_eq!(escape("a/b~c"), "a~1b~0c");
}
