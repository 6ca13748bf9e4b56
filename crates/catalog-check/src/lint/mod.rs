//! Lints: what a valid catalog may still get wrong, each with a name, a default level, and
//! the fix it prints. The registry below, [`LINTS`], is the one list: `[lints]` in
//! `catalog.toml`, `cargo catalog check` and the guide's table of lints all read it.
//!
//! A catalog sets levels, and the settings a lint has, in its `[lints]` table; a row can
//! set levels for its own findings in `[tool.lints]`:
//!
//! ```toml
//! [lints]
//! unnamed-need = "deny"                                  # allow | warn | deny
//! inline-token-budget = { level = "warn", max-tokens = 6000 }
//!
//! [[tool]]
//! name = "exportCsv"
//! # ...
//! [tool.lints]
//! unnamed-need = "allow"
//! ```
//!
//! [`crate::compile`] (and so `catalog!`) runs the lints set to `deny` and fails with their
//! findings, located like any error. Warnings are reported by `cargo catalog check` (this
//! repository's `cargo xtask check-catalog`) only: a stable proc macro cannot emit a
//! warning. Lints that need a tokenizer ([`Lint::needs_tokenizer`]) run in `cargo catalog
//! check` only, whatever their level.

mod budget;
mod confusable;
mod poison;
mod portability;
mod reach;
mod schemas;
mod secrets;
#[cfg(test)]
mod tests;

pub use budget::{ProviderTokens, TokenReport, Tokenizer};
pub use reach::{ExampleReach, ToolReach};

pub use crate::lint_config::{Config, LINTS, Level, Lint, LintId, Scope, Setting};

use crate::diag::{Diagnostic, Lines, Span, Style};
use crate::model::{CatalogModel, Language};

/// One finding of a lint.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The lint.
    pub lint: LintId,
    /// Its level where it was found (a row's `[tool.lints]` may differ from `[lints]`).
    pub level: Level,
    /// The row it is about, by index in [`CatalogModel::tools`]; `None` for the catalog.
    pub tool: Option<usize>,
    /// Where, what, and the fix.
    pub diagnostic: Diagnostic,
}

impl Finding {
    /// How the finding is printed: a warning, or an error when denied (its diagnostic
    /// names the lint: `warning[unnamed-need]: ...`).
    #[must_use]
    pub fn style(&self, colour: bool) -> Style {
        Style {
            warning: self.level != Level::Deny,
            colour,
            ..Style::default()
        }
    }
}

/// Everything the lints found, and the figures they measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Findings at `warn` or `deny`, in source order.
    pub findings: Vec<Finding>,
    /// Tokens per provider, when a tokenizer was given and the budget lint is not allowed.
    pub tokens: Option<TokenReport>,
    /// Every example's rank in the catalog's own search, per tool with examples, when the
    /// reach lint ran.
    pub reach: Option<Vec<ToolReach>>,
    /// The lints that ran.
    pub ran: Vec<LintId>,
}

impl Report {
    /// The findings at `deny`: what makes the catalog fail.
    #[must_use]
    pub fn errors(&self) -> Vec<Diagnostic> {
        self.findings
            .iter()
            .filter(|f| f.level == Level::Deny)
            .map(|f| f.diagnostic.clone())
            .collect()
    }

    /// Writes every finding to `out` as `cargo catalog check` prints it, in order, each
    /// followed by a blank line; `lines` are those of `file`'s text. A large catalog's
    /// findings take a while to lay out: chunks of them on the threads
    /// [`crate::with_threads`] allows.
    ///
    /// # Errors
    /// When `out` fails.
    pub fn write(
        &self,
        out: &mut dyn std::io::Write,
        lines: &Lines<'_>,
        file: &str,
        colour: bool,
    ) -> std::io::Result<()> {
        let chunks: Vec<&[Finding]> = self.findings.chunks(LAID_OUT).collect();
        let texts = crate::threads::map(&chunks, |chunk| {
            chunk
                .iter()
                .map(|f| lines.render_styled(file, &f.diagnostic, f.style(colour)) + "\n")
                .collect::<String>()
        });
        texts
            .iter()
            .try_for_each(|text| out.write_all(text.as_bytes()))
    }
}

