use std::time::Duration;

use catalog_core::{Access, Effect, Shape, Tier, ToolRow, ToolSpec, Visibility};
use catalog_wire::provider::{Conversation, Outcome, ToolResult, read, write};
use catalog_wire::render::{ToolSearch, render};

use super::*;
use crate::Api;

const fn row(
    name: &'static str,
    wire_name: &'static str,
    visibility: Visibility,
) -> ToolSpec<'static> {
    ToolSpec {
        name,
        description: "Does one thing.",
        keywords: &[],
        examples: &[],
        visibility,
        effect: Some(Effect::Reads),
        tier: Some(Tier::Silent),
        access: Some(Access::ReadOnly),
        mcp: true,
        task: None,
        wire_name,
        input_schema: r#"{"type":"object","properties":{},"additionalProperties":false}"#,
        gemini_parameters: None,
        mcp_input_schema: None,
        input: Shape::Any,
        strict: true,
        output_schema: None,
        output: None,
    }
}

/// The catalog's search tool: no tier, no access level.
static SEARCH: ToolSpec = ToolSpec {
    effect: None,
    tier: None,
    access: None,
    mcp: false,
    ..row("searchTools", "searchTools", Visibility::Inline)
};
static LIST: ToolSpec = row("listTables", "listTables", Visibility::Inline);
/// Found by search: deferred under Anthropic's tool search.
static STAGE: ToolSpec = row("rows.stage", "rows_stage", Visibility::Discoverable);

const TASK: &str = "Which tables are there?";

fn received(body: &str) -> Received {
    Received {
        path: String::from("/"),
        headers: Vec::new(),
        body: serde_json::from_str(body).unwrap(),
    }
}

/// A conversation as an agent holds it after one step: the task, a reply of two calls
/// (from this endpoint, read by the crate), their results, and a second user message.
fn conversation(provider: Provider) -> (Conversation, Conversation) {
    let mut first = Conversation::new(Some("You work on tables."));
    first.user(provider, TASK);
    let mut later = first.clone();
    let turn = Turn::text("Let me look.")
        .call("listTables", json!({}))
        .call("searchTools", json!({"query": "stage"}));
    let reply = read(provider, &reply(provider, 0, &turn)).unwrap();
    let results: Vec<ToolResult<ToolRow>> = reply
        .calls
        .iter()
        .map(|call| ToolResult {
            call: call.clone(),
            outcome: Outcome::Ran(json!({"tables": ["customers"]})),
        })
        .collect();
    later.reply(provider, &reply);
    later.results(provider, write(provider, &results));
    later.user(provider, "And the next one?");
    (first, later)
}

#[test]
fn the_tools_offered_and_the_task_are_read_from_what_the_crate_sends() {
    let all = ["searchTools", "listTables", "rows_stage"];
    for (provider, offered) in [
        (Provider::Anthropic, &all[..]),
        (Provider::OpenAiChat, &all[..]),
        (Provider::OpenAiResponses, &all[..]),
        (Provider::Bedrock, &all[..]),
        (Provider::Gemini, &all[..]),
        // Anthropic's search tool comes first, and has no name of the catalog's.
        (
            Provider::AnthropicToolSearch(ToolSearch::Bm25),
            &["listTables"][..],
        ),
        (
            Provider::AnthropicToolSearch(ToolSearch::Catalog),
            &["searchTools", "listTables"][..],
        ),
    ] {
        let tools = render(provider.format(), [&SEARCH, &LIST, &STAGE]).unwrap();
        let (first, later) = conversation(provider);
        for (conversation, results) in [(first, 0), (later, 2)] {
            let request = received(&conversation.body(provider, "m", Some(&tools), 64));
            assert_eq!(request.tools(provider), offered, "{provider}");
            assert_eq!(
                request.user_text(provider).as_deref(),
                Some(TASK),
                "{provider}: {}",
                request.body
            );
            assert_eq!(request.results(provider), results, "{provider}");
        }
        let bare = received(&Conversation::new(None).body(provider, "m", None, 64));
        assert!(bare.tools(provider).is_empty(), "{provider}");
        assert_eq!(bare.user_text(provider), None, "{provider}");
        assert_eq!(bare.results(provider), 0, "{provider}");
    }
}

