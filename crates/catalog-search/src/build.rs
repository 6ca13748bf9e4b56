//! Collecting documents' text and turning it into an [`OwnedIndex`]: BM25F impacts
//! computed once per posting, and the terms laid out in a hash table. The scoring
//! expressions are functions of their own so that [`LeaveOut`](super::LeaveOut) repeats
//! them to the bit.

use alloc::string::String;
use alloc::vec::Vec;

use super::index::{Field, OwnedIndex, Weights, fingerprint, hash};
use super::lang::Language;
use super::text::{PAIR_MARK, PREFIX_MARK, Script, UNIGRAM_MARK, terms};

/// Collects tools' text and builds an [`OwnedIndex`].
#[derive(Debug, Clone)]
pub struct Builder {
    pub(super) weights: Weights,
    pub(super) language: Language,
    pub(super) names: Vec<String>,
    /// Per document: each term, known by its [`hash`] as the index knows it, and how often
    /// it occurs in each field. No term text is kept: a 25,000-tool catalog has millions.
    pub(super) docs: Vec<Vec<(u64, [f32; FIELDS])>>,
    /// Per document: the number of terms in each field.
    pub(super) lengths: Vec<[f32; FIELDS]>,
    /// Where each term of the last document is in its list.
    places: Places,
    /// The documents [`withhold`](Self::withhold) marked, ascending.
    pub(super) withheld: Vec<u32>,
}

pub(super) const FIELDS: usize = 6;

/// What one text adds to a document: each of its terms, in order, by [`hash`], with its
/// weight and whether it counts in the field's length. Worked out once by
/// [`Builder::terms`] for a text that goes into several documents (a tool's text without
/// each of its examples in turn, for the compiler's search with one example left out).
#[derive(Debug, Clone, Default)]
pub struct Terms(Vec<(u64, f32, bool)>);

impl Builder {
    /// An empty builder, for text in `language`.
    #[must_use]
    pub fn new(weights: Weights, language: Language) -> Self {
        Builder {
            weights,
            language,
            names: Vec::new(),
            docs: Vec::new(),
            lengths: Vec::new(),
            places: Places::default(),
            withheld: Vec::new(),
        }
    }

    /// Starts the next document (documents are numbered from 0 in the order added).
    pub fn document(&mut self, name: &str) -> u32 {
        self.names.push(String::from(name));
        self.docs.push(Vec::new());
        self.lengths.push([0.0; FIELDS]);
        self.places.clear();
        u32::try_from(self.docs.len() - 1).unwrap_or(u32::MAX)
    }

    /// Marks the current document as one a search never returns: a catalog's inline
    /// tools, which the model already has, so that the hits a search returns are all tools
    /// it can discover. Its text still counts in every term's statistics, and the
    /// compiler's search with one example left out still ranks it against the documents a
    /// search returns (would search find this tool if it were discoverable?).
    pub fn withhold(&mut self) {
        if let Some(doc) = self.docs.len().checked_sub(1) {
            let doc = u32::try_from(doc).unwrap_or(u32::MAX);
            if self.withheld.last() != Some(&doc) {
                self.withheld.push(doc);
            }
        }
    }

    /// Adds text to the current document.
    pub fn add(&mut self, field: Field, text: &str) {
        let terms = self.terms(text);
        self.add_terms(field, &terms);
    }

    /// The terms [`add`](Self::add) would add for `text`, in this builder's weights and
    /// language.
    #[must_use]
    pub fn terms(&self, text: &str) -> Terms {
        let w = self.weights;
        let mut out = Vec::new();
        terms(text, self.language, |t| {
            let (x, counted) = if t.starts_with(PREFIX_MARK) {
                (w.prefix, false)
            } else if t.starts_with(PAIR_MARK) {
                (w.pair, false)
            } else if let Some(c) = t.strip_prefix(UNIGRAM_MARK) {
                let x = match c.chars().next().map(Script::of) {
                    Some(Script::Hangul) => w.hangul_unigram,
                    Some(Script::Katakana | Script::Hiragana) => w.kana_unigram,
                    _ => w.unigram,
                };
                (x, false)
            } else {
                (1.0, true)
            };
            out.push((hash(t), x, counted));
        });
        Terms(out)
    }

