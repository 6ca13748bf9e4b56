//! `confusable-tools`: of two tools alike in name (`openTable`, `proposeOpenTable`) or in
//! description, at least one description must name the other and say when to use it; the
//! finding is on the later row, whose `[tool.lints]` sets its level.
//!
//! Names are compared by their words, stemmed as search stems them (Jaccard: shared words
//! over all words); descriptions by the cosine of their TF-IDF vectors, with document
//! frequencies over the catalog's descriptions, so words every tool uses count little.
//! Only pairs that can reach a threshold are compared (see [`close_pairs`]), and a row
//! close to several earlier ones gets one finding naming the closest.

use std::collections::HashMap;

use rustc_hash::FxHashSet;

use super::{Ctx, Found, LintId, mentions, part, stems};
use crate::diag::Diagnostic;

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
    let said: Vec<Mentioned> = catalog
        .tools
        .iter()
        .map(|t| Mentioned::new(&t.description))
        .collect();
    // Each tool's name and wire name, and whether a lookup finds it (see `Mentioned`).
    let spelled: Vec<[(&str, bool); 2]> = catalog
        .tools
        .iter()
        .zip(&wire)
        .map(|(t, w)| [&t.name, w].map(|n| (n.as_str(), n.chars().all(in_run))))
        .collect();
    let names_other = |t: usize, o: usize| {
        let text = &catalog.tools[t].description;
        spelled[o]
            .iter()
            .any(|&(name, simple)| said[t].names(text, name, simple))
    };
    close_pairs(&names, &vectors, name_min, description_min, |b, close| {
        let later = rows[b];
        let mut close: Vec<&Close> = close
            .iter()
            .filter(|c| !names_other(rows[c.row], later) && !names_other(later, rows[c.row]))
            .collect();
        let Some(&closest) = close.first() else {
            return;
        };
        let t = |c: &Close| &catalog.tools[rows[c.row]].name;
        let name = &catalog.tools[later].name;
        let alike = |c: &Close| {
            format!(
                "names {:.0}% alike, descriptions {:.0}%",
                c.names * 100.0,
                c.descriptions * 100.0
            )
        };
        let message = if close.len() == 1 {
            format!(
                "`{}` and `{name}` are easy to confuse ({}), and neither description names the other",
                t(closest),
                alike(closest)
            )
        } else {
            // Closest first; a long list is cut, its length kept.
            close.sort_by(|x, y| y.score().total_cmp(&x.score()).then(x.row.cmp(&y.row)));
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
        found.push((
            LintId::ConfusableTools,
            Some(later),
            Diagnostic::new(catalog.tools[later].spans.description.clone(), message).help(format!(
                "say in one of the descriptions when to use the other tool instead, naming it: here, \"to ..., use {first}\", or in `{first}`'s, \"to ..., use {name}\""
            )),
        ));
    });
}

/// Earlier rows a finding on many names before "and N more".
const LISTED: usize = 5;

/// An earlier row close to a later one.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Close {
    /// The earlier row, by index in the compared rows.
    row: usize,
    /// Jaccard of the names' words.
    names: f64,
    /// Cosine of the descriptions.
    descriptions: f64,
}

impl Close {
    fn score(&self) -> f64 {
        self.names.max(self.descriptions)
    }
}

/// The rows compared (all but the search tool's), each one's name as a sorted set of
/// word ids, and each one's description as a TF-IDF vector.
type Features = (Vec<usize>, Vec<Vec<u32>>, Vec<Vec<(u32, f64)>>);

