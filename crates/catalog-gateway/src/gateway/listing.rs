//! What a client sees: the one rule for which rows a credential may list and call, the
//! discovery state of a session, and `tools/list` as each level and profile gets it.

use std::sync::Arc;

use catalog_core::{Access, Caller, Discovery, Lookup as _, Reach, Tier, ToolId, ToolSpec, Value};
use catalog_mcp::{GatedPolicy, Grant};
use catalog_upstream::drift::Standing;
use catalog_upstream::overrides;
use catalog_wire::render::mcp;
use rmcp::model;
use serde_json::Map;

use super::{Discoverable, Gateway, Rows, read};
use crate::config::Profile;
use crate::discovered::Discovered;
use crate::rows::{Row, WORDS};

impl Gateway {
    /// A new session's discovery state: the inline rows active.
    #[must_use]
    pub fn discovery(&self) -> Discovery<'_, Row, WORDS> {
        Discovery::new(self.loaded.rows.info())
    }

    /// Where a new session keeps what its searches find: the shared store, when the
    /// replicas have one.
    #[must_use]
    pub fn discovered(&self) -> Discovered {
        Discovered::new(self.shared.clone(), Arc::clone(&self.found_by_credential))
    }

    /// A session's active rows: the inline ones and those its searches `found`.
    #[must_use]
    pub fn active(&self, found: Rows) -> Rows {
        *self.loaded.rows.inline() | found
    }

    /// Why `row` is withheld, if it is: a pinned row whose upstream drifted or is gone.
    /// Rows without an upstream are never forwarded (see [`Gateway::servable`]).
    #[must_use]
    pub fn withheld(&self, row: Row) -> Option<Standing> {
        let standing = read(&self.standing);
        standing
            .get(&row.index())
            .filter(|s| !s.is_current())
            .cloned()
    }

    /// The rows this gateway can forward now: pinned to an upstream, and current.
    #[must_use]
    pub fn servable(&self) -> Rows {
        let standing = read(&self.standing);
        standing
            .iter()
            .filter(|(_, s)| s.is_current())
            .filter_map(|(i, _)| Row::from_index(*i))
            .collect()
    }

    /// Whether `grant`'s profile, if it names one, passes `sees`. A profile the server
    /// does not know sees nothing.
    pub(super) fn profile_sees(&self, grant: &Grant, sees: impl FnOnce(&Profile) -> bool) -> bool {
        match &grant.profile {
            None => true,
            Some(profile) => self.profiles.get(profile).is_some_and(sees),
        }
    }

    /// Whether `grant`'s profile, if any, sees the prompts and resources of `upstream`.
    pub(crate) fn sees_offers_of(&self, grant: &Grant, upstream: &str) -> bool {
        self.profile_sees(grant, |p| p.sees_upstream(upstream))
    }

    /// Whether a call of `name` can be answered without its client's session: no
    /// discovery state to read (search finds live in the session) and no question to put
    /// to the client's user (only a gated row under `--gated ask` has one). The stdio
    /// express lane answers only those.
    #[must_use]
    pub fn sessionless(&self, name: &str) -> bool {
        self.discoverable != Discoverable::Search
            && (self.gated != GatedPolicy::Ask
                || self
                    .loaded
                    .rows
                    .find(name)
                    .is_none_or(|row| self.loaded.rows.spec(row).tier != Some(Tier::Gated)))
    }

    /// Whether `grant` may list and call `row`, before discovery: the row's access level
    /// and MCP exposure admit the grant's level, and its profile sees the row. The one
    /// rule for tools; listing, search and calls all ask it.
    pub(super) fn permits(&self, grant: &Grant, row: Row) -> bool {
        self.loaded
            .rows
            .spec(row)
            .reach(Caller::Mcp(grant.access), false)
            == Reach::Allowed
            && self.in_profile(grant, row)
    }

    /// Whether `grant`'s profile, if any, sees `row`.
    pub(super) fn in_profile(&self, grant: &Grant, row: Row) -> bool {
        let upstream = self.loaded.tool(row).upstream.as_ref();
        self.profile_sees(grant, |p| {
            p.sees_tool(
                self.loaded.rows.name(row),
                upstream.map(|s| s.upstream.as_str()),
            )
        })
    }

    /// The rows `grant` may list and call now, before discovery.
    pub(super) fn callable(&self, grant: &Grant) -> Rows {
        self.servable()
            .iter()
            .filter(|&row| self.permits(grant, row))
            .collect()
    }

    /// What `tools/list` answers `grant`'s client; with [`Discoverable::Search`],
    /// `active` is the session's active set, and the search tool comes first.
    #[must_use]
    pub fn list(&self, grant: &Grant, active: Option<Rows>) -> Vec<model::Tool> {
        let level = grant.access;
        let mut rows = self.callable(grant);
        if let Some(active) = active {
            rows &= active;
        }
        let mut tools = self.tool_listing(&rows, level);
        if active.is_some() {
            tools.insert(
                0,
                search_listing(self.loaded.rows.spec(self.loaded.rows.search_tool())),
            );
        }
        tools
    }

    /// The tool `name` as `tools/list` lists it to a client that may call it, whatever
    /// its grant: what `rmcp` holds a call's `Mcp-Param-*` headers to (2026-07-28), so the
    /// `x-mcp-header` of an upstream's tool, as its server wrote it, is held at the
    /// gateway too. `None` for a name no servable row has, whose call is refused anyway.
    #[must_use]
    pub fn listed(&self, name: &str) -> Option<model::Tool> {
        let row = self
            .loaded
            .rows
            .find(name)
            .filter(|row| self.servable().contains(*row))?;
        let rows: Rows = std::iter::once(row).collect();
        self.tool_listing(&rows, Access::FullAccess).pop()
    }

    /// `rows` as `tools/list` lists them at `level`, in catalog order: each rendered from
    /// its row, and each upstream tool as its server defines it and the row pins it.
    pub(super) fn tool_listing(&self, rows: &Rows, level: Access) -> Vec<model::Tool> {
        let json = mcp(rows.iter().map(|row| self.loaded.rows.spec(row)), level);
        let mut tools = read_listing(&json);
        let definitions = read(&self.definitions);
        for (listed, row) in tools.iter_mut().zip(rows.iter()) {
            if let Some(definition) = definitions.get(&row.index())
                && listed.name == self.loaded.rows.name(row)
                && let Ok(tool) =
                    serde_json::from_value(overrides::faithful(self.loaded.tool(row), definition))
            {
                *listed = tool;
            }
        }
        tools
    }
}

/// The renderer's JSON read into the SDK's types; the renderer writes MCP, so a failure
/// is a fault of this build, caught by every test that lists.
pub(super) fn read_listing(json: &str) -> Vec<model::Tool> {
    serde_json::from_str::<Value>(json)
        .and_then(|mut listing| serde_json::from_value(listing["tools"].take()))
        .unwrap_or_else(|e| panic!("the MCP renderer's list is not MCP: {e}"))
}

/// The search tool as MCP lists it: the catalog keeps it from MCP's levels (the agent
/// loop answers it), so the renderer does not; the gateway answers it, for every level.
pub(super) fn search_listing(spec: &ToolSpec<'_>) -> model::Tool {
    let schema: Map<String, Value> = serde_json::from_str(spec.mcp_schema()).unwrap_or_default();
    let mut tool = model::Tool::default();
    tool.name = spec.name.to_owned().into();
    tool.description = Some(spec.description.to_owned().into());
    tool.input_schema = Arc::new(schema);
    let mut hints = model::ToolAnnotations::default();
    hints.read_only_hint = Some(true);
    tool.annotations = Some(hints);
    tool
}
