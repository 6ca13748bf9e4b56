catalog_macros::catalog!("ui/keys/unknown_lint.toml");

fn main() {}
