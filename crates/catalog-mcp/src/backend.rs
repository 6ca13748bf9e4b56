//! What one MCP server answers, capability by capability: a [`Backend`]. Every server here
//! is the one `ServerHandler`, [`Server`](crate::handler::Server), over a backend: a
//! crate's own catalog ([`Served`](crate::served::Served)) or the gateway's session with
//! its upstreams. What all servers do alike is the handler's: reading each request's
//! grant from its connection's [`Level`] before a backend sees it, running prompts and
//! reads between rounds (2026-07-28), private listings, complete results, the client's
//! log level.

use std::future::{Future, ready};
use std::sync::Arc;

use axum::http::request::Parts;
use rmcp::ErrorData;
#[allow(
    deprecated,
    reason = "MCP logging: deprecated on 2026-07-28, served up to it"
)]
use rmcp::model::LoggingLevel;
use rmcp::model::{
    CallToolRequestParams, CancelTaskParams, CompleteRequestParams, CompleteResult,
    GetPromptRequestParams, GetPromptResult, GetTaskParams, GetTaskResult, InitializeRequestParams,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ReadResourceRequestParams,
    ReadResourceResult, ServerConfig, SubscriptionFilter, Tool, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer, SubscriptionContext};

use crate::calls::Reply;
use crate::logging::ClientLevel;
use crate::rounds::{Round, Seal};
use crate::talk::ClientPeer;
use crate::tokens::Grant;

/// Where a connection's access level comes from.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Level {
    /// One grant for the whole connection: stdio, from the command line.
    Fixed(Grant),
    /// Each request's own [`Grant`]: streamable HTTP, from its bearer token.
    PerRequest,
}

impl Level {
    /// Who sent `context`'s request and what it may do. Over HTTP a request reaches a
    /// handler only through the token check, so a missing grant is a fault: refused, not
    /// defaulted.
    ///
    /// # Errors
    /// An invalid-request error when a per-request grant is missing.
    pub fn grant(&self, context: &RequestContext<RoleServer>) -> Result<Grant, ErrorData> {
        match self {
            Level::Fixed(grant) => Ok(grant.clone()),
            Level::PerRequest => context
                .extensions
                .get::<Parts>()
                .and_then(|parts| parts.extensions.get::<Grant>())
                .cloned()
                .ok_or_else(|| {
                    ErrorData::invalid_request("this request carries no access level", None)
                }),
        }
    }
}

/// One request as a [`Backend`] answers it. Only the handler makes one, after reading
/// the request's grant from its connection's level: a backend is never asked without it.
#[derive(Debug)]
pub struct Request<'a> {
    grant: Grant,
    context: &'a RequestContext<RoleServer>,
    log: &'a ClientLevel,
}

impl<'a> Request<'a> {
    pub(crate) fn new(
        grant: Grant,
        context: &'a RequestContext<RoleServer>,
        log: &'a ClientLevel,
    ) -> Self {
        Request {
            grant,
            context,
            log,
        }
    }

    /// Who sent the request and what they may do.
    #[must_use]
    pub fn grant(&self) -> &Grant {
        &self.grant
    }

    /// The request as `rmcp` gave it: its id, `_meta`, HTTP parts and client.
    #[must_use]
    pub fn context(&self) -> &'a RequestContext<RoleServer> {
        self.context
    }

    /// The level of log messages the session's client asked for.
    #[must_use]
    pub fn log(&self) -> &'a ClientLevel {
        self.log
    }
}

/// The client as a prompt's or a resource's answer reaches it: mid-request up to
/// 2025-11-25, between rounds (`round`) from 2026-07-28 on.
#[derive(Debug)]
pub struct Asking {
    /// The client, as a handler's context talks to it.
    pub peer: ClientPeer,
    /// The request's round, when it runs between rounds.
    pub round: Option<Arc<Round>>,
}

/// A capability this server does not declare.
#[must_use]
pub fn undeclared() -> ErrorData {
    ErrorData::new(
        rmcp::model::ErrorCode::METHOD_NOT_FOUND,
        "this server declares no such capability",
        None,
    )
}

