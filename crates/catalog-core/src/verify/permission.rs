//! The application's say on gated tools: a hook the verifier asks before such a call runs.

use crate::{Caller, Value};

/// What the application decides about one call to a gated tool.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Decision {
    /// Run it.
    Allow,
    /// Refuse it: the model gets [`Rejection::denied`](super::Rejection::denied).
    Deny,
    /// Ask the user (or the MCP client) first: the verifier hands back
    /// [`Verified::Ask`](super::Verified::Ask).
    Ask,
}

/// The permission check of gated tools, whoever calls them. Silent tools never reach it.
///
/// Any `FnMut(Caller, T, &Value) -> Decision` closure is one; [`AllowAll`] and [`DenyAll`]
/// are the two fixed policies.
pub trait Permission<T> {
    /// Decides about one call, its arguments already checked against the tool's input.
    fn decide(&mut self, caller: Caller, tool: T, arguments: &Value) -> Decision;
}

impl<T, F: FnMut(Caller, T, &Value) -> Decision> Permission<T> for F {
    fn decide(&mut self, caller: Caller, tool: T, arguments: &Value) -> Decision {
        self(caller, tool, arguments)
    }
}

/// Runs every gated call: for tests, and for callers already trusted in full.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct AllowAll;

impl<T> Permission<T> for AllowAll {
    fn decide(&mut self, _: Caller, _: T, _: &Value) -> Decision {
        Decision::Allow
    }
}

/// Refuses every gated call: a mode in which only silent tools run.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct DenyAll;

impl<T> Permission<T> for DenyAll {
    fn decide(&mut self, _: Caller, _: T, _: &Value) -> Decision {
        Decision::Deny
    }
}
