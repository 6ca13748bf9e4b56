//! A handler's context over MCP, end to end and in process: the server of a catalog whose
//! handlers each talk back one way (`tests/talk/catalog.toml`) and a client of the Rust
//! SDK, over an in-memory pipe. A client that declared everything gets the progress, the
//! log message, the form, the URL, the sampling request (with a tool) and the roots
//! request, each with what the handler sent, and the handler gets its answers; a client
//! that declared nothing is asked nothing, and each handler reads an error that names the
//! capability missing. A handler that needs a URL visited first answers `-32042`; one
//! that links a resource answers the link after its JSON, with its structured content;
//! one the client cancels is dropped where it waits.

// MCP 2026-07-28 deprecates sampling, roots and logging (SEP-2577) and `rmcp` marks its
// types so; clients of 2025-11-25 use them.
#![allow(deprecated)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use catalog_core::talk::{Elicited, LogLevel, Sampling};
use catalog_core::{Access, Content, Context, Output, UrlElicitation};
use catalog_mcp::rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig,
    ClientRequest, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams,
    ElicitResult, ElicitationAction, ListRootsResult, LoggingLevel,
    LoggingMessageNotificationParam, ProgressNotificationParam, ProtocolVersion,
    SetLevelRequestParams,
};
use catalog_mcp::rmcp::service::{
    NotificationContext, PeerRequestOptions, RequestContext, RoleClient, RunningService,
};
use catalog_mcp::rmcp::{ClientHandler, ErrorData, ServiceError, ServiceExt};
use catalog_mcp::{CatalogServer, GatedPolicy, Grant, Level, Tools};
use serde_json::{Value, json};

catalog_macros::catalog!("tests/talk/catalog.toml");

/// The handlers: each talks back one way.
struct Talker {
    /// Set when `slow`'s future is dropped.
    dropped: Arc<AtomicBool>,
}

/// Sets its flag when dropped: where a cancelled call's future ends.
struct Dropped(Arc<AtomicBool>);

impl Drop for Dropped {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[allow(
    clippy::unnecessary_wraps,
    reason = "what a handler method returns, for its last line"
)]
fn text(text: impl Into<String>) -> Result<Output, String> {
    Ok(Output::text(text))
}

impl Handler for Talker {
    type Error = String;

    async fn ask(&self, _: Context, _: AskArgs) -> Result<Output, String> {
        Err("no one to ask here".into())
    }

    async fn report(&self, context: Context, _: ReportArgs) -> Result<Output, String> {
        let talked = async {
            context.progress(1.0, Some(2.0), Some("half")).await?;
            context
                .log(LogLevel::Info, Some("report"), "halfway")
                .await?;
            context.progress(2.0, Some(2.0), None).await
        };
        talked.await.map_err(|e| e.to_string())?;
        text("reported")
    }

    async fn ask_name(&self, context: Context, _: AskNameArgs) -> Result<Output, String> {
        let schema = json!({
            "type": "object",
            "properties": {"name": {"type": "string", "description": "Your name"}},
            "required": ["name"],
        });
        match context.elicit("What is your name?", schema).await {
            Ok(Elicited::Accepted(answer)) => text(answer["name"].as_str().unwrap_or_default()),
            Ok(other) => text(format!("{other:?}")),
            Err(e) => Err(e.to_string()),
        }
    }

    async fn sign_in(&self, context: Context, _: SignInArgs) -> Result<Output, String> {
        let request = UrlElicitation {
            message: "Sign in to go on.".into(),
            url: "https://example.com/sign-in".into(),
            id: "sign-in-1".into(),
        };
        let answer = context
            .elicit_url(request)
            .await
            .map_err(|e| e.to_string())?;
        text(if answer.is_accepted() {
            "accepted"
        } else {
            "refused"
        })
    }

    async fn needs_sign_in(&self, _: Context, _: NeedsSignInArgs) -> Result<Output, String> {
        Ok(Output::needs_url(UrlElicitation {
            message: "Sign in first.".into(),
            url: "https://example.com/sign-in".into(),
            id: "sign-in-2".into(),
        }))
    }

    async fn sample(&self, context: Context, _: SampleArgs) -> Result<Output, String> {
        let look =
            json!({"name": "look", "description": "Looks up.", "inputSchema": {"type": "object"}});
        let request = Sampling::new(50)
            .system("Answer in one word.")
            .user("Which colour is the sky?")
            .tools(vec![look]);
        let sampled = context.sample(request).await.map_err(|e| e.to_string())?;
        text(sampled.text().unwrap_or_default())
    }

    async fn list_roots(&self, context: Context, _: ListRootsArgs) -> Result<Output, String> {
        let roots = context.roots().await.map_err(|e| e.to_string())?;
        let uris: Vec<String> = roots.into_iter().map(|r| r.uri).collect();
        text(uris.join(" "))
    }

