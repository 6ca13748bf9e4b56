//! A `tools/call` from verdict to result: the row found and checked, forwarded to its
//! upstream (or answered, for the search tool), the result screened, and the call's audit
//! line, metrics and span written.

use std::sync::Arc;
use std::time::Instant;

use catalog_core::{BoxFuture, Dispatch, ErrorClass, Lookup as _, Rejection, Value, check_output};
use catalog_mcp::calls::{admit, refuse, respond};
use catalog_mcp::rounds::Round;
use catalog_mcp::{Asker, Grant};
use catalog_upstream::Answered;
use catalog_upstream::CallFailed;
use catalog_upstream::relay::Origin;
use opentelemetry::context::FutureExt as _;
use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, ProtocolVersion, ResultType};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Map;

use super::refusals::{limited, undiscovered, withheld};
use super::sessions::notify;
use super::{Gateway, Requester, Rows, Trail};
use crate::audit;
use crate::discovered::Discovered;
use crate::relay::{self as relays, Link};
use crate::rows::{Forward, Row, Runs};
use crate::traces::Traces;

impl Gateway {
    /// Answers one `tools/call` from `client` that speaks protocol `revision`
    /// (which decides, in `catalog_mcp::calls::refuse`, how a refusal travels).
    /// `discovery`, with [`Discoverable::Search`](super::Discoverable::Search), is where the session's search finds
    /// live and the request (which names the session, and the client to tell when a
    /// search adds to its list); `asker` puts the question about a gated call when the
    /// policy is to ask.
    ///
    /// In order: a search is answered here; a withheld row is refused, naming what
    /// changed; a discoverable row not yet found is refused, naming the search tool; a row
    /// the grant's profile does not see reads as unknown; then
    /// `catalog_mcp::calls::admit`, the gate of every MCP server here (level, arguments
    /// against the reviewed schema, the gated-tool policy); only then is the call
    /// forwarded to its upstream.
    ///
    /// A gated call asked about on 2026-07-28 is answered with the question itself (an
    /// input-required result), which the client's retry of the call answers.
    ///
    /// # Errors
    /// A refusal that `catalog_mcp::calls::refuse` makes a JSON-RPC error on `revision`.
    pub async fn call(
        &self,
        client: &Requester<'_>,
        revision: &ProtocolVersion,
        name: &str,
        arguments: Value,
        asker: &impl Asker,
        discovery: Option<(&Discovered, &RequestContext<RoleServer>)>,
    ) -> Result<CallToolResponse, ErrorData> {
        let started = Instant::now();
        // The arguments as sent, for the audit line; only when there is one to write.
        let sent = self.audit.as_ref().map(|_| arguments.clone());
        let mut trail = Trail::default();
        let answering = self.answer(
            client, revision, name, arguments, asker, discovery, &mut trail,
        );
        let (reply, span) = match &self.traces {
            Some(traces) => {
                let cx = traces.call(name, &client.grant.client, &client.trace);
                (answering.with_context(cx.clone()).await, Some(cx))
            }
            None => (answering.await, None),
        };
        self.record(
            client,
            name,
            sent.as_ref(),
            &reply,
            &trail,
            started,
            span.as_ref(),
        )
        .await;
        reply
    }

