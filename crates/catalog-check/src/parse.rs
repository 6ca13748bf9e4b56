//! TOML text → raw rows: every key read, every local rule checked, every error kept.
//!
//! Rules that need more than one row (names, the search tool, contradictions between keys
//! of a row) live in `check`, which lowers the raw rows into the final model.
//!
//! This file holds the rows as read, the key tables and the top-level tables; a table is
//! read key by key through `table`, values through `values` (and `json`), the type
//! language through `types`, and `[lints]`, `[[upstream]]` in their own files.

use std::collections::BTreeMap;

use catalog_core::search::Language;
use catalog_core::{Access, Effect, Retention, ScanResults, Tier, Visibility};
use serde_json::Value;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::diag::{Diagnostic, Errors, Span};
use crate::lint_config::{self, Level, LintId};
use crate::model::{Arguments, Field, Kind, SettingsTable, TypeSpec};
use crate::provider::Provider;

mod default;
mod json;
mod lints;
mod oauth;
mod offers;
mod pieces;
mod supplied;
mod syntax;
mod table;
mod types;
mod upstream;
mod values;

pub(crate) use oauth::OAUTH_KEYS;
pub(crate) use offers::{PROMPT_KEYS, RESOURCE_KEYS, RawOffer};
pub(crate) use supplied::REFERENCE_KEYS;
pub(crate) use table::Seen;
pub(crate) use upstream::{RawUpstream, UPSTREAM_KEYS};

use lints::{lints, row_lints};
use table::{Table, table, unknown_value};
use types::{fields, raw_schema, type_spec};
use values::{
    boolean, choice, count, digest, non_empty, rust_ident, spanned_strings, string, strings,
    task_support, thousandths,
};

/// A value and where it was written.
pub(crate) type At<T> = (T, Span);

#[derive(Default)]
pub(crate) struct RawCatalog {
    /// The top-level keys written, valid or not.
    pub seen: Seen,
    pub settings: Option<RawSettings>,
    pub tools: Vec<RawTool>,
    /// The `[lints]` table, with what it could not read left out (and reported).
    pub lints: lint_config::Config,
    /// The `[[upstream]]` tables, in file order.
    pub upstreams: Vec<RawUpstream>,
    /// The `[[prompt]]` tables, then the `[[resource]]` tables, each in file order.
    pub offers: Vec<RawOffer>,
}

pub(crate) struct RawSettings {
    pub span: Span,
    /// The keys written, valid or not (see [`Seen::has`]).
    pub seen: Seen,
    pub search_tool: Option<At<String>>,
    pub ask_tool: Option<At<String>>,
    pub search_results: Option<At<usize>>,
    pub searches_per_turn: Option<At<usize>>,
    pub keep_discovered: Option<At<Retention>>,
    pub language: Option<At<Language>>,
    pub scan_results: Option<At<ScanResults>>,
    /// `scan-threshold`, in thousandths.
    pub scan_threshold: Option<At<u16>>,
    /// The providers named, each once, in [`Provider::ALL`] order.
    pub providers: Option<Vec<Provider>>,
    pub arguments: Option<At<Arguments>>,
}

pub(crate) struct RawTool {
    pub span: Span,
    /// The keys written, valid or not (see [`Seen::has`]).
    pub seen: Seen,
    pub name: Option<At<String>>,
    pub rust_name: Option<At<String>>,
    pub description: Option<At<String>>,
    pub keywords: Vec<String>,
    pub keywords_span: Option<Span>,
    pub examples: Vec<At<String>>,
    pub visibility: Option<At<Visibility>>,
    pub effect: Option<At<Effect>>,
    pub tier: Option<At<Tier>>,
    pub access: Option<At<Access>>,
    pub mcp: Option<At<bool>>,
    /// Whether its MCP calls may run as tasks (`task`).
    pub task: Option<At<catalog_core::TaskSupport>>,
    pub params: Option<At<Vec<Field>>>,
    /// Whether arguments beyond `params` are accepted (`additional-params`).
    pub additional_params: Option<At<bool>>,
    pub input_schema: Option<At<Value>>,
    pub output: Option<TypeSpec>,
    pub arguments: Option<At<Arguments>>,
    /// Levels the row's `[tool.lints]` sets.
    pub lints: BTreeMap<LintId, Level>,
    /// The `[[upstream]]` that serves the tool (`upstream`).
    pub upstream: Option<At<String>>,
    /// Its name there, when it differs from the row's (`upstream-tool`).
    pub upstream_tool: Option<At<String>>,
    /// Its definition's digest as imported (`upstream-digest`), when well formed.
    pub upstream_digest: Option<At<String>>,
}

