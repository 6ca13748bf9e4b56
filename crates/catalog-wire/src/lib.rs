//! Each chat provider's wire format for a compiled tool catalog, and the agent step
//! between two requests.
//!
//! A catalog's rows are [`catalog_core`]'s; this crate writes them and reads the replies
//! in each provider's own shapes, so an application's agent owns only its HTTP calls:
//!
//! | module | what it holds |
//! |---|---|
//! | [`render`] | tool lists in each provider's request format, and MCP's `tools/list` |
//! | [`provider`] | [`Provider`], the one list of chat APIs; replies and streams read, tool results written, the [`Conversation`](provider::Conversation) kept |
//! | [`agent`] | [`Agent`]: a conversation's discovery state, and each step from a reply to its results |
//!
//! ```
//! use catalog_core::CompiledCatalog;
//! use catalog_wire::{Agent, Provider};
//!
//! /// A conversation in a compiled catalog: `start(Catalog)` for the generated `Catalog`,
//! /// whose type gives the rest. Its inline tools are active.
//! fn start<C: CompiledCatalog<W>, const W: usize>(catalog: C) -> Agent<'static, C, W> {
//!     Agent::new(catalog, Provider::Anthropic)
//! }
//! ```
//!
//! The crate is `no_std` (with `alloc`), as the runtime is, so an agent can run in the
//! browser.
#![no_std]

extern crate alloc;

pub mod agent;
pub mod provider;
pub mod render;

pub use agent::Agent;
pub use provider::Provider;
