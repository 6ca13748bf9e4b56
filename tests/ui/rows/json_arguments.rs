catalog_macros::catalog!("ui/rows/json_arguments.toml");

fn main() {}
