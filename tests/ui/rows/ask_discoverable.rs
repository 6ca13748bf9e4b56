catalog_macros::catalog!("ui/rows/ask_discoverable.toml");

fn main() {}
