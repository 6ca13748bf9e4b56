//! A provider's test double: a local HTTP endpoint that plays a model turn by turn, for
//! tests of an agent or a harness that need no key and no network.
//!
//! It listens on a loopback port; give its [`Model::base_url`] to the client in place of
//! the provider's address (as the base URL of [`Api`](crate::Api) or of `cargo catalog
//! eval-agent --base-url`, or in your own HTTP call). Each
//! request it receives is kept, and answered with a [`Turn`] in the provider's reply
//! shape (the fields of its official SDK's response type), or with the provider's error
//! body for an HTTP status. [`Model::start`] plays a fixed script, one turn per request;
//! [`Model::play`] asks a function for each answer, which can read the request
//! ([`Received::tools`], [`Received::user_text`], [`Received::results`]). It answers any
//! path and reads no key, so any value of the provider's key variable does.
//!
//! Every reply reports [`INPUT_TOKENS`] input and [`OUTPUT_TOKENS`] output tokens,
//! whatever the request, so a harness's token totals can be checked against them.
//!
//! A test that sends one request and reads the model's call:
//!
//! ```
//! use catalog_wire::provider::{Conversation, Provider, read};
//! use catalog_providers::Api;
//! use catalog_providers::scripted::{Model, Turn};
//! use serde_json::json;
//!
//! let provider = Provider::OpenAiChat;
//! let model = Model::start(
//!     provider,
//!     vec![
//!         Turn::calls([("listTables", json!({}))]),
//!         Turn::text("There are two tables."),
//!     ],
//! );
//! // The endpoint reads no key: any value serves.
//! let api = Api::new(provider, Some(&model.base_url()), "scripted", |_| {
//!     Some(String::from("none"))
//! })?;
//! let mut conversation = Conversation::new(None);
//! conversation.user(provider, "Which tables are there?");
//! let reply = read(provider, &api.send(&conversation.body(provider, api.model(), None, 256))?)?;
//! assert_eq!(reply.calls[0].name, "listTables");
//! // What the client sent, as the model received it.
//! let received = model.received();
//! assert_eq!(received[0].path, "/chat/completions");
//! assert_eq!(
//!     received[0].user_text(provider).as_deref(),
//!     Some("Which tables are there?")
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The guide's agent-loop chapter runs a whole agent loop on it ("Offline, with no key").

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use catalog_wire::provider::Provider;
use serde_json::{Value, json};

/// The input tokens every reply reports.
pub const INPUT_TOKENS: u64 = 120;

/// The output tokens every reply reports.
pub const OUTPUT_TOKENS: u64 = 30;

/// One turn the model plays: its text and its calls, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Turn {
    /// The text of the reply; empty for none.
    pub text: String,
    /// The tool calls: the tool's wire name and its arguments.
    pub calls: Vec<(String, Value)>,
}

impl Turn {
    /// A turn of text alone: the model's final answer.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Turn {
        Turn {
            text: text.into(),
            calls: Vec::new(),
        }
    }

    /// A turn of calls without text.
    #[must_use]
    pub fn calls<N: Into<String>>(calls: impl IntoIterator<Item = (N, Value)>) -> Turn {
        Turn {
            text: String::new(),
            calls: calls
                .into_iter()
                .map(|(name, arguments)| (name.into(), arguments))
                .collect(),
        }
    }

    /// The turn with one more call: `Turn::text("Let me look.").call("listTables", json!({}))`.
    #[must_use]
    pub fn call(mut self, name: impl Into<String>, arguments: Value) -> Turn {
        self.calls.push((name.into(), arguments));
        self
    }
}

/// What the endpoint answers one request with.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// A reply (HTTP 200) playing this turn.
    Turn(Turn),
    /// An error: the provider's error body for `status` (429: its rate-limit error; 5xx:
    /// its server error), with a `retry-after` header of that many seconds when given.
    Error {
        /// The HTTP status.
        status: u16,
        /// The `retry-after` header, in seconds.
        retry_after: Option<u64>,
    },
}

impl From<Turn> for Answer {
    fn from(turn: Turn) -> Answer {
        Answer::Turn(turn)
    }
}

