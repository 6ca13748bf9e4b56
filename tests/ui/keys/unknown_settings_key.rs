catalog_macros::catalog!("ui/keys/unknown_settings_key.toml");

fn main() {}
