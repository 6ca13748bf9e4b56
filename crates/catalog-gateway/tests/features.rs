//! The gateway passes on everything MCP can say: a server that exercises every feature
//! (`@modelcontextprotocol/server-everything`, from npm), imported with `cargo catalog
//! import --from-server` and served by the gateway over stdio and over HTTP, gives the
//! official Python SDK the same answers, notifications and callbacks as the server direct,
//! feature by feature (`tests/peers/features.py` runs the features and prints what each
//! came to). Tools, prompts, resources, templates, completions, subscriptions and their
//! updates, log messages, progress, sampling, form and URL elicitation, `-32042`, roots and
//! their changes, links to resources of the session: each is compared whole. And a client
//! of 2026-07-28, asked between rounds, gets the server's mid-call question as a round of
//! its call, whose answer the server reads as it asked.
//!
//! The gateway runs at full access with gated calls allowed: what it asks of a user about
//! its own gated rows is not the server's, and is tested elsewhere.
//!
//! The peers come from `cargo xtask test` (`CATALOG_PEER_PYTHON`, `CATALOG_PEER_NODE_BIN`);
//! without them these tests fail under CI and are skipped, with instructions, elsewhere.

#[path = "../../catalog-mcp/tests/common/mod.rs"]
mod common;
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::{HttpServer, Peer, run, scratch, token};
use serde_json::{Value, json};
use support::cargo_catalog;

const LIMIT: Duration = Duration::from_secs(180);

/// What `features.py` prints for the server `command` runs, or reaches over HTTP.
fn features(python: &Path, command: &[String]) -> serde_json::Map<String, Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/features.py");
    let done = run(Command::new(python).arg(script).args(command), LIMIT);
    assert!(
        done.status.success(),
        "features.py {command:?} failed ({}):\n{}\n{}",
        done.status,
        done.stdout,
        done.stderr
    );
    let line = done.stdout.lines().last().unwrap_or_default();
    match serde_json::from_str(line) {
        Ok(Value::Object(features)) => features,
        _ => panic!("features.py printed no report:\n{}", done.stdout),
    }
}

/// Every feature where `through` differs from `direct`, named with both.
fn differences(
    direct: &serde_json::Map<String, Value>,
    through: &serde_json::Map<String, Value>,
) -> Vec<String> {
    let mut differ = Vec::new();
    for (feature, seen) in direct {
        match through.get(feature) {
            Some(same) if same == seen => {}
            Some(other) => differ.push(format!(
                "{feature}:\n    direct:  {seen}\n    gateway: {other}"
            )),
            None => differ.push(format!("{feature}: not run through the gateway")),
        }
    }
    differ
}

#[test]
fn behind_the_gateway_every_feature_comes_back_as_direct() {
    let test = "behind_the_gateway_every_feature_comes_back_as_direct";
    let Some(peer) = Peer::find(test) else {
        return;
    };
    let python = PathBuf::from(std::env::var_os("CATALOG_PEER_PYTHON").expect("checked"));
    let Some(node_bin) = catalog_testkit::peer(test, "CATALOG_PEER_NODE_BIN") else {
        return;
    };
    let server = [
        node_bin.join("node").display().to_string(),
        node_bin.join("mcp-server-everything").display().to_string(),
        "stdio".into(),
    ];
    let dir = scratch(test);
    let catalog = dir.join("everything.toml");
    let done = run(
        Command::new(cargo_catalog())
            .args(["import", "--from-server", "--name", "everything", "--out"])
            .arg(&catalog)
            .arg("--")
            .args(&server),
        LIMIT,
    );
    assert!(done.status.success(), "import: {}", done.stderr);
    let gateway = env!("CARGO_BIN_EXE_catalog-gateway");
    let catalog = catalog.display().to_string();
    let serving = ["--catalog", &catalog, "--gated", "allow"];

    let direct = features(&python, &server);
    let mut over_stdio: Vec<String> = vec![gateway.into()];
    over_stdio.extend(serving.iter().map(|s| (*s).to_owned()));
    over_stdio.extend(["--access".into(), "full-access".into()]);
    let stdio = features(&python, &over_stdio);
    let full = token("features");
    let http = HttpServer::start(
        Path::new(gateway),
        &[(full.clone(), "full-access")],
        &serving,
    );
    let over_http = features(&python, &["--http".into(), http.url.clone(), full.clone()]);

    let mut wrong = Vec::new();
    for (how, through) in [("stdio", &stdio), ("HTTP", &over_http)] {
        let differ = differences(&direct, through);
        eprintln!(
            "over {how}: {} of {} features as direct",
            direct.len() - differ.len(),
            direct.len()
        );
        wrong.extend(differ.into_iter().map(|d| format!("over {how}: {d}")));
    }
    assert!(direct.len() >= 30, "only {} features ran", direct.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));

    // A client of 2026-07-28, which is asked between rounds, through the gateway to this
    // server of 2025-11-25, which asks mid-call: the question is a round of the call, the
    // retry brings the answer, and the server reads it as it asked (defaults applied).
    let calls = common::report::steps(&[("ask", "trigger-elicitation-request", json!({}))]);
    let args: Vec<String> = vec![
        "--answer".into(),
        "accept".into(),
        "--calls".into(),
        calls,
        "--modern".into(),
        "--http".into(),
        http.url.clone(),
        "--token".into(),
        full,
    ];
    let report = peer.run("elicit.py", &args, LIMIT);
    assert_eq!(report["protocolVersion"], "2026-07-28", "{report}");
    let asked = &report["calls"]["ask"];
    assert_eq!(asked["isError"], false, "{report}");
    assert_eq!(asked["inputRounds"], 1, "{report}");
    let questions = report["questions"].as_array().expect("the questions");
    assert_eq!(questions.len(), 1, "{report}");
    assert_eq!(questions[0]["mode"], "form", "{report}");
    assert!(
        asked["content"]
            .as_str()
            .is_some_and(|text| text.contains("It was a dark and stormy night.")),
        "the server read the answer with the form's default: {report}"
    );
}
