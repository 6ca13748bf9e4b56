//! What `catalog!` still generates from a catalog with errors: the outline of its rows
//! that the checks accept by name, and the stand-in catalog its skeleton API is generated
//! from, so the user's crate reports the catalog's errors and not a cascade of missing
//! items.

use std::collections::BTreeMap;

use crate::check;
use crate::diag::Span;
use crate::lint;
use crate::model::{
    Access, Arguments, CatalogModel, Effect, Outline, OutlineTool, Policy, Role, SettingsTable,
    Tier, Tool, ToolSpans, Visibility, query_param, takes_query,
};
use crate::names;

/// The outline of a catalog with errors, from what [`check::lower`] decided about its rows
/// (`decided`) and where every error found in the file starts (`errors`): the rows whose
/// name `check`
/// accepts, with the variant it gives them; the search and ask tools it resolves; and each
/// row's parameters (or `input-schema`) when no error lies inside them or on the row's
/// name, so a handler written against a row with an unrelated mistake still compiles.
pub(crate) fn outline(decided: check::Decisions, errors: &[usize]) -> Outline {
    let clean = |span: &Span| !errors.iter().any(|start| span.contains(start));
    let mut out = Outline::default();
    let mut index = BTreeMap::new();
    for (i, row) in decided.rows.into_iter().enumerate() {
        let Some((name, name_span, variant)) = row.named else {
            continue;
        };
        index.insert(i, out.tools.len());
        let mut tool = OutlineTool {
            name,
            variant,
            arguments: row.arguments,
            ..OutlineTool::default()
        };
        if clean(&name_span) {
            match (row.params, row.input_schema) {
                (Some((params, span)), None)
                    if clean(&span) && check::distinct_fields(&params, &tool.name) =>
                {
                    tool.params = params;
                }
                (None, Some((schema, span))) if clean(&span) => tool.input_schema = Some(schema),
                _ => {}
            }
        }
        out.tools.push(tool);
    }
    out.search_tool = decided.search.and_then(|i| index.get(&i).copied());
    out.ask_tool = decided.ask.and_then(|i| index.get(&i).copied());
    out
}

/// The outline of a valid catalog: every row, with its parameters or `input-schema`.
pub(crate) fn outline_valid(catalog: CatalogModel) -> Outline {
    Outline {
        search_tool: Some(catalog.settings.search_tool),
        ask_tool: Some(catalog.settings.ask_tool),
        tools: catalog
            .tools
            .into_iter()
            .map(|t| OutlineTool {
                variant: t.variant(),
                name: t.name,
                params: t.params,
                input_schema: t.input_schema,
                arguments: t.arguments,
            })
            .collect(),
    }
}

impl Outline {
    /// The catalog the skeleton is generated from, by the same generator as a valid
    /// catalog's: every outline row with the parameters read without error (the search tool
    /// always takes a `query`), every row inline and gated, and a stand-in for a search or ask
    /// tool the outline lacks. A row whose types another row
    /// already defines keeps no parameters, or stays out when its arguments type or a
    /// JSON-argument item is taken (errors of the catalog already), so the skeleton itself
    /// compiles whatever the file holds.
    #[must_use]
    pub fn stand_in(&self) -> CatalogModel {
        let outline = self;
        let mut tools: Vec<Tool> = Vec::new();
        let mut index = BTreeMap::new();
        let mut types: Vec<String> = names::RESERVED_TYPES.iter().map(|&t| t.into()).collect();
        let defines = |tool: &Tool| -> Vec<String> {
            tool.generated_types().into_iter().map(|g| g.name).collect()
        };
        // With JSON-argument rows, `ToolCall::Json` and `Handler::call_json` are taken.
        let json = outline
            .tools
            .iter()
            .enumerate()
            .any(|(i, r)| r.arguments == Arguments::Json && Some(i) != outline.search_tool);
        for (i, row) in outline.tools.iter().enumerate() {
            let mut tool = stand_in(&row.name, &row.variant);
            tool.params.clone_from(&row.params);
            tool.input_schema.clone_from(&row.input_schema);
            tool.arguments = row.arguments;
            let mut own = defines(&tool);
            let repeats = (1..own.len()).any(|i| own[..i].contains(&own[i]));
            if repeats || own.iter().any(|t| types.contains(t)) {
                // A type defined twice, or by another row: this row's parameters stay out.
                tool.params.clear();
                own = defines(&tool);
            }
            let takes_json = json && tool.takes_json_item().is_some();
            if own.iter().all(|t| !types.contains(t)) && !takes_json {
                types.extend(own);
                index.insert(i, tools.len());
                tools.push(tool);
            }
        }
        let mut role = |found: Option<usize>, variant: &str| {
            found
                .and_then(|i| index.get(&i).copied())
                .unwrap_or_else(|| {
                    tools.push(stand_in(&names::snake(variant), variant));
                    tools.len() - 1
                })
        };
        let search_tool = role(outline.search_tool, "__SearchTool");
        let ask_tool = role(outline.ask_tool, "__AskTool");
        tools[ask_tool].role = Role::Ask(GUARDED);
        let search = &mut tools[search_tool];
        search.role = Role::Search;
        search.arguments = Arguments::Typed;
        if search.input_schema.is_some() || !takes_query(&search.params) {
            search.input_schema = None;
            search.params = vec![query_param()];
        }
        CatalogModel {
            settings: SettingsTable::defaults(search_tool, ask_tool),
            tools,
            lints: lint::Config::default(),
            upstreams: Vec::new(),
            offers: Vec::new(),
        }
    }
}

/// The placeholder policy of a skeleton row: the most guarded one, gated and kept from MCP.
const GUARDED: Policy = Policy {
    effect: Effect::Acts,
    tier: Tier::Gated,
    access: Access::FullAccess,
    mcp: false,
};

/// A skeleton row: the name and variant, and nothing that could be called.
fn stand_in(name: &str, variant: &str) -> Tool {
    Tool {
        name: name.into(),
        name_span: Span::default(),
        rust_name: Some(variant.into()),
        description: format!("`{name}` (the catalog has errors)."),
        keywords: Vec::new(),
        examples: Vec::new(),
        visibility: Visibility::Inline,
        role: Role::Tool(GUARDED),
        params: Vec::new(),
        additional_params: false,
        input_schema: None,
        output: None,
        arguments: Arguments::Typed,
        lints: BTreeMap::new(),
        spans: ToolSpans::default(),
        upstream: None,
        task: None,
    }
}
