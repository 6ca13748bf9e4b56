//! The search evaluation sets in `tests/data/languages/` stay usable: each catalog compiles,
//! each request line is in the format `eval-search` reads, and requests and catalog agree
//! (every expected tool exists and can be found; every discoverable tool is asked for, in
//! both halves of the split the folder's README describes).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use catalog_check::CatalogModel;
use catalog_check::model::Visibility;
use serde_json::Value;

/// Every language of the folder, by the name of its directory.
const LANGUAGES: &[&str] = &["ja", "zh", "ko", "de", "fr"];

/// Requests `<lang>-01` to `<lang>-20` are for choosing parameters, `-21` to `-44` for
/// reporting, and any from `-45` on (added later) for choosing parameters again.
const TUNING: usize = 20;
const REPORT_END: usize = 44;

/// The fewest requests a set may have.
const AT_LEAST: usize = 40;

fn dir(lang: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/languages")
        .join(lang)
}

fn catalog(lang: &str) -> CatalogModel {
    let path = dir(lang).join("catalog.toml");
    let source = std::fs::read_to_string(&path).unwrap();
    // `compile` is `validate` plus the lints the catalog denies: what `check-catalog`
    // fails on.
    catalog_check::compile(&source).unwrap_or_else(|d| {
        panic!(
            "{}",
            catalog_check::render_all(&format!("{lang}/catalog.toml"), &source, &d)
        )
    })
}

fn requests_text(lang: &str) -> String {
    std::fs::read_to_string(dir(lang).join("requests.jsonl")).unwrap()
}

#[test]
fn every_catalog_compiles() {
    for lang in LANGUAGES {
        let c = catalog(lang);
        let discoverable = c
            .tools
            .iter()
            .filter(|t| t.visibility == Visibility::Discoverable)
            .count();
        assert!(
            discoverable * 2 > c.tools.len(),
            "{lang}: most tools should be discoverable, {discoverable} of {} are",
            c.tools.len()
        );
    }
}

/// Each line is an object with exactly `id`, `query` and a non-empty `expected` list of
/// distinct names, and `catalog_check::search::requests`, what `eval-search` reads
/// them with, accepts the whole file.
#[test]
fn every_request_line_parses() {
    for lang in LANGUAGES {
        let text = requests_text(lang);
        for (i, line) in text.lines().enumerate() {
            let at = format!("{lang}/requests.jsonl:{}", i + 1);
            let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{at}: {e}"));
            let obj = v
                .as_object()
                .unwrap_or_else(|| panic!("{at}: not an object"));
            let keys: BTreeSet<&str> = obj.keys().map(String::as_str).collect();
            assert_eq!(
                keys,
                BTreeSet::from(["expected", "id", "query"]),
                "{at}: keys"
            );
            assert!(
                v["query"].as_str().is_some_and(|q| !q.trim().is_empty()),
                "{at}: `query` is not a non-empty string"
            );
            let expected = v["expected"]
                .as_array()
                .unwrap_or_else(|| panic!("{at}: `expected` is not a list"));
            let names: BTreeSet<&str> = expected.iter().filter_map(Value::as_str).collect();
            assert!(
                !expected.is_empty() && names.len() == expected.len(),
                "{at}: `expected` must list distinct tool names, at least one"
            );
        }
        let requests = catalog_check::search::requests(&catalog(lang), &text)
            .unwrap_or_else(|e| panic!("{lang}/requests.jsonl:{e}"));
        assert!(
            requests.len() >= AT_LEAST,
            "{lang}: {} requests, fewer than {AT_LEAST}",
            requests.len()
        );
    }
}

/// Ids are unique because each is `<lang>-NN`, numbered from 01 in file order: the split
/// is defined by those numbers.
#[test]
fn ids_are_unique_and_numbered_in_order() {
    for lang in LANGUAGES {
        let requests = catalog_check::search::requests(&catalog(lang), &requests_text(lang))
            .unwrap_or_else(|e| panic!("{lang}/requests.jsonl:{e}"));
        let mut seen = BTreeSet::new();
        for (i, r) in requests.iter().enumerate() {
            assert!(seen.insert(r.id.as_str()), "{lang}: duplicate id {}", r.id);
            assert_eq!(
                r.id,
                format!("{lang}-{:02}", i + 1),
                "{lang}: line {}",
                i + 1
            );
        }
    }
}

/// An expected tool exists (`requests` checks that) and is a tool a search can return:
/// inline or discoverable, as every row is, but not the search tool, whose document is
/// empty.
#[test]
fn every_expected_tool_can_be_found() {
    for lang in LANGUAGES {
        let c = catalog(lang);
        let requests = catalog_check::search::requests(&c, &requests_text(lang))
            .unwrap_or_else(|e| panic!("{lang}/requests.jsonl:{e}"));
        for r in &requests {
            for &doc in &r.expected {
                assert_ne!(
                    doc as usize, c.settings.search_tool,
                    "{}: expects the search tool {}",
                    r.id, c.tools[doc as usize].name
                );
            }
        }
    }
}

/// Each discoverable tool is expected by a request for choosing parameters and by one for
/// reporting, so a figure on either part measures every tool.
#[test]
fn every_discoverable_tool_is_asked_for_in_both_halves() {
    for lang in LANGUAGES {
        let c = catalog(lang);
        let requests = catalog_check::search::requests(&c, &requests_text(lang))
            .unwrap_or_else(|e| panic!("{lang}/requests.jsonl:{e}"));
        let (first, rest) = requests.split_at(TUNING.min(requests.len()));
        let (reporting, added) = rest.split_at((REPORT_END - TUNING).min(rest.len()));
        let tuning: Vec<_> = first.iter().chain(added).cloned().collect();
        assert_eq!(
            reporting.len(),
            REPORT_END - TUNING,
            "{lang}: reporting part"
        );
        for (half, part) in [("tuning", &tuning[..]), ("reporting", reporting)] {
            let asked: BTreeSet<u32> = part.iter().flat_map(|r| r.expected.clone()).collect();
            let missing: Vec<&str> = c
                .tools
                .iter()
                .enumerate()
                .filter(|(i, t)| {
                    t.visibility == Visibility::Discoverable
                        && !asked.contains(&u32::try_from(*i).unwrap())
                })
                .map(|(_, t)| t.name.as_str())
                .collect();
            assert!(
                missing.is_empty(),
                "{lang}: no request of the {half} part expects {missing:?}"
            );
        }
    }
}
