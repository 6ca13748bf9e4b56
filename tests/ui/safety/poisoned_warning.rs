// A finding of a lint at `warn` reaches the build's output as a warning; denied here, so
// the case fails and its message is compared.
#![deny(deprecated)]

catalog_macros::catalog!("ui/safety/poisoned_warning.toml");

fn main() {}
