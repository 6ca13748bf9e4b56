//! A handler's [`Context`](catalog_core::Context) over MCP: [`ClientPeer`] carries what
//! a handler says and asks to the client of the request it answers, through `rmcp`'s
//! peer, on the request's own stream (over HTTP the SDK sends a request made inside a
//! call on that call's response stream).
//!
//! What the client can be asked comes from what it declared (`initialize`'s
//! `capabilities`, or on 2026-07-28 the request's own `_meta`). From 2026-07-28 on a
//! server may send no request to the client while a call runs: there the peer carries
//! the call's rounds, and the handler's questions end the round instead (see
//! `crate::rounds`).

// MCP 2026-07-28 deprecates sampling, roots and logging (SEP-2577) and `rmcp` marks its
// types so; clients of 2025-11-25 use them.
#![allow(deprecated)]

use std::future::Future;
use std::sync::Arc;

use catalog_core::talk::{
    Capability, Declared, Elicited, LogLevel, Peer, Progress, Question, Root, Rounds, Sampled,
    Sampling, TalkError,
};
use catalog_core::{BoxFuture, Map, UrlElicitation, Value};
use rmcp::ServiceError;
use rmcp::model::{
    CreateMessageRequest, CreateMessageRequestParams, ElicitRequest, ElicitRequestParams,
    ElicitResult, ElicitationAction, InputRequest, ListRootsRequest, LoggingLevel,
    LoggingMessageNotificationParam, ProgressNotificationParam, ProgressToken, ProtocolVersion,
};
use rmcp::service::{RequestContext, RoleServer};
use tokio_util::sync::CancellationToken;

/// The client of one request, as a handler's context reaches it.
pub struct ClientPeer {
    peer: rmcp::Peer<RoleServer>,
    declared: Declared,
    /// The request's progress token: progress goes nowhere without one.
    progress: Option<ProgressToken>,
    /// The least severe level the client wants messages at, if it wants any.
    log: Option<LoggingLevel>,
    cancelled: CancellationToken,
    /// The call's rounds, on a revision that asks between rounds.
    round: Option<Arc<dyn Rounds>>,
}

impl std::fmt::Debug for ClientPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientPeer")
            .field("declared", &self.declared)
            .field("progress", &self.progress)
            .field("log", &self.log)
            .finish_non_exhaustive()
    }
}

impl ClientPeer {
    /// The client of the request `context` carries, which wants log messages at `log`
    /// and above (see [`crate::logging::ClientLevel::for_request`]), asked mid-call.
    #[must_use]
    pub fn new(context: &RequestContext<RoleServer>, log: Option<LoggingLevel>) -> ClientPeer {
        let declared = context
            .client_capabilities()
            .map_or(Declared::NONE, |capabilities| declared(&capabilities));
        ClientPeer {
            peer: context.peer.clone(),
            declared,
            progress: context.meta.get_progress_token(),
            log,
            cancelled: context.ct.clone(),
            round: None,
        }
    }

    /// The same client, asked between the rounds of `round` instead (2026-07-28).
    #[must_use]
    pub fn between_rounds(self, round: Arc<dyn Rounds>) -> ClientPeer {
        ClientPeer {
            round: Some(round),
            ..self
        }
    }

    /// Waits for `answer` unless the call is cancelled first.
    async fn answered<T>(
        &self,
        answer: impl Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, TalkError> {
        tokio::select! {
            answer = answer => answer.map_err(talk_error),
            () = self.cancelled.cancelled() => Err(TalkError::Gone(String::from("the call was cancelled"))),
        }
    }
}

/// What a client's `capabilities` declare, as a handler's context reads them. A client
/// that declares elicitation without naming a mode takes forms (2025-06-18's shape).
#[must_use]
pub fn declared(capabilities: &rmcp::model::ClientCapabilities) -> Declared {
    let mut declared = Declared::NONE;
    if let Some(sampling) = &capabilities.sampling {
        declared = declared.with(Capability::Sampling);
        if sampling.tools.is_some() {
            declared = declared.with(Capability::SamplingTools);
        }
    }
    if let Some(modes) = &capabilities.elicitation {
        if modes.form.is_some() || modes.url.is_none() {
            declared = declared.with(Capability::ElicitationForm);
        }
        if modes.url.is_some() {
            declared = declared.with(Capability::ElicitationUrl);
        }
    }
    if capabilities.roots.is_some() {
        declared = declared.with(Capability::Roots);
    }
    declared
}

/// Whether the request `context` carries is answered on a revision that asks the client
/// between rounds, never mid-call.
#[must_use]
pub fn asks_between_rounds(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28)
}

/// A form's request, as MCP writes it.
fn form(message: String, schema: Map<String, Value>) -> Result<ElicitRequestParams, TalkError> {
    Ok(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema: from_json("the form's schema", Value::Object(schema))?,
    })
}

/// A URL's request, as MCP writes it.
fn url(request: UrlElicitation) -> ElicitRequestParams {
    ElicitRequestParams::UrlElicitationParams {
        meta: None,
        message: request.message,
        url: request.url,
        elicitation_id: request.id,
    }
}

