//! How an upstream (a `[[upstream]]` table's `Transport`) is reached: its server started with
//! piped standard streams, or its URL with the headers and OAuth tokens it needs, and the
//! taps that read a stdio server's output as it passes.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use catalog_check::model::{OAuth, Supplied, Transport};
use catalog_core::BoxFuture;
use http::{HeaderName, HeaderValue};
use memchr::memmem::Finder;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::Value;
use tokio::process::Child;

use crate::express;
use crate::oauth::{Authorized, Tokens};
use crate::relay::Relaying;
use crate::revision::Revision;
use crate::supplied;

use super::{Started, Watcher, lock, open};

/// Starts upstream `name`'s server (`program` with `args` and `env`), its standard input
/// and output piped: the process and its pipes.
///
/// # Errors
/// A value of `env` cannot be read, or the program cannot start: why, and what to check.
pub(super) fn spawn(
    name: &str,
    endpoint: &Transport,
    program: &str,
    args: &[String],
    env: &[(String, catalog_check::model::Supplied)],
) -> Result<
    (
        Child,
        tokio::process::ChildStdin,
        tokio::process::ChildStdout,
    ),
    String,
> {
    let env = supplied::read(name, "env", env)?;
    let mut command = tokio::process::Command::new(program);
    command
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true);
    let mut process = command.spawn().map_err(|e| {
        format!(
            "cannot start upstream `{name}` (`{endpoint}`): {e}; check its `command` in [[upstream]], or install the server"
        )
    })?;
    let (Some(stdin), Some(stdout)) = (process.stdin.take(), process.stdout.take()) else {
        return Err(format!(
            "upstream `{name}`: its standard streams are not piped"
        ));
    };
    Ok((process, stdin, stdout))
}

/// Reaches the streamable HTTP endpoint `url` with `headers`, sending the access tokens
/// `oauth` obtains when it has one: the session being opened, and the tokens.
///
/// # Errors
/// A header's value cannot be read or is no HTTP header value.
pub(super) fn reach(
    watcher: Watcher,
    url: &str,
    headers: &[(String, Supplied)],
    oauth: Option<&OAuth>,
    revision: Revision,
) -> Result<(BoxFuture<'static, Started>, Option<Arc<Tokens>>), String> {
    crate::tls::provider();
    let name = watcher.name.clone();
    let config = StreamableHttpClientTransportConfig::with_uri(url)
        .custom_headers(http_headers(&name, headers)?);
    let (relay, calls) = (watcher.relay.clone(), Arc::clone(&watcher.calls));
    let Some(oauth) = oauth else {
        let transport = Relaying {
            inner: StreamableHttpClientTransport::from_config(config),
            relay,
            calls,
        };
        return Ok((Box::pin(open(watcher, transport, revision)), None));
    };
    let tokens = Tokens::new(&name, url, oauth.clone());
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        // The token is for this upstream: no redirect takes it elsewhere.
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| format!("upstream `{name}`: no HTTP client: {e}"))?;
    let authorized = Authorized {
        inner: client,
        tokens: Arc::clone(&tokens),
    };
    let transport = Relaying {
        inner: StreamableHttpClientTransport::with_client(authorized, config),
        relay,
        calls,
    };
    Ok((Box::pin(open(watcher, transport, revision)), Some(tokens)))
}

/// The `headers` of upstream `name`, read and checked as HTTP allows, each value marked
/// sensitive (so the HTTP stack never prints it).
pub(super) fn http_headers(
    name: &str,
    headers: &[(String, Supplied)],
) -> Result<HashMap<HeaderName, HeaderValue>, String> {
    let mut out = HashMap::new();
    let mut problems = Vec::new();
    for (header, value) in supplied::read(name, "headers", headers)? {
        let Ok(header_name) = HeaderName::from_bytes(header.as_bytes()) else {
            problems.push(format!("`{header}` is not an HTTP header name"));
            continue;
        };
        let value = value
            .to_str()
            .and_then(|v| HeaderValue::from_str(v).ok())
            .map(|mut v| {
                v.set_sensitive(true);
                v
            });
        match value {
            Some(value) => {
                out.insert(header_name, value);
            }
            None => problems.push(format!(
                "the value of `headers.{header}` is no HTTP header value (it holds a line break or another control character, or is not UTF-8)"
            )),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(format!(
            "upstream `{name}` cannot be reached: {}",
            problems.join("; ")
        ))
    }
}

/// What is taken off a stdio server's output on its way to the SDK: the tools of each
/// `tools/list` result, kept as the server wrote them, and (for the router) the answers
/// to calls made beside the SDK and the notifications a relay passes on. MCP's stdio
/// transport is one JSON-RPC message per line.
pub(super) struct Taps {
    pub(super) seen: Arc<Mutex<Vec<Value>>>,
    pub(super) router: express::Router,
}

impl Taps {
    pub(super) fn take(&self, line: Vec<u8>) -> Option<Vec<u8>> {
        // Most lines are not a tools/list result: skip them unparsed.
        static TOOLS: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"tools\""));
        if TOOLS.find(&line).is_some() {
            self.keep(&line);
        }
        express::take(line, &self.router)
    }

    fn keep(&self, line: &[u8]) {
        let Ok(mut message) = serde_json::from_slice::<Value>(line) else {
            return;
        };
        if let Some(Value::Array(tools)) = message.pointer_mut("/result/tools").map(Value::take) {
            lock(&self.seen).extend(tools);
        }
    }
}
