catalog_macros::catalog!("ui/params/header_on_number.toml");

fn main() {}