    /// Adds to the current document what [`terms`](Self::terms) worked out: the same as
    /// [`add`](Self::add) of its text. `terms` must come from a builder of the same
    /// weights and language.
    pub fn add_terms(&mut self, field: Field, terms: &Terms) {
        let (Some(doc), Some(len)) = (self.docs.last_mut(), self.lengths.last_mut()) else {
            return;
        };
        let f = field as usize;
        for &(h, x, counted) in &terms.0 {
            if counted {
                len[f] += 1.0;
            }
            if x == 0.0 {
                continue;
            }
            if let Some(i) = self.places.find(doc, h) {
                doc[i].1[f] += x;
            } else {
                let mut counts = [0.0; FIELDS];
                counts[f] = x;
                doc.push((h, counts));
                self.places.pushed(doc);
            }
        }
    }

    /// A builder of one document: document `doc` of this one with `field`'s text replaced
    /// by `texts` (each from [`terms`](Self::terms)), the same as adding the document's
    /// texts again with those in `field`. Each field's counts are sums of their own
    /// texts' terms, so `field` is summed again from `texts`, in order, and the rest is
    /// kept: for a long document, much less than reading its text again.
    #[must_use]
    pub fn replaced(&self, doc: usize, field: Field, texts: &[&Terms]) -> Builder {
        let f = field as usize;
        let mut one = Builder::new(self.weights, self.language);
        one.document(&self.names[doc]);
        one.docs[0] = self.docs[doc]
            .iter()
            .map(|&(h, mut counts)| {
                counts[f] = 0.0;
                (h, counts)
            })
            .collect();
        one.places = Places::of(&one.docs[0]);
        one.lengths[0] = self.lengths[doc];
        one.lengths[0][f] = 0.0;
        for text in texts {
            one.add_terms(field, text);
        }
        // A term of the old text alone is no longer the document's. (A weight is positive,
        // so a term is the document's exactly when one of its counts is not 0.)
        one.docs[0].retain(|(_, counts)| counts.iter().any(|&c| c != 0.0));
        one.places = Places::of(&one.docs[0]);
        one
    }

    /// Computes every posting's BM25F impact: each field's term frequency is normalised by
    /// that field's length (a long parameter list does not dilute a name match), weighted,
    /// summed, then saturated once.
    #[must_use]
    pub fn build(self) -> OwnedIndex {
        let n = self.docs.len();
        let avg = averages(&length_sums(&self.lengths), n);
        let w = self.weights;
        let mut all: Vec<(u64, u32, f32)> = Vec::new();
        for (doc, terms) in self.docs.iter().enumerate() {
            let len = &self.lengths[doc];
            for (t, counts) in terms {
                let tf = tf(&w, counts, len, &avg);
                all.push((*t, u32::try_from(doc).unwrap_or(u32::MAX), tf));
            }
        }
        // By term, then document. Two terms with one 64-bit hash (about one chance in 10^7
        // for a million terms) would share a list.
        all.sort_unstable_by_key(|&(h, doc, _)| (h, doc));
        // Each term's posting list, keyed by the term's hash.
        let mut lists: Vec<(u64, Vec<(u32, f32)>)> = Vec::new();
        let mut i = 0;
        while i < all.len() {
            let term = all[i].0;
            let end = i + all[i..].iter().take_while(|x| x.0 == term).count();
            let idf = idf(n, end - i);
            let list = all[i..end]
                .iter()
                .map(|&(_, doc, tf)| (doc, impact(idf, tf, &w)))
                .collect();
            lists.push((term, list));
            i = end;
        }
        let size = table_size(lists.len());
        // Each slot's list, then the lists laid out in slot order.
        let mut placed: Vec<Option<usize>> = alloc::vec![None; size];
        for (i, (h, _)) in lists.iter().enumerate() {
            #[allow(clippy::cast_possible_truncation)] // masked to the table's length
            let mut at = *h as usize & (size - 1);
            // Two terms with one fingerprint in one run of slots (about one chance in 10^9
            // for a million terms) would share a slot: the second's postings are dropped.
            while let Some(j) = placed[at] {
                if fingerprint(lists[j].0) == fingerprint(*h) {
                    break;
                }
                at = (at + 1) & (size - 1);
            }
            placed[at].get_or_insert(i);
        }
        let mut out = OwnedIndex {
            language: self.language,
            ..OwnedIndex::default()
        };
        let mut written = 0u32;
        let slot = |out: &mut OwnedIndex, print: u32, start: u32| {
            out.slots.extend_from_slice(&print.to_le_bytes());
            out.slots.extend_from_slice(&start.to_le_bytes());
        };
        for term in placed {
            let start = written;
            let print = term.map_or(0, |i| {
                for &(doc, impact) in &lists[i].1 {
                    out.postings.extend_from_slice(&doc.to_le_bytes());
                    out.postings
                        .extend_from_slice(&impact.to_bits().to_le_bytes());
                }
                written += u32::try_from(lists[i].1.len()).unwrap_or(u32::MAX);
                fingerprint(lists[i].0)
            });
            slot(&mut out, print, start);
        }
        slot(&mut out, 0, written);
        out.name_rank = name_ranks(&self.names);
        out.withheld = self.withheld;
        out
    }
}