#[test]
fn the_task_is_read_in_the_shapes_the_apis_also_take() {
    let cases = [
        (
            Provider::Anthropic,
            json!({"messages": [{"role": "user", "content": "Hi"}]}),
        ),
        (
            Provider::OpenAiChat,
            json!({"messages": [{"role": "developer", "content": "Be brief."},
                    {"role": "user", "content": [{"type": "text", "text": "Hi"}]}]}),
        ),
        (Provider::OpenAiResponses, json!({"input": "Hi"})),
        (
            Provider::OpenAiResponses,
            json!({"input": [{"type": "message", "role": "user",
                    "content": [{"type": "input_text", "text": "Hi"}, {"type": "input_image", "image_url": "x"}]}]}),
        ),
        (
            Provider::Gemini,
            json!({"contents": [{"parts": [{"text": "Hi"}]}]}),
        ),
    ];
    for (provider, body) in cases {
        let request = received(&body.to_string());
        assert_eq!(request.user_text(provider).as_deref(), Some("Hi"), "{body}");
    }
    // Anthropic's tool types other than the application's own are not its tools.
    let request = received(
            &json!({"tools": [{"type": "web_search_20250305", "name": "web_search"},
                {"type": "custom", "name": "a", "input_schema": {}}, {"name": "b", "input_schema": {}}]})
            .to_string(),
        );
    assert_eq!(request.tools(Provider::Anthropic), ["a", "b"]);
}

#[test]
fn every_error_body_reads_as_the_providers_error() {
    let providers = Provider::APIS
        .into_iter()
        .chain([Provider::AnthropicToolSearch(ToolSearch::Regex)]);
    for provider in providers {
        for status in [400, 408, 429, 500, 503, 504, 529] {
            let body = error(provider, status);
            assert!(
                matches!(
                    read(provider, &body),
                    Err(catalog_wire::provider::ReplyError::Provider { .. })
                ),
                "{provider} {status}: {body}"
            );
        }
    }
}

fn api(provider: Provider, model: &Model) -> Api {
    Api::new(provider, Some(&model.base_url()), "scripted:1", |name| {
        (name != "AWS_BEARER_TOKEN_BEDROCK" && name != "AWS_SESSION_TOKEN")
            .then(|| String::from("key"))
    })
    .unwrap()
}

fn body(provider: Provider) -> String {
    let mut conversation = Conversation::new(None);
    conversation.user(provider, TASK);
    conversation.body(provider, "scripted:1", None, 64)
}

#[test]
fn a_script_plays_its_turns_then_a_rate_limit() {
    for provider in Provider::APIS {
        let model = Model::start(provider, vec![Turn::calls([("listTables", json!({}))])]);
        let api = api(provider, &model);
        let reply = read(provider, &api.send(&body(provider)).unwrap()).unwrap();
        assert_eq!(reply.calls[0].name, "listTables", "{provider}");
        assert_eq!(reply.usage.input_tokens, Some(INPUT_TOKENS), "{provider}");
        assert_eq!(reply.usage.output_tokens, Some(OUTPUT_TOKENS), "{provider}");
        let failure = api.send(&body(provider)).unwrap_err();
        assert_eq!(failure.status, Some(429), "{provider}");
        assert_eq!(failure.retry_after, Some(Duration::from_secs(7)));
        assert!(failure.retryable());
        assert!(
            failure
                .to_string()
                .starts_with(&format!("{provider} answered HTTP 429 Too Many Requests"))
                && failure.to_string().ends_with("; retry in 7 s"),
            "{failure}"
        );
        assert_eq!(model.received().len(), 2);
        assert_eq!(model.replies().len(), 2);
        assert_eq!(
            model.received()[0].user_text(provider).as_deref(),
            Some(TASK)
        );
    }
}

#[test]
fn a_played_model_answers_each_request_and_many_clients_at_once() {
    let provider = Provider::OpenAiChat;
    let model = Model::play(provider, |request| {
        match request.user_text(Provider::OpenAiChat).as_deref() {
            Some("fail") => Answer::Error {
                status: 503,
                retry_after: None,
            },
            text => Turn::text(format!("you said {}", text.unwrap_or_default())).into(),
        }
    });
    let api = api(provider, &model);
    let ask = |text: String| {
        let mut conversation = Conversation::new(None);
        conversation.user(provider, &text);
        api.send(&conversation.body(provider, "m", None, 64))
    };
    let failure = ask(String::from("fail")).unwrap_err();
    assert_eq!((failure.status, failure.retry_after), (Some(503), None));
    assert!(failure.retryable());
    assert!(
        failure.to_string().contains("(server_error)") && !failure.to_string().contains("retry in"),
        "{failure}"
    );
    thread::scope(|scope| {
        let clients: Vec<_> = (0..8)
            .map(|i| scope.spawn(move || ask(format!("n{i}"))))
            .collect();
        for (i, client) in clients.into_iter().enumerate() {
            let reply = client.join().unwrap().unwrap();
            assert_eq!(
                reply["choices"][0]["message"]["content"],
                format!("you said n{i}")
            );
        }
    });
    assert_eq!(model.received().len(), 9);
    assert_eq!(model.replies().len(), 9);
}
