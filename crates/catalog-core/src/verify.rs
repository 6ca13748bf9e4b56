//! The verifier: every call, from chat or MCP, passes here before a handler runs.
//!
//! [`verify`] takes a call as the model made it (a name and JSON arguments) and either
//! hands back the typed call or a [`Rejection`] for the model to read. In order:
//! 1. the tool exists and this caller may reach it (the chat agent's active set, or the
//!    MCP connection's access level);
//! 2. the arguments fit the tool's input shape, every issue reported at once, and parse
//!    into the typed call;
//! 3. a gated tool passes the application's [`Permission`] hook, whoever the caller is.
//!
//! What comes out is the only thing that can run a handler: a [`VerifiedCall`] (or a
//! [`PendingCall`] to approve first). A call parsed any other way (the generated
//! `ToolCall::parse`, or [`Call::from_checked`]) is a typed value and nothing more: running
//! one takes a [`Proof`], which only this module makes.

mod keywords;
mod permission;
mod rejection;
mod suggest;
#[cfg(test)]
mod tests;
mod walk;
pub(crate) mod words;

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use core::fmt;
use core::future::Future;
use core::marker::PhantomData;
use core::pin::Pin;

pub use permission::{AllowAll, Decision, DenyAll, Permission};
pub use rejection::{ErrorClass, Issue, Rejection};
pub use walk::{MAX_CHECK_DEPTH, MAX_CHECK_ISSUES, check_value};

use crate::talk::{NoPeer, Peer};
use crate::{
    Access, Caller, Context, Discovery, Dispatch, Lookup, Map, Output, Reach, Tier, ToolId,
    ToolSpec, Value,
};

/// A typed call of a generated catalog (`ToolCall`): what the verifier produces once a
/// call's arguments fit its tool's schema.
pub trait Call: Sized {
    /// The catalog's `Tool` enum.
    type Tool: ToolId;

    /// Parses arguments, already checked against `tool`'s input shape, into the typed call.
    ///
    /// This is the verifier's last step, not the generated `ToolCall::parse(name,
    /// arguments)`: that one resolves a name and checks nothing but the Rust type, for code
    /// that builds calls by hand, so it fails with a [`CallError`](crate::CallError) that
    /// says which. Here the tool is resolved and the shape passed already, so the only
    /// failure left is a message, which [`verify`] turns into a [`Rejection`].
    ///
    /// # Errors
    /// Where and why, should the arguments still not fit the Rust type.
    fn from_checked(tool: Self::Tool, arguments: Value) -> Result<Self, String>;

    /// The tool called.
    fn tool(&self) -> Self::Tool;
}

/// A future a handler method returns, boxed: one type for every tool of a catalog.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Evidence that a call passed [`verify`]: the argument without which a typed call cannot
/// be dispatched. Only this module makes one, inside [`VerifiedCall::dispatch`], and its
/// lifetime is that one call's, so it cannot be kept to run another.
pub struct Proof<'p>(PhantomData<fn(&'p ()) -> &'p ()>);

impl fmt::Debug for Proof<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Proof")
    }
}

/// A catalog's typed call, run by handler `H`: generated for `ToolCall` and every type
/// that implements the catalog's `Handler`. Its method takes a [`Proof`], so the only way
/// to run it is [`VerifiedCall::dispatch`] or [`VerifiedCall::run`].
pub trait HandledBy<H: ?Sized>: Call {
    /// What the handler returns when it fails.
    type Error;
    /// The search tool's arguments, which the agent loop answers, not a handler.
    type Search;

    /// Starts the handler method of the call's tool with `context`, or hands a search
    /// back.
    fn dispatch<'h>(
        self,
        handler: &'h H,
        context: Context,
        proof: Proof<'_>,
    ) -> Dispatch<BoxFuture<'h, Result<Output, Self::Error>>, Self::Search>;
}