/// A question as an input-required result carries it.
///
/// # Errors
/// What about the question MCP cannot carry.
pub fn input_request(question: Question) -> Result<InputRequest, TalkError> {
    Ok(match question {
        Question::Form { message, schema } => {
            InputRequest::Elicitation(ElicitRequest::new(form(message, schema)?))
        }
        Question::Url(request) => InputRequest::Elicitation(ElicitRequest::new(url(request))),
        Question::Sample(request) => InputRequest::CreateMessage(CreateMessageRequest::new(
            from_json("the sampling request", request.to_json())?,
        )),
        Question::Roots => InputRequest::ListRoots(ListRootsRequest::default()),
    })
}

/// A failure to reach the client, as a handler reads it.
fn talk_error(error: ServiceError) -> TalkError {
    match error {
        ServiceError::McpError(error) => TalkError::Refused {
            code: i64::from(error.code.0),
            message: error.message.into_owned(),
        },
        other => TalkError::Gone(other.to_string()),
    }
}

/// MCP's level for a context's.
#[must_use]
pub fn mcp_level(level: LogLevel) -> LoggingLevel {
    match level {
        LogLevel::Debug => LoggingLevel::Debug,
        LogLevel::Info => LoggingLevel::Info,
        LogLevel::Notice => LoggingLevel::Notice,
        LogLevel::Warning => LoggingLevel::Warning,
        LogLevel::Error => LoggingLevel::Error,
        LogLevel::Critical => LoggingLevel::Critical,
        LogLevel::Alert => LoggingLevel::Alert,
        LogLevel::Emergency => LoggingLevel::Emergency,
    }
}

/// An `rmcp` type read from MCP's JSON that a handler wrote.
fn from_json<T: serde::de::DeserializeOwned>(what: &str, json: Value) -> Result<T, TalkError> {
    serde_json::from_value(json)
        .map_err(|e| TalkError::Invalid(format!("{what} is not MCP's: {e}")))
}

fn elicited(result: ElicitResult) -> Elicited {
    match result.action {
        ElicitationAction::Accept => Elicited::Accepted(match result.content {
            Some(Value::Object(content)) => content,
            _ => Map::new(),
        }),
        ElicitationAction::Decline => Elicited::Declined,
        _ => Elicited::Cancelled,
    }
}

impl Peer for ClientPeer {
    fn declared(&self) -> Declared {
        self.declared
    }

    fn progress(&self, progress: Progress) -> BoxFuture<'_, Result<(), TalkError>> {
        Box::pin(async move {
            let Some(token) = self.progress.clone() else {
                return Ok(());
            };
            let mut param = ProgressNotificationParam::new(token, progress.progress);
            param.total = progress.total;
            param.message = progress.message;
            self.peer.notify_progress(param).await.map_err(talk_error)
        })
    }

    fn log(
        &self,
        level: LogLevel,
        logger: Option<String>,
        data: Value,
    ) -> BoxFuture<'_, Result<(), TalkError>> {
        Box::pin(async move {
            let level = mcp_level(level);
            if !self
                .log
                .is_some_and(|wanted| crate::logging::admits(wanted, level))
            {
                return Ok(());
            }
            let mut message = LoggingMessageNotificationParam::new(level, data);
            message.logger = logger;
            self.peer
                .notify_logging_message(message)
                .await
                .map_err(talk_error)
        })
    }

    fn elicit_form(
        &self,
        message: String,
        schema: Map<String, Value>,
    ) -> BoxFuture<'_, Result<Elicited, TalkError>> {
        Box::pin(async move {
            let params = form(message, schema)?;
            self.answered(self.peer.create_elicitation(params))
                .await
                .map(elicited)
        })
    }

    fn elicit_url(&self, request: UrlElicitation) -> BoxFuture<'_, Result<Elicited, TalkError>> {
        Box::pin(async move {
            self.answered(self.peer.create_elicitation(url(request)))
                .await
                .map(elicited)
        })
    }

    fn sample(&self, request: Sampling) -> BoxFuture<'_, Result<Sampled, TalkError>> {
        Box::pin(async move {
            let params: CreateMessageRequestParams =
                from_json("the sampling request", request.to_json())?;
            let result = self.answered(self.peer.create_message(params)).await?;
            match serde_json::to_value(result) {
                Ok(Value::Object(result)) => Ok(Sampled::from_json(result)),
                _ => Err(TalkError::Invalid(String::from(
                    "the client's sampling result is not an object",
                ))),
            }
        })
    }

    fn roots(&self) -> BoxFuture<'_, Result<Vec<Root>, TalkError>> {
        Box::pin(async move {
            let listed = self.answered(self.peer.list_roots()).await?;
            Ok(listed
                .roots
                .into_iter()
                .map(|root| Root {
                    uri: root.uri,
                    name: root.name,
                })
                .collect())
        })
    }

    fn is_cancelled(&self) -> bool {
        self.cancelled.is_cancelled()
    }

    fn cancelled(&self) -> BoxFuture<'static, ()> {
        Box::pin(self.cancelled.clone().cancelled_owned())
    }

    fn rounds(&self) -> Option<&dyn Rounds> {
        self.round.as_deref()
    }
}
