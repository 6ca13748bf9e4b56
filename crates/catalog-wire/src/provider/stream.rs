//! Streamed replies: each provider's events gathered into the [`Reply`] its non-streamed
//! response would have been, the text handed out as it arrives.
//!
//! Each accumulator rebuilds the provider's whole response from the events and reads it
//! with the same function as a non-streamed one, so a streamed reply and a plain one can
//! not be read two ways.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde_json::{Map, json};

use super::{Provider, Reply, ReplyError, ToolUse, provider_error, read};
use catalog_core::Value;

/// One streamed reply being gathered.
///
/// Feed it each event ([`Stream::push`], or [`Stream::push_data`] with an SSE `data`
/// field); each push hands back the text the event added. [`Stream::finish`] gives the
/// [`Reply`], or [`Cut`] when the stream ended before the provider said the reply was
/// complete.
#[derive(Clone, Debug)]
pub struct Stream {
    provider: Provider,
    text: String,
    complete: bool,
    /// The last event's share of `text` starts here.
    fresh: usize,
    state: State,
}

#[derive(Clone, Debug)]
enum State {
    /// Anthropic: the message's blocks by index; a tool block's input as its JSON so far.
    Anthropic {
        blocks: BTreeMap<u64, (Value, String)>,
        closed: Vec<u64>,
        stop: Value,
        usage: Map<String, Value>,
    },
    /// `OpenAI` Chat: the text, the calls by index (id, name, arguments so far).
    OpenAiChat {
        content: Option<String>,
        calls: BTreeMap<u64, (String, String, String)>,
        finish: Value,
        usage: Value,
    },
    /// Responses: the output items by index; a call's arguments so far.
    OpenAiResponses {
        items: BTreeMap<u64, (Value, String)>,
        done: Vec<u64>,
        status: Value,
        usage: Value,
    },
    /// Bedrock: the content blocks by index, each as its Converse block with a tool's
    /// input as its JSON so far.
    Bedrock {
        blocks: BTreeMap<u64, (Value, String)>,
        closed: Vec<u64>,
        stop: Value,
        usage: Value,
    },
    /// Gemini: the parts so far.
    Gemini {
        parts: Vec<Value>,
        finish: Value,
        usage: Value,
    },
}

/// A stream that ended before its reply was complete: what had arrived. Send the request
/// again; the cut reply is not for the conversation.
#[derive(Clone, Debug, PartialEq)]
pub struct Cut {
    /// The text that had arrived.
    pub text: String,
    /// The calls that were complete.
    pub calls: Vec<ToolUse>,
    /// The wire name of the call the stream ended in, if it ended inside one.
    pub inside: Option<String>,
}

impl fmt::Display for Cut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the stream ended before the reply was complete")?;
        if let Some(name) = &self.inside {
            write!(f, ", inside the arguments of `{name}`")?;
        }
        f.write_str("; send the request again")
    }
}

impl core::error::Error for Cut {}

impl Stream {
    /// A stream of `provider`'s events.
    #[must_use]
    pub fn new(provider: Provider) -> Stream {
        let state = match provider {
            Provider::Anthropic | Provider::AnthropicToolSearch(_) => State::Anthropic {
                blocks: BTreeMap::new(),
                closed: Vec::new(),
                stop: Value::Null,
                usage: Map::new(),
            },
            Provider::OpenAiChat => State::OpenAiChat {
                content: None,
                calls: BTreeMap::new(),
                finish: Value::Null,
                usage: Value::Null,
            },
            Provider::OpenAiResponses => State::OpenAiResponses {
                items: BTreeMap::new(),
                done: Vec::new(),
                status: Value::Null,
                usage: Value::Null,
            },
            Provider::Bedrock => State::Bedrock {
                blocks: BTreeMap::new(),
                closed: Vec::new(),
                stop: Value::Null,
                usage: Value::Null,
            },
            Provider::Gemini => State::Gemini {
                parts: Vec::new(),
                finish: Value::Null,
                usage: Value::Null,
            },
        };
        Stream {
            provider,
            text: String::new(),
            complete: false,
            fresh: 0,
            state,
        }
    }

