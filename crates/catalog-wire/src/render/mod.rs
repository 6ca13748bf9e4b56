//! Tool lists in each provider's request format, assembled from the static JSON the
//! compiler wrote, so rendering copies text instead of walking `serde_json` values.
//!
//! Every renderer takes the tools to show — any iterator of `&ToolSpec`, usually a
//! conversation's active set through [`specs`] — and returns compact JSON text to splice
//! into the request body. The input and output schemas are the compiler's compact JSON,
//! copied as they are (for Gemini, the form of the schema its narrower dialect takes, which
//! the compiler also wrote: [`ToolSpec::gemini_parameters`]); names and descriptions go
//! through a JSON string escaper.
//!
//! | renderer | what it returns |
//! |---|---|
//! | [`anthropic`] | the Messages API `tools` array |
//! | [`anthropic_tool_search`] | the same with discoverable tools deferred, for Anthropic's tool search |
//! | [`tool_references`], [`search_result_content`] | a search call's hits as `tool_reference` blocks |
//! | [`openai_chat`] | the Chat Completions `tools` array |
//! | [`openai_responses`] | the Responses API `tools` array |
//! | [`bedrock`] | the whole Converse `toolConfig` object |
//! | [`gemini`] | the Gemini API `tools` array: one `Tool` with every function declaration |
//! | [`mcp`] | the MCP `tools/list` result, for one access level |
//!
//! [`render`] and [`render_set`] pick one by [`Format`].
//!
//! # Names on the wire
//!
//! Anthropic, OpenAI and Bedrock accept tool names of `[A-Za-z0-9_-]{1,64}` only, Gemini
//! `[A-Za-z0-9_.:-]{1,64}` starting with a letter or `_`, and a catalog name may hold a `.`,
//! start with a digit or be longer, so their renderers send [`ToolSpec::wire_name`]
//! (`[A-Za-z_][A-Za-z0-9_-]{0,63}`, which all four accept: the name itself whenever it
//! fits). The model's calls come back with that name: map it to the tool with the generated
//! `Tool::from_wire_name`, not `Tool::from_name`. MCP clients take any name, so [`mcp`]
//! sends the catalog's own.
//!
//! # Limits
//!
//! A request the provider would refuse is a [`RenderError`] here, with the fix, instead of
//! an HTTP 400 later: more than [`OPENAI_MAX_TOOLS`] tools for OpenAI, no tool at all for
//! OpenAI, Bedrock and Gemini, no tool left undeferred for Anthropic's tool search.

use alloc::string::String;
use core::fmt;

use catalog_core::{Access, Lookup, ToolId, ToolSet, ToolSpec};

mod anthropic;
mod bedrock;
mod gemini;
mod mcp;
mod openai;

pub use anthropic::{
    ToolSearch, anthropic, anthropic_tool_search, search_result_content, tool_references,
};
pub use bedrock::bedrock;
pub use gemini::gemini;
pub use mcp::mcp;
pub use openai::{OPENAI_MAX_TOOLS, openai_chat, openai_responses};

/// A provider's request format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Anthropic Messages API `tools` ([`anthropic`]).
    Anthropic,
    /// Anthropic Messages API `tools` with tool search ([`anthropic_tool_search`]).
    AnthropicToolSearch(ToolSearch),
    /// OpenAI Chat Completions `tools` ([`openai_chat`]).
    OpenAiChat,
    /// OpenAI Responses API `tools` ([`openai_responses`]).
    OpenAiResponses,
    /// Bedrock Converse `toolConfig` ([`bedrock`]).
    Bedrock,
    /// Gemini API `tools` ([`gemini`]).
    Gemini,
    /// MCP `tools/list` result for a client at this level ([`mcp`]).
    Mcp(Access),
}

/// A tool list the provider would refuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// More tools than the API accepts in one request.
    TooManyTools {
        /// The API, as people name it.
        api: &'static str,
        /// How many tools were given.
        count: usize,
        /// How many the API accepts.
        limit: usize,
    },
    /// No tool at all, which the API refuses (send the request without tools instead).
    NoTools {
        /// The API, as people name it.
        api: &'static str,
    },
    /// Every tool would be deferred; Anthropic's tool search needs at least one loaded.
    AllDeferred,
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::TooManyTools { api, count, limit } => write!(
                f,
                "{api} accepts at most {limit} tools in a request, and {count} were given: render the conversation's active set (`discovery.active()`), not the whole catalog"
            ),
            RenderError::NoTools { api } => write!(
                f,
                "{api} refuses an empty tool list: leave the tools out of the request when there are none"
            ),
            RenderError::AllDeferred => f.write_str(
                "Anthropic's tool search needs at least one tool that is not deferred, and every tool given is discoverable: render the inline tools too (`Catalog::ALL`, or the active set)",
            ),
        }
    }
}

impl core::error::Error for RenderError {}

