//! The [`Catalog`] trait: what every compiled catalog provides, so servers, command-line
//! tools and tests are written once for any catalog.

use core::fmt;

use crate::verify::{Call, Permission, Rejection, Verified, Via, verify};
use crate::{Access, Discovery, Info, ToolId, ToolSet, ToolSpec, Value};

/// The sets `catalog!` derives from the rows: computed at compile time, never declared.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Sets<T, const W: usize> {
    /// Every tool.
    pub all: ToolSet<T, W>,
    /// In the active set from the first step.
    pub inline: ToolSet<T, W>,
    /// Joins the active set only after a search returned it.
    pub discoverable: ToolSet<T, W>,
    /// Runs without a permission check.
    pub silent: ToolSet<T, W>,
    /// Passes the permission check first, whoever calls it.
    pub gated: ToolSet<T, W>,
    /// Changes data: access above read-only (staging counts as a write).
    pub writes: ToolSet<T, W>,
    /// What an MCP client at `read-only` may list and call.
    pub mcp_read_only: ToolSet<T, W>,
    /// What an MCP client at `read-and-stage` may list and call.
    pub mcp_read_and_stage: ToolSet<T, W>,
    /// What an MCP client at `full-access` may list and call.
    pub mcp_full_access: ToolSet<T, W>,
}

impl<T: Copy, const W: usize> Sets<T, W> {
    /// What an MCP client at `level` may list and call.
    #[must_use]
    pub const fn mcp(&self, level: Access) -> ToolSet<T, W> {
        match level {
            Access::ReadOnly => self.mcp_read_only,
            Access::ReadAndStage => self.mcp_read_and_stage,
            Access::FullAccess => self.mcp_full_access,
        }
    }
}

/// A compiled catalog: `catalog!` implements it for the `Catalog` it generates. `W` is the
/// number of 64-bit words in the catalog's tool sets (`Catalog::WORDS`).
///
/// ```
/// use catalog_core::{Access, Catalog};
///
/// /// The descriptions an MCP client at `level` may read, for any catalog.
/// fn descriptions<C: Catalog<W>, const W: usize>(level: Access) -> Vec<&'static str> {
///     C::specs(C::mcp_allowed(level)).map(|spec| spec.description).collect()
/// }
/// ```
pub trait Catalog<const W: usize>: 'static {
    /// The catalog's `Tool` enum.
    type Tool: ToolId + fmt::Debug + Send + Sync + 'static;
    /// The catalog's typed call, `ToolCall`.
    type Call: Call<Tool = Self::Tool> + Send + 'static;

    /// The derived sets.
    const SETS: Sets<Self::Tool, W>;
    /// What the discovery loop needs: the sets, roles, settings and search index.
    const INFO: Info<'static, Self::Tool, W>;

    /// What an MCP client at `level` may list and call.
    #[must_use]
    fn mcp_allowed(level: Access) -> ToolSet<Self::Tool, W> {
        Self::SETS.mcp(level)
    }

    /// The rows of a set, in catalog order: what the renderers take.
    fn specs(set: ToolSet<Self::Tool, W>) -> impl Iterator<Item = &'static ToolSpec> {
        set.into_iter().map(ToolId::spec)
    }

    /// A new conversation's discovery state: the inline tools are active.
    #[must_use]
    fn discovery() -> Discovery<'static, Self::Tool, W> {
        Discovery::new(Self::INFO)
    }

    /// Checks a model's call before anything runs (see [`verify`](crate::verify())).
    ///
    /// # Errors
    /// The rejection to show the model, which names the way to recover.
    fn verify(
        via: Via<'_, '_, Self::Tool, W>,
        name: &str,
        arguments: Value,
        permission: &mut impl Permission<Self::Tool>,
    ) -> Result<Verified<Self::Call>, Rejection> {
        verify::<Self::Call, W>(via, name, arguments, permission)
    }
}
