//! The compiler on arbitrary text, as `catalog!` and `cargo catalog check` meet it: nothing
//! panics, every failure is a located error that renders, the skeleton of an invalid
//! catalog and the expansion of a valid one are Rust, and the lints run on a valid one.
//! The same checks as `crates/catalog-codegen/tests/fuzz.rs`, with coverage to guide the inputs.

#![no_main]

use catalog_check::lint::{self, Level, LintId};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let outline = catalog_check::outline(source);
    match catalog_check::compile(source) {
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty(), "an error without a diagnostic");
            for d in &diagnostics {
                assert!(
                    d.span.start <= d.span.end && d.span.end <= source.len(),
                    "span outside the text: {d:?}"
                );
                assert!(!d.message.is_empty(), "a diagnostic without a message");
                let text = catalog_check::render("catalog.toml", source, d);
                assert!(
                    text.lines()
                        .nth(1)
                        .is_some_and(|l| l.trim_start().starts_with("--> catalog.toml:")),
                    "no location: {text}"
                );
            }
            let skeleton =
                catalog_codegen::skeleton(&outline, &catalog_codegen::Options::default());
            if let Err(e) = catalog_codegen::format(skeleton) {
                panic!("the skeleton is not Rust: {e}");
            }
        }
        Ok(mut catalog) => {
            // The reach lint builds the index once per example: seconds on a large catalog,
            // so it runs only on small ones.
            let examples: usize = catalog.tools.iter().map(|t| t.examples.len()).sum();
            if examples > 12 {
                catalog.lints.set_level(LintId::UnnamedNeed, Level::Allow);
            }
            // No tokenizer: `inline-token-budget` renders the catalog from specs that are
            // `'static`, kept for the process once per distinct catalog, so every input
            // would be a leak to the leak checker, which would stop at the first.
            // `crates/catalog-codegen/tests/fuzz.rs` runs it.
            let options = lint::Options {
                tokenizer: None,
                at_least: Level::Warn,
                only: None,
            };
            let report = lint::run(&catalog, source, &options);
            for f in &report.findings {
                assert!(
                    f.diagnostic.span.end <= source.len(),
                    "a finding outside the text: {f:?}"
                );
                let _ = catalog_check::Lines::new(source).render_styled(
                    "catalog.toml",
                    &f.diagnostic,
                    f.style(false),
                );
            }
            let tokens = catalog_codegen::expand(&catalog, &catalog_codegen::Options::default());
            if let Err(e) = catalog_codegen::format(tokens) {
                panic!("the expansion is not Rust: {e}");
            }
        }
    }
});