    async fn linked(&self, _: Context, _: LinkedArgs) -> Result<Output, String> {
        let link =
            Content::resource_link("file:///notes/a.md", "a.md").with("mimeType", "text/markdown");
        Ok(Output::from(json!({"count": 1})).with(link))
    }

    async fn slow(&self, context: Context, _: SlowArgs) -> Result<Output, String> {
        let _dropped = Dropped(Arc::clone(&self.dropped));
        context.cancelled().await;
        text("cancelled")
    }
}

/// The test's client: declares everything or nothing, answers every question the same
/// way, and keeps what it was told and asked.
struct Client {
    declares: bool,
    seen: Arc<Mutex<Vec<Value>>>,
}

impl Client {
    fn saw(&self, what: Value) {
        self.seen.lock().unwrap().push(what);
    }
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.protocol_version = ProtocolVersion::V_2025_11_25;
        if self.declares {
            info.capabilities = serde_json::from_value::<ClientCapabilities>(json!({
                "sampling": {"tools": {}},
                "elicitation": {"form": {}, "url": {}},
                "roots": {"listChanged": true},
            }))
            .unwrap();
        }
        info
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        self.saw(json!({"sampling": params}));
        Ok(serde_json::from_value(json!({
            "role": "assistant", "model": "test", "stopReason": "endTurn",
            "content": {"type": "text", "text": "blue"},
        }))
        .unwrap())
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.saw(json!({"elicitation": request}));
        let mut answer = ElicitResult::new(ElicitationAction::Accept);
        if matches!(request, ElicitRequestParams::FormElicitationParams { .. }) {
            answer = answer.with_content(json!({"name": "Ada"}));
        }
        Ok(answer)
    }

    async fn list_roots(
        &self,
        _: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        self.saw(json!("roots"));
        Ok(
            serde_json::from_value(json!({"roots": [{"uri": "file:///work", "name": "work"}]}))
                .unwrap(),
        )
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.saw(
            json!({"progress": params.progress, "total": params.total, "message": params.message}),
        );
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        // The server's own events go to clients at their level too: the handler's is
        // the one from its logger.
        if params.logger.as_deref() == Some("report") {
            self.saw(json!({"log": params.data}));
        }
    }
}

/// A server of the talk catalog and a client that `declares` everything or nothing,
/// connected; the client's session, what it saw, and whether `slow` was dropped.
async fn connected(
    declares: bool,
) -> (
    RunningService<RoleClient, Client>,
    Arc<Mutex<Vec<Value>>>,
    Arc<AtomicBool>,
) {
    let dropped = Arc::new(AtomicBool::new(false));
    let tools = Tools::new(
        Catalog,
        Talker {
            dropped: Arc::clone(&dropped),
        },
        GatedPolicy::Deny,
    );
    let server = CatalogServer::new(
        Arc::new(tools),
        Level::Fixed(Grant::local(Access::ReadOnly)),
    );
    let (to_server, from_client) = tokio::io::duplex(1 << 16);
    let (to_client, from_server) = tokio::io::duplex(1 << 16);
    let (server_reads, _) = tokio::io::split(from_client);
    let (_, server_writes) = tokio::io::split(to_client);
    tokio::spawn(async move {
        let service = server.serve((server_reads, server_writes)).await.unwrap();
        let _ = service.waiting().await;
    });
    let (client_reads, _) = tokio::io::split(from_server);
    let (_, client_writes) = tokio::io::split(to_server);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let client = Client {
        declares,
        seen: Arc::clone(&seen),
    };
    let service = client.serve((client_reads, client_writes)).await.unwrap();
    (service, seen, dropped)
}

async fn call(
    client: &RunningService<RoleClient, Client>,
    name: &str,
) -> Result<CallToolResult, ServiceError> {
    client
        .peer()
        .call_tool(CallToolRequestParams::new(name.to_owned()))
        .await
}

