catalog_macros::catalog!("ui/search/has_tier.toml");

fn main() {}
