//! A tool catalog as a checked value: `catalog.toml` text → validated [`CatalogModel`],
//! with every error located, and the lints, pins and imports that work on it.
//!
//! The `catalog!` macro (through `catalog-codegen`, which turns the model into Rust),
//! `cargo catalog check`, the MCP gateway and the importer all read catalogs here, so they
//! can never disagree. The pipeline is `parse` (keys and local rules) → `check` (rules
//! across keys and rows) → [`lint`] (the lints the catalog denies), each collecting every
//! error it finds. It links no Rust parser: a server that reads catalogs at run time
//! carries none.
//!
//! Its API follows semver, except the items hidden from its documentation, which are the
//! code generator's and change with it.

mod check;
pub mod diag;
mod editor_schema;
pub mod gemini;
pub mod import;
pub mod lint;
mod lint_config;
mod loaded;
pub mod model;
pub mod names;
mod outline;
mod owned;
mod parse;
pub mod pin;
pub mod provider;
pub mod schema;
pub mod search;
mod shape;
mod spec;
mod threads;

pub use diag::{Diagnostic, Lines, Located, Related, Style, render, render_all};
pub use editor_schema::{editor_schema, reference};
pub use loaded::{Loaded, TooManyRows};
pub use model::{CatalogModel, Outline};
pub use owned::{OwnedShape, Specs};
pub use shape::schema_shape;
pub use spec::{packed_specs, specs};
pub use threads::{threads_started, with_threads};

/// Reads and validates a catalog, then runs the lints it sets to `deny`: what `catalog!`
/// builds from. Every error in the file is returned, in source order. Like every function
/// here, it runs on the calling thread alone unless called inside [`with_threads`].
///
/// # Errors
/// The diagnostics, when the text is not valid TOML, breaks any catalog rule, or has a
/// finding of a denied lint (labelled `error[lint-name]: ...`).
pub fn compile(source: &str) -> Result<CatalogModel, Vec<Diagnostic>> {
    let catalog = validate(source)?;
    let denied = lint::run(&catalog, source, &DENIED).errors();
    if denied.is_empty() {
        Ok(catalog)
    } else {
        Err(denied)
    }
}

/// The lints [`compile`] runs: those the catalog sets to `deny`.
const DENIED: lint::Options<'static> = lint::Options {
    tokenizer: None,
    at_least: lint::Level::Deny,
    only: None,
};

/// The lints whose warnings `catalog!` shows in the build's output: the ones that read the
/// text the model reads, which a single pass over it finds. The others (search reach,
/// confusable tools, token budget) take longer and stay with `cargo catalog check`.
pub const BUILD_WARNINGS: [lint::LintId; 3] = [
    lint::LintId::PoisonedDescription,
    lint::LintId::DescriptionUrl,
    lint::LintId::DescriptionLength,
];

/// The findings at `warn` of [`BUILD_WARNINGS`] in a catalog that [`compile`] accepted
/// from `source`: what `catalog!` shows as warnings.
#[must_use]
pub fn build_warnings(catalog: &CatalogModel, source: &str) -> Vec<Diagnostic> {
    let options = lint::Options {
        tokenizer: None,
        at_least: lint::Level::Warn,
        only: Some(&BUILD_WARNINGS),
    };
    lint::run(catalog, source, &options)
        .findings
        .into_iter()
        .filter(|f| f.level == lint::Level::Warn)
        .map(|f| f.diagnostic)
        .collect()
}

/// Reads and validates a catalog against the format's rules, without running its lints:
/// what `cargo catalog check` starts from before it runs every lint.
///
/// # Errors
/// The diagnostics, when the text is not valid TOML or breaks any catalog rule.
pub fn validate(source: &str) -> Result<CatalogModel, Vec<Diagnostic>> {
    checked(source, false).map_err(|(diagnostics, _)| diagnostics)
}

/// [`compile`], and for a catalog with errors the [`Outline`] its skeleton is built from,
/// both from one reading of the file: what `catalog!` calls.
///
/// # Errors
/// [`compile`]'s diagnostics, with the outline ([`outline`]'s, which names every row when
/// only a denied lint failed).
pub fn compile_or_outline(source: &str) -> Result<CatalogModel, (Vec<Diagnostic>, Outline)> {
    let catalog = checked(source, true)
        .map_err(|(diagnostics, outline)| (diagnostics, outline.unwrap_or_default()))?;
    let denied = lint::run(&catalog, source, &DENIED).errors();
    if denied.is_empty() {
        Ok(catalog)
    } else {
        Err((denied, outline::outline_valid(catalog)))
    }
}

