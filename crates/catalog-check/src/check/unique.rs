//! Rules that names stay distinct: rows' names and wire names, `[[upstream]]` names, and
//! the Rust names generated from them (variants, fields, types, the methods of JSON rows).

use std::collections::hash_map::Entry;

// Fx: lookups of names the catalog's author wrote, many of them on a large catalog.
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::diag::{Diagnostic, Errors, Span};
use crate::model::{self, Arguments, Field, Generated, Tool, Upstream, field_kind, field_origin};
use crate::names;
use crate::parse::{RawTool, RawUpstream};

/// Names follow MCP's rule, and no two rows share a name or a Rust identifier.
/// Returns, per row, its `Tool` variant when its name passed: the rows that did not are
/// left out of the checks that would only repeat the same mistake (the types named after
/// them), and out of the skeleton of a catalog with errors.
pub(super) fn unique_names(rows: &[RawTool], errors: &mut Errors) -> Vec<Option<String>> {
    let mut passed = vec![None; rows.len()];
    // Each valid name's Rust identifiers, worked out on the threads the caller allows before the names are
    // compared in row order.
    let idents: Vec<Option<(String, String)>> = crate::threads::each_row(rows.len(), |i| {
        let row = &rows[i];
        let (name, _) = row.name.as_ref()?;
        names::is_tool_name(name).then(|| {
            let ident = row
                .rust_name
                .as_ref()
                .map_or_else(|| names::variant(name), |(r, _)| r.clone());
            let bare = names::snake_bare(&ident);
            (ident, bare)
        })
    });
    // Every name and every identifier some row would take, so that a suggested name or
    // `rust-name` takes none; worked out only for a catalog with such an error.
    let all_names = std::cell::OnceCell::new();
    let all_names = || {
        all_names.get_or_init(|| {
            rows.iter()
                .filter_map(|r| r.name.as_ref().map(|(n, _)| n.as_str()))
                .collect::<HashSet<&str>>()
        })
    };
    let taken_idents = std::cell::OnceCell::new();
    let taken_idents = || {
        taken_idents.get_or_init(|| {
            idents
                .iter()
                .flatten()
                .flat_map(|(ident, bare)| [ident.as_str(), bare.as_str()])
                .collect::<HashSet<&str>>()
        })
    };
    let mut by_name: HashMap<&str, (&Span, usize)> = HashMap::default();
    by_name.reserve(rows.len());
    let mut by_ident: HashMap<&str, (&str, &Span)> = HashMap::default();
    by_ident.reserve(2 * rows.len());
    for (i, row) in rows.iter().enumerate() {
        let Some((name, span)) = &row.name else {
            if row.seen.has("name") {
                // Written but not a string, or misspelt: already reported.
                continue;
            }
            errors.push(
                Diagnostic::new(row.span.start..row.span.start, "a tool row has no `name`")
                    .help("add `name = \"...\"`: the name the model sees"),
            );
            continue;
        };
        if !names::is_tool_name(name) {
            errors.push(
                Diagnostic::new(span.clone(), format!("`{name}` is not a valid tool name"))
                    .help("MCP accepts 1 to 128 characters of A-Z a-z 0-9 _ - ."),
            );
            continue;
        }
        if let Some((first, first_row)) = by_name.insert(name, (span, i)) {
            let of = rows[first_row]
                .upstream
                .as_ref()
                .map_or_else(String::new, |(u, _)| format!(", of upstream `{u}`"));
            errors.push(
                Diagnostic::new(span.clone(), format!("tool `{name}` is declared twice"))
                    .related(first.clone(), format!("the first `{name}`{of}"))
                    .help(rename_twice(name, &rows[first_row], row, all_names())),
            );
            continue;
        }
        let Some((ident, bare)) = &idents[i] else {
            continue;
        };
        passed[i] = Some(ident.clone());
        for key in [ident, bare] {
            if let Some((other, first)) = by_ident.insert(key, (name, span))
                && other != name
            {
                let free = names::first_free(
                    |n| format!("{ident}{n}"),
                    |c| {
                        let taken = taken_idents();
                        !taken.contains(c) && !taken.contains(names::snake_bare(c).as_str())
                    },
                );
                errors.push(
                    Diagnostic::new(
                        span.clone(),
                        format!("tools `{other}` and `{name}` both become `Tool::{ident}` in Rust"),
                    )
                    .related(first.clone(), format!("`{other}`"))
                    .help(format!(
                        "give this row `rust-name = \"{free}\"`, or rename one of them"
                    )),
                );
                passed[i] = None;
                break;
            }
        }
    }
    passed
}

