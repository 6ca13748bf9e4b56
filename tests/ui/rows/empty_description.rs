catalog_macros::catalog!("ui/rows/empty_description.toml");

fn main() {}
