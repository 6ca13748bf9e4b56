//! One upstream MCP server: started (stdio) or reached (streamable HTTP) with the official
//! SDK's client, its tools listed as wire objects, calls forwarded, and its
//! `notifications/tools/list_changed` passed on.
//!
//! The digest of a tool covers its definition as the server sent it. The SDK reads a
//! `tools/list` result into its own types, which keep only the fields they know, so over
//! stdio the server's output is also read as it passes (`Taps`) and the tools are taken
//! from the raw JSON; over HTTP the SDK's reading is all there is (see [`Upstream::tools`]).
//! Over stdio a call goes beside the SDK's session (`crate::express`).

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use catalog_compiler::import::Offers;
use catalog_compiler::model::Supplied;
use http::{HeaderName, HeaderValue};
use memchr::memmem::Finder;
use rmcp::model::{
    CallToolRequestParams, ClientConfig, ClientRequest, Implementation, JsonObject,
    ListPromptsRequest, ListResourceTemplatesRequest, ListResourcesRequest, ListToolsRequest,
    PaginatedRequestParams, ProtocolVersion, ServerResult,
};
use rmcp::service::{NotificationContext, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ServiceError, ServiceExt};
use serde_json::Value;
use tokio::process::Child;
use tokio::sync::mpsc::UnboundedSender;

use crate::express::{Closes, Express, Failure, Waiting};
use crate::lines::{LineReader, Lines};
use crate::supplied;

/// How long an upstream has to start and answer `initialize` or `tools/list`.
pub const START_TIMEOUT: Duration = Duration::from_secs(60);

/// Where an upstream is: what `[[upstream]]` declares.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Endpoint {
    /// A program speaking MCP on its standard input and output.
    Command {
        /// The program.
        program: String,
        /// Its arguments.
        args: Vec<String>,
        /// Environment variables added to the connecting program's own, each read when
        /// the program is started.
        env: Vec<(String, Supplied)>,
    },
    /// A streamable HTTP endpoint (`http://` only: this build has no TLS).
    Url {
        /// The endpoint.
        url: String,
        /// Headers sent with every request, each read when the endpoint is reached.
        headers: Vec<(String, Supplied)>,
    },
}

impl Endpoint {
    /// The endpoint of an `[[upstream]]` table.
    #[must_use]
    pub fn of(upstream: &catalog_compiler::model::Upstream) -> Endpoint {
        use catalog_compiler::model::Transport;
        match &upstream.transport {
            Transport::Stdio { command, args, env } => Endpoint::Command {
                program: command.clone(),
                args: args.clone(),
                env: env.clone(),
            },
            Transport::Http { url, headers } => Endpoint::Url {
                url: url.clone(),
                headers: headers.clone(),
            },
        }
    }
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Endpoint::Command { program, args, .. } => {
                f.write_str(program)?;
                for arg in args {
                    write!(f, " {arg}")?;
                }
                Ok(())
            }
            Endpoint::Url { url, .. } => f.write_str(url),
        }
    }
}

/// Who connects, as the upstream reads it in `initialize`: the program's name and version.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Client {
    /// The program, as `clientInfo.name`.
    pub name: &'static str,
    /// Its version, as `clientInfo.version`.
    pub version: &'static str,
}

/// A connected upstream.
pub struct Upstream {
    name: String,
    service: RunningService<RoleClient, Watcher>,
    /// The tools of the `tools/list` results read off a stdio server's output.
    raw: Option<Arc<Mutex<Vec<Value>>>>,
    /// One listing at a time, so the raw tools read belong to it.
    listing: tokio::sync::Mutex<()>,
    /// A stdio server's process, stopped with the session.
    child: Option<Child>,
    /// Calls to a stdio server, made beside the SDK's session.
    express: Option<Express>,
}

/// The client side of one upstream session: introduces the program, and reports what
/// the upstream says changed by the upstream's name.
struct Watcher {
    client: Client,
    name: String,
    changed: Option<UnboundedSender<String>>,
}

impl ClientHandler for Watcher {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.client_info = Implementation::new(self.client.name, self.client.version);
        info
    }

    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.changed();
    }

    async fn on_prompt_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.changed();
    }

    async fn on_resource_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.changed();
    }
}

impl Watcher {
    /// Reports that the upstream says what it offers changed, for its owner (the
    /// gateway) to list it all again.
    fn changed(&self) {
        if let Some(changed) = &self.changed {
            // The receiver is gone only while its owner shuts down.
            let _ = changed.send(self.name.clone());
        }
    }
}

