// Tool names that are Rust keywords, start with a digit, or hold no identifier at all
// still derive valid identifiers: `self` → `Tool::ToolSelf` and `fn tool_self`, `type` →
// `Tool::Type` and `fn r#type`, `3d` → `Tool::Tool3d`, `a.b-c` → `Tool::ABC`, `_` →
// `Tool::Tool`. `tool!` takes the name as an identifier when it is one (`r#type`), else
// as a string.
catalog_macros::catalog!("ui/pass/tricky_names.toml");

use catalog_core::__private::Value;
use catalog_core::Caller;

struct App;

impl Handler for App {
    type Error = ();

    async fn ask(&self, _: Caller, _: AskArgs) -> Result<Value, ()> {
        Ok(Value::Null)
    }
    async fn tool_self(&self, _: Caller, _: ToolSelfArgs) -> Result<Value, ()> {
        Ok(Value::Null)
    }
    async fn crate_(&self, _: Caller, _: CrateArgs) -> Result<Value, ()> {
        Ok(Value::Null)
    }
    async fn super_(&self, _: Caller, _: SuperArgs) -> Result<Value, ()> {
        Ok(Value::Null)
    }
    async fn r#type(&self, _: Caller, _: TypeArgs) -> Result<Value, ()> {
        Ok(Value::Null)
    }
    async fn tool3d(&self, _: Caller, _: Tool3dArgs) -> Result<Value, ()> {
        Ok(Value::Null)
    }
    async fn abc(&self, _: Caller, _: ABCArgs) -> Result<Value, ()> {
        Ok(Value::Null)
    }
    async fn tool(&self, _: Caller, args: ToolArgs) -> Result<Value, ()> {
        Ok(Value::from(args.mode.as_str()))
    }
}

const PICKED: ToolSet = tools![r#type, "self", "3d", "a.b-c", "_", ask];

fn main() {
    assert_eq!(tool!("self"), Tool::ToolSelf);
    assert_eq!(tool!(r#type), Tool::Type);
    assert_eq!(tool!("crate"), Tool::Crate);
    assert_eq!(tool!("super"), Tool::Super);
    assert_eq!(Tool::from_name("3d"), Some(Tool::Tool3d));
    assert_eq!(Tool::ABC.name(), "a.b-c");
    assert_eq!(Tool::Tool.name(), "_");
    assert_eq!(PICKED.len(), 6);
    assert_eq!(ToolMode::VSelf.as_str(), "self");
    assert_eq!(ToolMode::Crate.as_str(), "crate");
    let _ = App;
}
