//! The gateway as an OAuth 2.1 resource server (MCP authorization 2025-11-25), against a
//! real authorization server: `oauth2-mock-server` (npm), driven by
//! `tests/peers/auth_server.mjs`, which issues tokens with the claims, scopes, expiry and
//! keys each case needs, rotates its key, and answers introspection. The official Python
//! SDK's client-credentials provider finds the authorization server through the gateway's
//! protected-resource metadata and connects; the other cases send raw requests, to read
//! the status and the challenge exactly. The gateway serves `mcp-server-time`, imported as
//! a user would.
//!
//! The peers come from `cargo xtask test` (`CATALOG_PEER_PYTHON`, `CATALOG_PEER_NODE_BIN`);
//! without them this test fails under CI and is skipped, with instructions, elsewhere.

#[path = "../../catalog-mcp/tests/common/mod.rs"]
mod common;
mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{HttpServer, Peer, run, scratch, token};
use serde_json::{Value, json};
use support::time_catalog;

const LIMIT: Duration = Duration::from_secs(120);

/// The client secret the gateway presents at the introspection endpoint.
const SECRET: &str = "introspection-secret-0123456789";

/// The npm programs' folder, from `CATALOG_PEER_NODE_BIN`.
fn node_bin(test: &str) -> Option<PathBuf> {
    catalog_testkit::peer(test, "CATALOG_PEER_NODE_BIN")
}

/// The authorization server on loopback; killed when dropped.
struct AuthServer {
    child: Child,
    issuer: String,
}

impl AuthServer {
    fn start(node_bin: &Path) -> AuthServer {
        let modules = node_bin.parent().expect("node_modules/.bin has a parent");
        let mut child = Command::new(node_bin.join("node"))
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/peers/auth_server.mjs"
            ))
            .arg(modules)
            .arg(SECRET)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("node starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let issuer = first
            .strip_prefix("issuer ")
            .unwrap_or_else(|| panic!("the authorization server did not start: {first:?}"))
            .trim()
            .to_owned();
        AuthServer { child, issuer }
    }

    fn address(&self) -> &str {
        self.issuer.strip_prefix("http://").unwrap()
    }

    /// A test endpoint of the script: its JSON answer.
    fn ask(&self, path: &str, body: &Value) -> Value {
        let (status, _, text) = exchange(self.address(), "POST", path, None, &body.to_string());
        assert_eq!(status, 200, "{path}: {text}");
        serde_json::from_str(&text).unwrap()
    }

    /// A JWT with `claims`, expiring in `expires_in` seconds.
    fn jwt(&self, claims: &Value, expires_in: i64) -> String {
        let asked = json!({"claims": claims, "expires_in": expires_in});
        self.ask("/test/token", &asked)["token"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    fn stats(&self) -> Value {
        let (_, _, text) = exchange(self.address(), "GET", "/test/stats", None, "");
        serde_json::from_str(&text).unwrap()
    }
}

impl Drop for AuthServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request on a new connection: the status, the `WWW-Authenticate` header
/// (empty when there is none) and the body as far as it came (a response on an event
/// stream is not read to its end).
fn exchange(
    address: &str,
    method: &str,
    path: &str,
    bearer: Option<&str>,
    body: &str,
) -> (u16, String, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    if let Some(token) = bearer {
        head.push_str("Authorization: Bearer ");
        head.push_str(token);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut response = Vec::new();
    let mut buffer = [0u8; 4096];
    while let Ok(n) = stream.read(&mut buffer) {
        if n == 0 {
            break;
        }
        response.extend_from_slice(&buffer[..n]);
        let text = String::from_utf8_lossy(&response);
        // The head of an event stream is all a check of the token needs.
        if text.contains("\r\n\r\n") && text.contains("text/event-stream") {
            break;
        }
    }
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP response: {text:?}"));
    let challenge = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("www-authenticate")
                .then(|| value.trim().to_owned())
        })
        .unwrap_or_default();
    (status, challenge, body.to_owned())
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

/// `initialize` with `token`: the status and the challenge.
fn initialize(gateway: &HttpServer, token: &str) -> (u16, String) {
    let (status, challenge, _) =
        exchange(&gateway.address, "POST", "/mcp", Some(token), INITIALIZE);
    (status, challenge)
}

/// The official SDK's client (`tests/peers/client.py`) on `plan`, with `connection`'s
/// arguments: what each step saw.
fn client(python: &Path, plan: &Value, connection: &[&str]) -> Vec<Value> {
    let done = run(
        Command::new(python)
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/peers/client.py"
            ))
            .arg(plan.to_string())
            .args(connection),
        LIMIT,
    );
    assert!(
        done.status.success(),
        "the client failed ({}):\n{}",
        done.status,
        done.stderr
    );
    serde_json::from_str(done.stdout.trim())
        .unwrap_or_else(|e| panic!("the client's report is not JSON ({e}): {}", done.stdout))
}

