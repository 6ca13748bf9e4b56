//! The official MCP conformance suite (`@modelcontextprotocol/conformance`) against the
//! reference catalog (`examples/reference/`) served by `catalog-mcp` over streamable
//! HTTP with a full-access token: every scenario the 2025-11-25 revision scores passes,
//! or is listed under `reference-mcp` in `tests/peers/conformance.json` with the defect of
//! the suite that fails it. The tools the suite calls are the catalog's rows, answered by
//! handlers that log, report progress, sample the client's model and ask its user through
//! their context; the prompts, resources and completions are the example's own offers.

mod common;

use common::conformance::{Suite, check};
use common::{HttpServer, example_binary, token};

#[test]
fn the_reference_catalog_passes_every_scored_scenario() {
    let Some(suite) = Suite::find("the_reference_catalog_passes_every_scored_scenario") else {
        return;
    };
    let full = token("reference");
    let server = HttpServer::start(
        &example_binary("reference"),
        &[(full.clone(), "full-access")],
        &[],
    );
    let outcomes = suite.run(&server.url, &full);
    check("reference-mcp", &suite.scored(), &outcomes);
}
