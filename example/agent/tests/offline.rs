//! The quickstart's loop with no key and no network: `catalog_providers::scripted::Model`
//! plays the model on a loopback port. The agent-loop chapter shows this file as the
//! recipe for testing an agent offline, so what it shows is what runs here.

// ANCHOR: offline
use app_backend::Backend;
use app_catalog::{Catalog, Tool};
use catalog_core::{Caller, Decision, Value};
use catalog_providers::scripted::{Model, Turn};
use catalog_wire::Agent;
use catalog_wire::provider::{Conversation, Provider};
use serde_json::json;

#[test]
fn the_agent_loop_runs_against_a_scripted_model() -> Result<(), Box<dyn std::error::Error>> {
    let provider = Provider::Anthropic;
    // The model's turns, one per request: a call, then the answer.
    let berlin = json!({"column": "city", "op": "eq", "value": "Berlin"});
    let model = Model::start(
        provider,
        vec![
            Turn::calls([(
                "queryRows",
                json!({"table": "customers", "filter": {"conditions": [berlin]}}),
            )]),
            Turn::text("Northwind Traders is in Berlin."),
        ],
    );
    let backend = Backend::new();
    let mut agent = Agent::new(Catalog, provider);
    let mut conversation = Conversation::new(Some("You work on the user's tables."));
    conversation.user(provider, "Which customers are in Berlin?");
    let text = loop {
        let body = conversation.body(provider, "scripted", Some(&agent.tools()?), 4096);
        // The quickstart's HTTP call, to the local model: no key, nothing leaves the machine.
        let answer = ureq::post(format!("{}/v1/messages", model.base_url()))
            .content_type("application/json")
            .send(body.as_str())?
            .body_mut()
            .read_to_string()?;
        let reply = agent.read(&serde_json::from_str(&answer)?)?;
        let mut policy = |_: Caller, _: Tool, _: &Value| Decision::Deny;
        let results = pollster::block_on(agent.step(&reply, &mut policy).run(&backend));
        conversation.reply(provider, &reply);
        if results.is_empty() {
            break reply.text;
        }
        conversation.results(provider, agent.write(&results));
    };
    assert_eq!(text, "Northwind Traders is in Berlin.");
    // What the model was sent: the question, then the rows the handler found.
    let received = model.received();
    assert_eq!(received.len(), 2);
    assert_eq!(received[1].results(provider), 1);
    assert!(received[1].body.to_string().contains("Northwind Traders"));
    Ok(())
}
// ANCHOR_END: offline
