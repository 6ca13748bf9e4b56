//! What a handler sends through its [`Context`](super::Context) and what comes back, in
//! MCP's shapes: a sampling request is MCP's `sampling/createMessage` params, its answer
//! MCP's result, so a peer puts them on the wire as they are.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::output::Content;
use crate::{Map, Value};

/// How far a call got.
#[derive(Clone, PartialEq, Debug)]
pub struct Progress {
    /// How much is done; it grows with each report.
    pub progress: f64,
    /// Of how much, when known.
    pub total: Option<f64>,
    /// What is being done.
    pub message: Option<String>,
}

/// A log message's level, least severe first: MCP's (RFC 5424's).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum LogLevel {
    /// Detail for whoever debugs.
    Debug,
    /// Something happened.
    Info,
    /// Something worth noticing.
    Notice,
    /// Something may be wrong.
    Warning,
    /// Something failed.
    Error,
    /// A part stopped working.
    Critical,
    /// Someone must act now.
    Alert,
    /// Nothing works.
    Emergency,
}

impl LogLevel {
    /// Every level, least severe first.
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The level as MCP writes it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }

    /// Reads MCP's spelling.
    #[must_use]
    pub fn parse(level: &str) -> Option<LogLevel> {
        LogLevel::ALL.into_iter().find(|l| l.as_str() == level)
    }
}

/// How the user answered a form or a URL.
#[derive(Clone, PartialEq, Debug)]
pub enum Elicited {
    /// They accepted: what they filled in (empty for a URL, or a form with no fields).
    Accepted(Map<String, Value>),
    /// They said no.
    Declined,
    /// They dismissed the question without saying.
    Cancelled,
}

impl Elicited {
    /// Whether they accepted.
    #[must_use]
    pub fn is_accepted(&self) -> bool {
        matches!(self, Elicited::Accepted(_))
    }

    /// The answer as MCP's `ElicitResult` writes it.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut result = Map::new();
        let action = match self {
            Elicited::Accepted(content) => {
                result.insert("content".into(), Value::Object(content.clone()));
                "accept"
            }
            Elicited::Declined => "decline",
            Elicited::Cancelled => "cancel",
        };
        result.insert("action".into(), action.into());
        Value::Object(result)
    }

    /// Reads MCP's `ElicitResult`.
    #[must_use]
    pub fn from_json(result: &Value) -> Option<Elicited> {
        match result.get("action")?.as_str()? {
            "accept" => Some(Elicited::Accepted(
                result
                    .get("content")
                    .and_then(Value::as_object)
                    .cloned()
                    .unwrap_or_default(),
            )),
            "decline" => Some(Elicited::Declined),
            "cancel" => Some(Elicited::Cancelled),
            _ => None,
        }
    }
}

/// One of the caller's roots.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Root {
    /// Where it is (a `file://` URI, mostly).
    pub uri: String,
    /// What the caller calls it.
    pub name: Option<String>,
}

impl Root {
    /// The root as MCP's `Root` writes it.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut root = Map::new();
        root.insert("uri".into(), self.uri.as_str().into());
        if let Some(name) = &self.name {
            root.insert("name".into(), name.as_str().into());
        }
        Value::Object(root)
    }
}

/// A request to sample the caller's model: MCP's `sampling/createMessage` params, built
/// a message at a time.
///
/// ```
/// use catalog_core::talk::Sampling;
///
/// let request = Sampling::new(200)
///     .system("You answer in one word.")
///     .user("Which colour is the sky?");
/// assert_eq!(request.to_json()["maxTokens"], 200);
/// ```
#[derive(Clone, PartialEq, Debug)]
pub struct Sampling {
    params: Map<String, Value>,
}

impl Sampling {
    /// A request for at most `max_tokens` tokens, with no messages yet.
    #[must_use]
    pub fn new(max_tokens: u32) -> Sampling {
        let mut params = Map::new();
        params.insert("messages".into(), Value::Array(Vec::new()));
        params.insert("maxTokens".into(), max_tokens.into());
        Sampling { params }
    }

    /// The request from MCP's params as they are (a relay's).
    #[must_use]
    pub fn from_json(params: Map<String, Value>) -> Sampling {
        Sampling { params }
    }

