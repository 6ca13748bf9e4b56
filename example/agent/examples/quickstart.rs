//! The README's quickstart: a whole agent on the example catalog, through Anthropic.
//! `ANTHROPIC_API_KEY=... cargo run -p app-agent --example quickstart`
use app_backend::Backend;
use app_catalog::{Catalog, Tool};
use catalog_core::{Caller, Decision, Value};
use catalog_wire::Agent;
use catalog_wire::provider::{Conversation, Provider};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let key = std::env::var("ANTHROPIC_API_KEY")
        .map_err(|_| "set ANTHROPIC_API_KEY to your Anthropic API key")?;
    let provider = Provider::Anthropic; // or OpenAiChat, OpenAiResponses, Bedrock, Gemini
    let backend = Backend::new(); // implements the catalog's generated `Handler`
    let mut agent = Agent::new(Catalog, provider); // the conversation's discovery state
    let mut conversation = Conversation::new(Some("You work on the user's tables."));
    conversation.user(provider, "Which customers are in Berlin?");
    loop {
        // Yours: the HTTP call. The crate writes the body and reads the answer.
        let body = conversation.body(provider, "claude-sonnet-4-5", Some(&agent.tools()?), 4096);
        let answer = ureq::post("https://api.anthropic.com/v1/messages")
            .header("x-api-key", &key)
            .header("anthropic-version", "2023-06-01")
            .content_type("application/json")
            .send(body.as_str())?
            .body_mut()
            .read_to_string()?;
        let reply = agent.read(&serde_json::from_str(&answer)?)?;
        // Every call verified; a gated one the hook wants asked comes back as a question.
        let mut policy = |_: Caller, _: Tool, _: &Value| Decision::Ask;
        let mut step = agent.step(&reply, &mut policy);
        for question in step.questions() {
            question.deny(); // or `approve()`, once the user said yes
        }
        let results = pollster::block_on(step.run(&backend));
        conversation.reply(provider, &reply);
        if results.is_empty() {
            println!("{}", reply.text);
            return Ok(());
        }
        conversation.results(provider, agent.write(&results));
    }
}
