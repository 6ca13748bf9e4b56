catalog_macros::catalog!("ui/params/minimum_above_maximum.toml");

fn main() {}
