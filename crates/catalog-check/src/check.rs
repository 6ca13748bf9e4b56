//! Rules across keys and rows, one function each, and the lowering of raw rows into the
//! model. Every rule records its errors and lets the others run.
//! The rules that names stay distinct are in `unique`.

use std::collections::HashMap;

use catalog_core::{Access, Effect, Tier, Visibility};
use serde_json::Value;

use crate::diag::{Diagnostic, Errors, Span};
use crate::model::{
    Arguments, CatalogModel, Field, Policy, Role, SettingsTable, Source, Tool, ToolSpans, Upstream,
    search_query, takes_query,
};
use crate::names::suggest;
use crate::parse::{At, RawCatalog, RawSettings, RawTool};

mod headers;
mod offers;
mod task;
mod unique;

pub(crate) use unique::distinct_fields;
use unique::{
    json_names_free, rust_names, type_names, unique_names, unique_upstreams, unique_wire_names,
};

/// Validates the raw catalog and builds the model. When any rule failed, or `errors` held
/// errors already, what the rules decided about each row instead: what the skeleton of a
/// catalog with errors is generated from, so the file is read and checked only once.
pub(crate) fn lower(raw: RawCatalog, errors: &mut Errors) -> Result<CatalogModel, Decisions> {
    let row_count = raw.tools.len();
    let names: Vec<Option<&str>> = raw
        .tools
        .iter()
        .map(|t| t.name.as_ref().map(|(n, _)| n.as_str()))
        .collect();
    let well_named = unique_names(&raw.tools, errors);
    let valid_rows: Vec<(&str, &Span)> = raw
        .tools
        .iter()
        .zip(&well_named)
        .filter(|(_, ok)| ok.is_some())
        .filter_map(|(row, _)| row.name.as_ref().map(|(n, s)| (n.as_str(), s)))
        .collect();
    unique_wire_names(&valid_rows, errors);
    let roles = settings(
        raw.settings.as_ref(),
        raw.seen.has("settings"),
        &raw.tools,
        &names,
        errors,
    );
    type_names(&raw.tools, &well_named, errors);
    let upstreams = unique_upstreams(raw.upstreams, errors);
    let sources = sources(&raw.tools, &upstreams, &roles, errors);
    let declared: Vec<&str> = upstreams.iter().map(|(n, _)| n.as_str()).collect();
    let offers = offers::offers(raw.offers, &declared, errors);
    let lints = raw.lints;
    let arguments = raw
        .settings
        .as_ref()
        .and_then(|s| s.arguments.as_ref())
        .map_or(Arguments::default(), |(a, _)| *a);
    // Each row is lowered on its own: runs of rows on the threads the caller allows, each run's errors kept
    // in row order, so they come out as one loop would push them.
    let rows: Vec<(usize, RawTool, Option<Source>)> = raw
        .tools
        .into_iter()
        .zip(sources)
        .enumerate()
        .map(|(i, (row, source))| (i, row, source))
        .collect();
    let lowered = crate::threads::map_owned(crate::threads::in_runs(rows), |run| {
        let mut errors = Errors::default();
        let tools: Vec<Lowered> = run
            .into_iter()
            .map(|(i, row, source)| {
                let is_search = roles.search == Some(i);
                let row_arguments = arguments_of(&row, is_search, arguments, &mut errors);
                let params_span = row.params.as_ref().map(|(_, span)| span.clone());
                let tool = tool(row, is_search, roles.ask == Some(i), &mut errors).map(|mut t| {
                    t.arguments = row_arguments;
                    t.upstream = source;
                    t
                });
                Lowered {
                    tool,
                    arguments: row_arguments,
                    params_span,
                }
            })
            .collect();
        (tools, errors)
    });
    let mut tools: Vec<Lowered> = Vec::with_capacity(row_count);
    for (run, found) in lowered {
        tools.extend(run);
        errors.extend(found);
    }
    json_names_free(tools.iter().filter_map(|t| t.tool.as_ref().ok()), errors);
    let complete = errors.is_empty() && tools.iter().all(|t| t.tool.is_ok());
    match roles.settings {
        Some(settings) if complete => Ok(CatalogModel {
            settings,
            tools: tools.into_iter().filter_map(|t| t.tool.ok()).collect(),
            lints,
            upstreams: upstreams.into_iter().filter_map(|(_, u)| u).collect(),
            offers,
        }),
        _ => Err(Decisions {
            rows: tools
                .into_iter()
                .zip(well_named)
                .map(|(t, variant)| t.decided(variant))
                .collect(),
            search: roles.search,
            ask: roles.ask,
        }),
    }
}