/// The place of each term in the last document's list, by hash, once the list is longer
/// than [`Places::SHORT`]: adding a document's terms is then linear in them, not
/// quadratic. Open addressing over `place + 1` (0 is a free slot), at most half full.
#[derive(Debug, Clone, Default)]
struct Places(Vec<u32>);

impl Places {
    /// A list this short is searched from the start.
    const SHORT: usize = 16;

    fn clear(&mut self) {
        self.0.clear();
    }

    fn find(&self, doc: &[(u64, [f32; FIELDS])], h: u64) -> Option<usize> {
        if self.0.is_empty() {
            return doc.iter().position(|(term, _)| *term == h);
        }
        let mask = self.0.len() - 1;
        let mut at = slot(h, mask);
        loop {
            match self.0[at] {
                0 => return None,
                p if doc[p as usize - 1].0 == h => return Some(p as usize - 1),
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// The places of `doc`'s terms.
    fn of(doc: &[(u64, [f32; FIELDS])]) -> Places {
        let mut places = Places::default();
        if doc.len() > Self::SHORT {
            places.0 = alloc::vec![0; (4 * doc.len()).next_power_of_two()];
            for (i, (h, _)) in doc.iter().enumerate() {
                places.put(*h, i);
            }
        }
        places
    }

    /// Records the term just pushed onto `doc`.
    fn pushed(&mut self, doc: &[(u64, [f32; FIELDS])]) {
        let n = doc.len();
        if n > Self::SHORT {
            if 2 * n > self.0.len() {
                *self = Places::of(doc);
            } else {
                self.put(doc[n - 1].0, n - 1);
            }
        }
    }

    fn put(&mut self, h: u64, place: usize) {
        let mask = self.0.len() - 1;
        let mut at = slot(h, mask);
        while self.0[at] != 0 {
            at = (at + 1) & mask;
        }
        self.0[at] = u32::try_from(place + 1).unwrap_or(u32::MAX);
    }
}

/// The slot `h` starts from in a table of `mask + 1` slots.
fn slot(h: u64, mask: usize) -> usize {
    #[allow(clippy::cast_possible_truncation)] // masked to the table's length
    let at = h as usize & mask;
    at
}

/// Per document: its position when documents are sorted by name (equal names in document
/// order), which breaks score ties.
pub(super) fn name_ranks(names: &[String]) -> Vec<u32> {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| names[a].cmp(&names[b]));
    let mut rank = alloc::vec![0; names.len()];
    for (r, doc) in order.into_iter().enumerate() {
        rank[doc] = u32::try_from(r).unwrap_or(u32::MAX);
    }
    rank
}

/// Each field's length summed over all documents. In `f64`, whose sums of whole numbers
/// are exact in any order: one document's length can be taken out and another put in
/// (see [`LeaveOut`](super::LeaveOut)) and the sum is the one a new build would make.
pub(super) fn length_sums(lengths: &[[f32; FIELDS]]) -> [f64; FIELDS] {
    let mut sums = [0.0f64; FIELDS];
    for len in lengths {
        for (s, l) in sums.iter_mut().zip(len) {
            *s += f64::from(*l);
        }
    }
    sums
}

/// Each field's average length over `n` documents. The sum is narrowed to `f32` first, as
/// the sums were once made in `f32`: exact below 2^24, so the figures are those of then.
#[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)] // see above
pub(super) fn averages(sums: &[f64; FIELDS], n: usize) -> [f32; FIELDS] {
    sums.map(|s| {
        if n == 0 {
            1.0
        } else {
            (s as f32 / n as f32).max(f32::MIN_POSITIVE)
        }
    })
}

/// A term's weighted term frequency in one document, each field normalised by its length.
pub(super) fn tf(
    w: &Weights,
    counts: &[f32; FIELDS],
    len: &[f32; FIELDS],
    avg: &[f32; FIELDS],
) -> f32 {
    let head = tf_head(w, counts, len, avg);
    tf_last(w, head, counts[LAST], len[LAST], avg[LAST])
}

/// The last field, [`Field::Example`]: the one leaving an example out moves.
pub(super) const LAST: usize = FIELDS - 1;

/// [`tf`] of every field before [`LAST`]. Kept per posting, it lets a changed average of the
/// last field be scored again from the posting alone: the sum runs in field order, so
/// `tf_last(head, ..)` is the very sum [`tf`] makes.
pub(super) fn tf_head(
    w: &Weights,
    counts: &[f32; FIELDS],
    len: &[f32; FIELDS],
    avg: &[f32; FIELDS],
) -> f32 {
    let weights = [
        w.name,
        w.keyword,
        w.description,
        w.param_name,
        w.param_description,
    ];
    (0..LAST)
        .map(|f| weights[f] * counts[f] / (1.0 - w.b + w.b * len[f] / avg[f]))
        .sum()
}

/// [`tf`] from [`tf_head`] and the last field's count, length and average.
pub(super) fn tf_last(w: &Weights, head: f32, count: f32, len: f32, avg: f32) -> f32 {
    head + w.example * count / (1.0 - w.b + w.b * len / avg)
}

/// The inverse document frequency of a term in `df` of `n` documents.
#[allow(clippy::cast_precision_loss)] // counts far below 2^24
pub(super) fn idf(n: usize, df: usize) -> f32 {
    let df = df as f32;
    libm_ln(1.0 + (n as f32 - df + 0.5) / (df + 0.5))
}

/// A posting's contribution to its document's score: `tf` saturated, times `idf`.
pub(super) fn impact(idf: f32, tf: f32, w: &Weights) -> f32 {
    idf * tf * (w.k1 + 1.0) / (tf + w.k1)
}

/// Slots in the hash table of `terms` terms: between a third and three quarters full, so a
/// lookup probes one or two slots and the table stays small enough to stay in cache.
pub(super) fn table_size(terms: usize) -> usize {
    (terms + terms / 3 + 1).next_power_of_two().max(2)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_characters_own_term_weighs_by_its_script() {
        let w = Weights {
            unigram: 0.9,
            hangul_unigram: 0.6,
            kana_unigram: 0.3,
            ..Weights::DEFAULT
        };
        let mut b = Builder::new(w, Language::Japanese);
        b.document("t");
        b.add(Field::Description, "売上データ 회의실");
        let count = |term: &str| {
            let h = hash(term);
            b.docs[0]
                .iter()
                .find(|(t, _)| *t == h)
                .map(|(_, c)| c[Field::Description as usize])
        };
        assert_eq!(count("|上"), Some(0.9));
        assert_eq!(count("|デ"), Some(0.3));
        assert_eq!(count("|의"), Some(0.6));
        // Bigrams count in full, and only they make the field longer.
        assert_eq!(count("売上"), Some(1.0));
        assert_eq!(
            b.lengths[0][Field::Description as usize].to_bits(),
            5.0f32.to_bits()
        );
    }

    #[test]
    fn ln_is_accurate() {
        use core::f32::consts::{LN_2, LN_10};
        // Reference values of ln(x).
        for (x, ln) in [
            (0.01f32, -2.0 * LN_10),
            (0.5, -LN_2),
            (1.0, 0.0),
            (2.0, LN_2),
            (10.0, LN_10),
            (1853.0, 7.524_561),
        ] {
            assert!((libm_ln(x) - ln).abs() < 1e-5, "{x}");
        }
    }
}
