//! Reading and writing on hand-made bodies: the edges each provider's shape has. The
//! recorded replies and streams, checked with the providers' SDKs, are in
//! `tests/tests/providers.rs`.

use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use serde_json::{Value, json};

use super::*;
use crate::render::fixtures::{Row, Rows};
use catalog_core::Lookup;
use catalog_core::{ErrorClass, Found};

fn call(id: &str, name: &str) -> ToolUse {
    ToolUse {
        id: id.to_string(),
        name: name.to_string(),
        arguments: Ok(json!({})),
    }
}

fn rejection() -> Rejection {
    Rejection::runtime(Rows.name(Row::new(1)), "the disk is full")
}

/// A result, a refusal, a search and a spent budget, in that order.
fn results() -> Vec<ToolResult<'static, Row>> {
    vec![
        ToolResult {
            call: call("c1", "readRows"),
            outcome: Outcome::Ran(json!({"rows": 3})),
        },
        ToolResult {
            call: call("c2", "readRows"),
            outcome: Outcome::Rejected(rejection()),
        },
        ToolResult {
            call: call("c3", "searchTools"),
            outcome: Outcome::Searched(SearchOutcome::Found(vec![Found {
                tool: Row::new(2),
                spec: Rows.spec(Row::new(2)),
                score: 1.0,
                callable: true,
            }])),
        },
        ToolResult {
            call: call("", "searchTools"),
            outcome: Outcome::Searched(SearchOutcome::BudgetExhausted {
                cap: 3,
                ask_tool: "ask",
            }),
        },
    ]
}

