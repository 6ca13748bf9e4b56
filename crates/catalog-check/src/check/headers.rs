//! The rules of `header`, a parameter mirrored in an HTTP header for MCP clients
//! (`x-mcp-header`, MCP 2026-07-28): on a row MCP clients can call, on a string, integer
//! or boolean reached from the arguments through properties alone, an integer within what
//! every client writes exactly, and each header once in a tool, whatever its case.

use std::collections::HashMap;

use serde_json::Value;

use crate::diag::{Diagnostic, Errors, Span};
use crate::model::{
    Field, HEADER_MAX_INTEGER, HEADER_TYPES, Kind, ParamHeader, TypeSpec, field_origin,
};
use crate::parse::RawTool;

/// Every rule of `header` on the row `row` named `tool`; `is_search` says whether it is
/// the search tool.
pub(super) fn row(row: &RawTool, tool: &str, is_search: bool, errors: &mut Errors) {
    let off = match &row.mcp {
        _ if is_search => Some(OffMcp::Search),
        Some((false, span)) => Some(OffMcp::Hidden(span)),
        _ => None,
    };
    let params = row.params.as_ref().map_or(&[][..], |(p, _)| p);
    headers(tool, params, row.output.as_ref(), off.as_ref(), errors);
}

/// Why a row's parameters reach no MCP client, when they do not.
enum OffMcp<'a> {
    /// The search tool, which is never on MCP.
    Search,
    /// A row that says `mcp = false`, there.
    Hidden(&'a Span),
}

/// Every rule of `header` on one row: its parameters (each mirrored one placed and typed
/// as MCP allows, each header name once) and its output (no `header` at all).
fn headers(
    tool: &str,
    params: &[Field],
    output: Option<&TypeSpec>,
    off: Option<&OffMcp<'_>>,
    errors: &mut Errors,
) {
    let mut walk = Walk {
        tool,
        off,
        seen: HashMap::new(),
        errors,
    };
    walk.fields(params, None, Place::Arguments);
    if let Some(output) = output {
        walk.value(output, "the output", Place::Output);
    }
}

/// Where a field is, as MCP's rule for `x-mcp-header` reads it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Reached from the arguments through properties alone: a client can mirror it.
    Arguments,
    /// Inside an array's items: one value per item, which no header holds.
    Items,
    /// In the output: a result, which no client sends.
    Output,
}

struct Walk<'a, 'e> {
    tool: &'a str,
    off: Option<&'a OffMcp<'a>>,
    /// Each header name mirrored so far, lowercased: the first field's header and origin.
    seen: HashMap<String, (&'a ParamHeader, String)>,
    errors: &'e mut Errors,
}

impl<'a> Walk<'a, '_> {
    fn fields(&mut self, fields: &'a [Field], parent: Option<&str>, place: Place) {
        for f in fields {
            let origin = field_origin(&f.name, parent);
            if let Some(header) = &f.header {
                self.header(f, header, &origin, place);
            }
            self.value(&f.ty, &origin, place);
        }
    }

    /// The fields inside a value: an object's properties, an array's items.
    fn value(&mut self, ty: &'a TypeSpec, origin: &str, place: Place) {
        match &ty.kind {
            Kind::Object(Some(props)) => self.fields(props, Some(origin), place),
            Kind::Array(item) => {
                let place = if place == Place::Output {
                    place
                } else {
                    Place::Items
                };
                self.value(item, &format!("the items of {origin}"), place);
            }
            _ => {}
        }
    }

