// The framework tests' own rich catalog, `tests/data/tables.toml` (copied to `ui/tables.toml` by the harness).
catalog_macros::catalog!("ui/tables.toml");

const LOOKING: ToolSet = tools![openTable, listTables, "describeTable"];

fn main() {
    assert_eq!(Tool::from_name("openTable"), Some(Tool::OpenTable));
    assert_eq!(Tool::from_name("notATool"), None);
    assert_eq!(Catalog::SEARCH_TOOL.name(), "searchTools");
    assert_eq!(Catalog::ASK_TOOL, tool!(ask));
    assert_eq!(LOOKING.len(), 3);
    assert!(LOOKING.contains(Tool::ListTables));
    assert!(Catalog::INLINE.contains(Tool::OpenTable));
    assert_eq!(Tool::ALL.len(), Tool::COUNT);
    for tool in Tool::ALL {
        assert_eq!(Tool::from_name(tool.name()), Some(tool));
    }
}
