//! Between two requests to a chat provider: the tool calls its reply holds, and the tool
//! results the next request carries, each in that provider's own shapes.
//!
//! [`read`] turns a reply into a [`Reply`]: what the conversation keeps of it (sent back
//! as it came, text, reasoning and server-side blocks untouched), its text, and its
//! [`ToolUse`]s in order. [`write()`] turns each call's [`Outcome`] into the provider's
//! tool-result message(s), with the call's id and the provider's error flag. [`Stream`]
//! takes a streamed reply's events and yields the same [`Reply`] once it is complete, the
//! text as it arrives. [`Conversation`] keeps the messages and writes the request body.
//!
//! | provider | calls in a reply | results, written as | error flag |
//! |---|---|---|---|
//! | Anthropic Messages | `tool_use` content blocks | one `user` message of `tool_result` blocks | `is_error` |
//! | `OpenAI` Chat Completions | `message.tool_calls`, arguments a JSON string | a `tool` message per call | none: the text says it |
//! | `OpenAI` Responses | `function_call` output items, arguments a JSON string | a `function_call_output` item per call | none: the text says it |
//! | Bedrock Converse | `toolUse` content blocks | one `user` message of `toolResult` blocks | `status: "error"` |
//! | Gemini API | `functionCall` parts | one `user` content of `functionResponse` parts | `response.error` |
//!
//! Arguments that are not JSON (`OpenAI` sends them as a string) are kept as the parse
//! error, which the agent step answers with a `SCHEMA_RESOLUTION` rejection: never a panic.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::render::{Format, ToolSearch};
use catalog_core::{Rejection, SearchOutcome, ToolId, Value};

mod anthropic;
mod bedrock;
mod conversation;
mod gemini;
mod openai_chat;
mod openai_responses;
mod stream;
#[cfg(test)]
mod tests;

pub use conversation::Conversation;
pub use stream::{Cut, Finished, Sse, Stream};

/// A chat provider's API: how its replies hold calls and how its requests carry results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    /// Anthropic's Messages API.
    Anthropic,
    /// Anthropic's Messages API with tool search: the discoverable tools are deferred
    /// (see [`render::anthropic_tool_search`](crate::render::anthropic_tool_search)).
    AnthropicToolSearch(ToolSearch),
    /// `OpenAI` Chat Completions.
    OpenAiChat,
    /// The `OpenAI` Responses API.
    OpenAiResponses,
    /// Amazon Bedrock's Converse API.
    Bedrock,
    /// The Gemini API (`generateContent`).
    Gemini,
}

impl Provider {
    /// The five APIs, Anthropic without tool search, in the order reports list them.
    pub const APIS: [Provider; 5] = [
        Provider::Anthropic,
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Bedrock,
        Provider::Gemini,
    ];

    /// The name `cargo catalog render --provider` takes.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::AnthropicToolSearch(_) => "anthropic-tool-search",
            Provider::OpenAiChat => "openai-chat",
            Provider::OpenAiResponses => "openai-responses",
            Provider::Bedrock => "bedrock",
            Provider::Gemini => "gemini",
        }
    }

    /// What the API is called, for people (a command's help, a report).
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            Provider::Anthropic => "Anthropic's Messages API",
            Provider::AnthropicToolSearch(_) => {
                "Anthropic's Messages API, the discoverable tools deferred to a tool search"
            }
            Provider::OpenAiChat => "OpenAI's Chat Completions",
            Provider::OpenAiResponses => "OpenAI's Responses API",
            Provider::Bedrock => "Amazon Bedrock's Converse API",
            Provider::Gemini => "The Gemini API",
        }
    }

    /// One of [`Provider::APIS`] by its [name](Provider::name).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Provider> {
        Provider::APIS.into_iter().find(|p| p.name() == name)
    }

    /// How its requests carry the tool list.
    #[must_use]
    pub const fn format(self) -> Format {
        match self {
            Provider::Anthropic => Format::Anthropic,
            Provider::AnthropicToolSearch(search) => Format::AnthropicToolSearch(search),
            Provider::OpenAiChat => Format::OpenAiChat,
            Provider::OpenAiResponses => Format::OpenAiResponses,
            Provider::Bedrock => Format::Bedrock,
            Provider::Gemini => Format::Gemini,
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One tool call of a reply.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolUse {
    /// The provider's id of the call, which its result carries back; Gemini may send
    /// none (empty).
    pub id: String,
    /// The tool's name as the provider sent it: the [wire name](catalog_core::ToolSpec::wire_name).
    pub name: String,
    /// The arguments, or why they could not be read (the JSON parse error of a string
    /// that `OpenAI` sent, or a stream cut inside them).
    pub arguments: Result<Value, String>,
}

/// Tokens a reply reports, where the provider says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Tokens of the request.
    pub input_tokens: Option<u64>,
    /// Tokens of the reply.
    pub output_tokens: Option<u64>,
}

/// A provider's reply, read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reply {
    /// What the conversation keeps of the reply, for the next request: the assistant's
    /// message as the provider sent it (for the Responses API, its output items).
    pub messages: Vec<Value>,
    /// Its text, the parts joined; reasoning is not text.
    pub text: String,
    /// Its tool calls, in order.
    pub calls: Vec<ToolUse>,
    /// Tools the provider's own search loaded (Anthropic's server-side tool search), by
    /// wire name: the agent step adds them to the conversation's active set.
    pub loaded: Vec<String>,
    /// Why the model stopped, as the provider spells it.
    pub stop: Option<String>,
    /// The tokens it reports.
    pub usage: Usage,
}

