// `module` starts at the crate root: the macros name the catalog from every module, and
// from other crates, through `$crate`.
mod billing {
    catalog_macros::catalog!("ui/tables.toml", module = self::billing);
}

mod orders {
    catalog_macros::catalog!("ui/tables.toml", modul = crate::orders);
}

fn main() {}
