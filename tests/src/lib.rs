//! Workspace-level tests live in `tests/`. The library is what they use as another crate
//! would: the framework tests' own rich catalog ([`tables`]), and two small catalogs, one
//! per module (`tests/tests/modules.rs`).

/// The framework tests' own rich catalog, `data/tables.toml`: a table-database app whose
/// agent edits through a staging area (copied from the example app once, so that the
/// example is free to change and these tests keep their subject).
pub mod tables {
    catalog_macros::catalog!("data/tables.toml", module = crate::tables);
}

// The guide's generated-API chapter shows this part.
// ANCHOR: modules
/// The small fixture's catalog, in a module of its own: `small::tools!`, `small::Tool`.
pub mod small {
    catalog_macros::catalog!("fixtures/small.toml", module = crate::small);

    /// The module's own macros, by their short names, inside it.
    pub const INSIDE: ToolSet = tools![ask, "triangle_properties.get"];
}

/// A module around the second catalog's, so that its path has more than one name.
pub mod more {
    /// The mixed fixture's catalog (typed and JSON rows), beside the small one.
    pub mod mixed {
        catalog_macros::catalog!("fixtures/mixed.toml", module = crate::more::mixed);
    }
}

/// Both catalogs' macros, from outside their modules in the crate that holds them.
pub const FROM_THE_ROOT: (small::ToolSet, more::mixed::ToolSet) = (
    small::tools![ask, "triangle_properties.get"],
    more::mixed::tools![exportCsv, "github.create_issue"],
);
// ANCHOR_END: modules