/// Reads as much of a catalog with errors as the skeleton of its API needs: the rows whose
/// name the catalog's checks accept, the search and ask tools as they resolve them,
/// and each row's parameters (or `input-schema`) when no error lies inside them or on the
/// row's name, so a handler written against a row with an unrelated mistake still
/// compiles. Never fails.
#[must_use]
pub fn outline(source: &str) -> Outline {
    match checked(source, true) {
        Ok(catalog) => outline::outline_valid(catalog),
        Err((_, outline)) => outline.unwrap_or_default(),
    }
}

/// Reads and checks `source` once: the catalog, or its diagnostics in source order and,
/// when `skeleton` asks, the outline of its skeleton from the same reading. After a syntax
/// error only the syntax is reported; the rows TOML recovery keeps are then still lowered
/// for the skeleton (and not at all without it), whose parameters stay out where those
/// rows' rules find an error.
fn checked(
    source: &str,
    skeleton: bool,
) -> Result<CatalogModel, (Vec<Diagnostic>, Option<Outline>)> {
    let mut errors = diag::Errors::default();
    let (raw, syntax_ok) = parse::read(source, &mut errors);
    if !syntax_ok && !skeleton {
        return Err((errors.into_sorted(), None));
    }
    let syntax_errors = errors.len();
    // With a syntax error recorded, lowering never succeeds: it gives its decisions.
    let decided = match check::lower(raw, &mut errors) {
        Ok(catalog) => return Ok(catalog),
        Err(decided) => decided,
    };
    if !skeleton {
        return Err((errors.into_sorted(), None));
    }
    let unreported = if syntax_ok {
        Vec::new()
    } else {
        errors.split_off(syntax_errors).into_sorted()
    };
    let reported = errors.into_sorted();
    let found: Vec<usize> = reported
        .iter()
        .chain(&unreported)
        .map(|d| d.span.start)
        .collect();
    Err((reported, Some(outline::outline(decided, &found))))
}

