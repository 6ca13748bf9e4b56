//! A published JSON Schema read into the [`Shape`] the verifier checks.
//!
//! [`read`] is the one reader: it turns a schema (the output of [`crate::schema::input`] or
//! [`crate::schema::output`], so typed parameters and the `input-schema` escape hatch go the
//! same way) into a [`Node`] tree. The tree is packed ([`Node::pack`]) into the data
//! `catalog_core` decodes, for the generated code and for a catalog loaded at run time
//! alike, so both read a schema by the same rule.
//!
//! The reader never refuses a schema: what it does not read checks nothing
//! ([`Shape::Any`] for that part), so the verifier may let through a value the schema
//! refuses, but never refuses one the schema accepts.

mod pack;
#[cfg(test)]
mod tests;

use catalog_core::shape::Bounds;
#[cfg(doc)]
use catalog_core::shape::Shape;

use serde_json::{Map, Value};

use crate::model::{Field, Kind};
use crate::owned::OwnedShape;

/// A [`Shape`] with owned parts: what [`read`] builds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Any,
    Null,
    Boolean,
    Integer(Bounds),
    Int64(Bounds),
    Number(Bounds),
    /// A string; one of the values when there are any.
    String(Vec<String>),
    Array(Box<Node>),
    Object(Obj),
    Either(Vec<Node>),
    All(Vec<Node>),
    /// Values as JSON text.
    Enum(Vec<String>),
    Rules(Box<Rules>),
    /// The schema, and what its `Ref`s index.
    Defs(Box<Node>, Vec<Node>),
    Ref(u32),
    /// `not`.
    Not(Box<Node>),
    /// `if`, `then`, `else`.
    If(Box<[Node; 3]>),
}

/// An object's declared properties.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Obj {
    properties: Vec<Prop>,
    closed: bool,
    others: Option<Box<Others>>,
}

/// `patternProperties` and `additionalProperties` as a schema.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Others {
    patterns: Vec<(Pattern, Node)>,
    additional: Node,
}

/// A regular expression the verifier can read, and whether with the `u` flag.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pattern {
    source: String,
    unicode: bool,
}

impl Pattern {
    /// The pattern, when `regress` reads it and matches it in time polynomial in the
    /// text; any other is not checked.
    fn read(source: &str) -> Option<Pattern> {
        if repeats_repetition(source) {
            return None;
        }
        catalog_core::shape::Pattern::reading(source).map(|unicode| Pattern {
            source: source.to_string(),
            unicode,
        })
    }

    /// Whether a name matches, as the verifier will decide it.
    fn matches(&self, name: &str) -> bool {
        let flags = regress::Flags {
            unicode: self.unicode,
            ..regress::Flags::default()
        };
        regress::Regex::with_flags(&self.source, flags).map_or(true, |r| r.find(name).is_some())
    }
}

/// A declared property of an [`Obj`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Prop {
    name: String,
    required: bool,
    node: Node,
}

/// [`catalog_core::shape::Rules`] with owned parts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rules {
    bounds: Bounds,
    min_length: u64,
    max_length: Option<u64>,
    min_items: u64,
    max_items: Option<u64>,
    items: Node,
    object: Option<Obj>,
    pattern: Option<Pattern>,
    multiple_of: Option<f64>,
    prefix_items: Vec<Node>,
    unique_items: bool,
    min_properties: u64,
    max_properties: Option<u64>,
    property_names: Node,
    /// `dependentRequired`: a property and the ones it needs.
    dependent_required: Vec<(String, Vec<String>)>,
}

/// The shape the verifier checks for a JSON Schema, as an `input-schema` row's input
/// gets it: what a test compares with a reference validator. Packed and unpacked as a
/// spec is; the value owns what the shape borrows.
#[must_use]
pub fn schema_shape(schema: &Value) -> OwnedShape {
    let mut w = catalog_core::packed::Writer::new();
    read(schema).pack(&mut w);
    OwnedShape::decode(w.finish())
}

