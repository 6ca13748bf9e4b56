//! The official MCP conformance suite (`@modelcontextprotocol/conformance`) against
//! `app-mcp` over streamable HTTP, with a full-access token: every scenario passes, or is
//! listed under `app-mcp` in `tests/peers/conformance.json` with the reason it cannot.

#[path = "../../../catalog-mcp/tests/common/mod.rs"]
mod common;

use std::path::Path;

use common::conformance::{Suite, check};
use common::{HttpServer, token};

#[test]
fn the_official_conformance_suite_passes_or_says_why_not() {
    let Some(suite) = Suite::find("the_official_conformance_suite_passes_or_says_why_not") else {
        return;
    };
    let full = token("conformance");
    let server = HttpServer::start(
        Path::new(env!("CARGO_BIN_EXE_app-mcp")),
        &[(full.clone(), "full-access")],
        &["--db", ":memory:"],
    );
    let outcomes = suite.run(&server.url, &full);
    check("app-mcp", &outcomes);
}
