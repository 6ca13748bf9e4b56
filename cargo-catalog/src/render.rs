//! `render`: a catalog's tools in one provider's request format, rendered by
//! `catalog_core::render` from the specs of a catalog read at run time.

use std::io::Write as _;
use std::process::ExitCode;

use catalog_core::render::{self, Format, ToolSearch};
use catalog_core::{Access, ToolSpec, Visibility};

use crate::args::{Flags, Usage};
use crate::defaults::Defaults;

/// `render`'s options, checked, then the run.
pub(crate) fn command(opts: &Flags, defaults: &Defaults) -> Result<ExitCode, Usage> {
    opts.only(&["catalog", "provider", "tools", "access", "search"])?;
    let Some(provider) = opts.get("provider") else {
        return Err(Usage("render needs --provider".into()));
    };
    let format = format(provider, opts.get("access"), opts.get("search"))?;
    let tools = tools(opts.get("tools"))?;
    let (path, source) = defaults.read_catalog(opts)?;
    Ok(run(&path, &source, format, tools))
}

/// Which of the catalog's tools to render.
#[derive(Clone, Copy)]
enum Tools {
    /// The first step's active set: the inline tools, the search tool among them.
    Inline,
    /// Every tool.
    All,
}

/// The provider format from `--provider`, `--access` and `--search`. `--access` belongs
/// to `mcp` only, `--search` to `anthropic-tool-search` only.
fn format(provider: &str, access: Option<&str>, search: Option<&str>) -> Result<Format, Usage> {
    if access.is_some() && provider != "mcp" {
        return Err(Usage(format!(
            "`--access` applies to `--provider mcp`, not `{provider}`"
        )));
    }
    if search.is_some() && provider != "anthropic-tool-search" {
        return Err(Usage(format!(
            "`--search` applies to `--provider anthropic-tool-search`, not `{provider}`"
        )));
    }
    Ok(match provider {
        "anthropic" => Format::Anthropic,
        "anthropic-tool-search" => Format::AnthropicToolSearch(match search.unwrap_or("bm25") {
            "bm25" => ToolSearch::Bm25,
            "regex" => ToolSearch::Regex,
            "catalog" => ToolSearch::Catalog,
            other => {
                return Err(Usage(format!(
                    "unknown search `{other}`: use bm25, regex or catalog"
                )));
            }
        }),
        "openai-chat" => Format::OpenAiChat,
        "openai-responses" => Format::OpenAiResponses,
        "bedrock" => Format::Bedrock,
        "gemini" => Format::Gemini,
        "mcp" => {
            let level = access.unwrap_or("full-access");
            Format::Mcp(Access::parse(level).ok_or_else(|| {
                Usage(format!(
                    "unknown access level `{level}`: use read-only, read-and-stage or full-access"
                ))
            })?)
        }
        other => {
            return Err(Usage(format!(
                "unknown provider `{other}`: use anthropic, anthropic-tool-search, openai-chat, openai-responses, bedrock, gemini or mcp"
            )));
        }
    })
}

/// The tool selection from `--tools`.
fn tools(value: Option<&str>) -> Result<Tools, Usage> {
    match value.unwrap_or("all") {
        "inline" => Ok(Tools::Inline),
        "all" => Ok(Tools::All),
        other => Err(Usage(format!(
            "unknown tool set `{other}`: use inline or all"
        ))),
    }
}

/// Compiles the catalog and prints its tools in `format` as pretty JSON; exit 1 with the
/// catalog's errors, or with the provider's limit when the list breaks it.
fn run(path: &str, source: &str, format: Format, tools: Tools) -> ExitCode {
    let catalog = match catalog_compiler::compile(source) {
        Ok(c) => c,
        Err(d) => {
            eprint!("{}", catalog_compiler::render_all(path, source, &d));
            return ExitCode::FAILURE;
        }
    };
    let specs = catalog_compiler::specs(&catalog);
    let selected = specs.iter().filter(|spec: &&ToolSpec| match tools {
        Tools::Inline => spec.visibility == Visibility::Inline,
        Tools::All => true,
    });
    match render::render(format, selected) {
        Ok(json) => match pretty(&json) {
            Ok(text) => {
                // A closed pipe (`| head`) is the reader's choice, not an error.
                let _ = writeln!(std::io::stdout(), "{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("internal error: the rendered tools are not JSON: {e}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("error: {e}");
            if matches!(e, render::RenderError::TooManyTools { .. }) && matches!(tools, Tools::All)
            {
                eprintln!("hint: `--tools inline` renders the first step's active set");
            }
            ExitCode::FAILURE
        }
    }
}

/// Compact JSON as `serde_json` pretty-prints it, keys in their order.
fn pretty(json: &str) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(json)?)
}
