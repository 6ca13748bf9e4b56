//! `eval-agent` end to end, for every provider, against a local endpoint that plays a
//! model by rules: it calls the tool its plan names when the request offers it, searches
//! for it when not, and answers in text once it has nothing left to do. The model keeps
//! a log of what it did; the report's figures and every request's record must equal
//! what that log says. A second run on the same cache sends nothing; a 429 is retried.

#![cfg(feature = "eval-agent")]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

use catalog_check::model::CatalogModel;
use catalog_providers::scripted::{Answer, Model, Received, Turn};
use catalog_wire::provider::Provider;
use serde_json::{Value, json};

/// What the model means to do with one request.
#[derive(Clone)]
struct Plan {
    /// The tool it will call (another than the expected one, for some requests).
    target: String,
    /// Its search query when the tool is not offered.
    query: String,
    /// Whether its first call of the tool has a wrong argument.
    wrong_first: bool,
}

/// What the model did, one entry per request it answered: the user's request, then
/// `search`, `call` (right arguments), `wrong` (wrong arguments) or `text`.
type Log = Arc<Mutex<Vec<(String, &'static str)>>>;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn catalog() -> CatalogModel {
    let source = std::fs::read_to_string(root().join("example/catalog.toml")).unwrap();
    catalog_check::compile(&source).unwrap()
}

/// The requests file, and each request's plan by its text.
fn plans(catalog: &CatalogModel) -> (Vec<Value>, HashMap<String, Plan>) {
    let text = std::fs::read_to_string(root().join("example/catalog/requests.jsonl")).unwrap();
    let requests: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut plans = HashMap::new();
    for (i, request) in requests.iter().enumerate() {
        let expected = request["expected"][0].as_str().unwrap();
        // Every fifth request the model picks a tool that reads rows instead; every third
        // it gets an argument wrong first.
        let target = if i % 5 == 4 { "queryRows" } else { expected };
        let tool = catalog.tools.iter().find(|t| t.name == target).unwrap();
        plans.insert(
            request["query"].as_str().unwrap().to_string(),
            Plan {
                target: target.to_string(),
                // What a model would search for: the tool's own first words.
                query: tool
                    .description
                    .split_whitespace()
                    .take(6)
                    .collect::<Vec<_>>()
                    .join(" "),
                wrong_first: i % 3 == 0,
            },
        );
    }
    (requests, plans)
}

/// The model: plays each request's plan, logging what it does.
fn player(
    provider: Provider,
    catalog: &CatalogModel,
    plans: HashMap<String, Plan>,
    log: Log,
    rate_limit_first: bool,
) -> impl Fn(&Received) -> Answer + Send + Sync + 'static {
    let inputs: HashMap<String, Value> = catalog
        .tools
        .iter()
        .map(|t| {
            let schema = catalog_check::schema::input(t);
            (t.name.clone(), catalog_check::schema::sample(&schema))
        })
        .collect();
    let limited = Mutex::new(!rate_limit_first);
    move |received: &Received| {
        {
            let mut limited = limited.lock().unwrap();
            if !*limited {
                *limited = true;
                return Answer::Error {
                    status: 429,
                    retry_after: Some(0),
                };
            }
        }
        let user = received.user_text(provider).expect("a user message");
        let plan = &plans[&user];
        let offered = received.tools(provider).contains(&plan.target);
        let done = received.results(provider);
        let (what, turn) = if done == 0 && !offered {
            (
                "search",
                Turn::calls([("searchTools", json!({"query": plan.query}))]),
            )
        } else if done == 0 && plan.wrong_first {
            let mut wrong = inputs[&plan.target].clone();
            wrong["notAParameter"] = json!(true);
            ("wrong", Turn::calls([(plan.target.clone(), wrong)]))
        } else if done < 3 && offered {
            (
                "call",
                Turn::calls([(plan.target.clone(), inputs[&plan.target].clone())]),
            )
        } else {
            ("text", Turn::text("I have done what I could."))
        };
        log.lock().unwrap().push((user, what));
        Answer::Turn(turn)
    }
}

/// `k / n`, as the report computes a share.
fn ratio(k: usize, n: usize) -> f64 {
    f64::from(u32::try_from(k).unwrap()) / f64::from(u32::try_from(n).unwrap())
}

/// Runs `eval-agent` in `dir` against `model` with `args`.
fn eval(dir: &Path, provider: Provider, model: &Model, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-catalog"))
        .current_dir(dir)
        .args(["catalog", "eval-agent", "--provider", provider.name()])
        .args(["--base-url", &model.base_url(), "--model", "scripted"])
        .arg("--catalog")
        .arg(root().join("example/catalog.toml"))
        .arg("--requests")
        .arg(root().join("example/catalog/requests.jsonl"))
        .args(args)
        .env("ANTHROPIC_API_KEY", "sk-ant-test")
        .env("OPENAI_API_KEY", "sk-test")
        .env("GEMINI_API_KEY", "gemini-test")
        .env("AWS_BEARER_TOKEN_BEDROCK", "bedrock-test")
        .output()
        .unwrap()
}

