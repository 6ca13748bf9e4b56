//! One agent step on a catalog with every kind of row: reads of one reply run at the same
//! time and a write alone, in order; the hook's questions approved, denied or left
//! unanswered; tools loaded by Anthropic's own search join the active set.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use catalog_core::talk::{Capability, Declared, Elicited, Peer, TalkError};
use catalog_core::{Caller, Decision, ErrorClass, Output, UrlElicitation, Value};
use catalog_wire::Agent;
use catalog_wire::provider::{Outcome, Provider, Reply, ToolUse};
use catalog_wire::render::ToolSearch;
use serde_json::json;

catalog_macros::catalog!("fixtures/reach.toml");

/// A handler whose every method logs its start, lets other futures run once, and logs its
/// end.
#[derive(Default)]
struct Log(Mutex<Vec<String>>);

impl Log {
    async fn call(&self, n: i64) -> Result<Output, &'static str> {
        self.0.lock().unwrap().push(format!("start {n}"));
        YieldOnce(false).await;
        self.0.lock().unwrap().push(format!("end {n}"));
        Ok(json!({"n": n}).into())
    }
}

/// Pending once, then ready: a handler that waits on something.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            return Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

macro_rules! logging {
    ($($method:ident($args:ident)),* $(,)?) => {
        impl Handler for Log {
            type Error = &'static str;
            async fn ask(&self, _: catalog_core::Context, _: AskArgs) -> Result<Output, &'static str> {
                Ok(json!({"answer": "yes"}).into())
            }
            $(
                async fn $method(&self, _: catalog_core::Context, args: $args) -> Result<Output, &'static str> {
                    self.call(args.n).await
                }
            )*
        }
    };
}

logging! {
    inline_silent_read_only_mcp(InlineSilentReadOnlyMcpArgs),
    inline_silent_read_only_chat_only(InlineSilentReadOnlyChatOnlyArgs),
    inline_silent_read_and_stage_mcp(InlineSilentReadAndStageMcpArgs),
    inline_silent_read_and_stage_chat_only(InlineSilentReadAndStageChatOnlyArgs),
    inline_gated_read_only_mcp(InlineGatedReadOnlyMcpArgs),
    inline_gated_read_only_chat_only(InlineGatedReadOnlyChatOnlyArgs),
    inline_gated_read_and_stage_mcp(InlineGatedReadAndStageMcpArgs),
    inline_gated_read_and_stage_chat_only(InlineGatedReadAndStageChatOnlyArgs),
    inline_gated_full_access_mcp(InlineGatedFullAccessMcpArgs),
    inline_gated_full_access_chat_only(InlineGatedFullAccessChatOnlyArgs),
    discoverable_silent_read_only_mcp(DiscoverableSilentReadOnlyMcpArgs),
    discoverable_silent_read_only_chat_only(DiscoverableSilentReadOnlyChatOnlyArgs),
    discoverable_silent_read_and_stage_mcp(DiscoverableSilentReadAndStageMcpArgs),
    discoverable_silent_read_and_stage_chat_only(DiscoverableSilentReadAndStageChatOnlyArgs),
    discoverable_gated_read_only_mcp(DiscoverableGatedReadOnlyMcpArgs),
    discoverable_gated_read_only_chat_only(DiscoverableGatedReadOnlyChatOnlyArgs),
    discoverable_gated_read_and_stage_mcp(DiscoverableGatedReadAndStageMcpArgs),
    discoverable_gated_read_and_stage_chat_only(DiscoverableGatedReadAndStageChatOnlyArgs),
    discoverable_gated_full_access_mcp(DiscoverableGatedFullAccessMcpArgs),
    discoverable_gated_full_access_chat_only(DiscoverableGatedFullAccessChatOnlyArgs),
}

/// A handler whose every method asks the user for a colour through its context (the same
/// handler an MCP server would run), or, for an `n` of 100 or more, sends the user to a URL.
struct Talking;

impl Talking {
    async fn talk(&self, context: catalog_core::Context, n: i64) -> Result<Output, &'static str> {
        if n >= 100 {
            return Ok(Output::needs_url(UrlElicitation {
                message: "Sign in first.".into(),
                url: "https://example.com/sign-in".into(),
                id: "s1".into(),
            }));
        }
        let schema = json!({"type": "object", "properties": {"colour": {"type": "string"}}});
        let caller = format!("{:?}", context.caller());
        Ok(match context.elicit("Which colour?", schema).await {
            Ok(Elicited::Accepted(answer)) => {
                json!({"n": n, "colour": answer["colour"], "caller": caller})
            }
            Ok(other) => json!({"n": n, "answer": format!("{other:?}")}),
            Err(e) => json!({"n": n, "error": e.to_string()}),
        }
        .into())
    }
}