    /// [`Gateway::call`]'s answer, with what happened on the way in `trail`.
    #[allow(
        clippy::too_many_arguments,
        reason = "one call's request and client, and the trail it leaves"
    )]
    pub(super) async fn answer<'g>(
        &'g self,
        client: &Requester<'_>,
        revision: &ProtocolVersion,
        name: &str,
        arguments: Value,
        asker: &impl Asker,
        discovery: Option<(&Discovered, &RequestContext<RoleServer>)>,
        trail: &mut Trail<'g>,
    ) -> Result<CallToolResponse, ErrorData> {
        let grant = client.grant;
        let level = grant.access;
        let reachable = self
            .loaded
            .rows
            .find(name)
            .filter(|&row| self.permits(grant, row));
        if let Some((discovered, context)) = discovery {
            if name == self.loaded.rows.name(self.loaded.rows.search_tool()) {
                return self
                    .search(grant, revision, arguments, discovered, context)
                    .await
                    .map(CallToolResponse::from);
            }
            if let Some(row) = reachable {
                let active =
                    self.active(discovered.rows(&*self.loaded.rows, context, grant).await?);
                if !active.contains(row) && self.withheld(row).is_none() {
                    let search = self.loaded.rows.name(self.loaded.rows.search_tool());
                    return respond(&undiscovered(self.loaded.rows.name(row), search), revision);
                }
            }
        }
        if let Some(row) = reachable
            && let Some(standing) = self.withheld(row)
        {
            return respond(&withheld(self.loaded.rows.name(row), &standing), revision);
        }
        if reachable.is_some_and(|row| self.loaded.tool(row).upstream.is_none()) {
            // The ask tool, or a row of the application's own: nothing to forward it to.
            return respond(&Rejection::unknown_tool(name), revision);
        }
        if self
            .loaded
            .rows
            .find(name)
            .is_some_and(|row| !self.in_profile(grant, row))
        {
            // Outside the client's profile: as unknown as a tool the catalog lacks.
            return respond(&Rejection::unknown_tool(name), revision);
        }
        if let Some(row) = reachable {
            trail.upstream = self.loaded.upstream(row);
            if let Err(over) = self.limits.check(&grant.client, name) {
                trail.limited = true;
                return respond(&limited(self.loaded.rows.name(row), &over), revision);
            }
        }
        let tools = &*self.loaded.rows;
        let call = match admit::<Forward>(
            tools, level, revision, name, arguments, self.gated, asker,
        )
        .await
        {
            Ok(call) => call,
            Err(answer) => return answer,
        };
        let row = call.tool();
        let forwarder = self.forwarder(client, name, trail.upstream);
        let ran = match call.dispatch(&forwarder).await {
            Dispatch::Ran(ran) => ran,
            Dispatch::Search(_) => {
                return Err(ErrorData::internal_error(
                    "the search tool is answered before the verifier",
                    None,
                ));
            }
        };
        let result = match tool_result(ran) {
            Ok(Ok(result)) => result,
            Ok(Err(e)) => {
                return respond(&Rejection::runtime(self.loaded.rows.name(row), e), revision);
            }
            Err(needs_url) => return Err(needs_url),
        };
        trail.upstream_error = result.is_error == Some(true);
        // A result the upstream marks as an error is the tool's own answer; a success
        // must fit the output the catalog reviewed.
        if result.is_error != Some(true)
            && let Some(structured) = &result.structured_content
            && let Err(rejection) = check_output(self.loaded.rows.spec(row), structured)
        {
            return respond(&rejection, revision);
        }
        let mut result = match self.screen(row, result, &mut trail.findings) {
            Ok(result) => result,
            Err(rejection) => return respond(&rejection, revision),
        };
        // The resources the result links to are this client's to read.
        if let Some(upstream) = trail.upstream {
            for block in &result.content {
                if let ContentBlock::ResourceLink(link) = block {
                    client
                        .link
                        .handed(&link.uri, upstream, self.loaded.rows.name(row));
                }
            }
        }
        // The result as the upstream's session with the gateway read it; to this client it
        // is a complete result, which 2026-07-28 says in `resultType` (the SDK leaves the
        // field out for older revisions).
        result.result_type = Some(ResultType::COMPLETE);
        Ok(result.into())
    }

    /// What forwards `client`'s call of `name` to `upstream`, for the request that made
    /// it: a client without a session is its calls' relay, each call its own.
    pub(super) fn forwarder<'a>(
        &'a self,
        client: &Requester<'a>,
        name: &str,
        upstream: Option<&str>,
    ) -> Forwarder<'a> {
        let relay = client
            .sessionless
            .clone()
            .zip(upstream)
            .map(|(call, upstream)| {
                Arc::new(relays::CallRelay::new(
                    call,
                    upstream,
                    client.grant,
                    self.audit.clone(),
                )) as Arc<dyn catalog_upstream::relay::Relay>
            });
        let meta = client.sessionless.as_ref().map(|call| call.meta.clone());
        Forwarder {
            gateway: self,
            owner: &client.grant.client,
            link: client.link,
            origin: client.request.clone().map(|(request, progress)| Origin {
                request,
                progress,
                tool: name.to_owned(),
                relay,
                meta,
            }),
            between: client
                .sessionless
                .as_ref()
                .map(|call| Arc::clone(&call.round)),
        }
    }

    /// Writes the call's audit line (before the answer goes out) and counts it in the
    /// metrics: how it ended, by whom, to which upstream, how long it took.
    #[allow(
        clippy::too_many_arguments,
        reason = "everything one audit line says of one call"
    )]
    pub(super) async fn record(
        &self,
        client: &Requester<'_>,
        tool: &str,
        sent: Option<&Value>,
        reply: &Result<CallToolResponse, ErrorData>,
        trail: &Trail<'_>,
        started: Instant,
        span: Option<&opentelemetry::Context>,
    ) {
        if self.audit.is_none() && self.metrics.is_none() && span.is_none() {
            return;
        }
        let grant = client.grant;
        let (verdict, error) = verdict(reply, trail);
        let elapsed = started.elapsed();
        if let Some(cx) = span {
            Traces::end(cx, verdict, error.as_deref());
        }
        if let Some(metrics) = &self.metrics {
            metrics.call(tool, verdict, &grant.client, elapsed);
        }
        let (Some(audit), Some(sent)) = (&self.audit, sent) else {
            return;
        };
        let line = audit::Line {
            time: jiff::Timestamp::now().to_string(),
            client: &grant.client,
            profile: grant.profile.as_deref(),
            session: client.session,
            tool,
            upstream: trail.upstream,
            verdict,
            error: error.as_deref(),
            arguments_digest: catalog_check::pin::digest(sent),
            arguments: (audit.arguments() == audit::Arguments::Values).then_some(sent),
            duration_ms: elapsed.as_secs_f64() * 1000.0,
            result_bytes: match reply {
                Ok(CallToolResponse::Complete(result)) => {
                    serde_json::to_vec(result).map_or(0, |b| b.len())
                }
                Ok(_) => 0,
                Err(error) => serde_json::to_vec(error).map_or(0, |b| b.len()),
            },
            findings: &trail.findings,
            trace_id: span.map(Traces::trace_id),
        };
        if let Err(e) = audit.write(&line).await {
            tracing::error!(error = %e, file = %audit.file().display(), "an audit line could not be written");
            if let Some(metrics) = &self.metrics {
                metrics.audit_error();
            }
        }
    }

    /// An upstream's result as the client's model reads it ([`catalog_mcp::calls::screen`]).
    pub(super) fn screen(
        &self,
        row: Row,
        result: CallToolResult,
        findings: &mut Vec<String>,
    ) -> Result<CallToolResult, Rejection> {
        catalog_mcp::calls::screen(&self.scanner, self.loaded.rows.name(row), result, findings)
    }

    /// A search call: its arguments checked against the search row, then the catalog's
    /// search over what this client may call; discoverable hits join the session's list,
    /// kept (in the shared store, when there is one) before the answer goes out.
    pub(super) async fn search(
        &self,
        grant: &Grant,
        revision: &ProtocolVersion,
        arguments: Value,
        discovered: &Discovered,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let search = self.loaded.rows.spec(self.loaded.rows.search_tool());
        let arguments = if arguments.is_null() {
            Value::Object(Map::new())
        } else {
            arguments
        };
        let issues = catalog_core::check_value(&search.input, &arguments);
        if !issues.is_empty() {
            return refuse(&Rejection::invalid_arguments(search.name, issues), revision);
        }
        let query = arguments
            .as_object()
            .and_then(|args| args.values().find_map(Value::as_str))
            .unwrap_or_default();
        let (outcome, found, grew) = {
            let before = discovered.rows(&*self.loaded.rows, context, grant).await?;
            self.searched(grant, &before, query)
        };
        let retention = self.loaded.rows.settings().keep_discovered;
        discovered
            .keep(&*self.loaded.rows, context, grant, &found, retention)
            .await?;
        if grew {
            notify(vec![context.peer.clone()]);
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(outcome)]))
    }

    /// The catalog's search for `query` over what `grant` may call, after the session
    /// found `before`: the outcome as the client reads it, the names of what the session
    /// has found now, and whether its active rows grew. Synchronous, and no set comes
    /// out: the discovery state and its sets are kilobytes, kept out of the futures.
    pub(super) fn searched(
        &self,
        grant: &Grant,
        before: &Rows,
        query: &str,
    ) -> (String, Vec<&str>, bool) {
        let mut state = self.discovery().restricted_to(self.callable(grant));
        for row in before {
            state.load(row);
        }
        let active = state.active();
        // MCP has no user turns to renew the budget at: each search is its own turn.
        state.new_turn();
        let outcome = state.search(query).to_json();
        let found = state
            .discovered()
            .iter()
            .map(|row| self.loaded.rows.name(row))
            .collect();
        (outcome, found, state.active() != active)
    }
}

