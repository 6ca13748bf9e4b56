//! The official MCP conformance suite (`@modelcontextprotocol/conformance`) against the
//! reference catalog (`examples/reference/`) served by `catalog-mcp` over streamable
//! HTTP with a full-access token: every scenario the 2025-11-25 and 2026-07-28 revisions
//! score passes, each on its revision's wire, or is listed under `reference-mcp` in
//! `tests/peers/conformance.json` with the defect of the suite that fails it, and so do
//! the pending scenarios it is held to there (the HTTP headers of 2026-07-28, among them
//! `Mcp-Param-*` for `test_header_routing`'s parameters that say `header`). The tools
//! the suite calls are the catalog's rows, answered by handlers that log, report
//! progress, sample the client's model and ask its user through their context, mid-call
//! on 2025-11-25 and between rounds on 2026-07-28, with no difference in the handler; the
//! prompts, resources and completions are the example's own offers. On 2026-07-28 the
//! ten scenarios of the tasks extension, which the suite runs without scoring, are held
//! too (`held` in the same file, each with why): the catalog's rows that say `task` are
//! served as tasks.

mod common;

use common::conformance::{REVISIONS, Suite, check};
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
    for revision in REVISIONS {
        let outcomes = suite.run(&server.url, &full, revision);
        check(
            "reference-mcp",
            revision,
            &suite.scored(revision),
            &outcomes,
        );
    }
}
