catalog_macros::catalog!("ui/params/array_without_items.toml");

fn main() {}