/// The way out of two rows named `name`, `first` before `second`: a row that an upstream
/// serves can take another name and keep the upstream's in `upstream-tool`, as
/// `cargo catalog import --prefix` renames it.
fn rename_twice(name: &str, first: &RawTool, second: &RawTool, taken: &HashSet<&str>) -> String {
    let renamed = |upstream: &str| {
        Some(names::prefixed(upstream, name, |c| !taken.contains(c)))
            .filter(|c| names::is_tool_name(c))
    };
    let with_upstream_tool = |row: &RawTool, upstream: &str| match &row.upstream_tool {
        Some(_) => String::new(),
        None => format!(
            ", with `upstream-tool = \"{name}\"` (its name on upstream `{upstream}`), as `cargo catalog import --prefix {upstream}_` writes it"
        ),
    };
    if let Some((upstream, _)) = &second.upstream
        && let Some(renamed) = renamed(upstream)
    {
        return format!(
            "rename this row: `name = \"{renamed}\"`{}",
            with_upstream_tool(second, upstream)
        );
    }
    if let Some((upstream, _)) = &first.upstream
        && let Some(renamed) = renamed(upstream)
    {
        return format!(
            "rename this row, or the first: `name = \"{renamed}\"`{}",
            with_upstream_tool(first, upstream)
        );
    }
    "rename or remove one".to_string()
}

/// No two rows go on the wire under the same name. [`names::wire_names`] avoids every
/// clash it can see; what is left (a hashed name that is also another row's name) must be
/// an error, or one tool would answer for the other. `rows` are the rows whose name passed
/// [`unique_names`], with where each name is written.
pub(super) fn unique_wire_names(rows: &[(&str, &Span)], errors: &mut Errors) {
    let names: Vec<&str> = rows.iter().map(|(n, _)| *n).collect();
    let wire = names::wire_names(&names);
    let mut seen: HashMap<&str, (&str, &Span)> = HashMap::default();
    for (&(name, span), wire_name) in rows.iter().zip(&wire) {
        let Some((first, first_span)) = seen.insert(wire_name, (name, span)) else {
            continue;
        };
        errors.push(
            Diagnostic::new(
                span.clone(),
                format!(
                    "tools `{first}` and `{name}` both go on the wire as `{wire_name}`"
                ),
            )
            .related((*first_span).clone(), format!("`{first}`"))
            .help(format!(
                "providers that accept only {} characters of A-Z a-z 0-9 _ - could not tell them apart: rename one of them",
                names::WIRE_NAME_MAX
            )),
        );
    }
}

/// No two `[[upstream]]` tables share a name. Returns the name of every table that has one
/// and is not a repeat (the names rows may use), with the upstream when its other keys
/// had no error.
pub(super) fn unique_upstreams(
    raw: Vec<RawUpstream>,
    errors: &mut Errors,
) -> Vec<(String, Option<Upstream>)> {
    let mut out: Vec<(String, Span, Option<Upstream>)> = Vec::new();
    for u in raw {
        let Some((name, span)) = u.name else {
            continue;
        };
        if let Some((_, first, _)) = out.iter().find(|(n, _, _)| *n == name) {
            errors.push(
                Diagnostic::new(span, format!("upstream `{name}` is declared twice"))
                    .related(first.clone(), format!("the first `{name}`"))
                    .help("rename or remove one (rows name an upstream by `name`)"),
            );
            continue;
        }
        let upstream = u.transport.map(|transport| Upstream {
            name: name.clone(),
            transport,
            span: u.span,
            table: u.table,
        });
        out.push((name, span, upstream));
    }
    out.into_iter().map(|(n, _, u)| (n, u)).collect()
}

/// With JSON-argument rows, the generated `ToolCall::Json` variant and `Handler::call_json`
/// method are taken: a typed row must not take them too.
pub(super) fn json_names_free<'t>(tools: impl Iterator<Item = &'t Tool>, errors: &mut Errors) {
    let tools: Vec<&Tool> = tools.collect();
    if tools.iter().all(|t| t.arguments == Arguments::Typed) {
        return;
    }
    for t in tools {
        let Some(taken) = t.takes_json_item() else {
            continue;
        };
        errors.push(
            Diagnostic::new(
                t.name_span.clone(),
                format!(
                    "tool `{}` would take the {taken}, which this catalog's JSON-argument rows use",
                    t.name
                ),
            )
            .help("give the row another Rust name: `rust-name = \"...\"`"),
        );
    }
}

/// Fields of one object must stay distinct as Rust identifiers (`dateRange` and `date_range`
/// would both be `date_range`).
pub(super) fn rust_names(fields: &[Field], tool: &str, errors: &mut Errors) {
    fields_distinct(fields, tool, None, errors);
}

