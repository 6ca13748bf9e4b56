catalog_macros::catalog!("ui/rows/full_access_silent.toml");

fn main() {}