/// Renders `tools` in `format`.
///
/// # Errors
/// When the provider would refuse the list (see [`RenderError`]).
pub fn render<'a>(
    format: Format,
    tools: impl IntoIterator<Item = &'a ToolSpec<'a>>,
) -> Result<String, RenderError> {
    match format {
        Format::Anthropic => Ok(anthropic(tools)),
        Format::AnthropicToolSearch(search) => anthropic_tool_search(tools, search),
        Format::OpenAiChat => openai_chat(tools),
        Format::OpenAiResponses => openai_responses(tools),
        Format::Bedrock => bedrock(tools),
        Format::Gemini => gemini(tools),
        Format::Mcp(level) => Ok(mcp(tools, level)),
    }
}

/// Renders the tools of a set (`discovery.active()`, `Catalog::ALL`, ...) in `format`.
///
/// # Errors
/// When the provider would refuse the list (see [`RenderError`]).
pub fn render_set<T: ToolId, const W: usize>(
    format: Format,
    tools: &dyn Lookup<T>,
    set: ToolSet<T, W>,
) -> Result<String, RenderError> {
    render(format, specs(tools, set))
}

/// The specs of a set's tools of the catalog `tools`, in catalog order: what every
/// renderer takes.
pub fn specs<T: ToolId, const W: usize>(
    tools: &dyn Lookup<T>,
    set: ToolSet<T, W>,
) -> impl ExactSizeIterator<Item = &ToolSpec<'_>> {
    set.into_iter().map(move |tool| tools.spec(tool))
}

/// Whether the row is the catalog's search tool.
fn is_search_tool(spec: &ToolSpec) -> bool {
    spec.role() == catalog_core::Role::Search
}