/// Reads a JSON Schema. Deterministic: properties keep the schema's order.
pub(crate) fn read(schema: &Value) -> Node {
    Reader::new(schema).root(Rust::Schema)
}

/// Reads the input schema of a row with typed parameters: as [`read`], but an integer
/// parameter must fit the `i64` its Rust field has.
pub(crate) fn read_typed(schema: &Value, params: &[Field]) -> Node {
    Reader::new(schema).root(Rust::Fields(params))
}

/// The Rust type a part of the schema parses into, where the row declared one.
#[derive(Clone, Copy)]
enum Rust<'a> {
    /// A `serde_json::Value`: whatever JSON Schema allows.
    Schema,
    Fields(&'a [Field]),
    Kind(&'a Kind),
}

impl<'a> Rust<'a> {
    fn property(self, name: &str) -> Rust<'a> {
        let fields = match self {
            Rust::Fields(fields) => fields,
            Rust::Kind(Kind::Object(Some(fields))) => fields.as_slice(),
            _ => return Rust::Schema,
        };
        fields
            .iter()
            .find(|f| f.name == name)
            .map_or(Rust::Schema, |f| Rust::Kind(&f.ty.kind))
    }

    fn item(self) -> Rust<'a> {
        match self {
            Rust::Kind(Kind::Array(item)) => Rust::Kind(&item.kind),
            _ => Rust::Schema,
        }
    }
}

/// Reads one schema document, resolving its local `$ref`s.
struct Reader<'v> {
    root: &'v Value,
    /// Whether `$ref`s may be resolved against the root: not when a nested `$id` moves
    /// the base they resolve against.
    local_refs: bool,
    /// Each JSON Pointer a `$ref` named, by the index its [`Node::Ref`] holds.
    pointers: Vec<String>,
    defs: Vec<Node>,
}