fn report(output: &Output) -> Value {
    assert!(
        output.status.success(),
        "eval-agent failed: {}\n{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Each request's record from the model's log: what the report must say of it.
fn expected_records(
    requests: &[Value],
    plans: &HashMap<String, Plan>,
    log: &[(String, &str)],
) -> Vec<Value> {
    requests
        .iter()
        .map(|request| {
            let query = request["query"].as_str().unwrap();
            let expected = request["expected"][0].as_str().unwrap();
            let plan = &plans[query];
            let did: Vec<&str> = log
                .iter()
                .filter(|(u, _)| u == query)
                .map(|(_, w)| *w)
                .collect();
            let called = did.iter().any(|w| *w == "call" || *w == "wrong");
            let success = plan.target == expected && did.contains(&"call");
            json!({
                "id": request["id"],
                "selected": called.then_some(plan.target == expected),
                "success": success,
                "steps": did.len(),
                "searches": did.iter().filter(|w| **w == "search").count(),
                "argument_rejections": did.iter().filter(|w| **w == "wrong").count(),
                "input_tokens": 120 * did.len(),
                "output_tokens": 30 * did.len(),
            })
        })
        .collect()
}

/// The fields of the report's records the log decides.
fn records_of(report: &Value) -> Vec<Value> {
    report["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            json!({
                "id": r["id"], "selected": r["selected"], "success": r["success"],
                "steps": r["steps"], "searches": r["searches"],
                "argument_rejections": r["argument_rejections"],
                "input_tokens": r["input_tokens"], "output_tokens": r["output_tokens"],
            })
        })
        .collect()
}

#[test]
fn every_provider_s_report_counts_what_the_model_did() {
    let catalog = catalog();
    let (requests, plans) = plans(&catalog);
    let n = requests.len();
    for provider in Provider::APIS {
        for split in ["current", "all-inline", "all-discoverable"] {
            let dir = tempfile::tempdir().unwrap();
            let log: Log = Arc::default();
            let model = Model::play(
                provider,
                player(provider, &catalog, plans.clone(), Arc::clone(&log), false),
            );
            let out = report(&eval(
                dir.path(),
                provider,
                &model,
                &["--split", split, "--format", "json"],
            ));
            let log = log.lock().unwrap().clone();
            let context = format!("{provider} {split}");
            assert_eq!(
                records_of(&out),
                expected_records(&requests, &plans, &log),
                "{context}"
            );
            assert_eq!(out["run"]["sent"], json!(log.len()), "{context}");
            assert_eq!(model.received().len(), log.len(), "{context}");
            let figures = &out["splits"][0];
            let share = |pick: &dyn Fn(&Value) -> bool| {
                ratio(records_of(&out).iter().filter(|r| pick(r)).count(), n)
            };
            assert_eq!(
                figures["selection_accuracy"]["mean"],
                json!(share(&|r| r["selected"] == json!(true))),
                "{context}"
            );
            assert_eq!(
                figures["success"]["mean"],
                json!(share(&|r| r["success"] == json!(true))),
                "{context}"
            );
            let searches = log.iter().filter(|(_, w)| *w == "search").count();
            match split {
                // The model has every tool: it never searches.
                "all-inline" => assert_eq!(searches, 0, "{context}"),
                // It has none: it searches once per request.
                "all-discoverable" => assert_eq!(searches, n, "{context}"),
                _ => assert!(searches > 0 && searches < n, "{context}: {searches}"),
            }
            // With every tool at hand, each request whose plan names its expected tool
            // succeeds: the arguments the model sends and the outputs the handlers
            // answer pass the verifier for every tool of the catalog.
            if split == "all-inline" {
                let right = requests
                    .iter()
                    .filter(|r| {
                        plans[r["query"].as_str().unwrap()].target
                            == r["expected"][0].as_str().unwrap()
                    })
                    .count();
                assert_eq!(
                    figures["success"]["mean"],
                    json!(ratio(right, n)),
                    "{context}"
                );
            }
            assert!(dir.path().join("eval-agent.svg").exists(), "{context}");
        }
    }
}

#[test]
fn a_rerun_is_answered_from_the_cache_and_a_rate_limit_is_retried() {
    let catalog = catalog();
    let (_, plans) = plans(&catalog);
    let provider = Provider::OpenAiChat;
    let dir = tempfile::tempdir().unwrap();
    let log: Log = Arc::default();
    let model = Model::play(
        provider,
        player(provider, &catalog, plans, Arc::clone(&log), true),
    );
    let args = [
        "--split",
        "current",
        "--split",
        "all-discoverable",
        "--format",
        "json",
    ];
    let first = report(&eval(dir.path(), provider, &model, &args));
    let answered = log.lock().unwrap().len();
    assert_eq!(first["run"]["retried"], 1);
    assert_eq!(first["run"]["sent"], json!(answered + 1));
    assert_eq!(model.received().len(), answered + 1);

    let second = report(&eval(dir.path(), provider, &model, &args));
    assert_eq!(
        model.received().len(),
        answered + 1,
        "the rerun sent a request"
    );
    assert_eq!(second["run"]["sent"], 0);
    assert_eq!(records_of(&second), records_of(&first));

    // The human table, with the plot beside it.
    let out = eval(
        dir.path(),
        provider,
        &model,
        &["--split", "current", "--split", "all-inline"],
    );
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.contains("current") && table.contains("all-inline") && table.contains("selection"),
        "{table}"
    );
    let svg = std::fs::read_to_string(dir.path().join("eval-agent.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("all-inline"),
        "{svg}"
    );
}

