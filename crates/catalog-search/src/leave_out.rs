//! Searching an index as it would be with one document's text replaced, without building
//! it again: the `unnamed-need` lint searches every example with that example left out of
//! the index, and a build per example is quadratic in the catalog's size.
//!
//! The replacement moves the document's own postings, the average length of the fields it
//! changes, and the document frequency of the terms it gains or loses. A query is scored
//! from the kept postings, recomputing only what those moved, by the same functions and in
//! the same order as [`Builder::build`] and [`Index::search`](super::Index::search): the
//! scores are the rebuilt index's to the bit.

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::build::{
    Builder, FIELDS, LAST, averages, idf, impact, length_sums, name_ranks, table_size, tf, tf_head,
    tf_last,
};
use super::index::{Hit, MAX_QUERY_TERMS, Scratch, fingerprint, hash};
use super::text::terms;

/// Marks a free slot of [`LeaveOut::table`].
const FREE: u32 = u32::MAX;

/// A posting of the whole index, with what scoring it again needs.
#[derive(Clone, Copy, Debug)]
struct Posting {
    doc: u32,
    /// One bit per field whose average length this posting's score reads (see
    /// [`LeaveOut::new`]).
    fields: u8,
    tf: f32,
    impact: f32,
    /// [`tf_head`], and the count in the last field: all a new average of the last field
    /// needs, without a read of the document's terms.
    head: f32,
    last: f32,
}

/// A whole index's postings, kept in a form that can be scored as if one document's text
/// were different. Built once from the [`Builder`] the index is built from.
#[derive(Debug)]
pub struct LeaveOut {
    builder: Builder,
    /// Each field's length summed over all documents, and its average.
    sums: [f64; FIELDS],
    avg: [f32; FIELDS],
    /// Every term's hash, ascending.
    terms: Vec<u64>,
    /// Term `j`'s postings are `postings[starts[j]..starts[j + 1]]`, by document.
    starts: Vec<usize>,
    postings: Vec<Posting>,
    /// Every term (its place in `terms`) at the slot its hash picks in a table of the
    /// index's size, or the first free one after it, never merging two terms: the slots
    /// any index built from a subset of these terms fills are a subset of these.
    table: Vec<u32>,
    name_rank: Vec<u32>,
    /// Per document: whether the builder withheld it (see [`Builder::withhold`]).
    withheld: Vec<bool>,
}

/// Reusable per-query memory for [`LeaveOut`].
#[derive(Default, Debug)]
pub struct LeaveOutScratch {
    scores: Vec<f32>,
    touched: Vec<u32>,
    seen: Vec<bool>,
    hashes: Vec<u64>,
    /// The replacement's terms, by hash, with their place in its list.
    replaced: Vec<(u64, usize)>,
    /// The query's terms: place in `terms`, document frequency after the replacement, and
    /// the replacement's counts when it has the term.
    chosen: Vec<(usize, usize, Option<usize>)>,
    rebuilds: usize,
}

impl LeaveOutScratch {
    /// How many queries had to be answered by building the index again: those that meet a
    /// hash-table collision (see [`LeaveOut::hits`]). Rare; counted so tests can tell.
    #[must_use]
    pub fn rebuilds(&self) -> usize {
        self.rebuilds
    }
}

/// How a replaced document's search went.
enum Scored {
    /// The scores are in the scratch.
    Done,
    /// The fast path cannot be sure of the answer: build the index again.
    Rebuild,
}

