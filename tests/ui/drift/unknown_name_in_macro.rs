// A tool named by its string in `tools![...]` or `tool!(...)` that the catalog does not
// have: the error names it, with the nearest name when one is close.
catalog_macros::catalog!("ui/drift/fixture.toml");

const ACTIVE: ToolSet = tools!["openTable", "opnTable"];
const OTHER: Tool = tool!("sendEmail");

fn main() {
    let _ = (ACTIVE, OTHER);
}
