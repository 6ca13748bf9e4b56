//! The official MCP conformance suite (`@modelcontextprotocol/conformance`) against
//! `app-mcp` over streamable HTTP, with a full-access token: the scenarios that hold a
//! server to the protocol whatever its tools (the handshake, ping, the tool listing,
//! logging, concurrent streams, DNS rebinding) pass. The suite's other scored scenarios
//! call tools, prompts and resources of its own reference server, which `catalog-mcp`'s
//! reference catalog serves and passes (`catalog-mcp/tests/conformance.rs`).

#[path = "../../../catalog-mcp/tests/common/mod.rs"]
mod common;

use std::path::Path;

use common::conformance::{Suite, check};
use common::{HttpServer, token};

/// The scored scenarios that call nothing of the suite's own reference server.
const PROTOCOL: [&str; 6] = [
    "server-initialize",
    "ping",
    "tools-list",
    "logging-set-level",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
];

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
    let scored = suite.scored();
    let protocol: Vec<String> = PROTOCOL.iter().map(|s| (*s).to_owned()).collect();
    assert!(
        protocol.iter().all(|s| scored.contains(s)),
        "a protocol scenario is no longer scored: {protocol:?} against {scored:?}"
    );
    let outcomes = suite.run_scenarios(&server.url, &full, &PROTOCOL);
    check("app-mcp", &protocol, &outcomes);
}