fn features(catalog: &crate::model::Catalog) -> Features {
    let rows: Vec<usize> = (0..catalog.tools.len())
        .filter(|&i| i != catalog.settings.search_tool)
        .collect();
    let mut ids: HashMap<String, u32> = HashMap::new();
    let mut id = |term: String| {
        let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        *ids.entry(term).or_insert(next)
    };
    let names: Vec<Vec<u32>> = rows
        .iter()
        .map(|&i| {
            let mut v: Vec<u32> = stems(&catalog.tools[i].name, catalog.settings.language)
                .into_iter()
                .map(&mut id)
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect();
    let docs: Vec<Vec<u32>> = rows
        .iter()
        .map(|&i| {
            stems(&catalog.tools[i].description, catalog.settings.language)
                .into_iter()
                .map(&mut id)
                .collect()
        })
        .collect();
    let vectors = tf_idf(&docs);
    (rows, names, vectors)
}

/// Calls `each(b, close)` for every row `b` with the earlier rows that reach either
/// threshold (in row order), exactly as comparing every pair would find them, in time
/// close to linear in the catalog: only pairs that can reach a threshold are compared.
///
/// - Names: two word sets with Jaccard `t` share one of each set's `len - ⌈t·len⌉ + 1`
///   rarest words (prefix filtering), so only those are indexed and probed.
/// - Descriptions: a vector's most common terms whose weights, times the largest weight
///   any vector gives each, sum below the threshold cannot by themselves bring a dot
///   product to it, so only its other terms are indexed; a row met through the index is
///   compared only when what its indexed terms gave plus that bound reaches the threshold
///   (Bayardo, Ma and Srikant's all-pairs algorithm).
///
/// With a threshold of 0 every pair reaches it, and every pair is compared.
fn close_pairs(
    names: &[Vec<u32>],
    vectors: &[Vec<(u32, f64)>],
    name_min: f64,
    description_min: f64,
    mut each: impl FnMut(usize, &[Close]),
) {
    let n = names.len();
    let Lookup {
        name_keys,
        name_index,
        description_index,
        left_out,
    } = Lookup::new(names, vectors, name_min, description_min);
    let every_pair = name_min <= 0.0 || description_min <= 0.0;
    // Which row last met each row through its name, so a pair is compared once, and
    // which row found it close by name, so its description is not compared again.
    let (mut seen, mut found_by_name) = (vec![usize::MAX; n], vec![usize::MAX; n]);
    // The dot product of a row's indexed terms with the current row's, for the rows met.
    let mut partial = vec![0.0f64; n];
    let mut met: Vec<usize> = Vec::new();
    let mut close: Vec<Close> = Vec::new();
    let compare = |a: usize, b: usize| Close {
        row: a,
        names: jaccard(&names[a], &names[b]),
        descriptions: dot(&vectors[a], &vectors[b]),
    };
    for b in 0..n {
        close.clear();
        if every_pair {
            close.extend((0..b).map(|a| compare(a, b)));
            close.retain(|c| c.names >= name_min || c.descriptions >= description_min);
        } else {
            // Lists are in row order: the earlier rows come first. Names are compared
            // first (a few words each), descriptions then only for pairs not yet close.
            for &t in &name_keys[b] {
                for &a in name_index[t as usize]
                    .iter()
                    .take_while(|&&a| (a as usize) < b)
                {
                    let a = a as usize;
                    if seen[a] != b {
                        seen[a] = b;
                        let names = jaccard(&names[a], &names[b]);
                        if names >= name_min {
                            found_by_name[a] = b;
                            close.push(Close {
                                row: a,
                                names,
                                descriptions: dot(&vectors[a], &vectors[b]),
                            });
                        }
                    }
                }
            }
            met.clear();
            for &(t, y) in &vectors[b] {
                for &(a, x) in description_index[t as usize]
                    .iter()
                    .take_while(|&&(a, _)| (a as usize) < b)
                {
                    let a = a as usize;
                    if partial[a] == 0.0 {
                        met.push(a);
                    }
                    partial[a] += x * y;
                }
            }
            for &a in &met {
                // What the indexed terms gave, and the most the others can give.
                let reachable = partial[a] + left_out[a] >= description_min - MARGIN;
                partial[a] = 0.0;
                if !reachable || found_by_name[a] == b {
                    continue;
                }
                let descriptions = dot(&vectors[a], &vectors[b]);
                if descriptions >= description_min {
                    close.push(Close {
                        row: a,
                        names: jaccard(&names[a], &names[b]),
                        descriptions,
                    });
                }
            }
            close.sort_unstable_by_key(|c| c.row);
        }
        if !close.is_empty() {
            each(b, &close);
        }
    }
}

/// What [`close_pairs`] looks rows up by.
struct Lookup {
    /// Per row: the name words it is found by, rarest first.
    name_keys: Vec<Vec<u32>>,
    /// Per name word: the rows it is a key of, in row order.
    name_index: Vec<Vec<u32>>,
    /// Per description term: the rows that index it, in row order, and their weight.
    description_index: Vec<Vec<(u32, f64)>>,
    /// Per row: the most its terms left out of the index can add to a dot product.
    left_out: Vec<f64>,
}

/// Rounding may only make the indexed parts longer.
const MARGIN: f64 = 1e-9;

impl Lookup {
    #[allow(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss
    )] // word counts
    fn new(
        names: &[Vec<u32>],
        vectors: &[Vec<(u32, f64)>],
        name_min: f64,
        description_min: f64,
    ) -> Lookup {
        let n = names.len();
        let terms = names
            .iter()
            .flatten()
            .chain(vectors.iter().flatten().map(|(t, _)| t))
            .max()
            .map_or(0, |&t| t as usize + 1);
        let (mut in_names, mut in_descriptions) = (vec![0usize; terms], vec![0usize; terms]);
        let mut heaviest = vec![0.0f64; terms];
        for set in names {
            for &t in set {
                in_names[t as usize] += 1;
            }
        }
        for v in vectors {
            for &(t, x) in v {
                in_descriptions[t as usize] += 1;
                heaviest[t as usize] = heaviest[t as usize].max(x);
            }
        }
        // Per row: the name words it is found by, rarest first.
        let name_keys: Vec<Vec<u32>> = names
            .iter()
            .map(|set| {
                let mut rarest = set.clone();
                rarest.sort_unstable_by_key(|&t| (in_names[t as usize], t));
                let shared = ((name_min - MARGIN) * set.len() as f64).ceil().max(1.0) as usize;
                rarest.truncate((set.len() + 1).saturating_sub(shared));
                rarest
            })
            .collect();
        let mut name_index: Vec<Vec<u32>> = vec![Vec::new(); terms];
        let mut description_index: Vec<Vec<(u32, f64)>> = vec![Vec::new(); terms];
        let mut left_out = vec![0.0f64; n];
        for (i, v) in vectors.iter().enumerate() {
            let row = u32::try_from(i).unwrap_or(u32::MAX);
            for &t in &name_keys[i] {
                name_index[t as usize].push(row);
            }
            let mut common = v.clone();
            common.sort_unstable_by_key(|&(t, _)| {
                (std::cmp::Reverse(in_descriptions[t as usize]), t)
            });
            let mut skip = 0;
            for &(t, x) in &common {
                let bound = left_out[i] + x * heaviest[t as usize];
                if bound >= description_min - MARGIN {
                    break;
                }
                left_out[i] = bound;
                skip += 1;
            }
            for &(t, x) in &common[skip..] {
                description_index[t as usize].push((row, x));
            }
        }
        Lookup {
            name_keys,
            name_index,
            description_index,
            left_out,
        }
    }
}

