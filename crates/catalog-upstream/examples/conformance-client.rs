//! A client of `catalog-upstream` for the official MCP conformance suite's client
//! scenarios: `conformance client --command "<this program>" --scenario NAME` starts a
//! mock server for the scenario and runs this with the server's URL as the last argument,
//! the scenario in `MCP_CONFORMANCE_SCENARIO`, the revision in
//! `MCP_CONFORMANCE_PROTOCOL_VERSION` and what the scenario hands the client (its
//! credentials, say) as JSON in `MCP_CONFORMANCE_CONTEXT`.
//!
//! It does what the gateway does with an upstream, through the same calls: opens a session
//! at the revision, lists the tools, calls each (with the arguments the context names, or
//! ones its schema requires), lists the prompts and resources and gets or reads each.
//! Whatever the upstream asks the client is answered by a stand-in for the client behind
//! the gateway: forms accepted as they come, a canned sampling reply, no roots.
//! `catalog-upstream/tests/conformance.rs` runs it against every scenario that applies.

// Upstreams of 2025-11-25 sample and list roots, which 2026-07-28 deprecates (SEP-2577).
#![allow(deprecated)]

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use catalog_check::model::Transport;
use catalog_check::model::{ClientCredential, OAuth, Supplied};
use catalog_core::BoxFuture;
use catalog_upstream::relay::{self, Origin, Relay};
use catalog_upstream::{Client, Revision, Upstream};
use rmcp::ErrorData;
use rmcp::model::{
    ClientCapabilities, ClientResult, ElicitResult, ElicitationAction, JsonObject, ListRootsResult,
    RequestId, ServerNotification, ServerRequest,
};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

const CLIENT: Client = Client {
    name: "catalog-upstream-conformance",
    version: env!("CARGO_PKG_VERSION"),
};

fn main() -> ExitCode {
    let Some(url) = std::env::args().nth(1) else {
        eprintln!(
            "usage: conformance-client URL, run by `conformance client --command ...`, which sets MCP_CONFORMANCE_SCENARIO"
        );
        return ExitCode::FAILURE;
    };
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let named = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION").ok();
    let revision = named
        .as_deref()
        .map_or(Some(Revision::default()), Revision::parse);
    let Some(revision) = revision else {
        eprintln!("MCP_CONFORMANCE_PROTOCOL_VERSION: {named:?} is no revision this client opens");
        return ExitCode::FAILURE;
    };
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str(&c).ok())
        .unwrap_or(Value::Null);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    match runtime.block_on(run(&url, &scenario, revision, &context)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{scenario}: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(url: &str, scenario: &str, revision: Revision, context: &Value) -> Result<(), String> {
    let endpoint = Transport::Http {
        url: url.to_owned(),
        headers: Vec::new(),
        oauth: oauth(context)?,
    };
    let relay: Arc<dyn Relay> = Arc::new(StandIn);
    let upstream = Upstream::connect_at(
        "conformance",
        &endpoint,
        CLIENT,
        revision,
        None,
        Some(relay),
    )
    .await?;
    let tools = upstream.tools().await?;
    for tool in &tools {
        let name = tool["name"].as_str().unwrap_or_default();
        let arguments = arguments_for(scenario, name, tool, &tools, context);
        match upstream.call(name, arguments, Some(origin(name))).await {
            Ok(result) => eprintln!("{name}: {result}"),
            // A refused call is the upstream's answer, not the client's failure.
            Err(e) => eprintln!("{name}: {e}"),
        }
    }
    let offers = upstream.offers().await?;
    for prompt in &offers.prompts {
        let name = prompt["name"].as_str().unwrap_or_default();
        let arguments: JsonObject = prompt["arguments"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|a| a["required"] == true)
            .filter_map(|a| a["name"].as_str())
            .map(|a| (a.to_owned(), json!("x")))
            .collect();
        match upstream.get_prompt(name, Some(arguments), None).await {
            Ok(_) => eprintln!("prompt {name}: got"),
            Err(e) => eprintln!("prompt {name}: {e}"),
        }
    }
    for resource in &offers.resources {
        let uri = resource["uri"].as_str().unwrap_or_default();
        match upstream.read_resource(uri, None).await {
            Ok(_) => eprintln!("resource {uri}: read"),
            Err(e) => eprintln!("resource {uri}: {e}"),
        }
    }
    upstream.close().await;
    Ok(())
}

/// The OAuth client the context names, as a catalog's `oauth` says it: its secret or key
/// in a file of its own (a catalog cannot hold one), read when a token is requested.
fn oauth(context: &Value) -> Result<Option<OAuth>, String> {
    let Some(client_id) = context["client_id"].as_str() else {
        return Ok(None);
    };
    let (credential, value) = match (
        context["client_secret"].as_str(),
        context["private_key_pem"].as_str(),
    ) {
        (Some(secret), _) => (ClientCredential::Secret as fn(_) -> _, secret),
        (None, Some(key)) => (ClientCredential::PrivateKey as fn(_) -> _, key),
        (None, None) => return Ok(None),
    };
    let file = std::env::temp_dir().join(format!("conformance-client-{}", std::process::id()));
    std::fs::write(&file, value).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(Some(OAuth {
        client_id: client_id.to_owned(),
        credential: credential(Supplied::FromFile(file.to_string_lossy().into_owned())),
        scope: None,
    }))
}

/// The client request a call answers: one number per call, as a client's ids.
fn origin(tool: &str) -> Origin {
    static NEXT: AtomicI64 = AtomicI64::new(1);
    Origin {
        request: RequestId::Number(NEXT.fetch_add(1, Ordering::Relaxed)),
        progress: None,
        tool: tool.to_owned(),
        relay: None,
        meta: None,
    }
}

/// The arguments of a call to `name`: those the scenario's context names; for the
/// schema-preservation scenario, the schema listed for the tool it names (what the
/// scenario compares is the schema as this crate listed it); else a value for each
/// property the schema requires.
fn arguments_for(
    scenario: &str,
    name: &str,
    tool: &Value,
    tools: &[Value],
    context: &Value,
) -> JsonObject {
    let named = context["toolCalls"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|call| call["name"] == name);
    if let Some(Value::Object(arguments)) = named.map(|call| &call["arguments"]) {
        return arguments.clone();
    }
    if scenario == "json-schema-2020-12-preservation" && name == "json_schema_echo" {
        let listed = tools
            .iter()
            .find(|t| t["name"] == "json_schema_2020_12_tool")
            .map_or(Value::Null, |t| t["inputSchema"].clone());
        return JsonObject::from_iter([("schema".to_owned(), listed)]);
    }
    let schema = &tool["inputSchema"];
    schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|field| (field.to_owned(), sample(&schema["properties"][field])))
        .collect()
}

