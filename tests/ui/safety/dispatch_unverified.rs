// A call that did not pass the verifier cannot run: parsing gives a typed value with no
// way to dispatch it, and the trait that dispatches needs a `Proof` only the verifier
// makes for the length of one call. Before, `parse` then `dispatch` ran a gated full-access tool for a read-only MCP
// client with no check at all.
catalog_macros::catalog!("ui/safety/tracker.toml");

use catalog_core::__private::Value;
use catalog_core::{Access, Caller, Context, HandledBy, Output};

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

fn main() {
    let arguments = catalog_core::__private::serde_json::json!({"id": 7});
    let call = ToolCall::parse("close_issue", arguments).unwrap();
    let context = Context::detached(Caller::Mcp(Access::ReadOnly));
    // The old bypass: no such method.
    let _ = call.clone().dispatch(&Tracker, context.clone());
    // Through the trait: the proof cannot be made outside the verifier.
    let _ = <ToolCall as HandledBy<Tracker>>::dispatch(call, &Tracker, context, catalog_core::Proof(::core::marker::PhantomData));
}
