//! What `tools/list` answers at each access level, built once from the generated tables.
//!
//! The entries come from `catalog_core::render::mcp`, the one place that decides how a
//! catalog row looks to an MCP client (name, description, schemas, hints); this module
//! only reads that JSON into the SDK's types.

use std::collections::HashSet;
use std::sync::Arc;

use app_catalog::{Catalog, Tool};
use catalog_core::Access;
use catalog_core::render::{mcp, specs};
use rmcp::model;
use serde::Deserialize;

/// The `tools/list` result of each level, and which tools publish an output schema.
#[derive(Debug)]
pub struct Listing {
    levels: [Arc<[model::Tool]>; 3],
    structured: HashSet<Tool>,
}

#[derive(Deserialize)]
struct Rendered {
    tools: Vec<model::Tool>,
}

impl Listing {
    /// Renders the three levels from `Catalog::mcp_allowed`.
    ///
    /// # Panics
    /// When the renderer's JSON does not read as MCP tools: a fault of this build, caught
    /// by every test that lists tools, never of input.
    #[must_use]
    pub fn new() -> Listing {
        let levels = Access::ALL.map(|level| {
            let json = mcp(specs(Catalog::mcp_allowed(level)), level);
            let rendered: Rendered = serde_json::from_str(&json)
                .unwrap_or_else(|e| panic!("the MCP renderer's {level} list is not MCP: {e}"));
            Arc::<[model::Tool]>::from(rendered.tools)
        });
        let structured = levels[2]
            .iter()
            .filter(|tool| tool.output_schema.is_some())
            .filter_map(|tool| Tool::from_name(&tool.name))
            .collect();
        Listing { levels, structured }
    }

    /// The tools a client at `level` may see and call, in catalog order.
    #[must_use]
    pub fn tools(&self, level: Access) -> Arc<[model::Tool]> {
        Arc::clone(&self.levels[level as usize])
    }

    /// Whether the tool's listing declares an `outputSchema`, so its results carry
    /// `structuredContent` (MCP requires it of such a tool, and only an object fits).
    #[must_use]
    pub fn publishes_output(&self, tool: Tool) -> bool {
        self.structured.contains(&tool)
    }
}

impl Default for Listing {
    fn default() -> Listing {
        Listing::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_lists_exactly_its_generated_set() {
        let listing = Listing::new();
        for level in Access::ALL {
            let tools = listing.tools(level);
            let listed: Vec<&str> = tools.iter().map(|t| &*t.name).collect();
            let allowed: Vec<&str> = Catalog::mcp_allowed(level)
                .into_iter()
                .map(Tool::name)
                .collect();
            assert_eq!(listed, allowed, "{level}");
        }
    }

    #[test]
    fn hints_follow_the_access_level() {
        let listing = Listing::new();
        for tool in listing.tools(Access::FullAccess).iter() {
            let access = Tool::from_name(&tool.name).unwrap().spec().access.unwrap();
            let hints = tool.annotations.as_ref().unwrap();
            let expected = match access {
                Access::ReadOnly => (Some(true), None),
                Access::ReadAndStage => (Some(false), Some(false)),
                Access::FullAccess => (Some(false), Some(true)),
            };
            assert_eq!(
                (hints.read_only_hint, hints.destructive_hint),
                expected,
                "{}",
                tool.name
            );
        }
    }

    #[test]
    fn only_object_outputs_are_structured() {
        let listing = Listing::new();
        // queryRows declares an object output, listTables an array, openTable none.
        assert!(listing.publishes_output(Tool::QueryRows));
        assert!(!listing.publishes_output(Tool::ListTables));
        assert!(!listing.publishes_output(Tool::OpenTable));
    }
}