/// The way a call comes in, with what decides which tools it may reach: checked before
/// its arguments are. Not the gated tier ([`Tier::Gated`]), which asks the
/// application's [`Permission`] after.
pub enum Via<'g, 'd, T, const W: usize> {
    /// The application's chat agent: it may call what its discovery state has active.
    Chat(&'g Discovery<'d, T, W>),
    /// An MCP client connected at this access level, calling a tool of this catalog: it
    /// may call every tool exposed to MCP up to that level.
    Mcp(Access, &'d dyn Lookup<T>),
}

impl<T, const W: usize> Clone for Via<'_, '_, T, W> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, const W: usize> Copy for Via<'_, '_, T, W> {}

impl<T: ToolId + fmt::Debug, const W: usize> fmt::Debug for Via<'_, '_, T, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Via::Chat(discovery) => f.debug_tuple("Chat").field(discovery).finish(),
            Via::Mcp(level, _) => f.debug_tuple("Mcp").field(level).finish(),
        }
    }
}

impl<'d, T: ToolId, const W: usize> Via<'_, 'd, T, W> {
    /// Whether a call coming this way reaches `tool`: [`reach`](crate::reach) with the chat agent's
    /// active set or the MCP client's level.
    #[must_use]
    pub fn reach(&self, tool: T) -> Reach {
        let active = match self {
            Via::Chat(discovery) => discovery.active().contains(tool),
            Via::Mcp(..) => false,
        };
        self.tools().spec(tool).reach(self.caller(), active)
    }

    /// The catalog the call names a tool of.
    #[must_use]
    pub fn tools(&self) -> &'d dyn Lookup<T> {
        match *self {
            Via::Chat(discovery) => discovery.info().tools,
            Via::Mcp(_, tools) => tools,
        }
    }
}

impl<T, const W: usize> Via<'_, '_, T, W> {
    /// The caller as the permission hook sees it.
    #[must_use]
    pub const fn caller(&self) -> Caller {
        match self {
            Via::Chat(_) => Caller::Chat,
            Via::Mcp(level, _) => Caller::Mcp(*level),
        }
    }
}

/// A call that passed the verifier.
#[derive(PartialEq, Debug)]
pub enum Verified<'c, C> {
    /// Run it now.
    Run(VerifiedCall<'c, C>),
    /// The permission hook said to ask first: ask the user (or the MCP client), then
    /// [`PendingCall::approve`] it or answer with [`Rejection::denied`].
    Ask(PendingCall<'c, C>),
}

impl<C> Verified<'_, C> {
    /// The typed call.
    #[must_use]
    pub const fn call(&self) -> &C {
        match self {
            Verified::Run(VerifiedCall { call, .. }) | Verified::Ask(PendingCall { call, .. }) => {
                call
            }
        }
    }
}

/// A call that passed every check for its caller: the only value that runs a handler.
/// Only [`verify`] (and [`PendingCall::approve`]) make one, and running it uses it up:
/// it is not `Clone`, so one approval runs one call.
pub struct VerifiedCall<'c, C> {
    call: C,
    caller: Caller,
    spec: &'c ToolSpec<'c>,
}

/// A call that passed reach and arguments, and that the permission hook wants a person to
/// approve before it runs.
pub struct PendingCall<'c, C> {
    call: C,
    caller: Caller,
    spec: &'c ToolSpec<'c>,
}

/// Equal when the calls and callers are: the row is the call's tool's.
macro_rules! call_traits {
    ($($name:ident),*) => {$(
        impl<C: PartialEq> PartialEq for $name<'_, C> {
            fn eq(&self, other: &Self) -> bool {
                self.call == other.call && self.caller == other.caller
            }
        }

        impl<C: fmt::Debug> fmt::Debug for $name<'_, C> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("call", &self.call)
                    .field("caller", &self.caller)
                    .finish_non_exhaustive()
            }
        }

        impl<'c, C> $name<'c, C> {
            /// The row of the call's tool.
            #[must_use]
            pub const fn spec(&self) -> &'c ToolSpec<'c> {
                self.spec
            }
        }
    )*};
}

call_traits!(VerifiedCall, PendingCall);

impl<'c, C: Call> PendingCall<'c, C> {
    /// The typed call, to show the person asked.
    #[must_use]
    pub const fn call(&self) -> &C {
        &self.call
    }

