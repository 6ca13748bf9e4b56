//! The part of a JSON Schema the verifier checks, as static data.
//!
//! The compiler reads every tool's published input and output schema (typed parameters
//! and the `input-schema` escape hatch alike) into a [`Shape`], so what the verifier
//! enforces is exactly what the model was shown. Keywords outside this subset are not
//! checked: their part of the value becomes [`Shape::Any`].
//!
//! A schema that uses `$ref` becomes a [`Shape::Defs`] at its root holding every schema
//! referred to, each [`Shape::Ref`] an index into it: recursive models stay plain static
//! data, with no cycle of references for a `const` to hold.
//!
//! `pattern` and `patternProperties` hold a [`Pattern`]: an ECMA-262 regular expression
//! as JSON Schema says, which the compiler has already parsed (a pattern it cannot read
//! is left out, so checks nothing) and which is compiled once, on first use.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use once_cell::race::OnceBox;

/// The keywords of JSON Schema the verifier checks (with the limits the guide's agent-loop
/// chapter states); any other is left unchecked, so never the cause of a refusal.
pub const CHECKED_KEYWORDS: &[&str] = &[
    "type",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "anyOf",
    "allOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$defs",
    "definitions",
];

/// What a JSON value must look like.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape<'c> {
    /// Anything (a free-form object, or a schema the verifier does not read).
    Any,
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A whole number, however large (JSON Schema's `integer`: `2.0` counts), within the
    /// bounds.
    Integer(Bounds),
    /// A whole number that fits the `i64` of a typed parameter, within the bounds.
    Int64(Bounds),
    /// Any number within the bounds.
    Number(Bounds),
    /// A string; when `values` is not empty, one of them.
    String {
        /// The allowed values (`enum`); empty for any string.
        values: &'c [&'c str],
    },
    /// A list whose every item has the shape.
    Array(&'c Shape<'c>),
    /// An object.
    Object(Object<'c>),
    /// One of several shapes (`"type": ["string", "null"]`, `anyOf`, `oneOf`).
    Either(&'c [Shape<'c>]),
    /// Every one of several shapes (`allOf`; a `type` beside an `enum`, or beside keywords
    /// its variant does not hold).
    All(&'c [Shape<'c>]),
    /// One of these values, each written as JSON (`const`, an `enum` of any values);
    /// numbers compare by value, so `1` and `1.0` are the same.
    Enum(&'c [&'c str]),
    /// Keywords of JSON Schema each of which holds only for values of its own type, as
    /// without a `type` (`properties` alone leave a string valid).
    Rules(&'c Rules<'c>),
    /// A schema whose `$ref`s index `defs`: `shape`, checked with `defs` in scope.
    Defs(&'c Defs<'c>),
    /// The schema at this index of the nearest enclosing [`Shape::Defs`] (a `$ref`).
    Ref(u32),
    /// Any value the shape refuses (`not`).
    Not(&'c Shape<'c>),
    /// `if`, `then` and `else`: the value meets `then` when it meets `test`, else
    /// `otherwise`.
    If(&'c Condition<'c>),
}

/// The three schemas of `if`/`then`/`else`; an absent one is [`Shape::Any`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Condition<'c> {
    /// `if`.
    pub test: Shape<'c>,
    /// `then`.
    pub then: Shape<'c>,
    /// `else`.
    pub otherwise: Shape<'c>,
}

/// Numeric bounds; JSON Schema's `minimum`, `maximum` and their exclusive forms.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bounds {
    /// `minimum`: at least this.
    pub minimum: Option<f64>,
    /// `maximum`: at most this.
    pub maximum: Option<f64>,
    /// `exclusiveMinimum` (draft 6 on, a number): above this.
    pub exclusive_minimum: Option<f64>,
    /// `exclusiveMaximum` (draft 6 on, a number): below this.
    pub exclusive_maximum: Option<f64>,
}

impl Bounds {
    /// No bound at all: what a constant spells out only the bounds it sets against.
    pub const NONE: Bounds = Bounds {
        minimum: None,
        maximum: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
    };
}

/// Keywords by the JSON type they apply to; a value of another type passes them all.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rules<'c> {
    /// Numbers: the bounds.
    pub bounds: Bounds,
    /// Strings: the fewest characters (`minLength`, in Unicode code points).
    pub min_length: u64,
    /// Strings: the most characters (`maxLength`).
    pub max_length: Option<u64>,
    /// Arrays: the fewest items (`minItems`).
    pub min_items: u64,
    /// Arrays: the most items (`maxItems`).
    pub max_items: Option<u64>,
    /// Arrays: the shape of every item past [`Rules::prefix_items`] (`items`).
    pub items: Shape<'c>,
    /// Objects: the properties (`properties`, `required`, `additionalProperties`,
    /// `patternProperties`).
    pub object: Option<Object<'c>>,
    /// Strings: a regular expression each must match somewhere (`pattern`).
    pub pattern: Option<&'c Pattern>,
    /// Numbers: what each must be a whole multiple of (`multipleOf`), exactly as binary
    /// floating point says.
    pub multiple_of: Option<f64>,
    /// Arrays: the shapes of the first items, one each (`prefixItems`).
    pub prefix_items: &'c [Shape<'c>],
    /// Arrays: no two items equal (`uniqueItems`).
    pub unique_items: bool,
    /// Objects: the fewest properties (`minProperties`).
    pub min_properties: u64,
    /// Objects: the most properties (`maxProperties`).
    pub max_properties: Option<u64>,
    /// Objects: what every property name, as a string, must be (`propertyNames`).
    pub property_names: Shape<'c>,
    /// Objects: properties that, when present, need others (`dependentRequired`).
    pub dependent_required: &'c [Dependent<'c>],
}

