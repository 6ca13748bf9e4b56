//! `tracker-mcp`: a small issue tracker's tools served over MCP by `catalog-mcp`, a
//! catalog unlike the example app's, to show the server holds nothing of either.
//!
//! ```sh
//! cargo run -p catalog-mcp --example tracker -- --access read-and-stage
//! ```
//!
//! The catalog is `catalog.toml` beside this file; the handler keeps issues in memory.
//! `catalog-mcp`'s own tests drive this binary with the official MCP Python SDK.

use std::process::ExitCode;

catalog_macros::catalog!("examples/tracker/catalog.toml");

mod issues;

fn main() -> ExitCode {
    catalog_mcp::main(Catalog, "tracker-mcp", issues::Issues::new())
}
