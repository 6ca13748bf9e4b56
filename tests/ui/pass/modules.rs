//! Two catalogs in one crate, each in its module, under the strictest crate attributes:
//! each module's `tools!` and `tool!` name its own catalog, from anywhere in the crate.
#![no_implicit_prelude]
#![deny(missing_docs, warnings)]

/// The example catalog.
pub mod tables {
    ::catalog_macros::catalog!("ui/tables.toml", module = crate::tables);

    /// The module's macros by their short names.
    pub const LOOKING: ToolSet = tools![openTable, "listTables"];
}

/// A second catalog, two modules down.
pub mod geometry {
    /// Where it is.
    pub mod shapes {
        ::catalog_macros::catalog!("ui/pass/dotted_names.toml", module = crate::geometry::shapes);
    }
}

use geometry::shapes::tool as shape;

fn main() {
    ::std::assert_eq!(tables::tools![openTable, "listTables"], tables::LOOKING);
    ::std::assert_eq!(tables::tool!(openTable), tables::Tool::OpenTable);
    ::std::assert_eq!(
        shape!("triangle_properties.get"),
        geometry::shapes::Tool::TrianglePropertiesGet
    );
    ::std::assert_eq!(geometry::shapes::tools![ask].len(), 1);
}
