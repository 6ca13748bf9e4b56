catalog_macros::catalog!("ui/search/has_effect.toml");

fn main() {}
