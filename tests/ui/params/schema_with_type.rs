catalog_macros::catalog!("ui/params/schema_with_type.toml");

fn main() {}
