//! OpenAI: Chat Completions and Responses API function tools.

use alloc::string::String;

use super::{RenderError, push_str};
use catalog_core::ToolSpec;

/// The most tools OpenAI accepts in one request, in either API.
pub const OPENAI_MAX_TOOLS: usize = 128;

/// Writes the array with `write` per tool, up to the limit; past it, only counts.
fn limited<'a>(
    api: &'static str,
    tools: impl IntoIterator<Item = &'a ToolSpec<'a>>,
    mut write: impl FnMut(&mut String, &ToolSpec),
) -> Result<String, RenderError> {
    let mut out = String::from("[");
    let mut count = 0;
    for spec in tools {
        count += 1;
        if count > OPENAI_MAX_TOOLS {
            continue;
        }
        if count > 1 {
            out.push(',');
        }
        out.reserve(spec.input_schema.len() + spec.description.len() + 96);
        write(&mut out, spec);
    }
    out.push(']');
    match count {
        0 => Err(RenderError::NoTools { api }),
        n if n > OPENAI_MAX_TOOLS => Err(RenderError::TooManyTools {
            api,
            count,
            limit: OPENAI_MAX_TOOLS,
        }),
        _ => Ok(out),
    }
}

/// `"name": wire name, "description", "parameters": schema`, the members both APIs share.
fn push_function(out: &mut String, spec: &ToolSpec) {
    out.push_str("\"name\":");
    push_str(out, spec.wire_name);
    out.push_str(",\"description\":");
    push_str(out, spec.description);
    out.push_str(",\"parameters\":");
    out.push_str(spec.input_schema);
}

/// The Chat Completions `tools` array: `[{"type":"function","function":{"name",
/// "description","parameters","strict":true}}]`, the name being the
/// [wire name](super#names-on-the-wire). `strict` is sent only for tools whose schema
/// meets strict mode ([`ToolSpec::strict`]); Chat Completions reads its absence as false.
///
/// # Errors
/// More than [`OPENAI_MAX_TOOLS`] tools, or none.
pub fn openai_chat<'a>(
    tools: impl IntoIterator<Item = &'a ToolSpec<'a>>,
) -> Result<String, RenderError> {
    limited("OpenAI Chat Completions", tools, |out, spec| {
        out.push_str("{\"type\":\"function\",\"function\":{");
        push_function(out, spec);
        if spec.strict {
            out.push_str(",\"strict\":true");
        }
        out.push_str("}}");
    })
}

/// The Responses API `tools` array: `[{"type":"function","name","description",
/// "parameters","strict"}]`, the name being the [wire name](super#names-on-the-wire).
/// `strict` is always written: the Responses API reads its absence as true, which would
/// refuse every schema that does not meet strict mode.
///
/// # Errors
/// More than [`OPENAI_MAX_TOOLS`] tools, or none.
pub fn openai_responses<'a>(
    tools: impl IntoIterator<Item = &'a ToolSpec<'a>>,
) -> Result<String, RenderError> {
    limited("OpenAI Responses API", tools, |out, spec| {
        out.push_str("{\"type\":\"function\",");
        push_function(out, spec);
        out.push_str(if spec.strict {
            ",\"strict\":true}"
        } else {
            ",\"strict\":false}"
        });
    })
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use serde_json::{Value, json};

    use super::*;
    use crate::render::fixtures::{self, parse, schema};

    #[test]
    fn chat_completions_nests_the_function_and_says_strict_only_when_it_holds() {
        let expected: Vec<Value> = fixtures::all()
            .into_iter()
            .map(|spec| {
                let mut function = json!({
                    "name": spec.wire_name,
                    "description": spec.description,
                    "parameters": schema(spec.input_schema),
                });
                if spec.strict {
                    function["strict"] = json!(true);
                }
                json!({"type": "function", "function": function})
            })
            .collect();
        let text = openai_chat(fixtures::all()).unwrap();
        assert_eq!(parse(&text), Value::Array(expected));
        assert!(
            text.contains(r#""name":"rows_stage""#),
            "the wire name: {text}"
        );
    }

    #[test]
    fn responses_is_flat_and_always_says_strict() {
        let expected: Vec<Value> = fixtures::all()
            .into_iter()
            .map(|spec| {
                json!({
                    "type": "function",
                    "name": spec.wire_name,
                    "description": spec.description,
                    "parameters": schema(spec.input_schema),
                    "strict": spec.strict,
                })
            })
            .collect();
        assert_eq!(
            parse(&openai_responses(fixtures::all()).unwrap()),
            Value::Array(expected)
        );
    }

    #[test]
    fn at_most_128_tools_and_at_least_one() {
        for render in [openai_chat, openai_responses] {
            let full = render(fixtures::many(OPENAI_MAX_TOOLS)).unwrap();
            assert_eq!(
                parse(&full).as_array().map(Vec::len),
                Some(OPENAI_MAX_TOOLS)
            );
            let Err(RenderError::TooManyTools { count, limit, .. }) = render(fixtures::many(1_853))
            else {
                panic!("1,853 tools rendered");
            };
            assert_eq!((count, limit), (1_853, OPENAI_MAX_TOOLS));
            assert!(matches!(
                render(fixtures::many(0)),
                Err(RenderError::NoTools { .. })
            ));
        }
    }
}
