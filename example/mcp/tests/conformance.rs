//! The official MCP conformance suite (`@modelcontextprotocol/conformance`) against
//! `app-mcp` over streamable HTTP, with a full-access token: the scenarios that hold a
//! server to the protocol whatever its tools (the handshake, ping, the tool listing,
//! logging, concurrent streams, DNS rebinding) pass, on 2025-11-25 and on 2026-07-28.
//! The suite's other scored scenarios call tools, prompts and resources of its own
//! reference server, which `catalog-mcp`'s reference catalog serves and passes
//! (`crates/catalog-mcp/tests/conformance.rs`).

#[path = "../../../crates/catalog-mcp/tests/common/mod.rs"]
mod common;

use std::path::Path;

use common::conformance::{REVISIONS, Suite, check};
use common::{HttpServer, token};

/// The scored scenarios that call nothing of the suite's own reference server, by
/// revision (2026-07-28 has no handshake, ping or `logging/setLevel`).
fn protocol(revision: &str) -> &'static [&'static str] {
    match revision {
        "2025-11-25" => &[
            "server-initialize",
            "ping",
            "tools-list",
            "logging-set-level",
            "server-sse-multiple-streams",
            "dns-rebinding-protection",
        ],
        _ => &[
            "tools-list",
            "server-sse-multiple-streams",
            "dns-rebinding-protection",
        ],
    }
}

#[test]
fn the_protocol_scenarios_of_the_official_suite_pass() {
    let Some(suite) = Suite::find("the_protocol_scenarios_of_the_official_suite_pass") else {
        return;
    };
    let full = token("conformance");
    let server = HttpServer::start(
        Path::new(env!("CARGO_BIN_EXE_app-mcp")),
        &[(full.clone(), "full-access")],
        &["--db", ":memory:"],
    );
    for revision in REVISIONS {
        let scored = suite.scored(revision);
        let scenarios = protocol(revision);
        let held: Vec<String> = scenarios.iter().map(|s| (*s).to_owned()).collect();
        assert!(
            held.iter().all(|s| scored.contains(s)),
            "a protocol scenario is no longer scored on {revision}: {held:?} against {scored:?}"
        );
        let outcomes = suite.run_scenarios(&server.url, &full, revision, scenarios);
        check("app-mcp", revision, &held, &outcomes);
    }
}
