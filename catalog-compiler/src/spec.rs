//! Each row's `ToolSpec`, computed in one place: the generated code writes it as tokens,
//! and [`specs`] builds it as values for a catalog read at run time, so the two agree.

use catalog_core::ToolSpec;
use serde_json::Value;

use crate::model::{Catalog, Tool};
use crate::shape::{self, Node, leak_str};
use crate::{gemini, schema};

/// What a row's `ToolSpec` holds beyond the row's own keys.
pub(crate) struct Spec<'a> {
    pub(crate) tool: &'a Tool,
    /// The search tool's description names every discoverable tool.
    pub(crate) description: String,
    pub(crate) wire_name: String,
    pub(crate) input_schema: String,
    pub(crate) gemini_parameters: Option<String>,
    pub(crate) input: Node,
    pub(crate) strict: bool,
    pub(crate) output_schema: Option<String>,
    pub(crate) output: Option<Node>,
}

/// Every row's spec, in catalog order.
pub(crate) fn rows(catalog: &Catalog) -> Vec<Spec<'_>> {
    rows_with(catalog, |_, _, _| ())
}

/// [`rows`], handing each row's input schema and its Gemini form to `also` on the way (the
/// row's index, the schema, the form), for a caller that reads them too.
fn rows_with(
    catalog: &Catalog,
    mut also: impl FnMut(usize, &Value, &gemini::Converted),
) -> Vec<Spec<'_>> {
    catalog
        .tools
        .iter()
        .zip(catalog.wire_names())
        .enumerate()
        .map(|(i, (tool, wire_name))| {
            let input = schema::input(tool);
            // Typed parameters parse into Rust types; the escape hatch stays JSON.
            let input_shape = if tool.input_schema.is_some() {
                shape::read(&input)
            } else {
                shape::read_typed(&input, &tool.params)
            };
            let output = schema::output(tool);
            let gemini = gemini::convert(&input);
            also(i, &input, &gemini);
            Spec {
                tool,
                description: if i == catalog.settings.search_tool {
                    catalog.search_description()
                } else {
                    tool.description.clone()
                },
                wire_name,
                input_schema: input.to_string(),
                gemini_parameters: gemini.parameters.map(|p| p.to_string()),
                input: input_shape,
                strict: schema::strict(&input),
                output_schema: output.as_ref().map(ToString::to_string),
                output: output.as_ref().map(shape::read),
            }
        })
        .collect()
}

/// Every row's [`ToolSpec`], in catalog order, built at run time: what `Tool::spec` of the
/// generated code returns, for a program that reads a catalog file instead of compiling
/// one in (a command-line tool rendering a catalog).
///
/// The specs are leaked, by design: a `ToolSpec` holds only `&'static` data, and a program
/// that loads one catalog keeps it for its whole life. Calling this in a loop leaks each
/// time.
#[must_use]
pub fn specs(catalog: &Catalog) -> &'static [ToolSpec] {
    leak(&rows(catalog))
}

/// [`specs`], with [`rows_with`]'s `also`.
pub(crate) fn specs_with(
    catalog: &Catalog,
    also: impl FnMut(usize, &Value, &gemini::Converted),
) -> &'static [ToolSpec] {
    leak(&rows_with(catalog, also))
}

fn leak(rows: &[Spec<'_>]) -> &'static [ToolSpec] {
    let leak_all = |texts: &[String]| -> &'static [&'static str] {
        texts.iter().map(|t| leak_str(t)).collect::<Vec<_>>().leak()
    };
    rows.iter()
        .map(|s| ToolSpec {
            name: leak_str(&s.tool.name),
            description: leak_str(&s.description),
            keywords: leak_all(&s.tool.keywords),
            examples: leak_all(&s.tool.examples),
            visibility: s.tool.visibility,
            tier: s.tool.role.tier(),
            access: s.tool.role.access(),
            mcp: s.tool.role.mcp(),
            wire_name: leak_str(&s.wire_name),
            input_schema: leak_str(&s.input_schema),
            gemini_parameters: s.gemini_parameters.as_deref().map(leak_str),
            input: s.input.leak(),
            strict: s.strict,
            output_schema: s.output_schema.as_deref().map(leak_str),
            output: s.output.as_ref().map(Node::leak),
        })
        .collect::<Vec<_>>()
        .leak()
}
