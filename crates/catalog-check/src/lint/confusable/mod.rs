//! `confusable-tools`: of two tools alike in name (`openTable`, `proposeOpenTable`) or in
//! description, at least one description must name the other and say when to use it; the
//! finding is on the later row, whose `[tool.lints]` sets its level.
//!
//! Names are compared by their words, stemmed as search stems them (Jaccard: shared words
//! over all words); descriptions by the cosine of their TF-IDF vectors, with document
//! frequencies over the catalog's descriptions, so words every tool uses count little.
//! Only pairs that can reach a threshold are compared (see [`close_pairs`]), and a row
//! close to several earlier ones gets one finding naming the closest.

use rustc_hash::{FxHashMap, FxHashSet};

use super::{Ctx, Found, LintId, each_stem, mentions, part};
use crate::diag::Diagnostic;
use pairs::{Close, close_pairs};

mod pairs;

/// Reports each row close to earlier rows whose descriptions and its own do not name each
/// other: one finding per row, naming the closest.
pub(super) fn check(ctx: &Ctx<'_>, found: &mut Vec<Found>) {
    let catalog = ctx.catalog;
    let setting = |name| catalog.lints.setting(LintId::ConfusableTools, name);
    let (name_min, description_min) = (
        setting("name-similarity"),
        setting("description-similarity"),
    );
    let (rows, names, vectors) = features(catalog);
    let wire = catalog.wire_names();
    let naming = Naming::new(&catalog.tools, &wire);
    let names_other = |t: usize, o: usize| naming.names(t, o);
    let findings = close_pairs(&names, &vectors, name_min, description_min, |b, close| {
        let later = rows[b];
        let mut close: Vec<&Close> = close
            .iter()
            .filter(|c| !names_other(rows[c.row], later) && !names_other(later, rows[c.row]))
            .collect();
        let &closest = close.first()?;
        let t = |c: &Close| &catalog.tools[rows[c.row]].name;
        let name = &catalog.tools[later].name;
        let alike = |c: &Close| {
            format!(
                "names {}% alike, descriptions {}%",
                percent(c.names),
                percent(c.descriptions)
            )
        };
        let message = if close.len() == 1 {
            format!(
                "`{}` and `{name}` are easy to confuse ({}), and neither description names the other",
                t(closest),
                alike(closest)
            )
        } else {
            // Closest first; a long list is cut, its length kept. The order is total (rows
            // differ), so the closest few are chosen, then sorted, as a sort of all would.
            let closer =
                |x: &&Close, y: &&Close| y.score().total_cmp(&x.score()).then(x.row.cmp(&y.row));
            if close.len() > LISTED {
                close.select_nth_unstable_by(LISTED, closer);
            }
            let shown = close.len().min(LISTED);
            close[..shown].sort_unstable_by(closer);
            let listed: Vec<String> = close
                .iter()
                .take(LISTED)
                .map(|c| format!("`{}` ({})", t(c), alike(c)))
                .collect();
            let more = match close.len().saturating_sub(LISTED) {
                0 => String::new(),
                n => format!(" and {n} more"),
            };
            format!(
                "`{name}` is easy to confuse with {} earlier tools: {}{more}; neither description of each pair names the other",
                close.len(),
                listed.join(", ")
            )
        };
        let first = t(close[0]);
        Some((
            LintId::ConfusableTools,
            Some(later),
            Diagnostic::new(catalog.tools[later].spans.description.clone(), message).help(format!(
                "say in one of the descriptions when to use the other tool instead, naming it: here, \"to ..., use {first}\", or in `{first}`'s, \"to ..., use {name}\""
            )),
        ))
    });
    found.extend(findings);
}

/// A share as a whole percentage, as `{:.0}` prints `share * 100.0` (to the nearest, ties
/// to even), without formatting a float: a large catalog's findings print hundreds of
/// thousands.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // a share is in [0, 1]
fn percent(share: f64) -> u32 {
    (share * 100.0).round_ties_even() as u32
}

/// Earlier rows a finding on many names before "and N more".
const LISTED: usize = 5;

/// The rows compared (all but the search tool's), each one's name as a sorted set of
/// word ids, and each one's description as a TF-IDF vector.
type Features = (Vec<usize>, Vec<Vec<u32>>, Vec<Vec<(u32, f64)>>);

