catalog_macros::catalog!("ui/rows/task_rules.toml");

fn main() {}
