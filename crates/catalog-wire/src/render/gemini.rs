//! Google Gemini API: the `tools` array of `generateContent`.

use alloc::string::String;

use super::{RenderError, push_array, push_str};
use catalog_core::ToolSpec;

/// The Gemini API's `tools` array: `[{"functionDeclarations":[{"name","description",
/// "parameters"}]}]`, one `Tool` holding a declaration per tool (google-genai merges the
/// functions it is given into one `Tool` the same way), the name being the
/// [wire name](super#names-on-the-wire).
///
/// `parameters` is the compiler's conversion of the input schema into Gemini's `Schema`
/// ([`ToolSpec::gemini_parameters`]: one type per node, `nullable`, `anyOf`, upper-case
/// type names, `propertyOrdering`), left out for a tool without parameters as the API
/// reference asks. The verifier still checks each call against the full input schema.
///
/// # Errors
/// [`RenderError::NoTools`] for an empty list: a `Tool` without declarations is no tool
/// (google-genai leaves it out of the request), so leave `tools` out instead.
pub fn gemini<'a>(
    tools: impl IntoIterator<Item = &'a ToolSpec<'a>>,
) -> Result<String, RenderError> {
    let mut out = String::from("[{\"functionDeclarations\":");
    let count = push_array(&mut out, tools, |out, spec| {
        out.reserve(spec.gemini_parameters.map_or(0, str::len) + spec.description.len() + 64);
        out.push_str("{\"name\":");
        push_str(out, spec.wire_name);
        out.push_str(",\"description\":");
        push_str(out, spec.description);
        if let Some(parameters) = spec.gemini_parameters {
            out.push_str(",\"parameters\":");
            out.push_str(parameters);
        }
        out.push('}');
    });
    out.push_str("}]");
    if count == 0 {
        return Err(RenderError::NoTools { api: "Gemini API" });
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
    fn one_tool_declares_every_function() {
        let declarations: Vec<Value> = fixtures::all()
            .into_iter()
            .map(|spec| {
                let mut d = json!({"name": spec.wire_name, "description": spec.description});
                if let Some(p) = spec.gemini_parameters {
                    d["parameters"] = schema(p);
                }
                d
            })
            .collect();
        let text = gemini(fixtures::all()).unwrap();
        assert_eq!(
            parse(&text),
            json!([{ "functionDeclarations": declarations }])
        );
        // The wire name, and no `parameters` for a tool without any.
        assert!(text.contains(r#"{"name":"rows_stage","#), "{text}");
        assert!(text.contains(r#"{"name":"dropTable","description":"Does one thing."}"#));
        assert_eq!(
            gemini(fixtures::many(0)),
            Err(RenderError::NoTools { api: "Gemini API" })
        );
    }
}
