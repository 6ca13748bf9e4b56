//! Tokens: what each provider's request spends on the tool list, counted with OpenAI's
//! `o200k_base` (`tiktoken-rs`). The counting itself is the `inline-token-budget` lint's
//! ([`catalog_check::lint`]); this module brings the tokenizer and prints the table.

use std::fmt::Write as _;
use std::sync::Mutex;

use catalog_check::lint::{TokenReport, Tokenizer};
use catalog_check::model::{CatalogModel, Visibility};
use rustc_hash::FxHashMap;
use serde_json::json;

use crate::numbers::thousands;

/// OpenAI's `o200k_base` encoding: the tokenizer of current OpenAI models, and the count
/// this project reports for every provider (Anthropic's and Amazon's are not public).
///
/// Counts are memoised by segment (see [`segments`]): the six providers' renderings of a
/// catalog repeat the same keys, names, descriptions and schemas, so a 25,000-tool catalog
/// is tokenised about once instead of twelve times, with exactly the same total.
pub(crate) struct O200k {
    bpe: tiktoken_rs::CoreBPE,
    seen: Mutex<FxHashMap<String, usize>>,
}

impl O200k {
    /// Loads the tokenizer's tables (a fraction of a second: only when the lint runs).
    pub(crate) fn load() -> Result<O200k, String> {
        tiktoken_rs::o200k_base()
            .map(|bpe| O200k {
                bpe,
                seen: Mutex::default(),
            })
            .map_err(|e| e.to_string())
    }
}

impl Tokenizer for O200k {
    fn name(&self) -> &'static str {
        "o200k_base"
    }

    fn count(&self, text: &str) -> usize {
        // The lints run on several threads, but only the budget lint counts: the lock is
        // never contended.
        let mut seen = self
            .seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        segments(text)
            .map(|s| {
                if let Some(&n) = seen.get(s) {
                    n
                } else {
                    // A segment not seen yet is mostly words other segments have: count
                    // them one by one, each tokenised once.
                    let n = words(s)
                        .map(|w| {
                            if let Some(&n) = seen.get(w) {
                                n
                            } else {
                                let n = self.bpe.encode_ordinary(w).len();
                                seen.insert(w.to_string(), n);
                                n
                            }
                        })
                        .sum();
                    seen.insert(s.to_string(), n);
                    n
                }
            })
            .sum()
    }
}

/// `text` cut before every space that follows a character other than white space
/// (`"Lists the rows"` → `"Lists`, ` the`, ` rows"`).
///
/// Each cut is where `o200k_base`'s pre-tokenizer ends a piece, so the tokens of `text`
/// are the sum of its segments' tokens: no branch of its pattern takes a space after
/// anything but white space. A letter run and a punctuation run may begin with a space, but
/// not hold one further on, and the runs of digits and of white space take no other
/// characters. Only ASCII counts as the character before, so a wide space (which is white
/// space) never passes for one.
fn words(text: &str) -> impl Iterator<Item = &str> {
    // White space is Unicode's: with the vertical tab, which Rust's ASCII white space
    // leaves out.
    cut_before(text, 1, |b, at| {
        b[at] == b' ' && b[at - 1].is_ascii() && !matches!(b[at - 1], b'\t'..=b'\r' | b' ')
    })
}

/// `text` cut before every ASCII letter that starts a JSON key or follows one: after `{"`
/// or `,"` (`{"name":"listOrders"}` → `{"`, `name":"listOrders"}`).
///
/// Each cut is where `o200k_base`'s pre-tokenizer ends a piece whatever comes before it,
/// so the tokens of `text` are the sum of its segments' tokens. The pattern's branches
/// that can cover the two punctuation characters are a letter run with one leading
/// non-letter (which needs the second to be a letter or mark: it is not), and a run of
/// punctuation ` ?[^\s\p{L}\p{N}]+[\r\n/]*`, which is greedy, so it takes both and stops
/// at the letter. Pieces are encoded independently, and the only look-ahead
/// (`\s+(?!\S)`) never sees past a cut, which punctuation precedes. Any two punctuation
/// characters would do; cutting at keys only keeps a key with its value, so a rendering
/// is about a third fewer segments to look up, and they repeat as often.
fn segments(text: &str) -> impl Iterator<Item = &str> {
    cut_before(text, 2, |b, at| {
        b[at - 1] == b'"' && matches!(b[at - 2], b'{' | b',') && b[at].is_ascii_alphabetic()
    })
}

