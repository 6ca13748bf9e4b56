//! Catalogs are values: one process starts two gateways, each on a catalog of its own (the
//! second renames a row of the first, as a row renamed on a collision is), and each lists
//! and forwards its own rows and no row of the other's. Nothing is shared between them:
//! no process-wide catalog decides what either serves.
//!
//! The upstream is `mcp-server-time` from `cargo xtask test` (`CATALOG_PEER_PYTHON`);
//! without it this test fails under CI and is skipped, with instructions, elsewhere.

#[path = "../../catalog-mcp/tests/common/mod.rs"]
mod common;
mod support;

use std::sync::Arc;
use std::time::Duration;

use catalog_core::Access;
use catalog_gateway::gateway::Requester;
use catalog_gateway::limits::Limits;
use catalog_gateway::rows::Loaded;
use catalog_gateway::traces::Carried;
use catalog_gateway::{Discoverable, Gateway, Serving};
use catalog_mcp::gate::NoAsker;
use catalog_mcp::{GatedPolicy, Grant};
use catalog_result_scan::Scanner;
use rmcp::model::{CallToolResponse, ProtocolVersion};
use serde_json::{Value, json};

/// A catalog's text, read and checked, ready to serve.
fn loaded(text: &str) -> Loaded {
    let catalog = catalog_check::validate(text).unwrap_or_else(|e| panic!("{e:?}"));
    Loaded::new(catalog).expect("a small catalog")
}

/// What every gateway here serves with: rows listed, gated calls allowed, nothing kept.
fn serving() -> Serving {
    Serving {
        snapshot: catalog_upstream::drift::Snapshot::default(),
        gated: GatedPolicy::Allow,
        scanner: Scanner::new(catalog_core::ScanResults::Warn),
        discoverable: Discoverable::Listed,
        retry: Duration::ZERO,
        profiles: catalog_gateway::config::Profiles::default(),
        audit: None,
        metrics: None,
        limits: Limits::new(&[]),
        traces: None,
        shared: None,
        seal: None,
    }
}

/// The names `gateway` lists to a full-access client.
fn listed(gateway: &Gateway, grant: &Grant) -> Vec<String> {
    let mut names: Vec<String> = gateway
        .list(grant, None)
        .into_iter()
        .map(|tool| tool.name.to_string())
        .collect();
    names.sort();
    names
}

/// `name` called on `gateway` with a time zone, as the JSON the client would read.
async fn call(gateway: &Gateway, grant: &Grant, name: &str) -> Value {
    let link = gateway.solo();
    let client = Requester {
        grant,
        session: None,
        trace: Carried::default(),
        link: &link,
        request: None,
        sessionless: None,
    };
    let revision = ProtocolVersion::V_2025_11_25;
    let arguments = json!({"timezone": "UTC"});
    match gateway
        .call(&client, &revision, name, arguments, &NoAsker, None)
        .await
    {
        Ok(CallToolResponse::Complete(result)) => serde_json::to_value(result).unwrap(),
        Ok(other) => panic!("{name}: {other:?}"),
        Err(error) => json!({"error": error.message}),
    }
}

#[test]
fn one_process_serves_two_catalogs() {
    let test = "one_process_serves_two_catalogs";
    let Some(python) = catalog_testkit::peer(test, "CATALOG_PEER_PYTHON") else {
        return;
    };
    let time = std::fs::read_to_string(support::time_catalog(&python, &common::scratch(test)))
        .expect("the imported catalog");
    let renamed = time.replacen(
        "name = \"get_current_time\"",
        "name = \"clock_now\"\nupstream-tool = \"get_current_time\"",
        1,
    );
    assert_ne!(time, renamed, "the imported catalog has the row to rename");
    let grant = Grant {
        access: Access::FullAccess,
        client: Arc::from(test),
        profile: None,
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let first = Gateway::start(loaded(&time), serving()).await;
        let second = Gateway::start(loaded(&renamed), serving()).await;
        assert_eq!(listed(&first, &grant), ["convert_time", "get_current_time"]);
        assert_eq!(listed(&second, &grant), ["clock_now", "convert_time"]);

        // Each forwards its own row to the same upstream tool.
        for (gateway, name) in [(&first, "get_current_time"), (&second, "clock_now")] {
            let answer = call(gateway, &grant, name).await;
            assert_eq!(
                answer["structuredContent"]["timezone"], "UTC",
                "{name}: {answer}"
            );
        }
        // And knows nothing of the other's.
        for (gateway, name) in [(&first, "clock_now"), (&second, "get_current_time")] {
            let answer = call(gateway, &grant, name).await;
            assert_eq!(
                answer["error"],
                format!("Unknown tool: {name}"),
                "{name}: {answer}"
            );
        }
        first.flush();
        second.flush();
    });
}
