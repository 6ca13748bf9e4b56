//! The gateway's stdio express lane answers a call as the SDK's path does: the same calls
//! (a result, a refusal of its arguments, an unknown tool) are made before the client sets
//! a log level, when they take the short way, and after it, when the SDK answers them,
//! and the answers are compared. The client writes JSON-RPC lines itself, two calls at a
//! time, so answers written beside the SDK's are seen out of order too. The upstream is
//! `mcp-server-time`, from `cargo xtask test`'s peers (`CATALOG_PEER_PYTHON`).

#[path = "../../catalog-mcp/tests/common/mod.rs"]
mod common;
mod support;

use std::collections::HashMap;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use common::{Peer, scratch};
use serde_json::{Value, json};
use support::time_catalog;

const GATEWAY: &str = env!("CARGO_BIN_EXE_catalog-gateway");

/// A client of the gateway over stdio, writing and reading lines itself.
struct Client {
    gateway: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    next: u64,
}

impl Client {
    fn start(catalog: &Path, log: &Path) -> Client {
        let mut gateway = Command::new(GATEWAY)
            .arg("--catalog")
            .arg(catalog)
            .args(["--access", "full-access", "--gated", "allow"])
            .env(
                "RUST_LOG",
                "catalog_gateway=debug,catalog_mcp=info,rmcp=error",
            )
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .unwrap();
        let input = gateway.stdin.take().unwrap();
        let output = BufReader::new(gateway.stdout.take().unwrap());
        let mut client = Client {
            gateway,
            input,
            output,
            next: 0,
        };
        let init = client.send(
            "initialize",
            &json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "express-test", "version": "1"},
            }),
        );
        client.answers(&[init]);
        client.notify("notifications/initialized", &json!({}));
        client
    }

    fn line(&mut self, message: &Value) {
        let mut text = message.to_string();
        text.push('\n');
        self.input.write_all(text.as_bytes()).unwrap();
        self.input.flush().unwrap();
    }

    fn send(&mut self, method: &str, params: &Value) -> u64 {
        self.next += 1;
        let id = self.next;
        self.line(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    fn notify(&mut self, method: &str, params: &Value) {
        self.line(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The answers to requests `ids`, whatever their order; notifications are skipped.
    fn answers(&mut self, ids: &[u64]) -> Vec<Value> {
        let mut got: HashMap<u64, Value> = HashMap::new();
        while got.len() < ids.len() {
            let mut line = String::new();
            assert!(
                self.output.read_line(&mut line).unwrap() > 0,
                "the gateway closed its output"
            );
            let mut message: Value = serde_json::from_str(&line).unwrap();
            if message.get("method").is_some() {
                continue;
            }
            let id = message["id"].as_u64().expect("a numeric id, as sent");
            message.as_object_mut().unwrap().remove("id");
            assert!(ids.contains(&id), "an answer to no request sent: {line}");
            assert!(got.insert(id, message).is_none(), "answered twice: {id}");
        }
        ids.iter().map(|id| got.remove(id).unwrap()).collect()
    }

    /// The calls of `calls`, sent two at a time, and their answers in the same order.
    fn calls(&mut self, calls: &[Value]) -> Vec<Value> {
        calls
            .chunks(2)
            .flat_map(|pair| {
                let ids: Vec<u64> = pair.iter().map(|c| self.send("tools/call", c)).collect();
                self.answers(&ids)
            })
            .collect()
    }
}

#[test]
fn a_call_taken_the_short_way_is_answered_as_the_sdk_answers_it() {
    let test = "a_call_taken_the_short_way_is_answered_as_the_sdk_answers_it";
    let Some(peer) = Peer::find(test) else {
        return;
    };
    drop(peer);
    let python = PathBuf::from(std::env::var_os("CATALOG_PEER_PYTHON").expect("checked"));
    let dir = scratch("express");
    let catalog = time_catalog(&python, &dir);
    let log = dir.join("gateway.log");
    let mut client = Client::start(&catalog, &log);
    let convert =
        json!({"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"});
    let calls = [
        json!({"name": "convert_time", "arguments": convert}),
        json!({"name": "convert_time", "arguments": {"source_timezone": "UTC", "time": 12}}),
        json!({"name": "no_such_tool", "arguments": {}}),
        json!({"name": "get_current_time", "arguments": {"timezone": "UTC"}}),
    ];
    let short = client.calls(&calls);
    let taken = std::fs::read_to_string(&log).unwrap();
    // A log level set, the client's calls are the SDK's to answer (their log messages
    // go through the session).
    let set = client.send("logging/setLevel", &json!({"level": "emergency"}));
    client.answers(&[set]);
    let sdk = client.calls(&calls);
    drop(client.input);
    let status = client.gateway.wait().unwrap();
    assert!(
        status.success(),
        "the gateway ends with its input: {status}"
    );
    let log = std::fs::read_to_string(&log).unwrap();

    assert_eq!(
        taken.matches("answered beside the SDK").count(),
        calls.len(),
        "every call before the log level took the short way: {taken}"
    );
    assert_eq!(
        log.matches("answered beside the SDK").count(),
        calls.len(),
        "none after it: {log}"
    );
    assert_eq!(
        short[0]["result"]["structuredContent"]["target"]["timezone"], "Asia/Tokyo",
        "{short:?}"
    );
    for refused in &short[1..3] {
        assert!(
            refused.get("error").is_some() || refused["result"]["isError"] == true,
            "a refusal: {refused}"
        );
    }
    assert_eq!(
        short[3]["result"]["structuredContent"]["timezone"], "UTC",
        "{short:?}"
    );
    // The current time differs by the time between the calls: the rest is the same.
    let mut now = [short[3].clone(), sdk[3].clone()];
    for answer in &mut now {
        let result = answer["result"].as_object_mut().unwrap();
        result.remove("structuredContent");
        result.remove("content");
    }
    assert_eq!(now[0], now[1]);
    assert_eq!(short[..3], sdk[..3]);
}
