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
/// A name that cannot stand alone as a type name gets `prefix`: one starting with a digit
/// (`3dView` → `Tool3dView` for a tool) and `self` (`Self` is a keyword: `ToolSelf`); a name
/// with no letter or digit is the prefix alone (`_` → `Tool`). The result is always a plain
/// Rust identifier in upper camel case, so the types named after it (`ToolSelfArgs`) are too.
#[doc(hidden)]
#[must_use]
pub fn type_name(name: &str, prefix: &str) -> String {
    let camel = plain_camel(name).unwrap_or_else(|| name.to_upper_camel_case());
    match camel.chars().next() {
        None => prefix.to_string(),
        Some(c) if c.is_ascii_digit() => format!("{prefix}{camel}"),
        Some(_) if camel == "Self" => format!("{prefix}{camel}"),
        Some(_) => camel,
    }
}

/// Names of the API's own items: no generated type may take one.
pub const RESERVED_TYPES: &[&str] = &["Tool", "ToolSet", "ToolCall", "Catalog", "Handler"];

/// One step from a named thing to a type the generator defines for it.
#[derive(Clone, Copy, Debug)]
pub enum TypeStep<'a> {
    /// A tool's arguments: the parent is the tool's variant (`OpenTable` → `OpenTableArgs`).
    Args,
    /// A field (an enum or an object) of the parent type or tool, by the field's name, or
    /// its `rust-name` when it has one (`ListRows` + `sortOrder` → `ListRowsSortOrder`).
    Field(&'a str),
    /// The items of an array whose own type would be the parent (`ListRowsTags` →
    /// `ListRowsTagsItem`).
    Item,
}

/// The name of every type the generator defines, built one step at a time. The one place
/// such names are made: the generator (`expand`) and the collision check (`check`, through
/// [`crate::model::Tool::generated_types`]) both call it, so they cannot disagree.
#[must_use]
pub fn generated_type(parent: &str, step: TypeStep<'_>) -> String {
    match step {
        TypeStep::Args => format!("{parent}Args"),
        TypeStep::Field(field) => format!("{parent}{}", type_name(field, "Field")),
        TypeStep::Item => format!("{parent}Item"),
    }
}

/// A tool's name as a Rust value identifier, exactly as written (`openTable`; `r#type` for
/// a keyword), for the constants `tool!(openTable)` resolves to; `None` when the name cannot
/// be an identifier (`triangle_properties.get`, `3d`, `self`, `_`).
#[doc(hidden)]
#[must_use]
pub fn value_ident(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let first = chars.next()?;
    let plain = (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !plain || name == "_" || NOT_RAW.contains(&name) {
        return None;
    }
    Some(if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_string()
    })
}

/// Whether a tool name follows MCP's rule: 1 to 128 of A-Z a-z 0-9 _ - .
#[must_use]
pub(crate) fn is_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// Whether `name` can be a `rust-name`: an ASCII Rust identifier, not a keyword and not
/// raw (`r#type`), as the variants and types generated for the other rows are.
#[must_use]
pub(crate) fn is_rust_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && name != "_"
        && !KEYWORDS.contains(&name)
        && !NOT_RAW.contains(&name)
}

/// The longest name providers that restrict tool names accept (Anthropic, `OpenAI`,
/// Bedrock, Gemini).
pub const WIRE_NAME_MAX: usize = 64;

/// How much of a name a hashed wire name keeps: with `_` and 8 hex digits, it fits
/// [`WIRE_NAME_MAX`].
const WIRE_PREFIX: usize = WIRE_NAME_MAX - 9;

/// Whether every provider that restricts tool names takes `name` as it is: Anthropic,
/// `OpenAI` and Bedrock accept `[A-Za-z0-9_-]{1,64}`, Gemini `[A-Za-z0-9_.:-]{1,64}`
/// starting with a letter or an underscore, so a wire name is `[A-Za-z_][A-Za-z0-9_-]{0,63}`.
#[must_use]
pub fn is_wire_name(name: &str) -> bool {
    (1..=WIRE_NAME_MAX).contains(&name.len())
        && name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
}

