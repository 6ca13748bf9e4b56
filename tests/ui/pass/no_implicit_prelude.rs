//! The expansion under the strictest crate attributes: no prelude, every public item
//! documented, every warning an error.
#![no_implicit_prelude]
#![deny(missing_docs, warnings)]

::catalog_macros::catalog!("ui/example.toml");

fn main() {
    ::std::assert_eq!(
        Tool::from_name("openTable"),
        ::std::option::Option::Some(Tool::OpenTable)
    );
}
