//! Text the model reads is an attack surface: every description a search returns enters
//! the model's context. `poisoned-description` finds what tool poisoning uses — characters
//! a reviewer cannot see and words that mix look-alike scripts ([`chars`]), text addressed
//! to the model instead of describing the tool, however it is spelled ([`orders`]), and
//! orders about how to call *other* tools; `description-url` finds URLs and
//! `description-length` over-long descriptions, both common in honest catalogs and so
//! kept apart, at `warn`, where an imported catalog denies `poisoned-description`.
//!
//! The text read is every text the model reads ([`texts`]): names, descriptions, allowed
//! values and defaults at any depth, and every key and string of a schema kept as JSON.

mod texts;

#[cfg(test)]
mod tests;

use catalog_result_scan::{chars, orders};
use rustc_hash::FxHashMap as HashMap;

use super::{Ctx, Found, LintId};
use crate::diag::Diagnostic;
use texts::{Role, Text};

/// Runs the three checks over every text of every row.
pub(super) fn check(ctx: &Ctx<'_>, found: &mut Vec<Found>) {
    let catalog = ctx.catalog;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // whole, checked range
    let max_chars = catalog
        .lints
        .setting(LintId::DescriptionLength, "max-chars") as usize;
    let wire = catalog.wire_names();
    let mut names: HashMap<&str, usize> = HashMap::default();
    for (i, t) in catalog.tools.iter().enumerate() {
        if looks_like_identifier(&t.name) {
            names.insert(&t.name, i);
            names.insert(&wire[i], i);
        }
    }
    for (i, tool) in catalog.tools.iter().enumerate() {
        let mut push = |lint, span, message: String, help: &str| {
            found.push((
                lint,
                Some(i),
                Diagnostic::new(span, format!("in tool `{}`, {message}", tool.name)).help(help),
            ));
        };
        for t in texts::of_tool(tool) {
            poison(ctx, &t, "tool", &mut push);
            if matches!(t.role, Role::Description | Role::Value) {
                if let Some((other, sentence)) = redirect(t.body, &names, i) {
                    let span = ctx.find(&t.span, &catalog.tools[other].name);
                    push(
                        LintId::PoisonedDescription,
                        span,
                        format!(
                            "{} tells the model how to call another tool, `{}`: {sentence:?}",
                            t.what, catalog.tools[other].name
                        ),
                        "remove it: a tool's text may say when to use another tool instead, never how that tool must be called; rules for a tool belong in its own description",
                    );
                }
                if let Some(url) = url(t.body) {
                    let span = ctx.find(&t.span, url);
                    push(
                        LintId::DescriptionUrl,
                        span,
                        format!("{} holds a URL, {url}", t.what),
                        "remove it: the model cannot follow it, and a URL in tool text is where poisoned text sends data; keep references in a TOML comment",
                    );
                }
            }
            let chars = t.body.chars().count();
            if t.role == Role::Description && chars > max_chars {
                push(
                    LintId::DescriptionLength,
                    t.span.clone(),
                    format!(
                        "{} has {chars} characters, over the {max_chars} of `description-length`",
                        t.what
                    ),
                    "shorten it to what the model needs to choose the tool and fill its arguments: every search that returns the tool puts it in the context",
                );
            }
        }
    }
    // A gateway's prompts and resources reach the client's model too.
    for offer in &catalog.offers {
        let mut push = |lint, span, message: String, help: &str| {
            found.push((
                lint,
                None,
                Diagnostic::new(span, format!("in {}, {message}", offer.what)).help(help),
            ));
        };
        for t in texts::of_offer(offer) {
            poison(ctx, &t, offer.what.noun(), &mut push);
            if let (Role::Description, Some(url)) = (t.role, url(t.body)) {
                push(
                    LintId::DescriptionUrl,
                    ctx.find(&t.span, url),
                    format!("{} holds a URL, {url}", t.what),
                    "remove it: a URL in text the model reads is where poisoned text sends data; keep references in a TOML comment",
                );
            }
        }
    }
}

/// The checks of `poisoned-description` that read one text alone: hidden characters,
/// words mixing look-alike scripts, orders to the model.
fn poison(
    ctx: &Ctx<'_>,
    t: &Text<'_>,
    subject: &str,
    push: &mut impl FnMut(LintId, crate::diag::Span, String, &str),
) {
    if let Some((c, name, count)) = chars::hidden(t.body) {
        let span = ctx.find(&t.span, &c.to_string());
        let more = if count > 1 {
            format!(" ({count} hidden characters in all)")
        } else {
            String::new()
        };
        push(
            LintId::PoisonedDescription,
            span,
            format!(
                "{} holds an invisible character, U+{:04X} ({name}){more}",
                t.what,
                u32::from(c)
            ),
            "remove it: invisible and bidirectional characters hide text from whoever reviews the catalog, while the model still reads it",
        );
    }
    if let Some((word, scripts)) = chars::mixed_script(t.body) {
        push(
            LintId::PoisonedDescription,
            ctx.find(&t.span, word),
            format!("{} mixes {scripts} letters in one word, {word:?}", t.what),
            "write the word in one script: letters of another script that look alike make a word read one way to a reviewer and another to a filter or the model (for a unit, the micro sign `µ` belongs to no script)",
        );
    }
    let order = if t.role == Role::Name {
        // A name's words: `ignore_previous`, `ignorePrevious`.
        orders::addressed_to_model(&name_words(t.body)).map(|mut o| {
            o.written = t.body.to_string();
            o
        })
    } else {
        orders::addressed_to_model(t.body)
    };
    if let Some(order) = order {
        let written = &order.written;
        let disguise = if order.disguised() && t.role != Role::Name {
            format!(
                " (read as {:?}: look-alike, full-width or hidden characters spell it)",
                order.phrase
            )
        } else {
            String::new()
        };
        push(
            LintId::PoisonedDescription,
            ctx.find(&t.span, written),
            format!(
                "{} addresses the model instead of describing the {subject}: {written:?}{disguise}",
                t.what
            ),
            &format!(
                "remove it: {subject} text says what the {subject} does; orders to the model (to ignore its instructions, keep things from the user, read files) are how tool poisoning works, and an imported {subject} that carries them should not be trusted"
            ),
        );
    }
}

