//! Requests of a 2026-07-28 client, raw over HTTP: each stands alone, its `_meta` naming
//! the revision, the client and what it declares, its headers the method and name
//! (SEP-2243), as the revision wants. What the tests of tasks send.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{Value, json};

/// A client of 2026-07-28 with one bearer token and one set of capabilities.
pub struct Client {
    address: String,
    token: String,
    capabilities: Value,
}

impl Client {
    /// A client of the server at `address` (`127.0.0.1:PORT`) with bearer `token`,
    /// declaring `capabilities` (a `ClientCapabilities` object) in every request.
    #[must_use]
    pub fn new(address: &str, token: &str, capabilities: Value) -> Client {
        Client {
            address: address.to_owned(),
            token: token.to_owned(),
            capabilities,
        }
    }

    /// A client that declares the tasks extension and form elicitation.
    #[must_use]
    pub fn taking_tasks(address: &str, token: &str) -> Client {
        Client::new(
            address,
            token,
            json!({
                "elicitation": {"form": {}},
                "extensions": {"io.modelcontextprotocol/tasks": {}},
            }),
        )
    }

    /// Sends `method` with `params` (their `_meta` added) and reads the answer: the
    /// JSON-RPC result, or `{"error": ...}`.
    ///
    /// # Panics
    /// When no answer comes within 30 seconds.
    #[must_use]
    pub fn request(&self, method: &str, mut params: Value) -> Value {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": self.capabilities,
        });
        let name = params
            .get("name")
            .or_else(|| params.get("taskId"))
            .and_then(Value::as_str)
            .map(|name| format!("Mcp-Name: {name}\r\n"))
            .unwrap_or_default();
        let body =
            json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n\
             Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
             Authorization: Bearer {}\r\nMCP-Protocol-Version: 2026-07-28\r\n\
             Mcp-Method: {method}\r\n{name}\r\n",
            self.address,
            body.len(),
            self.token
        );
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body.as_bytes()).unwrap();
        let mut response = String::new();
        let mut buffer = [0u8; 4096];
        loop {
            if let Some(answer) = answer(&response) {
                return answer;
            }
            match stream.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(n) => response.push_str(&String::from_utf8_lossy(&buffer[..n])),
            }
        }
        answer(&response).unwrap_or_else(|| panic!("no answer to {method}: {response}"))
    }

    /// `tools/call` of `tool` with `arguments`, and `extra` params (`requestState`,
    /// `inputResponses`).
    #[must_use]
    pub fn call(&self, tool: &str, arguments: Value, extra: Value) -> Value {
        let mut params = serde_json::Map::new();
        params.insert("name".into(), tool.into());
        params.insert("arguments".into(), arguments);
        if let Value::Object(extra) = extra {
            params.extend(extra);
        }
        self.request("tools/call", Value::Object(params))
    }

    /// `tasks/get` of task `id`.
    #[must_use]
    pub fn task(&self, id: &str) -> Value {
        self.request("tasks/get", json!({"taskId": id}))
    }

    /// Polls task `id` until `done` says it is where the test wants it, for 10 seconds.
    ///
    /// # Panics
    /// When it does not get there.
    #[must_use]
    pub fn task_until(&self, id: &str, done: impl Fn(&Value) -> bool) -> Value {
        let start = std::time::Instant::now();
        loop {
            let task = self.task(id);
            if done(&task) {
                return task;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "task {id} is still {task}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The answer in a response read so far: a JSON body, or the SSE event that answers the
/// request (its `id`), past the notifications before it.
fn answer(response: &str) -> Option<Value> {
    let (_, body) = response.split_once("\r\n\r\n")?;
    let message: Value = body
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .filter_map(|data| serde_json::from_str::<Value>(data).ok())
        .find(|message| message.get("id").is_some())
        .or_else(|| {
            serde_json::from_str::<Value>(body.trim())
                .ok()
                .filter(|m| m.get("id").is_some())
        })?;
    Some(match message.get("error") {
        Some(error) => json!({ "error": error }),
        None => message["result"].clone(),
    })
}
