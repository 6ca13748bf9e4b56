//! The tracker example, a catalog unlike the example app's, served by `catalog_mcp::main`
//! and driven by the official MCP Python SDK (`tests/clients/*.py`) over stdio and
//! streamable HTTP. The clients report what they saw; these tests compare it with the
//! tracker's generated tables, for every tool at every level, on every protocol revision:
//! what any server built on catalog-mcp does, tested here once. The example app's server
//! (`example/mcp/tests/peers.rs`) is driven the same way for its own calls.

mod common;

use std::path::PathBuf;

use catalog_core::{Access, DenyAll, Via};
use common::report::{
    Cause, assert_gated_refusal, assert_level_refusal, check_listing, check_probes, error,
    every_name, in_results, ran, rejected, steps,
};
use common::{HttpServer, LIMIT, NOW, Peer, REVISIONS, example_binary, opening, token};
use serde_json::{Value, json};

catalog_macros::catalog!("examples/tracker/catalog.toml");

const SERVER_NAME: &str = "tracker-mcp";

fn tracker() -> PathBuf {
    example_binary("tracker")
}

fn stdio(level: Access, gated: &str) -> Vec<String> {
    let mut args = vec!["--stdio".to_owned(), tracker().display().to_string()];
    args.extend(["--access", level.as_str(), "--gated", gated].map(String::from));
    args
}

/// What one client does after listing and probing: read, comment, fail, try to close.
fn conformance_calls(tag: &str) -> String {
    steps(&[
        ("list", "listIssues", json!({})),
        ("get", "getIssue", json!({"number": 1})),
        ("search", "searchIssues", json!({"query": "LOGIN page"})),
        ("bad", "getIssue", json!({"number": 0, "title": 1})),
        (
            "comment",
            "commentOnIssue",
            json!({"number": 1, "text": format!("seen by {tag}")}),
        ),
        (
            "failedComment",
            "commentOnIssue",
            json!({"number": 99, "text": "lost"}),
        ),
        ("close", "closeIssue", json!({"number": 2})),
        ("after", "getIssue", json!({"number": 1})),
        ("closedAfter", "getIssue", json!({"number": 2})),
    ])
}

fn conformance(peer: &Peer, tag: &str, revision: &str, connection: &[String]) -> Value {
    peer.conformance(
        &every_name(Catalog),
        &conformance_calls(tag),
        revision,
        connection,
    )
}

