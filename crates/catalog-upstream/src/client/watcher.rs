//! The client side of one upstream session ([`Watcher`]): what the upstream learns of the
//! client behind it, the changes it announces, and its requests handed to the relay.

use std::sync::Arc;

use rmcp::model::GetMeta as _;
use rmcp::model::{
    ClientConfig, ClientResult, CreateMessageRequest, CreateMessageRequestParams,
    CreateMessageResult, CustomRequest, CustomResult, ElicitRequest, ElicitRequestParams,
    ElicitResult, Implementation, ListRootsRequest, ListRootsResult, ProtocolVersion,
    ServerRequest,
};
use rmcp::service::{InboundStreamOrigin, NotificationContext, RequestContext, RoleClient};
use rmcp::{ClientHandler, ErrorData};
use tokio::sync::mpsc::UnboundedSender;

use crate::relay::{self, Calls, Origin, Relay};
use crate::rounds::{self, Asks};

use super::Client;

/// The client side of one upstream session: introduces the program with the
/// capabilities of the client behind it, reports what the upstream says changed by the
/// upstream's name, and hands the upstream's requests to the relay.
pub(super) struct Watcher {
    pub(super) client: Client,
    pub(super) name: String,
    pub(super) changed: Option<UnboundedSender<String>>,
    pub(super) relay: Option<Arc<dyn Relay>>,
    pub(super) calls: Arc<Calls>,
}

impl ClientHandler for Watcher {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.client_info = Implementation::new(self.client.name, self.client.version);
        // The handshake's revision: 2026-07-28 would make every request of this session
        // carry its own, and the upstream could not ask the client anything mid-call.
        info.protocol_version = ProtocolVersion::V_2025_11_25;
        info.capabilities = self
            .relay
            .as_ref()
            .map_or_else(relay::relayable, |relay| relay.capabilities());
        info
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let request = ServerRequest::CreateMessageRequest(CreateMessageRequest::new(params));
        match self.relayed(request, &context).await? {
            ClientResult::CreateMessageResult(result) => Ok(*result),
            other => Err(unexpected(&other)),
        }
    }

    async fn list_roots(
        &self,
        context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        let request = ServerRequest::ListRootsRequest(ListRootsRequest::default());
        match self.relayed(request, &context).await? {
            ClientResult::ListRootsResult(result) => Ok(result),
            other => Err(unexpected(&other)),
        }
    }

    async fn create_elicitation(
        &self,
        params: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
        match self.relayed(request, &context).await? {
            ClientResult::ElicitResult(result) => Ok(result),
            other => Err(unexpected(&other)),
        }
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleClient>,
    ) -> Result<CustomResult, ErrorData> {
        match self
            .relayed(ServerRequest::CustomRequest(request), &context)
            .await?
        {
            ClientResult::CustomResult(result) => Ok(result),
            other => serde_json::to_value(other)
                .map(CustomResult)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None)),
        }
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

/// The error for a client's answer of the wrong kind.
pub(super) fn unexpected(answer: &ClientResult) -> ErrorData {
    ErrorData::internal_error(
        format!("the client answered with something else: {answer:?}"),
        None,
    )
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

    /// Hands a request of the upstream's to the relay, with the call it was made for:
    /// the one whose response stream it came on (HTTP), or the one in flight when there
    /// is one alone. Without a relay, nobody can be asked.
    async fn relayed(
        &self,
        mut request: ServerRequest,
        context: &RequestContext<RoleClient>,
    ) -> Result<ClientResult, ErrorData> {
        // The request's `_meta` goes on with it (a task it belongs to, say), but for the
        // progress token: each leg of the way has its own.
        let mut meta = context.meta.clone();
        meta.remove("progressToken");
        request.get_meta_mut().extend(meta);
        // On the standalone stream (a server that names no request it relates to), or
        // over stdio, it is taken to belong to the call in flight when there is one alone.
        let origin = match context.extensions.get::<InboundStreamOrigin>() {
            Some(InboundStreamOrigin::OutboundRequest(id)) => self.calls.by_request(id),
            _ => self.calls.sole(),
        };
        self.relay_request(request, origin, context.ct.clone())
            .await
    }

    /// Asks the client behind the relay `request`, for the call `origin` (through the
    /// call's own relay when it has one); an accepted form comes back with the defaults it
    /// left out.
    async fn relay_request(
        &self,
        request: ServerRequest,
        origin: Option<Arc<Origin>>,
        cancelled: tokio_util::sync::CancellationToken,
    ) -> Result<ClientResult, ErrorData> {
        let to = match &origin {
            Some(origin) => origin.relay(self.relay.as_ref()),
            None => self.relay.as_ref(),
        };
        let Some(relay) = to.cloned() else {
            return Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                format!("`{}` has no client behind it to ask", self.client.name),
                None,
            ));
        };
        let form = match &request {
            ServerRequest::ElicitRequest(asked) => Some(asked.params.clone()),
            _ => None,
        };
        let mut answer = relay.request(request, origin, cancelled).await?;
        if let (Some(asked), ClientResult::ElicitResult(result)) = (&form, &mut answer) {
            rounds::apply_defaults(asked, result);
        }
        Ok(answer)
    }
}

impl Asks for Watcher {
    async fn ask(
        &self,
        request: ServerRequest,
        origin: Option<Arc<Origin>>,
    ) -> Result<ClientResult, ErrorData> {
        self.relay_request(request, origin, tokio_util::sync::CancellationToken::new())
            .await
    }
}
