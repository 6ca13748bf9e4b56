//! The book's copies of the files it shows. A page shows a file, or part of one, as a
//! marker line, `<!-- include: PATH[:PART] -->`, and a fenced block right below it that
//! holds the copy: mdBook and the forge both render the block, and the comment says where
//! it comes from in mdBook's own include syntax (`PATH` relative to the page; `PART` an
//! anchor's name, or lines from 1: `N`, `N:`, `:M`, `N:M`). Anchor lines are left out of
//! every copy, as mdBook leaves them out of an anchored include.
//!
//! `cargo xtask codegen` rewrites the copies; the book's tests (`tests/tests/book.rs`,
//! which reads this file too) fail while one differs from its file.

use std::path::{Path, PathBuf};

/// How a marker line starts and ends.
const OPEN: &str = "<!-- include: ";
const CLOSE: &str = " -->";

/// A page with each copy as its file has it now, and the copies that were not.
pub struct Refreshed {
    /// The page's text, every copy rewritten.
    pub text: String,
    /// `page:line: ...` for each copy that differed from its file.
    pub stale: Vec<String>,
}

/// The book's pages (`book/src/*.md` under `root`), in name order.
#[must_use]
pub fn pages(root: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(root.join("book/src"))
        .map(|dir| {
            dir.filter_map(|e| Some(e.ok()?.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "md"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// The spec of a marker line (`../../tests/outside/Cargo.toml:5:`), or `None` for any
/// other line.
#[must_use]
pub fn marker(line: &str) -> Option<&str> {
    let spec = line.trim_end().strip_prefix(OPEN)?.strip_suffix(CLOSE)?;
    Some(spec.trim())
}

/// `text`, the page `name` found at `page`, with each marker's copy rewritten from its
/// file.
///
/// # Errors
/// `name:line: reason` for each marker whose file or anchor is missing, or that no fenced
/// block follows.
pub fn refresh(page: &Path, name: &str, text: &str) -> Result<Refreshed, Vec<String>> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::with_capacity(text.len());
    let mut stale = Vec::new();
    let mut problems = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        out.push_str(lines[i]);
        i += 1;
        let Some(spec) = marker(lines[i - 1]) else {
            continue;
        };
        // `i` is now the marker's line number, from 1, and the index of the line below.
        let at = format!("{name}:{i}");
        let copy = match included(page, spec) {
            Ok(copy) => copy,
            Err(e) => {
                problems.push(format!("{at}: {e}"));
                continue;
            }
        };
        let Some(open) = lines.get(i).filter(|l| l.starts_with("```")) else {
            problems.push(format!(
                "{at}: no fenced block (```lang) right below `{spec}` to hold the copy"
            ));
            continue;
        };
        let Some(len) = lines[i + 1..].iter().position(|l| l.trim_end() == "```") else {
            problems.push(format!("{at}: the block below `{spec}` is never closed"));
            continue;
        };
        // A copied line that starts a fence would end the block early.
        if copy.lines().any(|l| l.trim_start().starts_with("```")) {
            problems.push(format!(
                "{at}: `{spec}` holds a ``` line, which would end the block: show a part without it"
            ));
            continue;
        }
        let new = if copy.is_empty() {
            String::new()
        } else {
            format!("{copy}\n")
        };
        if lines[i + 1..i + 1 + len].concat() != new {
            stale.push(format!("{at}: the copy of `{spec}` differs from the file"));
        }
        out.push_str(open);
        out.push_str(&new);
        out.push_str(lines[i + 1 + len]);
        i += len + 2;
    }
    if problems.is_empty() {
        Ok(Refreshed { text: out, stale })
    } else {
        Err(problems)
    }
}

/// What mdBook's `{{#include spec}}` on the page `page` gives, without anchor lines.
///
/// # Errors
/// Naming the file that cannot be read, or the anchor it does not have.
pub fn included(page: &Path, spec: &str) -> Result<String, String> {
    let (path, part) = spec.split_once(':').unwrap_or((spec, ""));
    let file = page.parent().unwrap_or(Path::new(".")).join(path);
    let text = std::fs::read_to_string(&file).map_err(|e| format!("`{path}`: {e}"))?;
    let lines: Vec<&str> = text.lines().collect();
    let picked = if part.is_empty() {
        &lines[..]
    } else if let Some((from, to)) = line_range(part, lines.len()) {
        &lines[from..to]
    } else {
        anchored(&lines, part).ok_or_else(|| format!("`{path}` has no anchor `{part}`"))?
    };
    let kept: Vec<&str> = picked.iter().copied().filter(|l| !is_anchor(l)).collect();
    Ok(kept.join("\n"))
}

/// The lines `from..to` (indices from 0) a part of lines names, as mdBook reads it: `N`
/// the line N alone, `N:` from N to the end, `:M` to M, `N:M` from N to M (lines from 1);
/// `None` when `part` is an anchor's name.
fn line_range(part: &str, count: usize) -> Option<(usize, usize)> {
    let number = |s: &str| -> Option<Option<usize>> {
        if s.is_empty() {
            Some(None)
        } else {
            s.parse().ok().map(Some)
        }
    };
    let (from, to) = if let Some((from, to)) = part.split_once(':') {
        (number(from)?, number(to)?)
    } else {
        let n = part.parse().ok()?;
        (Some(n), Some(n))
    };
    let from = from.map_or(0, |n: usize| n.saturating_sub(1)).min(count);
    let to = to.map_or(count, |n| n.min(count));
    Some((from, to.max(from)))
}

/// The lines between `ANCHOR: name` and `ANCHOR_END: name` (or the end of the file).
fn anchored<'a>(lines: &'a [&'a str], name: &str) -> Option<&'a [&'a str]> {
    let start = lines
        .iter()
        .position(|l| anchor_name(l, "ANCHOR:") == Some(name))?;
    let end = lines[start + 1..]
        .iter()
        .position(|l| anchor_name(l, "ANCHOR_END:") == Some(name))
        .map_or(lines.len(), |n| start + 1 + n);
    Some(&lines[start + 1..end])
}

/// The name after `tag` on a line (`// ANCHOR: chat` → `chat`), as mdBook finds it: in
/// any comment syntax, `# ANCHOR: rows` too.
fn anchor_name<'a>(line: &'a str, tag: &str) -> Option<&'a str> {
    let rest = line[line.find(tag)? + tag.len()..].trim_start();
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

fn is_anchor(line: &str) -> bool {
    anchor_name(line, "ANCHOR:").is_some() || anchor_name(line, "ANCHOR_END:").is_some()
}