/// Everything one client at `level` saw, checked against the generated tables. The
/// server's policy for gated tools is deny ([`Cause::Policy`]), or ask with a client that
/// cannot be asked ([`Cause::Unasked`]).
fn check_conformance(report: &Value, level: Access, tag: &str, revision: &str, gated: Cause) {
    assert_eq!(report["initialize"]["protocolVersion"], revision, "{tag}");
    check_listing(Catalog, report, level, SERVER_NAME);
    check_probes(Catalog, report, level, revision);
    let calls = &report["calls"];

    // Reads run at every level; an object output comes structured too, an array not.
    let list = ran(&calls["list"], "listIssues");
    assert!(list.as_array().is_some_and(|l| !l.is_empty()), "{list}");
    assert_eq!(calls["list"]["structuredContent"], Value::Null);
    let issue = ran(&calls["get"], "getIssue");
    assert_eq!(issue["number"], 1);
    assert_eq!(
        calls["get"]["structuredContent"], *issue,
        "structured and text agree"
    );
    let found = ran(&calls["search"], "searchIssues");
    assert_eq!(
        found,
        &json!([{"number": 1, "title": "Login page crashes on an empty password", "state": "open"}])
    );

    // Arguments that do not fit: every issue with its place, in a tool result from
    // 2025-11-25 on, as invalid params before.
    let bad = rejected(&calls["bad"], revision, "bad arguments");
    assert_eq!(bad["tool"], "getIssue");
    let paths: Vec<&str> = bad["issues"]
        .as_array()
        .map(|issues| issues.iter().filter_map(|i| i["path"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(paths, ["/number", "/title"], "{bad}");

    // Commenting stages: refused at read-only, else added, and a failing call is a tool
    // error that changes nothing.
    let comments = |label: &str| calls[label]["content"]["comments"].clone();
    if level == Access::ReadOnly {
        assert_level_refusal(
            &calls["comment"],
            Tool::CommentOnIssue.spec(),
            level,
            "comment",
        );
        assert_level_refusal(
            &calls["failedComment"],
            Tool::CommentOnIssue.spec(),
            level,
            "failed",
        );
        assert_eq!(comments("after"), comments("get"));
    } else {
        let added = ran(&calls["comment"], "comment");
        assert_eq!(added["number"], 1);
        let failed = &calls["failedComment"];
        assert_eq!(failed["isError"], true, "{failed}");
        assert_eq!(failed["content"]["error"], "RUNTIME_ERROR");
        assert_eq!(failed["content"]["tool"], "commentOnIssue");
        let message = failed["content"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("there is no issue 99; listIssues shows the numbers"),
            "{message}"
        );
        let after = comments("after");
        assert_eq!(
            json!(after.as_array().map_or(0, Vec::len)),
            added["comments"]
        );
        assert!(
            after
                .as_array()
                .is_some_and(|c| c.contains(&json!(format!("seen by {tag}")))),
            "{after}"
        );
    }

    // closeIssue: above the level below full access; refused by the policy at it.
    if level < Access::FullAccess {
        assert_level_refusal(&calls["close"], Tool::CloseIssue.spec(), level, "close");
    } else {
        assert_gated_refusal(
            &calls["close"],
            Tool::CloseIssue.spec(),
            gated,
            revision,
            "close",
        );
    }
    assert_eq!(
        ran(&calls["closedAfter"], "issue 2")["state"],
        "open",
        "nothing closed"
    );
}

#[test]
fn stdio_clients_at_each_level_see_exactly_their_tables() {
    let Some(peer) = Peer::find("stdio_clients_at_each_level_see_exactly_their_tables") else {
        return;
    };
    for level in Access::ALL {
        let tag = format!("stdio-{level}");
        let report = conformance(&peer, &tag, NOW, &stdio(level, "deny"));
        check_conformance(&report, level, &tag, NOW, Cause::Policy);
    }
}

#[test]
fn http_clients_get_the_level_of_their_token() {
    let Some(peer) = Peer::find("http_clients_get_the_level_of_their_token") else {
        return;
    };
    let tokens: Vec<(String, &str)> = Access::ALL
        .iter()
        .map(|level| (token(level.as_str()), level.as_str()))
        .collect();
    // The default policy, ask: these clients declare no elicitation, so it falls back
    // to deny.
    let server = HttpServer::start(&tracker(), &tokens, &[]);
    for revision in REVISIONS {
        for (level, (token, _)) in Access::ALL.into_iter().zip(&tokens) {
            let tag = format!("http-{revision}-{level}");
            let report = conformance(&peer, &tag, revision, &server.connection(token));
            check_conformance(&report, level, &tag, revision, Cause::Unasked);
        }
    }
    // The tokens never reach the log.
    let log = server.log();
    assert!(
        tokens.iter().all(|(t, _)| !log.contains(t.as_str())),
        "{log}"
    );
}

/// A full-access client answering `answer` closes issue `number`, then reads it.
fn elicit(peer: &Peer, answer: &str, number: u32, modern: bool, connection: &[String]) -> Value {
    let calls = steps(&[
        (
            "close",
            "closeIssue",
            json!({"number": number, "reason": "not-planned"}),
        ),
        ("get", "getIssue", json!({"number": number})),
    ]);
    let mut args = vec!["--answer".into(), answer.into(), "--calls".into(), calls];
    if modern {
        args.push("--modern".into());
    }
    args.extend(connection.iter().cloned());
    peer.run("elicit.py", &args, LIMIT)
}

/// What a client answering `answer` saw: asked once (`"none"` declares no elicitation, so
/// it is refused unasked), the issue closed only on "accept". On 2026-07-28 the question
/// came in an input-required result and the call was made again with the answer.
fn check_elicited(report: &Value, answer: &str, number: u32) {
    let revision = report["protocolVersion"].as_str().unwrap_or_default();
    let asked = answer != "none";
    let calls = &report["calls"];
    let state = &ran(&calls["get"], "getIssue")["state"];
    if answer == "accept" {
        let closed = ran(&calls["close"], answer);
        assert_eq!(
            closed,
            &json!({"number": number, "state": "closed", "reason": "not-planned"})
        );
        assert_eq!(state, "closed");
    } else {
        let cause = if asked {
            Cause::Declined
        } else {
            Cause::Unasked
        };
        assert_gated_refusal(
            &calls["close"],
            Tool::CloseIssue.spec(),
            cause,
            revision,
            answer,
        );
        assert_eq!(state, "open", "{answer}: still open");
    }
    let rounds = &calls["close"]["inputRounds"];
    if asked && revision == "2026-07-28" {
        assert_eq!(
            rounds, 1,
            "{answer}: one input-required result, then the answer"
        );
    } else {
        assert_eq!(
            rounds,
            &Value::Null,
            "{answer}: asked mid-call or not at all"
        );
    }
    let questions = report["questions"].as_array().expect("a list of questions");
    if asked {
        assert_eq!(questions.len(), 1, "{report}");
        assert_eq!(questions[0]["mode"], "form");
        let message = questions[0]["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with(&format!(
                "An MCP client wants to run `closeIssue` (full-access) with {{\"number\":{number},\"reason\":\"not-planned\"}}. Closes an open issue, as done or as not planned. Allow it?"
            )),
            "{message}"
        );
    } else {
        assert!(questions.is_empty(), "{report}");
    }
}

#[test]
fn the_ask_policy_asks_the_client_and_obeys_the_answer() {
    let Some(peer) = Peer::find("the_ask_policy_asks_the_client_and_obeys_the_answer") else {
        return;
    };
    // Each run starts a fresh tracker: issue 2 is open every time. On 2026-07-28 the
    // question travels in the result instead of a request mid-call.
    let connection = stdio(Access::FullAccess, "ask");
    for modern in [false, true] {
        for answer in ["accept", "decline", "cancel", "none"] {
            let report = elicit(&peer, answer, 2, modern, &connection);
            let revision = if modern { "2026-07-28" } else { NOW };
            assert_eq!(report["protocolVersion"], revision, "{answer}");
            check_elicited(&report, answer, 2);
        }
    }
    // Over HTTP the question travels on the session's stream, or (2026-07-28, no
    // session) in the result; one server, so a decline first leaves the issue open for
    // the accept.
    let full = token("full");
    let server = HttpServer::start(&tracker(), &[(full.clone(), "full-access")], &[]);
    for (modern, number) in [(false, 3), (true, 4)] {
        for answer in ["decline", "accept"] {
            let report = elicit(&peer, answer, number, modern, &server.connection(&full));
            check_elicited(&report, answer, number);
        }
    }
    assert!(
        server
            .log()
            .contains("tools/call waits for the user's answer"),
        "{}",
        server.log()
    );
}

#[test]
fn the_allow_policy_runs_gated_tools_without_asking() {
    let Some(peer) = Peer::find("the_allow_policy_runs_gated_tools_without_asking") else {
        return;
    };
    let calls = steps(&[
        ("delete", "deleteIssue", json!({"number": 4})),
        ("list", "listIssues", json!({"state": "all"})),
    ]);
    let mut args = vec!["--answer".into(), "none".into(), "--calls".into(), calls];
    args.extend(stdio(Access::FullAccess, "allow"));
    let report = peer.run("elicit.py", &args, LIMIT);
    assert_eq!(
        ran(&report["calls"]["delete"], "delete"),
        &json!({"deleted": 4})
    );
    let numbers: Vec<&Value> = ran(&report["calls"]["list"], "list")
        .as_array()
        .map(|issues| issues.iter().map(|i| &i["number"]).collect())
        .unwrap_or_default();
    assert_eq!(numbers, [3, 2, 1]);
    assert_eq!(report["questions"], json!([]));
}

/// What the server says to a full-access call under the deny policy, as JSON: the
/// verifier's refusal, a denial naming the policy as its cause.
fn verified(name: &str, arguments: Value) -> (Value, String) {
    let verified = Catalog::verify(
        Via::Mcp(Access::FullAccess, &Catalog),
        name,
        arguments,
        &mut DenyAll,
    );
    let Err(rejection) = verified else {
        panic!("{name} passed the verifier");
    };
    let rejection = catalog_mcp::calls::by_policy(rejection);
    let json = serde_json::from_str(&rejection.to_json()).expect("a rejection is JSON");
    (json, rejection.to_string())
}

#[test]
fn refusals_reach_the_model_as_the_revision_says() {
    let Some(peer) = Peer::find("refusals_reach_the_model_as_the_revision_says") else {
        return;
    };
    let bad_arguments = json!({"number": 0, "title": 1});
    let calls = steps(&[
        ("bad", "getIssue", bad_arguments.clone()),
        ("unknown", "noSuchTool", json!({})),
        ("hidden", "showIssue", json!({"number": 1})),
        ("denied", "closeIssue", json!({"number": 1})),
        (
            "failed",
            "commentOnIssue",
            json!({"number": 99, "text": "x"}),
        ),
    ]);
    let bad = verified("getIssue", bad_arguments);
    let denied = verified("closeIssue", json!({"number": 1}));
    for revision in REVISIONS {
        let report = peer.conformance("[]", &calls, revision, &stdio(Access::FullAccess, "deny"));
        assert_eq!(report["initialize"]["protocolVersion"], revision);
        let calls = &report["calls"];
        for (label, (json, message)) in [("bad", &bad), ("denied", &denied)] {
            let expected = if in_results(revision) {
                // SEP-1303: the model reads every issue and corrects the call.
                json!({"isError": true, "content": json, "structuredContent": null})
            } else {
                json!({"error": {"code": -32602, "message": message, "data": json}})
            };
            assert_eq!(calls[label], expected, "{label} on {revision}");
        }
        // A tool the client cannot see is a protocol error on every revision.
        for (label, name) in [("unknown", "noSuchTool"), ("hidden", "showIssue")] {
            let e = error(&calls[label], label);
            assert_eq!(e["code"], -32602, "{label} on {revision}");
            assert_eq!(e["message"], format!("Unknown tool: {name}"));
        }
        let failed = &calls["failed"];
        assert_eq!(failed["isError"], true, "{revision}: {failed}");
        assert_eq!(failed["content"]["error"], "RUNTIME_ERROR", "{revision}");
    }
}

/// Runs `logs.py` asking for `level` (or `none`) while it reads, is refused a gated call
/// and calls an unknown tool.
fn logs(peer: &Peer, level: &str, revision: &str, connection: &[String]) -> Value {
    let calls = steps(&[
        ("get", "getIssue", json!({"number": 1})),
        ("close", "closeIssue", json!({"number": 1})),
        ("unknown", "noSuchTool", json!({})),
    ]);
    let mut args = vec!["--level".into(), level.into(), "--calls".into(), calls];
    args.extend(opening(revision));
    args.extend(connection.iter().cloned());
    peer.run("logs.py", &args, LIMIT)
}

/// The messages a `logs.py` report holds, as (the call they came during, the message).
fn messages(report: &Value) -> Vec<(String, String)> {
    report["messages"]
        .as_array()
        .expect("a list of messages")
        .iter()
        .map(|m| {
            assert_eq!(m["logger"], "catalog_mcp::handler", "{m}");
            assert_eq!(m["data"]["level"], "full-access", "{m}");
            let during = m["during"].as_str().unwrap_or("between calls").to_owned();
            let text = format!(
                "{} {} {}",
                m["level"], m["data"]["message"], m["data"]["tool"]
            );
            (during, text.replace('"', ""))
        })
        .collect()
}

#[test]
fn a_client_gets_the_servers_log_messages_at_the_level_it_asked_for() {
    let Some(peer) = Peer::find("a_client_gets_the_servers_log_messages_at_the_level_it_asked_for")
    else {
        return;
    };
    let all = [
        ("get", "debug tools/call ran getIssue"),
        (
            "close",
            "info tools/call answered with an error result closeIssue",
        ),
        ("unknown", "info tools/call refused noSuchTool"),
    ]
    .map(|(during, text)| (during.to_owned(), text.to_owned()));
    let full = token("logs");
    let server = HttpServer::start(
        &tracker(),
        &[(full.clone(), "full-access")],
        &["--gated", "deny"],
    );
    let stdio = stdio(Access::FullAccess, "deny");
    for revision in [NOW, "2026-07-28"] {
        for connection in [&stdio, &server.connection(&full)] {
            let what = format!("{revision} {}", connection[0]);
            // Each message arrives while its call is answered, before the result.
            // Over HTTP the messages ride the standalone stream, which rmcp does not order
            // against the responses: there the calls they name are checked, not when they
            // came.
            let over_http = connection[0] == "--http";
            let seen = |report: &Value| {
                let mut seen = messages(report);
                if over_http {
                    for (during, _) in &mut seen {
                        during.clear();
                    }
                    seen.sort();
                }
                seen
            };
            let expect = |all: &[(String, String)]| {
                let mut all = all.to_vec();
                if over_http {
                    for (during, _) in &mut all {
                        during.clear();
                    }
                    all.sort();
                }
                all
            };
            let report = logs(&peer, "debug", revision, connection);
            assert_eq!(report["protocolVersion"], revision, "{what}");
            assert_eq!(seen(&report), expect(&all), "{what}: {report}");
            let report = logs(&peer, "info", revision, connection);
            assert_eq!(seen(&report), expect(&all[1..]), "{what}");
            for level in ["warning", "none"] {
                let report = logs(&peer, level, revision, connection);
                assert_eq!(messages(&report), [], "{what}: {level}");
            }
            // 2026-07-28 names the level in each request; logging/setLevel is gone.
            let set = &logs(&peer, "error", revision, connection)["setLevel"];
            if revision == NOW {
                assert_eq!(set, &json!({}), "{what}");
            } else {
                assert_eq!(set["error"]["code"], -32601, "{what}");
            }
        }
    }
}
