//! The access rule, end to end: for every tool and every caller (the chat agent with the
//! tool active or not, an MCP client at each level) and every answer of the permission
//! hook, the handler runs exactly when `catalog_core::reach` allows the call and the hook
//! agrees; and what an MCP `tools/list` shows is exactly what such a client may call.
//! Run over a catalog with every kind of row, and over the tables catalog (`tests/data/tables.toml`).

use std::sync::Mutex;

use catalog_core::{
    Access, Caller, Context, Decision, Dispatch, Info, Lookup, Output, Reach, Tier, ToolId, Value,
    Verified, Via, reach,
};
use catalog_wire::render::{Format, render};
use serde_json::json;

catalog_macros::catalog!("fixtures/reach.toml");

/// A handler that records each call it receives.
#[derive(Default)]
struct Recorder {
    calls: Mutex<Vec<Caller>>,
}

impl Recorder {
    fn record(&self, caller: Caller) -> Value {
        self.calls.lock().unwrap().push(caller);
        Value::Null
    }
}

macro_rules! recording {
    ($($method:ident($args:ident)),* $(,)?) => {
        impl Handler for Recorder {
            type Error = &'static str;
            $(
                async fn $method(&self, context: Context, _args: $args) -> Result<Output, &'static str> {
                    Ok(self.record(context.caller()).into())
                }
            )*
        }
    };
}

