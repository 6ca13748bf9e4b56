//! An inverted index with BM25F impacts precomputed per posting, so a query is a few
//! binary searches and additions. Built once (at compile time for a compiled catalog, whose
//! tables become statics), read through the borrowed [`Index`].

use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use super::text::terms;

/// Where a piece of a tool's text comes from; each field has its own weight.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Field {
    /// The tool's name, split into words.
    Name,
    /// A search keyword.
    Keyword,
    /// The description.
    Description,
    /// A parameter's (or nested property's) name.
    ParamName,
    /// A parameter's description.
    ParamDescription,
    /// An example request.
    Example,
}

/// How much each field counts, and BM25's two constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Weight of [`Field::Name`].
    pub name: f32,
    /// Weight of [`Field::Keyword`].
    pub keyword: f32,
    /// Weight of [`Field::Description`].
    pub description: f32,
    /// Weight of [`Field::ParamName`].
    pub param_name: f32,
    /// Weight of [`Field::ParamDescription`].
    pub param_description: f32,
    /// Weight of [`Field::Example`].
    pub example: f32,
    /// Term-frequency saturation.
    pub k1: f32,
    /// Length normalisation.
    pub b: f32,
}

impl Weights {
    /// The weights every catalog uses unless told otherwise.
    pub const DEFAULT: Weights = Weights {
        name: 3.0,
        keyword: 2.0,
        description: 1.0,
        param_name: 0.5,
        param_description: 0.3,
        example: 1.0,
        k1: 1.2,
        b: 0.75,
    };

    fn of(&self, field: Field) -> f32 {
        match field {
            Field::Name => self.name,
            Field::Keyword => self.keyword,
            Field::Description => self.description,
            Field::ParamName => self.param_name,
            Field::ParamDescription => self.param_description,
            Field::Example => self.example,
        }
    }
}

/// A built index, borrowed: the form the generated statics take.
#[derive(Clone, Copy, Debug)]
pub struct Index<'a> {
    /// Every term, sorted, concatenated.
    pub terms: &'a str,
    /// End offset of each term in `terms`.
    pub term_ends: &'a [u32],
    /// End offset of each term's postings in `docs` and `impacts`.
    pub posting_ends: &'a [u32],
    /// All posting lists, one after another: the tool of each posting...
    pub docs: &'a [u32],
    /// ...and the term's BM25F contribution to that tool's score.
    pub impacts: &'a [f32],
    /// Per document: its position when documents are sorted by name (breaks score ties).
    pub name_rank: &'a [u32],
}

/// A search hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// The tool's index.
    pub doc: u32,
    /// Its score; higher is better.
    pub score: f32,
}

impl<'a> Index<'a> {
    /// Number of documents.
    #[must_use]
    pub fn len(&self) -> usize {
        self.name_rank.len()
    }

    /// Whether the index holds no document.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.name_rank.is_empty()
    }

    fn term(&self, i: usize) -> &'a str {
        let start = if i == 0 {
            0
        } else {
            self.term_ends[i - 1] as usize
        };
        &self.terms[start..self.term_ends[i] as usize]
    }

    fn postings_of(&self, term: &str) -> (&'a [u32], &'a [f32]) {
        let (mut lo, mut hi) = (0, self.term_ends.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.term(mid).cmp(term) {
                Ordering::Less => lo = mid + 1,
                Ordering::Greater => hi = mid,
                Ordering::Equal => {
                    let start = if mid == 0 {
                        0
                    } else {
                        self.posting_ends[mid - 1] as usize
                    };
                    let end = self.posting_ends[mid] as usize;
                    return (&self.docs[start..end], &self.impacts[start..end]);
                }
            }
        }
        (&[], &[])
    }

    /// The `k` best documents for `query`, best first; equal scores in name order.
    /// Documents that match no query term are never returned.
    pub fn search(&self, query: &str, k: usize, scratch: &mut Scratch) -> Vec<Hit> {
        scratch.reset(self.len());
        let mut seen: Vec<String> = Vec::new();
        terms(query, |t| {
            if seen.iter().any(|s| s == t) {
                return;
            }
            seen.push(String::from(t));
            let (docs, impacts) = self.postings_of(t);
            for (&doc, &impact) in docs.iter().zip(impacts) {
                scratch.add(doc, impact);
            }
        });
        let mut top: Vec<Hit> = Vec::with_capacity(k + 1);
        for &doc in &scratch.touched {
            let hit = Hit {
                doc,
                score: scratch.scores[doc as usize],
            };
            if top.len() == k && !self.better(hit, top[k - 1]) {
                continue;
            }
            let at = top.partition_point(|h| self.better(*h, hit));
            top.insert(at, hit);
            top.truncate(k);
        }
        top
    }

    fn better(&self, a: Hit, b: Hit) -> bool {
        match a.score.total_cmp(&b.score) {
            Ordering::Greater => true,
            Ordering::Less => false,
            Ordering::Equal => self.name_rank[a.doc as usize] < self.name_rank[b.doc as usize],
        }
    }
}

