catalog_macros::catalog!("ui/rows/input_schema_not_object.toml");

fn main() {}
