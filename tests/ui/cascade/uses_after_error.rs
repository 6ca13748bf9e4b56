// One error in the catalog, and a crate that uses the generated API as a real one would.
// The skeleton emitted on error keeps the rows' variants, `tool!`/`tools!`, `ToolSet`, the
// `Catalog` constants and `impl ToolId for Tool`, so only the catalog's error is reported,
// plus the one rustc cannot avoid: without the catalog, `Handler` has no methods (nor do
// the argument types exist), so the `impl Handler` method is not a member of the trait.
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