/// One request as the endpoint received it.
#[derive(Clone, Debug, PartialEq)]
pub struct Received {
    /// The request's path (`/messages`, `/model/{id}/converse`, ...).
    pub path: String,
    /// The headers, names as sent.
    pub headers: Vec<(String, String)>,
    /// The body's JSON (`null` when it is not JSON).
    pub body: Value,
}

impl Received {
    /// A header's value, by its name in any case.
    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The names of the function tools the request offers the model, in order: Anthropic
    /// `tools[].name` (but for tools with `defer_loading`, which tool search keeps from the
    /// model until found, and server tools), `OpenAI` Chat `tools[].function.name`,
    /// Responses `tools[].name` (function tools), Gemini
    /// `tools[].functionDeclarations[].name`, Bedrock `toolConfig.tools[].toolSpec.name`.
    #[must_use]
    pub fn tools(&self, provider: Provider) -> Vec<String> {
        let body = &self.body;
        let names = |tools: &mut dyn Iterator<Item = &Value>| -> Vec<String> {
            tools
                .filter_map(|name| name.as_str().map(str::to_string))
                .collect()
        };
        match provider {
            Provider::Anthropic | Provider::AnthropicToolSearch(_) => names(
                &mut items(&body["tools"])
                    .filter(|t| t.get("type").is_none_or(|kind| kind == "custom"))
                    .filter(|t| t["defer_loading"] != true)
                    .map(|t| &t["name"]),
            ),
            Provider::OpenAiChat => names(
                &mut items(&body["tools"])
                    .filter(|t| t["type"] == "function")
                    .map(|t| &t["function"]["name"]),
            ),
            Provider::OpenAiResponses => names(
                &mut items(&body["tools"])
                    .filter(|t| t["type"] == "function")
                    .map(|t| &t["name"]),
            ),
            Provider::Gemini => names(
                &mut items(&body["tools"])
                    .flat_map(|t| items(&t["functionDeclarations"]))
                    .map(|f| &f["name"]),
            ),
            Provider::Bedrock => {
                names(&mut items(&body["toolConfig"]["tools"]).map(|t| &t["toolSpec"]["name"]))
            }
        }
    }

    /// The text of the first user message (its text parts joined by line breaks), or
    /// `None` when the request has none: the task a harness gave the agent. Anthropic and
    /// Bedrock `messages`, `OpenAI` Chat `messages` (after the system message), Responses
    /// `input` (a string, or its first user item), Gemini `contents`.
    #[must_use]
    pub fn user_text(&self, provider: Provider) -> Option<String> {
        let body = &self.body;
        let text = |content: &Value, kinds: &[&str]| -> Option<String> {
            if let Some(text) = content.as_str() {
                return Some(text.to_string());
            }
            let parts: Vec<&str> = items(content)
                .filter(|part| {
                    part.get("type")
                        .is_none_or(|kind| kinds.iter().any(|k| kind == k))
                })
                .filter_map(|part| part["text"].as_str())
                .collect();
            (!parts.is_empty()).then(|| parts.join("\n"))
        };
        match provider {
            Provider::Anthropic
            | Provider::AnthropicToolSearch(_)
            | Provider::Bedrock
            | Provider::OpenAiChat => {
                let first = user(&body["messages"])?;
                text(&first["content"], &["text"])
            }
            Provider::OpenAiResponses => {
                if let Some(input) = body["input"].as_str() {
                    return Some(input.to_string());
                }
                let first = items(&body["input"]).find(|item| {
                    item["role"] == "user" && item.get("type").is_none_or(|kind| kind == "message")
                })?;
                text(&first["content"], &["input_text"])
            }
            Provider::Gemini => {
                let first = user(&body["contents"])?;
                text(&first["parts"], &[])
            }
        }
    }

    /// How many tool results the request carries, over the whole conversation: Anthropic
    /// `tool_result` blocks, `OpenAI` Chat `tool` messages, Responses
    /// `function_call_output` items, Bedrock `toolResult` blocks, Gemini
    /// `functionResponse` parts. Zero on the first request of a task.
    #[must_use]
    pub fn results(&self, provider: Provider) -> usize {
        let body = &self.body;
        match provider {
            Provider::Anthropic | Provider::AnthropicToolSearch(_) => items(&body["messages"])
                .flat_map(|m| items(&m["content"]))
                .filter(|b| b["type"] == "tool_result")
                .count(),
            Provider::OpenAiChat => items(&body["messages"])
                .filter(|m| m["role"] == "tool")
                .count(),
            Provider::OpenAiResponses => items(&body["input"])
                .filter(|i| i["type"] == "function_call_output")
                .count(),
            Provider::Bedrock => items(&body["messages"])
                .flat_map(|m| items(&m["content"]))
                .filter(|b| b.get("toolResult").is_some())
                .count(),
            Provider::Gemini => items(&body["contents"])
                .flat_map(|c| items(&c["parts"]))
                .filter(|p| p.get("functionResponse").is_some())
                .count(),
        }
    }
}