macro_rules! talking {
    ($($method:ident($args:ident)),* $(,)?) => {
        impl Handler for Talking {
            type Error = &'static str;
            async fn ask(&self, _: catalog_core::Context, _: AskArgs) -> Result<Output, &'static str> {
                Err("not asked")
            }
            $(
                async fn $method(&self, context: catalog_core::Context, args: $args) -> Result<Output, &'static str> {
                    self.talk(context, args.n).await
                }
            )*
        }
    };
}

talking! {
    inline_silent_read_only_mcp(InlineSilentReadOnlyMcpArgs),
    inline_silent_read_only_chat_only(InlineSilentReadOnlyChatOnlyArgs),
    inline_silent_read_and_stage_mcp(InlineSilentReadAndStageMcpArgs),
    inline_silent_read_and_stage_chat_only(InlineSilentReadAndStageChatOnlyArgs),
    inline_gated_read_only_mcp(InlineGatedReadOnlyMcpArgs),
    inline_gated_read_only_chat_only(InlineGatedReadOnlyChatOnlyArgs),
    inline_gated_read_and_stage_mcp(InlineGatedReadAndStageMcpArgs),
    inline_gated_read_and_stage_chat_only(InlineGatedReadAndStageChatOnlyArgs),
    inline_gated_full_access_mcp(InlineGatedFullAccessMcpArgs),
    inline_gated_full_access_chat_only(InlineGatedFullAccessChatOnlyArgs),
    discoverable_silent_read_only_mcp(DiscoverableSilentReadOnlyMcpArgs),
    discoverable_silent_read_only_chat_only(DiscoverableSilentReadOnlyChatOnlyArgs),
    discoverable_silent_read_and_stage_mcp(DiscoverableSilentReadAndStageMcpArgs),
    discoverable_silent_read_and_stage_chat_only(DiscoverableSilentReadAndStageChatOnlyArgs),
    discoverable_gated_read_only_mcp(DiscoverableGatedReadOnlyMcpArgs),
    discoverable_gated_read_only_chat_only(DiscoverableGatedReadOnlyChatOnlyArgs),
    discoverable_gated_read_and_stage_mcp(DiscoverableGatedReadAndStageMcpArgs),
    discoverable_gated_read_and_stage_chat_only(DiscoverableGatedReadAndStageChatOnlyArgs),
    discoverable_gated_full_access_mcp(DiscoverableGatedFullAccessMcpArgs),
    discoverable_gated_full_access_chat_only(DiscoverableGatedFullAccessChatOnlyArgs),
}

/// The application's dialog, as the handlers' context reaches it in chat: it takes forms,
/// and its user answers blue.
struct Dialog;

impl Peer for Dialog {
    fn declared(&self) -> Declared {
        Declared::of(&[Capability::ElicitationForm])
    }

    fn elicit_form(
        &self,
        _: String,
        _: catalog_core::Map<String, Value>,
    ) -> catalog_core::BoxFuture<'_, Result<Elicited, TalkError>> {
        let answer = catalog_core::Map::from_iter([("colour".to_owned(), json!("blue"))]);
        Box::pin(async move { Ok(Elicited::Accepted(answer)) })
    }
}

/// A reply holding these calls, `c1`, `c2`, ... in order.
fn reply(calls: &[(Tool, i64)]) -> Reply {
    Reply {
        calls: calls
            .iter()
            .enumerate()
            .map(|(i, (tool, n))| ToolUse {
                id: format!("c{}", i + 1),
                name: tool.spec().wire_name.to_string(),
                arguments: Ok(json!({"n": n})),
            })
            .collect(),
        ..Reply::default()
    }
}

#[test]
fn a_handler_talks_back_to_the_application_through_the_same_context_as_over_mcp() {
    let tool = Tool::InlineSilentReadOnlyMcp;
    let deny = |_: Caller, _: Tool, _: &Value| Decision::Deny;
    let mut agent = Agent::new(Catalog, Provider::OpenAiChat).with_peer(Arc::new(Dialog));
    let step = agent.step(&reply(&[(tool, 1), (tool, 100)]), &mut { deny });
    let results = pollster::block_on(step.run(&Talking));
    assert_eq!(
        results[0].outcome,
        Outcome::Ran(json!({"n": 1, "colour": "blue", "caller": "Chat"}))
    );
    // A URL to visit first is the model's to tell the user of, then call again.
    let Outcome::Rejected(sign_in) = &results[1].outcome else {
        panic!("{:?}", results[1]);
    };
    assert!(
        sign_in
            .message
            .contains("https://example.com/sign-in (Sign in first.)"),
        "{}",
        sign_in.message
    );
    // An application that gives its agent no peer: the handler reads why it was not asked.
    let mut agent = Agent::new(Catalog, Provider::OpenAiChat);
    let step = agent.step(&reply(&[(tool, 2)]), &mut { deny });
    let results = pollster::block_on(step.run(&Talking));
    let Outcome::Ran(value) = &results[0].outcome else {
        panic!("{:?}", results[0]);
    };
    assert!(
        value["error"]
            .as_str()
            .is_some_and(|e| e.contains("declared no `elicitation.form` capability")),
        "{value}"
    );
}

