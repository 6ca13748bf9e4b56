use serde_json::Value;

/// The checked-in `catalog.schema.json` is what the generator writes today.
#[test]
fn the_editor_schema_is_fresh() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../catalog.schema.json");
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        on_disk == super::editor_schema(),
        "catalog.schema.json is stale: run `cargo xtask codegen` and commit the result"
    );
}

type Rule = fn(&str) -> bool;

/// What each key with a pattern is checked by in the compiler; `name` is a tool's name
/// but in `[[upstream]]`.
fn rule(definition: &str, key: &str) -> Option<Rule> {
    Some(match key {
        "name" if definition == "upstream" => crate::pin::is_name,
        "name" | "search-tool" | "ask-tool" | "upstream-tool" => crate::names::is_tool_name,
        "upstream" => crate::pin::is_name,
        "upstream-digest" => crate::pin::is_digest,
        "url" => crate::pin::is_url,
        "rust-name" => crate::names::is_rust_name,
        "header" => crate::model::is_header_name,
        _ => return None,
    })
}

/// Each pattern of `value`, with the definition it is in and the property it belongs to.
fn patterns<'v>(
    value: &'v Value,
    definition: &'v str,
    key: &'v str,
    found: &mut Vec<(&'v str, &'v str, &'v str)>,
) {
    match value {
        Value::Object(map) => {
            if let Some(pattern) = map.get("pattern").and_then(Value::as_str) {
                found.push((definition, key, pattern));
            }
            for (k, v) in map {
                match (k.as_str(), v) {
                    ("properties", Value::Object(properties)) => {
                        for (property, v) in properties {
                            patterns(v, definition, property, found);
                        }
                    }
                    _ => patterns(v, definition, key, found),
                }
            }
        }
        Value::Array(items) => {
            for v in items {
                patterns(v, definition, key, found);
            }
        }
        _ => {}
    }
}

/// Every `pattern` of the editor schema accepts exactly what the compiler's own rule
/// for that key accepts, on names written to sit on either side of each rule.
#[test]
fn the_schemas_patterns_are_the_compilers_rules() {
    let digest = format!("sha256:{}", "0123456789abcdef".repeat(4));
    // A digest a digit short, a digit long, and in capitals.
    let (short, long_digest, upper) = (
        digest[..digest.len() - 1].to_string(),
        format!("{digest}0"),
        format!("sha256:{}", "0123456789ABCDEF".repeat(4)),
    );
    let long = "a".repeat(128);
    let longer = "a".repeat(129);
    let samples: Vec<&str> = vec![
        "",
        "a",
        "searchTools",
        "get_current_time",
        "math.factorial",
        "a-b",
        "A",
        "time",
        "my-server_2",
        "Bad Name",
        "naïve",
        "tab\there",
        "a/b",
        "é",
        "ü.get",
        &long,
        &longer,
        &digest,
        &short,
        &long_digest,
        &upper,
        "sha256:",
        "sha256:ABC",
        "SHA256:0",
        "http://",
        "http://x",
        "https://example.com/mcp",
        "HTTPS://EXAMPLE.COM",
        "ftp://x",
        "http://a b",
        "http://a\u{a0}b",
        "fn",
        "r#type",
        "_x",
        "1x",
        "x1",
        "self",
        "Region",
        "X-Tenant_1",
        "!#$%&'*+.^_`|~",
        "a:b",
        "a\u{7f}",
        "Mcp-Param-Region",
        "mcp-param-",
        "MCP-PARAMS",
    ];
    let schema: Value = serde_json::from_str(&super::editor_schema()).unwrap();
    let mut found = Vec::new();
    for (name, definition) in schema["definitions"].as_object().unwrap() {
        patterns(definition, name, "", &mut found);
    }
    patterns(&schema["properties"], "", "", &mut found);
    let mut checked = 0;
    for (definition, key, pattern) in found {
        let regex = regress::Regex::new(pattern).unwrap();
        let rule = rule(definition, key).unwrap_or_else(|| {
                panic!("the pattern of `{key}` in `{definition}` has no rule to compare with: add it to this test")
            });
        for sample in &samples {
            // Of identifier shape, yet no identifier: a keyword (or `_`), which only
            // the compiler refuses.
            let keyword = key == "rust-name"
                && sample.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && sample
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && syn::parse_str::<syn::Ident>(sample).is_err();
            if keyword {
                continue;
            }
            assert_eq!(
                regex.find(sample).is_some(),
                rule(sample),
                "`{key}` in `{definition}`: the schema's pattern {pattern} and the compiler disagree on {sample:?}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} patterns found");
}

/// The book's checked-in key reference is what the generator writes today.
#[test]
fn the_books_reference_is_fresh() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../book/src/reference.md");
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        on_disk == super::reference(),
        "book/src/reference.md is stale: run `cargo xtask codegen` and commit the result"
    );
}