/// Appends `s` as a JSON string, escaped as `serde_json` escapes it (the two short forms
/// for `"` and `\`, the five for common control characters, `\u00XX` for the other
/// control characters; everything else, non-ASCII included, as it is).
fn push_str(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push('"');
    let mut start = 0;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        let short = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        // `i` is at an ASCII byte, so both slices end on character boundaries.
        out.push_str(&s[start..i]);
        if short.is_empty() {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        } else {
            out.push_str(short);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Writes a JSON array, one element per item, `write` appending each element; the count.
fn push_array<I>(out: &mut String, items: I, mut write: impl FnMut(&mut String, I::Item)) -> usize
where
    I: IntoIterator,
{
    out.push('[');
    let mut n = 0;
    for item in items {
        if n > 0 {
            out.push(',');
        }
        write(out, item);
        n += 1;
    }
    out.push(']');
    n
}

#[cfg(test)]
pub(crate) mod fixtures {
    //! Hand-written rows: what the compiler emits, with the cases renderers must handle.

    use catalog_core::{Access, Effect, Policy, Role, Shape, Tier, ToolSpec, Visibility};

    const OBJECT: &str = r#"{"type":"object","properties":{},"additionalProperties":false}"#;

    /// A row with the given name, visibility and access (none for the search tool);
    /// everything else plain.
    const fn row(
        name: &'static str,
        wire_name: &'static str,
        visibility: Visibility,
        access: Option<Access>,
    ) -> ToolSpec<'static> {
        let role = match access {
            None => Role::Search,
            Some(access) => Role::Tool(Policy {
                effect: match access {
                    Access::ReadOnly => Effect::Reads,
                    Access::ReadAndStage => Effect::Stages,
                    Access::FullAccess => Effect::Acts,
                },
                tier: Tier::Silent,
                access,
                mcp: true,
            }),
        };
        ToolSpec {
            name,
            description: "Does one thing.",
            keywords: &[],
            examples: &[],
            visibility,
            effect: role.effect(),
            tier: role.tier(),
            access: role.access(),
            mcp: role.mcp(),
            task: None,
            wire_name,
            input_schema: OBJECT,
            gemini_parameters: None,
            mcp_input_schema: None,
            input: Shape::Any,
            strict: true,
            output_schema: None,
            output: None,
        }
    }

    pub static SEARCH: ToolSpec = ToolSpec {
        description: "Finds tools.",
        input_schema: r#"{"type":"object","properties":{"query":{"type":"string"}},"required":["query"],"additionalProperties":false}"#,
        gemini_parameters: Some(
            r#"{"type":"OBJECT","properties":{"query":{"type":"STRING"}},"required":["query"]}"#,
        ),
        ..row("searchTools", "searchTools", Visibility::Inline, None)
    };

    pub static READ: ToolSpec = ToolSpec {
        description: "Reads \"rows\" from C:\\data\n\ttab\u{1}\u{1f}\u{7f} — café 日本 😀",
        output_schema: Some(
            r#"{"type":"object","properties":{"rows":{"type":"integer"}},"required":["rows"],"additionalProperties":false}"#,
        ),
        ..row(
            "readRows",
            "readRows",
            Visibility::Inline,
            Some(Access::ReadOnly),
        )
    };

    pub static STAGE: ToolSpec = ToolSpec {
        strict: false,
        input_schema: r#"{"type":"object","properties":{"note":{"type":"string","description":"A \"note\"."}},"additionalProperties":false}"#,
        gemini_parameters: Some(
            r#"{"type":"OBJECT","properties":{"note":{"type":"STRING","description":"A \"note\"."}}}"#,
        ),
        // An output that is not an object: MCP has no place for it.
        output_schema: Some(r#"{"type":"array","items":{"type":"string"}}"#),
        ..row(
            "rows.stage",
            "rows_stage",
            Visibility::Discoverable,
            Some(Access::ReadAndStage),
        )
    };

    pub static DROP: ToolSpec = ToolSpec {
        tier: Some(Tier::Gated),
        ..row(
            "dropTable",
            "dropTable",
            Visibility::Discoverable,
            Some(Access::FullAccess),
        )
    };

    pub static HIDDEN: ToolSpec = ToolSpec {
        mcp: false,
        ..row("ask", "ask", Visibility::Inline, Some(Access::ReadOnly))
    };

    /// The fixture rows as a catalog's tools: row `i` of [`all`].
    pub type Row = catalog_core::ToolRow;

    /// The fixture rows as a catalog.
    pub struct Rows;

    impl catalog_core::Lookup<Row> for Rows {
        fn len(&self) -> usize {
            all().len()
        }
        fn spec(&self, tool: Row) -> &ToolSpec<'_> {
            all()[catalog_core::ToolId::index(tool)]
        }
        fn find(&self, name: &str) -> Option<Row> {
            let i = all().iter().position(|s| s.name == name)?;
            catalog_core::ToolId::from_index(i)
        }
    }

    /// Every fixture row, in a catalog's order.
    pub fn all() -> [&'static ToolSpec<'static>; 5] {
        [&SEARCH, &READ, &STAGE, &DROP, &HIDDEN]
    }

    /// `n` copies of one row, for the limits.
    pub fn many(n: usize) -> impl Iterator<Item = &'static ToolSpec<'static>> {
        core::iter::repeat_n(&READ, n)
    }

    /// Parses rendered text, failing the test when it is not JSON.
    pub fn parse(text: &str) -> serde_json::Value {
        serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
    }

    /// A compact schema as a value.
    pub fn schema(text: &str) -> serde_json::Value {
        parse(text)
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use super::*;

    /// A spec written from a role reads back as that role (the ask tool as an ordinary row).
    #[test]
    fn a_spec_reads_back_its_role() {
        use catalog_core::{Effect, Policy, Role, Tier};

        assert_eq!(fixtures::SEARCH.role(), Role::Search);
        let read = fixtures::READ.role();
        assert_eq!(read.access(), Some(Access::ReadOnly));
        assert_eq!(read.tier(), fixtures::READ.tier);
        assert_eq!(read.mcp(), fixtures::READ.mcp);
        assert!(matches!(read, Role::Tool(_)));
        let policy = Policy {
            effect: Effect::Acts,
            tier: Tier::Gated,
            access: Access::FullAccess,
            mcp: false,
        };
        assert_eq!(Role::Ask(policy).policy(), Some(policy));
        assert_eq!((Role::Search.tier(), Role::Search.access()), (None, None));
        assert!(!Role::Search.mcp());
    }

    fn escaped(s: &str) -> String {
        let mut out = String::new();
        push_str(&mut out, s);
        out
    }

    /// Byte for byte what `serde_json` writes, for every ASCII byte and beyond.
    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let every_ascii: String = (0u8..0x80).map(char::from).collect();
        for s in [
            "",
            "plain",
            "\"quoted\" and \\back\\slashed\\",
            "line\nbreak\r\n\ttab\u{8}\u{c}",
            "\u{0}\u{1}\u{1f}\u{7f}",
            "café — 日本語 😀 \u{2028}\u{2029}",
            &every_ascii,
        ] {
            assert_eq!(escaped(s), serde_json::to_string(s).unwrap(), "{s:?}");
            assert_eq!(fixtures::parse(&escaped(s)), s);
        }
    }

    #[test]
    fn format_picks_the_renderer() {
        let tools = fixtures::all();
        for (format, direct) in [
            (Format::Anthropic, Ok(anthropic(tools))),
            (
                Format::AnthropicToolSearch(ToolSearch::Regex),
                anthropic_tool_search(tools, ToolSearch::Regex),
            ),
            (Format::OpenAiChat, openai_chat(tools)),
            (Format::OpenAiResponses, openai_responses(tools)),
            (Format::Bedrock, bedrock(tools)),
            (Format::Gemini, gemini(tools)),
            (
                Format::Mcp(Access::ReadAndStage),
                Ok(mcp(tools, Access::ReadAndStage)),
            ),
        ] {
            assert_eq!(render(format, tools), direct, "{format:?}");
        }
    }

    #[test]
    fn errors_name_the_limit_and_the_way_out() {
        let message = openai_chat(fixtures::many(129)).unwrap_err().to_string();
        assert!(
            message.contains("128") && message.contains("129"),
            "{message}"
        );
        assert!(message.contains("active set"), "{message}");
        let message = bedrock(Vec::new()).unwrap_err().to_string();
        assert!(message.contains("Bedrock"), "{message}");
    }
}
