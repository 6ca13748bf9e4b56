//! The guide (`book/`) and the README hold together: every chapter is in the summary,
//! every relative link and `#anchor` leads somewhere, every file a page shows is copied
//! below its `<!-- include: path:part -->` marker exactly as the file has it now (so the
//! page reads the same on the forge as in mdBook), and every Rust sample is code the
//! workspace compiles: the copy of a compiled file, or one of the copies a named test
//! compares with one.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

// The rule that `cargo xtask codegen` writes the copies by: one reading, so the two agree.
#[path = "../../xtask/src/copies.rs"]
mod copies;

/// Rust blocks that are copies rather than includes, each kept equal to compiled code by
/// a test: (chapter, the heading it sits under, the test).
const CHECKED_COPIES: &[(&str, &str, &str)] = &[
    (
        "mcp.md",
        "Serving your own catalog over MCP",
        "example/mcp/tests/readme.rs",
    ),
    (
        "cli.md",
        "The command line",
        "crates/cargo-catalog/tests/readme.rs",
    ),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn chapters() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(root().join("book/src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    found.sort();
    found
}

/// The anchor mdBook and the forge give a heading: lowercase, punctuation dropped, spaces
/// as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The text outside fenced code blocks, line by line.
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|line| {
            if line.starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .into_iter()
        .filter_map(|line| line.strip_prefix('#'))
        .map(|heading| slug(heading.trim_start_matches('#')))
        .collect()
}

/// Every `](target)` of the prose, relative ones only.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in prose(text) {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = &rest[..end];
            if !target.contains("://") && !target.starts_with("mailto:") {
                found.push(target.to_string());
            }
            rest = &rest[end..];
        }
    }
    found
}

/// Where `target` (a link written in `from`) leads, and its anchor.
fn resolve(from: &Path, target: &str) -> (PathBuf, Option<String>) {
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor.to_string())),
        None => (target, None),
    };
    let base = from.parent().unwrap();
    let file = if path.is_empty() {
        from.to_path_buf()
    } else {
        base.join(path)
    };
    (file, anchor)
}

#[test]
fn every_chapter_is_in_the_summary_and_every_link_leads_somewhere() {
    let src = root().join("book/src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).unwrap();
    let listed: BTreeSet<String> = links(&summary).into_iter().collect();
    for chapter in chapters() {
        let name = chapter.file_name().unwrap().to_str().unwrap().to_string();
        if name != "SUMMARY.md" {
            assert!(
                listed.contains(&name),
                "{name} is not in book/src/SUMMARY.md"
            );
        }
    }
    let mut pages = chapters();
    pages.push(root().join("README.md"));
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for target in links(&text) {
            let (file, anchor) = resolve(page, &target);
            if !file.exists() {
                broken.push(format!("{}: `{target}` names no file", page.display()));
                continue;
            }
            if let Some(anchor) = anchor {
                let linked = std::fs::read_to_string(&file).unwrap_or_default();
                if !anchors(&linked).contains(&anchor) {
                    broken.push(format!("{}: `{target}` names no heading", page.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn no_page_uses_mdbooks_include_and_every_rust_sample_is_compiled_code() {
    let mut problems = Vec::new();
    for chapter in chapters() {
        let text = std::fs::read_to_string(&chapter).unwrap();
        let name = chapter.file_name().unwrap().to_str().unwrap();
        // mdBook's own includes leave the Markdown without the code on the forge.
        for (i, line) in text.lines().enumerate() {
            if let Some(at) = line.find("{{#include ") {
                let spec = line[at + "{{#include ".len()..]
                    .trim_end_matches("}}")
                    .trim();
                problems.push(format!(
                    "{name}:{}: `{{{{#include {spec}}}}}` shows nothing on the forge: write `<!-- include: {spec} -->` above a fenced block, and run `cargo xtask codegen` to copy the file into it",
                    i + 1
                ));
            }
        }
        // Rust blocks: a marked copy, or a copy a test keeps equal to compiled code.
        let mut heading = String::new();
        // Whether the line before is an include marker: its block is a checked copy.
        let mut marked = false;
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            if let Some(h) = line.strip_prefix('#') {
                heading = h.trim_start_matches('#').trim().to_string();
            }
            let copied = std::mem::replace(&mut marked, copies::marker(line).is_some());
            if !line.starts_with("```rust") {
                if line.starts_with("```") {
                    // Skip other blocks whole, so a `#` in them is no heading.
                    for inner in lines.by_ref() {
                        if inner.starts_with("```") {
                            break;
                        }
                    }
                }
                continue;
            }
            for inner in lines.by_ref() {
                if inner.starts_with("```") {
                    break;
                }
            }
            let checked = CHECKED_COPIES
                .iter()
                .any(|(chapter, under, _)| *chapter == name && *under == heading);
            if !copied && !checked {
                problems.push(format!(
                    "{name}, under `{heading}`: a Rust block that no build compiles; show the file it comes from, `<!-- include: ../../path/to/file.rs:anchor -->` on the line above it (`cargo xtask codegen` copies the file in)"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_checked_copies_have_their_tests() {
    for (chapter, heading, test) in CHECKED_COPIES {
        let text = std::fs::read_to_string(root().join("book/src").join(chapter)).unwrap();
        assert!(
            anchors(&text).contains(&slug(heading)),
            "{chapter} has no heading `{heading}`"
        );
        let test_text = std::fs::read_to_string(root().join(test)).unwrap();
        assert!(
            test_text.contains(&format!("book/src/{chapter}")),
            "{test} does not read book/src/{chapter}"
        );
    }
}

/// Each copy below a marker is its file (or the part the marker names) as the file is now.
#[test]
fn every_copy_is_its_file_as_it_is_now() {
    let mut problems = Vec::new();
    let mut markers = 0;
    for page in copies::pages(&root()) {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = format!("book/src/{}", page.file_name().unwrap().to_string_lossy());
        markers += text.lines().filter(|l| copies::marker(l).is_some()).count();
        match copies::refresh(&page, &name, &text) {
            Ok(refreshed) if refreshed.text == text => {}
            Ok(refreshed) => problems.extend(refreshed.stale),
            Err(unusable) => problems.extend(unusable),
        }
    }
    assert!(markers >= 10, "found only {markers} include markers");
    assert!(
        problems.is_empty(),
        "{}\nrun `cargo xtask codegen` to copy the files into the book again",
        problems.join("\n")
    );
}
