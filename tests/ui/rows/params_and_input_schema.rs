catalog_macros::catalog!("ui/rows/params_and_input_schema.toml");

fn main() {}