impl Rules<'_> {
    /// No rule at all: what a constant spells out only the rules it sets against.
    pub const NONE: Rules<'static> = Rules {
        bounds: Bounds::NONE,
        min_length: 0,
        max_length: None,
        min_items: 0,
        max_items: None,
        items: Shape::Any,
        object: None,
        pattern: None,
        multiple_of: None,
        prefix_items: &[],
        unique_items: false,
        min_properties: 0,
        max_properties: None,
        property_names: Shape::Any,
        dependent_required: &[],
    };
}

/// A property that, when present, needs others (`dependentRequired`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dependent<'c> {
    /// The property.
    pub name: &'c str,
    /// The properties it needs.
    pub requires: &'c [&'c str],
}

/// A schema with the schemas its `$ref`s point to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Defs<'c> {
    /// The schema itself.
    pub shape: Shape<'c>,
    /// Every schema a [`Shape::Ref`] inside names, by index.
    pub defs: &'c [Shape<'c>],
}

/// An object's properties and whether others are allowed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Object<'c> {
    /// The declared properties, in schema order.
    pub properties: &'c [Property<'c>],
    /// Whether properties neither declared nor matched by a pattern are refused
    /// (`additionalProperties: false`).
    pub closed: bool,
    /// `patternProperties`, and `additionalProperties` as a schema, when the object has
    /// either.
    pub others: Option<&'c Others<'c>>,
}

/// What an object says of properties beyond the declared ones.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Others<'c> {
    /// `patternProperties`: every property whose name a pattern matches, declared or
    /// not, has that pattern's shape.
    pub patterns: &'c [PatternProperty<'c>],
    /// `additionalProperties` as a schema: the shape of every property neither declared
    /// nor matched by a pattern.
    pub additional: Shape<'c>,
}

/// One entry of `patternProperties`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PatternProperty<'c> {
    /// The regular expression a name is matched against.
    pub pattern: &'c Pattern,
    /// The shape of each property it matches.
    pub shape: Shape<'c>,
}

/// A regular expression of JSON Schema: ECMA-262 syntax and meaning (`\d` and `\w` are
/// ASCII, lookaround and backreferences work), matched anywhere in the string unless
/// anchored. Read by `regress`, compiled the first time it is used, then kept; matched by
/// its Pike VM, whose time grows with the text, not exponentially as backtracking can.
pub struct Pattern {
    /// The expression as the schema writes it: the generated code's literal, or a copy
    /// owned by a catalog read at run time.
    pub source: Cow<'static, str>,
    /// Whether it is read with the `u` flag (code points, strict syntax), which the
    /// compiler chose because it parses so; otherwise without.
    pub unicode: bool,
    compiled: OnceBox<Option<regress::Regex>>,
}

impl Pattern {
    /// The longest string, in code points, a pattern is matched against.
    pub const MAX_CHARS: usize = 4096;

    /// A pattern to compile on first use.
    #[must_use]
    pub const fn new(source: &'static str, unicode: bool) -> Pattern {
        Pattern {
            source: Cow::Borrowed(source),
            unicode,
            compiled: OnceBox::new(),
        }
    }

    /// [`Pattern::new`] of a source the pattern keeps a copy of.
    #[must_use]
    pub fn owned(source: &str, unicode: bool) -> Pattern {
        Pattern {
            source: Cow::Owned(String::from(source)),
            unicode,
            compiled: OnceBox::new(),
        }
    }

    /// How `source` is read: `Some(true)` with the `u` flag when it parses so, as JSON
    /// Schema's ECMA-262 dialect intends; `Some(false)` when it parses only without (an
    /// identity escape such as `\-` outside a class); `None` when it does not parse at all,
    /// and so cannot be checked.
    #[must_use]
    pub fn reading(source: &str) -> Option<bool> {
        let parses = |unicode| {
            let flags = regress::Flags {
                unicode,
                ..regress::Flags::default()
            };
            regress::Regex::with_flags(source, flags).is_ok()
        };
        if parses(true) {
            Some(true)
        } else if parses(false) {
            Some(false)
        } else {
            None
        }
    }

