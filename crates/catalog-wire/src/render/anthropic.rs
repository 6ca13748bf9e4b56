//! Anthropic Messages API: the `tools` array, with or without tool search.

use alloc::string::String;

use super::{RenderError, is_search_tool, push_array, push_str};
use catalog_core::{SearchOutcome, ToolId, ToolSpec, Visibility};

/// Who searches the deferred tools in [`anthropic_tool_search`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolSearch {
    /// Anthropic's BM25 search tool (`tool_search_tool_bm25_20251119`), which takes
    /// requests in plain words; the catalog's own search tool is left out.
    Bm25,
    /// Anthropic's regex search tool (`tool_search_tool_regex_20251119`), which takes
    /// Python regular expressions; the catalog's own search tool is left out.
    Regex,
    /// The catalog's own search tool, kept and not deferred. Answer its calls with
    /// [`search_result_content`]: Anthropic then loads the referenced tools.
    Catalog,
}

impl ToolSearch {
    /// Anthropic's server tool, for the two that run on Anthropic's side.
    fn server_tool(self) -> Option<&'static str> {
        match self {
            ToolSearch::Bm25 => {
                Some(r#"{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}"#)
            }
            ToolSearch::Regex => Some(
                r#"{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex"}"#,
            ),
            ToolSearch::Catalog => None,
        }
    }
}

/// Appends one tool definition; `defer` adds `"defer_loading":true`.
fn push_tool(out: &mut String, spec: &ToolSpec, defer: bool) {
    out.reserve(spec.input_schema.len() + spec.description.len() + 64);
    out.push_str("{\"name\":");
    push_str(out, spec.wire_name);
    out.push_str(",\"description\":");
    push_str(out, spec.description);
    out.push_str(",\"input_schema\":");
    out.push_str(spec.input_schema);
    if defer {
        out.push_str(",\"defer_loading\":true");
    }
    out.push('}');
}

/// The Messages API `tools` array: `[{"name","description","input_schema"}]`, the name
/// being the [wire name](super#names-on-the-wire).
#[must_use]
pub fn anthropic<'a>(tools: impl IntoIterator<Item = &'a ToolSpec<'a>>) -> String {
    let mut out = String::new();
    push_array(&mut out, tools, |out, spec| push_tool(out, spec, false));
    out
}

/// The Messages API `tools` array for Anthropic's tool search: discoverable tools carry
/// `"defer_loading": true`, so the model sees only the inline ones until a search loads
/// more. With [`ToolSearch::Bm25`] or [`ToolSearch::Regex`], Anthropic's search tool comes
/// first and the catalog's own is left out; with [`ToolSearch::Catalog`], the catalog's is
/// kept (it is inline) and answers with [`search_result_content`].
///
/// Requests with tool search need Anthropic's `advanced-tool-use-2025-11-20` beta.
///
/// # Errors
/// [`RenderError::AllDeferred`] when no tool would stay loaded (besides a server search
/// tool): Anthropic refuses such a request.
pub fn anthropic_tool_search<'a>(
    tools: impl IntoIterator<Item = &'a ToolSpec<'a>>,
    search: ToolSearch,
) -> Result<String, RenderError> {
    let server = search.server_tool();
    let mut out = String::from("[");
    let mut first = true;
    if let Some(tool) = server {
        out.push_str(tool);
        first = false;
    }
    let mut loaded = 0;
    for spec in tools {
        if server.is_some() && is_search_tool(spec) {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        let defer = spec.visibility == Visibility::Discoverable;
        loaded += usize::from(!defer);
        push_tool(&mut out, spec, defer);
    }
    out.push(']');
    if loaded == 0 {
        return Err(RenderError::AllDeferred);
    }
    Ok(out)
}

/// Search hits as the `content` of a `tool_result`: `[{"type":"tool_reference",
/// "tool_name": wire name}]`, one block per hit, for [`ToolSearch::Catalog`]. Anthropic
/// loads each referenced tool, which must be in the request's `tools` (deferred or not).
#[must_use]
pub fn tool_references<'a>(hits: impl IntoIterator<Item = &'a ToolSpec<'a>>) -> String {
    let mut out = String::new();
    push_array(&mut out, hits, |out, spec| {
        out.push_str("{\"type\":\"tool_reference\",\"tool_name\":");
        push_str(out, spec.wire_name);
        out.push('}');
    });
    out
}