#[test]
fn a_split_file_names_the_inline_tools_and_a_misspelt_one_is_refused_with_the_nearest() {
    let catalog = catalog();
    let (requests, plans) = plans(&catalog);
    let provider = Provider::Gemini;
    let dir = tempfile::tempdir().unwrap();
    let model = Model::play(
        provider,
        player(provider, &catalog, plans, Arc::default(), false),
    );
    std::fs::write(
        dir.path().join("few.txt"),
        "# the reads only\nlistTables\ndescribeTable\nqueryRows\n",
    )
    .unwrap();
    let out = report(&eval(
        dir.path(),
        provider,
        &model,
        &["--split", "few.txt", "--format", "json"],
    ));
    // The three named, and the search and ask tools.
    assert_eq!(out["splits"][0]["split"], "few.txt");
    assert_eq!(out["splits"][0]["inline"], 5);
    assert_eq!(
        out["splits"][0]["discoverable"],
        json!(catalog.tools.len() - 5)
    );
    assert_eq!(out["requests"].as_array().unwrap().len(), requests.len());

    std::fs::write(dir.path().join("typo.txt"), "listTables\nqueryRow\n").unwrap();
    let args = [
        "--split", "typo.txt", "--split", "current", "--split", "current",
    ];
    let out = eval(dir.path(), provider, &model, &args);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr
            .contains("typo.txt:2: the catalog has no tool `queryRow`; did you mean `queryRows`?"),
        "{stderr}"
    );
    // Every unusable split at once.
    assert!(
        stderr.contains("the split `current` is given twice"),
        "{stderr}"
    );
}

/// The command of the chapter's "Offline, with no key", as written but for the server's
/// address, which is the scripted model's: the words after `cargo catalog`, and the
/// variables set before it.
fn offline_command() -> (Vec<(String, String)>, Vec<String>) {
    let chapter = std::fs::read_to_string(root().join("book/src/eval-agent.md")).unwrap();
    let section = &chapter[chapter
        .find("\n## Offline, with no key\n")
        .expect("book/src/eval-agent.md has a section `Offline, with no key`")..];
    let command = section
        .split("```sh\n")
        .skip(1)
        .map(|block| &block[..block.find("```").unwrap()])
        .find(|block| block.contains("cargo catalog eval-agent"))
        .expect("the section runs `cargo catalog eval-agent`")
        .replace("\\\n", " ");
    let words: Vec<&str> = command.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "cargo").unwrap();
    let vars = words[..at]
        .iter()
        .map(|w| {
            let (name, value) = w.split_once('=').expect("NAME=value before the command");
            (name.to_string(), value.to_string())
        })
        .collect();
    // `cargo catalog ...` is `cargo-catalog catalog ...`.
    let args = words[at + 1..].iter().map(|w| (*w).to_string()).collect();
    (vars, args)
}

#[test]
fn the_chapters_offline_command_runs_as_written() {
    let catalog = catalog();
    let (_, plans) = plans(&catalog);
    let provider = Provider::OpenAiChat;
    let model = Model::play(
        provider,
        player(provider, &catalog, plans, Arc::default(), false),
    );
    let (vars, mut args) = offline_command();
    let server = "http://127.0.0.1:8080";
    let url = args
        .iter_mut()
        .find(|a| a.starts_with(server))
        .expect("the command names llama-server's address");
    *url = url.replace(server, &model.base_url());
    // A folder holding a catalog and its requests, as the chapter has the user run it in.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("example/catalog.toml"),
        dir.path().join("catalog.toml"),
    )
    .unwrap();
    std::fs::copy(
        root().join("example/catalog/requests.jsonl"),
        dir.path().join("requests.jsonl"),
    )
    .unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_cargo-catalog"));
    command.current_dir(dir.path()).args(&args);
    for name in ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY"] {
        command.env_remove(name);
    }
    let out = command.envs(vars.iter().cloned()).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("openai-chat") && table.contains("all-discoverable"),
        "{table}"
    );
    let received = model.received();
    assert!(!received.is_empty());
    let key = &vars.iter().find(|(n, _)| n == "OPENAI_API_KEY").unwrap().1;
    let name = &args[args.iter().position(|a| a == "--model").unwrap() + 1];
    for request in &received {
        assert_eq!(request.path, "/v1/chat/completions");
        assert_eq!(
            request.header("authorization"),
            Some(format!("Bearer {key}").as_str())
        );
        assert_eq!(request.body["model"], json!(name));
    }
}
