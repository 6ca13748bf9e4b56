//! `OpenAI` Chat Completions: `tool_calls` with string arguments in, `tool` messages out.

use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use serde_json::{Map, json};

use super::{Reply, ToolResult, ToolUse, Usage, arguments_from_string, array, string};
use catalog_core::{ToolId, Value};

/// A `ChatCompletion`: its first choice's message.
pub(super) fn read(body: &Value) -> Result<Reply, String> {
    let choice = array(&body["choices"], "`choices`")?
        .first()
        .ok_or_else(|| String::from("`choices` is empty"))?;
    let message = &choice["message"];
    if !message.is_object() {
        return Err(String::from("the first choice has no `message`"));
    }
    let mut calls = Vec::new();
    if let Some(tool_calls) = message["tool_calls"].as_array() {
        for call in tool_calls {
            calls.push(ToolUse {
                id: string(&call["id"], "a tool call's `id`")?.to_string(),
                name: string(&call["function"]["name"], "a tool call's `function.name`")?
                    .to_string(),
                arguments: arguments_from_string(string(
                    &call["function"]["arguments"],
                    "a tool call's `function.arguments`",
                )?),
            });
        }
    }
    let text = message["content"].as_str().unwrap_or_default().to_string();
    Ok(Reply {
        messages: vec![assistant(message)],
        text,
        calls,
        loaded: Vec::new(),
        stop: choice["finish_reason"].as_str().map(ToString::to_string),
        usage: Usage {
            input_tokens: body["usage"]["prompt_tokens"].as_u64(),
            output_tokens: body["usage"]["completion_tokens"].as_u64(),
        },
    })
}

/// The assistant message as a request takes it back: the response's message carries
/// fields a request does not (`annotations`, `refusal: null`), which are left out.
pub(super) fn assistant(message: &Value) -> Value {
    let mut kept = Map::new();
    kept.insert("role".into(), "assistant".into());
    // `content` is always there, `null` beside tool calls, as the API writes it.
    kept.insert("content".into(), message["content"].clone());
    for key in ["refusal", "tool_calls"] {
        match &message[key] {
            Value::Null => {}
            Value::Array(calls) if calls.is_empty() => {}
            value => {
                kept.insert(key.into(), value.clone());
            }
        }
    }
    Value::Object(kept)
}

/// A `tool` message per call; the text of a refusal says it is one.
pub(super) fn write<T: ToolId>(results: &[ToolResult<T>]) -> Vec<Value> {
    results
        .iter()
        .map(|r| json!({"role": "tool", "tool_call_id": r.call.id, "content": r.outcome.to_text()}))
        .collect()
}
