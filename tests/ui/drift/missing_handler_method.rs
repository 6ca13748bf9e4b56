// A row of the catalog (`openTable`) has no method in the handler.
catalog_macros::catalog!("ui/drift/fixture.toml");

use catalog_core::__private::Value;
use catalog_core::{Context, Output};

struct App;

impl Handler for App {
    type Error = ();

    async fn ask(&self, _context: Context, _args: AskArgs) -> Result<Output, ()> {
        Ok(Value::Null.into())
    }
}

fn main() {}
