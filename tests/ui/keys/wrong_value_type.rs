catalog_macros::catalog!("ui/keys/wrong_value_type.toml");

fn main() {}