/// What [`lower`] decided about a catalog with errors, its errors set aside: what the
/// skeleton is generated from, so it names the items a valid catalog would.
#[derive(Debug)]
pub(crate) struct Decisions {
    /// Every row, in file order.
    pub rows: Vec<RowDecision>,
    /// The row treated as the search tool, if any.
    pub search: Option<usize>,
    /// The row `ask-tool` names, if any.
    pub ask: Option<usize>,
}

/// What [`lower`] decided about one row of a catalog with errors, and its inputs as read.
#[derive(Debug)]
pub(crate) struct RowDecision {
    /// Its name, where the name is written, and its `Tool` variant, when the name passes
    /// ([`unique_names`]).
    pub named: Option<(String, Span, String)>,
    /// How its arguments reach the handler ([`arguments_of`]).
    pub arguments: Arguments,
    /// Its parameters as read, and where they are written.
    pub params: Option<At<Vec<Field>>>,
    /// Its `input-schema` as read, and where it is written.
    pub input_schema: Option<At<Value>>,
}

/// A row as [`lower`] lowered it.
struct Lowered {
    /// The tool, when every rule of the row passed; else what the skeleton reads of it.
    tool: Result<Tool, Box<Leftover>>,
    /// How its arguments reach the handler ([`arguments_of`]).
    arguments: Arguments,
    /// Where its `params` are written, which the tool does not keep.
    params_span: Option<Span>,
}

/// What the skeleton reads of a row whose own rules failed.
struct Leftover {
    name: Option<At<String>>,
    params: Option<At<Vec<Field>>>,
    input_schema: Option<At<Value>>,
}

impl Lowered {
    /// The row's [`RowDecision`], given its variant when its name passed.
    fn decided(self, variant: Option<String>) -> RowDecision {
        let (name, params, input_schema) = match self.tool {
            Ok(t) => (
                Some((t.name, t.name_span)),
                self.params_span.map(|span| (t.params, span)),
                t.input_schema.zip(t.spans.input_schema),
            ),
            Err(left) => (left.name, left.params, left.input_schema),
        };
        RowDecision {
            named: name
                .zip(variant)
                .map(|((name, span), variant)| (name, span, variant)),
            arguments: self.arguments,
            params,
            input_schema,
        }
    }
}

/// Where each row's tool comes from: `upstream` names a declared upstream (not for the
/// search and ask tools, which the agent loop answers) and comes with `upstream-digest`;
/// `upstream-tool` and `upstream-digest` only with `upstream`; no two rows serve the same
/// tool of one upstream. `upstreams` are [`unique_upstreams`]' result.
fn sources(
    rows: &[RawTool],
    upstreams: &[(String, Option<Upstream>)],
    roles: &Resolved,
    errors: &mut Errors,
) -> Vec<Option<Source>> {
    let declared: Vec<&str> = upstreams.iter().map(|(n, _)| n.as_str()).collect();
    let mut pinned: HashMap<(&str, &str), (&str, &Span)> = HashMap::new();
    let mut out = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        out.push(None);
        let Some((name, name_span)) = &row.name else {
            continue;
        };
        let Some((upstream, at)) = &row.upstream else {
            if row.seen.has("upstream") {
                // Written but not a string, or misspelt: already reported.
                continue;
            }
            for key in ["upstream-tool", "upstream-digest"] {
                let Some(span) = row.seen.taken.get(key) else {
                    continue;
                };
                errors.push(
                    Diagnostic::new(span.clone(), format!("tool `{name}` has `{key}` but no `upstream`"))
                        .help(format!("add `upstream = \"...\"` naming the `[[upstream]]` that serves the tool, or remove `{key}`")),
                );
            }
            continue;
        };
        let role = if roles.search == Some(i) {
            Some("search tool")
        } else if roles.ask == Some(i) {
            Some("ask tool")
        } else {
            None
        };
        if let Some(role) = role {
            errors.push(
                Diagnostic::new(at.clone(), format!("the {role} `{name}` cannot come from an upstream"))
                    .help(format!("remove `upstream`, `upstream-tool` and `upstream-digest` from this row: the agent loop answers the {role} itself")),
            );
            continue;
        }
        let is_declared = declared.contains(&upstream.as_str());
        if !is_declared {
            let d = Diagnostic::new(
                at.clone(),
                format!("`upstream` names `{upstream}`, which no `[[upstream]]` declares"),
            );
            errors.push(match suggest(upstream, &declared) {
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None => d.help(format!("declare it: an `[[upstream]]` table with `name = \"{upstream}\"` and `command = \"...\"` or `url = \"...\"`")),
            });
        }
        if !row.seen.has("upstream-digest") {
            errors.push(
                Diagnostic::new(at.clone(), format!("tool `{name}` has `upstream` but no `upstream-digest`"))
                    .help("add `upstream-digest = \"sha256:...\"`, the digest of the tool as imported: import the tool again to get it"),
            );
        }
        let (tool, tool_at) = row
            .upstream_tool
            .as_ref()
            .map_or((name.as_str(), at), |(t, s)| (t.as_str(), s));
        if let Some((first, first_at)) = pinned.insert((upstream, tool), (name, name_span)) {
            errors.push(
                Diagnostic::new(tool_at.clone(), format!("tools `{first}` and `{name}` both serve `{tool}` of upstream `{upstream}`"))
                    .related(first_at.clone(), format!("`{first}`"))
                    .help("remove one of them, or point one at another tool with `upstream-tool = \"...\"`"),
            );
            continue;
        }
        if let (true, Some((digest, _))) = (is_declared, &row.upstream_digest) {
            out[i] = Some(Source {
                upstream: upstream.clone(),
                tool: tool.to_string(),
                digest: digest.clone(),
            });
        }
    }
    out
}