/// What each part of the test needs.
struct Case {
    auth: AuthServer,
    gateway: HttpServer,
    python: PathBuf,
    /// The gateway's resource URI: its `/mcp` URL.
    resource: String,
    metadata_url: String,
    /// The challenge for an invalid token.
    invalid: String,
}

#[test]
fn oauth_tokens_are_checked_as_the_authorization_spec_says() {
    let test = "oauth_tokens_are_checked_as_the_authorization_spec_says";
    let (Some(peer), Some(node_bin)) = (Peer::find(test), node_bin(test)) else {
        return;
    };
    drop(peer);
    let python = PathBuf::from(std::env::var_os("CATALOG_PEER_PYTHON").expect("checked"));
    let auth = AuthServer::start(&node_bin);
    let dir = scratch("oauth");
    let catalog = time_catalog(&python, &dir);
    std::fs::write(dir.join("secret.txt"), format!("{SECRET}\n")).unwrap();
    let config = dir.join("gateway-config.toml");
    std::fs::write(
        &config,
        format!(
            r#"
[oauth]
issuer = "{issuer}"
required-scopes = ["mcp"]
client-id = "catalog-gateway"
client-secret-file = "secret.txt"

[[scope]]
name = "tools:read"
access = "read-only"

[[scope]]
name = "tools:admin"
access = "full-access"
"#,
            issuer = auth.issuer
        ),
    )
    .unwrap();
    // A static token beside OAuth, as a local client would use.
    let local = token("local");
    let gateway = HttpServer::start(
        Path::new(env!("CARGO_BIN_EXE_catalog-gateway")),
        &[(local.clone(), "read-only")],
        &[
            "--catalog",
            catalog.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
        ],
    );
    let metadata_url = format!(
        "http://{}/.well-known/oauth-protected-resource/mcp",
        gateway.address
    );
    let invalid = format!(
        r#"Bearer realm="catalog-gateway", resource_metadata="{metadata_url}", error="invalid_token""#
    );
    let case = Case {
        resource: gateway.url.clone(),
        auth,
        gateway,
        python,
        metadata_url,
        invalid,
    };
    metadata_and_challenge(&case);
    clients_connect(&case);
    bad_tokens_are_refused(&case);
    keys_rotate(&case);
    opaque_tokens_are_introspected(&case);
    // The static token still works beside OAuth.
    assert_eq!(initialize(&case.gateway, &local).0, 200);
    let log = case.gateway.log();
    assert!(log.contains("OAuth, issuer"), "{log}");
}

/// The 401 without a token and the RFC 9728 document.
fn metadata_and_challenge(case: &Case) {
    let Case {
        auth,
        gateway,
        resource,
        metadata_url,
        ..
    } = case;
    // No token: 401, and the challenge names the metadata (RFC 9728 §5.1), no error.
    let (status, challenge, _) = exchange(&gateway.address, "POST", "/mcp", None, INITIALIZE);
    assert_eq!(status, 401);
    assert_eq!(
        challenge,
        format!(r#"Bearer realm="catalog-gateway", resource_metadata="{metadata_url}""#)
    );

    // The metadata, at the path-suffixed and the root well-known path, without a token.
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let (status, _, body) = exchange(&gateway.address, "GET", path, None, "");
        assert_eq!(status, 200, "{path}: {body}");
        let document: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(document["resource"], resource.as_str(), "{document}");
        assert_eq!(document["authorization_servers"], json!([auth.issuer]));
        assert_eq!(
            document["scopes_supported"],
            json!(["mcp", "tools:read", "tools:admin"])
        );
        assert_eq!(document["bearer_methods_supported"], json!(["header"]));
    }
}

/// The SDK's OAuth client, and a bearer token from the authorization server, list and call.
fn clients_connect(case: &Case) {
    let Case {
        auth,
        gateway,
        python,
        resource,
        ..
    } = case;
    // The SDK's client-credentials provider: 401, the metadata, the authorization server's
    // (its OpenID Connect document: the mock has no RFC 8414 one), a token for this
    // resource, then tools/list and a call.
    let plan = json!([
        {"list": true},
        {"call": "get_current_time", "arguments": {"timezone": "UTC"}},
    ]);
    let seen = client(
        python,
        &plan,
        &[
            "--oauth",
            &gateway.url,
            &auth.issuer,
            "sdk-client",
            "sdk-secret",
        ],
    );
    let listed = seen[0]["tools"].as_array().unwrap();
    assert!(
        listed.iter().any(|t| t == "get_current_time"),
        "{}",
        seen[0]
    );
    assert_eq!(seen[1]["structured"]["timezone"], "UTC", "{}", seen[1]);

    // A read-only token from the authorization server, used as a bearer token: listed and
    // called at its level.
    let reader = auth.jwt(
        &json!({"sub": "reader", "aud": resource, "scope": "mcp tools:read"}),
        300,
    );
    let seen = client(python, &plan, &["--http", &gateway.url, &reader]);
    assert!(
        seen[0]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "get_current_time"),
        "{}",
        seen[0]
    );
    assert_eq!(seen[1]["structured"]["timezone"], "UTC", "{}", seen[1]);
}