    /// The tool called.
    #[must_use]
    pub fn tool(&self) -> C::Tool {
        self.call.tool()
    }

    /// Who is calling.
    #[must_use]
    pub const fn caller(&self) -> Caller {
        self.caller
    }

    /// The person agreed: the call may run.
    #[must_use]
    pub fn approve(self) -> VerifiedCall<'c, C> {
        VerifiedCall {
            call: self.call,
            caller: self.caller,
            spec: self.spec,
        }
    }
}

impl<C: Call> VerifiedCall<'_, C> {
    /// The typed call.
    #[must_use]
    pub const fn call(&self) -> &C {
        &self.call
    }

    /// The tool called.
    #[must_use]
    pub fn tool(&self) -> C::Tool {
        self.call.tool()
    }

    /// Who is calling, as the verifier saw it; the handler is told the same.
    #[must_use]
    pub const fn caller(&self) -> Caller {
        self.caller
    }

    /// The typed call, taken out: a value to read, which can no longer be run.
    #[must_use]
    pub fn into_call(self) -> C {
        self.call
    }

    /// Runs the call: the tool's handler method, or hands a search back to the agent loop.
    /// The handler's [`Context`] can ask nothing of the caller: see
    /// [`VerifiedCall::dispatch_with`].
    pub async fn dispatch<H: ?Sized>(
        self,
        handler: &H,
    ) -> Dispatch<Result<Output, C::Error>, C::Search>
    where
        C: HandledBy<H>,
    {
        self.dispatch_with(handler, Arc::new(NoPeer)).await
    }

    /// [`VerifiedCall::dispatch`], with the handler talking back to the caller through
    /// `peer`: the [`Context`] it gets names this call's caller and reaches `peer`.
    pub async fn dispatch_with<H: ?Sized>(
        self,
        handler: &H,
        peer: Arc<dyn Peer>,
    ) -> Dispatch<Result<Output, C::Error>, C::Search>
    where
        C: HandledBy<H>,
    {
        let context = Context::new(self.caller, peer);
        // The match ends before the await: a scrutinee's temporary lives to the end of its
        // match, and one holding `C::Search` across the await would make this future
        // `Send` only when the search arguments are, which generic callers cannot show.
        let ran = match self.call.dispatch(handler, context, Proof(PhantomData)) {
            Dispatch::Search(search) => return Dispatch::Search(search),
            Dispatch::Ran(ran) => ran,
        };
        Dispatch::Ran(ran.await)
    }

    /// [`VerifiedCall::dispatch`], then the result held to the tool's declared output: a
    /// handler error, or a result that breaks the output, becomes a `RUNTIME_ERROR`
    /// rejection for the model.
    pub async fn run<H: ?Sized>(self, handler: &H) -> Dispatch<Result<Output, Rejection>, C::Search>
    where
        C: HandledBy<H>,
        C::Error: fmt::Display,
    {
        self.run_with(handler, Arc::new(NoPeer)).await
    }

    /// [`VerifiedCall::run`], with the handler talking back through `peer` (see
    /// [`VerifiedCall::dispatch_with`]).
    pub async fn run_with<H: ?Sized>(
        self,
        handler: &H,
        peer: Arc<dyn Peer>,
    ) -> Dispatch<Result<Output, Rejection>, C::Search>
    where
        C: HandledBy<H>,
        C::Error: fmt::Display,
    {
        let spec = self.spec;
        match self.dispatch_with(handler, peer).await {
            Dispatch::Search(search) => Dispatch::Search(search),
            Dispatch::Ran(Ok(output)) => Dispatch::Ran(check_ran(spec, output)),
            Dispatch::Ran(Err(e)) => Dispatch::Ran(Err(Rejection::runtime(spec.name, e))),
        }
    }
}

/// A handler's output held to `tool`'s declared output: its value, or the structured
/// content beside its blocks. A user sent to a URL has no result yet to hold.
fn check_ran(spec: &ToolSpec, output: Output) -> Result<Output, Rejection> {
    if spec.output.is_none() || matches!(output, Output::NeedsUrl(_)) {
        return Ok(output);
    }
    match output.checked() {
        Some(value) => check_output(spec, value).map(|()| output),
        None => Err(Rejection::runtime(
            spec.name,
            "the handler answered with content blocks and no structured content, but the row \
             declares an output: give the content its structured content (`Output::with_structured`)",
        )),
    }
}