    /// Whether `text` matches. A pattern that does not compile (which the compiler
    /// never writes), or a text longer than [`Pattern::MAX_CHARS`], matches: what the
    /// verifier cannot read never refuses.
    #[must_use]
    pub fn is_match(&self, text: &str) -> bool {
        if text.len() > Pattern::MAX_CHARS && text.chars().nth(Pattern::MAX_CHARS).is_some() {
            return true;
        }
        let compiled = self.compiled.get_or_init(|| {
            let flags = regress::Flags {
                unicode: self.unicode,
                ..regress::Flags::default()
            };
            alloc::boxed::Box::new(regress::Regex::with_flags(&self.source, flags).ok())
        });
        compiled
            .as_ref()
            .is_none_or(|regex| regex.find(text).is_some())
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pattern")
            .field("source", &self.source)
            .field("unicode", &self.unicode)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.source == other.source && self.unicode == other.unicode
    }
}

/// A declared property of an [`Object`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Property<'c> {
    /// The name as JSON spells it.
    pub name: &'c str,
    /// Whether the object must have it.
    pub required: bool,
    /// Its shape.
    pub shape: Shape<'c>,
}

/// Hops through `$ref`s (and nested definitions) a description follows before it gives
/// up: only a self-referential static comes near it.
const MAX_HOPS: usize = 16;

impl<'c> Shape<'c> {
    /// The JSON Schema type name, as error messages say it (`an integer`, `one of ...`).
    #[must_use]
    pub fn describe(&self) -> &'static str {
        match self {
            Shape::Any | Shape::Rules(_) => "any value",
            Shape::Null => "null",
            Shape::Boolean => "a boolean",
            Shape::Integer(_) | Shape::Int64(_) => "an integer",
            Shape::Number(_) => "a number",
            Shape::String { .. } => "a string",
            Shape::Array(_) => "an array",
            Shape::Object(_) => "an object",
            Shape::Either(_) => "one of several types",
            Shape::All(_) => "a value meeting several rules",
            Shape::Enum(_) => "one of several values",
            Shape::Defs(defs) => defs.shape.describe(),
            Shape::Ref(_) => "a value of a defined schema",
            Shape::Not(_) | Shape::If(_) => "a value the schema allows",
        }
    }

    /// What a value must be, as the verifier's messages say it: [`Shape::describe`], but
    /// with the allowed values of an enum (`one of "grid", "form"`) and the types of an
    /// [`Shape::Either`] listed (`a string, an integer or null`).
    #[must_use]
    pub fn expected(&self) -> String {
        self.expected_in(&[])
    }

    /// [`Shape::expected`], with the definitions a [`Shape::Ref`] indexes.
    #[must_use]
    pub fn expected_in(&self, defs: &[Shape<'_>]) -> String {
        let (shape, defs) = self.resolve(defs);
        match shape {
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
            Shape::Enum([]) => String::from("nothing (the schema admits no value here)"),
            Shape::Enum([one]) => {
                let mut out = String::from("exactly ");
                out.push_str(one);
                out
            }
            Shape::Enum(values) => {
                let mut out = String::from("one of ");
                out.push_str(&values.join(", "));
                out
            }
            // The first part says the type; the others narrow it.
            Shape::All(parts) => parts
                .iter()
                .find(|p| !matches!(p, Shape::Rules(_)))
                .map_or_else(|| String::from("any value"), |p| p.expected_in(defs)),
            Shape::Either(_) => {
                let mut kinds = Vec::new();
                shape.kinds(&mut kinds, defs, 0);
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
            other => String::from(other.describe()),
        }
    }

    /// The shape a [`Shape::Ref`] or [`Shape::Defs`] stands for, with the definitions in
    /// scope there; any other shape is itself.
    #[must_use]
    pub fn resolve<'s>(&'s self, mut defs: &'s [Shape<'c>]) -> (&'s Shape<'c>, &'s [Shape<'c>]) {
        let mut shape = self;
        for _ in 0..MAX_HOPS {
            match shape {
                Shape::Defs(d) => (shape, defs) = (&d.shape, d.defs),
                Shape::Ref(i) => match defs.get(*i as usize) {
                    Some(target) => shape = target,
                    None => return (&Shape::Any, defs),
                },
                _ => return (shape, defs),
            }
        }
        (&Shape::Any, defs)
    }

    /// The distinct kinds an `Either` accepts, nested ones flattened. The depth cap only
    /// guards against a self-referential static; generated shapes never come near it.
    fn kinds(&self, out: &mut Vec<&'static str>, defs: &[Shape<'c>], depth: usize) {
        let (shape, defs) = self.resolve(defs);
        match shape {
            Shape::Either(branches) if depth < MAX_HOPS => {
                for branch in *branches {
                    branch.kinds(out, defs, depth + 1);
                }
            }
            Shape::All(parts) if depth < MAX_HOPS => {
                if let Some(first) = parts.iter().find(|p| !matches!(p, Shape::Rules(_))) {
                    first.kinds(out, defs, depth + 1);
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
