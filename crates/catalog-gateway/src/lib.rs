//! A catalog gateway: one governed MCP endpoint in front of existing MCP servers.
//!
//! The catalog's `[[upstream]]` tables say where each server is; its rows, imported with
//! `cargo catalog import --from-server` and reviewed like any other, say how each tool is
//! shown (inline or discoverable), who may call it (access level, tier) and with what
//! arguments, and pin the upstream's definition with a digest. The gateway reads the
//! catalog at start, starts or reaches each upstream, and serves:
//!
//! - `tools/list` at the client's level, without the rows whose upstream definition
//!   drifted from its pin;
//! - `tools/call` through the catalog's verifier (level, arguments against the reviewed
//!   schema, the gated-tool policy), and only then forwarded;
//! - the prompts, resources and resource templates the catalog's `[[prompt]]` and
//!   `[[resource]]` tables pin, at the client's level and as reviewed, their texts read by
//!   the result scanner;
//! - on `notifications/*/list_changed` from an upstream, the comparison again, and the
//!   clients told.
//!
//! | module | what it holds |
//! |---|---|
//! | [`program`] | the `catalog-gateway` command line |
//! | [`config`] | the operator's file: tokens, OAuth ([`config::oauth`]), client profiles, audit, metrics, limits, traces, the replicas' store |
//! | [`audit`] | the audit log: a JSON line per call, written before the answer |
//! | [`metrics`] | Prometheus metrics and their endpoint |
//! | [`limits`] | rate limits per client and tool |
//! | [`traces`] | OpenTelemetry spans of calls and upstream requests, over OTLP |
//! | [`gateway`] | [`Gateway`]: the state, the listing and the one call path |
//! | [`server`] | [`Session`]: one client session, `rmcp`'s `ServerHandler` |
//! | [`express`] | over stdio, the calls that need nothing of the session, answered beside the SDK |
//! | [`listen`] | `subscriptions/listen` streams of clients without a session (2026-07-28) |
//! | [`offered`] | the upstreams' prompts, resources and templates the catalog pins |
//! | [`rows`] | the catalog read at start as `catalog_core` tools |
//! | [`discovered`] | where a session's search finds live: here, or shared |
//! | [`replicas`] | the Redis store replicas share: sessions and discovery state |
//!
//! Over HTTP, with an `[oauth]` table in its configuration, the gateway is an OAuth 2.1
//! resource server (MCP authorization 2025-11-25; RFC 9728 metadata, RFC 8707 audience,
//! RFC 7662 introspection, RFC 8414 discovery): see `catalog_mcp::oauth` and
//! [`config::oauth`].
//!
//! The sessions with the upstreams, the drift comparison and the snapshot file are
//! `catalog_upstream`'s, which `cargo catalog` uses too.

pub mod audit;
pub mod config;
pub mod discovered;
pub mod express;
pub mod gateway;
pub mod limits;
pub mod listen;
pub mod metrics;
pub mod offered;
pub mod program;
pub mod relay;
pub mod replicas;
pub mod rows;
pub mod server;
pub mod traces;

pub use gateway::{Discoverable, Gateway, Serving};
pub use server::Session;