/// A reply that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplyError {
    /// The provider answered with an error: its kind (`rate_limit_error`,
    /// `RESOURCE_EXHAUSTED`, ...) and message.
    Provider {
        /// The provider's name for the error, when it gives one.
        kind: Option<String>,
        /// Its message.
        message: String,
    },
    /// The body is not the provider's reply: what is missing or wrong.
    Shape {
        /// The provider whose reply was expected.
        provider: Provider,
        /// What does not fit.
        message: String,
    },
}

impl fmt::Display for ReplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplyError::Provider {
                kind: Some(kind),
                message,
            } => write!(f, "the provider answered with an error ({kind}): {message}"),
            ReplyError::Provider {
                kind: None,
                message,
            } => write!(f, "the provider answered with an error: {message}"),
            ReplyError::Shape { provider, message } => write!(
                f,
                "not a {provider} reply: {message}; check that the request went to the {provider} endpoint"
            ),
        }
    }
}

impl core::error::Error for ReplyError {}

/// What became of one call: what its tool result says.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome<'c, T> {
    /// The handler ran: its result.
    Ran(Value),
    /// The handler ran, and the result screen found something in its result: what the
    /// model reads is the notice, then the result.
    Flagged {
        /// The result, as the screen left it.
        result: Value,
        /// What the screen found, for the model.
        notice: String,
    },
    /// The verifier or the handler refused it: the model reads why and how to recover.
    Rejected(Rejection),
    /// A call of the search tool: its hits, or the spent budget (an error).
    Searched(SearchOutcome<'c, T>),
    /// A gated call the user has been asked about and has not answered: it did not run.
    Waiting {
        /// The tool.
        tool: T,
        /// Its name.
        name: &'c str,
    },
}

impl<T: ToolId> Outcome<'_, T> {
    /// Whether the provider's error flag goes up.
    #[must_use]
    pub fn is_error(&self) -> bool {
        match self {
            Outcome::Rejected(_) => true,
            Outcome::Searched(outcome) => matches!(outcome, SearchOutcome::BudgetExhausted { .. }),
            Outcome::Ran(_) | Outcome::Flagged { .. } | Outcome::Waiting { .. } => false,
        }
    }

    /// What the model reads, as JSON: the result itself, the rejection's JSON, the search
    /// outcome's JSON, or the note that the call waits for the user.
    #[must_use]
    pub fn to_value(&self) -> Value {
        match self {
            Outcome::Ran(value) => value.clone(),
            Outcome::Flagged { result, notice } => {
                serde_json::json!({"notice": notice, "result": result})
            }
            Outcome::Rejected(rejection) => serde_json::to_value(rejection)
                .unwrap_or_else(|_| Value::String(rejection.to_json())),
            Outcome::Searched(outcome) => parse_or_string(outcome.to_json()),
            Outcome::Waiting { name, .. } => serde_json::json!({
                "status": "waiting-for-user",
                "tool": name,
                "message": alloc::format!(
                    "`{name}` needs the user's approval and has not run yet; the user has been asked. Tell them what it will do and wait for their answer before calling it again."
                ),
            }),
        }
    }

    /// [`Outcome::to_value`] as text: what a provider whose result is a string carries.
    #[must_use]
    pub fn to_text(&self) -> String {
        match self {
            Outcome::Ran(Value::String(text)) => text.clone(),
            Outcome::Flagged { result, notice } => {
                let result = match result {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                };
                alloc::format!("{notice}\n\n{result}")
            }
            Outcome::Rejected(rejection) => rejection.to_json(),
            Outcome::Searched(outcome) => outcome.to_json(),
            _ => self.to_value().to_string(),
        }
    }
}

