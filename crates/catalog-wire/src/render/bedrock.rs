//! Amazon Bedrock Converse: the `toolConfig` object.

use alloc::string::String;

use super::{RenderError, push_array, push_str};
use catalog_core::ToolSpec;

/// The Converse API's whole `toolConfig`: `{"tools":[{"toolSpec":{"name","description",
/// "inputSchema":{"json": schema}}}]}`, the name being the
/// [wire name](super#names-on-the-wire).
///
/// # Errors
/// [`RenderError::NoTools`] for an empty list: Converse requires at least one tool in a
/// `toolConfig`, so leave the `toolConfig` out instead.
pub fn bedrock<'a>(
    tools: impl IntoIterator<Item = &'a ToolSpec<'a>>,
) -> Result<String, RenderError> {
    let mut out = String::from("{\"tools\":");
    let count = push_array(&mut out, tools, |out, spec| {
        out.reserve(spec.input_schema.len() + spec.description.len() + 80);
        out.push_str("{\"toolSpec\":{\"name\":");
        push_str(out, spec.wire_name);
        out.push_str(",\"description\":");
        push_str(out, spec.description);
        out.push_str(",\"inputSchema\":{\"json\":");
        out.push_str(spec.input_schema);
        out.push_str("}}}");
    });
    out.push('}');
    if count == 0 {
        return Err(RenderError::NoTools {
            api: "Bedrock Converse",
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use serde_json::{Value, json};

    use super::*;
    use crate::render::fixtures::{self, parse, schema};

    #[test]
    fn tool_config_wraps_each_tool_spec() {
        let tools: Vec<Value> = fixtures::all()
            .into_iter()
            .map(|spec| {
                json!({"toolSpec": {
                    "name": spec.wire_name,
                    "description": spec.description,
                    "inputSchema": {"json": schema(spec.input_schema)},
                }})
            })
            .collect();
        assert_eq!(
            parse(&bedrock(fixtures::all()).unwrap()),
            json!({ "tools": tools })
        );
        assert_eq!(
            bedrock(fixtures::many(0)),
            Err(RenderError::NoTools {
                api: "Bedrock Converse"
            })
        );
    }
}
