catalog_macros::catalog!("ui/rows/invalid_name.toml");

fn main() {}
