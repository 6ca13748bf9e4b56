//! The verifier on arbitrary JSON, against the shapes of compiled catalogs: the example
//! catalog and `catalogs/shapes.toml` (every kind of shape), compiled once. The first byte
//! picks a tool; the rest, when it is JSON, is checked as that tool's arguments and as its
//! result. The check never panics, bounds its report, and says where each issue is.

#![no_main]

use std::sync::LazyLock;

use catalog_core::{MAX_CHECK_ISSUES, Shape, ToolSpec, Value, check_value};
use libfuzzer_sys::fuzz_target;

/// The catalogs' specs, read once for the whole run.
static SPECS: LazyLock<Vec<catalog_check::Specs>> = LazyLock::new(|| {
    [
        include_str!("../../tests/data/tables.toml"),
        include_str!("../catalogs/shapes.toml"),
    ]
    .into_iter()
    .map(|source| {
        let catalog = catalog_check::compile(source).expect("a fuzz catalog compiles");
        catalog_check::specs(&catalog)
    })
    .collect()
});

static SHAPES: LazyLock<Vec<(&'static str, &'static Shape<'static>)>> = LazyLock::new(|| {
    let mut out = Vec::new();
    for specs in SPECS.iter() {
        let specs: &'static [ToolSpec<'static>] = specs.get();
        for spec in specs {
            out.push((spec.name, &spec.input));
            if let Some(output) = &spec.output {
                out.push((spec.name, output));
            }
        }
    }
    out
});

fuzz_target!(|data: &[u8]| {
    let Some((&pick, json)) = data.split_first() else {
        return;
    };
    let Ok(value) = serde_json::from_slice::<Value>(json) else {
        return;
    };
    let (tool, shape) = SHAPES[usize::from(pick) % SHAPES.len()];
    let issues = check_value(shape, &value);
    assert!(
        issues.len() <= MAX_CHECK_ISSUES + 1,
        "{tool}: {} issues",
        issues.len()
    );
    for issue in &issues {
        assert!(
            issue.path.is_empty() || issue.path.starts_with('/'),
            "{tool}: not a JSON pointer: {issue:?}"
        );
        assert!(
            !issue.message.is_empty(),
            "{tool}: an issue without a message"
        );
    }
    // The same value, checked again, gets the same verdict.
    assert_eq!(
        check_value(shape, &value),
        issues,
        "{tool}: not deterministic"
    );
});