/// Text that is JSON as the value, else as a string.
fn parse_or_string(text: String) -> Value {
    serde_json::from_str(&text).unwrap_or(Value::String(text))
}

/// One call and what became of it: what [`write()`] takes.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolResult<'c, T> {
    /// The call as the reply held it (its id and wire name go back).
    pub call: ToolUse,
    /// What became of it.
    pub outcome: Outcome<'c, T>,
}

/// Reads a provider's reply body (the JSON of a non-streamed response).
///
/// # Errors
/// [`ReplyError::Provider`] when the body is the provider's error; [`ReplyError::Shape`]
/// when it is not that provider's reply at all.
pub fn read(provider: Provider, body: &Value) -> Result<Reply, ReplyError> {
    if let Some(error) = provider_error(body) {
        return Err(error);
    }
    let shape = |message: &str| ReplyError::Shape {
        provider,
        message: String::from(message),
    };
    match provider {
        Provider::Anthropic | Provider::AnthropicToolSearch(_) => anthropic::read(body),
        Provider::OpenAiChat => openai_chat::read(body),
        Provider::OpenAiResponses => openai_responses::read(body),
        Provider::Bedrock => bedrock::read(body),
        Provider::Gemini => gemini::read(body),
    }
    .map_err(|message| shape(&message))
}

/// Writes each call's outcome as the provider's tool-result message(s), in call order:
/// the values to append to the conversation (see the [module](self) table).
#[must_use]
pub fn write<T: ToolId>(provider: Provider, results: &[ToolResult<T>]) -> Vec<Value> {
    if results.is_empty() {
        return Vec::new();
    }
    match provider {
        Provider::Anthropic => anthropic::write(results, false),
        Provider::AnthropicToolSearch(search) => {
            anthropic::write(results, search == ToolSearch::Catalog)
        }
        Provider::OpenAiChat => openai_chat::write(results),
        Provider::OpenAiResponses => openai_responses::write(results),
        Provider::Bedrock => bedrock::write(results),
        Provider::Gemini => gemini::write(results),
    }
}

/// The error a provider answers with instead of a reply, in any of their shapes:
/// `{"type":"error","error":{...}}` (Anthropic), `{"error":{...}}` (`OpenAI`, Gemini; a
/// Responses object whose `error` is set), `{"message": ...}` alone (Bedrock).
fn provider_error(body: &Value) -> Option<ReplyError> {
    let text = |v: &Value| v.as_str().map(ToString::to_string);
    if let Some(error) = body.get("error").filter(|e| e.is_object()) {
        let kind = text(&error["type"])
            .or_else(|| text(&error["status"]))
            .or_else(|| text(&error["code"]))
            .or_else(|| error["code"].as_i64().map(|c| c.to_string()));
        let message = text(&error["message"]).unwrap_or_else(|| error.to_string());
        return Some(ReplyError::Provider { kind, message });
    }
    let object = body.as_object()?;
    if object.contains_key("output") || object.contains_key("candidates") {
        return None;
    }
    let message = text(object.get("message").or_else(|| object.get("Message"))?)?;
    let kind = object
        .get("__type")
        .and_then(Value::as_str)
        .map(|t| t.rsplit('#').next().unwrap_or(t).to_string());
    Some(ReplyError::Provider { kind, message })
}

/// Arguments sent as a JSON string (`OpenAI`): the value, or the parse error. An empty
/// string is no arguments, as models send it for a tool without parameters.
fn arguments_from_string(text: &str) -> Result<Value, String> {
    if text.trim().is_empty() {
        return Ok(Value::Null);
    }
    serde_json::from_str(text).map_err(|e| alloc::format!("{e} in {}", excerpt(text)))
}

/// At most 80 characters of `text`, quoted, for a message.
fn excerpt(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((end, _)) => alloc::format!("`{}…`", &text[..end]),
        None => alloc::format!("`{text}`"),
    }
}

/// The text of a JSON string field, or an error naming it.
fn string<'v>(value: &'v Value, what: &str) -> Result<&'v str, String> {
    value
        .as_str()
        .ok_or_else(|| alloc::format!("{what} is not a string"))
}

/// A JSON array field, or an error naming it.
fn array<'v>(value: &'v Value, what: &str) -> Result<&'v Vec<Value>, String> {
    value
        .as_array()
        .ok_or_else(|| alloc::format!("no {what} array"))
}
