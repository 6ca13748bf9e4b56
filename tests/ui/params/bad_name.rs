catalog_macros::catalog!("ui/params/bad_name.toml");

fn main() {}
