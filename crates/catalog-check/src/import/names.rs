//! The Rust names imported rows get: `rust-name`s that keep every variant, field and
//! generated type distinct, as the compiler requires, and free names for the search and
//! ask tools.

use std::collections::BTreeSet;

use super::model::{Field, Input, Kind, Row, Type};
use crate::model;
use crate::names::{self, TypeStep, first_free};

/// The Rust names a catalog's other rows already have, which imported rows must not take.
#[derive(Default)]
pub(super) struct Taken {
    /// Each row's enum variant.
    pub(super) variants: Vec<String>,
    /// Every type generated for them beyond their arguments' (enums, objects).
    pub(super) types: BTreeSet<String>,
}

/// The added search and ask tools, the only other rows of a new catalog.
pub(super) fn role_variants(search: &str, ask: &str) -> Taken {
    Taken {
        variants: vec![names::variant(search), names::variant(ask)],
        types: BTreeSet::new(),
    }
}

/// Names for the search and ask tools that no imported tool uses, as a name or in Rust.
pub(super) fn agent_tools(rows: &[Row]) -> (String, String) {
    let mut taken: BTreeSet<String> = BTreeSet::new();
    for r in rows {
        taken.insert(r.name.clone());
        taken.extend(variant_keys(&names::variant(&r.name)));
    }
    let mut pick = |base: &str| {
        let free = |c: &str| {
            !taken.contains(c)
                && variant_keys(&names::variant(c))
                    .iter()
                    .all(|k| !taken.contains(k))
        };
        let name = if free(base) {
            base.to_string()
        } else {
            first_free(|n| format!("{base}_{n}"), free)
        };
        taken.insert(name.clone());
        taken.extend(variant_keys(&names::variant(&name)));
        name
    };
    let search = pick("searchTools");
    let ask = pick("ask");
    (search, ask)
}

/// What the compiler compares to find two tools that become the same Rust identifier.
pub(super) fn variant_keys(variant: &str) -> [String; 2] {
    [variant.to_string(), names::snake_bare(variant)]
}

/// Gives rows and fields the `rust-name`s that keep every Rust name distinct, as the
/// compiler requires: tool variants (`calculate_BMI` after `calculate_bmi` → `CalculateBmi2`),
/// fields of one object (`date_range` after `dateRange` → `date_range_2`), and the types
/// generated for arguments, enums and objects (a field's type is named after its tool and
/// its `rust-name`, so a colliding one is renamed the same way). Earlier rows and fields
/// keep their derived names; a new name avoids every name some row derives on its own.
/// `taken` are the catalog's other rows (the search and ask tools at least), whose
/// variants and types stay as they are.
pub(super) fn assign_rust_names(rows: &mut [Row], taken: &Taken) {
    let natural: BTreeSet<String> = taken
        .variants
        .iter()
        .cloned()
        .chain(rows.iter().map(|r| names::variant(&r.name)))
        .flat_map(|v| variant_keys(&v))
        .collect();
    let mut used = BTreeSet::new();
    let mut types: BTreeSet<String> = names::RESERVED_TYPES
        .iter()
        .map(ToString::to_string)
        .chain(taken.types.iter().cloned())
        .collect();
    for variant in &taken.variants {
        types.insert(names::generated_type(variant, TypeStep::Args));
        used.extend(variant_keys(variant));
    }
    for row in rows {
        let free = |v: &str| {
            variant_keys(v).iter().all(|k| !used.contains(k))
                && !types.contains(&names::generated_type(v, TypeStep::Args))
        };
        let derived = names::variant(&row.name);
        let variant = if free(&derived) {
            derived
        } else {
            let pick = first_free(
                |n| format!("{derived}{n}"),
                |c| free(c) && variant_keys(c).iter().all(|k| !natural.contains(k)),
            );
            row.rust_name = Some(pick.clone());
            pick
        };
        used.extend(variant_keys(&variant));
        types.insert(names::generated_type(&variant, TypeStep::Args));
        if let Input::Params(params) = &mut row.input {
            place_fields(&variant, params, &mut types);
        }
    }
}

/// `assign_rust_names` for the fields of one object, whose types are named from `stem`.
pub(super) fn place_fields(stem: &str, fields: &mut [Field], types: &mut BTreeSet<String>) {
    let natural: BTreeSet<String> = fields.iter().map(|f| names::snake_bare(&f.name)).collect();
    let mut idents = BTreeSet::new();
    for f in fields {
        let ok = |word: &str, ident: &str| {
            !idents.contains(ident)
                && own_type(field_type(stem, word), &f.ty).is_none_or(|t| !types.contains(&t))
        };
        let derived = names::snake_bare(&f.name);
        if !ok(&f.name, &derived) {
            let pick = first_free(
                |n| format!("{derived}_{n}"),
                |c| !natural.contains(c) && ok(c, c),
            );
            f.rust_name = Some(pick);
        }
        idents.insert(f.rust_name.clone().unwrap_or(derived));
        let word = f.rust_name.as_deref().unwrap_or(&f.name);
        if let Some(own) = own_type(field_type(stem, word), &f.ty) {
            types.insert(own.clone());
            if let Some(children) = object_fields(&mut f.ty) {
                place_fields(&own, children, types);
            }
        }
    }
}

/// The type the generator names after a field (`ListRows` + `sortOrder` → `ListRowsSortOrder`).
pub(super) fn field_type(stem: &str, word: &str) -> String {
    names::generated_type(stem, TypeStep::Field(word))
}

/// The type generated for a value that would be named `name`, by the compiler's rule
/// ([`model::own_type`] of the type as the compiler reads it); `None` when the value needs
/// no type of its own.
pub(super) fn own_type(name: String, ty: &Type) -> Option<String> {
    model::own_type(name, &ty.to_model())
}

/// The fields of an object value, also as the items of arrays.
pub(super) fn object_fields(ty: &mut Type) -> Option<&mut Vec<Field>> {
    match &mut ty.kind {
        Kind::Object(Some(fields)) => Some(fields),
        Kind::Array(item) => object_fields(item),
        _ => None,
    }
}