impl Upstream {
    /// Starts or reaches upstream `name` and completes the MCP handshake as `client`.
    /// When `changed` is given, the upstream's name is sent on it each time it says its
    /// tools, prompts or resources changed.
    ///
    /// The `env` and `headers` values written as `from-env` or `from-file` are read now,
    /// and handed to the server only.
    ///
    /// # Errors
    /// A value's variable is not set or its file cannot be read (the message names each
    /// one, never a value), the program cannot start, the URL does not answer, or the
    /// handshake fails or takes longer than [`START_TIMEOUT`]; the message names the
    /// upstream and what to check.
    pub async fn connect(
        name: &str,
        endpoint: &Endpoint,
        client: Client,
        changed: Option<UnboundedSender<String>>,
    ) -> Result<Upstream, String> {
        let watcher = Watcher {
            client,
            name: name.to_owned(),
            changed,
        };
        let mut raw = None;
        let mut child = None;
        let mut express = None;
        let started = match endpoint {
            Endpoint::Command { program, args, env } => {
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
                let (Some(stdin), Some(stdout)) = (process.stdin.take(), process.stdout.take())
                else {
                    return Err(format!(
                        "upstream `{name}`: its standard streams are not piped"
                    ));
                };
                let seen = Arc::new(Mutex::new(Vec::new()));
                raw = Some(Arc::clone(&seen));
                child = Some(process);
                let waiting = Arc::new(Waiting::default());
                let taps = Taps {
                    seen,
                    waiting: Closes(Arc::clone(&waiting)),
                };
                let (lines, _) = Lines::spawn(stdin);
                let transport = (
                    LineReader::spawn(stdout, move |line| taps.take(line)),
                    lines.writer(),
                );
                express = Some(Express::new(lines, waiting));
                tokio::time::timeout(START_TIMEOUT, watcher.serve(transport)).await
            }
            Endpoint::Url { url, headers } => {
                crate::tls::provider();
                let headers = http_headers(name, headers)?;
                let config = StreamableHttpClientTransportConfig::with_uri(url.as_str())
                    .custom_headers(headers);
                let transport = StreamableHttpClientTransport::from_config(config);
                tokio::time::timeout(START_TIMEOUT, watcher.serve(transport)).await
            }
        };
        let service = match started {
            Ok(Ok(service)) => service,
            Ok(Err(e)) => {
                return Err(format!(
                    "upstream `{name}` (`{endpoint}`) did not complete the MCP handshake: {e}"
                ));
            }
            Err(_) => {
                return Err(format!(
                    "upstream `{name}` (`{endpoint}`) did not answer within {} s",
                    START_TIMEOUT.as_secs()
                ));
            }
        };
        // A session on 2026-07-28 carries its revision in each request, which the SDK
        // writes: its calls stay with the SDK.
        let express = express.filter(|_| {
            service
                .peer()
                .peer_info()
                .is_some_and(|info| info.protocol_version < ProtocolVersion::V_2026_07_28)
        });
        Ok(Upstream {
            name: name.to_owned(),
            service,
            raw,
            listing: tokio::sync::Mutex::new(()),
            child,
            express,
        })
    }

