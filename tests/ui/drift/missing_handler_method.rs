// A row of the catalog (`openTable`) has no method in the handler.
catalog_macros::catalog!("ui/drift/fixture.toml");

use catalog_core::__private::Value;
use catalog_core::Caller;

struct App;

impl Handler for App {
    type Error = ();

    async fn ask(&self, _caller: Caller, _args: AskArgs) -> Result<Value, ()> {
        Ok(Value::Null)
    }
}

fn main() {}
