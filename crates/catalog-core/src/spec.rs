//! What a catalog row declares, as the generated code exposes it at run time.

use crate::access::{Access, Caller, Effect, Reach};
use crate::shape::Shape;

/// When a tool enters the model's active set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Visibility {
    /// In the active set from the first step.
    Inline,
    /// Joins the active set only after a search returned it.
    Discoverable,
}

/// Whether a tool runs without asking.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Tier {
    /// Runs without a permission check.
    Silent,
    /// Passes the application's permission check first, whoever calls it.
    Gated,
}

/// Whether a tool's MCP calls may run as tasks (MCP's tasks extension,
/// `io.modelcontextprotocol/tasks`): the row's `task`. A row that says nothing runs every
/// call within its request.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TaskSupport {
    /// A call from a client that declared the extension may become a task; any other
    /// client gets the result in the response, as for any tool.
    Optional,
    /// Only a client that declared the extension may call it, and its call may become a
    /// task; any other client is refused before anything runs.
    Required,
}

impl TaskSupport {
    /// Every choice, as the catalog lists them.
    pub const ALL: [TaskSupport; 2] = [TaskSupport::Optional, TaskSupport::Required];

    /// The spelling in `catalog.toml`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }
}

impl core::fmt::Display for TaskSupport {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What part a row plays in the catalog, which decides whether it has a tier, an access
/// level and MCP exposure: the one place that says the search tool has none of them.
///
/// The compiler writes a [`ToolSpec`]'s `effect`, `tier`, `access` and `mcp` from the row's
/// role with [`Role::effect`], [`Role::tier`], [`Role::access`] and [`Role::mcp`];
/// [`ToolSpec::role`] reads it back.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Role {
    /// The search tool: part of the agent loop, which answers it; it touches no data, has
    /// no tier and no access level, and is never on MCP.
    Search,
    /// The tool that asks the user a question: an ordinary row that is always inline.
    Ask(Policy),
    /// Every other row.
    Tool(Policy),
}

/// How a row other than the search tool is guarded.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Policy {
    /// What it does to the world.
    pub effect: Effect,
    /// Whether it runs without asking.
    pub tier: Tier,
    /// The lowest MCP access level that may call it: at least [`Effect::least_access`].
    pub access: Access,
    /// Whether MCP clients may see and call it at all.
    pub mcp: bool,
}

impl Role {
    /// The row's tier and access, `None` for the search tool.
    #[must_use]
    pub const fn policy(self) -> Option<Policy> {
        match self {
            Role::Search => None,
            Role::Ask(policy) | Role::Tool(policy) => Some(policy),
        }
    }

    /// What it does to the world; `None` for the search tool.
    #[must_use]
    pub const fn effect(self) -> Option<Effect> {
        match self.policy() {
            Some(p) => Some(p.effect),
            None => None,
        }
    }

    /// Its permission tier; `None` for the search tool.
    #[must_use]
    pub const fn tier(self) -> Option<Tier> {
        match self.policy() {
            Some(p) => Some(p.tier),
            None => None,
        }
    }

    /// Its lowest access level; `None` for the search tool.
    #[must_use]
    pub const fn access(self) -> Option<Access> {
        match self.policy() {
            Some(p) => Some(p.access),
            None => None,
        }
    }

    /// Whether MCP may see it; never the search tool.
    #[must_use]
    pub const fn mcp(self) -> bool {
        match self.policy() {
            Some(p) => p.mcp,
            None => false,
        }
    }

    /// **The rule for writes**: a row writes when its effect is more than reading
    /// (staging counts as a write); never the search tool.
    #[must_use]
    pub const fn writes(self) -> bool {
        !matches!(self.effect(), Some(Effect::Reads) | None)
    }
}

