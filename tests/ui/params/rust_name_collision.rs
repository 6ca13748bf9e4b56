catalog_macros::catalog!("ui/params/rust_name_collision.toml");

fn main() {}
