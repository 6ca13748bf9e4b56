//! One agent step for each provider: render the active set for its request, read the
//! model's tool call from its answer, verify it, run it, and write the tool result.
//!
//! `cargo run -p app-backend --example agent_step`. No model is called: each provider's
//! answer is a literal of the shape that provider sends, so the example runs anywhere
//! (and `cargo test` builds it, so it cannot drift from the API).

use app_backend::Backend;
use app_catalog::{Catalog, Tool};
use catalog_core::render::{self, Format, ToolSearch};
use catalog_core::{Access, Caller, Decision, Discovery, Dispatch, Value, Verified, Via};
use serde_json::json;

fn main() -> Result<(), render::RenderError> {
    let backend = Backend::new();
    let mut chat = Catalog::discovery();

    // Anthropic Messages: `tools` is the active set; the answer holds `tool_use` blocks.
    let tools = render::render_set(Format::Anthropic, chat.active())?;
    let answer = json!({"type": "tool_use", "id": "toolu_1", "name": "searchTools",
                        "input": {"query": "export the table as csv"}});
    let result = step(&backend, &mut chat, &answer["name"], &answer["input"]);
    println!(
        "anthropic: {} bytes of tools; searchTools -> {result}\n",
        tools.len()
    );

    // Anthropic with its own server-side search: every tool, discoverable ones deferred.
    let tools = render::render_set(Format::AnthropicToolSearch(ToolSearch::Bm25), Catalog::ALL)?;
    println!("anthropic tool search: {} bytes of tools\n", tools.len());

    // OpenAI Chat Completions: the call comes back under the tool's wire name, and the
    // arguments as a JSON string.
    let tools = render::render_set(Format::OpenAiChat, chat.active())?;
    let answer = json!({"type": "function", "function": {"name": "exportCsv",
                        "arguments": "{\"table\": \"customers\"}"}});
    let arguments: Value =
        serde_json::from_str(answer["function"]["arguments"].as_str().unwrap_or("{}"))
            .unwrap_or(Value::Null);
    let result = step(&backend, &mut chat, &answer["function"]["name"], &arguments);
    println!(
        "openai: {} bytes of tools; exportCsv -> {result}\n",
        tools.len()
    );

    // Bedrock Converse: `toolConfig`; the answer holds `toolUse` blocks.
    let tool_config = render::render_set(Format::Bedrock, chat.active())?;
    let answer = json!({"toolUse": {"toolUseId": "t1", "name": "queryRows",
                        "input": {"table": "customers", "limit": 5000}}});
    let result = step(
        &backend,
        &mut chat,
        &answer["toolUse"]["name"],
        &answer["toolUse"]["input"],
    );
    println!(
        "bedrock: {} bytes of toolConfig; queryRows -> {result}\n",
        tool_config.len()
    );

    // MCP: a client at read-only lists what that level allows and calls through the same
    // verifier; a gated tool still meets the permission hook.
    let level = Access::ReadOnly;
    let list = render::render_set(Format::Mcp(level), Catalog::mcp_allowed(level))?;
    let refused = Catalog::verify(Via::Mcp(level), "commitStaged", json!({}), &mut policy)
        .err()
        .map(|rejection| rejection.to_json());
    println!(
        "mcp: {} bytes of tools/list; commitStaged -> {refused:?}",
        list.len()
    );
    Ok(())
}

/// The tool result for one call, as the model will read it.
fn step(
    backend: &Backend,
    chat: &mut Discovery<'static, Tool, 1>,
    name: &Value,
    input: &Value,
) -> String {
    // Providers that restrict names send the wire name back: map it to the tool's name.
    let name = name.as_str().unwrap_or_default();
    let name = Tool::from_wire_name(name).map_or(name, |tool| tool.name());
    let call = match Catalog::verify(Via::Chat(chat), name, input.clone(), &mut policy) {
        Ok(Verified::Run(call)) => call,
        // The hook wants the user's consent: a real app asks, then runs the call or
        // answers with `Rejection::denied`.
        Ok(Verified::Ask(call)) => return format!("waiting for the user to allow {}", call.tool()),
        Err(rejection) => return rejection.to_json(),
    };
    match pollster::block_on(call.run(backend)) {
        Dispatch::Search(args) => chat.search(&args.query).to_json(),
        Dispatch::Ran(Ok(result)) => result.to_string(),
        Dispatch::Ran(Err(rejection)) => rejection.to_json(),
    }
}

/// The application's permission hook for gated tools: here, ask the user every time.
fn policy(_caller: Caller, _tool: Tool, _arguments: &Value) -> Decision {
    Decision::Ask
}