/// What one connection's server answers. Each method gets the [`Request`] with its grant;
/// what a server does not serve has a default that says it has no such capability.
pub trait Backend: Send + Sync + 'static {
    /// How the server introduces itself to a connection at `level`; the handler adds the
    /// logging capability every server here has.
    fn info(&self, level: &Level) -> ServerConfig;

    /// The seal of the state of this server's requests between rounds (2026-07-28).
    fn seal(&self) -> &Seal;

    /// A client began a session with `initialize`.
    ///
    /// # Errors
    /// A session this server refuses.
    fn began(
        &self,
        initialize: &InitializeRequestParams,
        request: &Request<'_>,
    ) -> Result<(), ErrorData> {
        let _ = (initialize, request);
        Ok(())
    }

    /// The client said `notifications/initialized`.
    fn initialized(
        &self,
        context: NotificationContext<RoleServer>,
    ) -> impl Future<Output = ()> + Send {
        let _ = context;
        ready(())
    }

    /// The client said its roots changed.
    fn roots_changed(&self) -> impl Future<Output = ()> + Send {
        ready(())
    }

    /// The client asked for log messages at `level` from now on.
    #[allow(
        deprecated,
        reason = "MCP logging: deprecated on 2026-07-28, served up to it"
    )]
    fn log_level(&self, level: LoggingLevel) -> impl Future<Output = ()> + Send {
        let _ = level;
        ready(())
    }

    /// Tool `name` as a connection at `level` would list it, asked with no request (see
    /// `ServerHandler::get_tool`).
    fn tool(&self, name: &str, level: &Level) -> Option<Tool>;

    /// The tools `request`'s client may see now.
    fn tools(
        &self,
        request: &Request<'_>,
    ) -> impl Future<Output = Result<Vec<Tool>, ErrorData>> + Send;

    /// Answers one `tools/call`.
    fn call_tool(
        &self,
        call: CallToolRequestParams,
        request: &Request<'_>,
    ) -> impl Future<Output = Reply> + Send;

    /// The prompts `request`'s client may list.
    ///
    /// # Errors
    /// By default, no such capability.
    fn prompts(&self, request: &Request<'_>) -> Result<ListPromptsResult, ErrorData> {
        let _ = request;
        Err(undeclared())
    }

    /// One prompt, filled in; `asking` reaches the client.
    fn get_prompt(
        &self,
        prompt: GetPromptRequestParams,
        request: &Request<'_>,
        asking: Asking,
    ) -> impl Future<Output = Result<GetPromptResult, ErrorData>> + Send {
        let _ = (prompt, request, asking);
        ready(Err(undeclared()))
    }

    /// The resources `request`'s client may list.
    ///
    /// # Errors
    /// By default, no such capability.
    fn resources(&self, request: &Request<'_>) -> Result<ListResourcesResult, ErrorData> {
        let _ = request;
        Err(undeclared())
    }

    /// The resource templates `request`'s client may list.
    ///
    /// # Errors
    /// By default, no such capability.
    fn templates(&self, request: &Request<'_>) -> Result<ListResourceTemplatesResult, ErrorData> {
        let _ = request;
        Err(undeclared())
    }

    /// One resource's contents; `asking` reaches the client.
    fn read(
        &self,
        read: ReadResourceRequestParams,
        request: &Request<'_>,
        asking: Asking,
    ) -> impl Future<Output = Result<ReadResourceResult, ErrorData>> + Send {
        let _ = (read, request, asking);
        ready(Err(undeclared()))
    }

    /// Completions of a prompt's or a template's argument.
    fn complete(
        &self,
        complete: CompleteRequestParams,
        request: &Request<'_>,
    ) -> impl Future<Output = Result<CompleteResult, ErrorData>> + Send {
        let _ = (complete, request);
        ready(Err(undeclared()))
    }

    /// What of a `subscriptions/listen` filter the server takes (see
    /// `ServerHandler::accepted_subscription_filter`): by default nothing.
    fn accepted(&self, requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        let _ = requested;
        None
    }

    /// Runs one subscription until it is cancelled; `grant` is its request's.
    fn listen(
        &self,
        subscription: SubscriptionContext,
        grant: Grant,
    ) -> impl Future<Output = Result<(), ErrorData>> + Send {
        let _ = (subscription, grant);
        ready(Err(undeclared()))
    }

    /// `resources/subscribe` (up to 2025-11-25).
    fn subscribe(
        &self,
        uri: &str,
        request: &Request<'_>,
    ) -> impl Future<Output = Result<(), ErrorData>> + Send {
        let _ = (uri, request);
        ready(Err(undeclared()))
    }

    /// `resources/unsubscribe` (up to 2025-11-25).
    fn unsubscribe(
        &self,
        uri: &str,
        request: &Request<'_>,
    ) -> impl Future<Output = Result<(), ErrorData>> + Send {
        let _ = (uri, request);
        ready(Err(undeclared()))
    }

    /// `tasks/get`.
    fn get_task(
        &self,
        task: GetTaskParams,
        request: &Request<'_>,
    ) -> impl Future<Output = Result<GetTaskResult, ErrorData>> + Send;

    /// `tasks/update`: the client's answers to a task's questions.
    fn update_task(
        &self,
        task: UpdateTaskParams,
        request: &Request<'_>,
    ) -> impl Future<Output = Result<(), ErrorData>> + Send;

    /// `tasks/cancel`.
    fn cancel_task(
        &self,
        task: CancelTaskParams,
        request: &Request<'_>,
    ) -> impl Future<Output = Result<(), ErrorData>> + Send;
}
