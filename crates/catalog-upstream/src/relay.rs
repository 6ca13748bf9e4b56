//! What an upstream sends that is for a client: the messages and requests a relay (the
//! gateway's) passes on to the client whose request caused them, in the order the
//! upstream sent them.
//!
//! Each forwarded call names its [`Origin`]: the client's request, and the progress token
//! the client gave it. The session keeps the calls in flight (`Calls`) by the
//! upstream's own request id and progress token, so that what the upstream sends is
//! routed back:
//! - progress goes to the call whose token it carries, under the client's token (the SDK
//!   gives every request a token of its own, so the client's cannot be passed on);
//! - a request of the upstream's (sampling, elicitation, roots, any other) goes with the
//!   call it arrived for: over HTTP the stream it came on names that call, over stdio the
//!   call in flight when there is one alone;
//! - log messages, resource updates and task status go to the relay, with the call in
//!   flight when there is one alone.
//!
//! A session belongs to one client (the gateway keeps one per client where several share
//! an upstream), so whatever the upstream sends reaches that client and no other; but a
//! call may carry a relay of its own ([`Origin::relay`]), for a client without a session
//! (MCP 2026-07-28), and what the upstream sends for that call goes there instead.
//!
//! Notifications are relayed in line: the next message from the upstream is read only
//! once the last one is handed on, so a call's progress and messages reach the client
//! before its answer does.

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use catalog_core::BoxFuture;
use rmcp::ErrorData;
use rmcp::model::{
    ClientCapabilities, ClientJsonRpcMessage, ClientResult, ElicitationCapability,
    FormElicitationCapability, GetExtensions as _, GetMeta as _, ProgressToken, RequestId,
    RequestMetaObject, RootsCapabilities, SamplingCapability, ServerJsonRpcMessage,
    ServerNotification, ServerRequest, UrlElicitationCapability,
};
use rmcp::service::RoleClient;
use rmcp::transport::Transport;
use tokio_util::sync::CancellationToken;

/// The client request a forwarded call answers.
#[derive(Clone)]
pub struct Origin {
    /// The client's request id.
    pub request: RequestId,
    /// The client's progress token, when it asked for progress.
    pub progress: Option<ProgressToken>,
    /// The tool the client called, as it named it.
    pub tool: String,
    /// Where what the upstream sends for this call goes, when not to the session's relay:
    /// the call's own client, which has no session of its own (MCP 2026-07-28).
    pub relay: Option<Arc<dyn Relay>>,
    /// What the client's own request says of it (MCP 2026-07-28 `_meta`: its
    /// capabilities, the log level it wants), said of it again in the request to the
    /// upstream, over the session's own.
    pub meta: Option<RequestMetaObject>,
}

impl std::fmt::Debug for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Origin")
            .field("request", &self.request)
            .field("progress", &self.progress)
            .field("tool", &self.tool)
            .field("relay", &self.relay.is_some())
            .field("meta", &self.meta)
            .finish()
    }
}

impl Origin {
    /// Where what the upstream sends for this call goes: its own relay, or `session`'s.
    #[must_use]
    pub fn relay<'a>(&'a self, session: Option<&'a Arc<dyn Relay>>) -> Option<&'a Arc<dyn Relay>> {
        self.relay.as_ref().or(session)
    }
}

/// Where what an upstream sends for a client goes.
pub trait Relay: Send + Sync + 'static {
    /// What the upstream is told the client can do: what the client behind the relay
    /// declared, of what a relay passes on.
    fn capabilities(&self) -> ClientCapabilities;

    /// A notification for the client (progress already carries the client's token),
    /// sent while `origin` ran, if that is known.
    fn notify(
        &self,
        notification: ServerNotification,
        origin: Option<Arc<Origin>>,
    ) -> BoxFuture<'static, ()>;

    /// A request of the upstream's for the client, made while `origin` ran if that is
    /// known; `cancelled` fires when the upstream withdraws it.
    fn request(
        &self,
        request: ServerRequest,
        origin: Option<Arc<Origin>>,
        cancelled: CancellationToken,
    ) -> BoxFuture<'static, Result<ClientResult, ErrorData>>;
}

/// Everything a client can be asked through a relay: sampling (with tools and context),
/// elicitation (forms and URLs), roots. What an importer declares, so that a server
/// lists the tools it keeps for clients that can.
#[must_use]
pub fn relayable() -> ClientCapabilities {
    let mut sampling = SamplingCapability::default();
    sampling.tools = Some(serde_json::Map::new());
    sampling.context = Some(serde_json::Map::new());
    let mut elicitation = ElicitationCapability::default();
    elicitation.form = Some(FormElicitationCapability::default());
    elicitation.url = Some(UrlElicitationCapability::default());
    let mut roots = RootsCapabilities::default();
    roots.list_changed = Some(true);
    let mut capabilities = ClientCapabilities::default();
    capabilities.sampling = Some(sampling);
    capabilities.elicitation = Some(elicitation);
    capabilities.roots = Some(roots);
    capabilities
}

/// The forwarded calls a session has in flight, by the upstream's request id and
/// progress token. A session has a few in flight at a time, so a list searched in order
/// costs less than hashing each id.
#[derive(Debug, Default)]
pub(crate) struct Calls(Mutex<Vec<InFlight>>);

