//! A crate's own catalog as a [`Backend`]: [`Served`], one connection's view of the shared
//! [`Tools`] and their [`Offers`], and [`CatalogServer`], the server over it.

use std::fmt;
use std::future::Future;
use std::sync::{Arc, OnceLock};

use catalog_core::talk::Peer;
use catalog_core::{Access, Caller, CompiledCatalog, Context, HandledBy, Value};
use rmcp::ErrorData;
use rmcp::model::{
    CallToolRequestParams, CancelTaskParams, CompleteRequestParams, CompleteResult,
    GetPromptRequestParams, GetPromptResult, GetTaskParams, GetTaskResult, Implementation,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResult, ServerCapabilities, ServerConfig,
    SubscribeRequestMethod, SubscriptionFilter, SubscriptionsListenRequestMethod, Tool,
    UnsubscribeRequestMethod, UpdateTaskParams,
};
use rmcp::service::SubscriptionContext;

use crate::backend::Level;
use crate::backend::{Asking, Backend, Request, undeclared};
use crate::calls::task::{self, Route};
use crate::calls::{Reply, Tools};
use crate::elicit::PeerAsker;
use crate::handler::{CallPath, Server, call_tool, log_call, revision};
use crate::offers::{self, Offered, Offers};
use crate::rounds::Seal;
use crate::tokens::Grant;

/// The server of a crate's own catalog `C` with handler `H`.
pub type CatalogServer<C, H, const W: usize> = Server<Served<C, H, W>>;

impl<C, H, const W: usize> CatalogServer<C, H, W>
where
    C: CompiledCatalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
    /// A connection whose calls reach `tools` at `level`.
    #[must_use]
    pub fn new(tools: Arc<Tools<C, H, W>>, level: Level) -> Self {
        Server::over(
            Served {
                tools,
                subscriber: OnceLock::new(),
            },
            level,
        )
    }
}

/// One connection's view of a catalog's shared [`Tools`].
pub struct Served<C: CompiledCatalog<W>, H, const W: usize> {
    tools: Arc<Tools<C, H, W>>,
    /// The session's number in the server's subscriptions, once it subscribed.
    subscriber: OnceLock<u64>,
}

impl<C: CompiledCatalog<W>, H, const W: usize> fmt::Debug for Served<C, H, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Served")
            .field("tools", &self.tools)
            .finish_non_exhaustive()
    }
}

impl<C: CompiledCatalog<W>, H, const W: usize> Served<C, H, W> {
    /// The offers, when the server declares what `declared` reads from them.
    ///
    /// # Errors
    /// Method not found for what the server does not declare.
    fn offering(&self, declared: impl FnOnce(Offered) -> bool) -> Result<&dyn Offers, ErrorData> {
        match self.tools.offers() {
            Some(offers) if declared(offers.offered()) => Ok(offers),
            _ => Err(undeclared()),
        }
    }
}

/// A handler's context for `request`, reaching the client through `asking`.
fn context(request: &Request<'_>, asking: Asking) -> Context {
    Context::new(Caller::Mcp(request.grant().access), Arc::new(asking.peer))
}

