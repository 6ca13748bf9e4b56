// Tool names that are Rust keywords, start with a digit, or hold no identifier at all
// still derive valid identifiers: `self` → `Tool::ToolSelf` and `fn tool_self`, `type` →
// `Tool::Type` and `fn r#type`, `3d` → `Tool::Tool3d`, `a.b-c` → `Tool::ABC`, `_` →
// `Tool::Tool`. `tool!` takes the name as an identifier when it is one (`r#type`), else
// as a string.
catalog_macros::catalog!("ui/pass/tricky_names.toml");

use catalog_core::__private::Value;
use catalog_core::{Context, Output};

struct App;

impl Handler for App {
    type Error = ();

    async fn ask(&self, _: Context, _: AskArgs) -> Result<Output, ()> {
        Ok(Value::Null.into())
    }
    async fn tool_self(&self, _: Context, _: ToolSelfArgs) -> Result<Output, ()> {
        Ok(Value::Null.into())
    }
    async fn crate_(&self, _: Context, _: CrateArgs) -> Result<Output, ()> {
        Ok(Value::Null.into())
    }
    async fn super_(&self, _: Context, _: SuperArgs) -> Result<Output, ()> {
        Ok(Value::Null.into())
    }
    async fn r#type(&self, _: Context, _: TypeArgs) -> Result<Output, ()> {
        Ok(Value::Null.into())
    }
    async fn tool3d(&self, _: Context, _: Tool3dArgs) -> Result<Output, ()> {
        Ok(Value::Null.into())
    }
    async fn abc(&self, _: Context, _: ABCArgs) -> Result<Output, ()> {
        Ok(Value::Null.into())
    }
    async fn tool(&self, _: Context, args: ToolArgs) -> Result<Output, ()> {
        Ok(Value::from(args.mode.as_str()).into())
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