impl<'v> Reader<'v> {
    fn new(root: &'v Value) -> Reader<'v> {
        let local_refs = !nested_id(root, 0);
        Reader {
            root,
            local_refs,
            pointers: Vec::new(),
            defs: Vec::new(),
        }
    }

    fn root(mut self, rust: Rust<'_>) -> Node {
        let node = self.read(self.root, rust);
        if self.defs.is_empty() {
            return node;
        }
        // A `$ref` chain that comes back to itself without a keyword between names no
        // value; left unchecked, as it has no meaning to check.
        for i in 0..self.defs.len() {
            let mut at = i;
            for _ in 0..=self.defs.len() {
                match self.defs[at] {
                    Node::Ref(next) => at = next as usize,
                    _ => break,
                }
                if at == i {
                    self.defs[i] = Node::Any;
                    break;
                }
            }
        }
        Node::Defs(Box::new(node), self.defs)
    }

    fn read(&mut self, schema: &Value, rust: Rust<'_>) -> Node {
        // `false` admits nothing; `true`, and anything else that is not a schema object,
        // checks nothing.
        let Value::Object(m) = schema else {
            return if schema == &Value::Bool(false) {
                Node::Enum(Vec::new())
            } else {
                Node::Any
            };
        };
        // Beside a `$ref` older drafts ignore every other keyword and newer ones apply
        // them too: the reference alone holds under both.
        if let Some(reference) = m.get("$ref") {
            return self.reference(reference);
        }
        let mut parts = vec![self.typed(m, rust)];
        if let Some(values) = m.get("enum") {
            parts.push(enumeration(values));
        }
        if let Some(value) = m.get("const") {
            parts.push(Node::Enum(vec![value.to_string()]));
        }
        // `oneOf` is read as `anyOf`: a value fitting two branches passes, never the
        // other way round.
        for key in ["anyOf", "oneOf"] {
            if let Some(branches) = m.get(key) {
                parts.push(match branches {
                    Value::Array(branches) => {
                        either(branches.iter().map(|b| self.read(b, rust)).collect())
                    }
                    _ => Node::Any,
                });
            }
        }
        if let Some(Value::Array(all)) = m.get("allOf") {
            for part in all {
                parts.push(self.read(part, rust));
            }
        }
        // What `not` and `if` hold is read only when it is read in full: a keyword left
        // unchecked there would refuse more (under `not`), or choose the wrong branch.
        if let Some(not) = m.get("not").filter(|s| self.exact(s, &mut Vec::new())) {
            parts.push(Node::Not(Box::new(self.read(not, Rust::Schema))));
        }
        // `then` and `else` mean nothing without `if`.
        if let Some(test) = m.get("if").filter(|s| self.exact(s, &mut Vec::new())) {
            let mut branch = |key| m.get(key).map_or(Node::Any, |s| self.read(s, rust));
            let (then, otherwise) = (branch("then"), branch("else"));
            if then != Node::Any || otherwise != Node::Any {
                let test = self.read(test, Rust::Schema);
                parts.push(Node::If(Box::new([test, then, otherwise])));
            }
        }
        let node = all(parts);
        if m.get("nullable") == Some(&Value::Bool(true)) {
            either(vec![node, Node::Null])
        } else {
            node
        }
    }

    /// Whether the verifier reads `schema` in full: every keyword one it checks exactly
    /// (or an annotation), every pattern one it can read, every `$ref` local. `seen`
    /// holds the references followed, so a recursive model ends.
    fn exact(&self, schema: &Value, seen: &mut Vec<String>) -> bool {
        let Value::Object(m) = schema else {
            return schema.is_boolean();
        };
        let mut inner: Vec<&Value> = Vec::new();
        for (key, value) in m {
            let fine = if key == "$ref" {
                // Beside a `$ref`, the reader reads the reference alone.
                m.keys()
                    .all(|k| k == "$ref" || ANNOTATIONS.contains(&k.as_str()))
                    && self.exact_reference(value, seen)
            } else {
                read_exactly(m, key, value, &mut inner)
            };
            if !fine {
                return false;
            }
        }
        inner.into_iter().all(|s| self.exact(s, seen))
    }

    /// Whether a `$ref` is one the reader resolves, to a schema read in full.
    fn exact_reference(&self, reference: &Value, seen: &mut Vec<String>) -> bool {
        let Some(pointer) = reference.as_str().and_then(|r| r.strip_prefix('#')) else {
            return false;
        };
        if !self.local_refs || pointer.contains('%') {
            return false;
        }
        if seen.iter().any(|p| p == pointer) {
            return true;
        }
        seen.push(pointer.to_string());
        self.root
            .pointer(pointer)
            .is_some_and(|target| self.exact(target, seen))
    }

    /// A local `$ref` (`#/$defs/Name`, `#/definitions/Name`, any pointer into the
    /// document): the index of its schema, read once however often it is named, so a
    /// recursive model ends.
    fn reference(&mut self, reference: &Value) -> Node {
        let Some(pointer) = reference.as_str().and_then(|r| r.strip_prefix('#')) else {
            return Node::Any;
        };
        // A pointer percent-encoded as a URI fragment is left unchecked rather than read
        // wrongly.
        if !self.local_refs || pointer.contains('%') {
            return Node::Any;
        }
        if let Some(i) = self.pointers.iter().position(|p| p == pointer) {
            return Node::Ref(index(i));
        }
        let Some(target) = self.root.pointer(pointer) else {
            return Node::Any;
        };
        let i = self.defs.len();
        self.pointers.push(pointer.to_string());
        self.defs.push(Node::Any);
        self.defs[i] = self.read(target, Rust::Schema);
        Node::Ref(index(i))
    }

    /// The schema by its `type`, with the keywords that narrow each type.
    fn typed(&mut self, m: &Map<String, Value>, rust: Rust<'_>) -> Node {
        let (node, untyped) = match m.get("type") {
            Some(Value::String(t)) => (self.of_type(t, m, rust), false),
            Some(Value::Array(types)) if !types.is_empty() => {
                let nodes = types
                    .iter()
                    .map(|t| t.as_str().map_or(Node::Any, |t| self.of_type(t, m, rust)))
                    .collect();
                (either(nodes), false)
            }
            _ => (Node::Any, true),
        };
        // Without a type, every keyword holds for values of its own type only; with one,
        // the type's node holds bounds, items and properties itself.
        let mut rules = Rules {
            bounds: Bounds::NONE,
            min_length: count(m, "minLength").unwrap_or(0),
            max_length: count(m, "maxLength"),
            min_items: count(m, "minItems").unwrap_or(0),
            max_items: count(m, "maxItems"),
            items: Node::Any,
            object: None,
            pattern: m
                .get("pattern")
                .and_then(Value::as_str)
                .and_then(Pattern::read),
            multiple_of: m
                .get("multipleOf")
                .and_then(Value::as_f64)
                .filter(|x| x.is_finite() && *x > 0.0),
            prefix_items: Vec::new(),
            unique_items: m.get("uniqueItems") == Some(&Value::Bool(true)),
            min_properties: count(m, "minProperties").unwrap_or(0),
            max_properties: count(m, "maxProperties"),
            property_names: m
                .get("propertyNames")
                .map_or(Node::Any, |s| self.read(s, Rust::Schema)),
            dependent_required: dependent_required(m),
        };
        if untyped {
            rules.bounds = bounds(m);
            rules.items = self.items(m, rust);
            if [
                "properties",
                "required",
                "additionalProperties",
                "patternProperties",
            ]
            .iter()
            .any(|k| m.contains_key(*k))
            {
                rules.object = Some(self.object(m, rust));
            }
        }
        // A tuple: each of the first items has its own schema, and `items` holds for the
        // rest (typed or not, the rules hold both).
        if let Some(Value::Array(prefix)) = m.get("prefixItems") {
            rules.prefix_items = prefix.iter().map(|s| self.read(s, Rust::Schema)).collect();
            rules.items = match m.get("items") {
                Some(items @ (Value::Object(_) | Value::Bool(_))) => self.read(items, Rust::Schema),
                _ => Node::Any,
            };
        }
        all(vec![node, Node::Rules(Box::new(rules))])
    }

    fn of_type(&mut self, t: &str, m: &Map<String, Value>, rust: Rust<'_>) -> Node {
        match t {
            "null" => Node::Null,
            "boolean" => Node::Boolean,
            "integer" if matches!(rust, Rust::Kind(Kind::Integer { .. })) => Node::Int64(bounds(m)),
            "integer" => Node::Integer(bounds(m)),
            "number" => Node::Number(bounds(m)),
            "string" => Node::String(Vec::new()),
            "array" => Node::Array(Box::new(self.items(m, rust))),
            "object" => Node::Object(self.object(m, rust)),
            _ => Node::Any,
        }
    }

    /// The items of an array: one schema for all of them, else unchecked (a tuple's
    /// `items`, or `items` after `prefixItems`, which covers only the items past the
    /// prefix).
    fn items(&mut self, m: &Map<String, Value>, rust: Rust<'_>) -> Node {
        match m.get("items") {
            Some(items @ (Value::Object(_) | Value::Bool(_))) if !m.contains_key("prefixItems") => {
                self.read(items, rust.item())
            }
            _ => Node::Any,
        }
    }

    fn object(&mut self, m: &Map<String, Value>, rust: Rust<'_>) -> Obj {
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
                node: self.read(schema, rust.property(name)),
            })
            .collect();
        // `patternProperties`: a pattern the verifier cannot read could match any name, so
        // then nothing is known of the properties it does not declare.
        let mut readable = true;
        let mut patterns = Vec::new();
        if let Some(Value::Object(by_pattern)) = m.get("patternProperties") {
            for (source, schema) in by_pattern {
                match Pattern::read(source) {
                    Some(pattern) => patterns.push((pattern, self.read(schema, Rust::Schema))),
                    None => readable = false,
                }
            }
        }
        let additional = m.get("additionalProperties");
        let closed = readable && additional == Some(&Value::Bool(false));
        let additional = match additional {
            Some(schema @ Value::Object(_)) if readable => self.read(schema, Rust::Schema),
            _ => Node::Any,
        };
        // A required property the schema does not describe must still be there, and it is
        // an undeclared one: a pattern it matches holds for it (the verifier applies it),
        // else what `additionalProperties` says; in a closed object no value passes.
        for name in required {
            if !properties.iter().any(|p| p.name == name) {
                let matched = patterns.iter().any(|(p, _)| p.matches(name));
                properties.push(Prop {
                    name: name.to_string(),
                    required: true,
                    node: if matched {
                        Node::Any
                    } else if closed {
                        Node::Enum(Vec::new())
                    } else {
                        additional.clone()
                    },
                });
            }
        }
        let others = (!patterns.is_empty() || additional != Node::Any).then(|| {
            Box::new(Others {
                patterns,
                additional,
            })
        });
        Obj {
            properties,
            closed,
            others,
        }
    }
}

