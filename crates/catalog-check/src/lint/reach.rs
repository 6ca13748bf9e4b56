//! `unnamed-need`: which tools the catalog's own search finds from their example requests.
//!
//! A tool that requests need without naming it (today's date for "show me last week's
//! orders") must be inline: a model that does not know the tool exists does not search
//! for it. Each example is searched with that example left out of the index, since the
//! index reads examples and would otherwise find every tool by its own sentence; what is
//! measured is whether a request *like* the example reaches the tool.

use std::collections::BTreeSet;

use catalog_core::Visibility;
use catalog_core::search::{
    LeaveOut, LeaveOutScratch, Weights, is_cjk, is_hiragana, is_word_splitter, script_runs,
};
use unicode_segmentation::UnicodeSegmentation;

use super::{Ctx, Found, LintId, stems};
use crate::diag::{Diagnostic, Span};
use crate::model::{CatalogModel, Field, Kind, Language, Tool};
use crate::search::without_each_example;

/// One example request and where search ranks its tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExampleReach {
    /// The request.
    pub text: String,
    /// Where it is written.
    pub span: Span,
    /// The tool's rank (1 = best) when the request is searched with this example left out
    /// of the index; `None` when the request matches nothing of the tool.
    pub rank: Option<usize>,
}

/// A tool's examples and their ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolReach {
    /// The tool, by index in [`CatalogModel::tools`].
    pub tool: usize,
    /// Its examples, in order.
    pub examples: Vec<ExampleReach>,
}

impl ExampleReach {
    /// Whether a search returning `k` hits includes the tool.
    #[must_use]
    pub fn found(&self, k: usize) -> bool {
        self.rank.is_some_and(|r| r <= k)
    }
}

/// Ranks every example, and reports the discoverable tools that their examples miss.
pub(super) fn check(ctx: &Ctx<'_>, found: &mut Vec<Found>) -> Vec<ToolReach> {
    let catalog = ctx.catalog;
    let k = catalog.settings.search_results;
    let reach = ranks(catalog);
    // Each tool's findings on its own, runs of tools on the threads the caller allows, kept in tool order.
    let each = crate::threads::each_row(reach.len(), |i| {
        let r = &reach[i];
        let mut found = Vec::new();
        let tool = &catalog.tools[r.tool];
        if tool.visibility != Visibility::Discoverable {
            return found;
        }
        for e in r.examples.iter().filter(|e| !e.found(k)) {
            let rank = match e.rank {
                Some(n) => format!("search ranks it at {n}, and returns the top {k}"),
                None => "search does not match it at all".to_string(),
            };
            let missing = missing_words(tool, &e.text, catalog.settings.language);
            let keywords = if missing.is_empty() {
                "its text already has this request's words, so sharpen its description against the tools that outrank it".to_string()
            } else {
                format!(
                    "give it keywords in the words of such requests (this one has {} that it lacks)",
                    missing.join(", ")
                )
            };
            found.push((
                LintId::UnnamedNeed,
                Some(r.tool),
                Diagnostic::new(
                    e.span.clone(),
                    format!(
                        "discoverable tool `{}` is not found by its example {:?}: {rank}",
                        tool.name, e.text
                    ),
                )
                .help(format!(
                    "a request that does not name the tool cannot reach it: make it `visibility = \"inline\"`, or {keywords}"
                )),
            ));
        }
        found
    });
    found.extend(each.into_iter().flatten());
    reach
}

/// Each example's rank, searched with that one example left out of the index. The index
/// is not built again per example: [`LeaveOut`] scores each search as that index would.
fn ranks(catalog: &CatalogModel) -> Vec<ToolReach> {
    let index = LeaveOut::new(crate::search::builder(catalog, Weights::DEFAULT));
    let with_examples: Vec<usize> = (0..catalog.tools.len())
        .filter(|&t| t != catalog.settings.search_tool && !catalog.tools[t].examples.is_empty())
        .collect();
    // Most of the lint's time on a large catalog: in runs of tools, on the threads the caller allows (`threads`).
    let runs = crate::threads::runs(with_examples.len());
    let ranked = crate::threads::map_with(&runs, LeaveOutScratch::default, |scratch, run| {
        let rank = |&t: &usize| {
            let tool = &catalog.tools[t];
            let doc = u32::try_from(t).unwrap_or(u32::MAX);
            // The tool's text without each example, as a document of its own.
            let without = without_each_example(index.builder(), catalog, t);
            let examples = tool.examples.iter().zip(&without).enumerate();
            ToolReach {
                tool: t,
                examples: examples
                    .map(|(i, (text, without))| ExampleReach {
                        text: text.clone(),
                        span: tool.spans.examples.get(i).cloned().unwrap_or_default(),
                        rank: index.rank(doc, without, text, scratch),
                    })
                    .collect(),
            }
        };
        with_examples[run.clone()]
            .iter()
            .map(rank)
            .collect::<Vec<_>>()
    });
    ranked.into_iter().flatten().collect()
}