    fn header(&mut self, f: &Field, header: &'a ParamHeader, origin: &str, place: Place) {
        let tool = self.tool;
        let name = &header.name;
        let at = header.span.clone();
        let refused = match place {
            Place::Output => Some(
                Diagnostic::new(at, format!("in tool `{tool}`, {origin} has a `header`"))
                    .help("remove `header`: it mirrors an argument a client sends, and a result is not sent by the client"),
            ),
            Place::Items => Some(
                Diagnostic::new(at, format!("in tool `{tool}`, {origin} is inside an array's items, which MCP does not mirror in a header"))
                    .help("remove `header`: a client mirrors one value reached from the arguments through properties alone, not one per item"),
            ),
            Place::Arguments => match self.off {
                Some(OffMcp::Search) => Some(
                    Diagnostic::new(at, format!("the search tool `{tool}` has a parameter with a `header`"))
                        .help("remove `header`: the search tool is never on MCP, so no client mirrors its arguments"),
                ),
                Some(OffMcp::Hidden(mcp)) => Some(
                    Diagnostic::new(at, format!("tool `{tool}` is kept from MCP, so its {origin} is mirrored in no header"))
                        .related((*mcp).clone(), "`mcp = false`")
                        .help("remove `header`, or remove `mcp = false` to serve the tool to MCP clients"),
                ),
                None => mirrored(tool, origin, &f.ty, header),
            },
        };
        if let Some(d) = refused {
            self.errors.push(d);
            return;
        }
        match self.seen.get(&name.to_ascii_lowercase()) {
            Some((first, first_origin)) => {
                let same = if first.name == *name {
                    String::new()
                } else {
                    format!(" (`{}` and `{name}`: header names ignore case)", first.name)
                };
                self.errors.push(
                    Diagnostic::new(
                        header.span.clone(),
                        format!("in tool `{tool}`, {first_origin} and {origin} are both mirrored in `Mcp-Param-{name}`{same}"),
                    )
                    .related(first.span.clone(), format!("the first, on {first_origin}"))
                    .help("give one of them another `header`: a client sends each header once"),
                );
            }
            None => {
                self.seen
                    .insert(name.to_ascii_lowercase(), (header, origin.to_string()));
            }
        }
    }
}

