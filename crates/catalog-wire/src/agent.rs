//! One agent step as an API: everything between two requests to a chat provider.
//!
//! The application sends each request and owns the conversation; an [`Agent`] holds the
//! conversation's discovery state and does the rest. Per step:
//!
//! 1. [`Agent::tools`]: the next request's tool list, the active set in the provider's
//!    format (a tool found by search is offered from the step after the search);
//! 2. [`Agent::read`]: the provider's reply, read ([`provider::read`]);
//! 3. [`Agent::step`]: every call verified in order, the search tool answered by the
//!    discovery loop, a gated call put to the permission hook; what the hook wants asked
//!    is handed back as a [`Question`] ([`Step::questions`]);
//! 4. [`Step::run`]: the approved calls run on the handler, reads of one reply at the same
//!    time and each write on its own, in order, so a write never races the calls around it;
//! 5. [`Agent::write`]: the results as the provider's tool-result messages, in call order.
//!
//! ```
//! # use catalog_wire::agent::Agent;
//! # use catalog_wire::provider::{Conversation, Reply};
//! # use catalog_core::{Caller, Decision, Value};
//! /// One step of any catalog's agent, once the reply arrived.
//! async fn step<C, H, const W: usize>(agent: &mut Agent<'_, C, W>, handler: &H, reply: &Reply,
//!                                     conversation: &mut Conversation)
//! where
//!     C: catalog_core::CompiledCatalog<W>,
//!     C::Call: catalog_core::HandledBy<H>,
//!     <C::Call as catalog_core::HandledBy<H>>::Error: core::fmt::Display,
//! {
//!     let mut permission = |_: Caller, _: C::Tool, _: &Value| Decision::Ask;
//!     let mut step = agent.step(reply, &mut permission);
//!     for question in step.questions() {
//!         question.approve(); // or `deny()`, after asking the user
//!     }
//!     let results = step.run(handler).await;
//!     conversation.reply(agent.provider(), reply);
//!     conversation.results(agent.provider(), agent.write(&results));
//! }
//! ```

use alloc::boxed::Box;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;
use core::future::Future;
use core::pin::Pin;
use core::task::Poll;

use crate::provider::{self, Outcome, Provider, Reply, ReplyError, ToolResult, ToolUse};
use crate::render::{self, RenderError};
use catalog_core::talk::{NoPeer, Peer};
use catalog_core::{Call, Discovery};
use catalog_core::{
    CompiledCatalog, Dispatch, HandledBy, NoScreen, Output, PendingCall, Permission, Rejection,
    Saved, Screen, Screened, ToolId, Value, Verified, VerifiedCall, Via, verify,
};

/// What an agent step needs of a catalog: its tool and its typed call. Every compiled
/// [`CompiledCatalog`] has them; a catalog read at run time (as `cargo catalog eval-agent` reads
/// one) names its own, and starts its [`Agent`] with [`Agent::with_discovery`].
pub trait Tools<const W: usize>: 'static {
    /// The tool.
    type Tool: ToolId + fmt::Debug + Send + Sync + 'static;
    /// The typed call.
    type Call: Call<Tool = Self::Tool> + Send + 'static;
}

impl<C: CompiledCatalog<W>, const W: usize> Tools<W> for C {
    type Tool = C::Tool;
    type Call = C::Call;
}

/// The chat agent's side of one conversation with catalog `C` through one provider: its
/// discovery state, which borrows the catalog for `'c` (`'static` for a compiled one).
/// For a compiled catalog it is made with `Agent::new(Catalog, provider)`, and named
/// `Agent<'static, Catalog, { Catalog::WORDS }>`.
pub struct Agent<'c, C: Tools<W>, const W: usize> {
    provider: Provider,
    discovery: Discovery<'c, C::Tool, W>,
    screen: Arc<dyn Screen<C::Tool>>,
    peer: Arc<dyn Peer>,
}

impl<C: Tools<W>, const W: usize> fmt::Debug for Agent<'_, C, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Agent")
            .field("provider", &self.provider)
            .field("discovery", &self.discovery)
            .finish_non_exhaustive()
    }
}

