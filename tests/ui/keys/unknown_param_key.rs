catalog_macros::catalog!("ui/keys/unknown_param_key.toml");

fn main() {}
