catalog_macros::catalog!("ui/rows/wire_name_collision.toml");

fn main() {}
