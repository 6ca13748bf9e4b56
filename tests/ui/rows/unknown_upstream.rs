catalog_macros::catalog!("ui/rows/unknown_upstream.toml");

fn main() {}
