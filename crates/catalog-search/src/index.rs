//! An inverted index with BM25F impacts precomputed per posting, so a query is a few
//! binary searches and additions. Built once (at compile time for a compiled catalog, whose
//! tables become statics), read through the borrowed [`Index`].

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::lang::Language;
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
    /// Weight of a word's prefix term (see [`PREFIX`](crate::PREFIX)) relative to
    /// its stem.
    pub prefix: f32,
    /// Weight of a pair of neighbouring stems (see [`PAIR_MARK`](crate::PAIR_MARK))
    /// relative to a single stem.
    pub pair: f32,
    /// Weight of each Han character (kanji, hanzi) of a CJK run as a term of its own (see
    /// [`UNIGRAM_MARK`](crate::UNIGRAM_MARK)) relative to a bigram; 0 leaves them
    /// out of the index. A Han character is a morpheme, with a meaning of its own.
    pub unigram: f32,
    /// The same for a Hangul syllable: a sound, but often a whole Sino-Korean morpheme
    /// (`회`, `의`), so worth less than a Han character and more than a kana.
    pub hangul_unigram: f32,
    /// The same for a Katakana character: a sound alone, which loanwords spell out.
    pub kana_unigram: f32,
}

impl Weights {
    /// The weights every catalog uses unless told otherwise.
    ///
    /// Chosen on the BFCL development split (`cargo xtask eval-search`): names count
    /// most, parameter names as much as the description, `k1` high because tool texts are
    /// short and a repeated word is real evidence. The three unigram weights were chosen
    /// on the requests for choosing parameters of the Japanese, Chinese and Korean sets
    /// and on their catalogs' own examples, each searched with itself left out (`cargo
    /// xtask eval-languages`).
    pub const DEFAULT: Weights = Weights {
        name: 2.5,
        keyword: 2.0,
        description: 1.0,
        param_name: 1.0,
        param_description: 0.8,
        example: 1.0,
        k1: 2.5,
        b: 0.75,
        prefix: 0.3,
        pair: 0.4,
        unigram: 1.0,
        hangul_unigram: 0.5,
        kana_unigram: 0.2,
    };
}

/// A built index, borrowed: the form the generated statics take.
#[derive(Clone, Copy, Debug)]
pub struct Index<'a> {
    /// Open-addressing hash table of the terms, a power of two long plus one closing
    /// slot: each term sits at the slot the low bits of its [`hash`] pick, or the next free
    /// one after it, as [`SLOT_BYTES`] bytes: its fingerprint, the hash's high half (0
    /// marks a free slot), and where its postings start in `postings`, both little-endian
    /// `u32`s. Postings lie in slot order, so a term's list ends where the next slot's
    /// starts (free slots hold that next start too). Terms are known by their hash alone,
    /// so a lookup reads no text, and eight bytes a slot keep the table small enough to
    /// stay in cache.
    ///
    /// Bytes rather than tuples so a compiled catalog carries its tables as a few byte
    /// string literals: millions of tuple tokens cost the macro and rustc far more.
    pub slots: &'a [u8],
    /// All posting lists, one after another, [`POSTING_BYTES`] bytes each: a tool (`u32`)
    /// and the term's BM25F contribution to that tool's score (`f32`), little-endian.
    pub postings: &'a [u8],
    /// Per document: its position when documents are sorted by name (breaks score ties).
    pub name_rank: &'a [u32],
    /// The documents a search never returns, ascending (see [`Builder::withhold`]).
    ///
    /// [`Builder::withhold`]: super::Builder::withhold
    pub withheld: &'a [u32],
    /// The language the terms were made in: a query is read in it too.
    pub language: Language,
}

/// A search hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// The tool's index.
    pub doc: u32,
    /// Its score; higher is better.
    pub score: f32,
}

/// Bytes a slot takes in [`Index::slots`].
pub const SLOT_BYTES: usize = 8;

/// Bytes a posting takes in [`Index::postings`].
pub const POSTING_BYTES: usize = 8;

/// The little-endian `u32` at `at`; 0 past the end (a table is only ever read within
/// itself, so that never happens with a table the builder made).
fn word(bytes: &[u8], at: usize) -> u32 {
    match bytes.get(at..at + 4) {
        Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
        _ => 0,
    }
}

