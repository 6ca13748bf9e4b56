//! The stdio express lane: a `tools/call` that needs nothing of the client's session is
//! taken off the client's input before the SDK reads it, answered by
//! [`Gateway::call`] (the one call path, every check included), and its answer written
//! beside the SDK's own lines. The SDK's session moves each message through channels
//! and tasks of its own and reads it against every request type it knows; a call is
//! most of what a gateway serves, so it goes the short way.
//!
//! Everything else stays with the SDK: the handshake, listings, pings, and any call that
//! needs the session: asking the user about a gated call, search finds, progress, log
//! messages sent to the client (once it set a level), a revision or field this lane does
//! not read. A call is taken only once the client said `notifications/initialized`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io;
use std::sync::{Arc, Mutex, PoisonError};

use catalog_mcp::gate::NoAsker;
use catalog_mcp::{Grant, Server};
use catalog_upstream::lines::{LineReader, Lines};
use rmcp::model::{ProtocolVersion, RequestId, ServerJsonRpcMessage, ServerResult};
use rmcp::{ErrorData, ServiceExt as _};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use tokio::task::{AbortHandle, JoinSet};

use crate::gateway::{Gateway, Requester};
use crate::relay::Link;
use crate::server::Session;
use crate::traces::Carried;

/// Serves `session` over stdio, with the calls it can take answered by `gateway` for
/// `grant`; returns once the client left and every answer is written.
///
/// # Errors
/// The session did not start or ended with an error.
pub async fn serve(
    session: Server<Session>,
    gateway: Arc<Gateway>,
    grant: Grant,
) -> io::Result<()> {
    let (input, output) = rmcp::transport::stdio_pipes();
    let (lines, written) = Lines::spawn(output);
    let lane = Arc::new(Lane {
        gateway,
        grant,
        link: Arc::clone(session.backend().link()),
        lines: lines.clone(),
        state: Mutex::new(State::default()),
    });
    let front = {
        let lane = Arc::clone(&lane);
        LineReader::spawn(input, move |line| lane.take(line))
    };
    let served = async {
        session
            .serve((front, lines.writer()))
            .await
            .map_err(|e| io::Error::other(format!("the MCP session did not start: {e}")))?
            .waiting()
            .await
            .map_err(|e| io::Error::other(format!("the MCP session ended with an error: {e}")))
    }
    .await;
    // The calls in flight are answered before the output closes.
    let mut running = std::mem::take(&mut lane.lock().running);
    while running.join_next().await.is_some() {}
    lines.finish();
    let _ = written.await;
    served.map(drop)
}

/// What the lane needs to answer a call, and what it learnt from the lines going by.
struct Lane {
    gateway: Arc<Gateway>,
    grant: Grant,
    /// The session's link to the upstreams, whose relays reach its client.
    link: Arc<Link>,
    lines: Lines,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// The revision the client asked for in `initialize`: the SDK's too, for a request
    /// without one in its `_meta`.
    revision: Option<ProtocolVersion>,
    initialized: bool,
    /// The client set a log level: its calls' log messages go through the SDK's peer.
    logging: bool,
    /// The calls being answered, by id, to stop on cancellation.
    ids: HashMap<RequestId, AbortHandle>,
    running: JoinSet<()>,
}

/// The parts of a message the lane reads.
#[derive(Deserialize)]
struct Message<'a> {
    jsonrpc: Option<Cow<'a, str>>,
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    method: Option<Cow<'a, str>>,
    #[serde(borrow)]
    params: Option<&'a RawValue>,
}

/// The `params` of `notifications/cancelled`, as far as the lane reads them.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Cancelled {
    request_id: RequestId,
}

/// The `params` of a call the lane takes: any other field stays with the SDK.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    name: String,
    arguments: Option<Map<String, Value>>,
    #[serde(rename = "_meta")]
    meta: Option<Meta>,
}

/// The `_meta` of a call the lane takes: the trace context only.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Meta {
    traceparent: Option<String>,
    tracestate: Option<String>,
}