/// What `[settings]` decided: the settings, when valid, and the rows the row rules treat
/// as the search tool and the ask tool. Those are the rows the settings name; when
/// `search-tool` is unresolved, the row it most likely meant (did you mean), else the row
/// that looks like a search tool (no `tier`, no `access`, a `query` parameter), so that one
/// mistake in `[settings]` does not also report the search row as missing its tier and access.
struct Resolved {
    settings: Option<SettingsTable>,
    search: Option<usize>,
    ask: Option<usize>,
}

/// How a setting naming a row resolved.
enum Named {
    /// The row it names.
    Found(usize),
    /// Not a row: the row it most likely meant, if any.
    Unresolved(Option<usize>),
}

/// A setting as written, or its default.
fn given<T: Copy>(value: Option<&crate::parse::At<T>>, default: T) -> T {
    value.map_or(default, |(v, _)| *v)
}

fn settings(
    raw: Option<&RawSettings>,
    written: bool,
    rows: &[RawTool],
    names: &[Option<&str>],
    errors: &mut Errors,
) -> Resolved {
    let Some(raw) = raw else {
        if !written {
            errors.push(
                Diagnostic::new(0..0, "the catalog has no `[settings]` table")
                    .help("add `[settings]` with `search-tool = \"...\"` and `ask-tool = \"...\"`, naming two of the rows"),
            );
        }
        return Resolved {
            settings: None,
            search: search_like(rows),
            ask: None,
        };
    };
    let known: Vec<&str> = names.iter().flatten().copied().collect();
    let mut row = |setting: &Option<(String, Span)>, key: &str, role: &str| -> Named {
        let Some((name, span)) = setting else {
            if !raw.seen.has(key) {
                errors.push(
                    Diagnostic::new(
                        raw.span.start..raw.span.start,
                        format!("`[settings]` has no `{key}`"),
                    )
                    .help(format!(
                        "add `{key} = \"...\"` naming the row that is {role}; a catalog has exactly one"
                    )),
                );
            }
            return Named::Unresolved(None);
        };
        if let Some(i) = names.iter().position(|n| *n == Some(name.as_str())) {
            return Named::Found(i);
        }
        let d = Diagnostic::new(
            span.clone(),
            format!("`{key}` names `{name}`, which is not a tool of this catalog"),
        );
        let meant = suggest(name, &known);
        errors.push(match meant {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None => d.help(format!("add a `[[tool]]` row named `{name}` ({role})")),
        });
        Named::Unresolved(meant.and_then(|m| names.iter().position(|n| *n == Some(m))))
    };
    let search_tool = row(&raw.search_tool, "search-tool", "the search tool");
    let ask_tool = row(&raw.ask_tool, "ask-tool", "the tool that asks the user");
    let (search, ask) = match (search_tool, ask_tool) {
        (Named::Found(s), Named::Found(a)) => {
            if s == a
                && let Some((_, span)) = &raw.ask_tool
            {
                errors.push(
                    Diagnostic::new(span.clone(), "the search tool cannot also be the ask tool")
                        .help("name a separate row that asks the user a question"),
                );
            }
            let defaults = SettingsTable::defaults(s, a);
            let settings = SettingsTable {
                search_results: given(raw.search_results.as_ref(), defaults.search_results),
                searches_per_turn: given(
                    raw.searches_per_turn.as_ref(),
                    defaults.searches_per_turn,
                ),
                keep_discovered: given(raw.keep_discovered.as_ref(), defaults.keep_discovered),
                language: given(raw.language.as_ref(), defaults.language),
                scan_results: given(raw.scan_results.as_ref(), defaults.scan_results),
                scan_threshold: raw.scan_threshold.as_ref().map(|(t, _)| *t),
                arguments: given(raw.arguments.as_ref(), defaults.arguments),
                providers: raw.providers.clone().unwrap_or(defaults.providers),
                ..defaults
            };
            return Resolved {
                settings: Some(settings),
                search: Some(s),
                ask: Some(a),
            };
        }
        (search, ask) => (search, ask),
    };
    let search = match search {
        Named::Found(i) | Named::Unresolved(Some(i)) => Some(i),
        Named::Unresolved(None) => search_like(rows),
    };
    let ask = match ask {
        Named::Found(i) => Some(i),
        Named::Unresolved(_) => None,
    };
    Resolved {
        settings: None,
        search,
        ask,
    }
}

