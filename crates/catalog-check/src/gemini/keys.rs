//! Which JSON Schema keywords a node may carry, by type, and Gemini's names for the types.

/// The JSON Schema types and Gemini's names for them.
pub(super) const TYPES: [(&str, &str); 7] = [
    ("string", "STRING"),
    ("number", "NUMBER"),
    ("integer", "INTEGER"),
    ("boolean", "BOOLEAN"),
    ("array", "ARRAY"),
    ("object", "OBJECT"),
    ("null", "NULL"),
];

/// Keywords read on every node, whatever its type.
pub(super) const GENERAL: &[&str] = &[
    "type",
    "description",
    "title",
    "default",
    "example",
    "examples",
    "nullable",
    "anyOf",
    "oneOf",
];

/// Keywords that carry nothing for the model or the verifier: dropped silently.
pub(super) const SILENT: &[&str] = &["$schema", "$id", "$comment", "$anchor"];

/// Keywords that constrain one type only (JSON Schema ignores them on the others).
const STRING_KEYS: &[&str] = &[
    "enum",
    "const",
    "format",
    "minLength",
    "maxLength",
    "pattern",
    "contentEncoding",
    "contentMediaType",
];
const NUMBER_KEYS: &[&str] = &[
    "enum",
    "const",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];
const BOOLEAN_KEYS: &[&str] = &["enum", "const"];
const ARRAY_KEYS: &[&str] = &[
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "prefixItems",
    "additionalItems",
    "unevaluatedItems",
];
const OBJECT_KEYS: &[&str] = &[
    "properties",
    "required",
    "propertyOrdering",
    "minProperties",
    "maxProperties",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "unevaluatedProperties",
];

/// The keywords that constrain values of type `t` only.
pub(crate) fn keys_of(t: &str) -> &'static [&'static str] {
    match t {
        "string" => STRING_KEYS,
        "number" | "integer" => NUMBER_KEYS,
        "boolean" => BOOLEAN_KEYS,
        "array" => ARRAY_KEYS,
        "object" => OBJECT_KEYS,
        _ => &[],
    }
}
