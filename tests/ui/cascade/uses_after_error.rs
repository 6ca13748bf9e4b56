// One error in the catalog, and a crate that uses the generated API as a real one would.
// The expansion emitted on error is the full API of the rows that can be read (their
// variants and parameters, `tool!`/`tools!`, `ToolSet`, `Catalog` with its verifier and
// discovery, `ToolCall`, `Handler`), so only the catalog's error is reported.
catalog_macros::catalog!("ui/cascade/uses_after_error.toml");

use catalog_core::__private::Value;
use catalog_core::{Context, Output};

const LOOKING: ToolSet = tools![openTable, ask];

struct App;

impl Handler for App {
    type Error = &'static str;

    async fn ask(&self, _context: Context, _args: AskArgs) -> Result<Output, &'static str> {
        Ok(Value::Null.into())
    }

    async fn open_table(&self, _context: Context, args: OpenTableArgs) -> Result<Output, &'static str> {
        Ok(Value::String(args.table).into())
    }
}

async fn step(app: &App, name: &str, arguments: Value) -> Option<Value> {
    let chat = Catalog::discovery();
    let via = catalog_core::Via::Chat(&chat);
    match Catalog::verify(via, name, arguments, &mut catalog_core::DenyAll) {
        Ok(catalog_core::Verified::Run(call)) => match call.run(app).await {
            catalog_core::Dispatch::Ran(result) => result.ok()?.into_model_value(),
            catalog_core::Dispatch::Search(args) => Some(Value::String(args.query)),
        },
        _ => None,
    }
}

fn main() {
    assert!(LOOKING.contains(Tool::OpenTable));
    assert_eq!(tool!(ask), Catalog::ASK_TOOL);
    let _ = (Catalog::INFO, step(&App, "openTable", Value::Null));
}