/// Why a field of type `ty` cannot be mirrored, if it cannot: MCP mirrors strings,
/// integers within [`HEADER_MAX_INTEGER`] either way, and booleans.
fn mirrored(tool: &str, origin: &str, ty: &TypeSpec, header: &ParamHeader) -> Option<Diagnostic> {
    let at = header.span.clone();
    let not = |what: &str| {
        format!("in tool `{tool}`, {origin} is {what}, which MCP does not mirror in a header")
    };
    match &ty.kind {
        Kind::String { .. } | Kind::Boolean => None,
        Kind::Integer { minimum, maximum } => {
            let beyond = [*minimum, *maximum]
                .into_iter()
                .flatten()
                .find(|b| b.abs() > HEADER_MAX_INTEGER)?;
            Some(
                Diagnostic::new(at, format!("in tool `{tool}`, {origin} may be {beyond}, beyond the integers MCP mirrors in a header"))
                    .help(format!("bound it within -{HEADER_MAX_INTEGER} and {HEADER_MAX_INTEGER} (the integers a client in JavaScript writes exactly), or remove `header`")),
            )
        }
        Kind::Number { .. } => Some(Diagnostic::new(at, not("a number")).help(
            "make it `type = \"integer\"` if it holds whole numbers only, or remove `header`: a fractional number has no one spelling every client writes (`1.5`, `1.50`, `15e-1`)",
        )),
        Kind::Array(_) => Some(
            Diagnostic::new(at, not("an array"))
                .help("remove `header`: a header holds one string, integer or boolean"),
        ),
        Kind::Object(_) => Some(Diagnostic::new(at, not("an object")).help(
            "remove `header`, and give it to the property whose value a client should mirror",
        )),
        Kind::Raw(schema) => {
            if schema.get("x-mcp-header").is_some() {
                return Some(
                    Diagnostic::new(at, format!("in tool `{tool}`, {origin} has both `header` and an `x-mcp-header` in its `schema`"))
                        .help("keep one of them: `header` writes the schema's `x-mcp-header` for MCP clients"),
                );
            }
            let ty = schema.get("type").and_then(Value::as_str);
            if ty.is_some_and(|t| HEADER_TYPES.contains(&t)) {
                return None;
            }
            Some(Diagnostic::new(at, format!("in tool `{tool}`, {origin} has a `schema` whose `type` is not \"string\", \"integer\" or \"boolean\", the values MCP mirrors in a header"))
                .help("say `\"type\": \"string\"` (or \"integer\", \"boolean\") in the schema, or remove `header`"))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::TEST_HEAD as HEAD;
    use crate::diag::Diagnostic;

    /// `rows` after the test head: what the compiler made of them, or its errors.
    fn compile(rows: &str) -> Result<crate::model::CatalogModel, Vec<Diagnostic>> {
        crate::compile(&format!("{HEAD}{rows}"))
    }

    fn row(name: &str, extra: &str, params: &str) -> String {
        format!(
            "\n[[tool]]\nname = \"{name}\"\ndescription = \"A tool.\"\nvisibility = \"inline\"\neffect = \"reads\"\ntier = \"silent\"\n{extra}\n[tool.params]\n{params}\n"
        )
    }

    /// The row's schema for providers says nothing of headers; MCP's says `x-mcp-header`
    /// on each mirrored property, nested ones too, and the spec carries it for MCP only.
    #[test]
    fn a_header_is_listed_for_mcp_only() {
        let rows = row(
            "query",
            "",
            r#"region = { type = "string", header = "Region", description = "Where." }
limit = { type = "integer", minimum = 1, maximum = 9007199254740991, header = "Limit", default = 5 }
dry = { type = "boolean", header = "Dry-Run", required = false }
day = { schema = '{"type": "string", "format": "date"}', header = "Day", required = false }
scope = { type = "object", required = false, properties.tenant = { type = "string", header = "Tenant" }, properties.note = { type = "string" } }
text = { type = "string" }"#,
        );
        let catalog = compile(&rows).unwrap();
        let tool = catalog.tools.iter().find(|t| t.name == "query").unwrap();
        let provider = crate::schema::input(tool);
        assert!(!provider.to_string().contains("x-mcp-header"), "{provider}");
        let mcp = crate::schema::mcp_input(tool);
        let props = &mcp["properties"];
        assert_eq!(
            props["region"],
            json!({"type": "string", "description": "Where.", "x-mcp-header": "Region"})
        );
        assert_eq!(props["limit"]["x-mcp-header"], "Limit");
        assert_eq!(props["limit"]["default"], 5);
        assert_eq!(props["dry"]["x-mcp-header"], "Dry-Run");
        assert_eq!(
            props["day"],
            json!({"type": "string", "format": "date", "x-mcp-header": "Day"})
        );
        assert_eq!(
            props["scope"]["properties"]["tenant"]["x-mcp-header"],
            "Tenant"
        );
        assert!(
            props["scope"]["properties"]["note"]
                .get("x-mcp-header")
                .is_none()
        );
        assert!(props["text"].get("x-mcp-header").is_none());
        // Without the keyword, the two are the same schema.
        let mut stripped = mcp.clone();
        for p in ["region", "limit", "dry", "day"] {
            stripped["properties"][p]
                .as_object_mut()
                .unwrap()
                .remove("x-mcp-header");
        }
        stripped["properties"]["scope"]["properties"]["tenant"]
            .as_object_mut()
            .unwrap()
            .remove("x-mcp-header");
        assert_eq!(stripped, provider);
        // The spec: MCP's listing has it, the others' schema has not.
        let specs = crate::spec::specs(&catalog);
        let specs = specs.get();
        let spec = specs.iter().find(|s| s.name == "query").unwrap();
        assert_eq!(spec.mcp_schema(), mcp.to_string());
        assert_eq!(spec.input_schema, provider.to_string());
        let ask = specs.iter().find(|s| s.name == "ask").unwrap();
        assert_eq!(ask.mcp_input_schema, None);
        let listed: serde_json::Value = serde_json::from_str(&catalog_wire::render::mcp(
            specs,
            catalog_core::Access::FullAccess,
        ))
        .unwrap();
        assert_eq!(listed["tools"][1]["inputSchema"], mcp);
        let anthropic = catalog_wire::render::anthropic(specs);
        assert!(!anthropic.contains("x-mcp-header"), "{anthropic}");
    }

    /// Each rule of a header value, each reported where the value is, with the fix.
    #[test]
    fn header_names_are_http_tokens_without_the_prefix() {
        let cases = [
            (r#""""#, "`header` is empty", "e.g. `header = \"Region\"`"),
            (
                r#""Tenant Id""#,
                "`header` `Tenant Id` is not an HTTP header name: it holds a space",
                "e.g. `header = \"Tenant-Id\"`",
            ),
            (
                r#""a:b""#,
                "`header` `a:b` is not an HTTP header name: it holds `:`",
                "`header = \"a-b\"`",
            ),
            (
                r#""Région""#,
                "`header` `Région` is not an HTTP header name: it holds `é`, which is not ASCII",
                "`header = \"R-gion\"`",
            ),
            (
                r#""a\tb""#,
                "`header` `a\\tb` is not an HTTP header name: it holds a control character",
                "`header = \"a-b\"`",
            ),
            (
                r#""Mcp-Param-Region""#,
                "`header` `Mcp-Param-Region` repeats the `Mcp-Param-` that clients put before it",
                "`header = \"Region\"`: clients send `Mcp-Param-Region`",
            ),
            (
                "3",
                "`header` must be a string, found integer",
                "as a string",
            ),
        ];
        for (value, message, help) in cases {
            let params = format!("region = {{ type = \"string\", header = {value} }}");
            let source = format!("{HEAD}{}", row("query", "", &params));
            let errors = crate::compile(&source).unwrap_err();
            assert_eq!(errors.len(), 1, "{value}: {errors:#?}");
            assert_eq!(errors[0].message, message, "{value}");
            let at = source.rfind(value).unwrap();
            assert_eq!(errors[0].span, at..at + value.len(), "{value}");
            let said = errors[0].help.as_deref().unwrap_or_default();
            assert!(said.contains(help), "{value}: {said}");
        }
    }

    /// Every misplaced, mistyped or repeated header of a catalog, all at once, each on its
    /// value and naming the way out.
    #[test]
    fn every_header_rule_is_reported_at_once() {
        let rows = [
            row(
                "mixed",
                "",
                r#"ratio = { type = "number", header = "Ratio" }
tags = { type = "array", items = { type = "string" }, header = "Tags" }
filter = { type = "object", properties.kind = { type = "string" }, header = "Filter" }
big = { type = "integer", minimum = -9007199254740992, header = "Big" }
free = { schema = '{"type": ["string", "null"]}', header = "Free" }
twice = { schema = '{"type": "string", "x-mcp-header": "Twice"}', header = "Twice" }
rows = { type = "array", items = { type = "object", properties.id = { type = "string", header = "Id" } } }
region = { type = "string", header = "Region" }
zone = { type = "string", header = "region" }
again = { type = "boolean", header = "Region" }"#,
            ),
            row("hidden", "mcp = false", r#"who = { type = "string", header = "Who" }"#),
            format!(
                "{}\n[tool.output]\ntype = \"object\"\nproperties.count = {{ type = \"integer\", header = \"Count\" }}\n",
                row("counted", "", r#"n = { type = "integer", header = "N" }"#)
            ),
        ]
        .concat();
        let errors = compile(&rows).unwrap_err();
        let said: Vec<(&str, &str)> = errors
            .iter()
            .map(|d| (d.message.as_str(), d.help.as_deref().unwrap_or_default()))
            .collect();
        let expected = [
            "in tool `mixed`, parameter `ratio` is a number, which MCP does not mirror in a header",
            "in tool `mixed`, parameter `tags` is an array, which MCP does not mirror in a header",
            "in tool `mixed`, parameter `filter` is an object, which MCP does not mirror in a header",
            "in tool `mixed`, parameter `big` may be -9007199254740992, beyond the integers MCP mirrors in a header",
            "in tool `mixed`, parameter `free` has a `schema` whose `type` is not \"string\", \"integer\" or \"boolean\", the values MCP mirrors in a header",
            "in tool `mixed`, parameter `twice` has both `header` and an `x-mcp-header` in its `schema`",
            "in tool `mixed`, property `id` of the items of parameter `rows` is inside an array's items, which MCP does not mirror in a header",
            "in tool `mixed`, parameter `region` and parameter `zone` are both mirrored in `Mcp-Param-region` (`Region` and `region`: header names ignore case)",
            "in tool `mixed`, parameter `region` and parameter `again` are both mirrored in `Mcp-Param-Region`",
            "tool `hidden` is kept from MCP, so its parameter `who` is mirrored in no header",
            "in tool `counted`, property `count` of the output has a `header`",
        ];
        let messages: Vec<&str> = said.iter().map(|(m, _)| *m).collect();
        assert_eq!(messages, expected);
        for (message, help) in said {
            assert!(
                help.contains("`header`") || help.contains("bound it"),
                "{message}: {help}"
            );
        }
        // The repeat points at the first, and the hidden row at its `mcp = false`.
        let source = format!("{HEAD}{rows}");
        let first = source.find("\"Region\"").unwrap();
        assert_eq!(errors[7].related[0].span.start, first);
        let mcp = source.find("mcp = false").unwrap();
        assert_eq!(errors[9].related[0].span.start, mcp + "mcp = ".len());
    }

    /// The search tool is never on MCP: its `query` mirrors nothing.
    #[test]
    fn the_search_tool_has_no_header() {
        let head = HEAD.replace(
            "query = { type = \"string\" }",
            "query = { type = \"string\", header = \"Query\" }",
        );
        let errors = crate::compile(&head).unwrap_err();
        let messages: Vec<&str> = errors.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            ["the search tool `searchTools` has a parameter with a `header`"]
        );
    }
}