/// Whether a row's parameters make distinct Rust fields at every depth: what the skeleton
/// of a catalog with errors asks before it generates a row's argument types.
pub(crate) fn distinct_fields(fields: &[Field], tool: &str) -> bool {
    let mut errors = Errors::default();
    rust_names(fields, tool, &mut errors);
    errors.is_empty()
}

/// `rust_names` for the fields of one object; `parent` names the field that holds them
/// (``parameter `filter` ``), `None` for a tool's parameters.
fn fields_distinct(fields: &[Field], tool: &str, parent: Option<&str>, errors: &mut Errors) {
    let mut seen: HashMap<String, (&str, &Span)> = HashMap::default();
    let kind = field_kind(parent);
    for f in fields {
        match seen.entry(f.ident_bare()) {
            Entry::Vacant(free) => {
                free.insert((&f.name, &f.span));
            }
            Entry::Occupied(mut taken) => {
                let (first, first_span) = taken.insert((&f.name, &f.span));
                let ident = taken.key();
                let at = parent.map_or_else(String::new, |p| format!(", {p}"));
                errors.push(
                    Diagnostic::new(
                        f.span.clone(),
                        format!(
                            "in tool `{tool}`{at}: {kind} `{first}` and {kind} `{}` both become the Rust field `{ident}`",
                            f.name
                        ),
                    )
                    .related(first_span.clone(), format!("{kind} `{first}`"))
                    .help("rename one of them, or give one a `rust-name = \"...\"`"),
                );
            }
        }
        // The fields of the struct generated for the field, also as the items of arrays.
        let (mut ty, mut items) = (&f.ty, 0);
        while let Generated::Items(item) = ty.kind.generated() {
            ty = item;
            items += 1;
        }
        if let Generated::Struct(props) = ty.kind.generated() {
            let mut origin = field_origin(&f.name, parent);
            for _ in 0..items {
                origin = format!("the items of {origin}");
            }
            fields_distinct(props, tool, Some(&origin), errors);
        }
    }
}

