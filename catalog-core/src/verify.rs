//! The verifier: every call, from chat or MCP, passes here before a handler runs.
//!
//! [`verify`] takes a call as the model made it (a name and JSON arguments) and either
//! hands back the typed call or a [`Rejection`] for the model to read. In order:
//! 1. the tool exists and this caller may reach it (the chat agent's active set, or the
//!    MCP connection's access level);
//! 2. the arguments fit the tool's input shape, every issue reported at once, and parse
//!    into the typed call;
//! 3. a gated tool passes the application's [`Permission`] hook, whoever the caller is.

mod check;
mod permission;
mod rejection;
mod suggest;
#[cfg(test)]
mod tests;
pub(crate) mod words;

use alloc::string::{String, ToString};
use core::fmt;

pub use check::{MAX_CHECK_DEPTH, MAX_CHECK_ISSUES, check};
pub use permission::{AllowAll, Decision, DenyAll, Permission};
pub use rejection::{ErrorClass, Issue, Rejection};

use crate::{Access, Caller, Discovery, Map, Tier, ToolId, Value};

/// A typed call of a generated catalog (`ToolCall`): what the verifier produces once a
/// call's arguments fit its tool's schema.
pub trait Call: Sized {
    /// The catalog's `Tool` enum.
    type Tool: ToolId;

    /// Parses arguments, already checked against `tool`'s input shape, into the typed call.
    ///
    /// # Errors
    /// Where and why, should the arguments still not fit the Rust type.
    fn parse(tool: Self::Tool, arguments: Value) -> Result<Self, String>;

    /// The tool called.
    fn tool(&self) -> Self::Tool;
}

/// Who is calling, with what decides which tools they may reach.
pub enum Gate<'g, 'd, T, const W: usize> {
    /// The application's chat agent: it may call what its discovery state has active.
    Chat(&'g Discovery<'d, T, W>),
    /// An MCP client connected at this access level: it may call every tool exposed to MCP
    /// up to that level.
    Mcp(Access),
}

impl<T, const W: usize> Clone for Gate<'_, '_, T, W> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, const W: usize> Copy for Gate<'_, '_, T, W> {}

impl<T: ToolId + fmt::Debug, const W: usize> fmt::Debug for Gate<'_, '_, T, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Gate::Chat(discovery) => f.debug_tuple("Chat").field(discovery).finish(),
            Gate::Mcp(level) => f.debug_tuple("Mcp").field(level).finish(),
        }
    }
}

impl<T, const W: usize> Gate<'_, '_, T, W> {
    /// The caller as the permission hook sees it.
    #[must_use]
    pub const fn caller(&self) -> Caller {
        match self {
            Gate::Chat(_) => Caller::Chat,
            Gate::Mcp(level) => Caller::Mcp(*level),
        }
    }
}

/// A call that passed the verifier.
#[derive(Clone, PartialEq, Debug)]
pub enum Verified<C> {
    /// Run it now.
    Run(C),
    /// The permission hook said to ask first: ask the user (or the MCP client), then run it
    /// or answer with [`Rejection::denied`].
    Ask(C),
}

impl<C> Verified<C> {
    /// The typed call.
    #[must_use]
    pub const fn call(&self) -> &C {
        match self {
            Verified::Run(call) | Verified::Ask(call) => call,
        }
    }

    /// The typed call, taken out.
    #[must_use]
    pub fn into_call(self) -> C {
        match self {
            Verified::Run(call) | Verified::Ask(call) => call,
        }
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
pub fn verify<C: Call, const W: usize>(
    gate: Gate<'_, '_, C::Tool, W>,
    name: &str,
    mut arguments: Value,
    permission: &mut impl Permission<C::Tool>,
) -> Result<Verified<C>, Rejection> {
    let tool = reach(gate, name)?;
    let spec = tool.spec();
    if arguments.is_null() {
        arguments = Value::Object(Map::new());
    }
    let (issues, total) = check::check_counted(&spec.input, &arguments, check::Subject::Arguments);
    if !issues.is_empty() {
        return Err(Rejection::arguments(spec.name, issues, total));
    }
    check::canonicalize(&spec.input, &mut arguments, 0);
    let parse = |arguments| C::parse(tool, arguments).map_err(|e| Rejection::parse(spec.name, &e));
    if spec.tier != Some(Tier::Gated) {
        return parse(arguments).map(Verified::Run);
    }
    // Gated: parsed from a copy, so the hook sees the arguments and is asked only about a
    // call that could run.
    let call = parse(arguments.clone())?;
    match permission.decide(gate.caller(), tool, &arguments) {
        Decision::Allow => Ok(Verified::Run(call)),
        Decision::Ask => Ok(Verified::Ask(call)),
        Decision::Deny => Err(match gate {
            Gate::Chat(discovery) => Rejection::denied_in_chat(tool, discovery.info().ask_tool),
            Gate::Mcp(_) => Rejection::denied(tool),
        }),
    }
}

/// Step one: the tool, if this caller may reach it.
fn reach<T: ToolId, const W: usize>(gate: Gate<'_, '_, T, W>, name: &str) -> Result<T, Rejection> {
    match gate {
        Gate::Chat(discovery) => discovery.check(name).map_err(|unavailable| {
            let tool = T::from_name(name).map(T::name);
            Rejection::unavailable(tool, unavailable.to_string())
        }),
        Gate::Mcp(level) => {
            let tool = T::from_name(name).ok_or_else(|| Rejection::unknown_tool(name))?;
            match tool.spec().mcp_level() {
                None => Err(Rejection::unknown_tool(name)),
                Some(needed) if needed > level => {
                    Err(Rejection::below_level(tool.name(), needed, level))
                }
                Some(_) => Ok(tool),
            }
        }
    }
}

/// Checks a handler's result against the tool's declared output, if it declares one.
///
/// # Errors
/// An [`ErrorClass::RuntimeError`] rejection listing how the result breaks the output
/// shape (each issue keeps the class of its mismatch; pointers are into the result).
pub fn check_output<T: ToolId>(tool: T, result: &Value) -> Result<(), Rejection> {
    let Some(output) = &tool.spec().output else {
        return Ok(());
    };
    let (issues, total) = check::check_counted(output, result, check::Subject::Result);
    if issues.is_empty() {
        Ok(())
    } else {
        Err(Rejection::output(tool.name(), issues, total))
    }
}