// The catalog is taken by value only to name its type: the generated `Catalog` is a unit
// struct, and `Agent::new(Catalog, provider)` infers its word count from it.
#[allow(
    clippy::needless_pass_by_value,
    reason = "the catalog argument names the type"
)]
impl<C: CompiledCatalog<W>, const W: usize> Agent<'static, C, W> {
    /// A new conversation in compiled catalog `catalog` (the generated `Catalog`) through
    /// `provider`: the inline tools are active.
    #[must_use]
    pub fn new(catalog: C, provider: Provider) -> Self {
        let _ = catalog;
        Agent::with_discovery(provider, C::discovery())
    }

    /// A conversation in `catalog` whose state [`Agent::save`] kept: see
    /// [`Discovery::restore`] for the names returned, which the catalog no longer has as
    /// discoverable tools.
    #[must_use]
    pub fn restore(catalog: C, provider: Provider, saved: &Saved) -> (Self, Vec<String>) {
        let _ = catalog;
        let (discovery, dropped) = C::discovery().restore(saved);
        (Agent::with_discovery(provider, discovery), dropped)
    }
}

impl<'c, C: Tools<W>, const W: usize> Agent<'c, C, W> {
    /// A conversation with this discovery state: one [restricted](Discovery::restricted_to)
    /// or [restored](Discovery::restore).
    #[must_use]
    pub fn with_discovery(provider: Provider, discovery: Discovery<'c, C::Tool, W>) -> Self {
        Agent {
            provider,
            discovery,
            screen: Arc::new(NoScreen),
            peer: Arc::new(NoPeer),
        }
    }

    /// The same conversation with handlers talking back through `peer`: the
    /// application's user and model, as the handlers' [`Context`](catalog_core::Context) reaches
    /// them (progress to show, a form or URL to put to the user, a sampling of its
    /// model). Without one, a handler can ask nothing of the caller.
    #[must_use]
    pub fn with_peer(mut self, peer: Arc<dyn Peer>) -> Self {
        self.peer = peer;
        self
    }

    /// The same conversation with every handler result read by `screen` before the model
    /// sees it (`catalog_result_scan::Scanner` with the catalog's `scan-results` policy): passed,
    /// flagged with a notice, or withheld with a rejection.
    #[must_use]
    pub fn screened_by(mut self, screen: impl Screen<C::Tool> + 'static) -> Self {
        self.screen = Arc::new(screen);
        self
    }

    /// What to keep between two requests of a web backend (serde): the discovered tools
    /// and the turn's searches left.
    #[must_use]
    pub fn save(&self) -> Saved {
        self.discovery.save()
    }

    /// The provider.
    #[must_use]
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// The discovery state.
    #[must_use]
    pub fn discovery(&self) -> &Discovery<'c, C::Tool, W> {
        &self.discovery
    }

    /// A new user message: a fresh search budget (see [`Discovery::new_turn`]).
    pub fn new_turn(&mut self) {
        self.discovery.new_turn();
    }

    /// The next request's tools, in the provider's format: the active set; with
    /// Anthropic's tool search, every tool the conversation allows, the discoverable ones
    /// deferred.
    ///
    /// # Errors
    /// When the provider would refuse the list (see [`RenderError`]).
    pub fn tools(&self) -> Result<String, RenderError> {
        let set = match self.provider {
            Provider::AnthropicToolSearch(_) => self.discovery.allowed(),
            _ => self.discovery.active(),
        };
        render::render_set(self.provider.format(), self.discovery.info().tools, set)
    }

    /// Reads the provider's reply ([`provider::read`]).
    ///
    /// # Errors
    /// The provider's error, or a body that is not its reply.
    pub fn read(&self, body: &Value) -> Result<Reply, ReplyError> {
        provider::read(self.provider, body)
    }

    /// The results as the provider's tool-result messages ([`provider::write`]).
    #[must_use]
    pub fn write(&self, results: &[ToolResult<C::Tool>]) -> Vec<Value> {
        provider::write(self.provider, results)
    }

    /// Verifies every call of `reply`, in order, against this step's active set: the
    /// search tool is answered here (its hits are active for the calls after it), a call
    /// the verifier refuses gets its rejection, a gated call meets `permission`. Nothing
    /// runs until [`Step::run`].
    pub fn step(
        &mut self,
        reply: &Reply,
        permission: &mut impl Permission<C::Tool>,
    ) -> Step<'c, C::Call> {
        for name in &reply.loaded {
            if let Some(tool) = self.discovery.info().tools.find_wire(name) {
                self.discovery.load(tool);
            }
        }
        let search_tool = self.discovery.info().search_tool;
        let entries = reply
            .calls
            .iter()
            .map(|call| {
                let entry = self.verify(call, search_tool, permission);
                (call.clone(), entry)
            })
            .collect();
        let info = self.discovery.info();
        Step {
            entries,
            ask_tool: info.tools.name(info.ask_tool),
            screen: Arc::clone(&self.screen),
            peer: Arc::clone(&self.peer),
        }
    }

    fn verify(
        &mut self,
        call: &ToolUse,
        search_tool: C::Tool,
        permission: &mut impl Permission<C::Tool>,
    ) -> Entry<'c, C::Call> {
        let tools = self.discovery.info().tools;
        let tool = tools.find_wire(&call.name);
        let name: &str = match tool {
            Some(tool) => tools.name(tool),
            None => &call.name,
        };
        let arguments = match &call.arguments {
            Ok(arguments) => arguments.clone(),
            Err(error) => {
                let rejection =
                    Rejection::unreadable_arguments(tool.map(|t| tools.name(t)), &call.name, error);
                return Entry::Done(Outcome::Rejected(rejection));
            }
        };
        // The search tool's query, read from arguments the verifier will have checked.
        let query = (tool.map(ToolId::index) == Some(search_tool.index()))
            .then(|| arguments["query"].as_str().map(String::from))
            .flatten();
        match verify::<C::Call, W>(Via::Chat(&self.discovery), name, arguments, permission) {
            Ok(Verified::Run(verified)) => match query {
                Some(query) => Entry::Done(Outcome::Searched(self.discovery.search(&query))),
                None => Entry::Run(verified),
            },
            Ok(Verified::Ask(pending)) => Entry::Ask(pending),
            Err(rejection) => Entry::Done(Outcome::Rejected(rejection)),
        }
    }
}