/// A result's first text.
fn first_text(result: &CallToolResult) -> String {
    result.content[0]
        .as_text()
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

/// What the client saw, taken, once the notifications a call sent have arrived (the SDK
/// hands them to the client's handler on tasks of their own).
async fn taken(seen: &Mutex<Vec<Value>>) -> Vec<Value> {
    tokio::time::sleep(Duration::from_millis(100)).await;
    std::mem::take(&mut *seen.lock().unwrap())
}

#[tokio::test]
async fn a_client_that_declared_everything_is_told_and_asked_what_each_handler_sends() {
    let (client, seen, _) = connected(true).await;
    client
        .peer()
        .set_level(SetLevelRequestParams::new(LoggingLevel::Info))
        .await
        .unwrap();

    let reported = call(&client, "report").await.unwrap();
    assert_eq!(first_text(&reported), "reported");
    assert_eq!(
        taken(&seen).await,
        [
            json!({"progress": 1.0, "total": 2.0, "message": "half"}),
            json!({"log": "halfway"}),
            json!({"progress": 2.0, "total": 2.0, "message": null}),
        ]
    );

    let named = call(&client, "askName").await.unwrap();
    assert_eq!(first_text(&named), "Ada");
    let asked = taken(&seen).await;
    assert_eq!(asked[0]["elicitation"]["message"], "What is your name?");
    assert_eq!(
        asked[0]["elicitation"]["requestedSchema"]["required"],
        json!(["name"])
    );

    let signed = call(&client, "signIn").await.unwrap();
    assert_eq!(first_text(&signed), "accepted");
    let asked = taken(&seen).await;
    assert_eq!(asked[0]["elicitation"]["mode"], "url");
    assert_eq!(
        asked[0]["elicitation"]["url"],
        "https://example.com/sign-in"
    );
    assert_eq!(asked[0]["elicitation"]["elicitationId"], "sign-in-1");

    let sampled = call(&client, "sample").await.unwrap();
    assert_eq!(first_text(&sampled), "blue");
    let asked = taken(&seen).await;
    let sampling = &asked[0]["sampling"];
    assert_eq!(sampling["systemPrompt"], "Answer in one word.");
    assert_eq!(sampling["maxTokens"], 50);
    assert_eq!(
        sampling["messages"][0]["content"]["text"],
        "Which colour is the sky?"
    );
    assert_eq!(sampling["tools"][0]["name"], "look");

    let rooted = call(&client, "listRoots").await.unwrap();
    assert_eq!(first_text(&rooted), "file:///work");
    assert_eq!(taken(&seen).await, [json!("roots")]);

    let linked = call(&client, "linked").await.unwrap();
    let content = serde_json::to_value(&linked.content).unwrap();
    assert_eq!(content[0]["text"], r#"{"count":1}"#);
    assert_eq!(content[1]["type"], "resource_link");
    assert_eq!(content[1]["uri"], "file:///notes/a.md");
    assert_eq!(content[1]["mimeType"], "text/markdown");
    assert_eq!(linked.structured_content, Some(json!({"count": 1})));
}

#[tokio::test]
async fn a_client_that_declared_nothing_is_asked_nothing_and_each_handler_reads_why() {
    let (client, seen, _) = connected(false).await;
    for (tool, missing) in [
        ("askName", "elicitation.form"),
        ("signIn", "elicitation.url"),
        ("sample", "sampling"),
        ("listRoots", "roots"),
    ] {
        let result = call(&client, tool).await.unwrap();
        assert_eq!(result.is_error, Some(true), "{tool}");
        let text = first_text(&result);
        assert!(
            text.contains(&format!("declared no `{missing}` capability")),
            "{tool}: {text}"
        );
    }
    // Told what needs no capability: the progress of its call (the SDK gives each
    // request a token), but no log message, as it set no level.
    let reported = call(&client, "report").await.unwrap();
    assert_eq!(first_text(&reported), "reported");
    let seen = taken(&seen).await;
    assert!(seen.iter().all(|s| s.get("log").is_none()), "{seen:?}");
    assert!(seen.iter().all(|s| s.get("progress").is_some()), "{seen:?}");
}

#[tokio::test]
async fn a_url_to_visit_first_is_the_error_that_says_so() {
    let (client, _, _) = connected(true).await;
    let Err(ServiceError::McpError(error)) = call(&client, "needsSignIn").await else {
        panic!("needsSignIn answered with a result");
    };
    assert_eq!(error.code.0, -32042);
    assert_eq!(error.message, "Sign in first.");
    assert_eq!(
        error.data,
        Some(json!({"elicitations": [{
            "mode": "url", "message": "Sign in first.",
            "url": "https://example.com/sign-in", "elicitationId": "sign-in-2",
        }]}))
    );
}

#[tokio::test]
async fn a_call_the_client_cancels_is_dropped_where_it_waits() {
    let (client, _, dropped) = connected(true).await;
    let request =
        ClientRequest::CallToolRequest(CallToolRequest::new(CallToolRequestParams::new("slow")));
    let handle = client
        .peer()
        .send_request_with_option(request, PeerRequestOptions::no_options())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        !dropped.load(Ordering::SeqCst),
        "slow ended before it was cancelled"
    );
    handle
        .cancel(Some("the user gave up".into()))
        .await
        .unwrap();
    for _ in 0..50 {
        if dropped.load(Ordering::SeqCst) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the cancelled call's handler was not dropped");
}
