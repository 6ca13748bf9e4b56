catalog_macros::catalog!("ui/syntax/invalid_toml.toml");

fn main() {}
