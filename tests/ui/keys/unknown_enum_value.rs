catalog_macros::catalog!("ui/keys/unknown_enum_value.toml");

fn main() {}
