//! `notes-mcp`: the notes app's tools over MCP, with the project's generic server.
//! `notes-mcp --help` lists the options (stdio at a level, or streamable HTTP with tokens).

fn main() -> std::process::ExitCode {
    catalog_mcp::main(
        notes_catalog::Catalog,
        "notes-mcp",
        notes_server::Notes::seeded(),
    )
}