fn features(catalog: &crate::model::CatalogModel) -> Features {
    let rows: Vec<usize> = (0..catalog.tools.len())
        .filter(|&i| i != catalog.settings.search_tool)
        .collect();
    let language = catalog.settings.language;
    let mut ids: FxHashMap<String, u32> = FxHashMap::default();
    // Each text's stems as ids, new stems numbered in the order they are first read.
    let mut read = |text: &str, out: &mut Vec<u32>| {
        each_stem(text, language, |term| {
            let id = if let Some(&id) = ids.get(term) {
                id
            } else {
                let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
                ids.insert(term.to_string(), next);
                next
            };
            out.push(id);
        });
    };
    let names: Vec<Vec<u32>> = rows
        .iter()
        .map(|&i| {
            let mut v = Vec::new();
            read(&catalog.tools[i].name, &mut v);
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect();
    let docs: Vec<Vec<u32>> = rows
        .iter()
        .map(|&i| {
            let mut v = Vec::new();
            read(&catalog.tools[i].description, &mut v);
            v
        })
        .collect();
    let vectors = tf_idf(&docs);
    (rows, names, vectors)
}

/// Which rows each description names, worked out once per description rather than once
/// per close pair: a lookup of each stretch that can be a mention (see [`Mentioned`]).
struct Naming<'a> {
    /// Per row: the rows its description names by a spelling a lookup finds, sorted.
    named: Vec<Vec<usize>>,
    /// Per row: its spellings (name, wire name) that a lookup cannot find, which
    /// [`mentions`] looks for in the text.
    odd: Vec<Vec<&'a str>>,
    texts: Vec<&'a str>,
}

impl<'a> Naming<'a> {
    fn new(tools: &'a [crate::model::Tool], wire: &'a [String]) -> Self {
        let mut by_spelling: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
        let mut odd = vec![Vec::new(); tools.len()];
        for (o, (tool, wire)) in tools.iter().zip(wire).enumerate() {
            for name in [tool.name.as_str(), wire.as_str()] {
                if name.chars().all(in_run) {
                    by_spelling.entry(name).or_default().push(o);
                } else {
                    odd[o].push(name);
                }
            }
        }
        let named = tools
            .iter()
            .map(|t| {
                let mut rows: Vec<usize> = Mentioned::new(&t.description)
                    .0
                    .iter()
                    .filter_map(|stretch| by_spelling.get(stretch))
                    .flatten()
                    .copied()
                    .collect();
                rows.sort_unstable();
                rows.dedup();
                rows
            })
            .collect();
        Naming {
            named,
            odd,
            texts: tools.iter().map(|t| t.description.as_str()).collect(),
        }
    }

    /// Whether row `t`'s description names row `o`, by its name or its wire name.
    fn names(&self, t: usize, o: usize) -> bool {
        self.named[t].binary_search(&o).is_ok()
            || self.odd[o].iter().any(|name| mentions(self.texts[t], name))
    }
}

/// What a description names, so that [`mentions`] is a lookup: every stretch of it that
/// can be a mention, read once. A mention starts where a run of name characters (letters
/// and digits outside CJK, `_`, `.`, `-`) starts, and ends where the run ends or before a
/// `.` that ends a sentence.
// Fx: many lookups of short names, and no untrusted keys to defend against.
struct Mentioned<'a>(FxHashSet<&'a str>);

impl<'a> Mentioned<'a> {
    fn new(text: &'a str) -> Self {
        let mut said = FxHashSet::default();
        let mut run: Option<usize> = None;
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if !in_run(c) {
                if let Some(start) = run.take() {
                    said.insert(&text[start..i]);
                }
                continue;
            }
            let start = *run.get_or_insert(i);
            if c == '.' && !chars.peek().is_some_and(|&(_, next)| part(next)) {
                said.insert(&text[start..i]);
            }
        }
        if let Some(start) = run {
            said.insert(&text[start..]);
        }
        Mentioned(said)
    }

    /// Whether `text`, the description this was read from, names `name`; `simple` when
    /// every character of the name runs on (`name.chars().all(in_run)`), so a lookup
    /// answers.
    #[cfg(test)]
    fn names(&self, text: &str, name: &str, simple: bool) -> bool {
        if simple {
            self.0.contains(name)
        } else {
            mentions(text, name)
        }
    }
}

fn in_run(c: char) -> bool {
    part(c) || c == '.' || c == '-'
}