/// The first row that looks like the search tool: no `tier`, no `effect`, no `access`, a `query`
/// parameter of any type. Used only to spare it the other rows' rules when the settings do
/// not name it.
fn search_like(rows: &[RawTool]) -> Option<usize> {
    rows.iter().position(|r| {
        !r.seen.has("tier")
            && !r.seen.has("effect")
            && !r.seen.has("access")
            && r.params
                .as_ref()
                .is_some_and(|(p, _)| search_query(p).is_some())
    })
}

fn tool(
    row: RawTool,
    is_search: bool,
    is_ask: bool,
    errors: &mut Errors,
) -> Result<Tool, Box<Leftover>> {
    let Some((name, name_span)) = row.name.clone() else {
        return Err(Box::new(Leftover {
            name: None,
            params: row.params,
            input_schema: row.input_schema,
        }));
    };
    let at = name_span.clone();
    let missing = |key: &str, help: &str, errors: &mut Errors| {
        errors.push(
            Diagnostic::new(at.clone(), format!("tool `{name}` has no `{key}`"))
                .help(help.to_string()),
        );
    };
    let description = match &row.description {
        None if row.seen.has("description") => None,
        None => {
            missing(
                "description",
                "add `description = \"...\"`: what search returns and the model reads",
                errors,
            );
            None
        }
        Some((d, span)) if d.trim().is_empty() => {
            errors.push(
                Diagnostic::new(
                    span.clone(),
                    format!("tool `{name}` has an empty description"),
                )
                .help("say what the tool does and when to use it: the model chooses by this text"),
            );
            None
        }
        Some((d, _)) => Some(d.clone()),
    };
    let (visibility, role) = if is_search {
        search_tool_rules(&row, &name, errors)
    } else {
        row_rules(&row, &name, is_ask, errors)
    };
    if let (Some(_), Some((_, span))) = (&row.params, &row.input_schema) {
        errors.push(
            Diagnostic::new(
                span.clone(),
                format!("tool `{name}` has both `params` and `input-schema`"),
            )
            .help("`input-schema` replaces `params`: keep one of them"),
        );
    }
    if let (Some((true, span)), Some(_)) = (&row.additional_params, &row.input_schema) {
        errors.push(
            Diagnostic::new(
                span.clone(),
                format!("tool `{name}` has both `additional-params` and `input-schema`"),
            )
            .help("`additional-params` opens `params`; an `input-schema` says `additionalProperties` itself"),
        );
    }
    rust_names(row.params.as_ref().map_or(&[], |(p, _)| p), &name, errors);
    headers::row(&row, &name, is_search, errors);
    let task = task::task(&row, &name, is_search, errors);
    let spans = ToolSpans {
        row: row.span,
        description: row
            .description
            .as_ref()
            .map_or(name_span.clone(), |(_, s)| s.clone()),
        examples: row.examples.iter().map(|(_, s)| s.clone()).collect(),
        keywords: row.keywords_span,
        visibility: row.visibility.as_ref().map(|(_, s)| s.clone()),
        input_schema: row.input_schema.as_ref().map(|(_, s)| s.clone()),
    };
    let (Some(description), Some(visibility), Some(role)) = (description, visibility, role) else {
        return Err(Box::new(Leftover {
            name: Some((name, name_span)),
            params: row.params,
            input_schema: row.input_schema,
        }));
    };
    Ok(Tool {
        name,
        name_span,
        rust_name: row.rust_name.map(|(r, _)| r),
        description,
        keywords: row.keywords,
        examples: row.examples.into_iter().map(|(e, _)| e).collect(),
        visibility,
        role,
        params: row.params.map(|(p, _)| p).unwrap_or_default(),
        additional_params: row.additional_params.is_some_and(|(open, _)| open),
        input_schema: row.input_schema.map(|(s, _)| s),
        output: row.output,
        arguments: Arguments::Typed,
        lints: row.lints,
        spans,
        upstream: None,
        task,
    })
}

