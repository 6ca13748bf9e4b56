catalog_macros::catalog!("ui/rows/unknown_search_tool.toml");

fn main() {}
