//! Who may reach a tool: the one access rule of the catalog.
//!
//! Every place that decides whether a caller reaches a tool asks [`reach`]: the compiler
//! (for the derived `MCP_*` sets), the verifier, the MCP renderer, and through those the
//! MCP server's listing and its calls. Nothing else restates the rule.

use core::fmt;

/// An MCP access level. Levels are cumulative: `FullAccess` may call everything
/// `ReadAndStage` may, which may call everything `ReadOnly` may.
///
/// On a row it is the lowest level that may call the tool: at least the level its
/// [`Effect`] needs ([`Effect::least_access`]), higher where the row says so.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Access {
    /// Reads data, changes nothing.
    ReadOnly,
    /// May also put changes in the staging area for a person to review.
    ReadAndStage,
    /// May also commit changes and run destructive operations.
    FullAccess,
}

impl Access {
    /// Every level, lowest first.
    pub const ALL: [Access; 3] = [Access::ReadOnly, Access::ReadAndStage, Access::FullAccess];

    /// The level as `catalog.toml` and the command line spell it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Access::ReadOnly => "read-only",
            Access::ReadAndStage => "read-and-stage",
            Access::FullAccess => "full-access",
        }
    }

    /// Parses the spelling of [`Access::as_str`].
    #[must_use]
    pub fn parse(s: &str) -> Option<Access> {
        Access::ALL.into_iter().find(|a| a.as_str() == s)
    }
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a tool does to the world: the row's `effect`, which decides the least access level
/// that may call it and whether it must be gated.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Effect {
    /// Reads data, changes nothing.
    Reads,
    /// Puts changes where a person reviews them, reversible until a commit.
    Stages,
    /// Acts on the world: a change that cannot be taken back, or one outside the app
    /// (a commit, a deletion, a message sent, a door unlocked).
    Acts,
}

impl Effect {
    /// Every effect, mildest first.
    pub const ALL: [Effect; 3] = [Effect::Reads, Effect::Stages, Effect::Acts];

    /// The effect as `catalog.toml` spells it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Effect::Reads => "reads",
            Effect::Stages => "stages",
            Effect::Acts => "acts",
        }
    }

    /// Parses the spelling of [`Effect::as_str`].
    #[must_use]
    pub fn parse(s: &str) -> Option<Effect> {
        Effect::ALL.into_iter().find(|e| e.as_str() == s)
    }

    /// **What the access levels mean**: the lowest level that may call a tool with this
    /// effect. A read-only client reads, a read-and-stage client also stages, and only a
    /// full-access client acts. A row may ask for more, never for less.
    #[must_use]
    pub const fn least_access(self) -> Access {
        match self {
            Effect::Reads => Access::ReadOnly,
            Effect::Stages => Access::ReadAndStage,
            Effect::Acts => Access::FullAccess,
        }
    }

    /// **The rule for gating**: a tool that acts must be gated (`tier = "gated"`), since
    /// nobody reviews what it did before it takes effect.
    #[must_use]
    pub const fn must_be_gated(self) -> bool {
        matches!(self, Effect::Acts)
    }

    /// **What MCP's tool annotations say of it**: the hints a server lists for a tool with
    /// this effect, beside those it leaves unsaid (`destructiveHint` and `openWorldHint`
    /// are true when unsaid). [`Effect::from_hints`] reads them back.
    #[must_use]
    pub const fn hints(self) -> &'static [(&'static str, bool)] {
        match self {
            Effect::Reads => &[("readOnlyHint", true)],
            Effect::Stages => &[
                ("readOnlyHint", false),
                ("destructiveHint", false),
                ("openWorldHint", false),
            ],
            Effect::Acts => &[("readOnlyHint", false), ("destructiveHint", true)],
        }
    }

    /// The effect a tool's annotations say, `hint` giving each one the server lists:
    /// `readOnlyHint: true` reads; `destructiveHint: false` with `openWorldHint: false`
    /// stages (changes inside the server that MCP calls non-destructive); anything else
    /// acts, as MCP's defaults assume.
    pub fn from_hints(hint: impl Fn(&str) -> Option<bool>) -> Effect {
        if hint("readOnlyHint") == Some(true) {
            Effect::Reads
        } else if hint("destructiveHint") == Some(false) && hint("openWorldHint") == Some(false) {
            Effect::Stages
        } else {
            Effect::Acts
        }
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who is calling a tool: the application's own chat agent, or an MCP client at some level.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Caller {
    /// The in-app agent loop.
    Chat,
    /// An external MCP client connected at this access level.
    Mcp(Access),
}

/// Whether a caller reaches a tool, and if not, why.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Reach {
    /// The caller may list and call the tool.
    Allowed,
    /// The caller cannot see the tool at all: not in the chat agent's active set, or kept
    /// from MCP (`mcp = false`, or the search tool, which has no access level).
    Hidden,
    /// An MCP client whose level is below the tool's: the level it would need.
    Below(Access),
}

/// **The access rule**: whether `caller` reaches a tool whose row says `mcp` and `access`.
///
/// The chat agent reaches exactly the tools its discovery state has `active`, whatever
/// their level (a gated tool still meets the permission hook in the verifier). An MCP
/// client reaches a tool exposed to MCP whose lowest level is at most its own; the search
/// tool (no access level) and `mcp = false` rows are hidden from every MCP client.
/// `active` is read for the chat agent only.
#[must_use]
pub const fn reach(caller: Caller, active: bool, mcp: bool, access: Option<Access>) -> Reach {
    match (caller, access) {
        (Caller::Chat, _) if active => Reach::Allowed,
        (Caller::Mcp(level), Some(needed)) if mcp => {
            if needed as u8 <= level as u8 {
                Reach::Allowed
            } else {
                Reach::Below(needed)
            }
        }
        _ => Reach::Hidden,
    }
}
