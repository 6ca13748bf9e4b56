//! The agent binary end to end, for every provider, against a local endpoint that plays a
//! model turn by turn: two calls in one reply, a wrong argument corrected after its
//! rejection, a search, a gated call approved on the terminal, a final text. The database
//! must hold what the corrected call staged and the approved call committed; every request
//! must carry the previous step's results with their ids and error flags; and every
//! request and reply must pass the provider's official SDK types
//! (`tests/peers/provider_validate.py`).

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use catalog_providers::scripted::{Model, Received, Turn};
use catalog_wire::provider::Provider;
use serde_json::{Value, json};

const REQUEST: &str = "Add Ada Lovelace from London to the customers and save it.";
const ANSWER: &str = "Ada Lovelace from London is now a customer.";

fn script() -> Vec<Turn> {
    let ada = json!({"name": "Ada Lovelace", "city": "London"});
    vec![
        Turn::text("Let me look at the tables first.")
            .call("listTables", json!({}))
            .call("describeTable", json!({"table": "customers"})),
        Turn::calls([(
            "stageItem",
            json!({"table": "customers", "operation": "add", "values": ada}),
        )]),
        Turn::calls([(
            "stageItem",
            json!({"table": "customers", "operation": "insert", "values": ada}),
        )]),
        Turn::calls([("searchTools", json!({"query": "commit staged changes"}))]),
        Turn::calls([("commitStaged", json!({"message": "Add Ada Lovelace"}))]),
        Turn::text(ANSWER),
    ]
}