/// The settings and the two role rows every test catalog starts with.
#[cfg(test)]
use catalog_testkit::CATALOG_HEAD as TEST_HEAD;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::TEST_HEAD as HEAD;

    /// Messages of a catalog's errors.
    fn errors(source: &str) -> Vec<String> {
        compile(source)
            .err()
            .unwrap_or_default()
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    #[test]
    fn the_scan_threshold_is_read_in_thousandths_and_checked() {
        let with = |value: &str| {
            HEAD.replacen(
                "ask-tool = \"ask\"",
                &format!("ask-tool = \"ask\"\nscan-threshold = {value}"),
                1,
            )
        };
        let catalog = compile(&with("0.875")).expect("compiles");
        assert_eq!(catalog.settings.scan_threshold, Some(875));
        assert_eq!(
            compile(HEAD).expect("compiles").settings.scan_threshold,
            None
        );
        assert_eq!(
            compile(&with("1"))
                .expect("compiles")
                .settings
                .scan_threshold,
            Some(1000)
        );
        for bad in ["0", "1.5", "-0.2", "0.8125"] {
            assert_eq!(
                errors(&with(bad)),
                [format!(
                    "`scan-threshold` is {}",
                    bad.parse::<f64>().unwrap()
                )],
                "{bad}"
            );
        }
        assert_eq!(
            errors(&with("\"high\"")),
            ["`scan-threshold` must be a number, found string"]
        );
    }

    #[test]
    fn generated_type_names_that_clash_are_errors() {
        let source = format!(
            "{HEAD}{}",
            r#"
[[tool]]
name = "listRows"
description = "Lists rows."
visibility = "inline"
effect = "reads"
tier = "silent"
[tool.params]
sortOrder = { type = "string", enum = ["asc", "desc"] }
sort = { type = "object", properties.order = { type = "string", enum = ["up"] } }
set = { type = "array", items = { type = "string", enum = ["x"] } }

[[tool]]
name = "tool"
description = "A tool named tool."
visibility = "inline"
effect = "reads"
tier = "silent"
[tool.params]
set = { type = "string", enum = ["on"] }
"#
        );
        assert_eq!(
            errors(&source),
            [
                "in tool `listRows`, parameter `sortOrder` and property `order` of parameter `sort` both become the Rust type `ListRowsSortOrder`",
                "in tool `tool`, parameter `set` becomes the Rust type `ToolSet`, which the generated API already defines",
            ]
        );
    }

    /// A hashed wire name that is also another row's name is reported on the later row.
    #[test]
    fn wire_names_that_clash_are_errors() {
        let long = "workbook.sheets.tables.columns.formatting.conditional_rules.list_all";
        let hashed = &names::wire_names(&[long])[0];
        let row = |name: &str| {
            format!(
                "\n[[tool]]\nname = \"{name}\"\ndescription = \"A tool.\"\nvisibility = \"inline\"\neffect = \"reads\"\ntier = \"silent\"\n"
            )
        };
        let source = format!("{HEAD}{}{}", row(long), row(hashed));
        assert_eq!(
            errors(&source),
            [format!(
                "tools `{long}` and `{hashed}` both go on the wire as `{hashed}`"
            )]
        );
        let diagnostics = compile(&source).unwrap_err();
        // The name's span, quotes included, on the second row.
        let at = source.rfind(hashed.as_str()).unwrap();
        assert_eq!(diagnostics[0].span, at - 1..at + hashed.len() + 1);
        // Without the clash, each has its own.
        let catalog = compile(&format!("{HEAD}{}", row(long))).unwrap();
        assert_eq!(catalog.wire_names()[2], *hashed);
    }

    /// A key written with a bad value, or misspelt, is never also reported as missing.
    #[test]
    fn present_keys_are_not_missing() {
        let source = format!(
            "{HEAD}{}",
            r#"
[[tool]]
name = "openTable"
description = 1
visiblity = "inline"
tier = "silentt"
effect = true
"#
        );
        let errors = errors(&source);
        assert_eq!(errors.len(), 4, "{errors:#?}");
        assert!(errors.iter().all(|e| !e.contains("has no")), "{errors:#?}");
    }

    /// Without `[settings]` (here misspelt), the row that looks like the search tool is
    /// spared the other rows' rules.
    #[test]
    fn a_settings_mistake_does_not_cascade_to_the_search_row() {
        let misspelt = HEAD.replace("[settings]", "[setings]");
        assert_eq!(errors(&misspelt), ["unknown key `setings` in the catalog"]);
        let missing = HEAD
            .replace("[settings]", "")
            .replace("search-tool", "x-search");
        let errors = errors(&missing);
        assert!(
            errors.iter().all(|e| !e.contains("searchTools")),
            "{errors:#?}"
        );
    }

    /// The skeleton names the rows `check` accepts, and only those: two Rust names that
    /// differ but share a handler method are one row in both.
    #[test]
    fn outline_rows_are_the_rows_check_accepts() {
        let row = |name: &str, rust: &str| {
            format!(
                "\n[[tool]]\nname = \"{name}\"\nrust-name = \"{rust}\"\ndescription = \"A tool.\"\nvisibility = \"inline\"\neffect = \"reads\"\ntier = \"silent\"\n"
            )
        };
        let source = format!("{HEAD}{}{}", row("get", "HTTPGet"), row("fetch", "HttpGet"));
        assert_eq!(
            errors(&source),
            ["tools `get` and `fetch` both become `Tool::HttpGet` in Rust"]
        );
        let outline = outline(&source);
        let names: Vec<&str> = outline.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["searchTools", "ask", "get"]);
        assert_eq!((outline.search_tool, outline.ask_tool), (Some(0), Some(1)));
    }

    #[test]
    fn outline_keeps_rows_with_valid_unique_names() {
        let source = r#"
[settings]
search-tool = "find"
ask-tool = "nope"

[[tool]]
name = "find"
tier = "silentt"

[[tool]]
name = "find"

[[tool]]
name = "find_"
[[tool]]
name = "bad name"
[[tool]]
name = 3
[[tool]]
name = "open_table"
rust-name = "OpenTableForm"
[[tool]]
name = "a.b"
rust-name = "not an ident"
[[tool]]
name = "broken" =
"#;
        let outline = outline(source);
        let rows: Vec<(&str, &str)> = outline
            .tools
            .iter()
            .map(|t| (t.name.as_str(), t.variant.as_str()))
            .collect();
        assert_eq!(
            rows,
            [
                ("find", "Find"),
                ("open_table", "OpenTableForm"),
                ("a.b", "AB"),
                // TOML recovery still reads the name before the syntax error.
                ("broken", "Broken"),
            ]
        );
        assert_eq!(outline.search_tool, Some(0));
        assert_eq!(outline.ask_tool, None);
    }
}
