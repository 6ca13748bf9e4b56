//! The Gemini API: `functionCall` parts in, `functionResponse` parts out.

use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use serde_json::{Map, json};

use super::{Reply, ToolResult, ToolUse, Usage, string};
use catalog_core::{ToolId, Value};

/// A `GenerateContentResponse`: its first candidate's content, kept whole (thought
/// signatures included, which Gemini wants back) as the model's turn.
pub(super) fn read(body: &Value) -> Result<Reply, String> {
    let Some(candidate) = body["candidates"].as_array().and_then(|c| c.first()) else {
        return Err(match body["promptFeedback"]["blockReason"].as_str() {
            Some(reason) => alloc::format!("no candidate: the prompt was blocked ({reason})"),
            None => String::from("no `candidates`"),
        });
    };
    let mut reply = Reply {
        stop: candidate["finishReason"].as_str().map(ToString::to_string),
        usage: usage(body),
        ..Reply::default()
    };
    let content = &candidate["content"];
    if content["parts"].is_array() {
        reply.messages.push(content.clone());
        for part in content["parts"].as_array().into_iter().flatten() {
            part_into(part, &mut reply)?;
        }
    }
    Ok(reply)
}

/// The tokens of `usageMetadata`.
pub(super) fn usage(body: &Value) -> Usage {
    Usage {
        input_tokens: body["usageMetadata"]["promptTokenCount"].as_u64(),
        output_tokens: body["usageMetadata"]["candidatesTokenCount"].as_u64(),
    }
}

/// One part's share of the reply: text that is not a thought, or a call.
pub(super) fn part_into(part: &Value, reply: &mut Reply) -> Result<(), String> {
    if let Some(call) = part.get("functionCall") {
        reply.calls.push(ToolUse {
            id: call["id"].as_str().unwrap_or_default().to_string(),
            name: string(&call["name"], "a `functionCall`'s `name`")?.to_string(),
            arguments: Ok(call.get("args").cloned().unwrap_or(Value::Null)),
        });
    } else if let Some(text) = part["text"].as_str()
        && part["thought"] != true
    {
        reply.text.push_str(text);
    }
    Ok(())
}

/// One `user` content holding a `functionResponse` part per call, named as called and
/// with its id when Gemini gave one; `response` is `{"output": ...}`, or `{"error": ...}`
/// on a refusal, as the API reference asks.
pub(super) fn write<T: ToolId>(results: &[ToolResult<T>]) -> Vec<Value> {
    let parts: Vec<Value> = results
        .iter()
        .map(|r| {
            let key = if r.outcome.is_error() {
                "error"
            } else {
                "output"
            };
            let mut response = Map::new();
            if !r.call.id.is_empty() {
                response.insert("id".into(), r.call.id.clone().into());
            }
            response.insert("name".into(), r.call.name.clone().into());
            response.insert("response".into(), json!({ key: r.outcome.to_value() }));
            json!({ "functionResponse": response })
        })
        .collect();
    vec![json!({"role": "user", "parts": parts})]
}
