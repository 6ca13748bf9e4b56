catalog_macros::catalog!("ui/search/discoverable.toml");

fn main() {}
