//! Bedrock's Converse API: `toolUse` blocks in, `toolResult` blocks out.

use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use serde_json::{Map, json};

use super::{Reply, ToolResult, ToolUse, Usage, array, string};
use catalog_core::{ToolId, Value};

/// A Converse output: `output.message`, kept whole as the assistant's turn.
pub(super) fn read(body: &Value) -> Result<Reply, String> {
    let message = &body["output"]["message"];
    let content = array(&message["content"], "`output.message.content`")?;
    let mut reply = Reply {
        messages: vec![json!({"role": "assistant", "content": content})],
        stop: body["stopReason"].as_str().map(ToString::to_string),
        usage: Usage {
            input_tokens: body["usage"]["inputTokens"].as_u64(),
            output_tokens: body["usage"]["outputTokens"].as_u64(),
        },
        ..Reply::default()
    };
    for block in content {
        if let Some(text) = block["text"].as_str() {
            reply.text.push_str(text);
        } else if let Some(call) = block.get("toolUse") {
            reply.calls.push(ToolUse {
                id: string(&call["toolUseId"], "a `toolUse`'s `toolUseId`")?.to_string(),
                name: string(&call["name"], "a `toolUse`'s `name`")?.to_string(),
                arguments: Ok(call["input"].clone()),
            });
        }
    }
    Ok(reply)
}

/// One `user` message holding a `toolResult` block per call: an object result as `json`,
/// anything else as `text`, and `status: "error"` on a refusal.
pub(super) fn write<T: ToolId>(results: &[ToolResult<T>]) -> Vec<Value> {
    let blocks: Vec<Value> = results
        .iter()
        .map(|r| {
            let value = r.outcome.to_value();
            let content = if value.is_object() {
                json!({ "json": value })
            } else {
                json!({ "text": r.outcome.to_text() })
            };
            let mut result = Map::new();
            result.insert("toolUseId".into(), r.call.id.clone().into());
            result.insert("content".into(), json!([content]));
            if r.outcome.is_error() {
                result.insert("status".into(), "error".into());
            }
            json!({ "toolResult": result })
        })
        .collect();
    vec![json!({"role": "user", "content": blocks})]
}
