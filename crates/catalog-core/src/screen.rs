//! What reads a handler's result before the model does: a result scanner (the
//! `catalog-result-scan` crate's), or any policy of the application's. The agent step, the MCP
//! server and the gateway hand every result to one.

use alloc::string::String;

use crate::{Rejection, ToolSpec, Value};

/// What a screen made of a result.
#[derive(Clone, Debug, PartialEq)]
pub enum Screened {
    /// The result, for the model as it is (or as the screen cleaned it).
    Pass(Value),
    /// The result with a notice for the model, naming what was found in it.
    Flagged {
        /// The result (cleaned or cut, as the screen's policy says).
        result: Value,
        /// What the model reads before it.
        notice: String,
    },
    /// The model gets this rejection instead of the result.
    Withheld(Rejection),
}

/// Reads the results of catalog `T`'s tools before the model does.
pub trait Screen<T>: Send + Sync {
    /// What the model reads of `tool`'s `result`; `spec` is the tool's row.
    fn screen(&self, tool: T, spec: &ToolSpec<'_>, result: Value) -> Screened;
}

/// Lets every result through unread: the screen of an agent given none.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoScreen;

impl<T> Screen<T> for NoScreen {
    fn screen(&self, _: T, _: &ToolSpec<'_>, result: Value) -> Screened {
        Screened::Pass(result)
    }
}
