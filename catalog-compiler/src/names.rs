//! How catalog names become Rust identifiers. One place, so the collision checks and the
//! code generator can never disagree.

use heck::{ToSnakeCase, ToUpperCamelCase};

/// Keywords of Rust 2024 (strict and reserved): usable only as raw identifiers.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
    "virtual", "where", "while", "yield",
];

/// Keywords that cannot even be raw identifiers.
const NOT_RAW: &[&str] = &["crate", "self", "super", "Self"];

/// `openTable` → `OpenTable`, `triangle_properties.get` → `TrianglePropertiesGet`.
/// A name starting with a digit gets a `Tool` prefix (`3dView` → `Tool3dView`).
#[must_use]
pub fn type_name(name: &str, prefix_if_digit: &str) -> String {
    let camel = name.to_upper_camel_case();
    match camel.chars().next() {
        None => prefix_if_digit.to_string(),
        Some(c) if c.is_ascii_digit() => format!("{prefix_if_digit}{camel}"),
        Some(_) => camel,
    }
}

/// The enum variant of a tool.
#[must_use]
pub fn variant(tool: &str) -> String {
    type_name(tool, "Tool")
}

/// `dateRange` → `date_range`; keywords stay usable (`type` → `r#type`).
/// The result is Rust source text for an identifier (possibly raw).
#[must_use]
pub fn snake(name: &str) -> String {
    let s = name.to_snake_case();
    if s.is_empty() {
        return "field".to_string();
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        return format!("_{s}");
    }
    if NOT_RAW.contains(&s.as_str()) {
        return format!("{s}_");
    }
    if KEYWORDS.contains(&s.as_str()) {
        return format!("r#{s}");
    }
    s
}

/// `snake` without the raw prefix: what a collision check compares.
#[must_use]
pub fn snake_bare(name: &str) -> String {
    snake(name).trim_start_matches("r#").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names_become_variants() {
        assert_eq!(variant("openTable"), "OpenTable");
        assert_eq!(variant("triangle_properties.get"), "TrianglePropertiesGet");
        assert_eq!(variant("get-time"), "GetTime");
        assert_eq!(variant("3dView"), "Tool3dView");
    }

    #[test]
    fn keywords_stay_usable() {
        assert_eq!(snake("type"), "r#type");
        assert_eq!(snake("match"), "r#match");
        assert_eq!(snake("self"), "self_");
        assert_eq!(snake("dateRange"), "date_range");
        assert_eq!(snake("2d"), "_2d");
        assert_eq!(snake_bare("type"), "type");
    }
}
