// Tool `tool`'s enum parameter `set` would generate `ToolSet`, and its object parameter
// `call` `ToolCall`: both are the API's own types.
catalog_macros::catalog!("ui/params/reserved_type_name.toml");

fn main() {}