#[test]
fn reads_run_together_and_a_write_runs_alone_in_order() {
    let read = Tool::InlineSilentReadOnlyMcp;
    let write = Tool::InlineSilentReadAndStageMcp;
    let mut agent = Agent::new(Catalog, Provider::OpenAiChat);
    let step = agent.step(
        &reply(&[(read, 1), (read, 2), (write, 3), (read, 4), (read, 5)]),
        &mut |_: Caller, _: Tool, _: &Value| Decision::Deny,
    );
    let log = Log::default();
    let results = pollster::block_on(step.run(&log));
    let ids: Vec<&str> = results.iter().map(|r| r.call.id.as_str()).collect();
    assert_eq!(ids, ["c1", "c2", "c3", "c4", "c5"]);
    assert_eq!(
        *log.0.lock().unwrap(),
        [
            "start 1", "start 2", "end 1", "end 2", "start 3", "end 3", "start 4", "start 5",
            "end 4", "end 5"
        ]
    );
    for (i, result) in results.iter().enumerate() {
        assert_eq!(result.outcome, Outcome::Ran(json!({"n": i + 1})));
    }
}

#[test]
fn questions_are_approved_denied_or_left_waiting() {
    let gated = Tool::InlineGatedReadOnlyMcp;
    let mut agent = Agent::new(Catalog, Provider::Anthropic);
    let mut asked = Vec::new();
    let mut step = agent.step(
        &reply(&[
            (gated, 1),
            (gated, 2),
            (gated, 3),
            (Tool::InlineSilentReadOnlyMcp, 4),
        ]),
        &mut |caller: Caller, tool: Tool, arguments: &Value| {
            asked.push((caller, tool, arguments["n"].clone()));
            Decision::Ask
        },
    );
    assert_eq!(asked.len(), 3, "the hook sees the gated calls only");
    let mut questions = step.questions();
    let first = questions.next().unwrap();
    assert_eq!((first.tool(), first.call().id.as_str()), (gated, "c1"));
    first.approve();
    questions.next().unwrap().deny();
    assert!(questions.next().is_some() && questions.next().is_none());
    drop(questions);
    let log = Log::default();
    let results = pollster::block_on(step.run(&log));
    assert_eq!(results[0].outcome, Outcome::Ran(json!({"n": 1})));
    let Outcome::Rejected(denied) = &results[1].outcome else {
        panic!("{:?}", results[1]);
    };
    assert_eq!(denied.class, ErrorClass::PermissionDenied);
    assert!(denied.message.contains("call `ask`"), "{}", denied.message);
    let waiting = Outcome::Waiting {
        tool: gated,
        name: gated.name(),
    };
    assert_eq!(results[2].outcome, waiting);
    assert!(!results[2].outcome.is_error());
    assert_eq!(results[3].outcome, Outcome::Ran(json!({"n": 4})));
    // Nothing ran but what was approved and the silent call.
    assert_eq!(
        *log.0.lock().unwrap(),
        ["start 1", "start 4", "end 1", "end 4"]
    );
    let written = agent.write(&results);
    assert_eq!(written[0]["content"][1]["is_error"], true);
    assert!(
        written[0]["content"][2]["content"]
            .as_str()
            .unwrap()
            .contains("waiting-for-user")
    );
}

#[test]
fn tools_anthropic_loaded_join_the_active_set() {
    let found = Tool::DiscoverableSilentReadOnlyMcp;
    let provider = Provider::AnthropicToolSearch(ToolSearch::Bm25);
    let mut agent = Agent::new(Catalog, provider);
    let calls = reply(&[(found, 1)]);
    // Not found by any search yet: unavailable, as any undiscovered tool.
    let step = agent.step(&calls, &mut |_: Caller, _: Tool, _: &Value| Decision::Deny);
    let results = pollster::block_on(step.run(&Log::default()));
    assert!(
        matches!(&results[0].outcome, Outcome::Rejected(r) if r.message.contains("unavailable tool"))
    );
    // Anthropic's search loaded it in the same reply: it runs.
    let loaded = Reply {
        loaded: vec![found.spec().wire_name.to_string()],
        ..calls
    };
    let step = agent.step(&loaded, &mut |_: Caller, _: Tool, _: &Value| Decision::Deny);
    let results = pollster::block_on(step.run(&Log::default()));
    assert_eq!(results[0].outcome, Outcome::Ran(json!({"n": 1})));
    assert!(agent.discovery().active().contains(found));
    // Its tool list holds every tool, the discoverable ones deferred.
    let tools: Value = serde_json::from_str(&agent.tools().unwrap()).unwrap();
    let deferred = tools
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["defer_loading"] == true)
        .count();
    assert_eq!(deferred, Catalog::DISCOVERABLE.len());
}
