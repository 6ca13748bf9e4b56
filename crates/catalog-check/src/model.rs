//! The typed model of a `catalog.toml`, after parsing and before code generation.

use std::collections::BTreeMap;

pub use catalog_core::search::Language;
pub use catalog_core::{
    Access, Effect, Policy, Retention, Role, ScanResults, TaskSupport, Tier, Visibility,
};
use serde_json::Value;

use crate::diag::Span;
use crate::lint_config::{self, Level, LintId};
use crate::names::{self, TypeStep};
use crate::provider::Provider;

mod generated;
mod rules;

pub(crate) use generated::own_type;
pub use generated::{Generated, GeneratedType, field_kind, field_origin, generated_types};
pub use rules::{
    EnumFault, HEADER_MAX_INTEGER, HEADER_PREFIX, HEADER_TYPES, bounds_in_order, enum_faults,
    has_header_prefix, is_field_name, is_header_name, is_list_item, is_tchar, may_have_default,
};
pub(crate) use rules::{SEARCH_QUERY, query_param, search_query, takes_query};

/// A whole catalog as the compiler reads and checks it: what `catalog!` expands into the
/// crate's generated `Catalog`, and what `cargo catalog` lints and renders.
#[derive(Debug, Clone)]
pub struct CatalogModel {
    /// The `[settings]` table.
    pub settings: SettingsTable,
    /// Every `[[tool]]` row, in file order.
    pub tools: Vec<Tool>,
    /// The `[lints]` table: levels and settings that differ from the registry's.
    pub lints: lint_config::Config,
    /// Every `[[upstream]]` table, in file order: the MCP servers rows may come from.
    pub upstreams: Vec<Upstream>,
    /// Every `[[prompt]]` and `[[resource]]` table, prompts first, each in file order.
    pub offers: Vec<Offer>,
}

/// A prompt, resource or resource template of an upstream that a gateway passes on
/// (`[[prompt]]`, `[[resource]]`): pinned by digest like a tool row, and like one, read by
/// the client's model, so its text is the reviewed text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    /// What it is, and what names it to clients.
    pub what: Offered,
    /// What names it on its upstream: [`Offer::what`], but for a prompt whose table says
    /// `upstream-prompt` (renamed because another upstream's prompt has its name).
    pub on_upstream: Offered,
    /// The reviewed description, listed instead of the server's (`description`).
    pub description: Option<String>,
    /// A prompt's arguments and their reviewed descriptions (`[prompt.arguments]`), listed
    /// instead of the server's, in file order.
    pub arguments: Vec<(String, String)>,
    /// The [`Upstream::name`] that serves it.
    pub upstream: String,
    /// `upstream-digest`: [`crate::pin::digest`] of its listing as imported.
    pub digest: String,
    /// The lowest MCP access level that may list and read it (`access`).
    pub access: Access,
    /// Its table's header: where diagnostics point.
    pub span: Span,
    /// Where its description is written, when it is.
    pub description_span: Option<Span>,
    /// Where each argument's description is written, in the order of `arguments`.
    pub argument_spans: Vec<Span>,
}

/// What an [`Offer`] is: its kind and what identifies it on its server.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Offered {
    /// A prompt, by its name (`[[prompt]]` `name`).
    Prompt(String),
    /// A resource, by its URI (`[[resource]]` `uri`).
    Resource(String),
    /// A resource template, by its URI template (`[[resource]]` `uri-template`).
    Template(String),
}

impl Offered {
    /// The name, URI or URI template.
    #[must_use]
    pub fn id(&self) -> &str {
        match self {
            Offered::Prompt(s) | Offered::Resource(s) | Offered::Template(s) => s,
        }
    }

