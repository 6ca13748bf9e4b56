//! `confusable-tools`: of two tools alike in name (`openTable`, `proposeOpenTable`) or in
//! description, at least one description must name the other and say when to use it; the
//! finding is on the later row, whose `[tool.lints]` sets its level.
//!
//! Names are compared by their words, stemmed as search stems them (Jaccard: shared words
//! over all words); descriptions by the cosine of their TF-IDF vectors, with document
//! frequencies over the catalog's descriptions, so words every tool uses count little.

use std::collections::HashMap;

use super::{Ctx, Found, LintId, mentions, stems};
use crate::diag::Diagnostic;

/// Reports each description that does not name a tool it is close to.
pub(super) fn check(ctx: &Ctx<'_>, found: &mut Vec<Found>) {
    let catalog = ctx.catalog;
    let name_min = catalog
        .lints
        .setting(LintId::ConfusableTools, "name-similarity");
    let description_min = catalog
        .lints
        .setting(LintId::ConfusableTools, "description-similarity");
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
    let wire = catalog.wire_names();
    for a in 0..rows.len() {
        for b in a + 1..rows.len() {
            let names_alike = jaccard(&names[a], &names[b]);
            let descriptions_alike = dot(&vectors[a], &vectors[b]);
            if names_alike < name_min && descriptions_alike < description_min {
                continue;
            }
            let (first, later) = (&catalog.tools[rows[a]], &catalog.tools[rows[b]]);
            let names_other = |t: &crate::model::Tool, o: usize| {
                mentions(&t.description, &catalog.tools[o].name)
                    || mentions(&t.description, &wire[o])
            };
            if names_other(first, rows[b]) || names_other(later, rows[a]) {
                continue;
            }
            found.push((
                LintId::ConfusableTools,
                Some(rows[b]),
                Diagnostic::new(
                    later.spans.description.clone(),
                    format!(
                        "`{}` and `{}` are easy to confuse (names {:.0}% alike, descriptions {:.0}%), and neither description names the other",
                        first.name,
                        later.name,
                        names_alike * 100.0,
                        descriptions_alike * 100.0,
                    ),
                )
                .help(format!(
                    "say in one of the descriptions when to use the other tool instead, naming it: here, \"to ..., use {}\", or in `{}`'s, \"to ..., use {}\"",
                    first.name, first.name, later.name
                )),
            ));
        }
    }
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

    #[test]
    fn similarity_measures() {
        assert!((jaccard(&[1, 2], &[1, 2, 3]) - 2.0 / 3.0).abs() < 1e-9);
        assert!(jaccard(&[], &[]).abs() < 1e-9);
        let v = tf_idf(&[vec![1, 2], vec![1, 2], vec![3]]);
        assert!((dot(&v[0], &v[1]) - 1.0).abs() < 1e-9);
        assert!(dot(&v[0], &v[2]).abs() < 1e-9);
    }
}
