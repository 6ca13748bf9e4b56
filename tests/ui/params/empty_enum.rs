catalog_macros::catalog!("ui/params/empty_enum.toml");

fn main() {}