/// Findings laid out in one turn of a thread.
const LAID_OUT: usize = 512;

/// Where lints run, and with what.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// Counts tokens for the budget lint; without it that lint does not run.
    pub tokenizer: Option<&'a dyn Tokenizer>,
    /// Lints whose level is below this, in the catalog and in every row, do not run:
    /// `catalog!` runs only what is denied.
    pub at_least: Level,
    /// When given, only these lints run (at the levels the catalog sets).
    pub only: Option<&'a [LintId]>,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            tokenizer: None,
            at_least: Level::Warn,
            only: None,
        }
    }
}

/// Runs the lints of a valid catalog. `source` is the text it was compiled from, for the
/// findings' locations. Independent lints run at once on the threads
/// [`crate::with_threads`] allows (on the calling thread alone without it); their findings
/// are gathered in the registry's order, as one after the other would give them.
#[must_use]
pub fn run(catalog: &CatalogModel, source: &str, options: &Options<'_>) -> Report {
    let mut report = Report::default();
    let mut jobs = Vec::new();
    for lint in LintId::ALL {
        if options.only.is_some_and(|only| !only.contains(&lint)) {
            continue;
        }
        let highest = catalog
            .tools
            .iter()
            .filter_map(|t| t.lints.get(&lint).copied())
            .chain([catalog.lints.level(lint)])
            .max()
            .unwrap_or(Level::Allow);
        if highest < options.at_least.max(Level::Warn) {
            continue;
        }
        let job = match lint {
            LintId::InlineToolCount => Job::ToolCount,
            LintId::InlineTokenBudget => {
                let Some(tokenizer) = options.tokenizer else {
                    continue;
                };
                Job::Tokens(tokenizer)
            }
            LintId::UnnamedNeed => Job::Reach,
            LintId::ConfusableTools => Job::Confusable,
            LintId::SchemaPortability => Job::Portability,
            LintId::SecretInCatalog => Job::Secrets,
            LintId::PoisonedDescription | LintId::DescriptionUrl | LintId::DescriptionLength => {
                Job::Poison
            }
        };
        // One pass over the text finds all three poison lints; each keeps its own
        // findings only if it runs.
        if !(matches!(job, Job::Poison) && jobs.iter().any(|j| matches!(j, Job::Poison))) {
            jobs.push(job);
        }
        report.ran.push(lint);
    }
    let ctx = Ctx {
        catalog,
        source,
        schemas: schemas::Lazy::new(
            jobs.iter().any(|j| matches!(j, Job::Tokens(_))),
            jobs.iter().any(|j| matches!(j, Job::Portability)),
        ),
    };
    // Longest first, so the cores finish together; the results are put back in order.
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(jobs[i].weight()));
    let outcomes = crate::threads::map(&order, |&i| jobs[i].run(&ctx));
    let mut outcomes: Vec<(usize, Outcome)> = order.into_iter().zip(outcomes).collect();
    outcomes.sort_by_key(|(i, _)| *i);
    let mut found = Vec::new();
    for (_, outcome) in outcomes {
        found.extend(outcome.found);
        report.tokens = report.tokens.or(outcome.tokens);
        report.reach = report.reach.or(outcome.reach);
    }
    for (lint, tool, diagnostic) in found {
        if !report.ran.contains(&lint) {
            continue;
        }
        let level = tool
            .and_then(|i| catalog.tools[i].lints.get(&lint).copied())
            .unwrap_or_else(|| catalog.lints.level(lint));
        if level >= options.at_least.max(Level::Warn) {
            report.findings.push(Finding {
                lint,
                level,
                tool,
                diagnostic: Diagnostic {
                    code: Some(lint.name()),
                    ..diagnostic
                },
            });
        }
    }
    report.findings.sort_by_key(|f| f.diagnostic.span.start);
    report
}

/// One lint's run, or the poison lints' one pass.
#[derive(Clone, Copy)]
enum Job<'a> {
    ToolCount,
    Tokens(&'a dyn Tokenizer),
    Reach,
    Confusable,
    Poison,
    Portability,
    Secrets,
}

