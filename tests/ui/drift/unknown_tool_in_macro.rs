// `tools![...]` names a tool the catalog does not have.
catalog_macros::catalog!("ui/drift/fixture.toml");

const ACTIVE: ToolSet = tools![openTable, notATool];

fn main() {
    let _ = ACTIVE;
}