/// Runs the agent binary on `request` against `model`, with `stdin` as the terminal.
fn agent(provider: Provider, model: &Model, db: &Path, stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_app-agent"))
        .args([
            "--provider",
            provider.name(),
            "--base-url",
            &model.base_url(),
        ])
        .args(["--model", "scripted:1", "--db"])
        .arg(db)
        .arg(REQUEST)
        .env("ANTHROPIC_API_KEY", "sk-ant-test")
        .env("OPENAI_API_KEY", "sk-test")
        .env("GEMINI_API_KEY", "gemini-test")
        .env("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
        .env(
            "AWS_SECRET_ACCESS_KEY",
            "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
        )
        .env("AWS_REGION", "eu-central-1")
        .env_remove("AWS_BEARER_TOKEN_BEDROCK")
        .env_remove("AWS_SESSION_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the agent binary starts");
    child
        .stdin
        .take()
        .expect("its stdin")
        .write_all(stdin.as_bytes())
        .expect("the answers are written");
    child.wait_with_output().expect("the agent finishes")
}

/// The tool names a request offers.
fn tools(provider: Provider, body: &Value) -> Vec<String> {
    let (list, name): (&Value, &[&str]) = match provider {
        Provider::OpenAiChat => (&body["tools"], &["function", "name"]),
        Provider::Bedrock => (&body["toolConfig"]["tools"], &["toolSpec", "name"]),
        Provider::Gemini => (&body["tools"][0]["functionDeclarations"], &["name"]),
        _ => (&body["tools"], &["name"]),
    };
    list.as_array()
        .unwrap_or_else(|| panic!("{provider}: no tools in {body}"))
        .iter()
        .map(|tool| {
            name.iter()
                .fold(tool, |v, key| &v[key])
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// One tool result as the request carries it.
#[derive(Debug)]
struct Sent {
    id: String,
    /// The provider's error flag; `None` where it has none (`OpenAI`).
    error: Option<bool>,
    text: String,
}

/// The tool results at the end of a request, read the provider's way (independently of
/// the code under test).
fn results(provider: Provider, body: &Value) -> Vec<Sent> {
    let items = |v: &Value| v.as_array().cloned().unwrap_or_default();
    match provider {
        Provider::Anthropic | Provider::AnthropicToolSearch(_) => {
            let last = items(&body["messages"]).pop().unwrap();
            assert_eq!(last["role"], "user");
            items(&last["content"])
                .iter()
                .filter(|b| b["type"] == "tool_result")
                .map(|b| Sent {
                    id: b["tool_use_id"].as_str().unwrap().into(),
                    error: Some(b["is_error"] == true),
                    text: b["content"].as_str().unwrap().into(),
                })
                .collect()
        }
        Provider::OpenAiChat | Provider::OpenAiResponses => {
            let (messages, kind, tail, id, text) = if provider == Provider::OpenAiChat {
                (
                    items(&body["messages"]),
                    "role",
                    "tool",
                    "tool_call_id",
                    "content",
                )
            } else {
                (
                    items(&body["input"]),
                    "type",
                    "function_call_output",
                    "call_id",
                    "output",
                )
            };
            let mut sent: Vec<Sent> = messages
                .iter()
                .rev()
                .take_while(|m| m[kind] == tail)
                .map(|m| Sent {
                    id: m[id].as_str().unwrap().into(),
                    error: None,
                    text: m[text].as_str().unwrap().into(),
                })
                .collect();
            sent.reverse();
            sent
        }
        Provider::Bedrock => {
            let last = items(&body["messages"]).pop().unwrap();
            items(&last["content"])
                .iter()
                .filter_map(|b| b.get("toolResult"))
                .map(|r| Sent {
                    id: r["toolUseId"].as_str().unwrap().into(),
                    error: Some(r["status"] == "error"),
                    text: r["content"][0].get("json").map_or_else(
                        || r["content"][0]["text"].as_str().unwrap().into(),
                        Value::to_string,
                    ),
                })
                .collect()
        }
        Provider::Gemini => {
            let last = items(&body["contents"]).pop().unwrap();
            items(&last["parts"])
                .iter()
                .filter_map(|p| p.get("functionResponse"))
                .map(|r| Sent {
                    id: r["name"].as_str().unwrap().into(),
                    error: Some(r["response"].get("error").is_some()),
                    text: r["response"].to_string(),
                })
                .collect()
        }
    }
}

/// Checks the results of one step: their ids (Gemini: names) in call order, and which
/// are refusals.
fn expect_results(
    provider: Provider,
    request: &Received,
    step: usize,
    want: &[(&str, bool, &str)],
) {
    let sent = results(provider, &request.body);
    assert_eq!(
        sent.len(),
        want.len(),
        "{provider}, request {}: {sent:?}",
        step + 1
    );
    for (i, (sent, (name, refused, needle))) in sent.iter().zip(want).enumerate() {
        let id = match provider {
            Provider::Gemini => (*name).to_string(),
            Provider::Anthropic => format!("toolu_01S{step}C{i}xq7"),
            Provider::Bedrock => format!("tooluse_S{step}C{i}xq7"),
            _ => format!("call_S{step}C{i}xq7"),
        };
        assert_eq!(sent.id, id, "{provider}: {sent:?}");
        match sent.error {
            Some(flag) => assert_eq!(flag, *refused, "{provider}: {sent:?}"),
            None => assert_eq!(
                sent.text.contains("\"error\":\"CONSTRAINT_VIOLATION\""),
                *refused,
                "{provider}: {sent:?}"
            ),
        }
        assert!(
            sent.text.contains(needle),
            "{provider}: `{needle}` in {sent:?}"
        );
    }
}

fn rows(db: &Path, sql: &str) -> Vec<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut statement = conn.prepare(sql).unwrap();
    statement
        .query_map([], |row| row.get::<_, String>(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn the_scripted_conversation_runs_on_the_database_for_every_provider() {
    let mut peer_lines = Vec::new();
    for provider in Provider::APIS {
        let model = Model::start(provider, script());
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("app.db");
        let done = agent(provider, &model, &db, "y\n");
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert!(
            done.status.success(),
            "{provider}: {}\n{stderr}",
            done.status
        );
        assert_eq!(String::from_utf8_lossy(&done.stdout), format!("{ANSWER}\n"));
        assert!(
            stderr.contains("Allow `commitStaged`"),
            "{provider}: {stderr}"
        );

        let received = model.received();
        assert_eq!(received.len(), 6, "{provider}");
        let first = tools(provider, &received[0].body);
        assert!(
            first.contains(&"stageItem".to_string())
                && !first.contains(&"commitStaged".to_string())
        );
        expect_results(
            provider,
            &received[1],
            0,
            &[
                ("listTables", false, "customers"),
                ("describeTable", false, "email"),
            ],
        );
        expect_results(
            provider,
            &received[2],
            1,
            &[("stageItem", true, "/operation")],
        );
        expect_results(
            provider,
            &received[3],
            2,
            &[("stageItem", false, "changeId")],
        );
        expect_results(
            provider,
            &received[4],
            3,
            &[("searchTools", false, "commitStaged")],
        );
        assert!(tools(provider, &received[4].body).contains(&"commitStaged".to_string()));
        expect_results(
            provider,
            &received[5],
            4,
            &[("commitStaged", false, "commitId")],
        );

        assert_eq!(
            rows(
                &db,
                "SELECT city FROM customers WHERE name = 'Ada Lovelace'"
            ),
            ["London"]
        );
        check_auth(provider, &received[0]);
        for (request, reply) in received.iter().zip(model.replies()) {
            let mut body = request.body.clone();
            if provider == Provider::Bedrock {
                body["modelId"] = json!("scripted:1");
            }
            peer_lines.push(json!({"provider": provider.name(), "kind": "request", "body": body}));
            peer_lines.push(json!({"provider": provider.name(), "kind": "reply", "body": reply}));
        }
    }
    validate_with_the_sdks(&peer_lines);
}

/// Each provider's key where it wants it, and the model where it names it.
fn check_auth(provider: Provider, request: &Received) {
    let header = |name| request.header(name).unwrap_or_default();
    match provider {
        Provider::Anthropic => {
            assert_eq!(request.path, "/messages");
            assert_eq!(header("x-api-key"), "sk-ant-test");
            assert_eq!(header("anthropic-version"), "2023-06-01");
        }
        Provider::OpenAiChat => {
            assert_eq!(request.path, "/chat/completions");
            assert_eq!(header("authorization"), "Bearer sk-test");
        }
        Provider::OpenAiResponses => assert_eq!(request.path, "/responses"),
        Provider::Gemini => {
            assert_eq!(request.path, "/models/scripted:1:generateContent");
            assert_eq!(header("x-goog-api-key"), "gemini-test");
        }
        Provider::Bedrock => {
            assert_eq!(request.path, "/model/scripted%3A1/converse");
            let auth = header("authorization");
            assert!(
                auth.starts_with("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
                    && auth.contains("/eu-central-1/bedrock/aws4_request")
                    && auth.contains("Signature="),
                "{auth}"
            );
            assert!(!header("x-amz-date").is_empty());
        }
        Provider::AnthropicToolSearch(_) => unreachable!("not on the command line"),
    }
}

/// Hands every request and reply to the providers' official SDKs.
fn validate_with_the_sdks(lines: &[Value]) {
    let Some(python) = catalog_testkit::peer("SDK check", "CATALOG_PEER_PYTHON") else {
        return;
    };
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/provider_validate.py");
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
    assert!(
        done.status.success(),
        "the SDKs refused a request or reply:\n{}\n{}",
        String::from_utf8_lossy(&done.stdout),
        String::from_utf8_lossy(&done.stderr)
    );
}

#[test]
fn a_provider_error_is_one_line_and_the_staged_change_stays() {
    for provider in Provider::APIS {
        let ada = json!({"table": "customers", "operation": "insert", "values": {"name": "Ada"}});
        let model = Model::start(provider, vec![Turn::calls([("stageItem", ada)])]);
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("app.db");
        let done = agent(provider, &model, &db, "");
        assert_eq!(done.status.code(), Some(1), "{provider}");
        let stderr = String::from_utf8_lossy(&done.stderr);
        let last = stderr.lines().last().unwrap_or_default();
        assert!(
            last.starts_with(&format!(
                "error: {provider} answered HTTP 429 Too Many Requests"
            )) && last.contains("retry in 7 s")
                && last.ends_with("(1 staged change(s) are kept in the database's staging area)"),
            "{provider}: {last}"
        );
        assert!(done.stdout.is_empty());
    }
}

#[test]
fn the_readme_quickstart_is_the_example_that_compiles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("../../README.md")).unwrap();
    let quickstart = std::fs::read_to_string(root.join("examples/quickstart.rs")).unwrap();
    assert!(
        readme.contains(&format!("```rust\n{quickstart}```")),
        "README.md's quickstart differs from example/agent/examples/quickstart.rs: copy the file into it"
    );
}

#[test]
fn the_readme_row_is_the_example_catalogs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("../../README.md")).unwrap();
    let catalog = std::fs::read_to_string(root.join("../catalog.toml")).unwrap();
    let start = readme
        .find("```toml\n[[tool]]\n")
        .expect("README shows a row")
        + 8;
    let row = &readme[start..start + readme[start..].find("```").unwrap()];
    // As written in catalog.toml, but for the README's comments after the values.
    let row: String = row
        .lines()
        .map(|line| line.split("   #").next().unwrap_or(line).trim_end())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        catalog.contains(&row),
        "README.md's row is not in catalog.toml as written:\n{row}"
    );
}

/// Without a key the quickstart names the variable to set, not `NotPresent`. `cargo test`
/// builds the examples beside the tests; a run of this file alone may not have.
#[test]
fn the_quickstart_without_a_key_names_the_variable() {
    let deps = std::env::current_exe().unwrap();
    let examples = deps.parent().unwrap().parent().unwrap().join("examples");
    let quickstart = examples.join(format!("quickstart{}", std::env::consts::EXE_SUFFIX));
    if !quickstart.exists() {
        catalog_testkit::missing(
            "the_quickstart_without_a_key_names_the_variable",
            &format!("{} is not built", quickstart.display()),
            "`cargo test -p app-agent` builds it",
        );
        return;
    }
    let done = Command::new(&quickstart)
        .env_remove("ANTHROPIC_API_KEY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("set ANTHROPIC_API_KEY to your Anthropic API key"),
        "{stderr}"
    );
}
