catalog_macros::catalog!("ui/rows/denied_lint.toml");

fn main() {}
