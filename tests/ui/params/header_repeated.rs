catalog_macros::catalog!("ui/params/header_repeated.toml");

fn main() {}
