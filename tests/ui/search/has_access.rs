catalog_macros::catalog!("ui/search/has_access.toml");

fn main() {}
