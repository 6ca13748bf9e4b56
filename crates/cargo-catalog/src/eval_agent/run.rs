//! One request through the agent step, as an application runs it, with handlers that
//! answer without side effects: what the model did, step by step.

use std::time::Instant;

use catalog_check::search::Request;
use catalog_core::{Discovery, ErrorClass, Lookup, SearchOutcome, ToolId};
use catalog_wire::agent::Agent;
use catalog_wire::provider::{Conversation, Outcome, Provider, ToolResult};
use serde::Serialize;

use super::send::Sender;
use super::split::{Evaluated, Fixed, Row, Split, WORDS};

/// The system prompt of every request: what an application tells its model about search.
const SYSTEM: &str = "You are an assistant with tools. Use a tool when one fits the request. \
When no tool you have fits, search for one with the search tool; when the request is \
unclear, ask the user.";

/// `max_tokens` of every request.
const MAX_TOKENS: u32 = 4096;

/// How a request's run ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum End {
    /// Every expected tool ran.
    Expected,
    /// The model answered in text before that.
    Answered,
    /// It spent the step budget.
    StepBudget,
    /// The provider failed (after retries): the message.
    Failed(String),
}

/// What the model did with one request.
#[derive(Clone, Debug, Serialize)]
pub(super) struct Record {
    pub(super) id: String,
    pub(super) split: String,
    pub(super) run: usize,
    /// Whether the first call of another tool than the search tool named an expected
    /// tool; `None` when the model called none.
    pub(super) selected: Option<bool>,
    /// Whether every expected tool ran.
    pub(super) success: bool,
    pub(super) end: End,
    pub(super) steps: usize,
    pub(super) searches: usize,
    /// Searches refused because the turn's budget was spent.
    pub(super) budget_exhausted: usize,
    /// Calls whose arguments the verifier refused.
    pub(super) argument_rejections: usize,
    /// Calls of a tool that was not in the active set (hidden, or no such tool).
    pub(super) unavailable: usize,
    pub(super) input_tokens: usize,
    pub(super) output_tokens: usize,
    pub(super) seconds: f64,
    /// Each call in order: `name` when it ran, `name ✗ CLASS` when refused,
    /// `search "query" → hits`.
    pub(super) path: Vec<String>,
}

impl Record {
    /// Counts one call's outcome, and adds it to the path; an expected tool that ran
    /// joins `ran`.
    fn note<'e>(
        &mut self,
        result: &ToolResult<Row>,
        expected: &[&'e str],
        ran: &mut Vec<&'e str>,
        search_tool: &str,
    ) {
        let name = result.call.name.as_str();
        if name != search_tool && self.selected.is_none() {
            self.selected = Some(expected.contains(&name));
        }
        let step = match &result.outcome {
            Outcome::Searched(SearchOutcome::Found(hits)) => {
                self.searches += 1;
                let names: Vec<&str> = hits.iter().map(|h| h.spec.name).collect();
                let query = result
                    .call
                    .arguments
                    .as_ref()
                    .ok()
                    .and_then(|a| a["query"].as_str())
                    .unwrap_or_default();
                format!("search {query:?} → {}", names.join(", "))
            }
            Outcome::Searched(SearchOutcome::BudgetExhausted { .. }) => {
                self.budget_exhausted += 1;
                String::from("search ✗ budget exhausted")
            }
            Outcome::Ran(_) | Outcome::Flagged { .. } => {
                if let Some(known) = expected.iter().find(|e| **e == name) {
                    ran.push(known);
                }
                name.to_string()
            }
            Outcome::Rejected(rejection) => {
                if rejection.is_invalid_arguments() {
                    self.argument_rejections += 1;
                } else if rejection.class == ErrorClass::SchemaResolution {
                    self.unavailable += 1;
                }
                format!("{name} ✗ {}", rejection.class)
            }
            Outcome::Waiting { .. } => format!("{name} (waiting)"),
        };
        self.path.push(step);
    }
}

/// Runs `request` on `split` through `sender`, at most `steps` requests to the model.
pub(super) fn run(
    split: &Split,
    sender: &Sender,
    model: &str,
    request: &Request,
    run: usize,
    steps: usize,
) -> Record {
    let provider: Provider = sender.api().provider();
    let expected: Vec<&str> = request
        .expected
        .iter()
        .filter_map(|&i| Row::from_index(i as usize))
        .filter(|row| row.index() < split.catalog.len())
        .map(|row| split.catalog.name(row))
        .collect();
    let mut record = Record {
        id: request.id.clone(),
        split: split.choice.name().to_string(),
        run,
        selected: None,
        success: false,
        end: End::StepBudget,
        steps: 0,
        searches: 0,
        budget_exhausted: 0,
        argument_rejections: 0,
        unavailable: 0,
        input_tokens: 0,
        output_tokens: 0,
        seconds: 0.0,
        path: Vec::new(),
    };
    let start = Instant::now();
    let info = split.catalog.info();
    let mut agent: Agent<'_, Evaluated, WORDS> =
        Agent::with_discovery(provider, Discovery::new(info));
    let mut conversation = Conversation::new(Some(SYSTEM));
    agent.new_turn();
    conversation.user(provider, &request.query);
    let mut ran: Vec<&str> = Vec::new();
    for _ in 0..steps {
        record.steps += 1;
        let tools = match agent.tools() {
            Ok(tools) => tools,
            Err(e) => {
                record.end = End::Failed(e.to_string());
                break;
            }
        };
        let body = conversation.body(provider, model, Some(&tools), MAX_TOKENS);
        let reply = match sender.send(&body, run).map(|json| agent.read(&json)) {
            Ok(Ok(reply)) => reply,
            Ok(Err(e)) => {
                record.end = End::Failed(e.to_string());
                break;
            }
            Err(failure) => {
                record.end = End::Failed(failure.to_string());
                break;
            }
        };
        let tokens = |n: Option<u64>| usize::try_from(n.unwrap_or(0)).unwrap_or(usize::MAX);
        record.input_tokens += tokens(reply.usage.input_tokens);
        record.output_tokens += tokens(reply.usage.output_tokens);
        if reply.calls.is_empty() {
            conversation.reply(provider, &reply);
            record.end = End::Answered;
            break;
        }
        // Gated tools run as if the user said yes: nothing runs for real.
        let mut allow = catalog_core::AllowAll;
        let step = agent.step(&reply, &mut allow);
        let results = pollster::block_on(step.run(&Fixed(split)));
        for result in &results {
            record.note(result, &expected, &mut ran, info.settings.search_tool);
        }
        conversation.reply(provider, &reply);
        conversation.results(provider, agent.write(&results));
        if expected.iter().all(|e| ran.contains(e)) {
            record.success = true;
            record.end = End::Expected;
            break;
        }
    }
    record.seconds = start.elapsed().as_secs_f64();
    record
}