impl<C, H, const W: usize> Backend for Served<C, H, W>
where
    C: CompiledCatalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
    fn info(&self, level: &Level) -> ServerConfig {
        let identity = self.tools.identity();
        let level = match level {
            Level::Fixed(grant) => format!("This connection has the {} access level", grant.access),
            Level::PerRequest => String::from("Each bearer token has its own access level"),
        };
        let access = format!("{level}; tools/list shows exactly the tools it may call.");
        let instructions = match &identity.instructions {
            Some(own) => format!("{own} {access}"),
            None => access,
        };
        let mut capabilities = if self.tools.runs_tasks() {
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tasks()
                .build()
        } else {
            ServerCapabilities::builder().enable_tools().build()
        };
        if let Some(offers) = self.tools.offers() {
            offers::declare(offers, &mut capabilities);
        }
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(&identity.name, &identity.version))
            .with_instructions(instructions)
    }

    fn seal(&self) -> &Seal {
        self.tools.seal()
    }

    /// The parameters a row mirrors in a header (`header`) carry `x-mcp-header`. Asked
    /// with no request to read a grant from, it looks over HTTP in the full-access
    /// listing; a caller below the tool's level is refused after, by the level check.
    fn tool(&self, name: &str, level: &Level) -> Option<Tool> {
        let level = match level {
            Level::Fixed(grant) => grant.access,
            Level::PerRequest => Access::FullAccess,
        };
        self.tools
            .list(level)
            .iter()
            .find(|t| t.name == name)
            .cloned()
    }

    async fn tools(&self, request: &Request<'_>) -> Result<Vec<Tool>, ErrorData> {
        Ok(self.tools.list(request.grant().access).to_vec())
    }

    async fn call_tool(&self, call: CallToolRequestParams, request: &Request<'_>) -> Reply {
        let (grant, context) = (request.grant(), request.context());
        match task::route::<C, W>(grant.access, &call.name, context) {
            Route::Plain => call_tool(&*self.tools, call, request).await,
            Route::Task => {
                let (revision, log) = (revision(context), request.log());
                task::call_tool(&self.tools, grant, revision, log, call, context).await
            }
            Route::Refused(error) => {
                let refused = Err(error);
                log_call(&call.name, grant.access, &refused);
                refused
            }
        }
    }

    fn prompts(&self, request: &Request<'_>) -> Result<ListPromptsResult, ErrorData> {
        let offers = self.offering(|o| o.prompts)?;
        Ok(ListPromptsResult::with_all_items(
            offers.prompts(request.grant()),
        ))
    }

    async fn get_prompt(
        &self,
        prompt: GetPromptRequestParams,
        request: &Request<'_>,
        asking: Asking,
    ) -> Result<GetPromptResult, ErrorData> {
        let offers = self.offering(|o| o.prompts)?;
        let context = context(request, asking);
        offers.get_prompt(context, request.grant(), prompt).await
    }

    fn resources(&self, request: &Request<'_>) -> Result<ListResourcesResult, ErrorData> {
        let offers = self.offering(|o| o.resources)?;
        Ok(ListResourcesResult::with_all_items(
            offers.resources(request.grant()),
        ))
    }

    fn templates(&self, request: &Request<'_>) -> Result<ListResourceTemplatesResult, ErrorData> {
        let offers = self.offering(|o| o.resources)?;
        Ok(ListResourceTemplatesResult::with_all_items(
            offers.templates(request.grant()),
        ))
    }

    async fn read(
        &self,
        read: ReadResourceRequestParams,
        request: &Request<'_>,
        asking: Asking,
    ) -> Result<ReadResourceResult, ErrorData> {
        let offers = self.offering(|o| o.resources)?;
        let context = context(request, asking);
        offers.read(context, request.grant(), read).await
    }

    async fn complete(
        &self,
        complete: CompleteRequestParams,
        request: &Request<'_>,
    ) -> Result<CompleteResult, ErrorData> {
        let offers = self.offering(|o| o.completions)?;
        offers.complete(request.grant(), complete).await
    }

    fn accepted(&self, requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        // Resources only: the catalog's tools, and the offers' lists, do not change while
        // the server runs. Which URIs a stream is told of is its client's to read
        // ([`Offers::may_subscribe`]), decided in `listen`, where the request is known.
        self.tools.offers()?.subscriptions()?;
        let mut accepted = SubscriptionFilter::new();
        accepted
            .resource_subscriptions
            .clone_from(&requested.resource_subscriptions);
        Some(accepted)
    }

    async fn listen(
        &self,
        subscription: SubscriptionContext,
        grant: Grant,
    ) -> Result<(), ErrorData> {
        let offers = self.offering(|o| o.resources)?;
        let Some(subscriptions) = offers.subscriptions() else {
            return Err(ErrorData::method_not_found::<
                SubscriptionsListenRequestMethod,
            >());
        };
        let uris = subscription
            .accepted()
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| offers.may_subscribe(&grant, uri))
            .cloned()
            .collect();
        let stream = subscriptions.listen(subscription.sink().clone(), uris);
        subscription.cancelled().await;
        subscriptions.closed(stream);
        Ok(())
    }

    async fn subscribe(&self, uri: &str, request: &Request<'_>) -> Result<(), ErrorData> {
        let offers = self.offering(|o| o.resources)?;
        let Some(subscriptions) = offers.subscriptions() else {
            return Err(ErrorData::method_not_found::<SubscribeRequestMethod>());
        };
        if !offers.may_subscribe(request.grant(), uri) {
            return Err(offers::not_found(uri));
        }
        let peer = &request.context().peer;
        let session = *self
            .subscriber
            .get_or_init(|| subscriptions.session(peer.clone()));
        subscriptions.subscribe(session, uri);
        Ok(())
    }

    async fn unsubscribe(&self, uri: &str, _: &Request<'_>) -> Result<(), ErrorData> {
        let offers = self.offering(|o| o.resources)?;
        let Some(subscriptions) = offers.subscriptions() else {
            return Err(ErrorData::method_not_found::<UnsubscribeRequestMethod>());
        };
        if let Some(session) = self.subscriber.get() {
            subscriptions.unsubscribe(*session, uri);
        }
        Ok(())
    }

    async fn get_task(
        &self,
        task: GetTaskParams,
        request: &Request<'_>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.tools
            .tasks()
            .get(&request.grant().client, &task.task_id)
    }

    async fn update_task(
        &self,
        task: UpdateTaskParams,
        request: &Request<'_>,
    ) -> Result<(), ErrorData> {
        let client = &request.grant().client;
        self.tools
            .tasks()
            .update(client, &task.task_id, task.input_responses)
    }

    async fn cancel_task(
        &self,
        task: CancelTaskParams,
        request: &Request<'_>,
    ) -> Result<(), ErrorData> {
        self.tools
            .tasks()
            .cancel(&request.grant().client, &task.task_id)
    }
}

impl<C, H, const W: usize> CallPath for Tools<C, H, W>
where
    C: CompiledCatalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
    fn seal(&self) -> &Seal {
        Tools::seal(self)
    }

    fn call(
        &self,
        request: &Request<'_>,
        revision: &ProtocolVersion,
        name: &str,
        arguments: Value,
        asker: &PeerAsker<'_>,
        peer: Arc<dyn Peer>,
    ) -> impl Future<Output = Reply> + Send {
        let level = request.grant().access;
        Tools::call(self, level, revision, name, arguments, asker, peer)
    }
}
