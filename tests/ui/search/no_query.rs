catalog_macros::catalog!("ui/search/no_query.toml");

fn main() {}