/// What a description names, so that [`mentions`] is a lookup: every stretch of it that
/// can be a mention, read once. A mention starts where a run of name characters (letters
/// and digits outside CJK, `_`, `.`, `-`) starts, and ends where the run ends or before a
/// `.` that ends a sentence.
// Fx: millions of lookups of short names, and no untrusted keys to defend against.
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
    /// every character of the name runs on (`name.chars().all(in_run)`, worked out once
    /// per name), so a lookup answers.
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

/// Shared terms over all terms of two sorted, deduplicated lists.
#[allow(clippy::cast_precision_loss)] // word counts
fn jaccard(a: &[u32], b: &[u32]) -> f64 {
    let (mut i, mut j, mut shared) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let all = a.len() + b.len() - shared;
    if all == 0 {
        0.0
    } else {
        shared as f64 / all as f64
    }
}

/// Unit-length TF-IDF vectors, as term-sorted sparse lists; smoothed IDF
/// (`ln((1 + n) / (1 + df)) + 1`), so a term in every description still counts a little.
#[allow(clippy::cast_precision_loss)] // counts
fn tf_idf(docs: &[Vec<u32>]) -> Vec<Vec<(u32, f64)>> {
    let mut df: HashMap<u32, usize> = HashMap::new();
    for d in docs {
        let mut seen: Vec<u32> = d.clone();
        seen.sort_unstable();
        seen.dedup();
        for t in seen {
            *df.entry(t).or_default() += 1;
        }
    }
    let n = docs.len() as f64;
    docs.iter()
        .map(|d| {
            let mut tf: HashMap<u32, f64> = HashMap::new();
            for t in d {
                *tf.entry(*t).or_default() += 1.0;
            }
            let mut v: Vec<(u32, f64)> = tf
                .into_iter()
                .map(|(t, f)| (t, f * (((1.0 + n) / (1.0 + df[&t] as f64)).ln() + 1.0)))
                .collect();
            let norm = v.iter().map(|(_, x)| x * x).sum::<f64>().sqrt();
            if norm > 0.0 {
                for (_, x) in &mut v {
                    *x /= norm;
                }
            }
            v.sort_unstable_by_key(|(t, _)| *t);
            v
        })
        .collect()
}

