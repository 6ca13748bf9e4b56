catalog_macros::catalog!("ui/keys/scan_threshold_out_of_range.toml");

fn main() {}
