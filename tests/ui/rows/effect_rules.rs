catalog_macros::catalog!("ui/rows/effect_rules.toml");

fn main() {}
