// Keys that are written but invalid (a wrong value, a wrong type, a misspelt key) are
// reported once, where they are written, and never also as missing: no "has no `tier`",
// "has no `access`", "has no `description`", "has no `type`" or "has no `name`".
catalog_macros::catalog!("ui/keys/present_but_invalid.toml");

fn main() {}
