//! Talking to a catalog's upstream MCP servers from the command line: listing one
//! server's tools for `import --from-server`, and `check --upstreams`, which compares
//! every pinned row with what its server lists now, as the gateway does at start.

use std::path::Path;
use std::process::ExitCode;

use catalog_check::import::Offers;
use catalog_check::model::CatalogModel;
use catalog_check::model::Transport;
use catalog_upstream::drift::{self, Snapshot};
use catalog_upstream::{Client, Upstream, overrides};
use serde_json::Value;

/// How `cargo catalog` introduces itself to the servers it lists.
const CLIENT: Client = Client {
    name: "cargo-catalog",
    version: env!("CARGO_PKG_VERSION"),
};

/// Starts or reaches the server at `endpoint` and lists its tools, prompts, resources
/// and resource templates as wire objects.
pub(crate) fn list(name: &str, endpoint: &Transport) -> Result<(Vec<Value>, Offers), String> {
    runtime()?.block_on(async {
        let upstream = Upstream::connect(name, endpoint, CLIENT, None, None).await?;
        let listed = listing(&upstream).await;
        upstream.close().await;
        listed
    })
}

/// What an open upstream lists.
async fn listing(upstream: &Upstream) -> Result<(Vec<Value>, Offers), String> {
    Ok((upstream.tools().await?, upstream.offers().await?))
}

/// `check --upstreams`: every upstream's pinned rows against what it lists now. Prints
/// each withheld row with what changed, and each served row that deliberately says
/// something else than its server (a reviewed description, a stricter access level),
/// which the gateway then lists from the row; exit 1 when any row drifted or an upstream
/// is unreachable, as a compile error would.
pub(crate) fn check(path: &str, catalog: &CatalogModel) -> ExitCode {
    let snapshot = match Snapshot::read_for(Path::new(path)) {
        Ok(snapshot) => snapshot,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = match runtime() {
        Ok(runtime) => runtime,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let mut drifted = 0;
    let mut pinned = 0;
    for declared in &catalog.upstreams {
        let name = declared.name.as_str();
        let comparing = crate::progress::spinner(format!("listing upstream `{name}`"));
        let (comparison, listed, offered) = runtime.block_on(async {
            let listed =
                match Upstream::connect(name, &declared.transport, CLIENT, None, None).await {
                    Ok(upstream) => {
                        let listed = listing(&upstream).await;
                        upstream.close().await;
                        listed
                    }
                    Err(why) => Err(why),
                };
            match listed {
                Ok((tools, offers)) => (
                    drift::compare(catalog, name, &tools, &snapshot),
                    tools,
                    drift::compare_offers(catalog, name, Ok(&offers), &snapshot),
                ),
                Err(why) => (
                    drift::unreachable(catalog, name, &why),
                    Vec::new(),
                    drift::compare_offers(catalog, name, Err(&why), &snapshot),
                ),
            }
        });
        comparing.finish_and_clear();
        pinned += offered.len();
        for (i, standing) in offered.iter().filter(|(_, s)| !s.is_current()) {
            drifted += 1;
            eprintln!(
                "error: {} (upstream `{name}`): {standing}\n  = help: review the change, then re-import: cargo catalog import --from-server --name {name} --into {path} ...",
                catalog.offers[*i].what
            );
        }
        for (i, standing) in &comparison.rows {
            let tool = &catalog.tools[*i];
            let definition = tool.upstream.as_ref().and_then(|source| {
                listed
                    .iter()
                    .find(|t| t.get("name").and_then(Value::as_str) == Some(source.tool.as_str()))
            });
            let Some(definition) = definition.filter(|_| standing.is_current()) else {
                continue;
            };
            let overrides = overrides::overrides(tool, definition);
            if !overrides.is_empty() {
                println!(
                    "note: `{}` (upstream `{name}`) says, where its server says otherwise: {}; the gateway lists the row's",
                    tool.name,
                    overrides.join("; ")
                );
            }
        }
        pinned += comparison.rows.len();
        for (i, standing) in comparison.withheld() {
            drifted += 1;
            let tool = &catalog.tools[*i];
            eprintln!(
                "error: `{}` (upstream `{name}`): {standing}\n  = help: review the change, then re-import: cargo catalog import --from-server --name {name} --into {path} ...",
                tool.name
            );
        }
        if !comparison.unimported.is_empty() {
            eprintln!(
                "note: upstream `{name}` lists tools the catalog does not import (never served): {}",
                comparison.unimported.join(", ")
            );
        }
    }
    if drifted > 0 {
        eprintln!(
            "error: {drifted} of {pinned} pins differ from their upstreams; a gateway withholds them"
        );
        ExitCode::FAILURE
    } else {
        println!(
            "{pinned} pins (rows, prompts, resources) of {} upstreams match their servers",
            catalog.upstreams.len()
        );
        ExitCode::SUCCESS
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}