#[derive(Debug)]
struct InFlight {
    request: RequestId,
    token: Option<ProgressToken>,
    origin: Arc<Origin>,
}

impl Calls {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<InFlight>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A call went out as request `request` with progress token `token`.
    pub(crate) fn open(
        &self,
        request: RequestId,
        token: Option<ProgressToken>,
        origin: Arc<Origin>,
    ) {
        self.lock().push(InFlight {
            request,
            token,
            origin,
        });
    }

    /// Request `request` was answered, or given up.
    pub(crate) fn close(&self, request: &RequestId) {
        let mut calls = self.lock();
        if let Some(at) = calls.iter().position(|c| c.request == *request) {
            calls.swap_remove(at);
        }
    }

    /// The call that gave progress token `token`.
    fn by_token(&self, token: &ProgressToken) -> Option<Arc<Origin>> {
        self.lock()
            .iter()
            .find(|c| c.token.as_ref() == Some(token))
            .map(|c| Arc::clone(&c.origin))
    }

    /// The call sent as `request`.
    pub(crate) fn by_request(&self, request: &RequestId) -> Option<Arc<Origin>> {
        self.lock()
            .iter()
            .find(|c| c.request == *request)
            .map(|c| Arc::clone(&c.origin))
    }

    /// The call in flight, when there is one alone.
    pub(crate) fn sole(&self) -> Option<Arc<Origin>> {
        match self.lock().as_slice() {
            [call] => Some(Arc::clone(&call.origin)),
            _ => None,
        }
    }
}

/// Whether `method` names a notification the relay passes on (not one the session
/// itself reads: cancellation, and the lists that changed, which the gateway compares
/// again).
#[must_use]
pub(crate) fn relays(method: &str) -> bool {
    matches!(
        method,
        "notifications/progress"
            | "notifications/message"
            | "notifications/resources/updated"
            | "notifications/tasks/status"
            | "notifications/elicitation/complete"
    )
}

/// Whether the relay passes `notification` on ([`relays`]).
fn relayed(notification: &ServerNotification) -> bool {
    match notification {
        ServerNotification::ProgressNotification(_)
        | ServerNotification::LoggingMessageNotification(_)
        | ServerNotification::ResourceUpdatedNotification(_) => true,
        ServerNotification::CustomNotification(custom) => relays(&custom.method),
        _ => false,
    }
}

/// Hands one notification of the upstream's to `relay`, routed by `calls`: progress to
/// its call under the client's token (none when the client asked for none), the rest
/// with the call in flight when there is one alone; each to the call's own relay when it
/// has one.
pub(crate) async fn route(
    relay: Option<&Arc<dyn Relay>>,
    calls: &Calls,
    notification: ServerNotification,
) {
    match notification {
        ServerNotification::ProgressNotification(mut progress) => {
            let Some(origin) = calls.by_token(&progress.params.progress_token) else {
                tracing::debug!("progress of a call no longer in flight; dropped");
                return;
            };
            let Some(token) = origin.progress.clone() else {
                return;
            };
            progress.params.progress_token = token;
            let Some(to) = origin.relay(relay).cloned() else {
                return;
            };
            to.notify(
                ServerNotification::ProgressNotification(progress),
                Some(origin),
            )
            .await;
        }
        other => {
            let origin = calls.sole();
            let to = match &origin {
                Some(origin) => origin.relay(relay).cloned(),
                None => relay.cloned(),
            };
            if let Some(to) = to {
                to.notify(other, origin).await;
            }
        }
    }
}

/// An upstream's transport with the relay in front of the SDK's session: requests going
/// out for a client's (a call, a prompt, a resource) are entered in [`Calls`] (their
/// [`Origin`] rides in the request's extensions), the notifications coming in for a
/// client are relayed before the next message is read, and answers close their calls.
/// Over stdio the notifications were taken off the line before (see `express`), so only
/// the requests are entered here.
pub(crate) struct Relaying<T> {
    pub(crate) inner: T,
    pub(crate) relay: Option<Arc<dyn Relay>>,
    pub(crate) calls: Arc<Calls>,
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Relaying<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        if let ClientJsonRpcMessage::Request(request) = &item
            && let Some(origin) = request.request.extensions().get::<Arc<Origin>>()
        {
            let token = request.request.get_meta().get_progress_token();
            self.calls
                .open(request.id.clone(), token, Arc::clone(origin));
        }
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<ServerJsonRpcMessage> {
        loop {
            let message = self.inner.receive().await?;
            match &message {
                ServerJsonRpcMessage::Notification(notification)
                    if relayed(&notification.notification) =>
                {
                    if let ServerJsonRpcMessage::Notification(n) = message {
                        route(self.relay.as_ref(), &self.calls, n.notification).await;
                    }
                    continue;
                }
                ServerJsonRpcMessage::Response(response) => self.calls.close(&response.id),
                ServerJsonRpcMessage::Error(error) => {
                    if let Some(id) = &error.id {
                        self.calls.close(id);
                    }
                }
                _ => {}
            }
            return Some(message);
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
