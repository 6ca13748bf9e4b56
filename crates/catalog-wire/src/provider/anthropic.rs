//! Anthropic's Messages API: `tool_use` blocks in, `tool_result` blocks out.

use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use serde_json::{Map, json};

use super::{Outcome, Reply, ToolResult, ToolUse, Usage, array, string};
use crate::render::search_result_content;
use catalog_core::{ToolId, Value};

/// A `Message`: its content blocks, kept whole as the assistant's turn.
pub(super) fn read(body: &Value) -> Result<Reply, String> {
    let content = array(&body["content"], "`content`")?;
    let mut reply = Reply {
        messages: vec![json!({"role": "assistant", "content": content})],
        stop: body["stop_reason"].as_str().map(ToString::to_string),
        usage: Usage {
            input_tokens: body["usage"]["input_tokens"].as_u64(),
            output_tokens: body["usage"]["output_tokens"].as_u64(),
        },
        ..Reply::default()
    };
    for block in content {
        block_into(block, &mut reply)?;
    }
    Ok(reply)
}

/// One content block's share of the reply: text, a call, or the tools a server-side
/// search loaded; every other block (thinking, `server_tool_use`, ...) only stays in the
/// kept message.
pub(super) fn block_into(block: &Value, reply: &mut Reply) -> Result<(), String> {
    match block["type"].as_str() {
        Some("text") => reply
            .text
            .push_str(string(&block["text"], "a text block's `text`")?),
        Some("tool_use") => reply.calls.push(ToolUse {
            id: string(&block["id"], "a `tool_use` block's `id`")?.to_string(),
            name: string(&block["name"], "a `tool_use` block's `name`")?.to_string(),
            arguments: Ok(block["input"].clone()),
        }),
        Some("tool_search_tool_result") => {
            let references = block["content"]["tool_references"].as_array();
            for reference in references.into_iter().flatten() {
                if let Some(name) = reference["tool_name"].as_str() {
                    reply.loaded.push(name.to_string());
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// One `user` message holding a `tool_result` block per call. With the catalog's own
/// search under tool search, a search's callable hits go back as `tool_reference` blocks,
/// which make Anthropic load those tools.
pub(super) fn write<T: ToolId>(results: &[ToolResult<T>], references: bool) -> Vec<Value> {
    let blocks: Vec<Value> = results
        .iter()
        .map(|r| {
            let content = match &r.outcome {
                Outcome::Searched(outcome) if references => {
                    super::parse_or_string(search_result_content(outcome))
                }
                outcome => Value::String(outcome.to_text()),
            };
            let mut block = Map::new();
            block.insert("type".into(), "tool_result".into());
            block.insert("tool_use_id".into(), r.call.id.clone().into());
            block.insert("content".into(), content);
            if r.outcome.is_error() {
                block.insert("is_error".into(), true.into());
            }
            Value::Object(block)
        })
        .collect();
    vec![json!({"role": "user", "content": blocks})]
}
