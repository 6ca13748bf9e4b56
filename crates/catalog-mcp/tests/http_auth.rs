//! The HTTP token check of a server built on `catalog_mcp::main` (the tracker example),
//! with raw requests: no valid bearer token, nothing but a 401; a foreign `Host` or
//! `Origin`, a 403; an unreadable body, a JSON-RPC error; an unknown session, a 404.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::{HttpServer, example_binary, token};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

/// Sends one request and reads the whole response (the connection closes after it).
fn request(address: &str, method: &str, path: &str, headers: &[&str], body: &str) -> String {
    request_to(address, address, method, path, headers, body)
}

/// The same with the `Host` header given.
fn request_to(
    address: &str,
    host: &str,
    method: &str,
    path: &str,
    headers: &[&str],
    body: &str,
) -> String {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for header in headers {
        head.push_str(header);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut response = String::new();
    // An SSE response stays open; what arrived before the timeout is enough.
    let mut buffer = [0u8; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                response.push_str(&String::from_utf8_lossy(&buffer[..n]));
                if response.contains("\"result\"") {
                    break;
                }
            }
        }
    }
    response
}

fn header<'a>(response: &'a str, name: &str) -> Option<&'a str> {
    let head = response.split("\r\n\r\n").next().unwrap();
    head.lines().skip(1).find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

fn body(response: &str) -> &str {
    response.split_once("\r\n\r\n").map_or("", |(_, body)| body)
}

