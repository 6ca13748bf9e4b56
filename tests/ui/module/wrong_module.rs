// `module` is the path of the module `catalog!` is in: a path to another module fails on
// that path, since `tools!` and `tool!` would name that module's items.
mod billing {
    catalog_macros::catalog!("ui/tables.toml", module = crate::support);
}

mod support {}

fn main() {}