    /// The kind, in messages.
    #[must_use]
    pub fn noun(&self) -> &'static str {
        match self {
            Offered::Prompt(_) => "prompt",
            Offered::Resource(_) => "resource",
            Offered::Template(_) => "resource template",
        }
    }

    /// A URI that reads of both `self` and `other` could be for, when there is one: the
    /// same URI or template, a URI the other's template matches, or one that two
    /// templates both match ([`catalog_core::uri_template::overlap`], the shortest). A
    /// gateway sends each read to one upstream, so two upstreams' tables must share none.
    #[must_use]
    pub fn common_uri(&self, other: &Offered) -> Option<String> {
        use catalog_core::uri_template::{matches, overlap};
        match (self, other) {
            (Offered::Resource(a), Offered::Resource(b)) => (a == b).then(|| a.clone()),
            (Offered::Resource(uri), Offered::Template(t))
            | (Offered::Template(t), Offered::Resource(uri)) => {
                matches(t, uri).then(|| uri.clone())
            }
            (Offered::Template(a), Offered::Template(b)) => overlap(a, b),
            (Offered::Prompt(_), _) | (_, Offered::Prompt(_)) => None,
        }
    }

    /// What a server's listing (`prompts/list`, `resources/list`,
    /// `resources/templates/list`) item of the same kind as `self` is.
    #[must_use]
    pub fn like(&self, listed: &Value) -> Option<Offered> {
        let field = |key: &str| listed.get(key).and_then(Value::as_str).map(str::to_owned);
        Some(match self {
            Offered::Prompt(_) => Offered::Prompt(field("name")?),
            Offered::Resource(_) => Offered::Resource(field("uri")?),
            Offered::Template(_) => Offered::Template(field("uriTemplate")?),
        })
    }
}

impl std::fmt::Display for Offered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} `{}`", self.noun(), self.id())
    }
}

/// A live MCP server whose tools the catalog serves (`[[upstream]]`): a gateway starts or
/// reaches it and forwards calls of the rows that name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upstream {
    /// Its name, unique among the catalog's upstreams: what rows' `upstream` names.
    pub name: String,
    /// How it is reached.
    pub transport: Transport,
    /// Its `[[upstream]]` header: where diagnostics about the whole table point.
    pub span: Span,
    /// From its header to the end of its last value: where lints look for what it says.
    pub table: Span,
}

/// How an upstream server is reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// A program that speaks MCP on its standard input and output (`command`).
    Stdio {
        /// The program.
        command: String,
        /// Its arguments (`args`), in order.
        args: Vec<String>,
        /// Variables added to its environment (`env`), in file order.
        env: Vec<(String, Supplied)>,
    },
    /// A streamable HTTP endpoint (`url`, `http://` or `https://`).
    Http {
        /// The endpoint.
        url: String,
        /// Headers sent with every request (`headers`), in file order: an
        /// `Authorization` for a server that wants a credential.
        headers: Vec<(String, Supplied)>,
        /// How access tokens are obtained from the server's authorization server
        /// (`oauth`), for a server that answers 401 with where that is.
        oauth: Option<OAuth>,
    },
}

impl std::fmt::Display for Transport {
    /// The program and its arguments, or the URL: how messages name an upstream.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Transport::Stdio { command, args, .. } => {
                f.write_str(command)?;
                for arg in args {
                    write!(f, " {arg}")?;
                }
                Ok(())
            }
            Transport::Http { url, .. } => f.write_str(url),
        }
    }
}

/// An upstream behind an OAuth 2.1 authorization server (`oauth`): the gateway is a
/// client registered there in advance and obtains its access tokens with the client
/// credentials grant, with no user at a browser. Which authorization server, and the
/// token's audience, come from the server's protected resource metadata (RFC 9728).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuth {
    /// `client-id`: the client's identifier at the authorization server.
    pub client_id: String,
    /// How the client proves it is that client.
    pub credential: ClientCredential,
    /// `scope`: the scopes asked for, space-separated; none asks for what the server's
    /// challenge names, else for the authorization server's default.
    pub scope: Option<String>,
}

