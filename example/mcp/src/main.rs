//! `app-mcp`: the example app's tools served to MCP clients. See `app-mcp --help`.
//!
//! Everything but the names below is `catalog-mcp`'s: the catalog is `app-catalog`'s
//! generated one, and `app-backend` implements its `Handler` over the database file
//! `--db PATH` (`tables.db` in the folder the server runs in unless given; `:memory:`
//! for a database that lives as long as the process). The guide's MCP chapter shows this
//! `main` to users (a test holds the two the same).

fn main() -> std::process::ExitCode {
    let db = catalog_mcp::Flag {
        name: "--db",
        value: "PATH",
        help: "the database file, made with the example data if new (default: tables.db)",
    };
    catalog_mcp::main_with(
        app_catalog::Catalog,
        "app-mcp",
        &[db],
        |values| match values[0].as_deref().unwrap_or("tables.db") {
            ":memory:" => Ok(app_backend::Backend::new()),
            path => app_backend::Backend::open(path).map_err(|e| e.to_string()),
        },
    )
}