    /// Takes one SSE `data` field: JSON, or `[DONE]` (`OpenAI`'s last).
    ///
    /// # Errors
    /// As [`Stream::push`]; data that is not JSON is a [`ReplyError::Shape`].
    pub fn push_data(&mut self, data: &str) -> Result<&str, ReplyError> {
        if data.trim() == "[DONE]" {
            self.fresh = self.text.len();
            return Ok("");
        }
        let event: Value = serde_json::from_str(data).map_err(|e| ReplyError::Shape {
            provider: self.provider,
            message: alloc::format!("a stream event is not JSON ({e})"),
        })?;
        self.push(&event)
    }

    /// Takes one event (Bedrock's as the AWS SDKs give them, a one-key object such as
    /// `{"contentBlockDelta": {...}}`); the text it adds.
    ///
    /// # Errors
    /// [`ReplyError::Provider`] for an error event.
    pub fn push(&mut self, event: &Value) -> Result<&str, ReplyError> {
        self.fresh = self.text.len();
        if let Some(error) = stream_error(event) {
            return Err(error);
        }
        let text = &mut self.text;
        let complete = &mut self.complete;
        match &mut self.state {
            State::Anthropic {
                blocks,
                closed,
                stop,
                usage,
            } => anthropic(event, blocks, closed, stop, usage, text, complete),
            State::OpenAiChat {
                content,
                calls,
                finish,
                usage,
            } => openai_chat(event, content, calls, finish, usage, text, complete),
            State::OpenAiResponses {
                items,
                done,
                status,
                usage,
            } => openai_responses(event, items, done, status, usage, text, complete),
            State::Bedrock {
                blocks,
                closed,
                stop,
                usage,
            } => bedrock(event, blocks, closed, stop, usage, text, complete),
            State::Gemini {
                parts,
                finish,
                usage,
            } => gemini(event, parts, finish, usage, text, complete),
        }
        Ok(&self.text[self.fresh..])
    }

    /// The text so far.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The reply, once the provider said it was complete.
    ///
    /// # Errors
    /// [`Cut`] when the stream ended first; a [`ReplyError`] when the gathered reply does
    /// not read (which the events' shapes rule out for every provider's real streams).
    pub fn finish(self) -> Result<Reply, Finished> {
        let body = self.body();
        let reply = read(self.provider, &body).map_err(Finished::Reply)?;
        if self.complete {
            return Ok(reply);
        }
        // A stream ends inside at most one call, the last that began.
        let inside = self.open_call();
        let mut calls = reply.calls;
        if inside.is_some() {
            calls.pop();
        }
        Err(Finished::Cut(Cut {
            text: self.text,
            calls,
            inside,
        }))
    }

    /// The call whose arguments were still arriving when the stream ended.
    fn open_call(&self) -> Option<String> {
        let name = |v: &Value| v.as_str().map(ToString::to_string);
        match &self.state {
            State::Anthropic { blocks, closed, .. } => blocks
                .iter()
                .rev()
                .find(|(i, (b, _))| !closed.contains(i) && b["type"] == "tool_use")
                .and_then(|(_, (b, _))| name(&b["name"])),
            State::OpenAiChat { calls, .. } => calls
                .values()
                .rev()
                .find(|(_, _, args)| super::arguments_from_string(args).is_err())
                .map(|(_, n, _)| n.clone()),
            State::OpenAiResponses { items, done, .. } => items
                .iter()
                .rev()
                .find(|(i, (item, _))| !done.contains(i) && item["type"] == "function_call")
                .and_then(|(_, (item, _))| name(&item["name"])),
            State::Bedrock { blocks, closed, .. } => blocks
                .iter()
                .rev()
                .find(|(i, (b, _))| !closed.contains(i) && b.get("toolUse").is_some())
                .and_then(|(_, (b, _))| name(&b["toolUse"]["name"])),
            // Gemini sends each call whole, in one chunk.
            State::Gemini { .. } => None,
        }
    }

