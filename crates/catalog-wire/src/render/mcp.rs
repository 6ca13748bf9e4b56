//! MCP: the `tools/list` result a server sends a client at one access level.

use alloc::string::String;

use super::{push_array, push_str};
use catalog_core::{Access, Caller, Effect, Reach, ToolSpec};

/// The `tools/list` result for a client at `level`: `{"tools":[{"name","description",
/// "inputSchema","outputSchema"?,"annotations"}]}`, with only the tools such a client may
/// call — `mcp = true` and an access level at most `level` (so never the search tool) —
/// under their catalog names.
///
/// `inputSchema` is [`ToolSpec::mcp_schema`]: the input schema, with the `x-mcp-header` of
/// each parameter the row mirrors in an HTTP header, which only MCP clients read.
///
/// `outputSchema` is sent when the row declares an output whose root is an object (MCP's
/// structured content is always an object). The annotations say only what the row
/// declares, its effect's [`Effect::hints`]: a tool that stages is neither destructive nor
/// open world, since its changes wait for review; one that acts is destructive. Nothing is
/// claimed about idempotence.
#[must_use]
pub fn mcp<'a>(tools: impl IntoIterator<Item = &'a ToolSpec<'a>>, level: Access) -> String {
    let mut out = String::from("{\"tools\":");
    let allowed = tools
        .into_iter()
        .filter(|spec| spec.reach(Caller::Mcp(level), false) == Reach::Allowed);
    push_array(&mut out, allowed, |out, spec| {
        let input_schema = spec.mcp_schema();
        out.reserve(
            input_schema.len()
                + spec.output_schema.map_or(0, str::len)
                + spec.description.len()
                + 128,
        );
        out.push_str("{\"name\":");
        push_str(out, spec.name);
        out.push_str(",\"description\":");
        push_str(out, spec.description);
        out.push_str(",\"inputSchema\":");
        out.push_str(input_schema);
        if let Some(schema) = spec.output_schema.filter(|s| is_object_schema(s)) {
            out.push_str(",\"outputSchema\":");
            out.push_str(schema);
        }
        out.push_str(",\"annotations\":{");
        let hints = spec.effect.unwrap_or(Effect::Reads).hints();
        for (i, (hint, value)) in hints.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_str(out, hint);
            out.push_str(if *value { ":true" } else { ":false" });
        }
        out.push_str("}}");
    });
    out.push('}');
    out
}

/// Whether a schema's root says `"type": "object"`. Reads the root's keys only, skipping
/// the values of the others without building them.
fn is_object_schema(schema: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Root<'a> {
        #[serde(rename = "type", borrow, default)]
        ty: Option<&'a str>,
    }
    serde_json::from_str::<Root<'_>>(schema).is_ok_and(|root| root.ty == Some("object"))
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use serde_json::{Value, json};

    use super::*;
    use crate::render::fixtures::{self, DROP, READ, STAGE, parse, schema};

    fn entry(spec: &ToolSpec, annotations: &Value) -> Value {
        let mut v = json!({
            "name": spec.name,
            "description": spec.description,
            "inputSchema": schema(spec.input_schema),
            "annotations": annotations,
        });
        if let Some(out) = spec.output_schema.filter(|s| is_object_schema(s)) {
            v["outputSchema"] = schema(out);
        }
        v
    }

    #[test]
    fn each_level_lists_the_tools_it_may_call_with_their_hints() {
        let read = entry(&READ, &json!({"readOnlyHint": true}));
        let stage = entry(
            &STAGE,
            &json!({"readOnlyHint": false, "destructiveHint": false, "openWorldHint": false}),
        );
        let drop = entry(
            &DROP,
            &json!({"readOnlyHint": false, "destructiveHint": true}),
        );
        let expected = [
            (Access::ReadOnly, json!({"tools": [read]})),
            (Access::ReadAndStage, json!({"tools": [read, stage]})),
            (Access::FullAccess, json!({"tools": [read, stage, drop]})),
        ];
        for (level, expected) in expected {
            assert_eq!(parse(&mcp(fixtures::all(), level)), expected, "{level}");
        }
        // The object output is listed, the array output is not.
        let full = parse(&mcp(fixtures::all(), Access::FullAccess));
        let outputs: Vec<bool> = full["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.get("outputSchema").is_some())
            .collect();
        assert_eq!(outputs, [true, false, false]);
        assert_eq!(mcp([], Access::FullAccess), r#"{"tools":[]}"#);
    }

    #[test]
    fn object_schemas_are_told_by_their_root() {
        for (schema, object) in [
            (r#"{"type":"object"}"#, true),
            (
                r#"{"description":"x \"y\"","properties":{"type":{"type":"string"}},"type":"object"}"#,
                true,
            ),
            (r#"{"properties":{"type":{"type":"object"}}}"#, false),
            (r#"{"type":"array","items":{"type":"object"}}"#, false),
            (r#"{"type":["object","null"]}"#, false),
            (r"{}", false),
        ] {
            assert_eq!(is_object_schema(schema), object, "{schema}");
        }
    }
}