/// What forwards one verified call: the gateway, through the calling client's link, for
/// the client request that made it.
pub(super) struct Forwarder<'a> {
    gateway: &'a Gateway,
    /// The client that calls, whose task a task the upstream makes of the call is.
    owner: &'a Arc<str>,
    link: &'a Link,
    origin: Option<Origin>,
    /// The call's round, for a client asked between rounds (2026-07-28).
    between: Option<Arc<Round>>,
}

impl Runs for Forwarder<'_> {
    fn forward(&self, row: Row, arguments: Value) -> BoxFuture<'_, Result<Value, CallFailed>> {
        Box::pin(async move {
            let gateway = self.gateway;
            let source = gateway.loaded.tool(row).upstream.as_ref().ok_or_else(|| {
                CallFailed::Session(format!(
                    "`{}` has no upstream",
                    gateway.loaded.rows.name(row)
                ))
            })?;
            // A client asked between rounds reaches an upstream that asks so too through
            // the gateway's session at its revision: the upstream's questions go to the
            // client as they came.
            let modern = match &self.between {
                Some(_) => gateway.session_between_rounds(&source.upstream).await,
                None => None,
            };
            let session = match &modern {
                Some(session) => Arc::clone(session),
                None => gateway
                    .session_for(self.link, &source.upstream)
                    .await
                    .map_err(CallFailed::Session)?,
            };
            let arguments = match arguments {
                Value::Object(map) => map,
                _ => Map::new(),
            };
            // At debug: the audit log is the record of each call, and a line per call on
            // standard error costs more than the rest of the call does.
            tracing::debug!(tool = gateway.loaded.rows.name(row), upstream = %source.upstream, "forwarding a verified call");
            let sent = Instant::now();
            let span = gateway.traces.as_ref().map(|traces| {
                traces.upstream(
                    &opentelemetry::Context::current(),
                    &source.upstream,
                    &source.tool,
                )
            });
            let result = match (modern.is_some(), &self.between) {
                (true, Some(round)) => {
                    let (answers, state) = round.for_upstream();
                    let origin = self.origin.clone();
                    match session
                        .call_between_rounds(&source.tool, arguments, origin, answers, state)
                        .await
                    {
                        Ok(Answered::Done(value)) => Ok(value),
                        Ok(Answered::Asking(asked)) => {
                            // The round ends with the upstream's questions; the retry
                            // brings their answers.
                            round.relay(asked);
                            std::future::pending().await
                        }
                        Ok(Answered::Task(created)) => {
                            // The call ends with the task, under the gateway's own id.
                            let tasks = &gateway.tasks;
                            let created = tasks.relay(self.owner, row, &source.upstream, created);
                            tracing::info!(
                                client = %self.owner,
                                tool = gateway.loaded.rows.name(row),
                                upstream = %source.upstream,
                                task = %created.task.task_id,
                                "an upstream made the call a task, passed on"
                            );
                            round.became_task(created);
                            std::future::pending().await
                        }
                        Err(failed) => Err(failed),
                    }
                }
                _ => {
                    session
                        .call(&source.tool, arguments, self.origin.clone())
                        .await
                }
            };
            if let Some(metrics) = &gateway.metrics {
                metrics.upstream_request(&source.upstream, sent.elapsed());
            }
            if let Some(cx) = &span {
                let failed = result.as_ref().err().map(|_| "upstream_error");
                Traces::end(cx, if failed.is_some() { "failed" } else { "ok" }, failed);
            }
            result
        })
    }

    fn is_search(&self, row: Row) -> bool {
        row == self.gateway.loaded.rows.search_tool()
    }
}