/// The `content` of the `tool_result` answering a call to the catalog's search tool under
/// [`ToolSearch::Catalog`]: the callable hits as [`tool_references`]; when there is none
/// (nothing found, the hits are outside a restricted conversation, or the turn's search
/// budget is spent), what [`SearchOutcome::to_json`] says, as a string, so the model
/// reads why.
#[must_use]
pub fn search_result_content<T: ToolId>(outcome: &SearchOutcome<T>) -> String {
    if let SearchOutcome::Found(hits) = outcome
        && hits.iter().any(|h| h.callable)
    {
        return tool_references(hits.iter().filter(|h| h.callable).map(|h| h.spec));
    }
    let mut out = String::new();
    push_str(&mut out, &outcome.to_json());
    out
}

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use serde_json::{Value, json};

    use super::*;
    use crate::render::fixtures::{
        self, DROP, HIDDEN, READ, Row, Rows, SEARCH, STAGE, parse, schema,
    };
    use catalog_core::Found;
    use catalog_core::Lookup;

    fn reference(spec: &ToolSpec) -> Value {
        json!({
            "name": spec.wire_name,
            "description": spec.description,
            "input_schema": schema(spec.input_schema),
        })
    }

    #[test]
    fn tools_are_name_description_and_schema() {
        let expected: Vec<Value> = fixtures::all().into_iter().map(reference).collect();
        assert_eq!(parse(&anthropic(fixtures::all())), Value::Array(expected));
        assert_eq!(anthropic([]), "[]");
    }

    #[test]
    fn server_search_defers_discoverable_tools_and_drops_the_catalogs_search_tool() {
        let deferred = |spec: &ToolSpec| {
            let mut v = reference(spec);
            v["defer_loading"] = json!(true);
            v
        };
        for (search, server) in [
            (
                ToolSearch::Bm25,
                json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}),
            ),
            (
                ToolSearch::Regex,
                json!({"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}),
            ),
        ] {
            let text = anthropic_tool_search(fixtures::all(), search).unwrap();
            assert_eq!(
                parse(&text),
                json!([
                    server,
                    reference(&READ),
                    deferred(&STAGE),
                    deferred(&DROP),
                    reference(&HIDDEN)
                ])
            );
        }
        let text = anthropic_tool_search(fixtures::all(), ToolSearch::Catalog).unwrap();
        assert_eq!(
            parse(&text),
            json!([
                reference(&SEARCH),
                reference(&READ),
                deferred(&STAGE),
                deferred(&DROP),
                reference(&HIDDEN)
            ])
        );
    }

    #[test]
    fn at_least_one_tool_stays_loaded() {
        for search in [ToolSearch::Bm25, ToolSearch::Regex, ToolSearch::Catalog] {
            assert_eq!(
                anthropic_tool_search([&STAGE, &DROP], search),
                Err(RenderError::AllDeferred)
            );
        }
        // The catalog's search tool does not count when Anthropic's replaces it.
        assert_eq!(
            anthropic_tool_search([&SEARCH, &DROP], ToolSearch::Bm25),
            Err(RenderError::AllDeferred)
        );
        assert!(anthropic_tool_search([&SEARCH, &DROP], ToolSearch::Catalog).is_ok());
    }

    #[test]
    fn callable_hits_become_tool_references() {
        assert_eq!(
            parse(&tool_references([&STAGE, &DROP])),
            json!([
                {"type": "tool_reference", "tool_name": "rows_stage"},
                {"type": "tool_reference", "tool_name": "dropTable"},
            ])
        );
        let hit = |i, callable| Found {
            tool: Row::new(i),
            spec: Rows.spec(Row::new(i)),
            score: 1.0,
            callable,
        };
        let found = SearchOutcome::Found(vec![hit(3, false), hit(2, true)]);
        assert_eq!(
            parse(&search_result_content(&found)),
            json!([{"type": "tool_reference", "tool_name": "rows_stage"}])
        );
        for outcome in [
            SearchOutcome::Found(vec![hit(3, false)]),
            SearchOutcome::Found(vec![]),
            SearchOutcome::BudgetExhausted {
                cap: 3,
                ask_tool: "ask",
            },
        ] {
            let content = parse(&search_result_content(&outcome));
            assert_eq!(content, Value::String(outcome.to_json()));
        }
    }
}
