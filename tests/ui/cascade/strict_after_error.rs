//! The skeleton emitted on error under the strictest crate attributes: no prelude, every
//! public item documented, every warning an error. Only the catalog's error is reported.
#![no_implicit_prelude]
#![deny(missing_docs, warnings)]

::catalog_macros::catalog!("ui/cascade/uses_after_error.toml");

const LOOKING: ToolSet = tools![openTable, "searchTools"];

fn main() {
    ::std::assert!(LOOKING.contains(tool!(openTable)));
    ::std::assert!(Catalog::WRITES.is_empty());
    ::std::assert_eq!(Catalog::SEARCH_TOOL, Tool::SearchTools);
    ::std::assert_eq!(Catalog::SETTINGS.ask_tool, "ask");
    ::std::assert_eq!(
        Tool::from_name("ask"),
        ::std::option::Option::Some(Tool::Ask)
    );
    ::std::assert!(ToolCall::parse("ask", ::catalog_core::__private::Value::Null).is_err());
    for tool in Tool::ALL {
        let _ = (
            tool.spec(),
            tool.index(),
            ::catalog_core::Lookup::name(&Catalog, tool),
        );
    }
}
