//! An MCP server for any catalog that `catalog!` compiled, built on `rmcp`.
//!
//! Each connection has an access level: over stdio the one given on the command line,
//! over streamable HTTP the one its bearer token grants. `tools/list` lists exactly the
//! tools `Catalog::mcp_allowed(level)` holds, rendered by `catalog_wire::render::mcp`;
//! `tools/call` goes through `Catalog::verify` with `Via::Mcp(level, &Catalog)`, so a call above
//! the level, to a tool kept from MCP, or with arguments that do not fit never reaches
//! the handler, and gated tools pass the same permission hook as in chat.
//!
//! # Serving a catalog
//!
//! A binary depends on its catalog's crate (the one that calls `catalog!`), the crate
//! with its `Handler`, and this one; its `main` is one call to [`main`], which reads the
//! command line (`--access`, `--http`, `--tokens`, `--gated`; see [`cli::ServeArgs`]):
//!
//! ```no_run
//! // The catalog's typed API; usually a crate of its own that the server depends on.
//! catalog_macros::catalog!("examples/hello.toml");
//!
//! use catalog_core::{Context, Output, Value};
//!
//! struct Greeter;
//!
//! impl Handler for Greeter {
//!     type Error = String;
//!
//!     async fn ask(&self, _: Context, _: AskArgs) -> Result<Output, String> {
//!         Err("no one to ask here".into())
//!     }
//!
//!     async fn greet(&self, context: Context, args: GreetArgs) -> Result<Output, String> {
//!         // A client that asked for progress hears it; one that did not, nothing.
//!         let _ = context.progress(1.0, Some(1.0), Some("greeting")).await;
//!         Ok(Value::from(format!("Hello, {}!", args.name)).into())
//!     }
//! }
//!
//! fn main() -> std::process::ExitCode {
//!     catalog_mcp::main(Catalog, "hello-mcp", Greeter)
//! }
//! ```
//!
//! A program whose handler needs flags of its own (a database path) calls [`main_with`]
//! instead; one that needs more control composes the pieces: [`cli::command`] (or
//! [`cli::ServeArgs`] flattened into its own clap parser),
//! [`Tools::new`], then [`stdio::serve`] or [`http::serve`] with a [`Tokens`] file.
//!
//! | module | what it holds |
//! |---|---|
//! | [`program`] | [`main`] and [`main_with`]: the command line, logging and serving, ready-made |
//! | [`cli`] | the command line, on clap |
//! | [`complete`] | results that say they are complete (`resultType`, 2026-07-28) |
//! | [`calls`] | [`Tools`]: the call path, free of any transport, and [`calls::admit`], the gate every call passes, the gateway's too |
//! | [`listing`] | the `tools/list` result of each level |
//! | [`gate`] | the `--gated` policy and the asking of the client |
//! | [`elicit`] | asking through MCP elicitation |
//! | [`tasks`] | MCP's tasks extension (2026-07-28): the calls that went on as tasks, and a handler's context in one ([`calls::task`] decides which calls do: a row that says `task`, once its handler waits on its work) |
//! | [`rounds`] | multi round-trip requests (2026-07-28): a call that asks ends with its questions and runs again with the answers, its state sealed |
//! | [`handler`] | [`Server`], the one `rmcp` `ServerHandler` of every server here, and [`handler::call_tool`], the `tools/call` of each |
//! | [`backend`] | [`Backend`]: what one server answers, capability by capability, each request with its grant |
//! | [`served`] | [`CatalogServer`]: a crate's own catalog as a backend |
//! | [`identity`] | how the server introduces itself |
//! | [`logging`] | the server's events as MCP `notifications/message` to each client |
//! | [`offers`] | [`Offers`]: a server's own prompts, resources, templates, completions and subscriptions |
//! | [`stdio`] | serving one client on standard input and output |
//! | [`talk`] | a handler's context over MCP: progress, log messages, questions, sampling, roots, cancellation |
//! | [`http`] | the HTTP endpoint and its token check |
//! | [`auth`] | [`Auth`]: who a request over HTTP is, from static tokens or OAuth access tokens |
//! | [`tokens`] | bearer tokens and their levels |
//! | `oauth` | (feature `oauth`) OAuth 2.1 access tokens: the server as a resource server (MCP authorization 2025-11-25; RFC 9728, 8707, 7662, 8414) |

pub mod auth;
pub mod backend;
pub mod calls;
pub mod cli;
pub mod complete;
pub mod elicit;
pub mod gate;
pub mod handler;
pub mod http;
pub mod identity;
pub mod listing;
pub mod logging;
#[cfg(feature = "oauth")]
pub mod oauth;
pub mod offers;
pub mod program;
pub mod rounds;
pub mod served;
pub mod stdio;
pub mod talk;
pub mod tasks;
pub mod tokens;

/// The MCP SDK this crate is built on: [`Tools::call`] and [`Tools::list`] answer in its
/// types, and [`Server`] is its `ServerHandler`.
pub use rmcp;

pub use auth::Auth;
pub use backend::{Backend, Level};
pub use calls::Tools;
pub use gate::{Answer, Asker, GatedPolicy, NoAsker};
pub use handler::{Grant, Server};
pub use identity::{Identity, VERSION};
pub use offers::{Offered, Offers, Subscriptions};
pub use program::{Flag, main, main_offering, main_with};
pub use served::CatalogServer;
pub use tokens::Tokens;
