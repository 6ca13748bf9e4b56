//! The [`CompiledCatalog`] trait: what every compiled catalog provides, so servers, command-line
//! tools and tests are written once for any catalog.

use core::fmt;

use crate::access::{Caller, Reach, reach};
use crate::verify::{Call, Permission, Rejection, Verified, Via, verify};
use crate::{Access, Discovery, Info, Role, Tier, ToolId, ToolSet, ToolSpec, Value, Visibility};

/// A catalog row as the derived sets read it: when it enters the active set, and the part
/// it plays (its tier, access level and MCP exposure).
pub trait Row {
    /// When the tool enters the active set.
    fn visibility(&self) -> Visibility;
    /// The search tool, the ask tool or any other row, with its policy.
    fn role(&self) -> Role;
}

impl Row for ToolSpec<'_> {
    fn visibility(&self) -> Visibility {
        self.visibility
    }

    fn role(&self) -> Role {
        ToolSpec::role(self)
    }
}

/// A tool set derived from the rows: the name of the constant `catalog!` generates for it,
/// its field in [`Sets`], what it holds, and its rule.
pub struct DerivedSet<R> {
    /// The generated constant (`Catalog::INLINE`).
    pub name: &'static str,
    /// Its field in [`Sets`] (`inline`).
    pub field: &'static str,
    /// What the set holds.
    pub doc: &'static str,
    /// Membership.
    pub contains: fn(&R) -> bool,
}

/// Whether an MCP client at `level` reaches a row: the access rule, [`reach`].
fn mcp_reaches(role: Role, level: Access) -> bool {
    matches!(
        reach(Caller::Mcp(level), false, role.mcp(), role.access()),
        Reach::Allowed
    )
}

/// The one list of the derived sets: [`Sets`] has a field for each, with its doc, and
/// [`derived_sets`] gives each one's name, doc and rule.
macro_rules! derived_sets {
    ($( $field:ident $name:ident: $doc:literal, |$row:ident| $rule:expr; )*) => {
        /// The sets `catalog!` derives from the rows: computed at compile time, never declared.
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct Sets<T, const W: usize> {
            $(
                #[doc = $doc]
                pub $field: ToolSet<T, W>,
            )*
        }

        /// **The derived sets**, in the order of [`Sets`]' fields: each one's name, doc
        /// and rule over the rows. `catalog!` generates a constant and a field of
        /// `Catalog::SETS` for each; the command line's report lists them.
        #[must_use]
        pub const fn derived_sets<R: Row>() -> [DerivedSet<R>; DERIVED_SETS] {
            [
                $(
                    DerivedSet {
                        name: stringify!($name),
                        field: stringify!($field),
                        doc: $doc,
                        contains: |$row: &R| $rule,
                    },
                )*
            ]
        }

        /// How many sets [`derived_sets`] gives.
        const DERIVED_SETS: usize = [$(stringify!($field)),*].len();
    };
}

derived_sets! {
    all ALL: "Every tool.", |_row| true;
    inline INLINE: "In the active set from the first step.",
        |row| matches!(row.visibility(), Visibility::Inline);
    discoverable DISCOVERABLE: "Joins the active set only after a search returned it.",
        |row| matches!(row.visibility(), Visibility::Discoverable);
    silent SILENT: "Runs without a permission check.",
        |row| matches!(row.role().tier(), Some(Tier::Silent));
    gated GATED: "Passes the permission check first, whoever calls it.",
        |row| matches!(row.role().tier(), Some(Tier::Gated));
    writes WRITES: "Changes data: access above read-only (staging counts as a write).",
        |row| row.role().writes();
    mcp_read_only MCP_READ_ONLY: "What an MCP client at `read-only` may list and call.",
        |row| mcp_reaches(row.role(), Access::ReadOnly);
    mcp_read_and_stage MCP_READ_AND_STAGE: "What an MCP client at `read-and-stage` may list and call.",
        |row| mcp_reaches(row.role(), Access::ReadAndStage);
    mcp_full_access MCP_FULL_ACCESS: "What an MCP client at `full-access` may list and call.",
        |row| mcp_reaches(row.role(), Access::FullAccess);
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
/// use catalog_core::{Access, CompiledCatalog};
///
/// /// The descriptions an MCP client at `level` may read, for any catalog.
/// fn descriptions<C: CompiledCatalog<W>, const W: usize>(level: Access) -> Vec<&'static str> {
///     C::specs(C::mcp_allowed(level)).map(|spec| spec.description).collect()
/// }
/// ```
pub trait CompiledCatalog<const W: usize>: 'static {
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
    #[must_use]
    fn specs(set: ToolSet<Self::Tool, W>) -> impl Iterator<Item = &'static ToolSpec<'static>> {
        set.into_iter().map(|tool| Self::INFO.tools.spec(tool))
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
    fn verify<'d>(
        via: Via<'_, 'd, Self::Tool, W>,
        name: &str,
        arguments: Value,
        permission: &mut impl Permission<Self::Tool>,
    ) -> Result<Verified<'d, Self::Call>, Rejection> {
        verify::<Self::Call, W>(via, name, arguments, permission)
    }
}
