//! `render`: a catalog's tools in one provider's request format, rendered by
//! `catalog_wire::render` from the specs of a catalog read at run time.

use std::io::Write as _;
use std::process::ExitCode;

use catalog_core::{Access, ToolSpec, Visibility};
use catalog_wire::provider::Provider;
use catalog_wire::render::{self, Format, ToolSearch};

use crate::args::{Render, Target, Tools, Usage};
use crate::defaults::Defaults;

/// `render --provider P [--catalog PATH] [--tools inline|all] [--access L] [--search S]`.
pub(crate) fn command(args: &Render, defaults: &Defaults) -> Result<ExitCode, Usage> {
    let format = format(args)?;
    let (path, source) = defaults.read_catalog(args.catalog.path.as_deref())?;
    Ok(run(&path, &source, format, args.tools))
}

/// The provider format from `--provider`, `--access` and `--search`. `--access` belongs
/// to `mcp` only, `--search` to `anthropic-tool-search` only.
fn format(args: &Render) -> Result<Format, Usage> {
    let target = args.provider;
    let name = || match target {
        Target::Api(api) => api.name(),
        Target::Mcp => "mcp",
    };
    let tool_search = matches!(target, Target::Api(Provider::AnthropicToolSearch(_)));
    if args.access.is_some() && target != Target::Mcp {
        return Err(Usage(format!(
            "`--access` applies to `--provider mcp`, not `{}`",
            name()
        )));
    }
    if args.search.is_some() && !tool_search {
        return Err(Usage(format!(
            "`--search` applies to `--provider anthropic-tool-search`, not `{}`",
            name()
        )));
    }
    Ok(match target {
        Target::Mcp => Format::Mcp(args.access.map_or(Access::FullAccess, Access::from)),
        Target::Api(_) if tool_search => {
            Format::AnthropicToolSearch(args.search.map_or(ToolSearch::Bm25, ToolSearch::from))
        }
        Target::Api(api) => api.format(),
    })
}

/// Compiles the catalog and prints its tools in `format` as pretty JSON; exit 1 with the
/// catalog's errors, or with the provider's limit when the list breaks it.
fn run(path: &str, source: &str, format: Format, tools: Tools) -> ExitCode {
    let catalog = match catalog_check::compile(source) {
        Ok(c) => c,
        Err(d) => {
            eprint!("{}", catalog_check::render_all(path, source, &d));
            return ExitCode::FAILURE;
        }
    };
    let specs = catalog_check::specs(&catalog);
    let selected = specs
        .get()
        .iter()
        .filter(|spec: &&ToolSpec<'_>| match tools {
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
