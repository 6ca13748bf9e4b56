// One verification runs one call: running a verified call takes it by value, and it cannot
// be copied to run again (a gated tool the person approved once runs once).
catalog_macros::catalog!("ui/safety/tracker.toml");

use catalog_core::__private::Value;
use catalog_core::{AllowAll, Context, Output, Via, Verified};

struct Tracker;

impl Handler for Tracker {
    type Error = &'static str;

    async fn ask(&self, _context: Context, args: AskArgs) -> Result<Output, &'static str> {
        Ok(Value::String(args.question).into())
    }

    async fn close_issue(&self, _context: Context, _args: CloseIssueArgs) -> Result<Output, &'static str> {
        Ok(Value::Bool(true).into())
    }
}

async fn close_twice() {
    let chat = Catalog::discovery();
    let arguments = catalog_core::__private::serde_json::json!({"id": 7});
    let Ok(Verified::Run(call)) = Catalog::verify(Via::Chat(&chat), "close_issue", arguments, &mut AllowAll) else {
        return;
    };
    let copy = call.clone();
    let _ = call.run(&Tracker).await;
    let _ = copy.run(&Tracker).await;
}

fn main() {
    let _ = close_twice();
}