    /// The non-streamed response the events add up to.
    fn body(&self) -> Value {
        match &self.state {
            State::Anthropic {
                blocks,
                stop,
                usage,
                ..
            } => {
                let content: Vec<Value> = blocks
                    .values()
                    .map(|(block, json)| match block["type"].as_str() {
                        Some("tool_use" | "server_tool_use") => with_input(block, json),
                        _ => block.clone(),
                    })
                    .collect();
                json!({"content": content, "stop_reason": stop, "usage": usage})
            }
            State::OpenAiChat {
                content,
                calls,
                finish,
                usage,
            } => {
                let mut message = json!({"role": "assistant", "content": content});
                if !calls.is_empty() {
                    let calls: Vec<Value> = calls
                        .values()
                        .map(|(id, name, arguments)| {
                            json!({"id": id, "type": "function",
                                   "function": {"name": name, "arguments": arguments}})
                        })
                        .collect();
                    message["tool_calls"] = Value::Array(calls);
                }
                json!({"choices": [{"index": 0, "message": message, "finish_reason": finish}],
                       "usage": usage})
            }
            State::OpenAiResponses {
                items,
                status,
                usage,
                ..
            } => {
                let output: Vec<Value> = items
                    .values()
                    .map(|(item, arguments)| {
                        if item["type"] == "function_call" && item["arguments"] == "" {
                            let mut item = item.clone();
                            item["arguments"] = Value::String(arguments.clone());
                            item
                        } else {
                            item.clone()
                        }
                    })
                    .collect();
                json!({"output": output, "status": status, "usage": usage})
            }
            State::Bedrock {
                blocks,
                stop,
                usage,
                ..
            } => {
                let content: Vec<Value> = blocks
                    .values()
                    .map(|(block, json)| match block.get("toolUse") {
                        Some(tool) => json!({"toolUse": with_input(tool, json)}),
                        None => block.clone(),
                    })
                    .collect();
                json!({"output": {"message": {"role": "assistant", "content": content}},
                       "stopReason": stop, "usage": usage})
            }
            State::Gemini {
                parts,
                finish,
                usage,
            } => {
                let mut candidate = json!({"content": {"role": "model", "parts": parts}});
                if !finish.is_null() {
                    candidate["finishReason"] = finish.clone();
                }
                json!({"candidates": [candidate], "usageMetadata": usage})
            }
        }
    }
}

/// How [`Stream::finish`] failed.
#[derive(Clone, Debug, PartialEq)]
pub enum Finished {
    /// The stream ended before the reply was complete.
    Cut(Cut),
    /// The gathered reply does not read.
    Reply(ReplyError),
}

impl fmt::Display for Finished {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finished::Cut(cut) => cut.fmt(f),
            Finished::Reply(error) => error.fmt(f),
        }
    }
}

impl core::error::Error for Finished {}

/// A tool block with its streamed JSON input parsed in: the input streams as text and is
/// an object only once whole (`{}` when nothing came).
fn with_input(block: &Value, json: &str) -> Value {
    let mut block = block.clone();
    let input = if json.trim().is_empty() {
        Ok(Value::Object(Map::new()))
    } else {
        serde_json::from_str(json)
    };
    // An input cut short stays as the text that came, so the call reads as unreadable.
    block["input"] = input.unwrap_or_else(|_| Value::String(json.to_string()));
    block
}

/// The error an event reports: the provider's error shapes, Responses' `error` and
/// `response.failed` events, and Bedrock's exception events.
fn stream_error(event: &Value) -> Option<ReplyError> {
    if event["type"] == "error" && event.get("error").is_none() {
        // Responses: `{"type":"error","code","message"}`.
        return Some(ReplyError::Provider {
            kind: event["code"].as_str().map(ToString::to_string),
            message: event["message"].as_str().unwrap_or_default().to_string(),
        });
    }
    if event["type"] == "response.failed" {
        return provider_error(&event["response"]);
    }
    if event.get("error").is_some_and(Value::is_object) {
        return provider_error(event);
    }
    let (kind, body) = event.as_object().filter(|o| o.len() == 1)?.iter().next()?;
    kind.ends_with("Exception").then(|| ReplyError::Provider {
        kind: Some(kind.clone()),
        message: body["message"].as_str().unwrap_or_default().to_string(),
    })
}

/// Appends a streamed piece to a block's string field (the field starts as one, or as
/// nothing).
fn append(field: &mut Value, piece: &str) {
    match field {
        Value::String(whole) => whole.push_str(piece),
        other => *other = Value::String(piece.to_string()),
    }
}

fn index(event: &Value, key: &str) -> u64 {
    event[key].as_u64().unwrap_or(0)
}