#[test]
fn requests_without_a_valid_token_get_401_and_nothing_else() {
    let good = token("read");
    let server = HttpServer::start(
        &example_binary("tracker"),
        &[(good.clone(), "read-only")],
        &[],
    );
    let json = [
        "Content-Type: application/json",
        "Accept: application/json, text/event-stream",
    ];
    let wrong = format!("Authorization: Bearer {good}x");
    let basic = format!("Authorization: Basic {good}");
    let cases: [(&str, &str, Vec<&str>, &str); 5] = [
        (
            "POST",
            "/mcp",
            json.to_vec(),
            r#"Bearer realm="tracker-mcp""#,
        ),
        (
            "POST",
            "/mcp",
            [&json[..], &[wrong.as_str()]].concat(),
            r#"Bearer realm="tracker-mcp", error="invalid_token""#,
        ),
        (
            "POST",
            "/mcp",
            [&json[..], &[basic.as_str()]].concat(),
            r#"Bearer realm="tracker-mcp""#,
        ),
        (
            "GET",
            "/mcp",
            vec!["Accept: text/event-stream"],
            r#"Bearer realm="tracker-mcp""#,
        ),
        ("GET", "/elsewhere", vec![], r#"Bearer realm="tracker-mcp""#),
    ];
    for (method, path, headers, challenge) in cases {
        let response = request(&server.address, method, path, &headers, INITIALIZE);
        let what = format!("{method} {path} {headers:?}");
        assert!(response.starts_with("HTTP/1.1 401 "), "{what}: {response}");
        assert_eq!(
            header(&response, "www-authenticate"),
            Some(challenge),
            "{what}"
        );
        assert_eq!(header(&response, "content-length"), Some("0"), "{what}");
        assert_eq!(body(&response), "", "{what}");
        assert_eq!(header(&response, "mcp-session-id"), None, "{what}");
    }
    // The same request with the token is served.
    let auth = format!("Authorization: Bearer {good}");
    let response = request(
        &server.address,
        "POST",
        "/mcp",
        &[&json[..], &[auth.as_str()]].concat(),
        INITIALIZE,
    );
    assert!(response.starts_with("HTTP/1.1 200 "), "{response}");
    assert!(header(&response, "mcp-session-id").is_some(), "{response}");
    assert!(
        body(&response).contains(r#""name":"tracker-mcp""#),
        "{response}"
    );
    // A page that rebinds its own name to this machine sends its own Host: refused.
    let rebound = request_to(
        &server.address,
        "attacker.example",
        "POST",
        "/mcp",
        &[&json[..], &[auth.as_str()]].concat(),
        INITIALIZE,
    );
    assert!(rebound.starts_with("HTTP/1.1 403 "), "{rebound}");
}

/// The transport's rules, for a client with a valid token: a foreign `Origin` is refused
/// with 403 (loopback and `--allowed-origin` ones are served), a body that is not JSON gets
/// a JSON-RPC parse error, one that is JSON but no message an invalid request, and the end
/// of a session the server does not have a 404.
#[test]
fn origins_unreadable_bodies_and_unknown_sessions_follow_the_transport_rules() {
    let good = token("rules");
    let server = HttpServer::start(
        &example_binary("tracker"),
        &[(good.clone(), "read-only")],
        &["--allowed-origin", "https://app.example:8443"],
    );
    let auth = format!("Authorization: Bearer {good}");
    let json = [
        "Content-Type: application/json",
        "Accept: application/json, text/event-stream",
        auth.as_str(),
    ];
    let post = |extra: &[&str], body: &str| {
        request(
            &server.address,
            "POST",
            "/mcp",
            &[&json[..], extra].concat(),
            body,
        )
    };
    for origin in [
        "http://evil.example",
        "https://evil.example:8443",
        "https://app.example",
        "http://app.example:8443",
        "null",
        "not an origin",
    ] {
        let response = post(&[&format!("Origin: {origin}")], INITIALIZE);
        assert!(
            response.starts_with("HTTP/1.1 403 "),
            "{origin}: {response}"
        );
        assert_eq!(header(&response, "mcp-session-id"), None, "{origin}");
    }
    let bound_port = server.address.rsplit(':').next().unwrap();
    for origin in [
        format!("http://127.0.0.1:{bound_port}"),
        "http://localhost:3000".into(),
        "http://[::1]:80".into(),
        "https://app.example:8443".into(),
    ] {
        let response = post(&[&format!("Origin: {origin}")], INITIALIZE);
        assert!(
            response.starts_with("HTTP/1.1 200 "),
            "{origin}: {response}"
        );
    }

    for (body, code) in [
        ("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\":", -32700),
        ("not json", -32700),
        ("", -32700),
        ("[1, 2]", -32600),
        ("{\"jsonrpc\": \"2.0\", \"id\": 1}", -32600),
    ] {
        let response = post(&[], body);
        assert!(response.starts_with("HTTP/1.1 400 "), "{body}: {response}");
        assert_eq!(header(&response, "content-type"), Some("application/json"));
        let error: serde_json::Value = serde_json::from_str(self::body(&response))
            .unwrap_or_else(|e| panic!("{body}: {e}: {response}"));
        assert_eq!(error["jsonrpc"], "2.0", "{body}");
        assert_eq!(error["id"], serde_json::Value::Null, "{body}");
        assert_eq!(error["error"]["code"], code, "{body}: {error}");
    }

    // A session that never was, and one that ended, are not found; a live one ends with 200,
    // which SDK clients read as success (the Python SDK logs a failure on 202).
    let delete = |session: &str| {
        request(
            &server.address,
            "DELETE",
            "/mcp",
            &[auth.as_str(), &format!("Mcp-Session-Id: {session}")],
            "",
        )
    };
    let unknown = delete("no-such-session");
    assert!(unknown.starts_with("HTTP/1.1 404 "), "{unknown}");
    let opened = post(&[], INITIALIZE);
    let session = header(&opened, "mcp-session-id")
        .expect("a session")
        .to_owned();
    let ended = delete(&session);
    assert!(ended.starts_with("HTTP/1.1 200 "), "{ended}");
    let again = delete(&session);
    assert!(again.starts_with("HTTP/1.1 404 "), "{again}");
}

/// A `tools/call` of a 2026-07-28 client that takes form elicitation, stateless, with the
/// answer to a question when `answer` gives its state and action: the JSON-RPC result.
fn modern_call(
    address: &str,
    token: &str,
    tool: &str,
    arguments: &serde_json::Value,
    answer: Option<(&str, &str)>,
) -> serde_json::Value {
    let mut params = serde_json::json!({
        "name": tool,
        "arguments": arguments,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        },
    });
    // An empty state: the answer is sent without one.
    if let Some((state, action)) = answer {
        if !state.is_empty() {
            params["requestState"] = state.into();
        }
        params["inputResponses"] = serde_json::json!({"approve": {"action": action}});
    }
    let body =
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let response = request(
        address,
        "POST",
        "/mcp",
        &[
            "Content-Type: application/json",
            "Accept: application/json, text/event-stream",
            &format!("Authorization: Bearer {token}"),
            "MCP-Protocol-Version: 2026-07-28",
            "Mcp-Method: tools/call",
            &format!("Mcp-Name: {tool}"),
        ],
        &body.to_string(),
    );
    let data = self::body(&response)
        .lines()
        .find_map(|line| line.strip_prefix("data: "))
        .unwrap_or_else(|| panic!("no message: {response}"));
    let message: serde_json::Value = serde_json::from_str(data).unwrap();
    match message.get("error") {
        Some(error) => serde_json::json!({ "error": error }),
        None => message["result"].clone(),
    }
}

/// On 2026-07-28 a gated call is asked about in an input-required result; its sealed
/// state answers that one call, once, for the token it was asked for. A retry with any
/// other state is refused, naming the way out, and never runs; an approval sent without
/// being asked is asked again.
#[test]
fn a_question_asked_in_a_result_is_answered_once_for_its_call_and_token() {
    let (mine, other) = (token("mine"), token("other"));
    let server = HttpServer::start(
        &example_binary("tracker"),
        &[
            (mine.clone(), "full-access"),
            (other.clone(), "full-access"),
        ],
        &[],
    );
    let call = |token: &str, number: u32, answer| {
        modern_call(
            &server.address,
            token,
            "closeIssue",
            &serde_json::json!({"number": number}),
            answer,
        )
    };
    let state_of = |result: &serde_json::Value| {
        assert_eq!(result["resultType"], "input_required", "{result}");
        let question = &result["inputRequests"]["approve"];
        assert_eq!(question["method"], "elicitation/create", "{result}");
        assert_eq!(question["params"]["mode"], "form", "{result}");
        result["requestState"].as_str().expect("a state").to_owned()
    };
    let open = |number: u32| {
        let got = modern_call(
            &server.address,
            &mine,
            "getIssue",
            &serde_json::json!({"number": number}),
            None,
        );
        got["structuredContent"]["state"] == "open"
    };

    let refused = |result: serde_json::Value| {
        assert_eq!(result["error"]["code"], -32602, "{result}");
        let message = result["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("again without requestState"), "{message}");
    };
    let asked = state_of(&call(&mine, 2, None));
    // A made-up state, another token's, another call's: refused.
    refused(call(&mine, 2, Some(("0123456789abcdef", "accept"))));
    refused(call(&other, 2, Some((&asked, "accept"))));
    refused(call(&mine, 3, Some((&asked, "accept"))));
    // An approval no question asked for: asked.
    state_of(&call(&mine, 2, Some(("", "accept"))));
    assert!(open(2) && open(3), "nothing ran");

    // Declined: refused, and the refusal says the user declined.
    let asked = state_of(&call(&mine, 2, None));
    let declined = call(&mine, 2, Some((&asked, "decline")));
    assert_eq!(declined["isError"], true, "{declined}");
    let text = declined["content"][0]["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("The user declined to run `closeIssue`."),
        "{text}"
    );
    assert!(open(2));

    // Accepted: it runs, once.
    let asked = state_of(&call(&mine, 2, None));
    let closed = call(&mine, 2, Some((&asked, "accept")));
    assert_eq!(closed["isError"], false, "{closed}");
    let text = closed["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.contains(r#""state":"closed""#), "{closed}");
    assert!(!open(2));
    refused(call(&mine, 2, Some((&asked, "accept"))));
}