/// Every tool's name on the wire, for the catalog's names in any order (the result follows
/// it). The one place wire names are made: the generator and the uniqueness check both
/// call it.
///
/// A name that fits [`is_wire_name`] is its own wire name. Any other has every character
/// outside `[A-Za-z0-9_-]` replaced by `_` (`triangle_properties.get` →
/// `triangle_properties_get`), and `_` put before a first character that is a digit or `-`
/// (`3dView` → `_3dView`); when that is longer than 64 or is also another tool's
/// spelling (its name, or its replaced name), the first 55 characters of it, `_` and the
/// FNV-1a hash of the name in 8 hex digits. The rule looks at the set of names only, so
/// moving a row does not rename a tool.
#[must_use]
pub fn wire_names(names: &[&str]) -> Vec<String> {
    let spelt: Vec<String> = names.iter().map(|n| wire_spelling(n)).collect();
    let mut count: rustc_hash::FxHashMap<&str, usize> = rustc_hash::FxHashMap::default();
    for s in &spelt {
        *count.entry(s.as_str()).or_default() += 1;
    }
    names
        .iter()
        .zip(&spelt)
        .map(|(name, s)| {
            if is_wire_name(name) {
                (*name).to_string()
            } else if s.len() > WIRE_NAME_MAX || s.is_empty() || count[s.as_str()] > 1 {
                // Another row spelling the same: a fitting row keeps its own name.
                format!("{}_{:08x}", &s[..s.len().min(WIRE_PREFIX)], fnv1a(name))
            } else {
                s.clone()
            }
        })
        .collect()
}

/// `name` with every character outside `[A-Za-z0-9_-]` replaced by `_`, and `_` before a
/// first character that may not start a name (a digit or `-`).
fn wire_spelling(name: &str) -> String {
    let lead = name
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_digit() || b == b'-');
    let spelt = name.chars().map(|c| {
        if c.is_ascii_alphanumeric() || matches!(c, '_' | '-') {
            c
        } else {
            '_'
        }
    });
    (if lead { Some('_') } else { None })
        .into_iter()
        .chain(spelt)
        .collect()
}