enum Entry<'c, C: Call> {
    Done(Outcome<'c, C::Tool>),
    Run(VerifiedCall<'c, C>),
    Ask(PendingCall<'c, C>),
}

/// One reply's calls, verified: those to run, those answered already, and the gated
/// ones waiting for the user's answer.
pub struct Step<'c, C: Call> {
    entries: Vec<(ToolUse, Entry<'c, C>)>,
    ask_tool: &'c str,
    screen: Arc<dyn Screen<C::Tool>>,
    peer: Arc<dyn Peer>,
}

impl<C: Call> fmt::Debug for Step<'_, C>
where
    C::Tool: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        for (call, entry) in &self.entries {
            let state = match entry {
                Entry::Done(_) => "answered",
                Entry::Run(_) => "to run",
                Entry::Ask(_) => "to ask",
            };
            list.entry(&(call.name.as_str(), state));
        }
        list.finish()
    }
}

impl<'c, C: Call> Step<'c, C> {
    /// Whether the reply held no call: it was the model's answer.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The gated calls the permission hook wants the user asked about, in call order. One
    /// left unanswered does not run: its result tells the model it waits for the user.
    pub fn questions(&mut self) -> impl Iterator<Item = Question<'_, 'c, C>> {
        let ask_tool = self.ask_tool;
        self.entries
            .iter_mut()
            .filter_map(move |(call, entry)| match entry {
                Entry::Ask(pending) => Some(Question {
                    tool: pending.tool(),
                    name: pending.spec().name,
                    call,
                    entry,
                    ask_tool,
                }),
                _ => None,
            })
    }

    /// Runs the calls to run on `handler` and gives every call's result, in call order.
    /// Calls that read run at the same time; a call that writes (access above
    /// read-only) waits for those before it and runs alone, so one reply's edits apply in
    /// the order the model wrote them. Each result is held to the tool's declared output
    /// ([`VerifiedCall::run`]), then read by the agent's [screen](Agent::screened_by).
    pub async fn run<H: ?Sized>(self, handler: &H) -> Vec<ToolResult<'c, C::Tool>>
    where
        C: HandledBy<H>,
        C::Error: fmt::Display,
    {
        let mut calls = Vec::with_capacity(self.entries.len());
        let mut outcomes: Vec<Option<Outcome<'c, C::Tool>>> = Vec::with_capacity(calls.capacity());
        let mut reads = Vec::new();
        let runner = Runner {
            handler,
            screen: &*self.screen,
            peer: &self.peer,
        };
        for (i, (call, entry)) in self.entries.into_iter().enumerate() {
            calls.push(call);
            match entry {
                Entry::Done(outcome) => outcomes.push(Some(outcome)),
                Entry::Ask(pending) => outcomes.push(Some(Outcome::Waiting {
                    tool: pending.tool(),
                    name: pending.spec().name,
                })),
                Entry::Run(verified) => {
                    outcomes.push(None);
                    if verified.spec().writes() {
                        runner.all(core::mem::take(&mut reads), &mut outcomes).await;
                        runner.all(alloc::vec![(i, verified)], &mut outcomes).await;
                    } else {
                        reads.push((i, verified));
                    }
                }
            }
        }
        runner.all(reads, &mut outcomes).await;
        calls
            .into_iter()
            .zip(outcomes)
            .filter_map(|(call, outcome)| {
                Some(ToolResult {
                    call,
                    outcome: outcome?,
                })
            })
            .collect()
    }
}

