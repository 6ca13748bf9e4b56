//! A local HTTP endpoint that plays a model turn by turn: each request it receives is kept,
//! and answered with the script's next turn in the provider's reply shape (the fields of
//! its official SDK's response type), or a provider error when the script is played out.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;

use catalog_core::provider::Provider;
use serde_json::{Value, json};

/// One turn the model plays: its text and its calls (tool name, arguments).
pub struct Turn {
    pub text: &'static str,
    pub calls: Vec<(&'static str, Value)>,
}

/// One request as the endpoint received it.
#[derive(Clone, Debug)]
pub struct Received {
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Value,
}

impl Received {
    /// A header's value, by its name in any case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The endpoint, serving on a loopback port from a thread of its own.
pub struct Model {
    port: u16,
    received: Arc<Mutex<Vec<Received>>>,
    replies: Arc<Mutex<Vec<Value>>>,
}

impl Model {
    /// Starts playing `script` as `provider`.
    pub fn start(provider: Provider, script: Vec<Turn>) -> Model {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let port = listener.local_addr().expect("its address").port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let replies = Arc::new(Mutex::new(Vec::new()));
        let script = Arc::new(script);
        let (kept, sent) = (Arc::clone(&received), Arc::clone(&replies));
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (kept, sent, script) =
                    (Arc::clone(&kept), Arc::clone(&sent), Arc::clone(&script));
                thread::spawn(move || serve(stream, provider, &script, &kept, &sent));
            }
        });
        Model {
            port,
            received,
            replies,
        }
    }

    /// The base URL to give the agent.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Every request so far, in order.
    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// Every reply sent so far, in order.
    pub fn replies(&self) -> Vec<Value> {
        self.replies.lock().unwrap().clone()
    }
}

/// Answers the requests of one connection (the client keeps it alive between steps).
fn serve(
    stream: TcpStream,
    provider: Provider,
    script: &[Turn],
    received: &Mutex<Vec<Received>>,
    replies: &Mutex<Vec<Value>>,
) {
    let mut reader = BufReader::new(stream.try_clone().expect("a second handle"));
    let mut writer = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let path = line
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string();
        let mut headers = Vec::new();
        loop {
            let mut header = String::new();
            reader.read_line(&mut header).expect("a header line");
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
        reader.read_exact(&mut body).expect("the body");
        let body: Value = serde_json::from_slice(&body).expect("a JSON body");
        let step = {
            let mut kept = received.lock().unwrap();
            kept.push(Received {
                path,
                headers,
                body,
            });
            kept.len() - 1
        };
        let (status, reply) = match script.get(step) {
            Some(turn) => ("200 OK", reply(provider, step, turn)),
            None => ("429 Too Many Requests", error(provider)),
        };
        replies.lock().unwrap().push(reply.clone());
        let text = reply.to_string();
        let head = format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 7\r\n\r\n",
            text.len()
        );
        if writer
            .write_all(head.as_bytes())
            .and_then(|()| writer.write_all(text.as_bytes()))
            .is_err()
        {
            return;
        }
    }
}

/// The id of call `i` of step `step`, in the provider's style.
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
                   "usage": {"input_tokens": 120, "output_tokens": 30}})
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
                   "usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}})
        }
        Provider::OpenAiResponses => {
            let mut output = Vec::new();
            if !turn.text.is_empty() {
                output.push(json!({"type": "message", "id": format!("msg_S{step}"), "status": "completed",
                    "role": "assistant", "content": [{"type": "output_text", "text": turn.text, "annotations": []}]}));
            }
            for (i, (name, arguments)) in calls() {
                output.push(
                    json!({"type": "function_call", "id": format!("fc_S{step}C{i}"),
                    "call_id": id(provider, step, i), "name": name,
                    "arguments": arguments.to_string(), "status": "completed"}),
                );
            }
            json!({"id": format!("resp_S{step}"), "object": "response", "created_at": 1_764_633_600,
                   "status": "completed", "error": null, "incomplete_details": null, "instructions": null,
                   "metadata": {}, "model": "scripted", "output": output, "parallel_tool_calls": true,
                   "temperature": 1.0, "tool_choice": "auto", "tools": [], "top_p": 1.0,
                   "usage": {"input_tokens": 120, "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                             "output_tokens": 30, "output_tokens_details": {"reasoning_tokens": 0},
                             "total_tokens": 150}})
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
                   "usage": {"inputTokens": 120, "outputTokens": 30, "totalTokens": 150},
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
                   "usageMetadata": {"promptTokenCount": 120, "candidatesTokenCount": 30, "totalTokenCount": 150},
                   "modelVersion": "scripted"})
        }
    }
}

/// The provider's rate-limit error body.
fn error(provider: Provider) -> Value {
    match provider {
        Provider::Anthropic | Provider::AnthropicToolSearch(_) => {
            json!({"type": "error", "error": {"type": "rate_limit_error", "message": "Number of requests has exceeded your rate limit."}})
        }
        Provider::OpenAiChat | Provider::OpenAiResponses => {
            json!({"error": {"message": "Rate limit reached for requests.", "type": "requests", "param": null, "code": "rate_limit_exceeded"}})
        }
        Provider::Bedrock => {
            json!({"message": "Too many requests, please wait before trying again."})
        }
        Provider::Gemini => {
            json!({"error": {"code": 429, "message": "Resource has been exhausted (e.g. check quota).", "status": "RESOURCE_EXHAUSTED"}})
        }
    }
}
