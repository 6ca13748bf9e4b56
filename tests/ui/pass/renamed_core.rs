// The runtime crate under another name: every path of the expansion goes through
// `crate = ...`. (Cargo refuses `catalog-core` twice in one crate's dependencies under two
// names, so the rename is an `extern crate` alias, which enters the extern prelude and so
// resolves as `::renamed_core` exactly like a renamed dependency would.)
extern crate catalog_core as renamed_core;

catalog_macros::catalog!("ui/pass/dotted_names.toml", crate = ::renamed_core);

fn main() {
    let spec: &'static renamed_core::ToolSpec = Tool::TrianglePropertiesGet.spec();
    assert_eq!(spec.access, Some(renamed_core::Access::ReadOnly));
    let set: renamed_core::ToolSet<Tool, 1> = tools!["triangle_properties.get"];
    assert_eq!(set.len(), 1);
    let call = ToolCall::parse(
        "triangle_properties.get",
        renamed_core::__private::serde_json::json!({"sides": [3, 4, 5]}),
    )
    .unwrap();
    assert_eq!(call.tool(), Tool::TrianglePropertiesGet);
}
