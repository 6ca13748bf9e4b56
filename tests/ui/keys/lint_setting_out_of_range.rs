catalog_macros::catalog!("ui/keys/lint_setting_out_of_range.toml");

fn main() {}
