//! The generated code, locked by snapshots: any change to the expansion shows up as a diff
//! to review (`cargo insta review`), and CI fails instead of writing a new snapshot.

use std::path::Path;

fn expand(path: &str) -> String {
    let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    let catalog = catalog_check::compile(&source).unwrap_or_else(|d| {
        panic!("{}", catalog_check::render_all(path, &source, &d));
    });
    let opts = catalog_codegen::Options {
        track: Some("catalog.toml".into()),
        ..Default::default()
    };
    catalog_codegen::format(catalog_codegen::expand(&catalog, &opts)).unwrap()
}

#[test]
fn small_catalog() {
    insta::assert_snapshot!(expand("fixtures/small.toml"));
}

#[test]
fn mixed_catalog() {
    insta::assert_snapshot!(expand("fixtures/mixed.toml"));
}

/// The framework's own rich catalog (a table-database app, `data/tables.toml`).
#[test]
fn tables_catalog() {
    insta::assert_snapshot!(expand("data/tables.toml"));
}

#[test]
fn expansion_is_deterministic() {
    assert_eq!(expand("data/tables.toml"), expand("data/tables.toml"));
}

#[test]
fn expansion_names_no_absolute_path() {
    let code = expand("data/tables.toml");
    let here = env!("CARGO_MANIFEST_DIR");
    assert!(!code.contains(here), "the expansion contains {here}");
    assert!(
        code.contains("env!(\"CARGO_MANIFEST_DIR\")"),
        "rebuild tracking must join the path at compile time"
    );
}
