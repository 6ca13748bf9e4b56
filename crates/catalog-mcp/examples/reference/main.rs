//! `reference-mcp`: the tools, prompts and resources the official MCP conformance suite
//! calls on its reference server, served by `catalog-mcp` from a catalog of its own.
//!
//! ```sh
//! cargo run -p catalog-mcp --example reference -- --http 127.0.0.1:8931 --tokens tokens.toml
//! ```
//!
//! The tools are `catalog.toml`'s rows, answered by [`tools::Reference`], whose handlers
//! talk back through their context (log messages, progress, sampling, a form for the
//! user); the prompts, resources, template, completions and subscriptions are
//! [`offers::Offered`]. `catalog-mcp`'s conformance test runs the suite against it.

use std::process::ExitCode;

catalog_macros::catalog!("examples/reference/catalog.toml");

mod offers;
mod tools;

fn main() -> ExitCode {
    catalog_mcp::main_offering(
        Catalog,
        "reference-mcp",
        tools::Reference,
        offers::Offered::new(),
    )
}