pub(crate) const TOP_KEYS: &[&str] = &[
    "settings", "lints", "upstream", "prompt", "resource", "tool",
];
pub(crate) const SETTINGS_KEYS: &[&str] = &[
    "search-tool",
    "ask-tool",
    "search-results",
    "searches-per-turn",
    "keep-discovered",
    "language",
    "scan-results",
    "scan-threshold",
    "providers",
    "arguments",
];
pub(crate) const TOOL_KEYS: &[&str] = &[
    "name",
    "rust-name",
    "description",
    "keywords",
    "examples",
    "visibility",
    "effect",
    "tier",
    "access",
    "mcp",
    "task",
    "params",
    "additional-params",
    "input-schema",
    "output",
    "arguments",
    "lints",
    "upstream",
    "upstream-tool",
    "upstream-digest",
];
pub(crate) const TYPE_KEYS: &[&str] = &[
    "type",
    "description",
    "enum",
    "items",
    "properties",
    "minimum",
    "maximum",
    "schema",
];
/// Keys a parameter or property has beyond a type's: field keys are `TYPE_KEYS` and these.
pub(crate) const FIELD_ONLY_KEYS: &[&str] = &["required", "default", "rust-name", "header"];
pub(crate) const TYPE_NAMES: &[&str] =
    &["string", "integer", "number", "boolean", "array", "object"];
/// The choices of `visibility`, `tier` and `keep-discovered`, as the catalog spells them.
pub(crate) const VISIBILITIES: [(&str, Visibility); 2] = [
    ("inline", Visibility::Inline),
    ("discoverable", Visibility::Discoverable),
];
pub(crate) const TIERS: [(&str, Tier); 2] = [("silent", Tier::Silent), ("gated", Tier::Gated)];
pub(crate) const RETENTIONS: [(&str, Retention); 2] = [
    ("conversation", Retention::Conversation),
    ("turn", Retention::Turn),
];

/// Parses the whole file: every row is read and every local error recorded; the flag is
/// whether the syntax was valid. After a syntax error only the syntax errors are recorded,
/// and the rows are what TOML recovery keeps (the skeleton of a catalog with errors still
/// names those rows).
pub(crate) fn read(source: &str, errors: &mut Errors) -> (RawCatalog, bool) {
    read_in(source, pieces::SIZE, errors)
}

/// [`read`], a large file in pieces of about `size` bytes (see [`pieces`]).
fn read_in(source: &str, size: usize, errors: &mut Errors) -> (RawCatalog, bool) {
    if let Some((raw, found)) = pieces::read(source, size) {
        errors.extend(found);
        return (raw, true);
    }
    let (doc, syntax) = DeTable::parse_recoverable(source);
    let syntax_ok = syntax.is_empty();
    for diagnostic in syntax::errors(source, &syntax::listed(&syntax)) {
        errors.push(diagnostic);
    }
    // After a syntax error only the syntax is reported: the rest is read, not judged.
    let mut unjudged = Errors::default();
    let errors = if syntax_ok { errors } else { &mut unjudged };
    (document(&doc, errors), syntax_ok)
}

