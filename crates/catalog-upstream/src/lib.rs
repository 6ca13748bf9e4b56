//! A catalog's upstream MCP servers, from the client's side: what `cargo catalog import
//! --from-server` and `check --upstreams` need, and what the gateway builds its endpoint
//! on, without the server half.
//!
//! | module | what it holds |
//! |---|---|
//! | [`client`] | [`Upstream`]: a session with one server, started (stdio) or reached (streamable HTTP), its listings read as wire objects |
//! | `express` | `tools/call` to a stdio upstream beside the SDK's session, the short way |
//! | [`lines`] | a process's pipes a line at a time, shared with the SDK's transport |
//! | [`drift`] | each pinned row and offer against what its server lists now; the snapshot file of the definitions as imported |
//! | [`revision`] | which MCP revision a session opens with: 2025-11-25's handshake (the default), 2026-07-28's `server/discover`, or the newest the upstream speaks |
//! | `rounds` | results of 2026-07-28 that ask for input first: each request asked through the relay, the call sent again with the answers and the upstream's state |
//! | `oauth` | access tokens for an upstream behind an OAuth authorization server: the client credentials grant, asked for when the upstream answers 401 and again before a token expires |
//! | [`overrides`] | where a row says something else than its server's definition, named, and applied to what the gateway lists |
//! | [`tasks`] | a task an upstream made of a call (MCP's tasks extension): its state, answers and cancellation, asked for a client |
//! | [`tls`] | the TLS crypto provider HTTP clients need |
//! | `supplied` | the `env` and `headers` values an `[[upstream]]` reads from the environment or a file (`from-env`, `from-file`), read at each connection |
//!
//! The digest a row pins and the names of changed fields are the compiler's
//! (`catalog_check::pin`), since `check` reads pins without reaching any server.

pub mod client;
pub mod drift;
mod express;
pub mod lines;
mod oauth;
pub mod overrides;
pub mod relay;
pub mod revision;
mod rounds;
mod supplied;
pub mod tasks;
pub mod tls;

pub use client::{Answered, CallFailed, Client, Upstream};
pub use revision::Revision;
