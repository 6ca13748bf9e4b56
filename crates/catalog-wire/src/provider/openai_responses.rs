//! The `OpenAI` Responses API: `function_call` items in, `function_call_output` items out.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::json;

use super::{Reply, ToolResult, ToolUse, Usage, arguments_from_string, array, string};
use catalog_core::{ToolId, Value};

/// A `Response`: its output items, kept whole as the next request's input.
pub(super) fn read(body: &Value) -> Result<Reply, String> {
    let output = array(&body["output"], "`output`")?;
    let mut reply = Reply {
        messages: output.clone(),
        stop: body["status"].as_str().map(ToString::to_string),
        usage: Usage {
            input_tokens: body["usage"]["input_tokens"].as_u64(),
            output_tokens: body["usage"]["output_tokens"].as_u64(),
        },
        ..Reply::default()
    };
    for item in output {
        item_into(item, &mut reply)?;
    }
    Ok(reply)
}

/// One output item's share of the reply: the text of a message, or a call.
pub(super) fn item_into(item: &Value, reply: &mut Reply) -> Result<(), String> {
    match item["type"].as_str() {
        Some("message") => {
            for part in item["content"].as_array().into_iter().flatten() {
                if part["type"] == "output_text" {
                    reply
                        .text
                        .push_str(string(&part["text"], "an `output_text` part's `text`")?);
                }
            }
        }
        Some("function_call") => reply.calls.push(ToolUse {
            id: string(&item["call_id"], "a `function_call`'s `call_id`")?.to_string(),
            name: string(&item["name"], "a `function_call`'s `name`")?.to_string(),
            arguments: arguments_from_string(string(
                &item["arguments"],
                "a `function_call`'s `arguments`",
            )?),
        }),
        _ => {}
    }
    Ok(())
}

/// A `function_call_output` item per call.
pub(super) fn write<T: ToolId>(results: &[ToolResult<T>]) -> Vec<Value> {
    results
        .iter()
        .map(|r| {
            json!({"type": "function_call_output", "call_id": r.call.id, "output": r.outcome.to_text()})
        })
        .collect()
}
