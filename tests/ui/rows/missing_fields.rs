catalog_macros::catalog!("ui/rows/missing_fields.toml");

fn main() {}