/// Every key of a parsed document.
fn document(doc: &Spanned<DeTable<'_>>, errors: &mut Errors) -> RawCatalog {
    let mut raw = RawCatalog::default();
    let mut top = Table::new(doc.get_ref(), doc.span(), "the catalog");
    if let Some((v, _)) = top.take("settings")
        && let Some(t) = table(v, "`settings`", errors)
    {
        raw.settings = Some(settings(t, v.span(), errors));
    }
    if let Some((v, _)) = top.take("lints")
        && let Some(t) = table(v, "`lints`", errors)
    {
        raw.lints = lints(t, errors);
    }
    if let Some((v, _)) = top.take("upstream") {
        raw.upstreams = upstream::upstreams(v, errors);
    }
    for key in ["prompt", "resource"] {
        if let Some((v, _)) = top.take(key) {
            raw.offers.extend(offers::offers(key, v, errors));
        }
    }
    if let Some((v, _)) = top.take("tool") {
        match v.get_ref() {
            DeValue::Array(rows) => {
                for row in rows {
                    if let Some(t) = table(row, "each `[[tool]]` entry", errors) {
                        raw.tools.push(tool(t, row.span(), errors));
                    }
                }
            }
            _ => errors.push(
                Diagnostic::new(v.span(), "`tool` must be an array of tables")
                    .help("write each tool as its own `[[tool]]` table"),
            ),
        }
    }
    raw.seen = top.finish(TOP_KEYS, errors);
    raw
}

fn settings(t: &DeTable<'_>, span: Span, errors: &mut Errors) -> RawSettings {
    let mut t = Table::new(t, span.clone(), "`[settings]`");
    let mut s = RawSettings {
        span,
        seen: Seen::default(),
        search_tool: t
            .take("search-tool")
            .and_then(|(v, _)| string(v, "search-tool", errors)),
        ask_tool: t
            .take("ask-tool")
            .and_then(|(v, _)| string(v, "ask-tool", errors)),
        search_results: t.take("search-results").and_then(|(v, _)| {
            count(
                v,
                "search-results",
                1,
                SettingsTable::MAX_SEARCH_RESULTS,
                errors,
            )
        }),
        searches_per_turn: t.take("searches-per-turn").and_then(|(v, _)| {
            count(
                v,
                "searches-per-turn",
                1,
                SettingsTable::MAX_SEARCHES_PER_TURN,
                errors,
            )
        }),
        keep_discovered: t
            .take("keep-discovered")
            .and_then(|(v, _)| choice(v, "keep-discovered", &RETENTIONS, errors)),
        language: t.take("language").and_then(|(v, _)| {
            let options = Language::ALL.map(|l| (l.code(), l));
            choice(v, "language", &options, errors)
        }),
        scan_results: t.take("scan-results").and_then(|(v, _)| {
            let options = ScanResults::ALL.map(|p| (p.as_str(), p));
            choice(v, "scan-results", &options, errors)
        }),
        scan_threshold: t
            .take("scan-threshold")
            .and_then(|(v, _)| thousandths(v, "scan-threshold", errors)),
        providers: t.take("providers").and_then(|(v, _)| providers(v, errors)),
        arguments: t
            .take("arguments")
            .and_then(|(v, _)| choice(v, "arguments", &Arguments::ALL, errors)),
    };
    s.seen = t.finish(SETTINGS_KEYS, errors);
    s
}

/// `providers`: a non-empty list of provider names, as `cargo catalog render --provider`
/// spells them.
fn providers(v: &Spanned<DeValue<'_>>, errors: &mut Errors) -> Option<Vec<Provider>> {
    let names = spanned_strings(v, "providers", errors);
    let options = Provider::ALL.map(|p| (p.name(), p));
    let mut out = Vec::new();
    let mut valid = true;
    for (name, span) in names {
        if let Some((_, p)) = options.iter().find(|(n, _)| *n == name) {
            out.push(*p);
        } else {
            let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            errors.push(unknown_value(span, "providers", &name, &names));
            valid = false;
        }
    }
    if out.is_empty() && valid {
        errors.push(
            Diagnostic::new(v.span(), "`providers` names no provider")
                .help("name the providers the tools go to, e.g. `providers = [\"anthropic\", \"gemini\"]`, or leave the key out for all of them"),
        );
    }
    out.sort();
    out.dedup();
    valid.then_some(out).filter(|p| !p.is_empty())
}

