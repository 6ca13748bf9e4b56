catalog_macros::catalog!("ui/params/required_with_default.toml");

fn main() {}
