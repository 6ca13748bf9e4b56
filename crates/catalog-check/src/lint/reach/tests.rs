//! The ranks [`ranks`] finds without building the index per example are those of building
//! it per example, on real and generated catalogs.

use catalog_core::search::Scratch;

use super::*;

/// What [`ranks`] stands for: each example searched in an index built without it, its
/// tool searched even if inline (would search find it if it were discoverable?).
fn ranks_rebuilt(catalog: &CatalogModel) -> Vec<ToolReach> {
    let mut work = catalog.clone();
    let mut scratch = Scratch::default();
    let mut out = Vec::new();
    for (t, tool) in catalog.tools.iter().enumerate() {
        if t == catalog.settings.search_tool || tool.examples.is_empty() {
            continue;
        }
        let mut examples = Vec::new();
        for (i, text) in tool.examples.iter().enumerate() {
            let left_out = work.tools[t].examples.remove(i);
            work.tools[t].visibility = Visibility::Discoverable;
            let index = crate::search::index(&work, Weights::DEFAULT);
            work.tools[t].visibility = tool.visibility;
            work.tools[t].examples.insert(i, left_out);
            let hits = index.view().search(text, catalog.tools.len(), &mut scratch);
            let rank = hits.iter().position(|h| h.doc as usize == t).map(|p| p + 1);
            examples.push(ExampleReach {
                text: text.clone(),
                span: tool.spans.examples.get(i).cloned().unwrap_or_default(),
                rank,
            });
        }
        out.push(ToolReach { tool: t, examples });
    }
    out
}

fn same_ranks(source: &str) {
    let catalog = crate::validate(source).unwrap_or_else(|d| panic!("{d:#?}"));
    let fast = ranks(&catalog);
    let examples: usize = fast.iter().map(|r| r.examples.len()).sum();
    assert!(examples > 0);
    assert_eq!(fast, ranks_rebuilt(&catalog));
}

#[test]
fn the_example_catalog_ranks_as_rebuilt() {
    same_ranks(include_str!("../../../../../tests/data/tables.toml"));
}

#[test]
fn every_language_ranks_as_rebuilt() {
    for source in [
        include_str!("../../../../../tests/data/languages/de/catalog.toml"),
        include_str!("../../../../../tests/data/languages/fr/catalog.toml"),
        include_str!("../../../../../tests/data/languages/ja/catalog.toml"),
        include_str!("../../../../../tests/data/languages/ko/catalog.toml"),
        include_str!("../../../../../tests/data/languages/zh/catalog.toml"),
    ] {
        same_ranks(source);
    }
}

/// `cargo xtask gen-catalog --tools 400`: most tools ranked somewhere below the top, many
/// sharing words, so ties and shifted averages are exercised.
#[test]
fn a_generated_catalog_ranks_as_rebuilt() {
    same_ranks(include_str!("../../../tests/data/generated-400.toml"));
}
