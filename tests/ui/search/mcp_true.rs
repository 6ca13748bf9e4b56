catalog_macros::catalog!("ui/search/mcp_true.toml");

fn main() {}