impl Lane {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The filter on the client's input: takes a call it can answer (and starts
    /// answering it), passes every other line on to the SDK.
    fn take(self: &Arc<Self>, line: Vec<u8>) -> Option<Vec<u8>> {
        let Ok(message) = serde_json::from_slice::<Message<'_>>(&line) else {
            return Some(line);
        };
        if message.jsonrpc.as_deref() != Some("2.0") {
            return Some(line);
        }
        let mut state = self.lock();
        while state.running.try_join_next().is_some() {}
        match message.method.as_deref() {
            Some("tools/call") => {}
            Some("initialize") => {
                state.revision = message
                    .params
                    .and_then(|p| serde_json::from_str::<Value>(p.get()).ok())
                    .and_then(|p| serde_json::from_value(p.get("protocolVersion")?.clone()).ok());
                return Some(line);
            }
            Some("notifications/initialized") => {
                state.initialized = true;
                return Some(line);
            }
            Some("logging/setLevel") => {
                state.logging = true;
                return Some(line);
            }
            Some("notifications/cancelled") => {
                let id = message
                    .params
                    .and_then(|p| serde_json::from_str::<Cancelled>(p.get()).ok())
                    .map(|c| c.request_id);
                if let Some(call) = id.and_then(|id| state.ids.remove(&id)) {
                    call.abort();
                }
                // The SDK ignores an id it does not know.
                return Some(line);
            }
            _ => return Some(line),
        }
        if !state.initialized || state.logging {
            return Some(line);
        }
        let (Some(raw_id), Some(params)) = (message.id, message.params) else {
            return Some(line);
        };
        let (Ok(id), Ok(params)) = (
            serde_json::from_str::<RequestId>(raw_id.get()),
            serde_json::from_str::<Params>(params.get()),
        ) else {
            return Some(line);
        };
        let Some(revision) = state.revision.clone() else {
            return Some(line);
        };
        if !self.gateway.sessionless(&params.name) {
            return Some(line);
        }
        tracing::debug!(%id, tool = %params.name, "answered beside the SDK");
        let shared = Arc::clone(self);
        let call = state.running.spawn({
            let id = id.clone();
            async move {
                // Boxed: a call's state is kilobytes, and the task is small to move.
                Box::pin(shared.answer(id.clone(), revision, params)).await;
                shared.lock().ids.remove(&id);
            }
        });
        state.ids.insert(id, call);
        None
    }

    /// Answers one call through the gateway's call path and writes the answer.
    async fn answer(&self, id: RequestId, revision: ProtocolVersion, params: Params) {
        let meta = params.meta.unwrap_or_default();
        let client = Requester {
            grant: &self.grant,
            session: None,
            trace: Carried {
                traceparent: meta.traceparent,
                tracestate: meta.tracestate,
            },
            link: &self.link,
            // A call with a progress token stays with the SDK.
            request: Some((id.clone(), None)),
            sessionless: None,
        };
        let arguments = params.arguments.map_or(Value::Null, Value::Object);
        let reply = self
            .gateway
            .call(&client, &revision, &params.name, arguments, &NoAsker, None)
            .await;
        catalog_mcp::handler::log_call(&params.name, self.grant.access, &reply);
        let message = match reply.and_then(|response| shaped(response.into(), &revision)) {
            Ok(result) => ServerJsonRpcMessage::response(result, id),
            Err(error) => ServerJsonRpcMessage::error(error, Some(id)),
        };
        let Ok(mut line) = serde_json::to_vec(&message) else {
            return;
        };
        line.push(b'\n');
        // A closed output means the client left: nobody is waiting for the answer.
        let _ = self.lines.send(line);
    }
}

/// A result in the shape the SDK gives it on `revision`, as its request handler does
/// (`rmcp`'s `handle_request`): on 2026-07-28 and later with its cache hints, before it
/// without `resultType` and with a tool's output an object; a question to the user only
/// from 2026-07-28 on.
fn shaped(mut result: ServerResult, revision: &ProtocolVersion) -> Result<ServerResult, ErrorData> {
    let modern = revision.as_str() >= ProtocolVersion::V_2026_07_28.as_str();
    if modern {
        result.fill_missing_cache_hints();
    } else if matches!(result, ServerResult::InputRequiredResult(_)) {
        return Err(ErrorData::invalid_request(
            "InputRequiredResult requires negotiated protocol version 2026-07-28 or newer",
            None,
        ));
    } else {
        result.strip_result_type_for_legacy_peer();
        result.strip_non_object_output_for_legacy_peer();
    }
    Ok(result)
}
