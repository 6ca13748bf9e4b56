catalog_macros::catalog!("ui/rows/no_settings.toml");

fn main() {}