/// What a forwarded call came to: the upstream's tool result, or why there is none; or the
/// upstream's own error for the client to act on (`-32042`, `-32021`, `-32602`), as it
/// sent it.
pub(super) fn tool_result(
    ran: Result<catalog_core::Output, CallFailed>,
) -> Result<Result<CallToolResult, String>, ErrorData> {
    match ran {
        // A URL to visit first, a capability the client did not declare, or params the
        // upstream refuses (answers to its questions, say): the client's to act on, as the
        // upstream sent it.
        Err(CallFailed::Refused { error, .. })
            if error.code.0 == catalog_mcp::calls::URL_ELICITATION_REQUIRED
                || error.code == rmcp::model::ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
                || error.code == rmcp::model::ErrorCode::INVALID_PARAMS =>
        {
            Err(error)
        }
        Err(failed) => Ok(Err(failed.to_string())),
        Ok(output) => {
            let value = output.into_model_value().unwrap_or_default();
            Ok(serde_json::from_value::<CallToolResult>(value)
                .map_err(|e| format!("the upstream's result is not a tool result: {e}")))
        }
    }
}

/// How a call ended, as the audit log and the metrics name it, and the class of a
/// refusal or failure.
pub(super) fn verdict(
    reply: &Result<CallToolResponse, ErrorData>,
    trail: &Trail<'_>,
) -> (&'static str, Option<String>) {
    let class = |json: &Value| json.get("error").and_then(Value::as_str).map(str::to_owned);
    match reply {
        _ if trail.limited => (
            "limited",
            Some(ErrorClass::RuntimeError.as_str().to_owned()),
        ),
        Err(error) => (
            "refused",
            error
                .data
                .as_ref()
                .and_then(class)
                .or_else(|| Some(format!("JSON-RPC {}", error.code.0))),
        ),
        Ok(CallToolResponse::Complete(result)) if result.is_error == Some(true) => {
            if trail.upstream_error {
                return ("tool-error", None);
            }
            let json = result
                .content
                .first()
                .and_then(|block| block.as_text())
                .and_then(|text| serde_json::from_str::<Value>(&text.text).ok());
            let class = json.as_ref().and_then(class);
            let verdict = if class.as_deref() == Some(ErrorClass::RuntimeError.as_str()) {
                "failed"
            } else {
                "refused"
            };
            (verdict, class)
        }
        Ok(CallToolResponse::Complete(_)) => ("ok", None),
        Ok(_) => ("asked", None),
    }
}
