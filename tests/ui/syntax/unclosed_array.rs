catalog_macros::catalog!("ui/syntax/unclosed_array.toml");

fn main() {}
