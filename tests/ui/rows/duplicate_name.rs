catalog_macros::catalog!("ui/rows/duplicate_name.toml");

fn main() {}
