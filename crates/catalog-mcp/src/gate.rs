//! The server's say on gated tools: the policy given on the command line, and the
//! question put to the client when the policy is to ask.

use std::fmt;
use std::future::Future;

use catalog_core::{Caller, Decision, Permission, ToolSpec, Value};

/// What happens to a call of a gated tool (`--gated`), once it passed the level and
/// argument checks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum GatedPolicy {
    /// Refuse it.
    Deny,
    /// Run it.
    Allow,
    /// Ask the client's user through MCP elicitation; refuse when the client cannot be
    /// asked.
    #[default]
    Ask,
}

impl GatedPolicy {
    /// Every policy, as the command line lists them.
    pub const ALL: [GatedPolicy; 3] = [GatedPolicy::Deny, GatedPolicy::Allow, GatedPolicy::Ask];

    /// The policy as `--gated` spells it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            GatedPolicy::Deny => "deny",
            GatedPolicy::Allow => "allow",
            GatedPolicy::Ask => "ask",
        }
    }

    /// Parses the spelling of [`GatedPolicy::as_str`].
    #[must_use]
    pub fn parse(s: &str) -> Option<GatedPolicy> {
        GatedPolicy::ALL.into_iter().find(|g| g.as_str() == s)
    }
}

impl fmt::Display for GatedPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The verifier's permission hook is the same for chat and MCP; here it says what the
/// policy says, whoever calls and whichever catalog's tool it is.
impl<T> Permission<T> for GatedPolicy {
    fn decide(&mut self, _: Caller, _: T, _: &Value) -> Decision {
        match self {
            GatedPolicy::Deny => Decision::Deny,
            GatedPolicy::Allow => Decision::Allow,
            GatedPolicy::Ask => Decision::Ask,
        }
    }
}

/// How asking the client about one gated call ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Answer {
    /// The user accepted: run the call.
    Approved,
    /// The user declined or dismissed the question, or it timed out.
    Declined,
    /// The client cannot be asked (it declared no form elicitation): the policy falls back
    /// to deny.
    Unasked,
}

/// Puts the question about a gated call to whoever is on the other end.
pub trait Asker: Sync {
    /// Asks whether the tool of row `spec` may run with `arguments`. Between rounds (MCP
    /// 2026-07-28) an unanswered question never resolves: the call ends with it (see
    /// [`crate::rounds`]).
    fn ask(&self, spec: &ToolSpec<'_>, arguments: &Value) -> impl Future<Output = Answer> + Send;
}

/// An asker for callers that can never be asked.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoAsker;

impl Asker for NoAsker {
    async fn ask(&self, _: &ToolSpec<'_>, _: &Value) -> Answer {
        Answer::Unasked
    }
}

/// The question the user reads: what runs, at which level, with what, and what it does
/// (the first sentence of the tool's description).
#[must_use]
pub fn question(spec: &ToolSpec<'_>, arguments: &Value) -> String {
    let access = spec.access.map_or("", catalog_core::Access::as_str);
    let does = spec
        .description
        .split_once(". ")
        .map_or(spec.description, |(first, _)| first);
    format!(
        "An MCP client wants to run `{}` ({access}) with {arguments}. {}. Allow it?",
        spec.name,
        does.trim_end_matches('.')
    )
}
