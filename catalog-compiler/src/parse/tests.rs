//! The editor schema against the parser's key tables.

use super::*;
use crate::lint_config::Scope;

/// The editor schema is a second list of the format's keys; it must match the parser's.
#[test]
fn editor_schema_lists_exactly_the_keys_the_parser_reads() {
    let text = include_str!("../../../catalog.schema.json");
    let schema: Value = serde_json::from_str(text).unwrap();
    let keys = |def: &str| -> Vec<String> {
        let mut k: Vec<String> = schema["definitions"][def]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        k.sort();
        k
    };
    let sorted = |list: &[&str]| -> Vec<String> {
        let mut k: Vec<String> = list.iter().map(ToString::to_string).collect();
        k.sort();
        k
    };
    let mut top: Vec<String> = schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    top.sort();
    assert_eq!(top, sorted(TOP_KEYS));
    assert_eq!(keys("settings"), sorted(SETTINGS_KEYS));
    assert_eq!(keys("tool"), sorted(TOOL_KEYS));
    assert_eq!(keys("upstream"), sorted(upstream::UPSTREAM_KEYS));
    assert_eq!(keys("typeSpec"), sorted(TYPE_KEYS));
    assert_eq!(
        keys("param"),
        sorted(&[TYPE_KEYS, FIELD_ONLY_KEYS].concat())
    );
    // Lints: every registered lint, its settings with their defaults and ranges, and
    // the row-scoped ones in `[tool.lints]`.
    let names = |scope: Option<Scope>| -> Vec<String> {
        let list: Vec<&str> = lint::LINTS
            .iter()
            .filter(|l| scope.is_none_or(|s| l.scope == s))
            .map(|l| l.name)
            .collect();
        sorted(&list)
    };
    assert_eq!(keys("lints"), names(None));
    assert_eq!(keys("toolLints"), names(Some(Scope::Row)));
    for l in lint::LINTS {
        let entry = &schema["definitions"]["lints"]["properties"][l.name];
        let table = entry["oneOf"]
            .as_array()
            .and_then(|v| v.iter().find(|x| x["type"] == "object"));
        let Some(table) = table else {
            assert!(l.settings.is_empty(), "{} has settings", l.name);
            continue;
        };
        let mut want = vec!["level"];
        want.extend(l.settings.iter().map(|s| s.name));
        let mut got: Vec<String> = table["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        got.sort();
        assert_eq!(got, sorted(&want), "{}", l.name);
        for s in l.settings {
            let p = &table["properties"][s.name];
            assert_eq!(p["default"].as_f64(), Some(s.default), "{}", s.name);
            assert_eq!(p["minimum"].as_f64(), Some(s.min), "{}", s.name);
            assert_eq!(p["maximum"].as_f64(), Some(s.max), "{}", s.name);
            let ty = if s.whole { "integer" } else { "number" };
            assert_eq!(p["type"], ty, "{}", s.name);
        }
    }
}
