catalog_macros::catalog!("ui/params/schema_not_json.toml");

fn main() {}