/// How an OAuth client authenticates at the token endpoint. Never written in the catalog:
/// always read from the environment or a file when a token is requested.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientCredential {
    /// `client-secret`: a shared secret, sent as HTTP Basic credentials or in the request's
    /// body, whichever the authorization server takes (`client_secret_basic`,
    /// `client_secret_post`).
    Secret(Supplied),
    /// `private-key`: a private key in PEM (PKCS #8; EC P-256 or P-384, or RSA) that signs
    /// a short-lived JWT naming the client (`private_key_jwt`, RFC 7523).
    PrivateKey(Supplied),
}

/// A value an `[[upstream]]` hands its server (an `env` variable, a header): written in
/// the catalog, or named there and read when the upstream is started or reached, so that
/// a secret never has to be in the catalog's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Supplied {
    /// A string as written: `TZ = "UTC"`.
    Literal(String),
    /// `{ from-env = "NAME" }`: the variable `NAME` of the environment of the program
    /// that starts or reaches the upstream (the gateway, `cargo catalog`).
    FromEnv(String),
    /// `{ from-file = "PATH" }`: the content of the file at `PATH` (relative to that
    /// program's working directory), without its trailing line break.
    FromFile(String),
}

impl Supplied {
    /// The string as written, when the catalog holds the value itself.
    #[must_use]
    pub fn literal(&self) -> Option<&str> {
        match self {
            Supplied::Literal(value) => Some(value),
            Supplied::FromEnv(_) | Supplied::FromFile(_) => None,
        }
    }
}

impl From<&str> for Supplied {
    fn from(value: &str) -> Supplied {
        Supplied::Literal(value.to_owned())
    }
}

/// Where a row's tool comes from, when an upstream serves it (`upstream`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The [`Upstream::name`] that serves it.
    pub upstream: String,
    /// Its name on the upstream: `upstream-tool`, or the row's own name.
    pub tool: String,
    /// `upstream-digest`: [`crate::pin::digest`] of its definition as imported.
    pub digest: String,
}

/// The `[settings]` table as the compiler reads it: what the run time's
/// [`catalog_core::Settings`] holds, by row index, and what only the compiler uses
/// (`providers`, `arguments`).
#[derive(Debug, Clone)]
pub struct SettingsTable {
    /// Index of the search tool in [`CatalogModel::tools`].
    pub search_tool: usize,
    /// Index of the ask tool in [`CatalogModel::tools`].
    pub ask_tool: usize,
    /// Hits per search call.
    pub search_results: usize,
    /// Search calls per user turn.
    pub searches_per_turn: usize,
    /// How long a tool found by search stays callable (default: the conversation).
    pub keep_discovered: Retention,
    /// The language of the catalog's text (`language`, default English): the stemmer and
    /// stop words search uses for its words in Latin script, and for every request.
    pub language: Language,
    /// What happens to a tool result the result scanner finds something in (`scan-results`,
    /// default `warn`).
    pub scan_results: ScanResults,
    /// From which score the result scanner's learned detector calls a window of a result
    /// an injection, in thousandths (`scan-threshold`; default: the threshold it was
    /// trained with).
    pub scan_threshold: Option<u16>,
    /// The providers the catalog's tools go to (`providers`; default: every one the
    /// renderers know), in [`Provider::ALL`] order: what `schema-portability` checks for.
    pub providers: Vec<Provider>,
    /// How rows that do not say receive their arguments (`arguments`; default typed). The
    /// search tool is always typed: the agent loop reads its query.
    pub arguments: Arguments,
}

impl SettingsTable {
    /// Whether the catalog's tools go to `provider`.
    #[must_use]
    pub fn targets(&self, provider: Provider) -> bool {
        self.providers.contains(&provider)
    }

    /// Hits per search call when `search-results` is not set.
    pub const DEFAULT_SEARCH_RESULTS: usize = 5;
    /// Upper bound on `search-results`: more hits than this floods the model's context.
    pub const MAX_SEARCH_RESULTS: usize = 50;
    /// Search calls per user turn when `searches-per-turn` is not set.
    pub const DEFAULT_SEARCHES_PER_TURN: usize = 3;
    /// Upper bound on `searches-per-turn`: past this the budget no longer bounds anything.
    pub const MAX_SEARCHES_PER_TURN: usize = 1000;