/// Reusable per-query memory, so a search allocates nothing proportional to the catalog.
#[derive(Default, Debug)]
pub struct Scratch {
    scores: Vec<f32>,
    touched: Vec<u32>,
}

impl Scratch {
    fn reset(&mut self, docs: usize) {
        for &d in &self.touched {
            self.scores[d as usize] = 0.0;
        }
        self.touched.clear();
        self.scores.resize(docs, 0.0);
    }

    fn add(&mut self, doc: u32, impact: f32) {
        let s = &mut self.scores[doc as usize];
        if *s == 0.0 {
            self.touched.push(doc);
        }
        *s += impact;
    }
}

/// Collects tools' text and builds an [`OwnedIndex`].
#[derive(Debug)]
pub struct Builder {
    weights: Weights,
    names: Vec<String>,
    /// Per document: (term, weighted frequency), unsorted.
    docs: Vec<Vec<(String, f32)>>,
}

impl Builder {
    /// An empty builder.
    #[must_use]
    pub fn new(weights: Weights) -> Self {
        Builder {
            weights,
            names: Vec::new(),
            docs: Vec::new(),
        }
    }

    /// Starts the next document (documents are numbered from 0 in the order added).
    pub fn document(&mut self, name: &str) -> u32 {
        self.names.push(String::from(name));
        self.docs.push(Vec::new());
        u32::try_from(self.docs.len() - 1).unwrap_or(u32::MAX)
    }

    /// Adds text to the current document.
    pub fn add(&mut self, field: Field, text: &str) {
        let w = self.weights.of(field);
        let Some(doc) = self.docs.last_mut() else {
            return;
        };
        terms(text, |t| match doc.iter_mut().find(|(term, _)| term == t) {
            Some((_, f)) => *f += w,
            None => doc.push((String::from(t), w)),
        });
    }

    /// Computes every posting's BM25F impact.
    #[must_use]
    #[allow(clippy::cast_precision_loss)] // counts far below 2^24
    pub fn build(self) -> OwnedIndex {
        let n = self.docs.len();
        let lengths: Vec<f32> = self
            .docs
            .iter()
            .map(|d| d.iter().map(|(_, f)| f).sum())
            .collect();
        let avg = if n == 0 {
            1.0
        } else {
            (lengths.iter().sum::<f32>() / n as f32).max(f32::MIN_POSITIVE)
        };
        let mut all: Vec<(&str, u32, f32)> = Vec::new();
        for (doc, terms) in self.docs.iter().enumerate() {
            for (t, f) in terms {
                all.push((t.as_str(), u32::try_from(doc).unwrap_or(u32::MAX), *f));
            }
        }
        all.sort_by(|a, b| a.0.cmp(b.0).then(a.1.cmp(&b.1)));
        let mut out = OwnedIndex::default();
        let Weights { k1, b, .. } = self.weights;
        let mut i = 0;
        while i < all.len() {
            let term = all[i].0;
            let end = i + all[i..].iter().take_while(|x| x.0 == term).count();
            let df = (end - i) as f32;
            let idf = libm_ln(1.0 + (n as f32 - df + 0.5) / (df + 0.5));
            for &(_, doc, tf) in &all[i..end] {
                let norm = k1 * (1.0 - b + b * lengths[doc as usize] / avg);
                out.docs.push(doc);
                out.impacts.push(idf * tf * (k1 + 1.0) / (tf + norm));
            }
            out.terms.push_str(term);
            out.term_ends
                .push(u32::try_from(out.terms.len()).unwrap_or(u32::MAX));
            out.posting_ends
                .push(u32::try_from(out.docs.len()).unwrap_or(u32::MAX));
            i = end;
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| self.names[a].cmp(&self.names[b]));
        out.name_rank = alloc::vec![0; n];
        for (rank, doc) in order.into_iter().enumerate() {
            out.name_rank[doc] = u32::try_from(rank).unwrap_or(u32::MAX);
        }
        out
    }
}