/// What a job found, and measured.
#[derive(Default)]
struct Outcome {
    found: Vec<Found>,
    tokens: Option<TokenReport>,
    reach: Option<Vec<ToolReach>>,
}

impl Job<'_> {
    /// About how long the job takes against the others on a large catalog (its share of
    /// the time in percent, measured at 25,519 tools): it decides only the order they
    /// start in.
    fn weight(self) -> u32 {
        match self {
            Job::Confusable => 25,
            Job::Tokens(_) => 20,
            Job::Reach => 15,
            Job::Poison | Job::Portability => 6,
            Job::ToolCount | Job::Secrets => 0,
        }
    }

    fn run(self, ctx: &Ctx<'_>) -> Outcome {
        let mut out = Outcome::default();
        let found = &mut out.found;
        match self {
            Job::ToolCount => budget::tool_count(ctx, found),
            Job::Tokens(tokenizer) => out.tokens = Some(budget::tokens(ctx, tokenizer, found)),
            Job::Reach => out.reach = Some(reach::check(ctx, found)),
            Job::Confusable => confusable::check(ctx, found),
            Job::Poison => poison::check(ctx, found),
            Job::Portability => portability::check(ctx, found),
            Job::Secrets => secrets::check(ctx, found),
        }
        out
    }
}

/// What every lint reads.
pub(crate) struct Ctx<'a> {
    pub catalog: &'a CatalogModel,
    pub source: &'a str,
    /// What the lints read of each row's input schema, worked out by the first that asks.
    schemas: schemas::Lazy,
}

/// A finding before its level is known: the lint, the row, the diagnostic.
pub(crate) type Found = (LintId, Option<usize>, Diagnostic);

impl Ctx<'_> {
    /// What the lints read of each row's input schema.
    pub(crate) fn schemas(&self) -> &schemas::Schemas {
        self.schemas.get(self.catalog)
    }

    /// The span of `needle` inside `within`, when the source holds it as written there
    /// (a string with escapes may not); `within` itself otherwise.
    pub(crate) fn find(&self, within: &Span, needle: &str) -> Span {
        let end = within.end.min(self.source.len());
        let start = within.start.min(end);
        match self.source.get(start..end).and_then(|s| s.find(needle)) {
            Some(at) if !needle.is_empty() => start + at..start + at + needle.len(),
            _ => within.clone(),
        }
    }
}

/// A character a name runs on with: a letter or digit of its own script, or `_`. A name
/// never runs into Japanese or Chinese text, which has no spaces to set it apart
/// (`…にはdropTableを使います`).
pub(crate) fn part(c: char) -> bool {
    c.is_alphanumeric() && !catalog_core::search::is_cjk(c) || c == '_'
}

/// Whether `text` names `name` as a word of its own: not inside a longer name
/// (`openTable` is not in `proposeOpenTable`).
pub(crate) fn mentions(text: &str, name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    let mut from = 0;
    while let Some(at) = text[from..].find(name) {
        let start = from + at;
        let end = start + name.len();
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        // A trailing `.` ends a sentence; a `.` inside joins a dotted name.
        let after_ok = match after {
            None => true,
            Some('.') => !text[end + 1..].chars().next().is_some_and(part),
            Some(c) => !part(c) && c != '-',
        };
        if !before.is_some_and(|c| part(c) || c == '.' || c == '-') && after_ok {
            return true;
        }
        from = start + name.len().max(1);
        while !text.is_char_boundary(from) {
            from += 1;
        }
    }
    false
}

/// The stems of a text's words (CJK text's bigrams), without prefix, pair and unigram
/// terms: what the search reads, in the catalog's language.
pub(crate) fn stems(text: &str, language: Language) -> Vec<String> {
    let mut out = Vec::new();
    each_stem(text, language, |t| out.push(t.to_string()));
    out
}

/// [`stems`], each given to `f` as it is read.
pub(crate) fn each_stem(text: &str, language: Language, mut f: impl FnMut(&str)) {
    catalog_core::search::terms(text, language, |t| {
        if !t.starts_with(catalog_core::search::PREFIX_MARK)
            && !t.starts_with(catalog_core::search::PAIR_MARK)
            && !t.starts_with(catalog_core::search::UNIGRAM_MARK)
        {
            f(t);
        }
    });
}