/// The first message of a list from the user (Gemini may leave the role out).
fn user(list: &Value) -> Option<&Value> {
    items(list).find(|m| m.get("role").is_none_or(|role| role == "user"))
}

/// The elements of a JSON array; none for anything else.
fn items(value: &Value) -> std::slice::Iter<'_, Value> {
    value.as_array().map_or([].iter(), |list| list.iter())
}

/// What makes an answer: the request's number (from 0, in the order they arrived) and
/// the request.
type Respond = dyn Fn(usize, &Received) -> Answer + Send + Sync;

/// What the endpoint has seen and said.
#[derive(Default)]
struct Log {
    received: Vec<Received>,
    /// One slot per request, filled when its answer is sent.
    replies: Vec<Option<Value>>,
}

/// The endpoint, serving on a loopback port from threads of its own, one per connection,
/// until it is dropped.
pub struct Model {
    address: SocketAddr,
    log: Arc<Mutex<Log>>,
    stop: Arc<AtomicBool>,
}

impl Model {
    /// Starts playing `script` as `provider`: the n-th request gets the n-th turn; past
    /// the end, a 429 with the provider's rate-limit error and `retry-after: 7`.
    ///
    /// # Panics
    /// When no loopback port can be had.
    #[must_use]
    pub fn start(provider: Provider, script: Vec<Turn>) -> Model {
        Model::serve(
            provider,
            Arc::new(move |step, _: &Received| match script.get(step) {
                Some(turn) => Answer::Turn(turn.clone()),
                None => Answer::Error {
                    status: 429,
                    retry_after: Some(7),
                },
            }),
        )
    }

    /// Starts playing `provider`, answering each request with what `answer` makes of it.
    /// Requests on different connections are answered at the same time, so `answer` may
    /// run on several threads at once.
    ///
    /// # Panics
    /// When no loopback port can be had.
    #[must_use]
    pub fn play(
        provider: Provider,
        answer: impl Fn(&Received) -> Answer + Send + Sync + 'static,
    ) -> Model {
        Model::serve(
            provider,
            Arc::new(move |_, request: &Received| answer(request)),
        )
    }

    fn serve(provider: Provider, respond: Arc<Respond>) -> Model {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let address = listener.local_addr().expect("its address");
        let log = Arc::new(Mutex::new(Log::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let (kept, stopped) = (Arc::clone(&log), Arc::clone(&stop));
        thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(Ordering::Acquire) {
                    return;
                }
                let Ok(stream) = stream else { continue };
                let (log, respond) = (Arc::clone(&kept), Arc::clone(&respond));
                thread::spawn(move || connection(stream, provider, &*respond, &log));
            }
        });
        Model { address, log, stop }
    }

    /// The base URL to give the client (`http://127.0.0.1:PORT`).
    #[must_use]
    pub fn base_url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// Every request so far, in the order they arrived.
    #[must_use]
    pub fn received(&self) -> Vec<Received> {
        lock(&self.log).received.clone()
    }

    /// Every answer's body sent so far (replies and error bodies), in the order of the
    /// requests they answer; one still being made is left out.
    #[must_use]
    pub fn replies(&self) -> Vec<Value> {
        lock(&self.log).replies.iter().flatten().cloned().collect()
    }
}

impl Drop for Model {
    /// Stops taking connections; the listening thread wakes to a last one and ends.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        let _ = TcpStream::connect(self.address);
    }
}

/// The log, even after a thread panicked holding it: what it holds is still right.
fn lock(log: &Mutex<Log>) -> std::sync::MutexGuard<'_, Log> {
    log.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Answers the requests of one connection (clients keep it alive between requests).
