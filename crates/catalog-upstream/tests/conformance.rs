//! The official MCP conformance suite's client scenarios against the gateway's client
//! side: `examples/conformance-client.rs` opens sessions with `Upstream` as the gateway
//! does, and the suite runs every client scenario of the 2025-11-25 and 2026-07-28
//! requirement sets on its own revision's wire (2025-11-25's handshake, 2026-07-28's
//! `server/discover` and per-request metadata), plus the ones `catalog-upstream`'s table
//! in `tests/peers/conformance.json` holds it to though the suite does not score them
//! (the client credentials grant). Each passes, or is listed there: as a defect of the
//! suite, or as not applying to a gateway, with why.
//!
//! The suite comes from `cargo xtask test` (`CATALOG_PEER_NODE_BIN`); without it this test
//! fails under CI and is skipped, with instructions, elsewhere.

#[path = "../../catalog-mcp/tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;

use common::conformance::{ClientList, Suite};
use common::example_binary;

/// The revisions whose requirement sets are run, each on its own wire.
const REVISIONS: [&str; 2] = ["2025-11-25", "2026-07-28"];

#[test]
fn the_upstream_client_passes_every_client_scenario_that_applies_at_both_revisions() {
    let Some(suite) = Suite::find(
        "the_upstream_client_passes_every_client_scenario_that_applies_at_both_revisions",
    ) else {
        return;
    };
    let client = example_binary("conformance-client");
    let list = ClientList::of("catalog-upstream");
    let mut wrong = Vec::new();
    let mut every = Vec::new();
    for revision in REVISIONS {
        let (scored, not_scored) = suite.client_scenarios(revision);
        let mut outcomes = BTreeMap::new();
        for scenario in list.to_run(&scored, &not_scored) {
            let outcome = suite.run_client(&client, &scenario, revision);
            outcomes.insert(scenario, outcome);
        }
        let passed = outcomes.values().filter(|o| o.passed()).count();
        let applies = scored
            .iter()
            .filter(|s| !list.not_applicable.contains_key(*s))
            .count();
        eprintln!(
            "{revision}: {passed} of {} run passed; {applies} of {} scored scenarios apply",
            outcomes.len(),
            scored.len()
        );
        wrong.extend(list.check(revision, &scored, &not_scored, &outcomes));
        every.extend(scored);
        every.extend(not_scored);
    }
    for scenario in list.not_applicable.keys().filter(|s| !every.contains(s)) {
        wrong.push(format!(
            "{scenario} is listed as not applicable but no requirement set runs it"
        ));
    }
    assert!(
        wrong.is_empty(),
        "catalog-upstream against tests/peers/conformance.json:\n  {}",
        wrong.join("\n  ")
    );
}