/// The words of `request` whose stems the tool's own text (name, keywords, description,
/// parameters) lacks: candidates for its keywords. In CJK text, which has no words to
/// point at, each stretch of the request whose bigrams the tool lacks, but for runs of
/// Hiragana: particles and endings (`を`, `して`, `ように`), which every request has and
/// no keyword should.
pub(super) fn missing_words(tool: &Tool, request: &str, language: Language) -> Vec<String> {
    let mut have: BTreeSet<String> = BTreeSet::new();
    let mut add = |text: &str| have.extend(stems(text, language));
    add(&tool.name);
    tool.keywords.iter().for_each(|k| add(k));
    add(&tool.description);
    fields(&tool.params, &mut add);
    let mut out: Vec<String> = Vec::new();
    let mut push = |word: &str| {
        let word = format!("`{}`", word.to_lowercase());
        if !out.contains(&word) {
            out.push(word);
        }
    };
    for (piece, cjk) in pieces(request) {
        if cjk {
            // A run is one script's, so its first character tells.
            if piece.starts_with(is_hiragana) {
                continue;
            }
            for stretch in missing_stretches(piece, &have, language) {
                push(stretch);
            }
            continue;
        }
        let s = stems(piece, language);
        // Shorter pieces are contractions' leftovers (`don't` → `don`, `t`).
        if piece.chars().count() >= 3 && s.iter().any(|x| !have.contains(x)) {
            push(piece);
        }
    }
    out
}

/// `text` as written, cut into its runs of CJK characters, one script each as search cuts
/// them (`true`), and its other words
/// (`false`: UAX #29's, split where search splits them, `week's` → `week`, `s`), in
/// order; spaces and punctuation left out.
fn pieces(text: &str) -> Vec<(&str, bool)> {
    fn other<'a>(text: &'a str, out: &mut Vec<(&'a str, bool)>) {
        out.extend(
            text.split_word_bounds()
                .flat_map(|w| w.split(is_word_splitter))
                .filter(|w| w.chars().any(char::is_alphanumeric))
                .map(|w| (w, false)),
        );
    }
    let mut out = Vec::new();
    let (mut done, mut run) = (0, None);
    for (i, c) in text.char_indices() {
        match (is_cjk(c), run) {
            (true, None) => {
                other(&text[done..i], &mut out);
                run = Some(i);
            }
            (false, Some(start)) => {
                out.extend(script_runs(&text[start..i]).into_iter().map(|r| (r, true)));
                run = None;
                done = i;
            }
            _ => {}
        }
    }
    match run {
        Some(start) => out.extend(script_runs(&text[start..]).into_iter().map(|r| (r, true))),
        None => other(&text[done..], &mut out),
    }
    out
}

/// The stretches of a CJK run whose bigrams (its character, for a run of one) the tool's
/// terms lack, overlapping bigrams joined: `テストテーブル` against a tool that has
/// `テーブル` gives `テストテ`.
fn missing_stretches<'a>(
    run: &'a str,
    have: &BTreeSet<String>,
    language: Language,
) -> Vec<&'a str> {
    let bounds: Vec<usize> = run
        .char_indices()
        .map(|(i, _)| i)
        .chain([run.len()])
        .collect();
    let chars = bounds.len() - 1;
    if chars == 1 {
        let lacks = stems(run, language).iter().any(|s| !have.contains(s));
        return if lacks { vec![run] } else { Vec::new() };
    }
    let mut out = Vec::new();
    let mut stretch: Option<(usize, usize)> = None;
    for i in 0..chars - 1 {
        let bigram = &run[bounds[i]..bounds[i + 2]];
        let lacks = stems(bigram, language).iter().any(|s| !have.contains(s));
        stretch = match (lacks, stretch) {
            (true, Some((from, _))) => Some((from, i + 2)),
            (true, None) => Some((i, i + 2)),
            (false, Some((from, to))) => {
                out.push(&run[bounds[from]..bounds[to]]);
                None
            }
            (false, None) => None,
        };
    }
    if let Some((from, to)) = stretch {
        out.push(&run[bounds[from]..bounds[to]]);
    }
    out
}

fn fields(fields: &[Field], add: &mut impl FnMut(&str)) {
    for f in fields {
        add(&f.name);
        if let Some(d) = &f.ty.description {
            add(d);
        }
        if let Kind::Object(Some(props)) = &f.ty.kind {
            self::fields(props, add);
        }
    }
}

#[cfg(test)]
mod tests;