/// A row's `arguments`, else the catalog's; the search tool's are always typed, since the
/// agent loop reads its query.
fn arguments_of(
    row: &RawTool,
    is_search: bool,
    default: Arguments,
    errors: &mut Errors,
) -> Arguments {
    match (&row.arguments, is_search) {
        (Some((Arguments::Json, span)), true) => {
            errors.push(
                Diagnostic::new(span.clone(), "the search tool's arguments are always typed")
                    .help("remove `arguments` from this row: the agent loop reads the search tool's `query` itself"),
            );
            Arguments::Typed
        }
        (_, true) => Arguments::Typed,
        (Some((a, _)), false) => *a,
        (None, false) => default,
    }
}

/// What the rules decided about a row: its visibility and its role (each `None` when
/// missing).
type Roles = (Option<Visibility>, Option<Role>);

/// Every row but the search tool declares visibility, effect and tier; its access is at
/// least what its effect needs and defaults to that; a row that acts is gated; the ask tool
/// is inline.
fn row_rules(row: &RawTool, name: &str, is_ask: bool, errors: &mut Errors) -> Roles {
    let name_at = row
        .name
        .as_ref()
        .map_or(row.span.clone(), |(_, s)| s.clone());
    let missing = |key: &str, help: String, errors: &mut Errors| {
        errors.push(
            Diagnostic::new(name_at.clone(), format!("tool `{name}` has no `{key}`")).help(help),
        );
    };
    let visibility = row.visibility.as_ref().map(|(v, _)| *v);
    let effect = row.effect.as_ref().map(|(e, _)| *e);
    let tier = row.tier.as_ref().map(|(t, _)| *t);
    // A key written with a wrong value, or misspelt, is reported where it is written.
    if !row.seen.has("visibility") {
        missing(
            "visibility",
            "add `visibility = \"inline\"` (in the active set from the first step) or `\"discoverable\"` (joins after a search finds it)".into(),
            errors,
        );
    }
    if !row.seen.has("effect") {
        missing(
            "effect",
            effect_help(row.access.as_ref().map(|(a, _)| *a)),
            errors,
        );
    }
    if !row.seen.has("tier") {
        missing(
            "tier",
            "add `tier = \"silent\"` (runs without asking) or `\"gated\"` (passes the permission check first)".into(),
            errors,
        );
    }
    if let (Some((Tier::Silent, span)), Some((effect, effect_at))) = (&row.tier, &row.effect)
        && effect.must_be_gated()
    {
        errors.push(
            Diagnostic::new(span.clone(), format!("tool `{name}` {} but runs silently", effect_phrase(*effect)))
                .related(effect_at.clone(), "it acts")
                .help("make it `tier = \"gated\"`: what it does cannot be reviewed before it takes effect, so a person must approve each call. Only if it merely stages changes that a person reviews before a commit, say `effect = \"stages\"`"),
        );
    }
    if let (Some((effect, effect_at)), Some((level, access_at))) = (&row.effect, &row.access)
        && *level < effect.least_access()
    {
        let least = effect.least_access();
        errors.push(
            Diagnostic::new(
                access_at.clone(),
                format!("tool `{name}` {} but `{level}` clients may call it", effect_phrase(*effect)),
            )
            .related(effect_at.clone(), format!("`effect = \"{effect}\"` needs `{least}`"))
            .help(format!("remove `access` (a tool whose effect is `{effect}` needs `{least}`), or raise it to `access = \"{least}\"`")),
        );
    }
    // The least level the effect allows, unless the row asks for more.
    let access = effect.map(|e| row.access.as_ref().map_or(e.least_access(), |(a, _)| *a));
    if is_ask && let Some((Visibility::Discoverable, span)) = &row.visibility {
        errors.push(
                Diagnostic::new(span.clone(), format!("the ask tool `{name}` is discoverable"))
                    .help("make it `visibility = \"inline\"`: the search budget error tells the model to call it, so it must always be callable"),
            );
    }
    let mcp = row.mcp.as_ref().is_none_or(|(m, _)| *m);
    let role = effect
        .zip(tier)
        .zip(access)
        .map(|((effect, tier), access)| {
            let policy = Policy {
                effect,
                tier,
                access,
                mcp,
            };
            if is_ask {
                Role::Ask(policy)
            } else {
                Role::Tool(policy)
            }
        });
    (visibility, role)
}