    /// **The settings' defaults**: what a `[settings]` that names its search and ask tools
    /// and nothing else means. The check of `[settings]`, the skeleton of a catalog with
    /// errors and the editor schema's defaults read them here.
    pub(crate) fn defaults(search_tool: usize, ask_tool: usize) -> SettingsTable {
        SettingsTable {
            search_tool,
            ask_tool,
            search_results: SettingsTable::DEFAULT_SEARCH_RESULTS,
            searches_per_turn: SettingsTable::DEFAULT_SEARCHES_PER_TURN,
            keep_discovered: Retention::Conversation,
            language: Language::English,
            scan_results: ScanResults::default(),
            scan_threshold: None,
            providers: Provider::ALL.to_vec(),
            arguments: Arguments::default(),
        }
    }
}

/// One `[[tool]]` row.
#[derive(Debug, Clone)]
pub struct Tool {
    /// The name the model sees.
    pub name: String,
    /// Where the name is written.
    pub name_span: Span,
    /// The Rust identifier, when the row overrides the derived one (`rust-name`).
    pub rust_name: Option<String>,
    /// What search returns and the model reads.
    pub description: String,
    /// Extra search terms.
    pub keywords: Vec<String>,
    /// Requests that need the tool, in users' words.
    pub examples: Vec<String>,
    /// When the tool enters the active set.
    pub visibility: Visibility,
    /// The search tool, the ask tool or any other row, with the tier, access level and
    /// MCP exposure of the last two.
    pub role: Role,
    /// Input parameters, in file order.
    pub params: Vec<Field>,
    /// Whether a call may pass arguments beyond `params` (`additional-params`): the
    /// input schema is then open, as an imported server's that leaves it open.
    pub additional_params: bool,
    /// The escape hatch for a whole input the type language cannot express
    /// (`input-schema`), kept exactly as written; `params` is then empty.
    pub input_schema: Option<Value>,
    /// Shape of a successful result.
    pub output: Option<TypeSpec>,
    /// Whether its arguments reach the handler typed or as verified JSON (`arguments`).
    pub arguments: Arguments,
    /// Levels its `[tool.lints]` table sets for its own findings.
    pub lints: BTreeMap<LintId, Level>,
    /// Where its keys are written, for the lints' findings.
    pub spans: ToolSpans,
    /// The upstream server that serves it, when one does (`upstream`).
    pub upstream: Option<Source>,
    /// Whether its MCP calls may run as tasks (`task`): only on a row its own handler
    /// serves over MCP.
    pub task: Option<TaskSupport>,
}

/// How a row's verified arguments reach the application (`arguments`, per row or as the
/// `[settings]` default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Arguments {
    /// A generated argument type and a handler method of its own (the default).
    #[default]
    Typed,
    /// No argument type and no method of its own: the verified JSON object goes to the
    /// handler's one `call_json` method, with the tool. For catalogs too large to write a
    /// method per tool (imported ones), and for tools an application forwards as they are.
    Json,
}

