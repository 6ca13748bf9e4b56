catalog_macros::catalog!("ui/params/default_wrong_type.toml");

fn main() {}
