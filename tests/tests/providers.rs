//! Reading replies and gathering streams, on the recorded bodies of `tests/data/providers`
//! (each provider's documented shapes, checked with its official SDK): a stream gives the
//! same reply as the plain response, a stream cut inside a call says so and keeps only the
//! calls that were whole, and every reply and stream reads as the providers' own SDKs read
//! it (their stream accumulators, through `tests/peers/provider_validate.py`).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use catalog_wire::provider::{self, Cut, Provider, Reply, ReplyError, Stream, ToolUse};
use catalog_wire::render::ToolSearch;
use serde_json::{Value, json};

fn data(provider: Provider, file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/providers")
        .join(provider.name())
        .join(file)
}

fn json_file(provider: Provider, file: &str) -> Value {
    let path = data(provider, file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn events(provider: Provider, file: &str) -> Vec<Value> {
    let path = data(provider, file);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// A stream's events pushed one at a time; the text handed out along the way, and how it
/// finished.
fn gather(provider: Provider, events: &[Value]) -> (String, Result<Reply, provider::Finished>) {
    let mut stream = Stream::new(provider);
    let mut handed_out = String::new();
    for event in events {
        handed_out.push_str(stream.push(event).unwrap());
    }
    assert_eq!(handed_out, stream.text(), "{provider}");
    (handed_out, stream.finish())
}

fn call_names(calls: &[ToolUse]) -> Vec<&str> {
    calls.iter().map(|c| c.name.as_str()).collect()
}

#[test]
fn a_stream_reads_as_the_plain_reply() {
    for provider in Provider::APIS {
        let plain = provider::read(provider, &json_file(provider, "reply_two_calls.json")).unwrap();
        assert_eq!(
            call_names(&plain.calls),
            ["describeTable", "queryRows"],
            "{provider}"
        );
        assert_eq!(
            plain.calls[1].arguments,
            Ok(json!({"table": "customers", "limit": 5}))
        );
        assert!(!plain.text.is_empty(), "{provider}");
        let (text, streamed) = gather(provider, &events(provider, "stream_two_calls.jsonl"));
        let streamed = streamed.unwrap_or_else(|e| panic!("{provider}: {e}"));
        assert_eq!(text, plain.text, "{provider}");
        assert_eq!(streamed.calls, plain.calls, "{provider}");
        assert_eq!(streamed.text, plain.text, "{provider}");
        assert_eq!(streamed.stop, plain.stop, "{provider}");

        let last = provider::read(provider, &json_file(provider, "reply_text.json")).unwrap();
        assert!(last.calls.is_empty() && !last.text.is_empty(), "{provider}");
    }
}

#[test]
fn a_cut_stream_names_the_call_it_ended_in() {
    for provider in Provider::APIS {
        let (text, finished) = gather(provider, &events(provider, "stream_cut.jsonl"));
        let Err(provider::Finished::Cut(Cut {
            text: kept,
            calls,
            inside,
        })) = finished
        else {
            panic!("{provider}: a cut stream finished: {finished:?}");
        };
        assert_eq!(kept, text);
        assert_eq!(call_names(&calls), ["describeTable"], "{provider}");
        // Gemini sends each call whole: its stream can only be cut between calls.
        let expected = (provider != Provider::Gemini).then(|| String::from("queryRows"));
        assert_eq!(inside, expected, "{provider}");
        if let Some(name) = inside {
            let message = Cut {
                text: String::new(),
                calls: Vec::new(),
                inside: Some(name),
            }
            .to_string();
            assert!(message.contains("`queryRows`") && message.contains("send the request again"));
        }
    }
}

#[test]
fn errors_are_the_providers_words() {
    for provider in Provider::APIS {
        let error = provider::read(provider, &json_file(provider, "error.json")).unwrap_err();
        let ReplyError::Provider { message, .. } = &error else {
            panic!("{provider}: {error}");
        };
        assert!(!message.is_empty(), "{provider}");
    }
}

#[test]
fn anthropic_server_search_passes_through_and_loads_its_tools() {
    let body = json_file(Provider::Anthropic, "reply_server_tool_search.json");
    let provider = Provider::AnthropicToolSearch(ToolSearch::Bm25);
    let reply = provider::read(provider, &body).unwrap();
    assert_eq!(call_names(&reply.calls), ["exportCsv"]);
    assert_eq!(reply.loaded, ["exportCsv", "importCsv"]);
    // The kept message is the content exactly as it came, server blocks included.
    assert_eq!(
        reply.messages,
        [json!({"role": "assistant", "content": body["content"]})]
    );
    let (_, streamed) = gather(provider, &[]);
    assert!(matches!(streamed, Err(provider::Finished::Cut(_))));
}

/// What the SDK made of a reply or stream: text and calls, as the validator prints them.
fn sdk_view(provider: Provider, kind: &str, body: &Value) -> Value {
    json!({"provider": provider.name(), "kind": kind, "body": body})
}

/// Our reading in the validator's terms.
fn our_view(text: &str, calls: &[ToolUse], cut: Option<&str>) -> Value {
    let mut calls: Vec<Value> = calls
        .iter()
        .map(|c| json!({"name": c.name, "arguments": c.arguments.clone().unwrap_or(Value::Null), "complete": true}))
        .collect();
    if let Some(name) = cut {
        calls.push(json!({"name": name, "arguments": null, "complete": false}));
    }
    json!({"text": text, "calls": calls})
}

#[test]
fn replies_and_streams_read_as_the_sdks_read_them() {
    let mut lines = Vec::new();
    let mut ours = Vec::new();
    for provider in Provider::APIS {
        for file in ["reply_two_calls.json", "reply_text.json"] {
            let body = json_file(provider, file);
            let reply = provider::read(provider, &body).unwrap();
            lines.push(sdk_view(provider, "reply", &body));
            ours.push(our_view(&reply.text, &reply.calls, None));
        }
        for file in ["stream_two_calls.jsonl", "stream_cut.jsonl"] {
            let events = events(provider, file);
            let view = match gather(provider, &events).1 {
                Ok(reply) => our_view(&reply.text, &reply.calls, None),
                Err(provider::Finished::Cut(cut)) => {
                    our_view(&cut.text, &cut.calls, cut.inside.as_deref())
                }
                Err(e) => panic!("{provider} {file}: {e}"),
            };
            lines.push(sdk_view(provider, "stream", &Value::Array(events)));
            ours.push(view);
        }
    }
    let Some(theirs) = validate(&lines) else {
        return;
    };
    assert_eq!(theirs.len(), lines.len(), "one report per line");
    for ((line, ours), theirs) in lines.iter().zip(ours).zip(theirs) {
        let calls: Vec<Value> = theirs["calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| json!({"name": c["name"], "arguments": c["arguments"], "complete": c["complete"]}))
            .collect();
        let theirs = json!({"text": theirs["text"], "calls": calls});
        assert_eq!(ours, theirs, "{} {}", line["provider"], line["kind"]);
    }
}

/// The validator's report per line, or `None` when no interpreter is set (outside CI).
fn validate(lines: &[Value]) -> Option<Vec<Value>> {
    let python = catalog_testkit::peer("SDK comparison", "CATALOG_PEER_PYTHON")?;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/provider_validate.py");
    let mut child = Command::new(python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the validator starts");
    let input = lines.iter().fold(String::new(), |mut input, line| {
        input.push_str(&line.to_string());
        input.push('\n');
        input
    });
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let done = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert!(
        done.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&done.stderr)
    );
    Some(
        stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
    )
}