impl Arguments {
    /// Every choice, with its spelling in the catalog.
    pub const ALL: [(&'static str, Arguments); 2] =
        [("typed", Arguments::Typed), ("json", Arguments::Json)];
}

/// Where a row's keys are written.
#[derive(Debug, Clone, Default)]
pub struct ToolSpans {
    /// The whole `[[tool]]` table.
    pub row: Span,
    /// The description's value.
    pub description: Span,
    /// Each example's value, in order.
    pub examples: Vec<Span>,
    /// The `keywords` value, when written.
    pub keywords: Option<Span>,
    /// The `visibility` value, when written (the search tool may leave it out).
    pub visibility: Option<Span>,
    /// The `input-schema` value, when written.
    pub input_schema: Option<Span>,
}

/// As much of a catalog as can be read when it has errors: what the skeleton of the API
/// is built from, so the user's crate sees the catalog's errors and not a cascade.
#[derive(Debug, Clone, Default)]
pub struct Outline {
    /// Every row whose name the catalog's checks accept (valid, and neither its name nor its
    /// Rust identifiers taken by an earlier row), in file order.
    pub tools: Vec<OutlineTool>,
    /// Index in [`Outline::tools`] of the row the checks treat as the search tool, if any.
    pub search_tool: Option<usize>,
    /// Index in [`Outline::tools`] of the row `ask-tool` names, if it is there.
    pub ask_tool: Option<usize>,
}

/// A row of an [`Outline`].
#[derive(Debug, Clone, Default)]
pub struct OutlineTool {
    /// The name the model sees.
    pub name: String,
    /// The enum variant: `rust-name` when it is a valid one, else derived from the name.
    pub variant: String,
    /// Its parameters, when they were read without error (else none).
    pub params: Vec<Field>,
    /// Its `input-schema`, when it was read without error.
    pub input_schema: Option<Value>,
    /// Its `arguments`, or the `[settings]` default, as far as they were read.
    pub arguments: Arguments,
}

/// A named, typed value: a tool parameter or an object property.
#[derive(Debug, Clone)]
pub struct Field {
    /// The name as JSON spells it.
    pub name: String,
    /// Where the name is written.
    pub span: Span,
    /// The Rust field name, when the row overrides the derived one (`rust-name`).
    pub rust_name: Option<String>,
    /// Its type.
    pub ty: TypeSpec,
    /// Whether a call must supply it.
    pub required: bool,
    /// The value used when a call leaves it out.
    pub default: Option<Value>,
    /// The HTTP header the argument is mirrored in for MCP clients (`header`): listed as
    /// the property's `x-mcp-header`, so a client sends the value as `Mcp-Param-{name}`
    /// too, and proxies route on it without reading the body.
    pub header: Option<ParamHeader>,
}

/// A parameter's `header`: the name after `Mcp-Param-`, and where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamHeader {
    /// The name as written (`Region`: clients send `Mcp-Param-Region`).
    pub name: String,
    /// Where the value is written.
    pub span: Span,
}

/// A type in the catalog's type language.
#[derive(Debug, Clone)]
pub struct TypeSpec {
    /// What kind of value.
    pub kind: Kind,
    /// Description shown to the model.
    pub description: Option<String>,
    /// Where the type is declared.
    pub span: Span,
}

/// The kinds of value a catalog can declare.
#[derive(Debug, Clone)]
pub enum Kind {
    /// A string, optionally one of a fixed list.
    String {
        /// The allowed values, when it is an enum.
        values: Option<Vec<String>>,
    },
    /// A whole number.
    Integer {
        /// Inclusive lower bound.
        minimum: Option<f64>,
        /// Inclusive upper bound.
        maximum: Option<f64>,
    },
    /// Any JSON number.
    Number {
        /// Inclusive lower bound.
        minimum: Option<f64>,
        /// Inclusive upper bound.
        maximum: Option<f64>,
    },
    /// `true` or `false`.
    Boolean,
    /// A list of one type.
    Array(Box<TypeSpec>),
    /// An object: with declared properties, or free-form when `None`.
    Object(Option<Vec<Field>>),
    /// The escape hatch: a JSON Schema kept exactly as written.
    Raw(Value),
}

impl Tool {
    /// The enum variant: `rust-name`, or derived from the name (`openTable` → `OpenTable`).
    #[must_use]
    pub fn variant(&self) -> String {
        self.rust_name
            .clone()
            .unwrap_or_else(|| names::variant(&self.name))
    }

    /// The handler method: the variant in snake case (`OpenTable` → `open_table`).
    #[must_use]
    pub fn method(&self) -> String {
        names::snake(&self.variant())
    }

    /// The generated item of JSON-argument rows (`ToolCall::Json`, `Handler::call_json`)
    /// this typed row's own variant or method would take, when a catalog has such rows.
    #[must_use]
    pub fn takes_json_item(&self) -> Option<&'static str> {
        if self.arguments == Arguments::Json {
            None
        } else if self.variant() == "Json" {
            Some("`ToolCall::Json` variant")
        } else if self.method() == "call_json" {
            Some("`Handler::call_json` method")
        } else {
            None
        }
    }

