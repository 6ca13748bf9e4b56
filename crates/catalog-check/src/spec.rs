//! Each row's `ToolSpec`, computed and packed in one place: the generated code holds the
//! packed data, and [`specs`] decodes the same data for a catalog read at run time, so the
//! two agree.

use catalog_core::packed::Writer;
use serde_json::Value;

use crate::model::{CatalogModel, Tool};
use crate::owned::Specs;
use crate::shape::{self, Node};
use crate::{gemini, schema};

/// What a row's `ToolSpec` holds beyond the row's own keys.
pub(crate) struct Spec<'a> {
    pub(crate) tool: &'a Tool,
    /// The search tool's description names every discoverable tool.
    pub(crate) description: String,
    pub(crate) wire_name: String,
    pub(crate) input_schema: String,
    pub(crate) gemini_parameters: Option<String>,
    /// The input schema as MCP lists it, when it differs from `input_schema`.
    pub(crate) mcp_input_schema: Option<String>,
    pub(crate) input: Node,
    pub(crate) strict: bool,
    pub(crate) output_schema: Option<String>,
    pub(crate) output: Option<Node>,
}

/// Every row's spec, in catalog order.
pub(crate) fn rows(catalog: &CatalogModel) -> Vec<Spec<'_>> {
    rows_with(catalog, true, |_, _, _| ()).0
}

/// [`rows`], with what `also` gives for each row's input schema and its Gemini form (the
/// row's index, the schema, the form), for a caller that reads them too; without
/// `shapes`, the shapes verification reads are left as [`Node::Any`] and `None`. Runs of
/// rows are worked out on the threads the caller allows (`threads`).
fn rows_with<T: Send>(
    catalog: &CatalogModel,
    shapes: bool,
    also: impl Fn(usize, &Value, &gemini::Converted) -> T + Sync,
) -> (Vec<Spec<'_>>, Vec<T>) {
    let wire_names = catalog.wire_names();
    let runs = crate::threads::runs(catalog.tools.len());
    let done = crate::threads::map(&runs, |run| {
        run.clone()
            .map(|i| {
                let (tool, wire_name) = (&catalog.tools[i], wire_names[i].clone());
                let input = schema::input(tool);
                // Typed parameters parse into Rust types; the escape hatch stays JSON.
                let input_shape = if !shapes {
                    Node::Any
                } else if tool.input_schema.is_some() {
                    shape::read(&input)
                } else {
                    shape::read_typed(&input, &tool.params)
                };
                let output = schema::output(tool);
                let gemini = gemini::convert(&input);
                let also = also(i, &input, &gemini);
                let spec = Spec {
                    tool,
                    description: if i == catalog.settings.search_tool {
                        catalog.search_description()
                    } else {
                        tool.description.clone()
                    },
                    wire_name,
                    input_schema: input.to_string(),
                    gemini_parameters: gemini.parameters.map(|p| p.to_string()),
                    mcp_input_schema: Some(schema::mcp_input(tool))
                        .filter(|mcp| *mcp != input)
                        .map(|mcp| mcp.to_string()),
                    input: input_shape,
                    strict: schema::strict(&input),
                    output_schema: output.as_ref().map(ToString::to_string),
                    output: output.as_ref().filter(|_| shapes).map(shape::read),
                };
                (spec, also)
            })
            .collect::<Vec<_>>()
    });
    done.into_iter().flatten().unzip()
}

/// Every row's spec in the packed format (`catalog_core::packed`): the text literal and the
/// byte string the generated `Tool::spec` decodes, in catalog order.
#[doc(hidden)]
#[must_use]
pub fn packed_specs(catalog: &CatalogModel) -> (String, Vec<u8>) {
    pack(&rows(catalog))
}

/// [`packed_specs`] of rows already computed.
pub(crate) fn pack(specs: &[Spec<'_>]) -> (String, Vec<u8>) {
    let mut w = Writer::new();
    for s in specs {
        let t = s.tool;
        w.str(&t.name);
        w.str(&s.description);
        w.strs(&t.keywords);
        w.strs(&t.examples);
        w.policy(
            t.visibility,
            t.role.effect(),
            t.role.tier(),
            t.role.access(),
        );
        w.flag(t.role.mcp());
        w.task(t.task);
        w.option(
            (s.wire_name != t.name).then_some(s.wire_name.as_str()),
            Writer::str,
        );
        w.str(&s.input_schema);
        w.option(s.gemini_parameters.as_deref(), Writer::str);
        w.option(s.mcp_input_schema.as_deref(), Writer::str);
        s.input.pack(&mut w);
        w.flag(s.strict);
        w.option(s.output_schema.as_deref(), Writer::str);
        w.option(s.output.as_ref(), |w, o| o.pack(w));
    }
    w.finish()
}

/// Every row's [`ToolSpec`](catalog_core::ToolSpec), in catalog order, built at run time:
/// what `Tool::spec` of the generated code returns, for a program that reads a catalog file
/// instead of compiling one in (a command-line tool rendering a catalog). It decodes the
/// same packed data the generated code holds; the value owns it, and what the specs point
/// to, and frees them when dropped.
#[must_use]
pub fn specs(catalog: &CatalogModel) -> Specs {
    Specs::decode(pack(&rows(catalog)))
}

/// What the renderers read of every row's [`ToolSpec`] (names, description, schemas,
/// policy), with what [`rows_with`]'s `also` gives for each row: what the token budget
/// lint renders. The values are [`specs`]' without their shapes (the input is
/// [`Shape::Any`](catalog_core::Shape::Any), no output shape), which the renderers do not
/// read and which take the most time to work out.
pub(crate) fn rendered_with<T: Send>(
    catalog: &CatalogModel,
    also: impl Fn(usize, &Value, &gemini::Converted) -> T + Sync,
) -> (Specs, Vec<T>) {
    let (rows, also) = rows_with(catalog, false, also);
    (Specs::decode(pack(&rows)), also)
}

#[cfg(test)]
mod tests {
    use catalog_core::TaskSupport;

    /// A row's `task` reaches its spec through the packed format the generated code
    /// decodes: either value, and none for a row that says nothing.
    #[test]
    fn a_rows_task_reaches_its_spec() {
        let row = |name: &str, task: &str| {
            format!(
                "[[tool]]\nname = \"{name}\"\ndescription = \"Does {name}.\"\nvisibility = \"inline\"\neffect = \"reads\"\ntier = \"silent\"\n{task}\n"
            )
        };
        let source = [
            "[settings]\nsearch-tool = \"find\"\nask-tool = \"ask\"\n".to_owned(),
            "[[tool]]\nname = \"find\"\ndescription = \"Finds tools.\"\n[tool.params]\nquery = { type = \"string\" }\n".to_owned(),
            row("ask", ""),
            row("export", "task = \"optional\""),
            row("rebuild", "task = \"required\""),
        ]
        .concat();
        let catalog = crate::validate(&source).expect("a valid catalog");
        let specs = super::specs(&catalog);
        let tasks: Vec<_> = specs.get().iter().map(|s| (s.name, s.task)).collect();
        assert_eq!(
            tasks,
            [
                ("find", None),
                ("ask", None),
                ("export", Some(TaskSupport::Optional)),
                ("rebuild", Some(TaskSupport::Required)),
            ]
        );
    }
}