impl LeaveOut {
    /// Keeps `builder`'s documents, and scores every posting as [`Builder::build`] would.
    #[must_use]
    pub fn new(builder: Builder) -> Self {
        let n = builder.docs.len();
        let sums = length_sums(&builder.lengths);
        let avg = averages(&sums, n);
        let w = builder.weights;
        // A field whose count is 0 adds `weight·0/norm` to `tf`, which does not depend on
        // the field's average when `b` is in [0, 1] (the norm is then never negative, and
        // 0 only for an empty field whatever the average). Otherwise every field counts.
        let all_fields = if (0.0..=1.0).contains(&w.b) {
            0
        } else {
            u8::MAX
        };
        // Every term, ascending, and the table that finds each; then each term's document
        // frequency, and each posting put in its term's list as the documents are read in
        // order (their counts lie in memory in that order), so each list is by document.
        let mut terms: Vec<u64> = builder.docs.iter().flatten().map(|(h, _)| *h).collect();
        terms.sort_unstable();
        terms.dedup();
        let size = table_size(terms.len());
        let mut table = alloc::vec![FREE; size];
        for (j, h) in terms.iter().enumerate() {
            let mut at = home(*h, size);
            while table[at] != FREE {
                at = (at + 1) & (size - 1);
            }
            table[at] = to_u32(j);
        }
        let place = |h: u64| slot(&table, &terms, h).unwrap_or(0);
        let mut starts = alloc::vec![0usize; terms.len() + 1];
        for (h, _) in builder.docs.iter().flatten() {
            starts[place(*h) + 1] += 1;
        }
        for j in 0..terms.len() {
            starts[j + 1] += starts[j];
        }
        let mut next = starts.clone();
        let blank = Posting {
            doc: 0,
            fields: 0,
            tf: 0.0,
            impact: 0.0,
            head: 0.0,
            last: 0.0,
        };
        let mut postings = alloc::vec![blank; starts[terms.len()]];
        // One logarithm per term, not per posting.
        let idfs: Vec<f32> = starts.windows(2).map(|s| idf(n, s[1] - s[0])).collect();
        for (doc, (list, len)) in builder.docs.iter().zip(&builder.lengths).enumerate() {
            for (h, counts) in list {
                let j = place(*h);
                let tf = tf(&w, counts, len, &avg);
                postings[next[j]] = Posting {
                    doc: to_u32(doc),
                    fields: (0..FIELDS)
                        .filter(|&f| counts[f] != 0.0)
                        .fold(all_fields, |m, f| m | 1 << f),
                    tf,
                    impact: impact(idfs[j], tf, &w),
                    head: tf_head(&w, counts, len, &avg),
                    last: counts[LAST],
                };
                next[j] += 1;
            }
        }
        let mut withheld = alloc::vec![false; builder.docs.len()];
        for &d in &builder.withheld {
            withheld[d as usize] = true;
        }
        LeaveOut {
            name_rank: name_ranks(&builder.names),
            withheld,
            builder,
            sums,
            avg,
            terms,
            starts,
            postings,
            table,
        }
    }

    /// The builder it was made from: every document's terms, for [`Builder::replaced`].
    #[must_use]
    pub fn builder(&self) -> &Builder {
        &self.builder
    }

    /// Number of documents.
    #[must_use]
    pub fn len(&self) -> usize {
        self.name_rank.len()
    }

