//! What `tools/list` answers at each access level, built once from the generated tables.
//!
//! The entries come from `catalog_wire::render::mcp`, the one place that decides how a
//! catalog row looks to an MCP client (name, description, schemas, hints); this module
//! only reads that JSON into the SDK's types.

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use catalog_core::{Access, CompiledCatalog, ToolSet};
use catalog_wire::render::mcp;
use rmcp::model;
use serde::Deserialize;

/// The `tools/list` result of each level of catalog `C`, and which tools publish an
/// output schema.
pub struct Listing<C: CompiledCatalog<W>, const W: usize> {
    levels: [Arc<[model::Tool]>; 3],
    structured: ToolSet<C::Tool, W>,
    catalog: PhantomData<fn() -> C>,
}

#[derive(Deserialize)]
struct Rendered {
    tools: Vec<model::Tool>,
}

impl<C: CompiledCatalog<W>, const W: usize> Listing<C, W> {
    /// Renders the three levels of `C::specs(C::mcp_allowed(level))`.
    ///
    /// # Panics
    /// When the renderer's JSON does not read as MCP tools: a fault of this build of
    /// `catalog-core` and `rmcp`, caught by every test that lists tools, never of input.
    #[must_use]
    pub fn new() -> Self {
        let levels = Access::ALL.map(|level| {
            let json = mcp(C::specs(C::mcp_allowed(level)), level);
            let rendered: Rendered = serde_json::from_str(&json)
                .unwrap_or_else(|e| panic!("the MCP renderer's {level} list is not MCP: {e}"));
            Arc::<[model::Tool]>::from(rendered.tools)
        });
        // Read from what was rendered, not from the rows: the renderer decides which
        // outputs MCP can carry (only objects), and results must match what was listed.
        let mut structured = ToolSet::EMPTY;
        let published = levels[Access::FullAccess as usize]
            .iter()
            .filter(|tool| tool.output_schema.is_some())
            .filter_map(|tool| C::INFO.tools.find(&tool.name));
        for tool in published {
            structured.insert(tool);
        }
        Listing {
            levels,
            structured,
            catalog: PhantomData,
        }
    }

    /// The tools a client at `level` may see and call, in catalog order.
    #[must_use]
    pub fn tools(&self, level: Access) -> Arc<[model::Tool]> {
        Arc::clone(&self.levels[level as usize])
    }

    /// Whether the tool's listing declares an `outputSchema`, so its results carry
    /// `structuredContent` (MCP requires it of such a tool, and only an object fits).
    #[must_use]
    pub fn publishes_output(&self, tool: C::Tool) -> bool {
        self.structured.contains(tool)
    }
}

impl<C: CompiledCatalog<W>, const W: usize> Default for Listing<C, W> {
    fn default() -> Self {
        Listing::new()
    }
}

impl<C: CompiledCatalog<W>, const W: usize> fmt::Debug for Listing<C, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counts = self.levels.each_ref().map(|tools| tools.len());
        f.debug_struct("Listing")
            .field("tools_per_level", &counts)
            .field("structured", &self.structured.len())
            .finish()
    }
}