#[test]
fn each_provider_flags_errors_its_own_way() {
    let anthropic = write(Provider::Anthropic, &results());
    let blocks = &anthropic[0]["content"];
    assert_eq!(anthropic.len(), 1);
    assert_eq!(anthropic[0]["role"], "user");
    assert_eq!(blocks[0]["tool_use_id"], "c1");
    assert_eq!(blocks[0]["content"], r#"{"rows":3}"#);
    assert_eq!(blocks[0].get("is_error"), None);
    assert_eq!(blocks[1]["is_error"], true);
    assert_eq!(blocks[1]["content"], rejection().to_json());
    assert_eq!(blocks[2].get("is_error"), None);
    assert_eq!(blocks[3]["is_error"], true);

    let bedrock = write(Provider::Bedrock, &results());
    let blocks = &bedrock[0]["content"];
    assert_eq!(
        blocks[0]["toolResult"]["content"],
        json!([{"json": {"rows": 3}}])
    );
    assert_eq!(blocks[0]["toolResult"].get("status"), None);
    assert_eq!(blocks[1]["toolResult"]["status"], "error");
    assert_eq!(blocks[3]["toolResult"]["status"], "error");

    let gemini = write(Provider::Gemini, &results());
    let parts = &gemini[0]["parts"];
    assert_eq!(
        parts[0]["functionResponse"],
        json!({"id": "c1", "name": "readRows", "response": {"output": {"rows": 3}}})
    );
    assert_eq!(
        parts[1]["functionResponse"]["response"]["error"]["error"],
        "RUNTIME_ERROR"
    );
    // Gemini may send a call without an id: its response carries none.
    assert_eq!(parts[3]["functionResponse"].get("id"), None);
    assert!(parts[3]["functionResponse"]["response"]["error"].is_object());

    let chat = write(Provider::OpenAiChat, &results());
    assert_eq!(chat.len(), 4);
    assert_eq!(
        chat[1],
        json!({"role": "tool", "tool_call_id": "c2", "content": rejection().to_json()})
    );
    let responses = write(Provider::OpenAiResponses, &results());
    assert_eq!(
        responses[0],
        json!({"type": "function_call_output", "call_id": "c1", "output": r#"{"rows":3}"#})
    );
    assert!(write::<Row>(Provider::Gemini, &[]).is_empty());
}

#[test]
fn anthropic_tool_search_answers_the_catalogs_search_with_references() {
    let written = write(
        Provider::AnthropicToolSearch(ToolSearch::Catalog),
        &results(),
    );
    assert_eq!(
        written[0]["content"][2]["content"],
        json!([{"type": "tool_reference", "tool_name": "rows_stage"}])
    );
    let plain = write(Provider::AnthropicToolSearch(ToolSearch::Bm25), &results());
    assert!(plain[0]["content"][2]["content"].is_string());
}

#[test]
fn arguments_that_are_not_json_are_the_parse_error() {
    let body = json!({"choices": [{"finish_reason": "tool_calls", "message": {
    "role": "assistant", "content": null, "refusal": null, "annotations": [],
    "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "readRows", "arguments": "{\"rows\": "}},
        {"id": "b", "type": "function", "function": {"name": "ask", "arguments": ""}}
    ]}}]});
    let reply = read(Provider::OpenAiChat, &body).unwrap();
    let error = reply.calls[0].arguments.as_ref().unwrap_err();
    assert!(
        error.contains("EOF") && error.contains("`{\"rows\": `"),
        "{error}"
    );
    assert_eq!(reply.calls[1].arguments, Ok(Value::Null));
    // What a request takes back: no `annotations`, no `refusal: null`.
    let mut keys: Vec<_> = reply.messages[0].as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(keys, ["content", "role", "tool_calls"]);
    let rejection = Rejection::unreadable_arguments(Some("readRows"), "readRows", error);
    assert_eq!(rejection.class, ErrorClass::SchemaResolution);
    assert!(
        rejection.message.contains("not valid JSON"),
        "{}",
        rejection.message
    );
}

#[test]
fn provider_errors_and_wrong_bodies_are_told_apart() {
    for (provider, body, kind) in [
        (
            Provider::Anthropic,
            json!({"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}),
            "rate_limit_error",
        ),
        (
            Provider::OpenAiChat,
            json!({"error": {"message": "slow down", "type": "requests", "code": "rate_limit_exceeded"}}),
            "requests",
        ),
        (
            Provider::Gemini,
            json!({"error": {"code": 429, "message": "slow down", "status": "RESOURCE_EXHAUSTED"}}),
            "RESOURCE_EXHAUSTED",
        ),
        (
            Provider::Bedrock,
            json!({"message": "slow down", "__type": "com.amazon.coral#ThrottlingException"}),
            "ThrottlingException",
        ),
    ] {
        let error = read(provider, &body).unwrap_err();
        assert_eq!(
            error,
            ReplyError::Provider {
                kind: Some(kind.to_string()),
                message: "slow down".to_string()
            }
        );
    }
    let error = read(Provider::OpenAiResponses, &json!({"choices": []})).unwrap_err();
    assert!(error.to_string().contains("`output`"), "{error}");
    // A Responses object says `"error": null` when all went well.
    let ok = json!({"error": null, "status": "completed", "output": []});
    assert!(read(Provider::OpenAiResponses, &ok).is_ok());
}

#[test]
fn mixed_text_and_calls_keep_the_text_and_unknown_blocks() {
    let content = json!([
        {"type": "thinking", "thinking": "hm", "signature": "s"},
        {"type": "text", "text": "Let me look. "},
        {"type": "tool_use", "id": "t1", "name": "readRows", "input": {"rows": 1}},
        {"type": "text", "text": "And search."},
        {"type": "server_tool_use", "id": "s1", "name": "tool_search_tool_bm25", "input": {"query": "stage"}},
        {"type": "tool_search_tool_result", "tool_use_id": "s1", "content": {
            "type": "tool_search_tool_search_result",
            "tool_references": [{"type": "tool_reference", "tool_name": "rows_stage"}]}}
    ]);
    let reply = read(
        Provider::Anthropic,
        &json!({"content": content, "stop_reason": "tool_use", "usage": {"input_tokens": 7, "output_tokens": 2}}),
    )
    .unwrap();
    assert_eq!(reply.text, "Let me look. And search.");
    assert_eq!(
        reply.calls,
        [ToolUse {
            arguments: Ok(json!({"rows": 1})),
            ..call("t1", "readRows")
        }]
    );
    assert_eq!(reply.loaded, ["rows_stage"]);
    assert_eq!(
        reply.messages,
        [json!({"role": "assistant", "content": content})]
    );
    assert_eq!(reply.usage.input_tokens, Some(7));
}

#[test]
fn server_sent_events_split_anywhere() {
    let text = "event: a\r\ndata: {\"x\":\ndata:1}\r\n\r\n: comment\n\ndata:[DONE]\n\ndata: cut";
    let whole = Sse::new().push(text.as_bytes());
    assert_eq!(whole, ["{\"x\":\n1}", "[DONE]"]);
    for size in 1..text.len() {
        let mut sse = Sse::new();
        let mut events = Vec::new();
        for chunk in text.as_bytes().chunks(size) {
            events.extend(sse.push(chunk));
        }
        assert_eq!(events, whole, "chunks of {size}");
    }
}

#[test]
fn a_conversation_merges_turns_where_roles_must_alternate() {
    for provider in [Provider::Anthropic, Provider::Bedrock, Provider::Gemini] {
        let mut conversation = Conversation::new(Some("Be brief."));
        conversation.user(provider, "hello");
        conversation.results(provider, write(provider, &results()[..1]));
        conversation.user(provider, "and then?");
        assert_eq!(conversation.messages.len(), 1, "{provider}");
        let body: Value =
            serde_json::from_str(&conversation.body(provider, "m", Some("[]"), 100)).unwrap();
        let tools = if provider == Provider::Bedrock {
            "toolConfig"
        } else {
            "tools"
        };
        assert_eq!(body[tools], json!([]), "{provider}");
    }
    let mut conversation = Conversation::new(None);
    conversation.user(Provider::OpenAiChat, "hello");
    conversation.results(
        Provider::OpenAiChat,
        write(Provider::OpenAiChat, &results()),
    );
    assert_eq!(conversation.messages.len(), 5);
    let body = conversation.body(Provider::OpenAiChat, "m", None, 100);
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body.get("tools"), None);
    assert_eq!(String::from("m"), body["model"]);
}
