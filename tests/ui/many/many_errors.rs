catalog_macros::catalog!("ui/many/many_errors.toml");

fn main() {}
