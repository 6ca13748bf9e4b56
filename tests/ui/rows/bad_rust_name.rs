catalog_macros::catalog!("ui/rows/bad_rust_name.toml");

fn main() {}