    /// Whether there is no document.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.name_rank.is_empty()
    }

    /// Where `doc` ranks (1 = best) when `query` searches every document (`k` =
    /// [`len`](Self::len)) of the index that `doc`'s text replaced by the last document of
    /// `replacement` would build, `doc` searched even if withheld (see
    /// [`Builder::withhold`]); `None` when `doc` does not score. `replacement` must use
    /// the same weights and language.
    pub fn rank(
        &self,
        doc: u32,
        replacement: &Builder,
        query: &str,
        scratch: &mut LeaveOutScratch,
    ) -> Option<usize> {
        let t = doc as usize;
        let outcome = self.score(t, replacement, query, scratch);
        let scores = &scratch.scores;
        let me = scores[t];
        // One pass: the documents above `doc` in the index's order (score, then name), and
        // whether any score is NaN (from weights no catalog uses), which the index's own
        // scan places.
        let (mut nan, mut above) = (false, 0);
        for &d in &scratch.touched {
            let s = scores[d as usize];
            nan |= s.is_nan();
            above += usize::from(
                !self.withheld[d as usize]
                    && self.better(Hit { doc: d, score: s }, Hit { doc, score: me }),
            );
        }
        let rank = if matches!(outcome, Scored::Rebuild) || nan {
            None
        } else if me > 0.0 {
            Some(Some(above + 1))
        } else {
            Some(None)
        };
        scratch.clear();
        rank.unwrap_or_else(|| {
            let hits = self.rebuilt(t, replacement, query, scratch);
            hits.iter().position(|h| h.doc == doc).map(|p| p + 1)
        })
    }

    /// What [`Index::search`](super::Index::search) of `query` returns for `k` =
    /// [`len`](Self::len) on the index that `doc`'s text replaced by the last document of
    /// `replacement` would build, `doc` searched even if withheld: every scoring document,
    /// best first, ties in name order.
    /// A query with a term whose slot in the hash table another term of the same
    /// fingerprint could share, or a replacement that changes the table's size or adds a
    /// term, is answered by building that index.
    pub fn hits(
        &self,
        doc: u32,
        replacement: &Builder,
        query: &str,
        scratch: &mut LeaveOutScratch,
    ) -> Vec<Hit> {
        let t = doc as usize;
        let scored = self.score(t, replacement, query, scratch);
        let mut hits: Vec<Hit> = scratch
            .touched
            .iter()
            .filter(|&&d| d == doc || !self.withheld[d as usize])
            .map(|&d| Hit {
                doc: d,
                score: scratch.scores[d as usize],
            })
            .filter(|h| h.score > 0.0)
            .collect();
        let nan = scratch
            .touched
            .iter()
            .any(|&d| scratch.scores[d as usize].is_nan());
        scratch.clear();
        if matches!(scored, Scored::Rebuild) || nan {
            return self.rebuilt(t, replacement, query, scratch);
        }
        hits.sort_by(|a, b| {
            if self.better(*a, *b) {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        });
        hits
    }

    /// Scores `query` into `scratch`, `t`'s text replaced.
    fn score(
        &self,
        t: usize,
        replacement: &Builder,
        query: &str,
        scratch: &mut LeaveOutScratch,
    ) -> Scored {
        let n = self.len();
        let w = self.builder.weights;
        let empty = Vec::new();
        let (new_terms, new_len) = match (replacement.docs.last(), replacement.lengths.last()) {
            (Some(list), Some(len)) => (list, *len),
            _ => (&empty, [0.0; FIELDS]),
        };
        if scratch.scores.len() != n {
            scratch.scores = alloc::vec![0.0; n];
            scratch.seen = alloc::vec![false; n];
        }
        scratch.replaced.clear();
        scratch
            .replaced
            .extend(new_terms.iter().enumerate().map(|(i, (h, _))| (*h, i)));
        scratch.replaced.sort_unstable();
        // Whole numbers summed in `f64`: exactly the sums a build over the new lengths makes.
        let mut sums = self.sums;
        for f in 0..FIELDS {
            sums[f] += f64::from(new_len[f]) - f64::from(self.builder.lengths[t][f]);
        }
        let avg = averages(&sums, n);
        let changed = (0..FIELDS)
            .filter(|&f| avg[f].to_bits() != self.avg[f].to_bits())
            .fold(0u8, |m, f| m | 1 << f);
        // Leaving an example out moves the last field's average alone.
        let only_last = changed & !(1 << LAST) == 0;
        // The rebuilt index's hash table has the same size only if it has about as many
        // terms: count those the document alone had and loses, and any it gains.
        let mut terms_after = self.terms.len();
        for (h, _) in &self.builder.docs[t] {
            let j = self.find(*h);
            let alone = j.is_some_and(|j| self.starts[j + 1] - self.starts[j] == 1);
            if alone && scratch.replaced.binary_search_by_key(h, |x| x.0).is_err() {
                terms_after -= 1;
            }
        }
        if scratch
            .replaced
            .iter()
            .any(|(h, _)| self.find(*h).is_none())
            || table_size(terms_after) != self.table.len()
        {
            return Scored::Rebuild;
        }
        scratch.hashes.clear();
        let hashes = &mut scratch.hashes;
        terms(query, self.builder.language, |x| hashes.push(hash(x)));
        scratch.chosen.clear();
        for &h in &scratch.hashes {
            if self.clash(h) {
                return Scored::Rebuild;
            }
            let Some(j) = self.find(h) else { continue };
            let list = &self.postings[self.starts[j]..self.starts[j + 1]];
            let had = list.binary_search_by_key(&t, |p| p.doc as usize).is_ok();
            let has = scratch
                .replaced
                .binary_search_by_key(&h, |x| x.0)
                .ok()
                .map(|i| scratch.replaced[i].1);
            let df = list.len() - usize::from(had) + usize::from(has.is_some());
            // As the search does: a term the index has, not yet counted, within the cap.
            if df > 0
                && scratch.chosen.len() < MAX_QUERY_TERMS
                && !scratch.chosen.iter().any(|c| c.0 == j)
            {
                scratch.chosen.push((j, df, has));
            }
        }
        let docs = &self.builder.docs;
        let lengths = &self.builder.lengths;
        for c in 0..scratch.chosen.len() {
            let (term, df, has) = scratch.chosen[c];
            let list = &self.postings[self.starts[term]..self.starts[term + 1]];
            let idf = idf(n, df);
            for p in list {
                let d = p.doc as usize;
                if d == t {
                    continue;
                }
                let moved = p.fields & changed != 0;
                let add = if df == list.len() && !moved {
                    p.impact
                } else if !moved {
                    impact(idf, p.tf, &w)
                } else if only_last {
                    let tf = tf_last(&w, p.head, p.last, lengths[d][LAST], avg[LAST]);
                    impact(idf, tf, &w)
                } else {
                    // Another field moved too: its counts, from the document's terms.
                    let key = self.terms[term];
                    let counts = docs[d]
                        .iter()
                        .find(|x| x.0 == key)
                        .map_or([0.0; FIELDS], |x| x.1);
                    impact(idf, tf(&w, &counts, &lengths[d], &avg), &w)
                };
                scratch.add(d, add);
            }
            if let Some(i) = has {
                scratch.add(t, impact(idf, tf(&w, &new_terms[i].1, &new_len, &avg), &w));
            }
        }
        Scored::Done
    }

    /// The term with hash `h`.
    fn find(&self, h: u64) -> Option<usize> {
        slot(&self.table, &self.terms, h)
    }

    /// Whether the index's lookup of `h` could meet another term with its fingerprint: a
    /// term placed in the run of filled slots around `h`'s, in which any smaller index of
    /// the same size places its terms too. Then the slot the index finds, and whether it
    /// merged two terms' postings, depends on the exact table: one chance in about 10^9.
    fn clash(&self, h: u64) -> bool {
        let size = self.table.len();
        let mask = size - 1;
        let mut at = home(h, size);
        if self.table[at] == FREE {
            return false;
        }
        while self.table[(at + mask) & mask] != FREE {
            at = (at + mask) & mask;
        }
        while self.table[at] != FREE {
            let other = self.terms[self.table[at] as usize];
            if other != h && fingerprint(other) == fingerprint(h) {
                return true;
            }
            at = (at + 1) & mask;
        }
        false
    }

    /// The index built with `t`'s text replaced, searched.
    fn rebuilt(
        &self,
        t: usize,
        replacement: &Builder,
        query: &str,
        scratch: &mut LeaveOutScratch,
    ) -> Vec<Hit> {
        scratch.rebuilds += 1;
        let mut b = self.builder.clone();
        b.docs[t] = replacement.docs.last().cloned().unwrap_or_default();
        b.lengths[t] = replacement.lengths.last().copied().unwrap_or_default();
        b.withheld.retain(|&d| d as usize != t);
        let index = b.build();
        index
            .view()
            .search(query, self.len(), &mut Scratch::default())
    }

    /// The order of [`Index::search`](super::Index::search)'s hits.
    fn better(&self, a: Hit, b: Hit) -> bool {
        match a.score.total_cmp(&b.score) {
            Ordering::Greater => true,
            Ordering::Less => false,
            Ordering::Equal => self.name_rank[a.doc as usize] < self.name_rank[b.doc as usize],
        }
    }
}

impl LeaveOutScratch {
    fn add(&mut self, doc: usize, impact: f32) {
        if !self.seen[doc] {
            self.seen[doc] = true;
            self.touched.push(to_u32(doc));
        }
        self.scores[doc] += impact;
    }

    fn clear(&mut self) {
        for &d in &self.touched {
            self.scores[d as usize] = 0.0;
            self.seen[d as usize] = false;
        }
        self.touched.clear();
    }
}

/// The term with hash `h`, by its place in `terms`, found through `table`.
fn slot(table: &[u32], terms: &[u64], h: u64) -> Option<usize> {
    let size = table.len();
    let mut at = home(h, size);
    loop {
        match table[at] {
            FREE => return None,
            j if terms[j as usize] == h => return Some(j as usize),
            _ => at = (at + 1) & (size - 1),
        }
    }
}

/// The slot a term's hash picks in a table of `size` slots (a power of two).
fn home(h: u64, size: usize) -> usize {
    #[allow(clippy::cast_possible_truncation)] // masked to the table's length
    let at = h as usize & (size - 1);
    at
}

fn to_u32(x: usize) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests;