recording! {
    ask(AskArgs),
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

/// Valid arguments for any tool of the fixture.
fn arguments(tool: Tool) -> Value {
    match tool {
        Tool::SearchTools => json!({"query": "anything"}),
        Tool::Ask => json!({"question": "Go on?"}),
        _ => json!({"n": 1}),
    }
}

/// What happened to one call.
#[derive(Debug, PartialEq)]
enum Outcome {
    Refused,
    HandlerRan,
    SearchHandedBack,
}

#[test]
fn the_handler_runs_exactly_when_the_rule_allows_and_the_hook_agrees() {
    let mut cases = 0;
    for tool in Tool::ALL {
        let spec = tool.spec();
        for active in [true, false] {
            // A conversation whose active set holds every tool, or only the search tool.
            let inline = if active { Catalog::ALL } else { ToolSet::EMPTY };
            let chat = Discovery::new(Info {
                inline,
                ..Catalog::INFO
            });
            let vias = [Via::Chat(&chat)]
                .into_iter()
                .chain(Access::ALL.map(|level| Via::Mcp(level, &Catalog)));
            for via in vias {
                let caller = via.caller();
                let is_active = chat.active().contains(tool);
                let allowed = reach(caller, is_active, spec.mcp, spec.access) == Reach::Allowed;
                for decision in [Decision::Allow, Decision::Deny, Decision::Ask] {
                    for approve in [true, false] {
                        cases += 1;
                        let recorder = Recorder::default();
                        let mut asked = 0;
                        let mut hook = |_: Caller, _: Tool, _: &Value| {
                            asked += 1;
                            decision
                        };
                        let outcome = run(via, tool, &recorder, &mut hook, approve);
                        let is_gated = spec.tier == Some(Tier::Gated);
                        let agreed = !is_gated
                            || decision == Decision::Allow
                            || (decision == Decision::Ask && approve);
                        let expected = match (allowed && agreed, tool == Catalog::SEARCH_TOOL) {
                            (false, _) => Outcome::Refused,
                            (true, true) => Outcome::SearchHandedBack,
                            (true, false) => Outcome::HandlerRan,
                        };
                        let what = format!(
                            "{tool} from {caller:?} (active: {is_active}), hook {decision:?}, approve {approve}"
                        );
                        assert_eq!(outcome, expected, "{what}");
                        let calls = recorder.calls.into_inner().unwrap();
                        let ran = usize::from(outcome == Outcome::HandlerRan);
                        assert_eq!(
                            calls,
                            vec![caller; ran],
                            "{what}: the handler sees the verified caller"
                        );
                        // The hook is asked about gated tools the caller reaches, and only those.
                        assert_eq!(
                            asked,
                            usize::from(allowed && is_gated),
                            "{what}: hook asked"
                        );
                    }
                }
            }
        }
    }
    assert_eq!(cases, Tool::COUNT * 2 * 4 * 3 * 2);
}

/// Verifies and runs one call the way an application does: a pending call is approved
/// when `approve` says the person agreed.
fn run(
    via: Via<'_, '_, Tool, 1>,
    tool: Tool,
    recorder: &Recorder,
    hook: &mut impl catalog_core::Permission<Tool>,
    approve: bool,
) -> Outcome {
    let call = match Catalog::verify(via, tool.name(), arguments(tool), hook) {
        Ok(Verified::Run(call)) => call,
        Ok(Verified::Ask(pending)) if approve => pending.approve(),
        Ok(Verified::Ask(_)) | Err(_) => return Outcome::Refused,
    };
    match pollster::block_on(call.run(recorder)) {
        Dispatch::Ran(result) => {
            assert_eq!(result, Ok(Output::Value(Value::Null)));
            Outcome::HandlerRan
        }
        Dispatch::Search(_) => Outcome::SearchHandedBack,
    }
}

/// The names an MCP `tools/list` at `level` shows, rendered from `set`.
fn listed<T: ToolId>(
    tools: &dyn Lookup<T>,
    set: impl IntoIterator<Item = T>,
    level: Access,
) -> Vec<String> {
    let specs = set.into_iter().map(|tool| tools.spec(tool));
    let list: Value = serde_json::from_str(&render(Format::Mcp(level), specs).unwrap()).unwrap();
    list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

/// For each level: the listing of the whole catalog, the derived set and the rule agree,
/// and a call with valid arguments passes the verifier's reach step exactly for them.
fn listing_is_what_may_be_called<T: ToolId + PartialEq + std::fmt::Debug>(
    tools: &dyn Lookup<T>,
    all: &[T],
    allowed: impl Fn(Access) -> Vec<T>,
    reaches: impl Fn(Access, T) -> bool,
) {
    for level in Access::ALL {
        let by_rule: Vec<T> = all
            .iter()
            .copied()
            .filter(|&t| tools.spec(t).reach(Caller::Mcp(level), false) == Reach::Allowed)
            .collect();
        assert_eq!(allowed(level), by_rule, "{level}: derived set");
        let names: Vec<String> = by_rule.iter().map(|&t| tools.name(t).to_owned()).collect();
        assert_eq!(
            listed(tools, all.iter().copied(), level),
            names,
            "{level}: listing"
        );
        for &tool in all {
            assert_eq!(
                reaches(level, tool),
                names.iter().any(|n| n == tools.name(tool)),
                "{level}: {tool:?}"
            );
        }
    }
}

#[test]
fn mcp_lists_exactly_what_it_may_call() {
    listing_is_what_may_be_called(
        &Catalog,
        &Tool::ALL,
        |level| Catalog::mcp_allowed(level).into_iter().collect(),
        |level, tool| {
            Catalog::verify(
                Via::Mcp(level, &Catalog),
                tool.name(),
                arguments(tool),
                &mut catalog_core::AllowAll,
            )
            .is_ok()
        },
    );
}

#[test]
fn the_example_lists_exactly_what_it_may_call() {
    use catalog_tests::tables::{Catalog, Tool};
    listing_is_what_may_be_called(
        &Catalog,
        &Tool::ALL,
        |level| Catalog::mcp_allowed(level).into_iter().collect(),
        // Arguments that fit no tool: a reachable tool gets as far as the argument check.
        |level, tool| match Catalog::verify(
            Via::Mcp(level, &Catalog),
            tool.name(),
            json!({"catalogProbe": 1}),
            &mut catalog_core::AllowAll,
        ) {
            Ok(_) => true,
            Err(rejection) => rejection.message.starts_with("Invalid arguments"),
        },
    );
}