    /// The type of its arguments (`OpenTableArgs`).
    #[must_use]
    pub fn args_type(&self) -> String {
        names::generated_type(&self.variant(), TypeStep::Args)
    }

    /// Every type the generator defines for this row, in the order it defines them: the
    /// arguments, then a type per enum or object field, depth first. The collision check
    /// reads this list; the generator names the same types with the same
    /// [`names::generated_type`].
    #[must_use]
    pub fn generated_types(&self) -> Vec<GeneratedType> {
        let params = if self.input_schema.is_none() {
            &self.params[..]
        } else {
            &[]
        };
        generated_types(&self.variant(), &self.name_span, params)
    }

    /// Whether the tool writes: its effect is more than reading (the rule:
    /// [`Role::writes`]).
    #[must_use]
    pub fn writes(&self) -> bool {
        self.role.writes()
    }

    /// Whether an MCP client at `level` may list and call the tool: the runtime's one
    /// access rule, [`catalog_core::reach`], applied to the row.
    #[must_use]
    pub fn mcp_allows(&self, level: Access) -> bool {
        catalog_core::reach(
            catalog_core::Caller::Mcp(level),
            false,
            self.role.mcp(),
            self.role.access(),
        ) == catalog_core::Reach::Allowed
    }
}

impl Field {
    /// The Rust field, as source text (`r#type` for a keyword): `rust-name`, or derived.
    #[must_use]
    pub fn ident(&self) -> String {
        self.rust_name
            .clone()
            .unwrap_or_else(|| names::snake(&self.name))
    }

    /// What a type generated for the field is named after: `rust-name`, or the name.
    #[must_use]
    pub fn type_word(&self) -> &str {
        self.rust_name.as_deref().unwrap_or(&self.name)
    }

    /// [`Field::ident`] without a raw prefix: what collision checks compare.
    #[must_use]
    pub fn ident_bare(&self) -> String {
        self.ident().trim_start_matches("r#").to_string()
    }
}

impl catalog_core::Row for Tool {
    fn visibility(&self) -> Visibility {
        self.visibility
    }

    fn role(&self) -> Role {
        self.role
    }
}

/// A tool set derived from the rows: its constant's name, its doc, its rule
/// ([`catalog_core::DerivedSet`] over the model's rows).
pub type DerivedSet = catalog_core::DerivedSet<Tool>;

/// Every derived set, as [`catalog_core::derived_sets`] defines them: the one list the
/// generated `Catalog` and `check-catalog` both read.
pub const DERIVED_SETS: &[DerivedSet] = &catalog_core::derived_sets::<Tool>();

impl CatalogModel {
    /// The search tool's row.
    #[must_use]
    pub fn search_tool(&self) -> &Tool {
        &self.tools[self.settings.search_tool]
    }

    /// The ask tool's row.
    #[must_use]
    pub fn ask_tool(&self) -> &Tool {
        &self.tools[self.settings.ask_tool]
    }

    /// Every tool's name on the wire, in catalog order (the rule: [`names::wire_names`]).
    #[must_use]
    pub fn wire_names(&self) -> Vec<String> {
        let names: Vec<&str> = self.tools.iter().map(|t| t.name.as_str()).collect();
        names::wire_names(&names)
    }

    /// The search tool's description as the model reads it: the row's text, then the name
    /// of every discoverable tool, so the model knows what a search can find.
    #[must_use]
    pub fn search_description(&self) -> String {
        let found: Vec<&str> = self
            .tools
            .iter()
            .filter(|t| t.visibility == Visibility::Discoverable)
            .map(|t| t.name.as_str())
            .collect();
        let base = self.search_tool().description.trim_end();
        if found.is_empty() {
            base.to_string()
        } else {
            format!("{base}\n\nTools it can find: {}.", found.join(", "))
        }
    }
}
