//! Tokens: what each provider's request spends on the tool list, counted with OpenAI's
//! `o200k_base` (`tiktoken-rs`). The counting itself is the `inline-token-budget` lint's
//! ([`catalog_compiler::lint`]); this module brings the tokenizer and prints the table.

use std::fmt::Write as _;

use catalog_compiler::lint::{TokenReport, Tokenizer};
use catalog_compiler::model::{Catalog, Visibility};
use serde_json::json;

use crate::numbers::thousands;

/// OpenAI's `o200k_base` encoding: the tokenizer of current OpenAI models, and the count
/// this project reports for every provider (Anthropic's and Amazon's are not public).
pub(crate) struct O200k(tiktoken_rs::CoreBPE);

impl O200k {
    /// Loads the tokenizer's tables (a fraction of a second: only when the lint runs).
    pub(crate) fn load() -> Result<O200k, String> {
        tiktoken_rs::o200k_base()
            .map(O200k)
            .map_err(|e| e.to_string())
    }
}

impl Tokenizer for O200k {
    fn name(&self) -> &'static str {
        "o200k_base"
    }

    fn count(&self, text: &str) -> usize {
        self.0.encode_ordinary(text).len()
    }
}

/// The table of token counts per provider, inline set against every tool, and the
/// largest inline tools.
pub(crate) fn tokens_table(c: &Catalog, t: &TokenReport) -> String {
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
