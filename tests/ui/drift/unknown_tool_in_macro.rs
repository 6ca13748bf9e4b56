// `tools![...]` and `tool!(...)` name tools the catalog does not have: rustc's own error,
// on the unknown name, with its suggestion when a tool's name is close.
catalog_macros::catalog!("ui/drift/fixture.toml");

const ACTIVE: ToolSet = tools![openTable, notATool];
const OPEN: Tool = tool!(opnTable);

fn main() {
    let _ = (ACTIVE, OPEN);
}