/// A value a property's schema accepts: its default, its first enum member or example,
/// or one of its type.
fn sample(property: &Value) -> Value {
    if let Some(value) = property
        .get("default")
        .or_else(|| property["enum"].get(0))
        .or_else(|| property["examples"].get(0))
    {
        return value.clone();
    }
    match property["type"].as_str() {
        Some("number" | "integer") => json!(1),
        Some("boolean") => json!(true),
        Some("object") => json!({}),
        Some("array") => json!([]),
        Some("null") => Value::Null,
        _ => json!("x"),
    }
}

/// The client behind the gateway, played: it can be asked everything a relay passes on.
struct StandIn;

impl Relay for StandIn {
    fn capabilities(&self) -> ClientCapabilities {
        relay::relayable()
    }

    fn notify(
        &self,
        notification: ServerNotification,
        _: Option<Arc<Origin>>,
    ) -> BoxFuture<'static, ()> {
        eprintln!("notified: {notification:?}");
        Box::pin(async {})
    }

    fn request(
        &self,
        request: ServerRequest,
        _: Option<Arc<Origin>>,
        _: CancellationToken,
    ) -> BoxFuture<'static, Result<ClientResult, ErrorData>> {
        let answer = match request {
            // Accepted as the form came: its defaults are filled in by the session.
            ServerRequest::ElicitRequest(_) => {
                let mut accepted = ElicitResult::new(ElicitationAction::Accept);
                accepted.content = Some(json!({}));
                Ok(ClientResult::ElicitResult(accepted))
            }
            ServerRequest::CreateMessageRequest(_) => serde_json::from_value(json!({
                "role": "assistant",
                "content": {"type": "text", "text": "a reply"},
                "model": "stand-in"
            }))
            .map(|reply| ClientResult::CreateMessageResult(Box::new(reply)))
            .map_err(|e| ErrorData::internal_error(e.to_string(), None)),
            ServerRequest::ListRootsRequest(_) => {
                Ok(ClientResult::ListRootsResult(ListRootsResult::default()))
            }
            other => Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                format!("the stand-in client answers no {other:?}"),
                None,
            )),
        };
        Box::pin(async move { answer })
    }
}