/// Verifies one call: reachability, then arguments, then permission (see the module).
///
/// `null` arguments count as `{}`, as several providers send them for a tool without
/// parameters. Whole numbers written as floats (`2.0`) are accepted where an integer is
/// wanted and reach the typed call as integers.
///
/// # Errors
/// A [`Rejection`] for the model: [`ErrorClass::SchemaResolution`] for a tool out of reach
/// or arguments that do not fit, [`ErrorClass::ConstraintViolation`] when every issue with
/// the arguments is a broken constraint, [`ErrorClass::PermissionDenied`] for an MCP level
/// too low or a call the permission hook refused.
pub fn verify<'d, C: Call, const W: usize>(
    via: Via<'_, 'd, C::Tool, W>,
    name: &str,
    mut arguments: Value,
    permission: &mut impl Permission<C::Tool>,
) -> Result<Verified<'d, C>, Rejection> {
    let tools = via.tools();
    let tool = reach(via, name)?;
    let spec = tools.spec(tool);
    if arguments.is_null() {
        arguments = Value::Object(Map::new());
    }
    let (issues, total) = walk::check_counted(&spec.input, &arguments, words::Subject::Arguments);
    if !issues.is_empty() {
        return Err(Rejection::arguments(spec.name, issues, total));
    }
    walk::canonicalize(&spec.input, &mut arguments, 0);
    let parse =
        |arguments| C::from_checked(tool, arguments).map_err(|e| Rejection::parse(spec.name, &e));
    let caller = via.caller();
    if spec.tier != Some(Tier::Gated) {
        return parse(arguments).map(|call| Verified::Run(VerifiedCall { call, caller, spec }));
    }
    // Gated: parsed from a copy, so the hook sees the arguments and is asked only about a
    // call that could run.
    let call = parse(arguments.clone())?;
    match permission.decide(caller, tool, &arguments) {
        Decision::Allow => Ok(Verified::Run(VerifiedCall { call, caller, spec })),
        Decision::Ask => Ok(Verified::Ask(PendingCall { call, caller, spec })),
        Decision::Deny => Err(match via {
            Via::Chat(discovery) => {
                Rejection::denied_in_chat(spec.name, tools.name(discovery.info().ask_tool))
            }
            Via::Mcp(..) => Rejection::denied(spec.name),
        }),
    }
}

/// Step one: the tool, if this caller may reach it.
fn reach<T: ToolId, const W: usize>(via: Via<'_, '_, T, W>, name: &str) -> Result<T, Rejection> {
    match via {
        Via::Chat(discovery) => discovery.callable(name).map_err(|unavailable| {
            let tool = discovery.info().tools.find(name);
            let tool = tool.map(|tool| discovery.info().tools.name(tool));
            Rejection::unavailable(tool, unavailable.to_string())
        }),
        Via::Mcp(level, tools) => {
            let tool = tools
                .find(name)
                .ok_or_else(|| Rejection::unknown_tool(name))?;
            match via.reach(tool) {
                Reach::Allowed => Ok(tool),
                Reach::Hidden => Err(Rejection::unknown_tool(name)),
                Reach::Below(needed) => {
                    Err(Rejection::below_level(tools.name(tool), needed, level))
                }
            }
        }
    }
}

/// Checks a handler's result against the tool's declared output, if it declares one.
///
/// # Errors
/// An [`ErrorClass::RuntimeError`] rejection listing how the result breaks the output
/// shape (each issue keeps the class of its mismatch; pointers are into the result).
pub fn check_output(spec: &ToolSpec, result: &Value) -> Result<(), Rejection> {
    let Some(output) = &spec.output else {
        return Ok(());
    };
    let (issues, total) = walk::check_counted(output, result, words::Subject::Result);
    if issues.is_empty() {
        Ok(())
    } else {
        Err(Rejection::output(spec.name, issues, total))
    }
}