    /// Whether the session ended (a stdio server that exited, an HTTP session closed).
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.service.is_closed()
    }

    /// The upstream's name in the catalog.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Every tool the upstream lists (all pages, never from a cache), each as the JSON
    /// object of its definition: what the catalog's digest covers.
    ///
    /// Over stdio each object is exactly what the server wrote. Over HTTP it is the SDK's
    /// reading of it: every field of the MCP revision the SDK implements (name, title,
    /// description, both schemas and `_meta` whole, annotations, icons); a field it does
    /// not know is not covered.
    ///
    /// # Errors
    /// The request failed or timed out.
    pub async fn tools(&self) -> Result<Vec<Value>, String> {
        let declared = self.service.peer().peer_info();
        if declared.is_some_and(|info| info.capabilities.tools.is_none()) {
            // A server of prompts or resources only.
            return Ok(Vec::new());
        }
        let _one_at_a_time = self.listing.lock().await;
        if let Some(raw) = &self.raw {
            lock(raw).clear();
        }
        let typed = tokio::time::timeout(START_TIMEOUT, self.list_all())
            .await
            .map_err(|_| format!("upstream `{}` did not list its tools in time", self.name))??;
        let names = |tools: &[Value]| -> Vec<Option<String>> {
            tools
                .iter()
                .map(|t| t.get("name").and_then(Value::as_str).map(str::to_owned))
                .collect()
        };
        if let Some(raw) = &self.raw {
            let raw = std::mem::take(&mut *lock(raw));
            // The same tools in the same order: the pages just read.
            if names(&raw) == names(&typed) {
                return Ok(raw);
            }
            tracing::warn!(upstream = %self.name, "the tools read off the wire differ from the SDK's reading; using the SDK's");
        }
        Ok(typed)
    }

    /// Every page of `tools/list`, as the SDK reads them.
    async fn list_all(&self) -> Result<Vec<Value>, String> {
        let mut tools = Vec::new();
        let mut cursor = None;
        loop {
            let request =
                ListToolsRequest::with_param(PaginatedRequestParams::default().with_cursor(cursor));
            let answer = self
                .service
                .peer()
                .send_request(ClientRequest::ListToolsRequest(request))
                .await
                .map_err(|e| format!("upstream `{}` could not list its tools: {e}", self.name))?;
            let ServerResult::ListToolsResult(page) = answer else {
                return Err(format!(
                    "upstream `{}` answered tools/list with something else",
                    self.name
                ));
            };
            for tool in page.tools {
                tools.push(
                    serde_json::to_value(tool).map_err(|e| {
                        format!("a tool of upstream `{}` is not JSON: {e}", self.name)
                    })?,
                );
            }
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => return Ok(tools),
            }
        }
    }

    /// The prompts, resources and resource templates the upstream lists (all pages, never
    /// from a cache), each as the SDK reads it: what the catalog's digests cover. What the
    /// server does not declare in its capabilities is empty.
    ///
    /// # Errors
    /// A request failed or timed out.
    pub async fn offers(&self) -> Result<Offers, String> {
        let declared = self
            .service
            .peer()
            .peer_info()
            .map(|info| info.capabilities.clone())
            .unwrap_or_default();
        let mut offers = Offers::default();
        let listed = async {
            if declared.prompts.is_some() {
                offers.prompts = self.list_pages("prompts/list", "prompts").await?;
            }
            if declared.resources.is_some() {
                offers.resources = self.list_pages("resources/list", "resources").await?;
                offers.templates = self
                    .list_pages("resources/templates/list", "resourceTemplates")
                    .await?;
            }
            Ok::<(), String>(())
        };
        tokio::time::timeout(START_TIMEOUT, listed)
            .await
            .map_err(|_| {
                format!(
                    "upstream `{}` did not list its prompts and resources in time",
                    self.name
                )
            })??;
        Ok(offers)
    }

    /// Every page of the listing `method`, whose result holds the items at `items`.
    async fn list_pages(&self, method: &str, items: &str) -> Result<Vec<Value>, String> {
        let mut out = Vec::new();
        let mut cursor = None;
        loop {
            let params = PaginatedRequestParams::default().with_cursor(cursor);
            let request = match method {
                "prompts/list" => {
                    ClientRequest::ListPromptsRequest(ListPromptsRequest::with_param(params))
                }
                "resources/list" => {
                    ClientRequest::ListResourcesRequest(ListResourcesRequest::with_param(params))
                }
                _ => ClientRequest::ListResourceTemplatesRequest(
                    ListResourceTemplatesRequest::with_param(params),
                ),
            };
            let answer = self
                .service
                .peer()
                .send_request(request)
                .await
                .map_err(|e| format!("upstream `{}` could not answer {method}: {e}", self.name))?;
            let mut page = serde_json::to_value(answer)
                .map_err(|e| format!("upstream `{}`'s {method} is not JSON: {e}", self.name))?;
            match page.get_mut(items).map(Value::take) {
                Some(Value::Array(found)) => out.extend(found),
                _ => {
                    return Err(format!(
                        "upstream `{}` answered {method} without `{items}`",
                        self.name
                    ));
                }
            }
            match page.get("nextCursor").and_then(Value::as_str) {
                Some(next) => cursor = Some(next.to_owned()),
                None => return Ok(out),
            }
        }
    }

    /// Asks the upstream for prompt `name` with `arguments`, as its server answers it.
    ///
    /// # Errors
    /// The upstream refused the request or the session failed: the upstream's own message.
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: Option<JsonObject>,
    ) -> Result<Value, String> {
        let params =
            serde_json::from_value(serde_json::json!({"name": name, "arguments": arguments}))
                .map_err(|e| format!("cannot write prompts/get: {e}"))?;
        let result = self
            .service
            .peer()
            .get_prompt(params)
            .await
            .map_err(|e| format!("upstream `{}`: {e}", self.name))?;
        serde_json::to_value(result).map_err(|e| e.to_string())
    }

    /// Reads resource `uri` from the upstream, as its server answers it.
    ///
    /// # Errors
    /// The upstream refused the request or the session failed: the upstream's own message.
    pub async fn read_resource(&self, uri: &str) -> Result<Value, String> {
        let params = serde_json::from_value(serde_json::json!({"uri": uri}))
            .map_err(|e| format!("cannot write resources/read: {e}"))?;
        let result = self
            .service
            .peer()
            .read_resource(params)
            .await
            .map_err(|e| format!("upstream `{}`: {e}", self.name))?;
        serde_json::to_value(result).map_err(|e| e.to_string())
    }

    /// Forwards one call, already verified, to the upstream tool `tool`: its result object,
    /// as a stdio server wrote it, or as the SDK read it over HTTP (as [`Upstream::tools`]).
    /// It is read as a tool result by whoever takes it: read here too, it would be read
    /// twice.
    ///
    /// # Errors
    /// The upstream refused the request or the session failed: the upstream's own message.
    pub async fn call(&self, tool: &str, arguments: JsonObject) -> Result<Value, String> {
        let failed = |e: &dyn std::fmt::Display| format!("upstream `{}`: {e}", self.name);
        if let Some(express) = &self.express {
            return express.call(tool, arguments).await.map_err(|e| match e {
                // Worded as the SDK words the same error.
                Failure::Refused(error) => failed(&ServiceError::McpError(error)),
                Failure::Session(e) => failed(&e),
            });
        }
        let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        let result = self
            .service
            .peer()
            .call_tool(params)
            .await
            .map_err(|e| failed(&e))?;
        serde_json::to_value(result).map_err(|e| failed(&e))
    }

    /// Ends the session (and stops the program of a stdio upstream).
    pub async fn close(mut self) {
        let _ = self.service.cancel().await;
        if let Some(child) = &mut self.child {
            let _ = child.kill().await;
        }
    }
}

