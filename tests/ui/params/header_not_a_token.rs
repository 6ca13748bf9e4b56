catalog_macros::catalog!("ui/params/header_not_a_token.toml");

fn main() {}