/// What runs one step's calls: the handler, the screen its results pass, and the peer
/// its handlers talk back to.
struct Runner<'r, H: ?Sized, T> {
    handler: &'r H,
    screen: &'r dyn Screen<T>,
    peer: &'r Arc<dyn Peer>,
}

impl<H: ?Sized, T: ToolId> Runner<'_, H, T> {
    /// Runs `calls` at the same time, each outcome into its place.
    async fn all<'c, C>(
        &self,
        calls: Vec<(usize, VerifiedCall<'c, C>)>,
        outcomes: &mut [Option<Outcome<'c, T>>],
    ) where
        C: HandledBy<H> + Call<Tool = T>,
        C::Error: fmt::Display,
    {
        let runs = calls.into_iter().map(|(i, call)| async move {
            let (tool, spec) = (call.tool(), call.spec());
            let name = spec.name;
            let outcome = match call.run_with(self.handler, Arc::clone(self.peer)).await {
                Dispatch::Ran(Ok(Output::NeedsUrl(urls))) => {
                    Outcome::Rejected(Rejection::needs_url(name, &urls))
                }
                Dispatch::Ran(Ok(output)) => {
                    let value = output.into_model_value().unwrap_or(Value::Null);
                    match self.screen.screen(tool, spec, value) {
                        Screened::Pass(value) => Outcome::Ran(value),
                        Screened::Flagged { result, notice } => Outcome::Flagged { result, notice },
                        Screened::Withheld(rejection) => Outcome::Rejected(rejection),
                    }
                }
                Dispatch::Ran(Err(rejection)) => Outcome::Rejected(rejection),
                // The step answers the search tool before anything runs.
                Dispatch::Search(_) => Outcome::Rejected(Rejection::runtime(
                    name,
                    "the search tool is answered by the agent step, not a handler",
                )),
            };
            (i, outcome)
        });
        for (i, outcome) in join_all(runs.collect()).await {
            outcomes[i] = Some(outcome);
        }
    }
}

/// Polls every future until all are done; their outputs in order. `no_std` has no
/// executor's join, and one reply's calls are few.
async fn join_all<F: Future>(futures: Vec<F>) -> Vec<F::Output> {
    let mut futures: Vec<Pin<Box<F>>> = futures.into_iter().map(Box::pin).collect();
    let mut outputs: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    core::future::poll_fn(|cx| {
        let mut pending = false;
        for (future, output) in futures.iter_mut().zip(outputs.iter_mut()) {
            if output.is_none() {
                match future.as_mut().poll(cx) {
                    Poll::Ready(value) => *output = Some(value),
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    outputs.into_iter().flatten().collect()
}

/// A gated call the permission hook wants the user asked about.
pub struct Question<'s, 'c, C: Call> {
    tool: C::Tool,
    name: &'c str,
    call: &'s ToolUse,
    entry: &'s mut Entry<'c, C>,
    ask_tool: &'c str,
}

impl<C: Call> fmt::Debug for Question<'_, '_, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Question")
            .field("call", &self.call)
            .finish_non_exhaustive()
    }
}

impl<C: Call> Question<'_, '_, C> {
    /// The tool.
    #[must_use]
    pub fn tool(&self) -> C::Tool {
        self.tool
    }

    /// The call as the model made it: its arguments, to show the user.
    #[must_use]
    pub fn call(&self) -> &ToolUse {
        self.call
    }

    /// The user agreed: the call runs with the others.
    pub fn approve(self) {
        let waiting = Entry::Done(Outcome::Waiting {
            tool: self.tool,
            name: self.name,
        });
        if let Entry::Ask(pending) = core::mem::replace(self.entry, waiting) {
            *self.entry = Entry::Run(pending.approve());
        }
    }

    /// The user said no: the model reads the refusal, which points it to the ask tool.
    pub fn deny(self) {
        *self.entry = Entry::Done(Outcome::Rejected(Rejection::denied_in_chat(
            self.name,
            self.ask_tool,
        )));
    }
}
