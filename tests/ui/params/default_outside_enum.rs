catalog_macros::catalog!("ui/params/default_outside_enum.toml");

fn main() {}
