// Rust keywords as parameter names: `type` and `match` become raw identifiers, `self`
// (which cannot be raw) becomes `self_`; the JSON names stay as written.
catalog_macros::catalog!("ui/pass/keywords.toml");

use catalog_core::__private::serde_json;

fn main() {
    let built = FilterRowsArgs {
        r#type: FilterRowsType::Number,
        r#match: String::from("^4"),
        self_: true,
        r#async: Some(5),
    };
    let parsed: FilterRowsArgs =
        serde_json::from_str(r#"{"type": "number", "match": "^4", "self": true, "async": 5}"#)
            .unwrap();
    assert_eq!(parsed, built);
    let json = serde_json::to_value(&built).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"type": "number", "match": "^4", "self": true, "async": 5})
    );

    let defaults: FilterRowsArgs =
        serde_json::from_str(r#"{"type": "text", "match": "x"}"#).unwrap();
    assert!(!defaults.self_);
    assert_eq!(defaults.r#async, None);

    let call = ToolCall::parse(
        "filterRows",
        serde_json::json!({"type": "text", "match": "x"}),
    )
    .unwrap();
    assert_eq!(call.tool(), Tool::FilterRows);
}