/// `text` cut before each byte `at` (from `first` on) where `cut(bytes, at)` holds, which
/// must be a character's first byte. A byte at a time: the cuts are a few bytes apart, too
/// close for a search per cut to pay.
fn cut_before(
    text: &str,
    first: usize,
    cut: impl Fn(&[u8], usize) -> bool,
) -> impl Iterator<Item = &str> {
    let b = text.as_bytes();
    let (mut start, mut i) = (0, first);
    core::iter::from_fn(move || {
        while i < b.len() {
            let at = i;
            i += 1;
            if at > start && cut(b, at) {
                let s = &text[start..at];
                start = at;
                return Some(s);
            }
        }
        (start < b.len()).then(|| {
            let s = &text[start..];
            start = b.len();
            s
        })
    })
}

/// The table of token counts per provider, inline set against every tool, and the
/// largest inline tools.
pub(crate) fn tokens_table(c: &CatalogModel, t: &TokenReport) -> String {
    let inline = c
        .tools
        .iter()
        .filter(|x| x.visibility == Visibility::Inline)
        .count();
    let mut out = format!(
        "\ntokens ({}) of the tool list, as each provider's request carries it:\n{:<18} {:>14} {:>14} {:>8}\n",
        t.tokenizer,
        "provider",
        format!("inline ({inline})"),
        format!("all ({})", c.tools.len()),
        "saving"
    );
    for p in &t.providers {
        let cell =
            |r: &Result<usize, String>| r.as_ref().map_or("-".to_string(), |n| thousands(*n));
        let saving = p
            .saving()
            .map_or("-".to_string(), |s| format!("{:.0}%", s * 100.0));
        let _ = writeln!(
            out,
            "{:<18} {:>14} {:>14} {:>8}",
            p.provider,
            cell(&p.inline),
            cell(&p.all),
            saving
        );
    }
    let notes: Vec<String> = t
        .providers
        .iter()
        .flat_map(|p| {
            [&p.inline, &p.all]
                .into_iter()
                .filter_map(|r| r.as_ref().err())
                .map(|e| format!("  {}: {e}", p.provider))
                .collect::<Vec<_>>()
        })
        .collect();
    for n in notes {
        let _ = writeln!(out, "{n}");
    }
    let largest: Vec<String> = t
        .inline_tools
        .iter()
        .take(5)
        .map(|(i, n)| format!("{} {n}", c.tools[*i].name))
        .collect();
    let _ = writeln!(
        out,
        "largest inline tools: {}; budget (`inline-token-budget`) {}",
        largest.join(", "),
        thousands(t.max_tokens)
    );
    out
}

/// The token counts as JSON: `null` where a provider refused the list.
pub(crate) fn tokens_json(t: &TokenReport) -> serde_json::Value {
    let count = |r: &Result<usize, String>| match r {
        Ok(n) => json!(n),
        Err(_) => serde_json::Value::Null,
    };
    json!({
        "tokenizer": t.tokenizer,
        "maxTokens": t.max_tokens,
        "providers": t.providers.iter().map(|p| json!({
            "provider": p.provider,
            "inline": count(&p.inline),
            "all": count(&p.all),
            "saving": p.saving(),
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use catalog_check::provider::Provider;
    use catalog_wire::render;

    use super::*;

    /// The memoised count against `tiktoken`'s own, on every provider's rendering of two
    /// real catalogs and on text made to sit on the cut rule's edges.
    #[test]
    fn segment_counts_equal_whole_text_counts() {
        let o200k = O200k::load().unwrap();
        let mut texts: Vec<String> = [
            "it's \"a\":\"b\" don't!!x  \n\n \"ok\"'s ..abc 12345 ,\"x\" \u{301}a ,\u{301}\"é",
            "\"\"A  \"\"  Ab::cD'S\t\"\"\n\"\"/\nx",
            "a\u{b} b\u{c} c\t d\r e\u{85} f\u{a0} g\u{3000} h/ \n i 's 't  j 12 345 \u{301} k",
        ]
        .map(str::to_string)
        .to_vec();
        let bfcl: serde_json::Value =
            serde_json::from_str(include_str!("../../../tests/data/bfcl/tools.json")).unwrap();
        let bfcl = catalog_check::import::from_mcp("tools.json", &bfcl).unwrap();
        for source in [
            include_str!("../../../tests/data/tables.toml"),
            include_str!("../../../tests/data/languages/ja/catalog.toml"),
            &bfcl.toml,
        ] {
            let catalog = catalog_check::validate(source).unwrap();
            let specs = catalog_check::specs(&catalog);
            for p in Provider::ALL {
                texts.extend(render::render(p.format(), specs.get().iter()).ok());
            }
        }
        for text in &texts {
            assert_eq!(
                o200k.count(text),
                o200k.bpe.encode_ordinary(text).len(),
                "{text}"
            );
        }
        // Segments repeat across providers and are tokenised once, and segments repeat across them.
        assert!(o200k.seen.lock().unwrap().len() > 1000);
    }
}