fn anthropic(
    event: &Value,
    blocks: &mut BTreeMap<u64, (Value, String)>,
    closed: &mut Vec<u64>,
    stop: &mut Value,
    usage: &mut Map<String, Value>,
    text: &mut String,
    complete: &mut bool,
) {
    let mut usage_from = |u: &Value| {
        for (k, v) in u.as_object().into_iter().flatten() {
            if !v.is_null() {
                usage.insert(k.clone(), v.clone());
            }
        }
    };
    match event["type"].as_str() {
        Some("message_start") => usage_from(&event["message"]["usage"]),
        Some("content_block_start") => {
            let block = event["content_block"].clone();
            if let Some(start) = block["text"].as_str() {
                text.push_str(start);
            }
            blocks.insert(index(event, "index"), (block, String::new()));
        }
        Some("content_block_delta") => {
            let Some((block, json)) = blocks.get_mut(&index(event, "index")) else {
                return;
            };
            let delta = &event["delta"];
            match delta["type"].as_str() {
                Some("text_delta") => {
                    let piece = delta["text"].as_str().unwrap_or_default();
                    append(&mut block["text"], piece);
                    text.push_str(piece);
                }
                Some("input_json_delta") => {
                    json.push_str(delta["partial_json"].as_str().unwrap_or_default());
                }
                Some("thinking_delta") => {
                    let piece = delta["thinking"].as_str().unwrap_or_default();
                    append(&mut block["thinking"], piece);
                }
                Some("signature_delta") => {
                    block["signature"] = delta["signature"].clone();
                }
                Some("citations_delta") => {
                    let mut citations = block["citations"].as_array().cloned().unwrap_or_default();
                    citations.push(delta["citation"].clone());
                    block["citations"] = Value::Array(citations);
                }
                _ => {}
            }
        }
        Some("content_block_stop") => closed.push(index(event, "index")),
        Some("message_delta") => {
            *stop = event["delta"]["stop_reason"].clone();
            usage_from(&event["usage"]);
        }
        Some("message_stop") => *complete = true,
        _ => {}
    }
}

fn openai_chat(
    event: &Value,
    content: &mut Option<String>,
    calls: &mut BTreeMap<u64, (String, String, String)>,
    finish: &mut Value,
    usage: &mut Value,
    text: &mut String,
    complete: &mut bool,
) {
    if event["usage"].is_object() {
        *usage = event["usage"].clone();
    }
    let Some(choice) = event["choices"].as_array().and_then(|c| c.first()) else {
        return;
    };
    let delta = &choice["delta"];
    if let Some(piece) = delta["content"].as_str() {
        content.get_or_insert_with(String::new).push_str(piece);
        text.push_str(piece);
    }
    for call in delta["tool_calls"].as_array().into_iter().flatten() {
        let (id, name, arguments) = calls.entry(index(call, "index")).or_default();
        if let Some(piece) = call["id"].as_str() {
            id.push_str(piece);
        }
        if let Some(piece) = call["function"]["name"].as_str() {
            name.push_str(piece);
        }
        if let Some(piece) = call["function"]["arguments"].as_str() {
            arguments.push_str(piece);
        }
    }
    if !choice["finish_reason"].is_null() {
        *finish = choice["finish_reason"].clone();
        *complete = true;
    }
}

fn openai_responses(
    event: &Value,
    items: &mut BTreeMap<u64, (Value, String)>,
    done: &mut Vec<u64>,
    status: &mut Value,
    usage: &mut Value,
    text: &mut String,
    complete: &mut bool,
) {
    let at = index(event, "output_index");
    match event["type"].as_str() {
        Some("response.output_item.added") => {
            items.insert(at, (event["item"].clone(), String::new()));
        }
        Some("response.output_text.delta") => {
            text.push_str(event["delta"].as_str().unwrap_or_default());
        }
        Some("response.function_call_arguments.delta") => {
            if let Some((_, arguments)) = items.get_mut(&at) {
                arguments.push_str(event["delta"].as_str().unwrap_or_default());
            }
        }
        Some("response.output_item.done") => {
            items.insert(at, (event["item"].clone(), String::new()));
            done.push(at);
        }
        Some("response.completed" | "response.incomplete") => {
            *status = event["response"]["status"].clone();
            *usage = event["response"]["usage"].clone();
            *complete = true;
        }
        _ => {}
    }
}

