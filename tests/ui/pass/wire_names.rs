//! Wire names, the verifier's shapes and the `Call` impl, under the strictest crate
//! attributes. `rows_get` keeps its name; `rows.get`, which would spell the same on the
//! wire, and the name over 64 characters are hashed. Specs are decoded on first use and
//! live as long as the program.
#![no_implicit_prelude]
#![deny(missing_docs, warnings)]

::catalog_macros::catalog!("ui/pass/wire_names.toml");

use ::catalog_core::{Call, Shape};
use ::std::{assert, assert_eq, option::Option::Some};

fn main() {
    assert_eq!(Tool::RowsGet.spec().wire_name, "rows_get");
    let dotted = Tool::RowsGetDotted.spec().wire_name;
    assert!(dotted.starts_with("rows_get_") && dotted.len() == 17);
    let long = Tool::WorkbookSheetsTablesColumnsFormattingConditionalRulesListAll;
    assert_eq!(long.spec().wire_name.len(), 64);
    for tool in Tool::ALL {
        assert_eq!(Tool::from_wire_name(tool.spec().wire_name), Some(tool));
    }
    let offset: &'static Shape = &Tool::RowsGetDotted.spec().input;
    let Shape::Object(input) = offset else {
        ::std::panic!("the input is an object");
    };
    assert!(input.closed);
    let Shape::Number(bounds) = input.properties[0].shape else {
        ::std::panic!("ratio is a number");
    };
    assert_eq!(bounds.minimum, Some(-1.5));
    assert_eq!(bounds.maximum, Some(1000.0));
    let call = <ToolCall as Call>::from_checked(Tool::RowsGet, ::catalog_core::Value::Null);
    assert_eq!(call.map(|c| Call::tool(&c)), ::std::result::Result::Ok(Tool::RowsGet));
}
