//! "Did you mean": the declared name an unknown key most likely stands for.

use alloc::vec;
use alloc::vec::Vec;

use crate::shape::Object;

/// Longest unknown key compared with the declared names; a longer one is no typo.
const SUGGEST_CHARS: usize = 64;

/// The declared name nearest to an unknown key, if one is near enough to be a typo: at most
/// a third of its length in edits (at least one), case ignored.
pub(super) fn closest<'a>(key: &str, object: &'a Object) -> Option<&'a str> {
    if key.chars().count() > SUGGEST_CHARS {
        return None;
    }
    let key: Vec<char> = key.chars().flat_map(char::to_lowercase).collect();
    let mut best: Option<(usize, &str)> = None;
    for p in object.properties {
        let name: Vec<char> = p.name.chars().flat_map(char::to_lowercase).collect();
        let limit = (name.len() / 3).max(1);
        let d = distance(&key, &name);
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, p.name));
        }
    }
    best.map(|(_, name)| name)
}

/// Edit distance counting a swap of two neighbours as one edit (`tabel` is one from
/// `table`): the optimal-string-alignment distance, keeping three rows.
fn distance(a: &[char], b: &[char]) -> usize {
    let mut before = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut row = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (previous[j] + 1)
                .min(row[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            row[j] = d;
        }
        core::mem::swap(&mut before, &mut previous);
        core::mem::swap(&mut previous, &mut row);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::distance;
    use alloc::vec::Vec;

    fn d(a: &str, b: &str) -> usize {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        distance(&a, &b)
    }

    #[test]
    fn swaps_count_once() {
        assert_eq!(d("tabel", "table"), 1);
        assert_eq!(d("limt", "limit"), 1);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("same", "same"), 0);
        assert_eq!(
            d("ca", "abc"),
            3,
            "no edit of a swapped pair (optimal string alignment)"
        );
    }
}