/// Every type the expansion defines has a name of its own: no two rows or fields generate
/// the same type, and none takes the name of an item of the API (`Tool`, `ToolSet`, ...).
/// Checked on the raw rows whose name passed (`variants`, from [`unique_names`]), so a row
/// with other errors still has its types checked.
pub(super) fn type_names(rows: &[RawTool], variants: &[Option<String>], errors: &mut Errors) {
    // Each row's types are worked out on the threads the caller allows; their names are then compared in row
    // order, as one loop would compare them.
    let generated: Vec<Vec<model::GeneratedType>> =
        crate::threads::each_row(rows.len(), |i| match (&rows[i].name, &variants[i]) {
            (Some((_, name_span)), Some(variant)) => {
                let params = match (&rows[i].params, &rows[i].input_schema) {
                    (Some((params, _)), None) => &params[..],
                    _ => &[],
                };
                model::generated_types(variant, name_span, params)
            }
            _ => Vec::new(),
        });
    let mut seen: HashMap<&str, (&str, &str, &Span)> = HashMap::default();
    for (row, types) in rows.iter().zip(&generated) {
        let Some((name, _)) = &row.name else {
            continue;
        };
        for g in types {
            if names::RESERVED_TYPES.contains(&g.name.as_str()) {
                let taken: Vec<String> = names::RESERVED_TYPES
                    .iter()
                    .map(|r| format!("`{r}`"))
                    .collect();
                errors.push(
                    Diagnostic::new(
                        g.span.clone(),
                        format!(
                            "in tool `{}`, {} becomes the Rust type `{}`, which the generated API already defines",
                            name, g.origin, g.name
                        ),
                    )
                    .help(format!(
                        "rename it, or give it a `rust-name = \"...\"` (a type is named after its tool and field); {} are taken",
                        taken.join(", ")
                    )),
                );
                continue;
            }
            if let Some((first_tool, first, first_span)) = seen.get(g.name.as_str()) {
                let message = if first_tool == name {
                    format!(
                        "in tool `{}`, {first} and {} both become the Rust type `{}`",
                        name, g.origin, g.name
                    )
                } else {
                    format!(
                        "{first} of tool `{first_tool}` and {} of tool `{}` both become the Rust type `{}`",
                        g.origin, name, g.name
                    )
                };
                errors.push(
                    Diagnostic::new(g.span.clone(), message)
                        .related((*first_span).clone(), format!("{first} of tool `{first_tool}`"))
                        .help("rename one of them, or give one a `rust-name = \"...\"` (a type is named after its tool and field)"),
                );
                continue;
            }
            seen.insert(&g.name, (name.as_str(), &g.origin, &g.span));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::TEST_HEAD as HEAD;

    const DIGEST: &str = "sha256:4d41fd02ed49812a668b205580a74e06ad61797a560f982ee3275fcad9edd8a6";

    /// A row; `upstream` serves it when given.
    fn row(name: &str, upstream: Option<&str>, extra: &str) -> String {
        let source = upstream.map_or_else(String::new, |u| {
            format!("upstream = \"{u}\"\nupstream-digest = \"{DIGEST}\"\n")
        });
        format!(
            "\n[[tool]]\nname = \"{name}\"\ndescription = \"Tells the time.\"\nvisibility = \"discoverable\"\neffect = \"reads\"\ntier = \"silent\"\n{source}{extra}"
        )
    }

    fn catalog(rows: &[String]) -> String {
        format!(
            "{HEAD}\n[[upstream]]\nname = \"time\"\ncommand = \"mcp-server-time\"\n\n[[upstream]]\nname = \"clock\"\ncommand = \"clock-server\"\n{}",
            rows.concat()
        )
    }

    /// The one error of `source`: message, help, the line it is on and its related lines.
    fn one_error(source: &str) -> (String, String, usize, Vec<(usize, String)>) {
        let line = |at: usize| source[..at].matches('\n').count() + 1;
        let errors = crate::validate(source).unwrap_err();
        let [d] = errors.as_slice() else {
            panic!("{errors:#?}");
        };
        let related = d
            .related
            .iter()
            .map(|r| (line(r.span.start), r.label.clone()))
            .collect();
        (
            d.message.clone(),
            d.help.clone().unwrap_or_default(),
            line(d.span.start),
            related,
        )
    }

    #[test]
    fn two_upstreams_tools_of_one_name_are_an_error_with_the_prefixed_name() {
        let source = catalog(&[row("now", Some("time"), ""), row("now", Some("clock"), "")]);
        let (message, help, line, related) = one_error(&source);
        assert_eq!(message, "tool `now` is declared twice");
        let names: Vec<usize> = source
            .match_indices("name = \"now\"")
            .map(|(at, _)| source[..at].matches('\n').count() + 1)
            .collect();
        assert_eq!(line, names[1]);
        assert_eq!(
            related,
            [(names[0], "the first `now`, of upstream `time`".to_string())]
        );
        assert_eq!(
            help,
            "rename this row: `name = \"clock_now\"`, with `upstream-tool = \"now\"` (its name on upstream `clock`), as `cargo catalog import --prefix clock_` writes it"
        );
        // The fix as spelt: the row keeps serving `now` of `clock`.
        let fixed = catalog(&[
            row("now", Some("time"), ""),
            row("clock_now", Some("clock"), "upstream-tool = \"now\"\n"),
        ]);
        let compiled = crate::validate(&fixed).unwrap();
        let source = compiled.tools[3].upstream.as_ref().unwrap();
        assert_eq!(
            (source.upstream.as_str(), source.tool.as_str()),
            ("clock", "now")
        );
    }

    #[test]
    fn an_upstream_tool_named_like_a_row_of_the_catalog_gets_the_prefix() {
        // The catalog's own row first, then the upstream's: the upstream's is renamed.
        let source = catalog(&[row("now", None, ""), row("now", Some("clock"), "")]);
        let (_, help, _, _) = one_error(&source);
        assert!(
            help.starts_with("rename this row: `name = \"clock_now\"`"),
            "{help}"
        );
        // The upstream's first: it is the one to rename, and the name is free.
        let source = catalog(&[
            row("time_now", None, ""),
            row("now", Some("time"), ""),
            row("now", None, ""),
        ]);
        let (_, help, _, _) = one_error(&source);
        assert!(
            help.starts_with("rename this row, or the first: `name = \"time_now_2\"`, with `upstream-tool = \"now\"`"),
            "{help}"
        );
        // Neither comes from an upstream.
        let source = catalog(&[row("now", None, ""), row("now", None, "")]);
        assert_eq!(one_error(&source).1, "rename or remove one");
    }

    #[test]
    fn tools_that_become_one_rust_name_get_a_free_rust_name() {
        let source = catalog(&[
            row("get_time", Some("time"), ""),
            row("GetTime2", None, ""),
            row("get-time", Some("clock"), ""),
        ]);
        let (message, help, _, related) = one_error(&source);
        assert_eq!(
            message,
            "tools `get_time` and `get-time` both become `Tool::GetTime` in Rust"
        );
        assert_eq!(related.len(), 1);
        assert_eq!(
            help,
            "give this row `rust-name = \"GetTime3\"`, or rename one of them"
        );
        let fixed = catalog(&[
            row("get_time", Some("time"), ""),
            row("GetTime2", None, ""),
            row("get-time", Some("clock"), "rust-name = \"GetTime3\"\n"),
        ]);
        crate::validate(&fixed).unwrap();
    }
}
