// Rust keywords as parameter names: `type` and `match` become raw identifiers, `self`
// (which cannot be raw) becomes `self_`; the JSON names stay as written.
catalog_macros::catalog!("ui/pass/keywords.toml");

use catalog_core::FromJson;
use catalog_core::__private::serde_json::json;

fn main() {
    let built = FilterRowsArgs {
        r#type: FilterRowsType::Number,
        r#match: String::from("^4"),
        self_: true,
        r#async: Some(5),
        columns: vec![FilterRowsColumnsItem::Name],
    };
    let parsed =
        FilterRowsArgs::from_json(json!({"type": "number", "match": "^4", "self": true, "async": 5}))
            .unwrap();
    assert_eq!(parsed, built);
    assert_eq!(parsed.r#type.as_str(), "number");
    // The Rust spelling is not a JSON name.
    let e = FilterRowsArgs::from_json(json!({"type": "text", "match": "x", "self_": true}))
        .unwrap_err();
    assert_eq!(e.pointer(), "/self_");

    let defaults = FilterRowsArgs::from_json(json!({"type": "text", "match": "x"})).unwrap();
    assert!(!defaults.self_);
    assert_eq!(defaults.r#async, None);
    // A default no literal spells is rebuilt from its JSON.
    assert_eq!(defaults.columns, [FilterRowsColumnsItem::Name]);

    let call = ToolCall::parse(
        "filterRows",
        json!({"type": "text", "match": "x"}),
    )
    .unwrap();
    assert_eq!(call.tool(), Tool::FilterRows);
}