/// Scores tested at once when looking for the best (a few vector registers' worth).
const CHUNK: usize = 32;

/// Indexed terms of one request that count; far above what a real request has.
pub const MAX_QUERY_TERMS: usize = 256;

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

    /// The slot holding the term with hash `h`, if the index has it.
    fn slot_of(&self, h: u64) -> Option<usize> {
        let mask = (self.slots.len() / SLOT_BYTES).checked_sub(2)?;
        let print = fingerprint(h);
        #[allow(clippy::cast_possible_truncation)] // masked to the table's length
        let mut at = h as usize & mask;
        loop {
            match word(self.slots, at * SLOT_BYTES) {
                0 => return None,
                x if x == print => return Some(at),
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// The term's postings, as `(document, impact)`.
    fn postings_of(&self, slot: usize) -> impl Iterator<Item = (u32, f32)> + use<'a> {
        let start = word(self.slots, slot * SLOT_BYTES + 4) as usize;
        let end = word(self.slots, (slot + 1) * SLOT_BYTES + 4) as usize;
        self.postings
            .get(start * POSTING_BYTES..end * POSTING_BYTES)
            .unwrap_or_default()
            .chunks_exact(POSTING_BYTES)
            .map(|p| (word(p, 0), f32::from_bits(word(p, 4))))
    }

    /// The `k` best documents for `query`, best first; equal scores in name order.
    /// Documents that match no query term, and [`withheld`](Self::withheld) ones, are never
    /// returned. Only the first [`MAX_QUERY_TERMS`] indexed terms of a request count, so a
    /// model that sends a novel as its query costs a bounded time.
    pub fn search(&self, query: &str, k: usize, scratch: &mut Scratch) -> Vec<Hit> {
        if k == 0 {
            return Vec::new();
        }
        scratch.reset(self.len());
        // Hash every term, then find every term's slot, then add up postings: each pass's
        // steps do not depend on each other, so the processor overlaps the table's cache
        // misses instead of waiting for each in turn.
        let hashes = &mut scratch.hashes;
        terms(query, self.language, |t| hashes.push(hash(t)));
        for &h in &scratch.hashes {
            // A term the query repeats counts once.
            if let Some(slot) = self.slot_of(h)
                && scratch.terms.len() < MAX_QUERY_TERMS
                && !scratch.terms.contains(&slot)
            {
                scratch.terms.push(slot);
            }
        }
        let scores = scratch.scores.as_mut_slice();
        for &slot in &scratch.terms {
            for (doc, impact) in self.postings_of(slot) {
                scores[doc as usize] += impact;
            }
        }
        // A score of 0 is never among the best.
        for &doc in self.withheld {
            if let Some(s) = scores.get_mut(doc as usize) {
                *s = 0.0;
            }
        }
        self.best(k, scratch)
    }

    /// The `n` highest-scoring documents, best first.
    fn best(&self, n: usize, scratch: &Scratch) -> Vec<Hit> {
        let mut top: Vec<Hit> = Vec::with_capacity(n + 1);
        // A plain scan of every score beats tracking which documents were touched: the
        // scores of even a 25,000-tool catalog fit in L2.
        let mut floor = 0.0;
        // Most documents score 0 or below the floor: a chunk is first tested whole, in a
        // form the compiler turns into vector instructions.
        for (chunk_at, chunk) in scratch.scores.chunks(CHUNK).enumerate() {
            // `|`, not `||`: a branch per score would stop the vectorising.
            #[allow(clippy::needless_bitwise_bool)]
            if !chunk.iter().fold(false, |any, &s| any | (s > floor)) {
                continue;
            }
            for (i, &score) in chunk.iter().enumerate() {
                if score <= floor {
                    continue;
                }
                let doc = chunk_at * CHUNK + i;
                let hit = Hit {
                    doc: u32::try_from(doc).unwrap_or(u32::MAX),
                    score,
                };
                if top.len() == n && !self.better(hit, top[n - 1]) {
                    continue;
                }
                let at = top.partition_point(|h| self.better(*h, hit));
                top.insert(at, hit);
                top.truncate(n);
                if top.len() == n {
                    // Equal scores still compete on name, so only strictly lower ones skip.
                    floor = top[n - 1].score - f32::EPSILON * top[n - 1].score.abs();
                }
            }
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
    hashes: Vec<u64>,
    terms: Vec<usize>,
}

impl Scratch {
    fn reset(&mut self, docs: usize) {
        self.scores.clear();
        self.scores.resize(docs, 0.0);
        self.hashes.clear();
        self.terms.clear();
    }
}

/// A term's 64-bit hash, the same at build time and at run time on every target. Reads
/// eight bytes a step (a byte-at-a-time hash such as FNV-1a waits on one multiply per
/// byte) and ends with the `MurmurHash3` finaliser, so both halves are well mixed: the low
/// bits pick a slot, the high half is the fingerprint.
#[must_use]
pub fn hash(term: &str) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let bytes = term.as_bytes();
    let mut h = 0x243f_6a88_85a3_08d3 ^ bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(word)).wrapping_mul(K);
        h ^= h >> 29;
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        // Zero padding is unambiguous: the length is already in `h`.
        let mut word = [0; 8];
        word[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ h >> 33
}

/// The half of a term's hash a slot keeps: the other half picks the slot. Never 0, which
/// marks a free slot.
pub(super) fn fingerprint(h: u64) -> u32 {
    u32::try_from(h >> 32).unwrap_or(u32::MAX).max(1)
}

/// An index that owns its tables (built at run time); borrow it with [`OwnedIndex::view`].
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub struct OwnedIndex {
    /// See [`Index::slots`].
    pub slots: Vec<u8>,
    /// See [`Index::postings`].
    pub postings: Vec<u8>,
    /// See [`Index::name_rank`].
    pub name_rank: Vec<u32>,
    /// See [`Index::withheld`].
    pub withheld: Vec<u32>,
    /// See [`Index::language`].
    pub language: Language,
}

impl OwnedIndex {
    /// The borrowed form, which searches.
    #[must_use]
    pub fn view(&self) -> Index<'_> {
        Index {
            slots: &self.slots,
            postings: &self.postings,
            name_rank: &self.name_rank,
            withheld: &self.withheld,
            language: self.language,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Builder;
    use super::*;
    use alloc::string::String;

    fn index() -> OwnedIndex {
        let mut b = Builder::new(Weights::DEFAULT, Language::English);
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
    fn a_withheld_document_is_never_returned() {
        let docs = |withheld: Option<usize>| {
            let mut b = Builder::new(Weights::DEFAULT, Language::English);
            let texts = [
                "export the table to a csv file",
                "export a pdf",
                "read the table",
            ];
            for (doc, text) in texts.into_iter().enumerate() {
                b.document(text);
                b.add(Field::Description, text);
                if withheld == Some(doc) {
                    b.withhold();
                }
            }
            b.build()
        };
        let found = |index: &OwnedIndex, k| -> Vec<u32> {
            let hits = index
                .view()
                .search("export table csv", k, &mut Scratch::default());
            hits.iter().map(|h| h.doc).collect()
        };
        assert_eq!(found(&docs(None), 2), [0, 1]);
        // The best match withheld: the next two fill the top 2, and no more are found.
        let withheld = docs(Some(0));
        assert_eq!(withheld.withheld, [0]);
        assert_eq!(found(&withheld, 2), [1, 2]);
        assert_eq!(found(&withheld, 5), [1, 2]);
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
    fn no_hits_wanted_none_given() {
        assert!(
            index()
                .view()
                .search("opens", 0, &mut Scratch::default())
                .is_empty()
        );
    }

    #[test]
    fn only_the_first_terms_of_an_endless_request_count() {
        // A thousand distinct indexed words, and a request naming all of them.
        let words: Vec<String> = (0..1000).map(|i| alloc::format!("w{i}x")).collect();
        let text = words.join(" ");
        let mut b = Builder::new(Weights::DEFAULT, Language::English);
        b.document("all");
        b.add(Field::Description, &text);
        let idx = b.build();
        let mut scratch = Scratch::default();
        let hits = idx.view().search(&text, 5, &mut scratch);
        assert_eq!(hits.len(), 1);
        assert_eq!(scratch.terms.len(), MAX_QUERY_TERMS);
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
}
