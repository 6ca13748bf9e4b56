//! The Rust types the generator defines for a row (its arguments, enums, objects), named
//! as the expansion names them: what the rule that generated types stay distinct reads.
//! [`Kind::generated`] is the rule for which values get a type of their own, which the
//! generator, the collision check, the check of distinct fields and the importer's naming
//! all follow.

use super::{Field, Kind, TypeSpec};
use crate::diag::Span;
use crate::names::{self, TypeStep};

/// A Rust type the generator defines for a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedType {
    /// Its name (`ListRowsSortOrder`).
    pub name: String,
    /// What it is generated for, as an error names it: `the arguments`,
    /// ``parameter `sortOrder` ``, ``property `order` of parameter `sort` ``,
    /// ``the items of parameter `tags` ``.
    pub origin: String,
    /// Where that is written: the field's name, or the tool's for its arguments.
    pub span: Span,
}

/// [`Tool::generated_types`](super::Tool::generated_types) of a row given by its variant, where its name is written, and
/// its parameters (none for an `input-schema` row): usable before the row is complete.
#[must_use]
pub fn generated_types(variant: &str, name_span: &Span, params: &[Field]) -> Vec<GeneratedType> {
    let mut out = vec![GeneratedType {
        name: names::generated_type(variant, TypeStep::Args),
        origin: "the arguments".to_string(),
        span: name_span.clone(),
    }];
    field_types(variant, params, None, &mut out);
    out
}

/// How an error names a field: ``parameter `sort` ``, or
/// ``property `order` of parameter `sort` `` under `parent`.
#[must_use]
pub fn field_origin(name: &str, parent: Option<&str>) -> String {
    let kind = field_kind(parent);
    match parent {
        None => format!("{kind} `{name}`"),
        Some(p) => format!("{kind} `{name}` of {p}"),
    }
}

/// What a field is called: a parameter, or a property under `parent`.
#[must_use]
pub fn field_kind(parent: Option<&str>) -> &'static str {
    if parent.is_some() {
        "property"
    } else {
        "parameter"
    }
}

/// The types generated for the fields of one object, whose own type (or tool variant, for
/// parameters) is `stem`.
fn field_types(stem: &str, fields: &[Field], parent: Option<&str>, out: &mut Vec<GeneratedType>) {
    for f in fields {
        let name = names::generated_type(stem, TypeStep::Field(f.type_word()));
        let origin = field_origin(&f.name, parent);
        value_types(&f.ty, name, origin, &f.span, out);
    }
}

/// What the generator makes of a value of some kind ([`Kind::generated`]).
#[doc(hidden)]
#[derive(Clone, Copy)]
pub enum Generated<'a> {
    /// A string with `enum`: an enum of its own, named after the field.
    Enum(&'a [String]),
    /// An object with declared properties: a struct of its own, named after the field,
    /// whose fields follow this rule in turn.
    Struct(&'a [Field]),
    /// An array: a `Vec` of what its items get by this rule, under the name with `Item`
    /// added.
    Items(&'a TypeSpec),
    /// Anything else: a type the runtime has (`String`, `i64`, `f64`, `bool`, a JSON map
    /// or value).
    Builtin,
}

impl Kind {
    /// **The rule for which values get a generated type**: an enum, or an object with
    /// declared properties, gets one; an array passes the question to its items; nothing
    /// else does.
    #[doc(hidden)]
    #[must_use]
    pub fn generated(&self) -> Generated<'_> {
        match self {
            Kind::String {
                values: Some(values),
            } => Generated::Enum(values),
            Kind::Object(Some(fields)) => Generated::Struct(fields),
            Kind::Array(item) => Generated::Items(item),
            Kind::String { values: None }
            | Kind::Integer { .. }
            | Kind::Number { .. }
            | Kind::Boolean
            | Kind::Object(None)
            | Kind::Raw(_) => Generated::Builtin,
        }
    }
}

/// The type generated for a value of type `ty` that would be named `name` (an enum or a
/// struct, also as the items of arrays, `...Item`); `None` when it gets no type of its own.
#[must_use]
pub(crate) fn own_type(name: String, ty: &TypeSpec) -> Option<String> {
    match ty.kind.generated() {
        Generated::Enum(_) | Generated::Struct(_) => Some(name),
        Generated::Items(item) => own_type(names::generated_type(&name, TypeStep::Item), item),
        Generated::Builtin => None,
    }
}

/// The types generated for one value, which would be named `name`.
fn value_types(
    ty: &TypeSpec,
    name: String,
    origin: String,
    span: &Span,
    out: &mut Vec<GeneratedType>,
) {
    match ty.kind.generated() {
        Generated::Enum(_) => out.push(GeneratedType {
            name,
            origin,
            span: span.clone(),
        }),
        Generated::Items(item) => {
            let item_name = names::generated_type(&name, TypeStep::Item);
            value_types(item, item_name, format!("the items of {origin}"), span, out);
        }
        Generated::Struct(fields) => {
            out.push(GeneratedType {
                name: name.clone(),
                origin: origin.clone(),
                span: span.clone(),
            });
            field_types(&name, fields, Some(&origin), out);
        }
        Generated::Builtin => {}
    }
}
