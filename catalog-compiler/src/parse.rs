//! TOML text → raw rows: every key read, every local rule checked, every error kept.
//!
//! Rules that need more than one row (names, the search tool, contradictions between keys
//! of a row) live in `check`, which lowers the raw rows into the final model.

use std::collections::BTreeMap;

use catalog_core::search::Language;
use catalog_core::{Access, Retention, Tier, Visibility};
use serde_json::{Map, Number, Value};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::diag::{Diagnostic, Errors, Span};
use crate::lint::{self, Level, LintId, Scope};
use crate::model::{Arguments, Field, Kind, Outline, TypeSpec};
use crate::provider::Provider;
use crate::upstream as digests;

mod upstream;

pub(crate) use upstream::RawUpstream;

/// A value and where it was written.
pub(crate) type At<T> = (T, Span);

#[derive(Default)]
pub(crate) struct RawCatalog {
    /// The top-level keys written, valid or not.
    pub seen: Seen,
    pub settings: Option<RawSettings>,
    pub tools: Vec<RawTool>,
    /// The `[lints]` table, with what it could not read left out (and reported).
    pub lints: lint::Config,
    /// The `[[upstream]]` tables, in file order.
    pub upstreams: Vec<RawUpstream>,
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
    pub tier: Option<At<Tier>>,
    pub access: Option<At<Access>>,
    pub mcp: Option<At<bool>>,
    pub params: Option<At<Vec<Field>>>,
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

pub(crate) const TOP_KEYS: &[&str] = &["settings", "lints", "upstream", "tool"];
pub(crate) const SETTINGS_KEYS: &[&str] = &[
    "search-tool",
    "ask-tool",
    "search-results",
    "searches-per-turn",
    "keep-discovered",
    "language",
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
    "tier",
    "access",
    "mcp",
    "params",
    "input-schema",
    "output",
    "arguments",
    "lints",
    "upstream",
    "upstream-tool",
    "upstream-digest",
];
const TYPE_KEYS: &[&str] = &[
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
const FIELD_ONLY_KEYS: &[&str] = &["required", "default", "rust-name"];
const TYPE_NAMES: &[&str] = &["string", "integer", "number", "boolean", "array", "object"];

/// Upper bound on `search-results`: more hits than this floods the model's context.
pub(crate) const MAX_SEARCH_RESULTS: i64 = 50;

/// Parses the whole file. Syntax errors stop here (all of them are reported); otherwise
/// every row is read and every local error recorded.
pub(crate) fn parse(source: &str, errors: &mut Errors) -> Option<RawCatalog> {
    let (raw, syntax_ok) = read(source, errors);
    syntax_ok.then_some(raw)
}

/// [`parse`], reading what TOML recovery keeps after a syntax error too (the skeleton of a
/// catalog with errors still names those rows); the flag is whether the syntax was valid.
pub(crate) fn read(source: &str, errors: &mut Errors) -> (RawCatalog, bool) {
    let (doc, syntax) = DeTable::parse_recoverable(source);
    let syntax_ok = syntax.is_empty();
    for e in syntax {
        let span = e.span().unwrap_or(0..0);
        errors.push(
            Diagnostic::new(span, format!("invalid TOML: {}", e.message().trim_end()))
                .help("fix the TOML syntax; the catalog is read only once it parses"),
        );
    }
    // After a syntax error only the syntax is reported: the rest is read, not judged.
    let mut unjudged = Errors::default();
    let errors = if syntax_ok { errors } else { &mut unjudged };
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
    (raw, syntax_ok)
}

/// What the skeleton of a catalog that may have errors is generated from (see
/// `expand::skeleton`).
pub(crate) fn outline(source: &str) -> Outline {
    crate::expand::outline(source)
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
        search_results: t
            .take("search-results")
            .and_then(|(v, _)| count(v, "search-results", 1, MAX_SEARCH_RESULTS, errors)),
        searches_per_turn: t
            .take("searches-per-turn")
            .and_then(|(v, _)| count(v, "searches-per-turn", 1, 1000, errors)),
        keep_discovered: t.take("keep-discovered").and_then(|(v, _)| {
            let options = [Retention::Turn, Retention::Conversation].map(|r| (r.as_str(), r));
            choice(v, "keep-discovered", &options, errors)
        }),
        language: t.take("language").and_then(|(v, _)| {
            let options = Language::ALL.map(|l| (l.code(), l));
            choice(v, "language", &options, errors)
        }),
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
        visibility: t.take("visibility").and_then(|(v, _)| {
            choice(
                v,
                "visibility",
                &[
                    ("inline", Visibility::Inline),
                    ("discoverable", Visibility::Discoverable),
                ],
                errors,
            )
        }),
        tier: t.take("tier").and_then(|(v, _)| {
            choice(
                v,
                "tier",
                &[("silent", Tier::Silent), ("gated", Tier::Gated)],
                errors,
            )
        }),
        access: t.take("access").and_then(|(v, _)| {
            let levels = Access::ALL.map(|a| (a.as_str(), a));
            choice(v, "access", &levels, errors)
        }),
        mcp: t.take("mcp").and_then(|(v, _)| boolean(v, "mcp", errors)),
        arguments: t
            .take("arguments")
            .and_then(|(v, _)| choice(v, "arguments", &Arguments::ALL, errors)),
        params: None,
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

/// Reads the catalog's `[lints]` table: each lint's level, as a string, or a table with
/// `level` and the lint's settings.
fn lints(t: &DeTable<'_>, errors: &mut Errors) -> lint::Config {
    let mut config = lint::Config::default();
    for (key, v) in t {
        let Some(id) = lint_name(key, "`[lints]`", errors) else {
            continue;
        };
        let info = id.info();
        let DeValue::Table(entry) = v.get_ref() else {
            if let Some((level, _)) = lint_level(v, info.name, errors) {
                config.set_level(id, level);
            }
            continue;
        };
        let mut entry = Table::new(entry, v.span(), &format!("lint `{}`", info.name));
        if let Some((level, _)) = entry
            .take("level")
            .and_then(|(v, _)| lint_level(v, "level", errors))
        {
            config.set_level(id, level);
        }
        for s in info.settings {
            if let Some(value) = entry
                .take(s.name)
                .and_then(|(v, _)| lint_setting(v, info.name, s, errors))
            {
                config.set(id, s.name, value);
            }
        }
        let known: Vec<&str> = ["level"]
            .into_iter()
            .chain(info.settings.iter().map(|s| s.name))
            .collect();
        entry.finish(&known, errors);
    }
    config
}

/// Reads a row's `[tool.lints]`: levels only, for lints about a row.
fn row_lints(t: &DeTable<'_>, errors: &mut Errors) -> BTreeMap<LintId, Level> {
    let mut out = BTreeMap::new();
    for (key, v) in t {
        let Some(id) = lint_name(key, "`[tool.lints]`", errors) else {
            continue;
        };
        let name = id.name();
        if id.info().scope == Scope::Catalog {
            errors.push(
                Diagnostic::new(key.span(), format!("`{name}` is about the whole catalog, not one row"))
                    .help(format!("set it in the catalog's `[lints]` table: `{name} = \"allow\"`, `\"warn\"` or `\"deny\"`")),
            );
            continue;
        }
        if let DeValue::Table(_) = v.get_ref() {
            errors.push(
                Diagnostic::new(v.span(), format!("a row sets only the level of `{name}`"))
                    .help(format!("write `{name} = \"warn\"` (or allow, deny) here, and put settings in the catalog's `[lints]` table")),
            );
            continue;
        }
        if let Some((level, _)) = lint_level(v, name, errors) {
            out.insert(id, level);
        }
    }
    out
}

/// A lint named by a key, or an error naming the closest lint.
fn lint_name(
    key: &Spanned<std::borrow::Cow<'_, str>>,
    what: &str,
    errors: &mut Errors,
) -> Option<LintId> {
    let name = key.get_ref().as_ref();
    if let Some(id) = LintId::from_name(name) {
        return Some(id);
    }
    let all: Vec<&str> = lint::LINTS.iter().map(|l| l.name).collect();
    let d = Diagnostic::new(key.span(), format!("unknown lint `{name}` in {what}"));
    errors.push(match suggest(name, &all) {
        Some(s) => d.help(format!("did you mean `{s}`?")),
        None => d.help(format!("the lints are: {}", all.join(", "))),
    });
    None
}

fn lint_level(v: &Spanned<DeValue<'_>>, key: &str, errors: &mut Errors) -> Option<At<Level>> {
    let levels = Level::ALL.map(|l| (l.as_str(), l));
    choice(v, key, &levels, errors)
}

fn lint_setting(
    v: &Spanned<DeValue<'_>>,
    lint: &str,
    s: &lint::Setting,
    errors: &mut Errors,
) -> Option<f64> {
    let x = number(v, s.name, errors)?;
    let whole = if s.whole {
        "a whole number"
    } else {
        "a number"
    };
    if x < s.min || x > s.max || (s.whole && x.fract() != 0.0) {
        errors.push(
            Diagnostic::new(v.span(), format!("`{}` of lint `{lint}` is {x}", s.name))
                .help(format!("use {whole} from {} to {}", s.min, s.max)),
        );
        return None;
    }
    Some(x)
}

/// Reads a table of named fields (`params`, or an object's `properties`).
fn fields(t: &DeTable<'_>, what: &str, errors: &mut Errors) -> Vec<Field> {
    let mut out = Vec::new();
    for (key, value) in t {
        let name = key.get_ref().to_string();
        check_field_name(&name, key.span(), what, errors);
        let Some(spec) = table(value, &format!("{what} `{name}`"), errors) else {
            continue;
        };
        let (ty, extra) = type_spec(
            spec,
            value.span(),
            &format!("{what} `{name}`"),
            true,
            errors,
        );
        let Extra {
            required,
            default,
            rust_name,
        } = extra;
        let default = default.and_then(|(v, span)| check_default(&ty, v, span, errors));
        let required = match (required, &default) {
            (Some((true, span)), Some(_)) => {
                errors.push(
                    Diagnostic::new(span, format!("{what} `{name}` is required and has a default"))
                        .help("a default only applies when the value is left out: remove `required = true` (a field with a default is optional) or remove `default`"),
                );
                false
            }
            (Some((r, _)), _) => r,
            (None, d) => d.is_none(),
        };
        out.push(Field {
            name,
            span: key.span(),
            rust_name,
            ty,
            required,
            default,
        });
    }
    out
}

fn check_field_name(name: &str, span: Span, what: &str, errors: &mut Errors) {
    let ok = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
    if !ok {
        errors.push(
            Diagnostic::new(
                span,
                format!("{what} name `{name}` is not accepted by model providers"),
            )
            .help("use 1 to 64 characters of A-Z a-z 0-9 _ . -"),
        );
    }
}

/// The keys only a field (a parameter or property) may carry.
struct Extra {
    required: Option<At<bool>>,
    default: Option<At<Value>>,
    rust_name: Option<String>,
}

/// Reads a type; `field` says whether `required` and `default` may appear (parameters and
/// properties), as opposed to `items` and `output`.
fn type_spec(
    t: &DeTable<'_>,
    span: Span,
    what: &str,
    field: bool,
    errors: &mut Errors,
) -> (TypeSpec, Extra) {
    let mut t = Table::new(t, span.clone(), what);
    let description = t
        .take("description")
        .and_then(|(v, _)| string(v, "description", errors))
        .map(|(s, _)| s);
    let mut extra = Extra {
        required: None,
        default: None,
        rust_name: None,
    };
    if field {
        extra.rust_name = t
            .take("rust-name")
            .and_then(|(v, _)| rust_ident(v, errors))
            .map(|(s, _)| s);
        extra.required = t
            .take("required")
            .and_then(|(v, _)| boolean(v, "required", errors));
        extra.default = t
            .take("default")
            .and_then(|(v, _)| json(v, errors).map(|j| (j, v.span())));
    }
    let schema = t.take("schema");
    let ty = t.take("type");
    let values = t.take("enum");
    let items = t.take("items");
    let properties = t.take("properties");
    let minimum = t
        .take("minimum")
        .and_then(|(v, _)| number(v, "minimum", errors));
    let maximum = t
        .take("maximum")
        .and_then(|(v, _)| number(v, "maximum", errors));
    let field_keys = [TYPE_KEYS, FIELD_ONLY_KEYS].concat();
    let seen = t.finish(if field { &field_keys } else { TYPE_KEYS }, errors);
    let keys = &seen.taken;

    let kind = if let Some((raw, _)) = schema {
        for key in ["type", "enum", "items", "properties", "minimum", "maximum"] {
            if let Some(span) = keys.get(key) {
                errors.push(
                    Diagnostic::new(span.clone(), format!("`schema` replaces `{key}` ({what})"))
                        .help(format!(
                            "remove `{key}`, or remove `schema` and use the type keys only"
                        )),
                );
            }
        }
        raw_schema(raw, "schema", errors)
    } else if let Some((v, _)) = ty {
        match string(v, "type", errors) {
            None => Kind::Raw(Value::Object(Map::new())),
            Some((name, tspan)) => {
                let parts = Parts {
                    values,
                    items,
                    properties,
                    minimum,
                    maximum,
                };
                declared_kind(&name, tspan, parts, keys, what, errors)
            }
        }
    } else {
        // A misspelt `type` (`tpye`) is already reported as an unknown key.
        if !seen.has("type") {
            errors.push(
            Diagnostic::new(span.clone(), format!("{what} has no `type`"))
                .help("add `type = \"string\"` (or integer, number, boolean, array, object), or `schema = '...'` for a JSON Schema the type language cannot express"),
        );
        }
        Kind::Raw(Value::Object(Map::new()))
    };
    keys_apply(&kind, keys, what, errors);
    (
        TypeSpec {
            kind,
            description,
            span,
        },
        extra,
    )
}

/// The keys that shape a declared `type`.
struct Parts<'a, 'i> {
    values: Option<(&'a Spanned<DeValue<'i>>, Span)>,
    items: Option<(&'a Spanned<DeValue<'i>>, Span)>,
    properties: Option<(&'a Spanned<DeValue<'i>>, Span)>,
    minimum: Option<f64>,
    maximum: Option<f64>,
}

/// The kind a `type = "..."` declares, read with the keys that shape it.
fn declared_kind(
    name: &str,
    tspan: Span,
    parts: Parts<'_, '_>,
    keys: &std::collections::HashMap<String, Span>,
    what: &str,
    errors: &mut Errors,
) -> Kind {
    let Parts {
        values,
        items,
        properties,
        minimum,
        maximum,
    } = parts;
    match name {
        "string" => Kind::String {
            values: values.and_then(|(v, _)| enum_values(v, errors)),
        },
        "integer" | "number" => {
            if let (Some(lo), Some(hi)) = (minimum, maximum)
                && lo > hi
            {
                errors.push(
                    Diagnostic::new(
                        keys["minimum"].clone(),
                        format!("`minimum` {lo} is above `maximum` {hi} ({what})"),
                    )
                    .help("swap the bounds"),
                );
            }
            if name == "integer" {
                Kind::Integer { minimum, maximum }
            } else {
                Kind::Number { minimum, maximum }
            }
        }
        "boolean" => Kind::Boolean,
        "array" => {
            if let Some((v, _)) = items {
                match table(v, &format!("{what} items"), errors) {
                    Some(it) => Kind::Array(Box::new(
                        type_spec(it, v.span(), &format!("{what} items"), false, errors).0,
                    )),
                    None => Kind::Raw(Value::Object(Map::new())),
                }
            } else {
                errors.push(
                    Diagnostic::new(tspan, format!("array without `items` ({what})"))
                        .help("say what the array holds, e.g. `items = { type = \"string\" }`"),
                );
                Kind::Raw(Value::Object(Map::new()))
            }
        }
        "object" => Kind::Object(properties.and_then(|(v, _)| {
            table(v, &format!("{what} properties"), errors).map(|p| fields(p, "property", errors))
        })),
        other => {
            errors.push(unknown_value(tspan, "type", other, TYPE_NAMES));
            Kind::Raw(Value::Object(Map::new()))
        }
    }
}

/// Reports keys that do not apply to the kind declared (`items` on a string, ...).
fn keys_apply(
    kind: &Kind,
    keys: &std::collections::HashMap<String, Span>,
    what: &str,
    errors: &mut Errors,
) {
    let not_for = |key: &str, kind: &str, errors: &mut Errors| {
        if let Some(span) = keys.get(key) {
            errors.push(
                Diagnostic::new(
                    span.clone(),
                    format!("`{key}` does not apply to {kind} ({what})"),
                )
                .help(format!("remove `{key}`")),
            );
        }
    };

    match kind {
        Kind::String { .. } => {
            not_for("items", "a string", errors);
            not_for("properties", "a string", errors);
            not_for("minimum", "a string", errors);
            not_for("maximum", "a string", errors);
        }
        Kind::Integer { .. } | Kind::Number { .. } => {
            for k in ["enum", "items", "properties"] {
                not_for(k, "a number", errors);
            }
        }
        Kind::Boolean => {
            for k in ["enum", "items", "properties", "minimum", "maximum"] {
                not_for(k, "a boolean", errors);
            }
        }
        Kind::Array(_) => {
            for k in ["enum", "properties", "minimum", "maximum"] {
                not_for(k, "an array", errors);
            }
        }
        Kind::Object(_) => {
            for k in ["enum", "items", "minimum", "maximum"] {
                not_for(k, "an object", errors);
            }
        }
        Kind::Raw(_) => {}
    }
}

fn enum_values(v: &Spanned<DeValue<'_>>, errors: &mut Errors) -> Option<Vec<String>> {
    let values = strings(v, "enum", errors);
    if values.is_empty() {
        errors.push(
            Diagnostic::new(v.span(), "`enum` is empty: no value could ever be passed").help(
                "list the allowed values, e.g. `enum = [\"asc\", \"desc\"]`, or remove `enum`",
            ),
        );
        return None;
    }
    let mut seen = std::collections::BTreeSet::new();
    for s in &values {
        if !seen.insert(s.as_str()) {
            errors.push(
                Diagnostic::new(v.span(), format!("`enum` lists `{s}` twice"))
                    .help("remove the repeated value"),
            );
        }
    }
    Some(values)
}

fn raw_schema(v: &Spanned<DeValue<'_>>, key: &str, errors: &mut Errors) -> Kind {
    let Some((text, span)) = string(v, key, errors) else {
        return Kind::Raw(Value::Object(Map::new()));
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(schema @ (Value::Object(_) | Value::Bool(_))) => Kind::Raw(schema),
        Ok(_) => {
            errors.push(
                Diagnostic::new(
                    span,
                    format!("`{key}` must hold a JSON object (a JSON Schema)"),
                )
                .help(format!(
                    "write it as a single-quoted TOML string: {key} = '{{\"type\": \"string\"}}'"
                )),
            );
            Kind::Raw(Value::Object(Map::new()))
        }
        Err(e) => {
            errors.push(
                Diagnostic::new(span, format!("`{key}` is not valid JSON: {e}")).help(format!(
                    "write it as a single-quoted TOML string: {key} = '{{\"type\": \"string\"}}'"
                )),
            );
            Kind::Raw(Value::Object(Map::new()))
        }
    }
}

/// Checks a default against its type; returns it when it fits.
fn check_default(ty: &TypeSpec, value: Value, span: Span, errors: &mut Errors) -> Option<Value> {
    match fits(&ty.kind, &value) {
        Ok(()) => Some(value),
        Err(why) => {
            errors.push(
                Diagnostic::new(span, format!("default {value} {why}"))
                    .help("give a default of the declared type, or remove it"),
            );
            None
        }
    }
}

/// Whether a JSON value fits a kind; the reason when it does not.
fn fits(kind: &Kind, v: &Value) -> Result<(), String> {
    match (kind, v) {
        (Kind::String { values: Some(vals) }, Value::String(s)) if !vals.contains(s) => Err(
            format!("is not one of the enum values ({})", vals.join(", ")),
        ),
        (Kind::String { .. }, Value::String(_))
        | (Kind::Boolean, Value::Bool(_))
        | (Kind::Object(None), Value::Object(_))
        | (Kind::Raw(_), _) => Ok(()),
        (Kind::Integer { minimum, maximum }, Value::Number(n)) if n.is_i64() || n.is_u64() => {
            in_range(n.as_f64().unwrap_or(0.0), *minimum, *maximum)
        }
        (Kind::Number { minimum, maximum }, Value::Number(n)) => {
            in_range(n.as_f64().unwrap_or(0.0), *minimum, *maximum)
        }
        (Kind::Array(item), Value::Array(xs)) => xs.iter().try_for_each(|x| fits(&item.kind, x)),
        (Kind::Object(Some(props)), Value::Object(map)) => {
            for (k, x) in map {
                let p = props
                    .iter()
                    .find(|p| &p.name == k)
                    .ok_or_else(|| format!("has unknown property `{k}`"))?;
                fits(&p.ty.kind, x)?;
            }
            match props
                .iter()
                .find(|p| p.required && !map.contains_key(&p.name))
            {
                Some(p) => Err(format!("lacks required property `{}`", p.name)),
                None => Ok(()),
            }
        }
        (k, _) => Err(format!("is not {}", kind_name(k))),
    }
}

fn in_range(x: f64, lo: Option<f64>, hi: Option<f64>) -> Result<(), String> {
    match (lo, hi) {
        (Some(lo), _) if x < lo => Err(format!("is below the minimum {lo}")),
        (_, Some(hi)) if x > hi => Err(format!("is above the maximum {hi}")),
        _ => Ok(()),
    }
}

fn kind_name(k: &Kind) -> &'static str {
    match k {
        Kind::String { .. } => "a string",
        Kind::Integer { .. } => "an integer",
        Kind::Number { .. } => "a number",
        Kind::Boolean => "a boolean",
        Kind::Array(_) => "an array",
        Kind::Object(_) => "an object",
        Kind::Raw(_) => "a value",
    }
}

/// A table's entries, taken one by one so that what is left at the end is unknown.
struct Table<'a, 'i> {
    entries: Vec<(
        &'a Spanned<std::borrow::Cow<'i, str>>,
        &'a Spanned<DeValue<'i>>,
    )>,
    taken: Vec<(&'a str, Span)>,
    span: Span,
    what: String,
}

impl<'a, 'i> Table<'a, 'i> {
    fn new(t: &'a DeTable<'i>, span: Span, what: &str) -> Self {
        Table {
            entries: t.iter().collect(),
            taken: Vec::new(),
            span,
            what: what.to_string(),
        }
    }

    fn take(&mut self, key: &str) -> Option<(&'a Spanned<DeValue<'i>>, Span)> {
        let i = self.entries.iter().position(|(k, _)| k.get_ref() == key)?;
        let (k, v) = self.entries.remove(i);
        self.taken.push((k.get_ref().as_ref(), k.span()));
        Some((v, k.span()))
    }

    /// Reports every key not taken, with the closest known key as a suggestion, and
    /// returns which keys the table had.
    fn finish(self, known: &[&str], errors: &mut Errors) -> Seen {
        let _ = &self.span;
        let mut meant = std::collections::BTreeSet::new();
        for (k, _) in &self.entries {
            let key = k.get_ref().as_ref();
            let mut d = Diagnostic::new(k.span(), format!("unknown key `{key}` in {}", self.what));
            d = match suggest(key, known) {
                Some(s) => {
                    meant.insert(s.to_string());
                    d.help(format!("did you mean `{s}`?"))
                }
                None => d.help(format!("the keys here are: {}", known.join(", "))),
            };
            errors.push(d);
        }
        Seen {
            taken: self
                .taken
                .into_iter()
                .map(|(k, s)| (k.to_string(), s))
                .collect(),
            meant,
        }
    }
}

/// The keys a table had: the known ones, valid or not, and the known keys that its unknown
/// ones most likely meant. A rule that a key is missing asks [`Seen::has`] first, so
/// `tier = "silentt"` or `tiér = "silent"` is reported once, not also as a missing `tier`.
#[derive(Default, Debug)]
pub(crate) struct Seen {
    /// Every known key written, and where.
    pub taken: std::collections::HashMap<String, Span>,
    /// Known keys that an unknown key was taken for (`visiblity` → `visibility`).
    pub meant: std::collections::BTreeSet<String>,
}

impl Seen {
    /// Whether the key was written, or likely meant by a misspelt key.
    pub fn has(&self, key: &str) -> bool {
        self.taken.contains_key(key) || self.meant.contains(key)
    }
}

/// The closest candidate, when it is close enough to be a likely typo.
pub(crate) fn suggest<'c>(word: &str, candidates: &[&'c str]) -> Option<&'c str> {
    candidates
        .iter()
        .map(|c| {
            (
                strsim::jaro_winkler(&word.to_lowercase(), &c.to_lowercase()),
                *c,
            )
        })
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

fn unknown_value(span: Span, key: &str, value: &str, allowed: &[&str]) -> Diagnostic {
    let d = Diagnostic::new(span, format!("`{value}` is not a valid `{key}`"));
    let list = allowed
        .iter()
        .map(|a| format!("`{a}`"))
        .collect::<Vec<_>>()
        .join(", ");
    match suggest(value, allowed) {
        Some(s) => d.help(format!("did you mean `{s}`? `{key}` is one of {list}")),
        None => d.help(format!("`{key}` is one of {list}")),
    }
}

fn table<'a, 'i>(
    v: &'a Spanned<DeValue<'i>>,
    what: &str,
    errors: &mut Errors,
) -> Option<&'a DeTable<'i>> {
    match v.get_ref() {
        DeValue::Table(t) => Some(t),
        other => {
            errors.push(
                Diagnostic::new(
                    v.span(),
                    format!("{what} must be a table, found {}", other.type_str()),
                )
                .help("write it as `key = { ... }` or as a `[section]`"),
            );
            None
        }
    }
}

/// A `rust-name`: a plain Rust identifier (not a keyword).
fn rust_ident(v: &Spanned<DeValue<'_>>, errors: &mut Errors) -> Option<At<String>> {
    let (s, span) = string(v, "rust-name", errors)?;
    if syn::parse_str::<syn::Ident>(&s).is_err() {
        errors.push(
            Diagnostic::new(span, format!("`rust-name` `{s}` is not a Rust identifier"))
                .help("use letters, digits and `_`, not starting with a digit, and not a keyword"),
        );
        return None;
    }
    Some((s, span))
}

fn string(v: &Spanned<DeValue<'_>>, key: &str, errors: &mut Errors) -> Option<At<String>> {
    if let Some(s) = v.get_ref().as_str() {
        return Some((s.to_string(), v.span()));
    }
    errors.push(wrong_type(v, key, "a string"));
    None
}

/// A string with something in it.
fn non_empty(v: &Spanned<DeValue<'_>>, key: &str, errors: &mut Errors) -> Option<At<String>> {
    let (s, span) = string(v, key, errors)?;
    if s.trim().is_empty() {
        errors.push(
            Diagnostic::new(span, format!("`{key}` is empty"))
                .help(format!("write the value, or remove `{key}`")),
        );
        return None;
    }
    Some((s, span))
}

/// `upstream-digest`: `sha256:` and 64 lowercase hex digits.
fn digest(v: &Spanned<DeValue<'_>>, errors: &mut Errors) -> Option<At<String>> {
    let (s, span) = string(v, "upstream-digest", errors)?;
    if !digests::is_digest(&s) {
        errors.push(
            Diagnostic::new(span, format!("`upstream-digest` `{s}` is not a SHA-256 digest"))
                .help("write `sha256:` and 64 lowercase hex digits, as the importer writes them: import the tool again to get its digest"),
        );
        return None;
    }
    Some((s, span))
}

fn boolean(v: &Spanned<DeValue<'_>>, key: &str, errors: &mut Errors) -> Option<At<bool>> {
    if let Some(b) = v.get_ref().as_bool() {
        return Some((b, v.span()));
    }
    errors.push(wrong_type(v, key, "`true` or `false`"));
    None
}

fn number(v: &Spanned<DeValue<'_>>, key: &str, errors: &mut Errors) -> Option<f64> {
    match json(v, errors) {
        Some(Value::Number(n)) => n.as_f64(),
        Some(_) => {
            errors.push(wrong_type(v, key, "a number"));
            None
        }
        None => None,
    }
}

fn count(
    v: &Spanned<DeValue<'_>>,
    key: &str,
    lo: i64,
    hi: i64,
    errors: &mut Errors,
) -> Option<At<usize>> {
    let n = match json(v, errors) {
        Some(Value::Number(n)) if n.is_i64() => n.as_i64().unwrap_or(0),
        Some(_) => {
            errors.push(wrong_type(v, key, "an integer"));
            return None;
        }
        None => return None,
    };
    if n < lo || n > hi {
        errors.push(
            Diagnostic::new(v.span(), format!("`{key}` is {n}"))
                .help(format!("use a whole number from {lo} to {hi}")),
        );
        return None;
    }
    usize::try_from(n).ok().map(|n| (n, v.span()))
}

fn strings(v: &Spanned<DeValue<'_>>, key: &str, errors: &mut Errors) -> Vec<String> {
    spanned_strings(v, key, errors)
        .into_iter()
        .map(|(s, _)| s)
        .collect()
}

/// A list of non-empty strings, each with where it is written.
fn spanned_strings(v: &Spanned<DeValue<'_>>, key: &str, errors: &mut Errors) -> Vec<At<String>> {
    let DeValue::Array(items) = v.get_ref() else {
        errors.push(wrong_type(v, key, "a list of strings"));
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items {
        match item.get_ref().as_str() {
            Some(s) if !s.trim().is_empty() => out.push((s.to_string(), item.span())),
            Some(_) => errors.push(
                Diagnostic::new(item.span(), format!("empty string in `{key}`")).help("remove it"),
            ),
            None => errors.push(wrong_type(item, key, "a string")),
        }
    }
    out
}

fn choice<T: Copy>(
    v: &Spanned<DeValue<'_>>,
    key: &str,
    options: &[(&str, T)],
    errors: &mut Errors,
) -> Option<At<T>> {
    let (s, span) = string(v, key, errors)?;
    if let Some((_, t)) = options.iter().find(|(name, _)| *name == s) {
        return Some((*t, span));
    }
    let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
    errors.push(unknown_value(span, key, &s, &names));
    None
}

fn wrong_type(v: &Spanned<DeValue<'_>>, key: &str, expected: &str) -> Diagnostic {
    Diagnostic::new(
        v.span(),
        format!(
            "`{key}` must be {expected}, found {}",
            v.get_ref().type_str()
        ),
    )
    .help(format!("write `{key}` as {expected}"))
}

/// Converts a TOML value to JSON, the form defaults and schemas take.
fn json(v: &Spanned<DeValue<'_>>, errors: &mut Errors) -> Option<Value> {
    Some(match v.get_ref() {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Integer(i) => {
            let digits = i.as_str().replace('_', "");
            let (neg, digits) = match digits.strip_prefix('-') {
                Some(d) => (true, d.to_string()),
                None => (false, digits.trim_start_matches('+').to_string()),
            };
            let digits = if i.radix() == 10 {
                digits.as_str()
            } else {
                &digits[2..]
            };
            if let Ok(n) = i64::from_str_radix(digits, i.radix()) {
                Value::from(if neg { -n } else { n })
            } else {
                errors.push(
                    Diagnostic::new(v.span(), "integer out of range")
                        .help("use a value that fits in 64 bits"),
                );
                return None;
            }
        }
        DeValue::Float(f) => {
            let x: f64 = f.as_str().replace('_', "").parse().unwrap_or(f64::NAN);
            if let Some(n) = Number::from_f64(x) {
                Value::Number(n)
            } else {
                errors.push(
                    Diagnostic::new(v.span(), "`inf` and `nan` are not JSON numbers")
                        .help("use a finite number"),
                );
                return None;
            }
        }
        DeValue::Datetime(_) => {
            errors.push(
                Diagnostic::new(v.span(), "a TOML datetime has no JSON form")
                    .help("quote it as a string"),
            );
            return None;
        }
        DeValue::Array(items) => Value::Array(
            items
                .iter()
                .map(|x| json(x, errors))
                .collect::<Option<_>>()?,
        ),
        DeValue::Table(t) => {
            let mut map = Map::new();
            for (k, x) in t {
                map.insert(k.get_ref().to_string(), json(x, errors)?);
            }
            Value::Object(map)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The editor schema is a second list of the format's keys; it must match the parser's.
    #[test]
    fn editor_schema_lists_exactly_the_keys_the_parser_reads() {
        let text = include_str!("../../catalog.schema.json");
        let schema: Value = serde_json::from_str(text).unwrap();
        let keys = |def: &str| -> Vec<String> {
            let mut k: Vec<String> = schema["definitions"][def]["properties"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect();
            k.sort();
            k
        };
        let sorted = |list: &[&str]| -> Vec<String> {
            let mut k: Vec<String> = list.iter().map(ToString::to_string).collect();
            k.sort();
            k
        };
        let mut top: Vec<String> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        top.sort();
        assert_eq!(top, sorted(TOP_KEYS));
        assert_eq!(keys("settings"), sorted(SETTINGS_KEYS));
        assert_eq!(keys("tool"), sorted(TOOL_KEYS));
        assert_eq!(keys("upstream"), sorted(upstream::UPSTREAM_KEYS));
        assert_eq!(keys("typeSpec"), sorted(TYPE_KEYS));
        assert_eq!(
            keys("param"),
            sorted(&[TYPE_KEYS, FIELD_ONLY_KEYS].concat())
        );
        // Lints: every registered lint, its settings with their defaults and ranges, and
        // the row-scoped ones in `[tool.lints]`.
        let names = |scope: Option<Scope>| -> Vec<String> {
            let list: Vec<&str> = lint::LINTS
                .iter()
                .filter(|l| scope.is_none_or(|s| l.scope == s))
                .map(|l| l.name)
                .collect();
            sorted(&list)
        };
        assert_eq!(keys("lints"), names(None));
        assert_eq!(keys("toolLints"), names(Some(Scope::Row)));
        for l in lint::LINTS {
            let entry = &schema["definitions"]["lints"]["properties"][l.name];
            let table = entry["oneOf"]
                .as_array()
                .and_then(|v| v.iter().find(|x| x["type"] == "object"));
            let Some(table) = table else {
                assert!(l.settings.is_empty(), "{} has settings", l.name);
                continue;
            };
            let mut want = vec!["level"];
            want.extend(l.settings.iter().map(|s| s.name));
            let mut got: Vec<String> = table["properties"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect();
            got.sort();
            assert_eq!(got, sorted(&want), "{}", l.name);
            for s in l.settings {
                let p = &table["properties"][s.name];
                assert_eq!(p["default"].as_f64(), Some(s.default), "{}", s.name);
                assert_eq!(p["minimum"].as_f64(), Some(s.min), "{}", s.name);
                assert_eq!(p["maximum"].as_f64(), Some(s.max), "{}", s.name);
                let ty = if s.whole { "integer" } else { "number" };
                assert_eq!(p["type"], ty, "{}", s.name);
            }
        }
    }
}