/// Whether a subschema below the root sets `$id`, which moves the base its `$ref`s
/// resolve against.
fn nested_id(schema: &Value, depth: usize) -> bool {
    match schema {
        Value::Object(m) => {
            (depth > 0 && m.contains_key("$id")) || m.values().any(|v| nested_id(v, depth + 1))
        }
        Value::Array(items) => items.iter().any(|v| nested_id(v, depth + 1)),
        _ => false,
    }
}

/// An index into the definitions; a schema with four billion of them is not read.
fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

fn bounds(m: &Map<String, Value>) -> Bounds {
    let number = |key| m.get(key).and_then(Value::as_f64);
    Bounds {
        minimum: number("minimum"),
        maximum: number("maximum"),
        // Draft 4's boolean form is not a number, so it is not read.
        exclusive_minimum: number("exclusiveMinimum"),
        exclusive_maximum: number("exclusiveMaximum"),
    }
}

/// Whether a pattern repeats (`*`, `+`, `{n,}`, `{n,m}` with m above 1) a group that
/// holds a repetition or an alternation, as `(a+)+`, `(a|ab)*` or `(\w+\s?)*` do: a
/// backtracking engine can take time exponential in the text on those. Read over the
/// pattern's text, escapes and classes skipped; it also names some that backtrack
/// harmlessly (`(-[a-z]+)*`), which are then left unchecked.
pub(crate) fn repeats_repetition(source: &str) -> bool {
    let chars: Vec<char> = source.chars().collect();
    // For each open group: whether it holds a repetition or an alternation.
    let mut groups = vec![false];
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '[' => {
                i += 1;
                while i < chars.len() && chars[i] != ']' {
                    if chars[i] == '\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            '(' => groups.push(false),
            ')' => {
                let held = groups.pop().unwrap_or(false);
                if groups.is_empty() {
                    groups.push(false);
                }
                let (repeats, unbounded) = quantifier(&chars[i + 1..]);
                if held && repeats && unbounded {
                    return true;
                }
                if let Some(outer) = groups.last_mut() {
                    *outer |= held || repeats;
                }
            }
            '|' | '*' | '+' | '?' => {
                if let Some(group) = groups.last_mut() {
                    *group = true;
                }
            }
            '{' if quantifier(&chars[i..]).0 => {
                if let Some(group) = groups.last_mut() {
                    *group = true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// Whether `rest` starts with a quantifier, and whether that one allows more than one.
fn quantifier(rest: &[char]) -> (bool, bool) {
    match rest.first() {
        Some('*' | '+') => (true, true),
        Some('?') => (true, false),
        Some('{') => {
            let end = rest.iter().position(|c| *c == '}');
            let Some(end) = end else {
                return (false, false);
            };
            let inside: String = rest[1..end].iter().collect();
            let (low, high) = inside.split_once(',').unwrap_or((&inside, &inside));
            let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
            if !digits(low) || !(high.is_empty() || digits(high)) {
                return (false, false);
            }
            (
                true,
                high.is_empty() || high.parse::<u64>().map_or(true, |h| h > 1),
            )
        }
        _ => (false, false),
    }
}

/// Keywords that say nothing of a value.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$schema",
    "$defs",
    "definitions",
];

/// Whether the reader reads keyword `key` of schema `m` exactly (`$ref` aside); the
/// subschemas it holds go to `inner`, to be asked the same.
fn read_exactly<'v>(
    m: &'v Map<String, Value>,
    key: &str,
    value: &'v Value,
    inner: &mut Vec<&'v Value>,
) -> bool {
    const COUNTS: &[&str] = &[
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
    ];
    const TYPES: &[&str] = &[
        "null", "boolean", "integer", "number", "string", "array", "object",
    ];
    let strings = |v: &Value| v.as_array().is_some_and(|r| r.iter().all(Value::is_string));
    match key {
        k if ANNOTATIONS.contains(&k) => true,
        k if COUNTS.contains(&k) => count(m, k).is_some(),
        "type" => match value {
            Value::String(t) => TYPES.contains(&t.as_str()),
            Value::Array(list) => {
                !list.is_empty()
                    && list
                        .iter()
                        .all(|t| t.as_str().is_some_and(|t| TYPES.contains(&t)))
            }
            _ => false,
        },
        "enum" => value.as_array().is_some_and(|v| !v.is_empty()),
        "const" => true,
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => value.is_number(),
        "multipleOf" => value.as_f64().is_some_and(|x| x.is_finite() && x > 0.0),
        "pattern" => value.as_str().is_some_and(|p| Pattern::read(p).is_some()),
        "uniqueItems" => value.is_boolean(),
        "required" => strings(value),
        "dependentRequired" => value.as_object().is_some_and(|d| d.values().all(strings)),
        "items" | "additionalProperties" | "propertyNames" | "not" | "if" | "then" | "else" => {
            inner.push(value);
            value.is_object() || value.is_boolean()
        }
        "prefixItems" | "anyOf" | "allOf" => match value {
            Value::Array(list) if !list.is_empty() => {
                inner.extend(list);
                true
            }
            _ => false,
        },
        "properties" | "patternProperties" => match value {
            Value::Object(props) => {
                inner.extend(props.values());
                key == "properties" || props.keys().all(|p| Pattern::read(p).is_some())
            }
            _ => false,
        },
        _ => false,
    }
}

/// `dependentRequired`: each property and the names it needs, where written as JSON
/// Schema says (an object of string lists); anything else checks nothing.
fn dependent_required(m: &Map<String, Value>) -> Vec<(String, Vec<String>)> {
    let Some(Value::Object(by_name)) = m.get("dependentRequired") else {
        return Vec::new();
    };
    by_name
        .iter()
        .filter_map(|(name, needs)| {
            let needs: Option<Vec<String>> = needs
                .as_array()?
                .iter()
                .map(|n| n.as_str().map(str::to_string))
                .collect();
            Some((name.clone(), needs?))
        })
        .filter(|(_, needs)| !needs.is_empty())
        .collect()
}

/// A count keyword (`minLength`, `maxItems`): a whole number, `3.0` included.
fn count(m: &Map<String, Value>, key: &str) -> Option<u64> {
    let n = m.get(key)?.as_number()?;
    n.as_u64().or_else(|| {
        let x = n.as_f64()?;
        // Whole and in range: exact.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        (x >= 0.0 && x.fract() == 0.0 && x < 1.8e19).then_some(x as u64)
    })
}

/// An `enum`: a string enum when every value is a string, as typed parameters have;
/// unchecked when it is not a list of values (an empty one breaks the meta-schema).
fn enumeration(values: &Value) -> Node {
    let Some(values) = values.as_array().filter(|v| !v.is_empty()) else {
        return Node::Any;
    };
    let strings: Option<Vec<String>> = values
        .iter()
        .map(|v| v.as_str().map(str::to_string))
        .collect();
    match strings {
        Some(strings) if !strings.is_empty() => Node::String(strings),
        _ => Node::Enum(values.iter().map(Value::to_string).collect()),
    }
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

/// Every one of several nodes, flattened; what checks nothing is left out, and an enum
/// takes in the parts that only say its values' types.
fn all(nodes: Vec<Node>) -> Node {
    let mut flat = Vec::new();
    for node in nodes {
        match node {
            Node::Any => {}
            Node::Rules(rules) if rules.is_empty() => {}
            Node::All(inner) => flat.extend(inner),
            other => flat.push(other),
        }
    }
    narrow_enums(&mut flat);
    match flat.len() {
        0 => Node::Any,
        1 => flat.pop().unwrap_or(Node::Any),
        _ => Node::All(flat),
    }
}

/// Beside an enum, a part that decides each of its values alone (`"type": "integer"`
/// beside `"enum": [1, 2]`) is applied once, here: the values it refuses are dropped
/// and the part with them, so a wrong value draws one message, not two.
fn narrow_enums(parts: &mut Vec<Node>) {
    let Some(at) = parts.iter().position(|p| match p {
        Node::Enum(_) => true,
        Node::String(v) => !v.is_empty(),
        _ => false,
    }) else {
        return;
    };
    let mut values: Vec<Value> = match &parts[at] {
        Node::Enum(texts) => texts
            .iter()
            .filter_map(|t| serde_json::from_str(t).ok())
            .collect(),
        Node::String(strings) => strings.iter().map(|s| Value::from(s.as_str())).collect(),
        _ => return,
    };
    let mut kept = Vec::new();
    for (i, part) in parts.drain(..).enumerate() {
        if i == at {
            continue;
        }
        let verdicts: Option<Vec<bool>> = values.iter().map(|v| part.admits(v)).collect();
        match verdicts {
            Some(verdicts) => {
                let mut keep = verdicts.into_iter();
                values.retain(|_| keep.next().unwrap_or(false));
            }
            None => kept.push(part),
        }
    }
    let strings: Option<Vec<String>> = values
        .iter()
        .map(|v| v.as_str().map(str::to_string))
        .collect();
    let narrowed = match strings {
        Some(strings) if !strings.is_empty() => Node::String(strings),
        _ => Node::Enum(values.iter().map(Value::to_string).collect()),
    };
    kept.insert(0, narrowed);
    *parts = kept;
}

impl Rules {
    fn is_empty(&self) -> bool {
        self.bounds == Bounds::NONE
            && self.min_length == 0
            && self.max_length.is_none()
            && self.min_items == 0
            && self.max_items.is_none()
            && self.items == Node::Any
            && self.object.is_none()
            && self.pattern.is_none()
            && self.multiple_of.is_none()
            && self.prefix_items.is_empty()
            && !self.unique_items
            && self.min_properties == 0
            && self.max_properties.is_none()
            && self.property_names == Node::Any
            && self.dependent_required.is_empty()
    }
}

impl Node {
    /// Whether the node accepts `value`, for a node whose verdict needs nothing but the
    /// value's type and number (`None` for the rest).
    fn admits(&self, value: &Value) -> Option<bool> {
        let within = |b: &Bounds, x: f64| {
            b.minimum.is_none_or(|m| x >= m)
                && b.maximum.is_none_or(|m| x <= m)
                && b.exclusive_minimum.is_none_or(|m| x > m)
                && b.exclusive_maximum.is_none_or(|m| x < m)
        };
        let whole = |v: &Value| {
            v.as_number().is_some_and(|n| {
                n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|x| x.fract() == 0.0)
            })
        };
        Some(match self {
            Node::Any => true,
            Node::Null => value.is_null(),
            Node::Boolean => value.is_boolean(),
            Node::Integer(b) => whole(value) && value.as_f64().is_some_and(|x| within(b, x)),
            Node::Number(b) => value.as_f64().is_some_and(|x| within(b, x)),
            Node::String(values) if values.is_empty() => value.is_string(),
            Node::Either(branches) => {
                let mut any = false;
                for branch in branches {
                    any |= branch.admits(value)?;
                }
                any
            }
            _ => return None,
        })
    }
}