/// Natural logarithm without `std`: `ln(x) = 2·atanh((x-1)/(x+1))`, after scaling `x` into
/// [0.5, 1] by powers of two. Accurate to ~1e-7, plenty for ranking.
fn libm_ln(x: f32) -> f32 {
    let mut x = f64::from(x);
    let mut k = 0i32;
    while x > 1.0 {
        x /= 2.0;
        k += 1;
    }
    while x < 0.5 {
        x *= 2.0;
        k -= 1;
    }
    let y = (x - 1.0) / (x + 1.0);
    let y2 = y * y;
    let mut term = y;
    let mut sum = 0.0;
    let mut n = 1.0;
    while n < 60.0 {
        sum += term / n;
        term *= y2;
        n += 2.0;
    }
    #[allow(clippy::cast_possible_truncation)]
    let ln = (2.0 * sum + f64::from(k) * core::f64::consts::LN_2) as f32;
    ln
}

/// An index that owns its tables (built at run time); borrow it with [`OwnedIndex::view`].
#[derive(Default, Debug, Clone)]
pub struct OwnedIndex {
    /// See [`Index::terms`].
    pub terms: String,
    /// See [`Index::term_ends`].
    pub term_ends: Vec<u32>,
    /// See [`Index::posting_ends`].
    pub posting_ends: Vec<u32>,
    /// See [`Index::docs`].
    pub docs: Vec<u32>,
    /// See [`Index::impacts`].
    pub impacts: Vec<f32>,
    /// See [`Index::name_rank`].
    pub name_rank: Vec<u32>,
}

impl OwnedIndex {
    /// The borrowed form, which searches.
    #[must_use]
    pub fn view(&self) -> Index<'_> {
        Index {
            terms: &self.terms,
            term_ends: &self.term_ends,
            posting_ends: &self.posting_ends,
            docs: &self.docs,
            impacts: &self.impacts,
            name_rank: &self.name_rank,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> OwnedIndex {
        let mut b = Builder::new(Weights::DEFAULT);
        b.document("exportCsv");
        b.add(Field::Name, "exportCsv");
        b.add(Field::Description, "Exports rows of a table to a CSV file.");
        b.document("openTable");
        b.add(Field::Name, "openTable");
        b.add(Field::Description, "Opens a table in the grid.");
        b.document("b");
        b.add(Field::Description, "Opens a table.");
        b.document("a");
        b.add(Field::Description, "Opens a table.");
        b.build()
    }

    #[test]
    fn best_match_first() {
        let idx = index();
        let hits = idx
            .view()
            .search("export this table to csv", 5, &mut Scratch::default());
        assert_eq!(hits[0].doc, 0);
        assert_eq!(hits.len(), 4);
    }

    #[test]
    fn ties_break_by_name_and_k_limits() {
        let idx = index();
        let hits = idx.view().search("opens", 5, &mut Scratch::default());
        let docs: Vec<u32> = hits.iter().map(|h| h.doc).collect();
        // `a` and `b` score the same (same text); `a` comes first by name.
        let a = docs.iter().position(|&d| d == 3).unwrap();
        let b = docs.iter().position(|&d| d == 2).unwrap();
        assert!(a < b);
        assert_eq!(
            idx.view().search("opens", 2, &mut Scratch::default()).len(),
            2
        );
    }

    #[test]
    fn no_match_no_hits() {
        let idx = index();
        assert!(
            idx.view()
                .search("zebra", 5, &mut Scratch::default())
                .is_empty()
        );
    }

    #[test]
    fn ln_is_accurate() {
        for x in [0.01f32, 0.5, 1.0, 2.0, 10.0, 1853.0] {
            assert!((libm_ln(x) - x.ln()).abs() < 1e-5, "{x}");
        }
    }
}
