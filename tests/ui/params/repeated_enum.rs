catalog_macros::catalog!("ui/params/repeated_enum.toml");

fn main() {}