/// The `headers` of upstream `name`, read and checked as HTTP allows, each value marked
/// sensitive (so the HTTP stack never prints it).
fn http_headers(
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
/// `tools/list` result, kept as the server wrote them, and the answers to calls made
/// beside the SDK. MCP's stdio transport is one JSON-RPC message per line.
struct Taps {
    seen: Arc<Mutex<Vec<Value>>>,
    waiting: Closes,
}

impl Taps {
    fn take(&self, line: Vec<u8>) -> Option<Vec<u8>> {
        // Most lines are not a tools/list result: skip them unparsed.
        static TOOLS: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"tools\""));
        if TOOLS.find(&line).is_some() {
            self.keep(&line);
        }
        self.waiting.0.take(line)
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

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl std::fmt::Debug for Upstream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upstream")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads of at most 7 bytes: they end anywhere, mid-line included.
    struct Pieces(&'static [u8]);

    impl tokio::io::AsyncRead for Pieces {
        fn poll_read(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            buf: &mut tokio::io::ReadBuf<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            let n = self.0.len().min(7).min(buf.remaining());
            buf.put_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            std::task::Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn the_taps_keep_the_tools_of_list_results_as_written_and_pass_every_line_on() {
        use tokio::io::AsyncReadExt as _;
        let seen = Arc::new(Mutex::new(Vec::new()));
        let taps = Taps {
            seen: Arc::clone(&seen),
            waiting: Closes(Arc::new(Waiting::default())),
        };
        let output = concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","execution":{"taskSupport":"forbidden"}},{"name":"b"}]}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"\"tools\""}}"#,
            "\n",
        );
        let mut passed = String::new();
        LineReader::new(Pieces(output.as_bytes()), move |line| taps.take(line))
            .read_to_string(&mut passed)
            .await
            .unwrap();
        assert_eq!(passed, output);
        let kept = lock(&seen).clone();
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[0]["execution"]["taskSupport"], "forbidden");
        assert_eq!(kept[1]["name"], "b");
    }
}
