//! The expansion under the strictest crate attributes: no prelude, every public item
//! documented, every warning an error.
#![no_implicit_prelude]
#![deny(missing_docs, warnings)]

::catalog_macros::catalog!("ui/tables.toml");

const NONE: ToolSet = tools![];
const SOME: ToolSet = tools![openTable, "listTables",];

fn main() {
    ::std::assert_eq!(
        Tool::from_name("openTable"),
        ::std::option::Option::Some(Tool::OpenTable)
    );
    ::std::assert!(NONE.is_empty());
    ::std::assert_eq!(SOME.len(), 2);
    ::std::assert_eq!(tool!(openTable), Tool::OpenTable);
    ::std::assert_eq!(tool!("listTables"), Tool::ListTables);
}