/// Expired, misaddressed and unscoped tokens.
fn bad_tokens_are_refused(case: &Case) {
    let Case {
        auth,
        gateway,
        resource,
        metadata_url,
        invalid,
        ..
    } = case;
    // Expired past the leeway, or meant for another resource: 401 invalid_token.
    let expired = auth.jwt(
        &json!({"sub": "late", "aud": resource, "scope": "mcp tools:read"}),
        -120,
    );
    assert_eq!(initialize(gateway, &expired), (401, invalid.clone()));
    let elsewhere = auth.jwt(
        &json!({"sub": "lost", "aud": "http://127.0.0.1:1/mcp", "scope": "mcp tools:read"}),
        300,
    );
    assert_eq!(initialize(gateway, &elsewhere), (401, invalid.clone()));
    assert_eq!(
        initialize(gateway, "not-a-token-at-all"),
        (401, invalid.clone())
    );

    // A required scope missing: 403 insufficient_scope, with the scopes needed.
    let unscoped = auth.jwt(
        &json!({"sub": "narrow", "aud": resource, "scope": "tools:read"}),
        300,
    );
    let (status, challenge) = initialize(gateway, &unscoped);
    assert_eq!(status, 403, "{challenge}");
    assert!(
        challenge.starts_with(&format!(
            r#"Bearer realm="catalog-gateway", resource_metadata="{metadata_url}", error="insufficient_scope", scope="mcp tools:read""#
        )),
        "{challenge}"
    );
}

/// A rotated key, and a flood of made-up ones.
fn keys_rotate(case: &Case) {
    let Case {
        auth,
        gateway,
        resource,
        invalid,
        ..
    } = case;
    // The key rotated: a token signed with the new key is accepted after one fetch of the
    // keys; a flood of tokens naming made-up keys fetches them at most once more.
    let before = auth.stats()["jwks"].as_u64().unwrap();
    let kid = auth.ask("/test/rotate", &json!({}))["kid"].clone();
    let rotated = auth.jwt(
        &json!({"sub": "rotated", "aud": resource, "scope": "mcp tools:admin"}),
        300,
    );
    assert_eq!(initialize(gateway, &rotated).0, 200);
    let after_rotation = auth.stats()["jwks"].as_u64().unwrap();
    assert_eq!(after_rotation, before + 1, "kid {kid}");
    for i in 0..20 {
        let asked = json!({
            "claims": {"sub": "flood", "aud": resource, "scope": "mcp tools:read"},
            "header": {"kid": format!("made-up-{i}")},
        });
        let forged = auth.ask("/test/token", &asked)["token"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(initialize(gateway, &forged), (401, invalid.clone()));
    }
    let after_flood = auth.stats()["jwks"].as_u64().unwrap();
    assert!(after_flood <= after_rotation + 1, "{after_flood} fetches");
}

/// Opaque tokens, introspected.
fn opaque_tokens_are_introspected(case: &Case) {
    let Case {
        auth,
        gateway,
        resource,
        invalid,
        ..
    } = case;
    // An opaque token, introspected with the gateway's credentials, the answer cached; one
    // the server does not know, or one for another resource, refused.
    let exp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        + 300;
    let opaque = auth.ask(
        "/test/opaque",
        &json!({"claims": {"sub": "service", "aud": resource, "scope": "mcp tools:read", "exp": exp}}),
    )["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let asked_before = auth.stats()["introspect"].as_u64().unwrap();
    assert_eq!(initialize(gateway, &opaque).0, 200);
    assert_eq!(initialize(gateway, &opaque).0, 200);
    assert_eq!(
        auth.stats()["introspect"].as_u64().unwrap(),
        asked_before + 1
    );
    let other = auth.ask(
        "/test/opaque",
        &json!({"claims": {"sub": "service", "aud": "http://127.0.0.1:1/mcp", "scope": "mcp tools:read"}}),
    )["token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(initialize(gateway, &other), (401, invalid.clone()));
    assert_eq!(
        initialize(gateway, "0123456789abcdef0123456789abcdef"),
        (401, invalid.clone())
    );
}
