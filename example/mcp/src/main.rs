//! `app-mcp`: the example app's tools served to MCP clients. See `app-mcp --help`.
//!
//! Everything but the three names below is `catalog-mcp`'s: the catalog is `app-catalog`'s
//! generated one, and `app-backend` implements its `Handler` over in-memory tables. The
//! README shows this `main` to users (a test holds the two the same).

fn main() -> std::process::ExitCode {
    catalog_mcp::main(app_catalog::Catalog, "app-mcp", app_backend::Backend::new())
}
