//! The Rust types the generator defines for a row (its arguments, enums, objects), named
//! as the expansion names them: what the rule that generated types stay distinct reads.

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
pub fn field_origin(kind: &str, name: &str, parent: Option<&str>) -> String {
    match parent {
        None => format!("{kind} `{name}`"),
        Some(p) => format!("{kind} `{name}` of {p}"),
    }
}

/// The types generated for the fields of one object, whose own type (or tool variant, for
/// parameters) is `stem`.
fn field_types(stem: &str, fields: &[Field], parent: Option<&str>, out: &mut Vec<GeneratedType>) {
    let kind = if parent.is_some() {
        "property"
    } else {
        "parameter"
    };
    for f in fields {
        let name = names::generated_type(stem, TypeStep::Field(f.type_word()));
        let origin = field_origin(kind, &f.name, parent);
        value_types(&f.ty, name, origin, &f.span, out);
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
    match &ty.kind {
        Kind::String { values: Some(_) } => out.push(GeneratedType {
            name,
            origin,
            span: span.clone(),
        }),
        Kind::Array(item) => {
            let item_name = names::generated_type(&name, TypeStep::Item);
            value_types(item, item_name, format!("the items of {origin}"), span, out);
        }
        Kind::Object(Some(fields)) => {
            out.push(GeneratedType {
                name: name.clone(),
                origin: origin.clone(),
                span: span.clone(),
            });
            field_types(&name, fields, Some(&origin), out);
        }
        _ => {}
    }
}
