//! The gateway as an MCP server, held to the protocol from outside: the official
//! conformance suite over streamable HTTP at 2025-11-25 and at 2026-07-28, each on its own
//! wire (every scored scenario passes, or is listed under `catalog-gateway` in
//! `tests/peers/conformance.json` with the reason it cannot), the transport's rules on raw
//! requests (an upstream's parameter mirrored in an HTTP header held to its argument among
//! them), gated calls asked about on 2025-11-25 and 2026-07-28, log messages, and what a
//! client without a session keeps, with the official Python SDK as the client. The gateway
//! serves `@modelcontextprotocol/server-filesystem` and a server with what the suite calls on
//! its reference server (`tests/peers/reference_server.py`, which asks between rounds on a
//! 2026-07-28 connection and mid-call on an older one), imported as a user would.
//!
//! The peers come from `cargo xtask test` (`CATALOG_PEER_PYTHON`, `CATALOG_PEER_NODE_BIN`);
//! without them these tests fail under CI and are skipped, with instructions, elsewhere.

#[path = "../../catalog-mcp/tests/common/mod.rs"]
mod common;
mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::conformance::{REVISIONS, Suite, check};
use common::report::{Cause, assert_refused_gated, steps};
use common::{HttpServer, Peer, modern_request, run, scratch, token};
use serde_json::{Value, json};
use support::cargo_catalog;

const LIMIT: Duration = Duration::from_secs(120);

/// A catalog of the filesystem server's tools, imported over stdio, serving `files`, and
/// of the conformance reference server's (`tests/peers/reference_server.py`): its path.
fn filesystem_catalog(dir: &Path, files: &Path) -> PathBuf {
    let node_bin = PathBuf::from(std::env::var_os("CATALOG_PEER_NODE_BIN").expect("checked"));
    let catalog = dir.join("gateway.toml");
    let done = run(
        Command::new(cargo_catalog())
            .args(["import", "--from-server", "--name", "files", "--out"])
            .arg(&catalog)
            .arg("--")
            .arg(node_bin.join("mcp-server-filesystem"))
            .arg(files),
        LIMIT,
    );
    assert!(done.status.success(), "import: {}", done.stderr);
    // Beside it, what the suite's scenarios call on its reference server.
    let python = PathBuf::from(std::env::var_os("CATALOG_PEER_PYTHON").expect("checked"));
    let done = run(
        Command::new(cargo_catalog())
            .args(["import", "--from-server", "--name", "reference", "--into"])
            .arg(&catalog)
            .arg("--")
            .arg(python)
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/peers/reference_server.py"
            )),
        LIMIT,
    );
    assert!(done.status.success(), "import: {}", done.stderr);
    catalog
}

/// The gateway over HTTP in front of the filesystem server, with one full-access token.
fn gateway(test: &str) -> Option<(Suite, Peer, HttpServer, String, PathBuf)> {
    let suite = Suite::find(test)?;
    let peer = Peer::find(test)?;
    let dir = scratch(test);
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    let catalog = filesystem_catalog(&dir, &files);
    let full = token("gateway");
    let server = HttpServer::start(
        Path::new(env!("CARGO_BIN_EXE_catalog-gateway")),
        &[(full.clone(), "full-access")],
        &["--catalog", catalog.to_str().unwrap()],
    );
    Some((suite, peer, server, full, files))
}

/// One raw request; the whole response (the connection closes after it).
fn raw(address: &str, token: &str, extra: &[&str], body: &str) -> String {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Length: {}\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Authorization: Bearer {token}\r\n",
        body.len()
    );
    for header in extra {
        head.push_str(header);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut response = String::new();
    let mut buffer = [0u8; 4096];
    while let Ok(n) = stream.read(&mut buffer) {
        if n == 0 {
            break;
        }
        response.push_str(&String::from_utf8_lossy(&buffer[..n]));
        if response.contains("\"result\"") {
            break;
        }
    }
    response
}

