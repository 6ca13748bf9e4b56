//! An upstream behind an OAuth authorization server, played by a small HTTP server of the
//! test's own (protected resource metadata, authorization server metadata, a token
//! endpoint and an MCP endpoint that wants its token): the client credentials grant gets
//! the token the endpoint accepts, and every way it can fail is named with its fix.
//! (`tests/conformance.rs` holds the same client to the official suite's scenarios.)

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use catalog_check::model::Transport;
use catalog_check::model::{ClientCredential, OAuth, Supplied};
use catalog_upstream::{Client, Upstream};
use serde_json::{Value, json};

const CLIENT: Client = Client {
    name: "oauth-test",
    version: "0",
};

/// One request the server was sent.
#[derive(Clone, Debug)]
struct Seen {
    method: String,
    path: String,
    authorization: Option<String>,
    body: String,
}

/// The server: one thread, one request per connection.
struct Server {
    base: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (at, log) = (base.clone(), Arc::clone(&seen));
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (at, log) = (at.clone(), Arc::clone(&log));
                std::thread::spawn(move || serve(stream, &at, &log));
            }
        });
        Server { base, seen }
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn serve(mut stream: TcpStream, base: &str, log: &Mutex<Vec<Seen>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut head = String::new();
    reader.read_line(&mut head).unwrap_or_default();
    let mut parts = head.split_whitespace();
    let (method, path) = (
        parts.next().unwrap_or_default().to_owned(),
        parts.next().unwrap_or_default().to_owned(),
    );
    let (mut length, mut authorization) = (0, None);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').unwrap_or_default();
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().unwrap_or(0),
            "authorization" => authorization = Some(value.trim().to_owned()),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap_or_default();
    let body = String::from_utf8_lossy(&body).into_owned();
    let seen = Seen {
        method,
        path,
        authorization,
        body,
    };
    log.lock().unwrap().push(seen.clone());
    let (status, headers, answer) = answer(&seen, base);
    let text = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n{headers}\r\n{answer}",
        answer.len()
    );
    let _ = stream.write_all(text.as_bytes());
}

/// What the server answers `request`: status line, extra headers, body.
fn answer(request: &Seen, base: &str) -> (&'static str, String, String) {
    let json = |v: Value| ("200 OK", String::new(), v.to_string());
    match (request.method.as_str(), request.path.as_str()) {
        ("GET", "/.well-known/oauth-protected-resource/mcp") => json(json!({
            "resource": format!("{base}/mcp"),
            "authorization_servers": [base],
        })),
        ("GET", "/.well-known/oauth-authorization-server") => json(json!({
            "issuer": base,
            "authorization_endpoint": format!("{base}/authorize"),
            "token_endpoint": format!("{base}/token"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["client_credentials"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic"],
        })),
        ("POST", "/token") => {
            // `gw:right`, as HTTP Basic credentials.
            if request.authorization.as_deref() == Some("Basic Z3c6cmlnaHQ=") {
                json(json!({"access_token": "token-1", "token_type": "Bearer", "expires_in": 3600}))
            } else {
                (
                    "401 Unauthorized",
                    String::new(),
                    json!({"error": "invalid_client", "error_description": "unknown client"})
                        .to_string(),
                )
            }
        }
        ("POST", "/mcp") if request.authorization.as_deref() == Some("Bearer token-1") => {
            let message: Value = serde_json::from_str(&request.body).unwrap_or_default();
            let result = match message["method"].as_str() {
                Some("initialize") => json!({
                    "protocolVersion": "2025-11-25",
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "behind-oauth", "version": "1"},
                }),
                Some("tools/list") => {
                    json!({"tools": [{"name": "ping", "inputSchema": {"type": "object"}}]})
                }
                _ => return ("202 Accepted", String::new(), String::new()),
            };
            json(json!({"jsonrpc": "2.0", "id": message["id"], "result": result}))
        }
        ("POST", "/mcp") => (
            "401 Unauthorized",
            format!(
                "WWW-Authenticate: Bearer resource_metadata=\"{base}/.well-known/oauth-protected-resource/mcp\"\r\n"
            ),
            String::new(),
        ),
        _ => ("405 Method Not Allowed", String::new(), String::new()),
    }
}

fn endpoint(server: &Server, secret: Option<Supplied>) -> Transport {
    Transport::Http {
        url: format!("{}/mcp", server.base),
        headers: Vec::new(),
        oauth: secret.map(|secret| OAuth {
            client_id: "gw".into(),
            credential: ClientCredential::Secret(secret),
            scope: None,
        }),
    }
}

fn secret_file(name: &str, secret: &str) -> Supplied {
    let path = std::env::temp_dir().join(format!("catalog-oauth-{}-{name}", std::process::id()));
    std::fs::write(&path, format!("{secret}\n")).unwrap();
    Supplied::FromFile(path.to_string_lossy().into_owned())
}

#[tokio::test]
async fn the_client_credentials_grant_gets_the_token_the_upstream_accepts() {
    let server = Server::start();
    let upstream = Upstream::connect(
        "billing",
        &endpoint(&server, Some(secret_file("right", "right"))),
        CLIENT,
        None,
        None,
    )
    .await
    .unwrap();
    let tools = upstream.tools().await.unwrap();
    assert_eq!(tools[0]["name"], "ping");
    upstream.close().await;
    let seen = server.seen();
    let token = seen.iter().find(|s| s.path == "/token").unwrap();
    let form: Vec<(String, String)> = url::form_urlencoded::parse(token.body.as_bytes())
        .into_owned()
        .collect();
    let field = |name: &str| {
        form.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(field("grant_type"), Some("client_credentials"));
    assert_eq!(
        field("resource"),
        Some(format!("{}/mcp", server.base).as_str())
    );
    // Only the first request went without the token: once had, it is on every one.
    let mcp: Vec<&Seen> = seen.iter().filter(|s| s.path == "/mcp").collect();
    assert_eq!(mcp[0].authorization, None);
    assert!(
        mcp[1..]
            .iter()
            .all(|s| s.authorization.as_deref() == Some("Bearer token-1")),
        "{mcp:#?}"
    );
    assert_eq!(seen.iter().filter(|s| s.path == "/token").count(), 1);
}

#[tokio::test]
async fn every_way_to_fail_names_its_fix() {
    let server = Server::start();
    let refused = Upstream::connect(
        "billing",
        &endpoint(&server, Some(secret_file("wrong", "wrong"))),
        CLIENT,
        None,
        None,
    )
    .await
    .unwrap_err();
    assert!(
        refused.contains("the authorization server refused a token to client `gw`")
            && refused.contains("invalid_client: unknown client")
            && refused.contains("check `oauth.client-id` and `oauth.client-secret`"),
        "{refused}"
    );
    assert!(
        !refused.contains("wrong"),
        "the secret is never shown: {refused}"
    );

    let unset = "CATALOG_OAUTH_TEST_SURELY_UNSET";
    let missing = Upstream::connect(
        "billing",
        &endpoint(&server, Some(Supplied::FromEnv(unset.into()))),
        CLIENT,
        None,
        None,
    )
    .await
    .unwrap_err();
    assert!(
        missing.contains(&format!(
            "`oauth.client-secret` reads the environment variable `{unset}`, which is not set: set it"
        )),
        "{missing}"
    );

    let without = Upstream::connect("billing", &endpoint(&server, None), CLIENT, None, None)
        .await
        .unwrap_err();
    assert!(
        without.contains("wants an OAuth access token: give its [[upstream]] an `oauth` table"),
        "{without}"
    );
}