/// The smoothed IDF of a term in `df` of `n` descriptions (`ln((1 + n) / (1 + df)) + 1`):
/// a term in every one still counts a little.
#[allow(clippy::cast_precision_loss)] // counts
fn idf(n: usize, df: usize) -> f64 {
    ((1.0 + n as f64) / (1.0 + df as f64)).ln() + 1.0
}

/// Unit-length TF-IDF vectors, as term-sorted sparse lists, with [`idf`].
fn tf_idf(docs: &[Vec<u32>]) -> Vec<Vec<(u32, f64)>> {
    let sorted: Vec<Vec<u32>> = docs
        .iter()
        .map(|d| {
            let mut d = d.clone();
            d.sort_unstable();
            d
        })
        .collect();
    let terms = sorted.iter().flatten().max().map_or(0, |&t| t as usize + 1);
    let mut df = vec![0usize; terms];
    for d in &sorted {
        for (i, &t) in d.iter().enumerate() {
            if i == 0 || d[i - 1] != t {
                df[t as usize] += 1;
            }
        }
    }
    sorted
        .iter()
        .map(|d| {
            // Each term with its count, in term order.
            let mut v: Vec<(u32, f64)> = Vec::new();
            for &t in d {
                match v.last_mut() {
                    Some((last, f)) if *last == t => *f += 1.0,
                    _ => v.push((t, 1.0)),
                }
            }
            for (t, x) in &mut v {
                *x *= idf(docs.len(), df[*t as usize]);
            }
            let norm = v.iter().map(|(_, x)| x * x).sum::<f64>().sqrt();
            if norm > 0.0 {
                for (_, x) in &mut v {
                    *x /= norm;
                }
            }
            v
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::pairs::{dot, jaccard};
    use super::*;

    #[test]
    fn a_percentage_is_printed_as_a_float_would_be() {
        // Ties (0.125 is 12.5%), the ends, and a sweep of shares.
        let shares = [0.0, 0.005, 0.015, 0.125, 0.725, 0.995, 1.0]
            .into_iter()
            .chain((0..=100_000).map(|i| f64::from(i) / 100_000.0))
            .chain((0..1_000).map(|i| (f64::from(i) * 0.618_034).fract()));
        for share in shares {
            assert_eq!(
                percent(share).to_string(),
                format!("{:.0}", share * 100.0),
                "{share}"
            );
        }
    }

    fn catalogs() -> Vec<crate::model::CatalogModel> {
        let bfcl: serde_json::Value =
            serde_json::from_str(include_str!("../../../../../tests/data/bfcl/tools.json"))
                .unwrap();
        let bfcl = crate::import::from_mcp("tools.json", &bfcl).unwrap().toml;
        [
            include_str!("../../../../../tests/data/tables.toml"),
            include_str!("../../../../../tests/data/languages/ja/catalog.toml"),
            include_str!("../../../../../tests/data/languages/de/catalog.toml"),
            &bfcl,
        ]
        .into_iter()
        .chain([alike(ALIKE).as_str()])
        .map(|source| crate::validate(source).unwrap())
        .collect()
    }

    /// Rows of the generated catalog.
    const ALIKE: usize = 300;

    /// `n` rows made of few words, as a large generated catalog is: most pairs share some
    /// words, and many reach a threshold.
    fn alike(n: usize) -> String {
        let verbs = [
            "list", "get", "create", "delete", "archive", "share", "move",
        ];
        let objects = [
            "table",
            "league",
            "macro",
            "bucket",
            "invoice",
            "ticket",
            "deduction",
        ];
        let domains = [
            "help desk",
            "tax filing",
            "sports results",
            "object storage",
        ];
        let extras = [
            "",
            " with every detail",
            " and their settings",
            " by its id",
        ];
        let qualifiers = ["", "recent", "owned", "shared"];
        let upper = |w: &str| {
            w.get(..1)
                .map_or(String::new(), |first| first.to_uppercase() + &w[1..])
        };
        let mut out = String::from(crate::TEST_HEAD);
        for i in 0..n {
            // (verb, object, domain, qualifier) is never used twice.
            let (verb, object) = (verbs[i % 7], objects[(i / 7) % 7]);
            let (domain, extra) = (domains[(i / 49) % 4], extras[(i / 3) % 4]);
            let (area, qualifier) = (domain.split(' ').next().unwrap(), qualifiers[i / 196 % 4]);
            let description = format!("The {domain}: {verb}s a {object}{extra}.");
            let name = match i % 3 {
                0 => format!("{area}_{verb}_{object}_{qualifier}"),
                1 => format!("{area}{}{}{}", upper(verb), upper(object), upper(qualifier)),
                _ => format!("{area}.{object}.{verb}.{qualifier}"),
            };
            let name = name.trim_end_matches(['_', '.']);
            write!(
                out,
                "\n[[tool]]\nname = \"{name}\"\ndescription = \"{description}\"\nvisibility = \"discoverable\"\neffect = \"reads\"\ntier = \"silent\"\n"
            )
            .unwrap();
        }
        out
    }

    /// The close pairs against the all-pairs loop they replace, on real catalogs, a
    /// self-similar generated one, and thresholds from loose to strict: the same pairs,
    /// the same figures.
    #[test]
    fn close_pairs_are_those_of_comparing_every_pair() {
        for catalog in catalogs() {
            let (_, names, vectors) = features(&catalog);
            for (i, (name_min, description_min)) in
                [(0.0, 0.5), (0.25, 0.2), (0.6, 0.5), (0.8, 0.7), (1.0, 0.9)]
                    .into_iter()
                    .enumerate()
            {
                let mut all = Vec::new();
                for b in 0..names.len() {
                    for a in 0..b {
                        let (j, d) = (jaccard(&names[a], &names[b]), dot(&vectors[a], &vectors[b]));
                        if j >= name_min || d >= description_min {
                            all.push((a, b, j, d));
                        }
                    }
                }
                let got: Vec<_> =
                    close_pairs(&names, &vectors, name_min, description_min, |b, close| {
                        Some(
                            close
                                .iter()
                                .map(|c| (c.row, b, c.names, c.descriptions))
                                .collect::<Vec<_>>(),
                        )
                    })
                    .into_iter()
                    .flatten()
                    .collect();
                assert_eq!(got, all, "{name_min} {description_min}");
                if names.len() == ALIKE + 1 && i == 2 {
                    // At the default thresholds the generated rows (and `ask`) give the pruning work.
                    assert!(all.len() > 10 * ALIKE, "{}", all.len());
                }
            }
        }
    }

    /// The lookup against [`mentions`], for every tool's name in every description, and on
    /// text made to sit on its edges.
    #[test]
    fn mentioned_is_mentions() {
        let edges = [
            "Use openTable. Or proposeOpenTable.x, open-table and a.b.c; x_openTable openTable-",
            "…にはdropTableを使います. gh.issue.list.",
        ];
        let words = [
            "openTable",
            "proposeOpenTable",
            "table",
            "b.c",
            "a.b",
            "dropTable",
            "gh.issue.list",
            "issue",
            "x",
            "open",
        ];
        for text in edges {
            let said = Mentioned::new(text);
            for w in words {
                let simple = w.chars().all(in_run);
                assert_eq!(
                    said.names(text, w, simple),
                    mentions(text, w),
                    "{w} in {text}"
                );
            }
        }
        // BFCL's 1,854 squared take long unoptimised; the first three cover every script.
        let mut named = 0;
        for catalog in &catalogs()[..3] {
            let wire = catalog.wire_names();
            let naming = Naming::new(&catalog.tools, &wire);
            for (t, tool) in catalog.tools.iter().enumerate() {
                for (o, (other, w)) in catalog.tools.iter().zip(&wire).enumerate() {
                    let text = &tool.description;
                    let says = naming.names(t, o);
                    assert_eq!(
                        says,
                        mentions(text, &other.name) || mentions(text, w),
                        "{} in {text}",
                        other.name
                    );
                    named += usize::from(says);
                }
            }
        }
        assert!(named > 0, "no description names a tool");
    }

    #[test]
    fn similarity_measures() {
        assert!((jaccard(&[1, 2], &[1, 2, 3]) - 2.0 / 3.0).abs() < 1e-9);
        assert!(jaccard(&[], &[]).abs() < 1e-9);
        let v = tf_idf(&[vec![1, 2], vec![1, 2], vec![3]]);
        assert!((dot(&v[0], &v[1]) - 1.0).abs() < 1e-9);
        assert!(dot(&v[0], &v[2]).abs() < 1e-9);
    }
}