fn bedrock(
    event: &Value,
    blocks: &mut BTreeMap<u64, (Value, String)>,
    closed: &mut Vec<u64>,
    stop: &mut Value,
    usage: &mut Value,
    text: &mut String,
    complete: &mut bool,
) {
    if let Some(start) = event.get("contentBlockStart") {
        let at = index(start, "contentBlockIndex");
        if let Some(tool) = start["start"].get("toolUse") {
            blocks.insert(at, (json!({"toolUse": tool}), String::new()));
        }
    } else if let Some(delta) = event.get("contentBlockDelta") {
        let at = index(delta, "contentBlockIndex");
        let piece = &delta["delta"];
        if let Some(t) = piece["text"].as_str() {
            let (block, _) = blocks
                .entry(at)
                .or_insert_with(|| (json!({"text": ""}), String::new()));
            append(&mut block["text"], t);
            text.push_str(t);
        } else if let Some(input) = piece["toolUse"]["input"].as_str() {
            if let Some((_, json)) = blocks.get_mut(&at) {
                json.push_str(input);
            }
        } else if let Some(reasoning) = piece.get("reasoningContent") {
            let (block, _) = blocks.entry(at).or_insert_with(|| {
                (
                    json!({"reasoningContent": {"reasoningText": {"text": ""}}}),
                    String::new(),
                )
            });
            let kept = &mut block["reasoningContent"]["reasoningText"];
            if let Some(t) = reasoning["text"].as_str() {
                append(&mut kept["text"], t);
            }
            if let Some(signature) = reasoning.get("signature") {
                kept["signature"] = signature.clone();
            }
        }
    } else if let Some(stop_event) = event.get("contentBlockStop") {
        closed.push(index(stop_event, "contentBlockIndex"));
    } else if let Some(message_stop) = event.get("messageStop") {
        *stop = message_stop["stopReason"].clone();
        *complete = true;
    } else if let Some(metadata) = event.get("metadata") {
        *usage = metadata["usage"].clone();
    }
}

fn gemini(
    event: &Value,
    parts: &mut Vec<Value>,
    finish: &mut Value,
    usage: &mut Value,
    text: &mut String,
    complete: &mut bool,
) {
    if event["usageMetadata"].is_object() {
        *usage = event["usageMetadata"].clone();
    }
    let Some(candidate) = event["candidates"].as_array().and_then(|c| c.first()) else {
        return;
    };
    for part in candidate["content"]["parts"]
        .as_array()
        .into_iter()
        .flatten()
    {
        if let Some(t) = part["text"].as_str()
            && part["thought"] != true
        {
            text.push_str(t);
        }
        parts.push(part.clone());
    }
    if !candidate["finishReason"].is_null() {
        *finish = candidate["finishReason"].clone();
        *complete = true;
    }
}

/// Server-sent events from bytes as they arrive: each event's `data` (its `data:` lines
/// joined), as the HTML standard reads an event stream. Anthropic, `OpenAI` and Gemini
/// stream this way; Bedrock uses AWS's binary event stream instead.
#[derive(Clone, Debug, Default)]
pub struct Sse {
    buffer: Vec<u8>,
    data: Option<String>,
}

impl Sse {
    /// A stream with nothing read yet.
    #[must_use]
    pub fn new() -> Sse {
        Sse::default()
    }

    /// Takes the next bytes; the `data` of every event they complete, in order.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<String> {
        self.buffer.extend_from_slice(bytes);
        let mut events = Vec::new();
        while let Some(end) = self.buffer.iter().position(|&b| b == b'\n' || b == b'\r') {
            // `\r\n` is one line end; a `\r` last in the buffer may still be followed by `\n`.
            let crlf = self.buffer[end] == b'\r' && self.buffer.get(end + 1) == Some(&b'\n');
            if self.buffer[end] == b'\r' && end + 1 == self.buffer.len() {
                break;
            }
            let line: Vec<u8> = self.buffer.drain(..end).collect();
            self.buffer.drain(..if crlf { 2 } else { 1 });
            let line = String::from_utf8_lossy(&line);
            if line.is_empty() {
                if let Some(data) = self.data.take() {
                    events.push(data);
                }
            } else if let Some(value) = line.strip_prefix("data") {
                let Some(value) = value
                    .strip_prefix(':')
                    .or_else(|| value.is_empty().then_some(""))
                else {
                    continue;
                };
                let value = value.strip_prefix(' ').unwrap_or(value);
                match &mut self.data {
                    Some(data) => {
                        data.push('\n');
                        data.push_str(value);
                    }
                    None => self.data = Some(value.to_string()),
                }
            }
        }
        events
    }
}
