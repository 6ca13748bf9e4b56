//! The inline set's size: `inline-tool-count` counts its tools; `inline-token-budget`
//! counts its tokens as each provider's request carries it, with the tokenizer the caller
//! gives (the compiler links none: `cargo catalog check` brings one).

use catalog_core::{ToolSpec, Visibility};
use catalog_wire::render::{self, Format};

use super::{Ctx, Found, LintId};
use crate::diag::{Diagnostic, Span};
use crate::provider::Provider;

/// Counts tokens. `Sync`: the lints run on several threads at once.
pub trait Tokenizer: Sync {
    /// The encoding's name, as reports print it (`o200k_base`).
    fn name(&self) -> &str;
    /// Tokens in `text`.
    fn count(&self, text: &str) -> usize;
}

/// Tokens of one provider's rendering of the tools.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderTokens {
    /// The provider format, as `cargo catalog render --provider` names it.
    pub provider: &'static str,
    /// The inline set (the first step's tool list); why not, when the provider has no such
    /// list or refuses it.
    pub inline: Result<usize, String>,
    /// Every tool the provider would list; why not, when it refuses that many.
    pub all: Result<usize, String>,
}

impl ProviderTokens {
    /// The share of the whole catalog's tokens that the first step does not carry, thanks
    /// to discovery.
    #[must_use]
    #[allow(clippy::cast_precision_loss)] // token counts far below 2^52
    pub fn saving(&self) -> Option<f64> {
        match (&self.inline, &self.all) {
            (Ok(inline), Ok(all)) if *all > 0 => Some(1.0 - *inline as f64 / *all as f64),
            _ => None,
        }
    }
}

/// What the token budget lint measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenReport {
    /// The tokenizer's encoding.
    pub tokenizer: String,
    /// Per provider.
    pub providers: Vec<ProviderTokens>,
    /// Each inline tool (index in the catalog) and its tokens as one entry of Anthropic's
    /// `tools` array, largest first.
    pub inline_tools: Vec<(usize, usize)>,
    /// The budget in force (`max-tokens`).
    pub max_tokens: usize,
}

/// `inline-tool-count`: the inline set has at most `max-tools` tools.
pub(super) fn tool_count(ctx: &Ctx<'_>, found: &mut Vec<Found>) {
    let max = setting(ctx, LintId::InlineToolCount, "max-tools");
    let inline: Vec<usize> = (0..ctx.catalog.tools.len())
        .filter(|&i| ctx.catalog.tools[i].visibility == Visibility::Inline)
        .collect();
    let Some(&over) = inline.get(max) else {
        return;
    };
    let n = inline.len();
    found.push((
        LintId::InlineToolCount,
        None,
        Diagnostic::new(
            where_visible(ctx, over),
            format!(
                "the inline set has {n} tools, over the {max} of `inline-tool-count`; this is inline tool number {}",
                max + 1
            ),
        )
        .help("past about 30 tools, published measurements show models choosing the wrong tool more often: make the tools that people ask for by name discoverable (`cargo catalog check` lists the candidates to defer), or raise `max-tools` in `[lints]`"),
    ));
}

/// `inline-token-budget`: counts the inline set's and the whole catalog's tokens for each
/// provider, and reports the inline set over `max-tokens`.
pub(super) fn tokens(
    ctx: &Ctx<'_>,
    tokenizer: &dyn Tokenizer,
    found: &mut Vec<Found>,
) -> TokenReport {
    let catalog = ctx.catalog;
    let made;
    let specs = if let Some(specs) = &ctx.schemas().specs {
        specs.get()
    } else {
        made = crate::specs(catalog);
        made.get()
    };
    let inline: Vec<&ToolSpec<'_>> = specs
        .iter()
        .filter(|s| s.visibility == Visibility::Inline)
        .collect();
    let count = |format: Format, tools: &[&ToolSpec<'_>]| {
        render::render(format, tools.iter().copied())
            .map(|text| tokenizer.count(&text))
            .map_err(|e| e.to_string())
    };
    let all: Vec<&ToolSpec> = specs.iter().collect();
    let providers: Vec<ProviderTokens> = Provider::ALL
        .iter()
        .map(|&provider| (provider.name(), provider.format()))
        .map(|(provider, format)| ProviderTokens {
            provider,
            inline: if matches!(format, Format::Mcp(_)) {
                Err("MCP clients list every tool their access level allows".to_string())
            } else {
                count(format, &inline)
            },
            all: count(format, &all),
        })
        .collect();
    let mut inline_tools: Vec<(usize, usize)> = (0..catalog.tools.len())
        .filter(|&i| specs[i].visibility == Visibility::Inline)
        .map(|i| (i, tokenizer.count(&render::anthropic([&specs[i]]))))
        .collect();
    inline_tools.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let max = setting(ctx, LintId::InlineTokenBudget, "max-tokens");
    // Over the budget for a provider the catalog targets.
    let worst = providers
        .iter()
        .filter(|p| Provider::from_name(p.provider).is_some_and(|p| catalog.settings.targets(p)))
        .filter_map(|p| p.inline.as_ref().ok().map(|n| (p.provider, *n)))
        .max_by_key(|(_, n)| *n);
    if let (Some((provider, n)), Some(&(largest, _))) = (worst, inline_tools.first())
        && n > max
    {
        let list: Vec<String> = inline_tools
            .iter()
            .take(3)
            .map(|(i, t)| format!("`{}` {t}", catalog.tools[*i].name))
            .collect();
        found.push((
            LintId::InlineTokenBudget,
            None,
            Diagnostic::new(
                where_visible(ctx, largest),
                format!(
                    "the inline set takes {n} tokens ({}) as `{provider}` renders it, over the {max} of `inline-token-budget`",
                    tokenizer.name()
                ),
            )
            .help(format!(
                "every request carries the inline set: make its largest tools discoverable, or shorten them (largest: {}), or raise `max-tokens` in `[lints]`{}",
                list.join(", "),
                search_note(catalog, &inline_tools)
            )),
        ));
    }
    TokenReport {
        tokenizer: tokenizer.name().to_string(),
        providers,
        inline_tools,
        max_tokens: max,
    }
}

/// Why the search tool is large, when it is the largest: its description, as the model
/// reads it, names every discoverable tool.
fn search_note(catalog: &crate::model::CatalogModel, largest: &[(usize, usize)]) -> String {
    let search = catalog.settings.search_tool;
    if largest.first().is_none_or(|(i, _)| *i != search) {
        return String::new();
    }
    let found = catalog
        .tools
        .iter()
        .filter(|t| t.visibility == Visibility::Discoverable)
        .count();
    format!(
        "; `{}` is the largest because its description names every discoverable tool ({found})",
        catalog.tools[search].name
    )
}

/// A whole-number setting.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // whole, checked range
fn setting(ctx: &Ctx<'_>, lint: LintId, name: &str) -> usize {
    ctx.catalog.lints.setting(lint, name) as usize
}

/// Where a row says it is inline, or its name when it does not say (the search tool).
fn where_visible(ctx: &Ctx<'_>, tool: usize) -> Span {
    let t = &ctx.catalog.tools[tool];
    t.spans
        .visibility
        .clone()
        .unwrap_or_else(|| t.name_span.clone())
}