/// 32-bit FNV-1a: small, stable across versions and platforms, enough to tell names apart.
fn fnv1a(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
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
    let s = plain_snake(name).unwrap_or_else(|| name.to_snake_case());
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

/// Whether `heck` reads `name` the plain way, so its cases can be worked out without it
/// (most names are such, and `heck`'s general rules cost more than the name): ASCII
/// letters and digits, starting with a lower-case letter, each capital followed by a
/// lower-case letter, each `_` between two words (`dateRange`, `date_range`, `v2Data`).
/// `heck` splits such a name before each capital and at each `_`, and nowhere else.
fn is_plain(name: &str) -> bool {
    let b = name.as_bytes();
    b.first().is_some_and(u8::is_ascii_lowercase)
        && b.iter().enumerate().all(|(i, &c)| match c {
            b'a'..=b'z' | b'0'..=b'9' => true,
            b'A'..=b'Z' => b.get(i + 1).is_some_and(u8::is_ascii_lowercase),
            b'_' => b.get(i + 1).is_some_and(u8::is_ascii_lowercase) && b[i - 1] != b'_',
            _ => false,
        })
}

/// `name.to_snake_case()` for a [plain](is_plain) name.
fn plain_snake(name: &str) -> Option<String> {
    is_plain(name).then(|| {
        let mut out = String::with_capacity(name.len() + 4);
        for c in name.chars() {
            if c.is_ascii_uppercase() {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        }
        out
    })
}

/// `name.to_upper_camel_case()` for a [plain](is_plain) name.
fn plain_camel(name: &str) -> Option<String> {
    is_plain(name).then(|| {
        let mut out = String::with_capacity(name.len());
        let mut start = true;
        for c in name.chars() {
            if c == '_' {
                start = true;
                continue;
            }
            out.push(if start { c.to_ascii_uppercase() } else { c });
            start = false;
        }
        out
    })
}

/// `snake` without the raw prefix: what a collision check compares.
#[must_use]
pub(crate) fn snake_bare(name: &str) -> String {
    snake(name).trim_start_matches("r#").to_string()
}

/// `upstream_name` when `free`, or else the first free of `upstream_name_2`, `_3`, ...:
/// the name offered to a row or prompt renamed on a collision, as `--prefix upstream_`
/// names it.
pub(crate) fn prefixed(upstream: &str, name: &str, free: impl Fn(&str) -> bool) -> String {
    let plain = format!("{upstream}_{name}");
    if free(&plain) {
        return plain;
    }
    first_free(|n| format!("{plain}_{n}"), free)
}

/// The first of `candidate(2)`, `candidate(3)`, ... that is `free`.
pub(crate) fn first_free(
    candidate: impl Fn(usize) -> String,
    free: impl Fn(&str) -> bool,
) -> String {
    let mut n = 2;
    loop {
        let c = candidate(n);
        if free(&c) {
            return c;
        }
        n += 1;
    }
}

/// The closest candidate to a misspelt word, when it is close enough to be a likely typo:
/// what every "did you mean" of the compiler and the commands names.
#[must_use]
pub fn suggest<'c>(word: &str, candidates: &[&'c str]) -> Option<&'c str> {
    candidates
        .iter()
        .map(|c| {
            (
                strsim::jaro_winkler(&word.to_lowercase(), &c.to_lowercase()),
                *c,
            )
        })
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `rust-name` is an ASCII identifier as syn parses one, keywords of Rust 2024 aside
    /// (`gen`, which syn still reads as an identifier), raw ones (`r#type`) left out.
    #[test]
    fn rust_names_are_the_identifiers_syn_reads() {
        let samples = [
            "a",
            "_a",
            "A1",
            "x_y",
            "_",
            "__",
            "1a",
            "a-b",
            "a.b",
            "é",
            "r#type",
            "type",
            "self",
            "Self",
            "crate",
            "super",
            "async",
            "union",
            "macro_rules",
            "raw",
            "gen",
            "",
            "a b",
        ];
        for s in samples.iter().copied().chain(KEYWORDS.iter().copied()) {
            let syn_reads = s.is_ascii()
                && !s.starts_with("r#")
                && syn::parse_str::<syn::Ident>(s).is_ok()
                && !KEYWORDS.contains(&s);
            assert_eq!(is_rust_name(s), syn_reads, "{s:?}");
        }
    }

    /// The plain names' own way gives what `heck` gives, on names of every shape.
    #[test]
    fn plain_names_are_cased_as_heck_cases_them() {
        let parts = [
            "a", "ab", "x1", "Ab", "AB", "A", "1", "_", "__", "2d", "B2", "aB", "é", "-",
        ];
        let mut names = Vec::new();
        for a in parts {
            for b in parts {
                for c in parts {
                    names.push(format!("{a}{b}{c}"));
                }
            }
        }
        names.extend(
            [
                "dateRange",
                "date_range",
                "v2Data",
                "getV2",
                "aBcD1e",
                "a1Bc",
                "aBC",
            ]
            .map(String::from),
        );
        let mut plain = 0;
        for name in &names {
            if let Some(fast) = plain_snake(name) {
                plain += 1;
                assert_eq!(fast, name.to_snake_case(), "{name}");
                assert_eq!(
                    plain_camel(name).unwrap(),
                    name.to_upper_camel_case(),
                    "{name}"
                );
            }
        }
        assert!(plain > 100, "{plain}");
    }

    #[test]
    fn tool_names_become_variants() {
        assert_eq!(variant("openTable"), "OpenTable");
        assert_eq!(variant("triangle_properties.get"), "TrianglePropertiesGet");
        assert_eq!(variant("get-time"), "GetTime");
        assert_eq!(variant("3dView"), "Tool3dView");
    }

    /// Every valid catalog name derives valid identifiers: variant, handler method, field,
    /// argument type and `tool!` constant (when it has one).
    #[test]
    fn tricky_names_become_valid_identifiers() {
        let ident = |s: &str| {
            assert!(
                syn::parse_str::<syn::Ident>(s).is_ok(),
                "`{s}` is not a Rust identifier"
            );
        };
        let cases = [
            ("self", "ToolSelf", "tool_self", None),
            ("Self", "ToolSelf", "tool_self", None),
            ("crate", "Crate", "crate_", None),
            ("super", "Super", "super_", None),
            ("_", "Tool", "tool", None),
            ("3d", "Tool3d", "tool3d", None),
            ("a.b-c", "ABC", "abc", None),
            ("type", "Type", "r#type", Some("r#type")),
            ("openTable", "OpenTable", "open_table", Some("openTable")),
            ("__", "Tool", "tool", Some("__")),
            ("-", "Tool", "tool", None),
        ];
        for (name, v, method, value) in cases {
            assert_eq!(variant(name), v, "variant of `{name}`");
            assert_eq!(snake(&variant(name)), method, "method of `{name}`");
            assert_eq!(value_ident(name).as_deref(), value, "value of `{name}`");
            ident(&variant(name));
            ident(&snake(&variant(name)));
            ident(&snake(name));
            ident(&generated_type(&variant(name), TypeStep::Args));
            ident(&generated_type("T", TypeStep::Field(name)));
            if let Some(v) = value_ident(name) {
                ident(&v);
            }
        }
    }

    #[test]
    fn generated_types_are_named_in_one_place() {
        assert_eq!(generated_type("OpenTable", TypeStep::Args), "OpenTableArgs");
        assert_eq!(
            generated_type("ListRows", TypeStep::Field("sortOrder")),
            "ListRowsSortOrder"
        );
        assert_eq!(
            generated_type("ListRows", TypeStep::Field("3d")),
            "ListRowsField3d"
        );
        assert_eq!(
            generated_type("ListRowsTags", TypeStep::Item),
            "ListRowsTagsItem"
        );
    }

    #[test]
    fn wire_names_fit_restrictive_providers() {
        let long = "a".repeat(70);
        let names = [
            "openTable",
            "triangle_properties.get",
            "a.b",
            "a_b",
            "x.y.z",
            "x.y_z",
            long.as_str(),
            "",
            "3dView",
            "-x",
            "_9lives",
            "9lives",
        ];
        let wire = wire_names(&names);
        assert_eq!(wire[0], "openTable");
        assert_eq!(wire[1], "triangle_properties_get");
        // `a_b` keeps its own name; `a.b`, which would spell the same, is hashed.
        assert_eq!(wire[3], "a_b");
        assert_eq!(wire[2], format!("a_b_{:08x}", fnv1a("a.b")));
        // Two replaced spellings that meet are both hashed, whatever their order.
        assert_eq!(wire[4], format!("x_y_z_{:08x}", fnv1a("x.y.z")));
        assert_eq!(wire[5], format!("x_y_z_{:08x}", fnv1a("x.y_z")));
        assert_eq!(wire[6], format!("{}_{:08x}", &long[..55], fnv1a(&long)));
        assert_eq!(wire[6].len(), 64);
        assert_eq!(wire[7], "_811c9dc5");
        // Gemini's names start with a letter or `_`: a leading digit or `-` gets one.
        assert_eq!(wire[8], "_3dView");
        assert_eq!(wire[9], "_-x");
        // `_9lives` is its own name, so `9lives`, which would spell the same, is hashed.
        assert_eq!(wire[10], "_9lives");
        assert_eq!(wire[11], format!("_9lives_{:08x}", fnv1a("9lives")));
        assert!(wire.iter().all(|w| is_wire_name(w)), "{wire:?}");
        let mut reversed = names;
        reversed.reverse();
        let mut back = wire_names(&reversed);
        back.reverse();
        assert_eq!(back, wire);
    }

    #[test]
    fn fnv1a_is_the_published_function() {
        assert_eq!(fnv1a(""), 0x811c_9dc5);
        assert_eq!(fnv1a("a"), 0xe40c_292c);
        assert_eq!(fnv1a("foobar"), 0xbf9c_f968);
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
