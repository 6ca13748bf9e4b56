//! What becomes of a call the generated code parses: where it goes, or why it could not be
//! parsed.

use alloc::string::String;
use core::fmt;

/// Where a parsed call goes: to the application's handler, or to the agent loop's search.
#[derive(Debug, Clone, PartialEq)]
pub enum Dispatch<Ran, Search> {
    /// A handler ran; its result.
    Ran(Ran),
    /// The call was to the search tool, which the agent loop answers, not a handler.
    Search(Search),
}

/// A call could not be turned into a typed call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// No row has this name.
    UnknownTool(String),
    /// The arguments do not fit the tool's input type.
    BadArguments {
        /// The tool's name.
        tool: &'static str,
        /// Where and why (see [`ArgError`](crate::ArgError)).
        message: String,
    },
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::UnknownTool(name) => write!(f, "no tool named `{name}` in the catalog"),
            CallError::BadArguments { tool, message } => {
                write!(f, "arguments of `{tool}` do not fit its input: {message}")
            }
        }
    }
}

impl core::error::Error for CallError {}
