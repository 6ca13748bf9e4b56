catalog_macros::catalog!("ui/rows/rust_name_collision.toml");

fn main() {}
