//! The generated API as a user's crate sees it: typed calls only after the verifier, the
//! discovery loop with its search budget, the permission hook, and MCP levels, all from
//! the notes catalog compiled in another crate of this workspace.

use catalog_core::{
    Access, AllowAll, Caller, Decision, DenyAll, Dispatch, ErrorClass, Rejection, Value, Verified,
    VerifiedCall, Via,
};
use notes_catalog::{Catalog, Tool, ToolCall};
use notes_server::Notes;
use serde_json::json;

fn run(notes: &Notes, call: VerifiedCall<ToolCall>) -> Result<Value, Rejection> {
    match pollster::block_on(call.run(notes)) {
        // Every notes tool answers with a JSON value.
        Dispatch::Ran(result) => result.map(|output| output.into_model_value().unwrap_or_default()),
        Dispatch::Search(args) => panic!("a search for {:?} reached the handler path", args.query),
    }
}

// ANCHOR: chat
#[test]
fn a_chat_agent_finds_a_tool_then_calls_it() {
    let notes = Notes::seeded();
    let mut chat = Catalog::discovery();
    // `readNote` is discoverable: unavailable until a search finds it.
    let refused = Catalog::verify(Via::Chat(&chat), "readNote", json!({"id": 1}), &mut DenyAll);
    let message = refused.unwrap_err().message;
    assert!(
        message.contains("Available tools: findTools, askUser, listNotes, addNote"),
        "{message}"
    );

    // The search tool is verified like any other, and handed back to the agent loop.
    let Ok(Verified::Run(search)) = Catalog::verify(
        Via::Chat(&chat),
        "findTools",
        json!({"query": "show one note in full"}),
        &mut DenyAll,
    ) else {
        panic!("the search tool is always callable");
    };
    let Dispatch::Search(args) = pollster::block_on(search.run(&notes)) else {
        panic!("the search tool never reaches the handler");
    };
    let found = chat.search(&args.query).to_json();
    assert!(found.contains("\"name\":\"readNote\""), "{found}");

    let Ok(Verified::Run(call)) =
        Catalog::verify(Via::Chat(&chat), "readNote", json!({"id": 1}), &mut DenyAll)
    else {
        panic!("readNote is active after the search");
    };
    let ToolCall::ReadNote(typed) = call.call() else {
        panic!("the typed call is readNote's");
    };
    assert_eq!(typed.id, 1);
    let note = run(&notes, call).unwrap();
    assert_eq!(note["title"], "Groceries");
}
// ANCHOR_END: chat

#[test]
fn the_search_budget_names_the_way_out() {
    let mut chat = Catalog::discovery();
    for _ in 0..Catalog::SETTINGS.searches_per_turn {
        chat.search("delete a note");
    }
    let over = chat.search("delete a note").to_json();
    assert!(
        over.contains("search-budget-exhausted") && over.contains("askUser"),
        "{over}"
    );
    chat.new_turn();
    assert!(
        chat.search("delete a note")
            .to_json()
            .contains("deleteNote")
    );
}

#[test]
fn arguments_are_checked_before_anything_runs() {
    let chat = Catalog::discovery();
    let rejection = Catalog::verify(
        Via::Chat(&chat),
        "listNotes",
        json!({"limit": 500, "tags": "x"}),
        &mut DenyAll,
    )
    .unwrap_err();
    // Every issue at once, each where it is and with the way out.
    let issues: Vec<&str> = rejection
        .issues
        .iter()
        .map(|i| i.message.as_str())
        .collect();
    assert_eq!(
        issues,
        [
            "`/limit`: 500 is above the maximum 100",
            "unknown parameter `tags` (did you mean `tag`?); the parameters are `tag`, `limit`",
        ],
        "{rejection}"
    );
    // Defaults fill in on the typed value.
    let Ok(Verified::Run(call)) =
        Catalog::verify(Via::Chat(&chat), "listNotes", Value::Null, &mut DenyAll)
    else {
        panic!("listNotes takes no required argument");
    };
    let ToolCall::ListNotes(args) = call.into_call() else {
        panic!("a listNotes call");
    };
    assert_eq!((args.limit, args.tag), (20, None));
}

#[test]
fn a_gated_tool_waits_for_the_hook_and_the_person() {
    let notes = Notes::seeded();
    let mut everything = Catalog::discovery();
    everything.search("delete a note for good");
    let mut asked = Vec::new();
    let mut hook = |caller: Caller, tool: Tool, _: &Value| {
        asked.push((caller, tool));
        Decision::Ask
    };
    let Ok(Verified::Ask(pending)) = Catalog::verify(
        Via::Chat(&everything),
        "deleteNote",
        json!({"id": 2}),
        &mut hook,
    ) else {
        panic!("deleteNote is gated: the hook is asked");
    };
    assert_eq!(asked, [(Caller::Chat, Tool::DeleteNote)]);
    assert_eq!(
        notes.all().len(),
        2,
        "nothing runs before the person agrees"
    );
    let deleted = run(&notes, pending.approve()).unwrap();
    assert_eq!(deleted["deleted"], 2);
    assert_eq!(notes.all().len(), 1);
}

