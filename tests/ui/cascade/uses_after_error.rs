// One error in the catalog, and a crate that uses the generated API as a real one would.
// Only the catalog's errors should be reported; today the skeleton emitted on error lacks
// the rows' variants, `tool!`, the `Catalog` constants and `impl ToolId for Tool`, so every
// use below adds a rustc error of its own (reported to the lead as a bug).
catalog_macros::catalog!("ui/cascade/uses_after_error.toml");

use catalog_core::__private::Value;
use catalog_core::Caller;

const LOOKING: ToolSet = tools![openTable, ask];

struct App;

impl Handler for App {
    type Error = ();

    async fn open_table(&self, _caller: Caller, args: OpenTableArgs) -> Result<Value, ()> {
        Ok(Value::String(args.table))
    }
}

fn main() {
    assert!(LOOKING.contains(Tool::OpenTable));
    assert_eq!(tool!(ask), Catalog::ASK_TOOL);
    let _ = App;
}