/// A name as words: separators as spaces, a space before each capital that follows a
/// lower-case letter (`ignore_previousInstructions` → `ignore previous Instructions`).
fn name_words(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut lower_before = false;
    for c in name.chars() {
        if matches!(c, '_' | '-' | '.') {
            out.push(' ');
        } else {
            if c.is_uppercase() && lower_before {
                out.push(' ');
            }
            out.push(c);
        }
        lower_before = c.is_lowercase();
    }
    out
}

/// Whether a name is unlike an everyday word, so that finding it in text means the tool
/// (`send_email`, `openTable`, `math.factorial`; not `add`).
fn looks_like_identifier(name: &str) -> bool {
    name.chars()
        .skip(1)
        .any(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || matches!(c, '_' | '.' | '-'))
}

/// A sentence of `text` that names another tool and tells the model how to call it:
/// "`send_email` must ...", "when calling `send_email` ...", "always use `send_email` ...".
/// Saying when to use another tool *instead* ("to only suggest one, use proposeOpenTable")
/// is what `confusable-tools` asks for, and passes.
fn redirect(text: &str, names: &HashMap<&str, usize>, this: usize) -> Option<(usize, String)> {
    const WHEN: &[&str] = &["when", "whenever", "before", "after", "while"];
    const CALLING: &[&str] = &[
        "using", "calling", "invoking", "running", "call", "use", "invoke",
    ];
    const MUST: &[&str] = &["must", "should", "shall", "needs", "has"];
    const ALWAYS: &[&str] = &["always", "never", "must"];
    const FILLER: &[&str] = &["the", "a", "an", "tool", "function", "`"];
    // Most text names no other tool: look for one before splitting into sentences.
    let names_another = text
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '-')))
        .map(|w| w.trim_end_matches(['.', '-']))
        .any(|w| looks_like_identifier(w) && names.get(w).is_some_and(|&o| o != this));
    if !names_another {
        return None;
    }
    for sentence in split_sentences(text) {
        let words: Vec<&str> = sentence
            .split_whitespace()
            .map(|w| {
                w.trim_matches(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '-')))
            })
            .map(|w| w.trim_end_matches(['.', '-']))
            .filter(|w| !w.is_empty())
            .collect();
        let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        for (p, w) in words.iter().enumerate() {
            let Some(&other) = names.get(w) else {
                continue;
            };
            if other == this {
                continue;
            }
            let next = lower[p + 1..]
                .iter()
                .find(|w| !FILLER.contains(&w.as_str()));
            let before: Vec<&str> = lower[..p]
                .iter()
                .rev()
                .filter(|w| !FILLER.contains(&w.as_str()))
                .take(2)
                .map(String::as_str)
                .collect();
            let must_after = next.is_some_and(|n| MUST.contains(&n.as_str()));
            let when_calling =
                matches!(before.as_slice(), [c, w, ..] if CALLING.contains(c) && WHEN.contains(w));
            let always_call = matches!(before.as_slice(), [c, a, ..] if ["use", "call", "invoke"].contains(c) && ALWAYS.contains(a));
            if must_after || when_calling || always_call {
                return Some((other, sentence.trim().to_string()));
            }
        }
    }
    None
}

/// Sentences: split at `.`, `;`, `!`, `?` and line breaks, except a `.` inside a word
/// (`math.factorial`, `e.g.`'s first dot).
fn split_sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let ends = match c {
            ';' | '!' | '?' | '\n' => true,
            '.' => !chars
                .peek()
                .is_some_and(|(_, n)| n.is_alphanumeric() || *n == '_'),
            _ => false,
        };
        if ends {
            out.push(&text[start..i]);
            start = i + c.len_utf8();
        }
    }
    out.push(&text[start..]);
    out
}

/// The first URL in `text`, up to the next space.
fn url(text: &str) -> Option<&str> {
    // Each prefix holds `//` or `www.`: most text has neither, and is not lowercased.
    let b = text.as_bytes();
    if !b.windows(2).any(|w| w == b"//") && !b.windows(4).any(|w| w.eq_ignore_ascii_case(b"www.")) {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    let at = ["http://", "https://", "ftp://", "www."]
        .iter()
        .filter_map(|p| {
            lower.match_indices(p).map(|(i, _)| i).find(|&i| {
                !text[..i]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '/' || c == '.')
            })
        })
        .min()?;
    let end = text[at..]
        .find(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | ')' | '>' | ','))
        .map_or(text.len(), |e| at + e);
    Some(text[at..end].trim_end_matches(['.', ';', ':']))
}