fn connection(stream: TcpStream, provider: Provider, respond: &Respond, log: &Mutex<Log>) {
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half);
    let mut writer = stream;
    while let Some(request) = read_request(&mut reader) {
        let close = request
            .header("connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"));
        let step = {
            let mut log = lock(log);
            log.received.push(request.clone());
            log.replies.push(None);
            log.received.len() - 1
        };
        let (status, retry_after, body) = match respond(step, &request) {
            Answer::Turn(turn) => (200, None, reply(provider, step, &turn)),
            Answer::Error {
                status,
                retry_after,
            } => (status, retry_after, error(provider, status)),
        };
        lock(log).replies[step] = Some(body.clone());
        let text = body.to_string();
        let mut head = format!(
            "HTTP/1.1 {status} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n",
            reason(status),
            text.len()
        );
        if let Some(seconds) = retry_after {
            let _ = write!(head, "retry-after: {seconds}\r\n");
        }
        head.push_str("\r\n");
        let sent = writer
            .write_all(head.as_bytes())
            .and_then(|()| writer.write_all(text.as_bytes()));
        if sent.is_err() || close {
            return;
        }
    }
}

/// The next request on a connection; `None` when the client closed it or sent something
/// that is not HTTP.
fn read_request(reader: &mut impl BufRead) -> Option<Received> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let path = line.split_whitespace().nth(1)?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 {
            return None;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    let length = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Received {
        path,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    })
}

/// The id of call `i` of request `step`, in the provider's style.
fn id(provider: Provider, step: usize, i: usize) -> String {
    let prefix = match provider {
        Provider::Anthropic | Provider::AnthropicToolSearch(_) => "toolu_01",
        Provider::OpenAiChat | Provider::OpenAiResponses => "call_",
        Provider::Bedrock => "tooluse_",
        Provider::Gemini => "",
    };
    format!("{prefix}S{step}C{i}xq7")
}

/// A turn as the provider's non-streamed response.
fn reply(provider: Provider, step: usize, turn: &Turn) -> Value {
    let calls = || turn.calls.iter().enumerate();
    let done = turn.calls.is_empty();
    let (input, output, total) = (INPUT_TOKENS, OUTPUT_TOKENS, INPUT_TOKENS + OUTPUT_TOKENS);
    match provider {
        Provider::Anthropic | Provider::AnthropicToolSearch(_) => {
            let mut content = Vec::new();
            if !turn.text.is_empty() {
                content.push(json!({"type": "text", "text": turn.text}));
            }
            for (i, (name, input)) in calls() {
                content.push(json!({"type": "tool_use", "id": id(provider, step, i), "name": name, "input": input}));
            }
            json!({"id": format!("msg_01S{step}"), "type": "message", "role": "assistant",
                   "model": "scripted", "content": content,
                   "stop_reason": if done { "end_turn" } else { "tool_use" }, "stop_sequence": null,
                   "usage": {"input_tokens": input, "output_tokens": output}})
        }
        Provider::OpenAiChat => {
            let mut message = json!({"role": "assistant",
                "content": if turn.text.is_empty() { Value::Null } else { json!(turn.text) },
                "refusal": null, "annotations": []});
            if !done {
                let tool_calls: Vec<Value> = calls()
                    .map(|(i, (name, arguments))| {
                        json!({"id": id(provider, step, i), "type": "function",
                        "function": {"name": name, "arguments": arguments.to_string()}})
                    })
                    .collect();
                message["tool_calls"] = json!(tool_calls);
            }
            json!({"id": format!("chatcmpl-S{step}"), "object": "chat.completion", "created": 1_764_633_600,
                   "model": "scripted", "choices": [{"index": 0, "message": message, "logprobs": null,
                   "finish_reason": if done { "stop" } else { "tool_calls" }}],
                   "usage": {"prompt_tokens": input, "completion_tokens": output, "total_tokens": total}})
        }
        Provider::OpenAiResponses => {
            let mut items = Vec::new();
            if !turn.text.is_empty() {
                items.push(json!({"type": "message", "id": format!("msg_S{step}"), "status": "completed",
                    "role": "assistant", "content": [{"type": "output_text", "text": turn.text, "annotations": []}]}));
            }
            for (i, (name, arguments)) in calls() {
                items.push(
                    json!({"type": "function_call", "id": format!("fc_S{step}C{i}"),
                    "call_id": id(provider, step, i), "name": name,
                    "arguments": arguments.to_string(), "status": "completed"}),
                );
            }
            json!({"id": format!("resp_S{step}"), "object": "response", "created_at": 1_764_633_600,
                   "status": "completed", "error": null, "incomplete_details": null, "instructions": null,
                   "metadata": {}, "model": "scripted", "output": items, "parallel_tool_calls": true,
                   "temperature": 1.0, "tool_choice": "auto", "tools": [], "top_p": 1.0,
                   "usage": {"input_tokens": input, "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                             "output_tokens": output, "output_tokens_details": {"reasoning_tokens": 0},
                             "total_tokens": total}})
        }
        Provider::Bedrock => {
            let mut content = Vec::new();
            if !turn.text.is_empty() {
                content.push(json!({"text": turn.text}));
            }
            for (i, (name, input)) in calls() {
                content.push(json!({"toolUse": {"toolUseId": id(provider, step, i), "name": name, "input": input}}));
            }
            json!({"output": {"message": {"role": "assistant", "content": content}},
                   "stopReason": if done { "end_turn" } else { "tool_use" },
                   "usage": {"inputTokens": input, "outputTokens": output, "totalTokens": total},
                   "metrics": {"latencyMs": 12}})
        }
        Provider::Gemini => {
            let mut parts = Vec::new();
            if !turn.text.is_empty() {
                parts.push(json!({"text": turn.text}));
            }
            for (_, (name, args)) in calls() {
                parts.push(json!({"functionCall": {"name": name, "args": args}}));
            }
            json!({"candidates": [{"content": {"role": "model", "parts": parts},
                                   "finishReason": "STOP", "index": 0}],
                   "usageMetadata": {"promptTokenCount": input, "candidatesTokenCount": output, "totalTokenCount": total},
                   "modelVersion": "scripted"})
        }
    }
}