fn tool(t: &DeTable<'_>, span: Span, errors: &mut Errors) -> RawTool {
    let mut t = Table::new(t, span.clone(), "a tool row");
    let name = t.take("name").and_then(|(v, _)| string(v, "name", errors));
    if let Some((n, _)) = &name {
        t.what = format!("tool `{n}`");
    }
    let mut row = RawTool {
        span,
        seen: Seen::default(),
        name,
        rust_name: t.take("rust-name").and_then(|(v, _)| rust_ident(v, errors)),
        description: t
            .take("description")
            .and_then(|(v, _)| string(v, "description", errors)),
        keywords: Vec::new(),
        keywords_span: None,
        examples: t
            .take("examples")
            .map(|(v, _)| spanned_strings(v, "examples", errors))
            .unwrap_or_default(),
        visibility: t
            .take("visibility")
            .and_then(|(v, _)| choice(v, "visibility", &VISIBILITIES, errors)),
        effect: t.take("effect").and_then(|(v, _)| {
            let effects = Effect::ALL.map(|e| (e.as_str(), e));
            choice(v, "effect", &effects, errors)
        }),
        tier: t
            .take("tier")
            .and_then(|(v, _)| choice(v, "tier", &TIERS, errors)),
        access: t.take("access").and_then(|(v, _)| {
            let levels = Access::ALL.map(|a| (a.as_str(), a));
            choice(v, "access", &levels, errors)
        }),
        mcp: t.take("mcp").and_then(|(v, _)| boolean(v, "mcp", errors)),
        task: t.take("task").and_then(|(v, _)| task_support(v, errors)),
        arguments: t
            .take("arguments")
            .and_then(|(v, _)| choice(v, "arguments", &Arguments::ALL, errors)),
        params: None,
        additional_params: t
            .take("additional-params")
            .and_then(|(v, _)| boolean(v, "additional-params", errors)),
        input_schema: None,
        output: None,
        lints: BTreeMap::new(),
        upstream: t
            .take("upstream")
            .and_then(|(v, _)| string(v, "upstream", errors)),
        upstream_tool: t
            .take("upstream-tool")
            .and_then(|(v, _)| non_empty(v, "upstream-tool", errors)),
        upstream_digest: t
            .take("upstream-digest")
            .and_then(|(v, _)| digest(v, errors)),
    };
    if let Some((v, _)) = t.take("keywords") {
        row.keywords = strings(v, "keywords", errors);
        row.keywords_span = Some(v.span());
    }
    if let Some((v, _)) = t.take("lints")
        && let Some(levels) = table(v, "`[tool.lints]`", errors)
    {
        row.lints = row_lints(levels, errors);
    }
    if let Some((v, _)) = t.take("params")
        && let Some(params) = table(v, "`params`", errors)
    {
        row.params = Some((fields(params, "parameter", errors), v.span()));
    }
    if let Some((v, _)) = t.take("input-schema")
        && let Kind::Raw(schema) = raw_schema(v, "input-schema", errors)
    {
        if schema.get("type").is_some_and(|t| t != "object") {
            errors.push(
                Diagnostic::new(v.span(), "`input-schema` must describe an object")
                    .help("tool arguments are always a JSON object: use `\"type\": \"object\"`"),
            );
        }
        row.input_schema = Some((schema, v.span()));
    }
    if let Some((v, _)) = t.take("output")
        && let Some(out) = table(v, "`output`", errors)
    {
        row.output = Some(type_spec(out, v.span(), "`output`", false, errors).0);
    }
    row.seen = t.finish(TOOL_KEYS, errors);
    row
}