fn dot(a: &[(u32, f64)], b: &[(u32, f64)]) -> f64 {
    let (mut i, mut j, mut sum) = (0, 0, 0.0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                sum += a[i].1 * b[j].1;
                i += 1;
                j += 1;
            }
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalogs() -> Vec<crate::model::Catalog> {
        let bfcl: serde_json::Value =
            serde_json::from_str(include_str!("../../../tests/data/bfcl/tools.json")).unwrap();
        let bfcl = crate::import::from_mcp("tools.json", &bfcl).unwrap().toml;
        [
            include_str!("../../../catalog.toml"),
            include_str!("../../../tests/data/languages/ja/catalog.toml"),
            include_str!("../../../tests/data/languages/de/catalog.toml"),
            &bfcl,
        ]
        .into_iter()
        .map(|source| crate::validate(source).unwrap())
        .collect()
    }

    /// The close pairs against the all-pairs loop they replace, on real catalogs and
    /// thresholds from loose to strict: the same pairs, the same figures.
    #[test]
    fn close_pairs_are_those_of_comparing_every_pair() {
        for catalog in catalogs() {
            let (_, names, vectors) = features(&catalog);
            for (name_min, description_min) in [(0.0, 0.5), (0.25, 0.2), (0.6, 0.5), (1.0, 0.9)] {
                let mut all = Vec::new();
                for b in 0..names.len() {
                    for a in 0..b {
                        let (j, d) = (jaccard(&names[a], &names[b]), dot(&vectors[a], &vectors[b]));
                        if j >= name_min || d >= description_min {
                            all.push((a, b, j, d));
                        }
                    }
                }
                let mut got = Vec::new();
                close_pairs(&names, &vectors, name_min, description_min, |b, close| {
                    got.extend(close.iter().map(|c| (c.row, b, c.names, c.descriptions)));
                });
                assert_eq!(got, all, "{name_min} {description_min}");
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
        // BFCL's 1,854 squared take long unoptimised; the other three cover every script.
        for catalog in &catalogs()[..3] {
            let wire = catalog.wire_names();
            for t in &catalog.tools {
                let said = Mentioned::new(&t.description);
                for (o, w) in catalog.tools.iter().zip(&wire) {
                    for name in [&o.name, w] {
                        let simple = name.chars().all(in_run);
                        assert_eq!(
                            said.names(&t.description, name, simple),
                            mentions(&t.description, name)
                        );
                    }
                }
            }
        }
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
