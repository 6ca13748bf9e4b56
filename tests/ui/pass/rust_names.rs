// `rust-name` separates names that would collide in Rust (`openTable`/`open_table`,
// `dateRange`/`date_range`, and the types `sortOrder` and `sort.order` would both generate)
// without changing what the model sees; `input-schema` keeps a tool's whole input as raw
// JSON.
catalog_macros::catalog!("ui/pass/rust_names.toml");

use catalog_core::FromJson;
use catalog_core::__private::serde_json::json;

fn main() {
    assert_eq!(Tool::from_name("openTable"), Some(Tool::OpenTable));
    assert_eq!(Tool::from_name("open_table"), Some(Tool::OpenTableForm));
    assert_eq!(tool!(open_table), Tool::OpenTableForm);
    assert_eq!(Tool::OpenTableForm.name(), "open_table");

    let args = OpenTableArgs::from_json(
        json!({"dateRange": "2025-01-01/2025-01-31", "date_range": "January"}),
    )
    .unwrap();
    assert_eq!(args.date_range, "2025-01-01/2025-01-31");
    assert_eq!(args.date_range_text.as_deref(), Some("January"));
    let _ = OpenTableFormArgs {};

    let sorted = OpenTableArgs::from_json(json!({
        "dateRange": "2025",
        "sortOrder": "desc",
        "sort": {"column": "name", "order": "up"},
    }))
    .unwrap();
    assert_eq!(sorted.sort_order, Some(OpenTableSortOrder::Desc));
    let sort = sorted.sort.unwrap();
    assert_eq!(sort.direction, OpenTableSortDirection::Up);
    assert_eq!(sort.column, "name");

    let call = ToolCall::parse("runQuery", json!({"sql": "select 1"})).unwrap();
    assert_eq!(call.tool(), Tool::RunQuery);
    assert!(Tool::RunQuery.spec().input_schema.contains("\"sql\""));
}