/// One catalog row: the generated code's, borrowing its statics, or a catalog's read at
/// run time, borrowing that catalog.
#[derive(Debug)]
pub struct ToolSpec<'c> {
    /// The name the model sees.
    pub name: &'c str,
    /// What search returns and the model reads.
    pub description: &'c str,
    /// Extra search terms.
    pub keywords: &'c [&'c str],
    /// Requests in users' words that need this tool.
    pub examples: &'c [&'c str],
    /// When the tool enters the active set.
    pub visibility: Visibility,
    /// What the tool does: [`Role::effect`] of the row's role (`None` for the search tool).
    pub effect: Option<Effect>,
    /// Permission tier: [`Role::tier`] of the row's role (`None` for the search tool).
    pub tier: Option<Tier>,
    /// Lowest access level that may call the tool: [`Role::access`] of the row's role
    /// (`None` for the search tool).
    pub access: Option<Access>,
    /// Whether MCP clients may see and call the tool at all: [`Role::mcp`] of the row's role.
    pub mcp: bool,
    /// Whether its MCP calls may run as tasks (`task`); never on a row kept from MCP.
    pub task: Option<TaskSupport>,
    /// The name on the wire for providers that restrict names (Anthropic, OpenAI, Bedrock,
    /// Gemini: `[A-Za-z_][A-Za-z0-9_-]{0,63}` fits them all): the name itself when it fits,
    /// else a deterministic spelling the compiler checked is unique in the catalog.
    pub wire_name: &'c str,
    /// JSON Schema of the tool's input, as compact JSON.
    pub input_schema: &'c str,
    /// The input schema in the Gemini API's dialect (its `Schema` object, for a function
    /// declaration's `parameters`), as compact JSON; `None` when the tool takes no
    /// parameters, which Gemini wants left unset.
    pub gemini_parameters: Option<&'c str>,
    /// The input schema as MCP lists it, when it says more than `input_schema`: the
    /// `x-mcp-header` of each property the row mirrors in an HTTP header (`header`), which
    /// only MCP clients read. `None`: MCP lists `input_schema` ([`ToolSpec::mcp_schema`]).
    pub mcp_input_schema: Option<&'c str>,
    /// What the verifier checks arguments against: the input schema, read.
    pub input: Shape<'c>,
    /// Whether the input schema meets OpenAI's strict mode (every object closed, every
    /// property required, only keywords strict mode reads), so renderers may set `strict`.
    pub strict: bool,
    /// JSON Schema of a successful result, when the row declares one.
    pub output_schema: Option<&'c str>,
    /// What a result is checked against, when the row declares an output.
    pub output: Option<Shape<'c>>,
}

impl<'c> ToolSpec<'c> {
    /// The row's role as its spec records it: [`Role::Search`] or [`Role::Tool`]. The spec
    /// does not say which row asks the user; that is [`Info::ask_tool`](crate::Info).
    #[must_use]
    pub const fn role(&self) -> Role {
        match (self.effect, self.tier, self.access) {
            (Some(effect), Some(tier), Some(access)) => Role::Tool(Policy {
                effect,
                tier,
                access,
                mcp: self.mcp,
            }),
            _ => Role::Search,
        }
    }

    /// The input schema MCP clients are sent: [`ToolSpec::mcp_input_schema`], else
    /// [`ToolSpec::input_schema`].
    #[must_use]
    pub const fn mcp_schema(&self) -> &'c str {
        match self.mcp_input_schema {
            Some(schema) => schema,
            None => self.input_schema,
        }
    }

    /// Whether the tool changes data: its effect is more than reading ([`Role::writes`]).
    #[must_use]
    pub const fn writes(&self) -> bool {
        self.role().writes()
    }

    /// Whether `caller` reaches the tool ([`reach`](crate::reach) on this row); `active`
    /// says whether the chat agent's discovery state has it active.
    #[must_use]
    pub const fn reach(&self, caller: Caller, active: bool) -> Reach {
        crate::access::reach(caller, active, self.mcp, self.access)
    }
}

/// Catalog-wide settings from the `[settings]` table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings<'c> {
    /// Hits a search call returns.
    pub search_results: usize,
    /// Search calls allowed per user turn.
    pub searches_per_turn: usize,
    /// Name of the search tool.
    pub search_tool: &'c str,
    /// Name of the tool that asks the user a question.
    pub ask_tool: &'c str,
    /// How long a tool found by search stays callable.
    pub keep_discovered: crate::Retention,
    /// The language of the catalog's text: how search reads it and every request.
    pub language: crate::search::Language,
    /// What happens to a tool result in which the result scanner finds something.
    pub scan_results: ScanResults,
    /// From which score the result scanner's learned detector calls a window of a result
    /// an injection, in thousandths (`scan-threshold = 0.9` is 900); `None`: the threshold
    /// the detector was trained with.
    pub scan_threshold: Option<u16>,
}

/// What happens to a tool result in which the result scanner finds something (hidden
/// characters, orders to the model, links that carry data out, more than the size cap):
/// `scan-results` in `[settings]`, and `--scan-results` of the MCP servers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum ScanResults {
    /// Results reach the model as they are, unread.
    Off,
    /// The result reaches the model with a short notice naming what was found.
    #[default]
    Warn,
    /// Hidden characters are removed, and the notice added.
    Strip,
    /// The model gets a `RUNTIME_ERROR` rejection naming why instead of the result.
    Withhold,
}

impl ScanResults {
    /// Every policy, as the catalog and the command line list them.
    pub const ALL: [ScanResults; 4] = [
        ScanResults::Off,
        ScanResults::Warn,
        ScanResults::Strip,
        ScanResults::Withhold,
    ];

    /// The spelling in `catalog.toml` and on the command line.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ScanResults::Off => "off",
            ScanResults::Warn => "warn",
            ScanResults::Strip => "strip",
            ScanResults::Withhold => "withhold",
        }
    }

    /// Parses the spelling of [`ScanResults::as_str`].
    #[must_use]
    pub fn parse(s: &str) -> Option<ScanResults> {
        ScanResults::ALL.into_iter().find(|p| p.as_str() == s)
    }
}
