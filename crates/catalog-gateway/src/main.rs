//! `catalog-gateway`: see [`catalog_gateway::program`].

fn main() -> std::process::ExitCode {
    catalog_gateway::program::main()
}