#[test]
fn mcp_clients_reach_their_level_only() {
    let notes = Notes::seeded();
    let add = json!({"title": "Idea", "text": "A catalog for notes."});
    let refused = Catalog::verify(
        Via::Mcp(Access::ReadOnly, &Catalog),
        "addNote",
        add.clone(),
        &mut AllowAll,
    )
    .unwrap_err();
    assert_eq!(refused.class, ErrorClass::PermissionDenied);
    assert!(
        refused
            .message
            .contains("needs the read-and-stage access level"),
        "{refused}"
    );
    // Kept from MCP: unknown to every MCP client, whatever its level.
    let hidden = Catalog::verify(
        Via::Mcp(Access::FullAccess, &Catalog),
        "exportNotes",
        Value::Null,
        &mut AllowAll,
    )
    .unwrap_err();
    assert_eq!(hidden.message, "Unknown tool: exportNotes");

    let Ok(Verified::Run(call)) = Catalog::verify(
        Via::Mcp(Access::ReadAndStage, &Catalog),
        "addNote",
        add,
        &mut DenyAll,
    ) else {
        panic!("addNote is a silent read-and-stage tool");
    };
    assert_eq!(call.caller(), Caller::Mcp(Access::ReadAndStage));
    assert_eq!(run(&notes, call).unwrap()["draft"], true);
    let listed: Vec<Tool> = Catalog::mcp_allowed(Access::ReadOnly).into_iter().collect();
    assert_eq!(listed, [Tool::ListNotes, Tool::ReadNote]);
}

#[test]
fn a_failed_handler_is_a_runtime_error_that_names_the_fix() {
    let notes = Notes::seeded();
    let failed = Catalog::verify(
        Via::Mcp(Access::ReadOnly, &Catalog),
        "readNote",
        json!({"id": 9}),
        &mut DenyAll,
    );
    let Ok(Verified::Run(call)) = failed else {
        panic!("readNote is a silent read-only tool");
    };
    let rejection = run(&notes, call).unwrap_err();
    assert_eq!(rejection.class, ErrorClass::RuntimeError);
    assert!(
        rejection.message.contains("call `listNotes` for the ids"),
        "{rejection}"
    );
}

/// Code written once over any compiled catalog, through `catalog_core::CompiledCatalog`.
fn mcp_names<C: catalog_core::CompiledCatalog<W>, const W: usize>(
    level: Access,
) -> Vec<&'static str> {
    C::specs(C::mcp_allowed(level))
        .map(|spec| spec.name)
        .collect()
}

#[test]
fn the_catalog_trait_gives_the_same_sets() {
    assert_eq!(
        mcp_names::<Catalog, { Catalog::WORDS }>(Access::FullAccess),
        ["listNotes", "readNote", "addNote", "deleteNote"]
    );
}

#[test]
fn one_agent_step_reads_a_provider_reply_and_writes_its_results() {
    use catalog_core::Saved;
    use catalog_wire::{Agent, Provider};

    let notes = Notes::seeded();
    let provider = Provider::OpenAiChat;
    let mut agent = Agent::new(Catalog, provider);
    let call = |id: &str, name: &str, arguments: &str| json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}});
    let reply = agent
        .read(
            &json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null, "tool_calls": [
                call("c1", "findTools", r#"{"query": "show one note in full"}"#),
                call("c2", "readNote", r#"{"id": 1}"#),
                call("c3", "listNotes", r#"{"limit": 2"#),
            ]}}]}),
        )
        .unwrap();
    let step = agent.step(&reply, &mut DenyAll);
    let results = pollster::block_on(step.run(&notes));
    let messages = agent.write(&results);
    let ids: Vec<&str> = messages
        .iter()
        .map(|m| m["tool_call_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["c1", "c2", "c3"]);
    // The search's hit is callable by the call after it, in the same reply.
    assert!(
        messages[0]["content"]
            .as_str()
            .unwrap()
            .contains("readNote")
    );
    assert!(
        messages[1]["content"]
            .as_str()
            .unwrap()
            .contains("Groceries")
    );
    let unreadable = messages[2]["content"].as_str().unwrap();
    assert!(unreadable.contains("SCHEMA_RESOLUTION") && unreadable.contains("not valid JSON"));
    assert!(agent.tools().unwrap().contains("\"readNote\""));

    // Kept between two requests as JSON, and put back.
    let saved: Saved =
        serde_json::from_str(&serde_json::to_string(&agent.save()).unwrap()).unwrap();
    let (restored, dropped) = Agent::restore(Catalog, provider, &saved);
    assert!(dropped.is_empty());
    assert_eq!(restored.discovery().active(), agent.discovery().active());
    let stale = Saved {
        discovered: vec!["readNote".into(), "archiveNote".into()],
        searches_left: 1,
    };
    let (restored, dropped) = Agent::restore(Catalog, provider, &stale);
    assert_eq!(dropped, ["archiveNote"]);
    assert_eq!(restored.discovery().searches_left(), 1);
}
