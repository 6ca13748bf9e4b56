catalog_macros::catalog!("ui/keys/unknown_tool_key.toml");

fn main() {}