    /// Appends a message of `role` (`"user"` or `"assistant"`) holding `content`.
    #[must_use]
    pub fn message(mut self, role: &str, content: Content) -> Sampling {
        let mut message = Map::new();
        message.insert("role".into(), role.into());
        message.insert("content".into(), content.into_json());
        if let Some(Value::Array(messages)) = self.params.get_mut("messages") {
            messages.push(Value::Object(message));
        }
        self
    }

    /// Appends the user's text.
    #[must_use]
    pub fn user(self, text: &str) -> Sampling {
        self.message("user", Content::text(text))
    }

    /// Appends the assistant's text.
    #[must_use]
    pub fn assistant(self, text: &str) -> Sampling {
        self.message("assistant", Content::text(text))
    }

    /// The system prompt.
    #[must_use]
    pub fn system(self, prompt: &str) -> Sampling {
        self.set("systemPrompt", prompt.into())
    }

    /// The sampling temperature.
    #[must_use]
    pub fn temperature(self, temperature: f64) -> Sampling {
        self.set("temperature", temperature.into())
    }

    /// Where the model stops.
    #[must_use]
    pub fn stop_sequences(self, stops: &[&str]) -> Sampling {
        self.set(
            "stopSequences",
            Value::Array(stops.iter().map(|s| Value::from(*s)).collect()),
        )
    }

    /// The tools the model may call, as MCP lists tools (`name`, `description`,
    /// `inputSchema`): a catalog's own, rendered by `catalog_wire::render::mcp`,
    /// or any.
    #[must_use]
    pub fn tools(self, tools: Vec<Value>) -> Sampling {
        self.set("tools", Value::Array(tools))
    }

    /// Whether the model must, may or must not call a tool: `"auto"`, `"required"` or
    /// `"none"`.
    #[must_use]
    pub fn tool_choice(self, mode: &str) -> Sampling {
        let mut choice = Map::new();
        choice.insert("mode".into(), mode.into());
        self.set("toolChoice", Value::Object(choice))
    }

    /// Any other field of MCP's params (`modelPreferences`, `metadata`, …).
    #[must_use]
    pub fn set(mut self, field: &str, value: Value) -> Sampling {
        self.params.insert(field.to_string(), value);
        self
    }

    /// Whether the model is given tools.
    #[must_use]
    pub fn has_tools(&self) -> bool {
        self.params
            .get("tools")
            .and_then(Value::as_array)
            .is_some_and(|tools| !tools.is_empty())
    }

    /// The params, as MCP writes them.
    #[must_use]
    pub fn to_json(&self) -> Value {
        Value::Object(self.params.clone())
    }

    /// The params, taken.
    #[must_use]
    pub fn into_json(self) -> Map<String, Value> {
        self.params
    }
}

/// The caller's model's answer: MCP's `sampling/createMessage` result.
#[derive(Clone, PartialEq, Debug)]
pub struct Sampled {
    result: Map<String, Value>,
}

impl Sampled {
    /// The answer from MCP's result as it is.
    #[must_use]
    pub fn from_json(result: Map<String, Value>) -> Sampled {
        Sampled { result }
    }

    /// The model that answered.
    #[must_use]
    pub fn model(&self) -> Option<&str> {
        self.result.get("model").and_then(Value::as_str)
    }

    /// Why it stopped (`endTurn`, `maxTokens`, `toolUse`, …).
    #[must_use]
    pub fn stop_reason(&self) -> Option<&str> {
        self.result.get("stopReason").and_then(Value::as_str)
    }

    /// The content blocks of the answer (one, or several with tool calls).
    #[must_use]
    pub fn content(&self) -> Vec<&Value> {
        match self.result.get("content") {
            Some(Value::Array(blocks)) => blocks.iter().collect(),
            Some(block) => alloc::vec![block],
            None => Vec::new(),
        }
    }

    /// The answer's text: its text blocks, joined.
    #[must_use]
    pub fn text(&self) -> Option<String> {
        let texts: Vec<&str> = self
            .content()
            .into_iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect();
        (!texts.is_empty()).then(|| texts.concat())
    }

    /// The tools the model called: each call's id, tool name and input.
    #[must_use]
    pub fn tool_uses(&self) -> Vec<(&str, &str, &Value)> {
        self.content()
            .into_iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
            .filter_map(|b| {
                Some((
                    b.get("id")?.as_str()?,
                    b.get("name")?.as_str()?,
                    b.get("input")?,
                ))
            })
            .collect()
    }

    /// The result, as MCP writes it.
    #[must_use]
    pub fn to_json(&self) -> Value {
        Value::Object(self.result.clone())
    }
}