/// The provider's error body for `status`: its rate-limit error for 429, its server error
/// (or overload) for 5xx, its invalid-request error otherwise.
fn error(provider: Provider, status: u16) -> Value {
    let server = (500..=599).contains(&status);
    match provider {
        Provider::Anthropic | Provider::AnthropicToolSearch(_) => {
            let (kind, message) = match status {
                429 => (
                    "rate_limit_error",
                    "Number of requests has exceeded your rate limit.",
                ),
                529 => ("overloaded_error", "Overloaded"),
                _ if server => ("api_error", "Internal server error"),
                408 => ("timeout_error", "Request timed out."),
                _ => ("invalid_request_error", "Invalid request."),
            };
            json!({"type": "error", "error": {"type": kind, "message": message}})
        }
        Provider::OpenAiChat | Provider::OpenAiResponses => match status {
            429 => {
                json!({"error": {"message": "Rate limit reached for requests.", "type": "requests", "param": null, "code": "rate_limit_exceeded"}})
            }
            _ if server => {
                json!({"error": {"message": "The server had an error while processing your request. Sorry about that!", "type": "server_error", "param": null, "code": null}})
            }
            _ => {
                json!({"error": {"message": "Invalid request.", "type": "invalid_request_error", "param": null, "code": null}})
            }
        },
        Provider::Bedrock => {
            let message = match status {
                429 => "Too many requests, please wait before trying again.",
                503 => "Bedrock is unable to process your request.",
                _ if server => "The server encountered an internal error.",
                _ => "The request is not valid.",
            };
            json!({ "message": message })
        }
        Provider::Gemini => {
            let (kind, message) = match status {
                429 => (
                    "RESOURCE_EXHAUSTED",
                    "Resource has been exhausted (e.g. check quota).",
                ),
                503 => (
                    "UNAVAILABLE",
                    "The model is overloaded. Please try again later.",
                ),
                504 => (
                    "DEADLINE_EXCEEDED",
                    "Deadline expired before operation could complete.",
                ),
                _ if server => ("INTERNAL", "An internal error has occurred."),
                _ => ("INVALID_ARGUMENT", "Request contains an invalid argument."),
            };
            json!({"error": {"code": status, "message": message, "status": kind}})
        }
    }
}

/// The reason phrase of a status line.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        408 => "Request Timeout",
        413 => "Payload Too Large",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        529 => "Overloaded",
        _ => "Error",
    }
}

#[cfg(test)]
mod tests;