#[test]
fn the_gateway_keeps_the_protocol() {
    let Some((suite, peer, server, full, files)) = gateway("the_gateway_keeps_the_protocol") else {
        return;
    };

    // The official suite.
    for revision in REVISIONS {
        let outcomes = suite.run(&server.url, &full, revision);
        check(
            "catalog-gateway",
            revision,
            &suite.scored(revision),
            &outcomes,
        );
    }

    // The transport's rules, as catalog-mcp's HTTP layer keeps them for the gateway too.
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
    let foreign = raw(
        &server.address,
        &full,
        &["Origin: https://evil.example"],
        initialize,
    );
    assert!(foreign.starts_with("HTTP/1.1 403 "), "{foreign}");
    let local = raw(
        &server.address,
        &full,
        &["Origin: http://localhost:5173"],
        initialize,
    );
    assert!(local.starts_with("HTTP/1.1 200 "), "{local}");
    let broken = raw(&server.address, &full, &[], "{\"jsonrpc\":");
    assert!(broken.starts_with("HTTP/1.1 400 "), "{broken}");
    assert!(broken.contains(r#""code":-32700"#), "{broken}");

    mirrored_headers_are_held(&server, &full);

    // write_file is gated: asked on 2025-11-25 mid-call, on 2026-07-28 in the result.
    for modern in [false, true] {
        let revision = if modern { "2026-07-28" } else { "2025-11-25" };
        for answer in ["decline", "none", "accept"] {
            let path = files.join(format!("{answer}-{}.txt", u8::from(modern)));
            let calls = steps(&[(
                "write",
                "write_file",
                json!({"path": path, "content": answer}),
            )]);
            let mut args = vec!["--answer".into(), answer.into(), "--calls".into(), calls];
            if modern {
                args.push("--modern".into());
            }
            args.extend(["--http", &server.url, "--token", &full].map(String::from));
            let report = peer.run("elicit.py", &args, LIMIT);
            assert_eq!(report["protocolVersion"], revision, "{answer}");
            let write = &report["calls"]["write"];
            let what = format!("{revision} {answer}");
            if answer == "accept" {
                assert_eq!(write["isError"], false, "{what}: {write}");
                assert_eq!(std::fs::read_to_string(&path).unwrap(), answer, "{what}");
            } else {
                let cause = if answer == "none" {
                    Cause::Unasked
                } else {
                    Cause::Declined
                };
                assert_refused_gated(write, "write_file", cause, revision, &what);
                assert!(!path.exists(), "{what}: never forwarded");
            }
            let asked = report["questions"].as_array().map_or(0, Vec::len);
            assert_eq!(asked, usize::from(answer != "none"), "{what}: {report}");
            let rounds = &write["inputRounds"];
            if modern && answer != "none" {
                assert_eq!(rounds, 1, "{what}");
            } else {
                assert_eq!(rounds, &Value::Null, "{what}");
            }
        }
    }

    // Log messages: what the gateway logs while it answers a call goes to that client.
    for opening in [vec![], vec!["--modern"]] {
        let calls = steps(&[("list", "list_directory", json!({"path": files}))]);
        let mut args = vec!["--level".into(), "debug".into(), "--calls".into(), calls];
        args.extend(opening.iter().map(|&a| a.to_owned()));
        args.extend(["--http", &server.url, "--token", &full].map(String::from));
        let report = peer.run("logs.py", &args, LIMIT);
        let forwarded: Vec<&Value> = report["messages"]
            .as_array()
            .expect("a list of messages")
            .iter()
            .filter(|m| m["data"]["message"] == "forwarding a verified call")
            .collect();
        assert_eq!(forwarded.len(), 1, "{opening:?}: {report}");
        assert_eq!(forwarded[0]["level"], "debug");
        assert_eq!(forwarded[0]["logger"], "catalog_gateway::gateway::calls");
        // Over HTTP the message rides the standalone stream, which rmcp does not order
        // against the response: during the call, or just after it.
        let during = &forwarded[0]["during"];
        assert!(*during == "list" || during.is_null(), "{report}");
        assert_eq!(forwarded[0]["data"]["tool"], "list_directory");
    }
}

/// A parameter its upstream mirrors in an HTTP header (2026-07-28): listed with the
/// `x-mcp-header` its server wrote, and each call held to its header at the gateway,
/// before it is forwarded, as catalog-mcp holds its own rows'.
fn mirrored_headers_are_held(server: &HttpServer, full: &str) {
    let listed = modern_request(&server.address, full, "tools/list", json!({}), &[]);
    let routing = listed.message["result"]["tools"]
        .as_array()
        .expect("a listing")
        .iter()
        .find(|tool| tool["name"] == "test_header_routing")
        .unwrap_or_else(|| panic!("test_header_routing is listed: {}", listed.message));
    assert_eq!(
        routing["inputSchema"]["properties"]["region"],
        json!({"description": "The region to route the call to.", "title": "Region", "type": "string", "x-mcp-header": "Region"}),
        "as pydantic writes it for the server"
    );
    let route = |region: &str, headers: &[&str]| {
        let arguments = json!({"name": "test_header_routing", "arguments": {"region": region}});
        modern_request(&server.address, full, "tools/call", arguments, headers)
    };
    for (region, header) in [
        ("eu-west", "Mcp-Param-Region: eu-west"),
        ("Zürich", "mcp-param-region: =?base64?WsO8cmljaA==?="),
    ] {
        let routed = route(region, &[header]);
        assert_eq!(routed.status, 200, "{header}: {}", routed.message);
        let text = &routed.message["result"]["content"][0]["text"];
        assert_eq!(text, &format!("Routed to region {region}"), "{header}");
    }
    for headers in [
        &[][..],
        &["Mcp-Param-Region: us-east"],
        &["Mcp-Param-Region: =?base64?ZXUtd2VzdA?="],
    ] {
        let refused = route("eu-west", headers);
        assert_eq!(refused.status, 400, "{headers:?}: {}", refused.message);
        assert_eq!(refused.message["error"]["code"], -32020, "{headers:?}");
    }
}

/// A client without a session (2026-07-28) keeps what its searches find by its
/// credential: each of its requests stands alone, and the next one lists and admits the
/// tools its search found; a client on another credential finds its own.
#[test]
fn without_a_session_what_a_search_found_is_kept_by_credential() {
    let test = "without_a_session_what_a_search_found_is_kept_by_credential";
    let Some(peer) = Peer::find(test) else {
        return;
    };
    let dir = scratch(test);
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("notes.txt"), "kept").unwrap();
    let catalog = filesystem_catalog(&dir, &files);
    let (one, other) = (token("one"), token("other"));
    let server = HttpServer::start(
        Path::new(env!("CARGO_BIN_EXE_catalog-gateway")),
        &[(one.clone(), "full-access"), (other.clone(), "full-access")],
        &[
            "--catalog",
            catalog.to_str().unwrap(),
            "--discoverable",
            "search",
        ],
    );
    let client = |token: &str, calls: &[(&str, &str, Value)]| {
        let mut args = vec![
            "--probe".into(),
            "[]".into(),
            "--calls".into(),
            steps(calls),
        ];
        args.extend(["--modern", "--http", &server.url, "--token", token].map(String::from));
        peer.run("conformance.py", &args, LIMIT)
    };
    let listed = |report: &Value| -> Vec<String> {
        report["listed"]
            .as_array()
            .expect("a listing")
            .iter()
            .filter_map(|tool| tool["name"].as_str().map(str::to_owned))
            .collect()
    };
    let read = json!({"path": files.join("notes.txt")});
    let first = client(
        &one,
        &[
            ("before", "read_text_file", read.clone()),
            (
                "search",
                "searchTools",
                json!({"query": "read a text file's contents"}),
            ),
            ("after", "read_text_file", read.clone()),
        ],
    );
    assert_eq!(listed(&first), ["searchTools"], "{first}");
    let before = &first["calls"]["before"];
    assert!(
        before.to_string().contains("searchTools"),
        "not found yet: {before}"
    );
    let after = &first["calls"]["after"];
    assert_eq!(after["isError"], false, "{first}");
    assert!(after.to_string().contains("kept"), "{after}");
    // The same credential's next requests list it; another's do not.
    let again = client(&one, &[]);
    assert!(
        listed(&again).iter().any(|name| name == "read_text_file"),
        "{again}"
    );
    let stranger = client(&other, &[("read", "read_text_file", read)]);
    assert_eq!(listed(&stranger), ["searchTools"], "{stranger}");
    assert!(
        stranger["calls"]["read"]
            .to_string()
            .contains("searchTools"),
        "{stranger}"
    );
}