/// The search tool is part of the agent loop: always inline, no effect, no tier, no access,
/// never on MCP,
/// and it takes the request as a required string `query`.
fn search_tool_rules(row: &RawTool, name: &str, errors: &mut Errors) -> Roles {
    if let Some((Visibility::Discoverable, span)) = &row.visibility {
        errors.push(
            Diagnostic::new(
                span.clone(),
                format!("the search tool `{name}` is discoverable"),
            )
            .help("remove `visibility` (the search tool is always inline): nothing could find it"),
        );
    }
    if let Some((_, span)) = &row.tier {
        errors.push(
            Diagnostic::new(
                span.clone(),
                format!("the search tool `{name}` has a `tier`"),
            )
            .help("remove `tier`: the search tool is part of the agent loop and touches no data"),
        );
    }
    if let Some((_, span)) = &row.effect {
        errors.push(
            Diagnostic::new(
                span.clone(),
                format!("the search tool `{name}` has an `effect`"),
            )
            .help("remove `effect`: the search tool is part of the agent loop and touches no data"),
        );
    }
    if let Some((_, span)) = &row.access {
        errors.push(
            Diagnostic::new(
                span.clone(),
                format!("the search tool `{name}` has an `access` level"),
            )
            .help("remove `access`: the search tool is never exposed to MCP"),
        );
    }
    if let Some((true, span)) = &row.mcp {
        errors.push(
            Diagnostic::new(
                span.clone(),
                format!("the search tool `{name}` is exposed to MCP"),
            )
            .help("remove `mcp = true`: MCP clients bring their own discovery"),
        );
    }
    if !row.params.as_ref().is_some_and(|(p, _)| takes_query(p)) {
        errors.push(
            Diagnostic::new(row.name.as_ref().map_or(row.span.clone(), |(_, s)| s.clone()), format!("the search tool `{name}` needs a required string parameter `query`"))
                .help("add `[tool.params] query = { type = \"string\", description = \"What the tool should do.\" }`"),
        );
    }
    (Some(Visibility::Inline), Some(Role::Search))
}

/// What to write for a row with no `effect`. A row written before effects existed names its
/// `access`, which then meant the effect too: the help names the value that keeps its meaning.
fn effect_help(access: Option<Access>) -> String {
    let values = "`\"reads\"` (changes nothing), `\"stages\"` (changes a person reviews before a commit) or `\"acts\"` (changes that cannot be taken back, or that leave the app)";
    match access {
        Some(level) => {
            let kept = Effect::ALL
                .into_iter()
                .find(|e| e.least_access() == level)
                .unwrap_or(Effect::Acts);
            format!(
                "add `effect = \"{kept}\"`, which keeps what `access = \"{level}\"` meant, or the effect it really has: {values}. With `effect` written, `access` may go: it defaults to the least level the effect needs"
            )
        }
        None => format!(
            "add `effect`, one of {values}: it decides the least MCP access level that may call the tool and whether it must be gated"
        ),
    }
}

/// A row's effect in an error message.
fn effect_phrase(effect: Effect) -> &'static str {
    match effect {
        Effect::Reads => "only reads",
        Effect::Stages => "stages changes",
        Effect::Acts => "acts on the world",
    }
}
