//! An MCP server for the example catalog, built on `rmcp`.
//!
//! Each connection has an access level: over stdio the one given on the command line,
//! over streamable HTTP the one its bearer token grants. `tools/list` lists exactly the
//! tools `Catalog::mcp_allowed(level)` holds, rendered by `catalog_core::render::mcp`;
//! `tools/call` goes through `catalog_core::verify` with `Gate::Mcp(level)`, so a call
//! above the level, to a tool kept from MCP, or with arguments that do not fit never
//! reaches the backend, and gated tools pass the same permission hook as in chat.
//!
//! | module | what it holds |
//! |---|---|
//! | [`listing`] | the `tools/list` result of each level |
//! | [`calls`] | [`Tools`]: the call path, free of any transport |
//! | [`gate`] | the `--gated` policy and the asking of the client |
//! | [`elicit`] | asking through MCP elicitation |
//! | [`handler`] | `rmcp`'s `ServerHandler` |
//! | [`tokens`] | bearer tokens and their levels |
//! | [`http`] | the HTTP endpoint and its token check |
//! | [`cli`] | the command line |

pub mod calls;
pub mod cli;
pub mod elicit;
pub mod gate;
pub mod handler;
pub mod http;
pub mod listing;
pub mod tokens;

pub use calls::Tools;
pub use gate::{Answer, Asker, Gated, NoAsker};
pub use handler::{CatalogServer, Granted, Level};
pub use tokens::Tokens;
