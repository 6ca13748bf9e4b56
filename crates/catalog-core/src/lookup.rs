//! A catalog as a value: what turns a name into a tool and a tool into its row.
//!
//! Everything at run time that reads rows (the discovery loop, the verifier, the agent
//! step, the MCP servers) asks a [`Lookup`] carried by the call path ([`Info::tools`],
//! [`Via`]), never the tool type, so a process holds as many catalogs as it likes: the
//! compiled ones, and any number read at run time.
//!
//! [`Info::tools`]: crate::Info::tools
//! [`Via`]: crate::Via

use crate::{ToolId, ToolSpec};

/// One catalog's tools: how many, each one's row, and each one by its name.
///
/// The generated `Catalog` is one (a unit value over the static tables of its `Tool`);
/// `catalog_check::Loaded` is the one of a catalog read at run time.
pub trait Lookup<T: ToolId>: Sync {
    /// How many tools the catalog has: their indices are `0..len()`.
    fn len(&self) -> usize;

    /// The tool's row.
    ///
    /// # Panics
    /// When `tool` is not of this catalog (its index is past [`Lookup::len`]): a tool is
    /// only ever made by its catalog.
    fn spec(&self, tool: T) -> &ToolSpec<'_>;

    /// The tool with this name, if any.
    fn find(&self, name: &str) -> Option<T>;

    /// The tool with this [wire name](ToolSpec::wire_name), as providers that restrict
    /// names send calls back. The generated `Catalog` searches a sorted table; this default
    /// reads every row.
    fn find_wire(&self, name: &str) -> Option<T> {
        (0..self.len())
            .filter_map(T::from_index)
            .find(|&tool| self.spec(tool).wire_name == name)
    }

    /// The name the model sees.
    fn name(&self, tool: T) -> &str {
        self.spec(tool).name
    }

    /// Whether the catalog has no tools (never true of a checked catalog, which has its
    /// search and ask tools).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
