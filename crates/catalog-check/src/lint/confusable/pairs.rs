//! The pairs of rows close enough to compare: all those a loop over every pair would find,
//! with the same figures, without that loop.

/// An earlier row close to a later one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Close {
    /// The earlier row, by index in the compared rows.
    pub row: usize,
    /// Jaccard of the names' words.
    pub names: f64,
    /// Cosine of the descriptions.
    pub descriptions: f64,
}

impl Close {
    pub(super) fn score(&self) -> f64 {
        self.names.max(self.descriptions)
    }
}

/// Rounding may only make a bound larger: a pair is left out only when its bound is below
/// the threshold by more than this.
const MARGIN: f64 = 1e-9;

/// What `each(b, close)` gives for every row `b` with the earlier rows that reach either
/// threshold (in row order), in row order: exactly the pairs comparing every pair would
/// find, in time close to linear in the catalog, as only pairs that can reach a threshold
/// are compared. Runs of rows are looked up on the threads the caller allows (`threads`).
///
/// Every row orders its words the same way, rarest first (the fewest rows have them), and
/// earlier rows are looked up by their rarest words only.
/// - Names (`PPJoin`: Xiao, Wang, Lin and Yu): two word sets with Jaccard `t` share one of
///   each set's `len - ⌈t·len⌉ + 1` rarest words (prefix filtering), so only those are
///   indexed and probed; the first word two sets share leaves at most the words after it
///   in each to share, which bounds their Jaccard before the words are counted
///   (positional filtering).
/// - Descriptions (the all-pairs search of Bayardo, Ma and Srikant, with the L2 bounds of
///   Anastasiu and Karypis): a vector's commonest terms whose most possible share of a dot
///   product stays below the threshold are not indexed; a row probes the index with its
///   rarest terms first, and stops once its remaining terms could not reach the threshold
///   on their own. The most possible share of a set of terms is the smaller of its norm
///   (the other vector has length 1) and the sum of its weights times the largest weight
///   any vector gives each term. A row is first met through the rarest term the two
///   share, so it is left out when the norms of both rows' terms from that one on,
///   multiplied, stay below the threshold (L2AP's positional bound). A row met that way
///   is compared only when what the index summed, plus that most for each term the sum
///   left out that the row may have (a 128-bit signature of its terms says), reaches the
///   threshold.
///
/// The figures are computed as the all-pairs loop computes them, to the bit.
/// With a threshold of 0 every pair reaches it, and every pair is compared.
pub(super) fn close_pairs<R: Send>(
    names: &[Vec<u32>],
    vectors: &[Vec<(u32, f64)>],
    name_min: f64,
    description_min: f64,
    each: impl Fn(usize, &[Close]) -> Option<R> + Sync,
) -> Vec<R> {
    let n = names.len();
    if name_min <= 0.0 || description_min <= 0.0 {
        let mut close: Vec<Close> = Vec::new();
        let mut out = Vec::new();
        for b in 0..n {
            close.clear();
            close.extend((0..b).map(|a| Close {
                row: a,
                names: jaccard(&names[a], &names[b]),
                descriptions: dot(&vectors[a], &vectors[b]),
            }));
            close.retain(|c| c.names >= name_min || c.descriptions >= description_min);
            if !close.is_empty() {
                out.extend(each(b, &close));
            }
        }
        return out;
    }
    let lookup = Lookup::new(names, vectors, name_min, description_min);
    let (words, terms) = (Flat::new(names), Flat::new(vectors));
    let search = || Search {
        lookup: &lookup,
        words: &words,
        terms: &terms,
        name_min,
        description_min,
        in_name: vec![u32::MAX; lookup.terms],
        weight: vec![0.0; lookup.terms],
        seen: vec![u32::MAX; n],
        met: vec![u32::MAX; n],
        summed: vec![0.0; n],
        found: Vec::new(),
    };
    let runs = crate::threads::runs(n);
    let found = crate::threads::map_with(&runs, search, |search, run| {
        let mut close: Vec<Close> = Vec::new();
        let mut out = Vec::new();
        for row in run.clone() {
            let b = u32::try_from(row).unwrap_or(u32::MAX);
            close.clear();
            search.by_name(b, &mut close);
            search.by_description(b, &mut close);
            close.sort_unstable_by_key(|c| c.row);
            if !close.is_empty() {
                out.extend(each(row, &close));
            }
        }
        out
    });
    found.into_iter().flatten().collect()
}

/// The lookup of [`close_pairs`], and what one run keeps while it looks.
struct Search<'a> {
    lookup: &'a Lookup,
    /// One array each rather than a vector per row: millions of comparisons read them.
    words: &'a Flat<u32>,
    terms: &'a Flat<(u32, f64)>,
    name_min: f64,
    description_min: f64,
    /// The current row's words and weights, spread out by id: comparing a row is then one
    /// pass over its words.
    in_name: Vec<u32>,
    weight: Vec<f64>,
    /// Per earlier row, the last row that met it through its name, and through its
    /// description (or found it close by name), so a pair is looked at once by each.
    seen: Vec<u32>,
    met: Vec<u32>,
    /// Per earlier row met through the description, what the index summed; the rows met.
    summed: Vec<f64>,
    found: Vec<u32>,
}

impl Search<'_> {
    /// Jaccard of row `a`'s name with the current row's, `b`'s.
    fn names(&self, a: usize, b: u32) -> f64 {
        let shared = self
            .words
            .get(a)
            .iter()
            .filter(|&&t| self.in_name[t as usize] == b)
            .count();
        ratio(
            shared,
            self.words.get(a).len(),
            self.words.get(b as usize).len(),
        )
    }

    /// The cosine of row `a`'s description with the current row's, summed as `dot` sums:
    /// the shared terms in term order (adding 0 changes nothing).
    fn cosine(&self, a: usize) -> f64 {
        self.terms
            .get(a)
            .iter()
            .fold(0.0, |sum, &(t, x)| sum + x * self.weight[t as usize])
    }

    /// Adds the earlier rows whose names are close to row `b`'s, spreading its words and
    /// weights out first. Lists are in row order: the earlier rows come first.
    fn by_name(&mut self, b: u32, close: &mut Vec<Close>) {
        let row = b as usize;
        for &t in self.words.get(row) {
            self.in_name[t as usize] = b;
        }
        for &(t, y) in self.terms.get(row) {
            self.weight[t as usize] = y;
        }
        let len = self.words.get(row).len();
        for (i, &t) in self.lookup.name_keys.get(row).iter().enumerate() {
            for &(a, j) in self.lookup.name_index[t as usize]
                .iter()
                .take_while(|&&(a, _)| a < b)
            {
                let a = a as usize;
                if self.seen[a] == b {
                    continue;
                }
                self.seen[a] = b;
                let other = self.words.get(a).len();
                let most = 1 + (len - 1 - i).min(other - 1 - j as usize);
                if ratio(most, other, len) < self.name_min - MARGIN {
                    continue;
                }
                let names = self.names(a, b);
                if names >= self.name_min {
                    self.met[a] = b;
                    close.push(Close {
                        row: a,
                        names,
                        descriptions: self.cosine(a),
                    });
                }
            }
        }
    }

    /// Adds the earlier rows not close by name whose descriptions are close to row `b`'s,
    /// then clears its weights.
    fn by_description(&mut self, b: u32, close: &mut Vec<Close>) {
        let row = b as usize;
        let (lookup, min) = (&self.lookup, self.description_min);
        let probe = lookup.probes.get(row);
        self.found.clear();
        let mut probed = 0;
        for &Probe {
            t,
            y,
            remaining,
            rest,
            ..
        } in probe
        {
            if remaining < min - MARGIN {
                break;
            }
            probed += 1;
            for &(a, x, other) in lookup.description_index[t as usize]
                .iter()
                .take_while(|&&(a, _, _)| a < b)
            {
                let i = a as usize;
                if self.met[i] != b {
                    self.met[i] = b;
                    // The first term the two rows share: they share none rarer, so their
                    // dot product is at most the norms of their terms from this one on.
                    if f64::from(other) * f64::from(rest) < min - MARGIN {
                        self.summed[i] = f64::NEG_INFINITY;
                        continue;
                    }
                    self.summed[i] = 0.0;
                    self.found.push(a);
                }
                self.summed[i] += x * y;
            }
        }
        for &a in &self.found {
            let a = a as usize;
            // The terms the sum left out: those the row did not probe, and those the
            // earlier row did not index (its commonest). The probe runs rarest first, so
            // both are at its end.
            let Row { has, scale, cut } = lookup.rows[a];
            let mut most = self.summed[a];
            for (_, p) in probe
                .iter()
                .enumerate()
                .rev()
                .take_while(|&(k, p)| k >= probed || p.rank < cut)
            {
                if has & p.bit != 0 {
                    most += p.y * p.heaviest.min(scale * p.idf);
                }
            }
            if most < min - MARGIN {
                continue;
            }
            let descriptions = self.cosine(a);
            if descriptions >= min {
                close.push(Close {
                    row: a,
                    names: self.names(a, b),
                    descriptions,
                });
            }
        }
        for &(t, _) in self.terms.get(row) {
            self.weight[t as usize] = 0.0;
        }
    }
}

/// Lists of the rows, one after another in one array.
struct Flat<T> {
    starts: Vec<usize>,
    items: Vec<T>,
}

impl<T: Copy> Flat<T> {
    fn new(lists: &[Vec<T>]) -> Flat<T> {
        let mut starts = Vec::with_capacity(lists.len() + 1);
        starts.push(0);
        let mut items = Vec::with_capacity(lists.iter().map(Vec::len).sum());
        for list in lists {
            items.extend_from_slice(list);
            starts.push(items.len());
        }
        Flat { starts, items }
    }

    fn get(&self, row: usize) -> &[T] {
        &self.items[self.starts[row]..self.starts[row + 1]]
    }
}

/// A term's bit in a row's signature.
fn bit(t: u32) -> u128 {
    1 << (t.wrapping_mul(0x9E37_79B9) >> 25)
}

/// One term of a row's probe: the term, its place among all terms (commonest first), its
/// weight, the most it and the commoner terms after it can add to a dot product, and
/// their norm. The place is kept here, beside what else a probe reads, rather than looked
/// up per term for every row met.
#[derive(Clone, Copy)]
struct Probe {
    t: u32,
    rank: u32,
    y: f64,
    remaining: f64,
    rest: f32,
    /// The term's bit in a signature, its largest weight in any vector, and its IDF: what
    /// bounding each row met reads, here rather than looked up for each.
    bit: u128,
    heaviest: f64,
    idf: f64,
}

/// What [`close_pairs`] looks rows up by.
struct Lookup {
    /// How many word and term ids there are.
    terms: usize,
    /// Per row: the name words it is found by, rarest first.
    name_keys: Flat<u32>,
    /// Per name word: the rows it is a key of, in row order, with its place among the row's
    /// words, rarest first.
    name_index: Vec<Vec<(u32, u32)>>,
    /// Per row: its description's terms, rarest first (see [`Probe`]).
    probes: Flat<Probe>,
    /// Per description term: the rows that index it, in row order, with its weight there
    /// and the norm of the row's weights for it and its commoner terms.
    description_index: Vec<Vec<(u32, f64, f32)>>,
    /// Per row, what bounds its dot product with a row that meets it (see [`Row`]).
    rows: Vec<Row>,
}

/// What bounds a row's dot product with a row that meets it, in one place: millions of
/// rows met read all three, each met row at random, so one cache line holds them.
#[derive(Clone, Copy)]
struct Row {
    /// The bits of its terms.
    has: u128,
    /// The largest of its weights over its terms' IDF. A row's weight for a term is at
    /// most its IDF times this, which is close for TF-IDF vectors.
    scale: f64,
    /// The rank of the commonest term it indexes (`u32::MAX` when none).
    cut: u32,
}

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
        let mut keys = Vec::with_capacity(names.len());
        let mut name_index: Vec<Vec<(u32, u32)>> = vec![Vec::new(); terms];
        for (row, set) in (0u32..).zip(names) {
            let mut rarest = set.clone();
            rarest.sort_unstable_by_key(|&t| (in_names[t as usize], t));
            let shared = ((name_min - MARGIN) * set.len() as f64).ceil().max(1.0) as usize;
            rarest.truncate((set.len() + 1).saturating_sub(shared));
            for (place, &t) in (0u32..).zip(&rarest) {
                name_index[t as usize].push((row, place));
            }
            keys.push(rarest);
        }
        let mut order: Vec<u32> = (0..terms).map(|t| t as u32).collect();
        order.sort_unstable_by_key(|&t| (std::cmp::Reverse(in_descriptions[t as usize]), t));
        let mut rank = vec![0u32; terms];
        for (r, &t) in (0u32..).zip(&order) {
            rank[t as usize] = r;
        }
        let mut description_index: Vec<Vec<(u32, f64, f32)>> = vec![Vec::new(); terms];
        let mut probes = Vec::with_capacity(vectors.len());
        let mut rows = Vec::with_capacity(vectors.len());
        let idf: Vec<f64> = in_descriptions
            .iter()
            .map(|&df| super::idf(vectors.len(), df))
            .collect();
        for (row, v) in (0u32..).zip(vectors) {
            let mut common = v.clone();
            common.sort_unstable_by_key(|&(t, _)| rank[t as usize]);
            // Each term with the most it and the commoner ones can add: the terms left out
            // of the index, the first ones, add less than the threshold.
            let mut most = Most::default();
            let mut probe: Vec<Probe> = Vec::with_capacity(common.len());
            let mut cut = u32::MAX;
            for &(t, x) in &common {
                most = most.with(x, heaviest[t as usize]);
                let norm = most.norm();
                probe.push(Probe {
                    t,
                    rank: rank[t as usize],
                    y: x,
                    remaining: most.get(),
                    rest: norm,
                    bit: bit(t),
                    heaviest: heaviest[t as usize],
                    idf: idf[t as usize],
                });
                if most.get() >= description_min - MARGIN {
                    cut = cut.min(rank[t as usize]);
                    description_index[t as usize].push((row, x, norm));
                }
            }
            probe.reverse();
            probes.push(probe);
            // A little larger, so rounding cannot leave a bound below a weight.
            let scale = v
                .iter()
                .map(|&(t, x)| x / idf[t as usize])
                .fold(0.0, f64::max);
            rows.push(Row {
                has: v.iter().fold(0, |has, &(t, _)| has | bit(t)),
                scale: scale * (1.0 + MARGIN),
                cut,
            });
        }
        Lookup {
            terms,
            name_keys: Flat::new(&keys),
            name_index,
            probes: Flat::new(&probes),
            description_index,
            rows,
        }
    }
}

/// The most a set of a unit vector's terms can add to its dot product with another: the
/// smaller of the set's norm and the sum of its weights times the largest weight any
/// vector gives each term.
#[derive(Clone, Copy, Default)]
struct Most {
    heaviest: f64,
    squares: f64,
}

impl Most {
    fn with(self, x: f64, heaviest: f64) -> Most {
        Most {
            heaviest: self.heaviest + x * heaviest,
            squares: self.squares + x * x,
        }
    }

    fn get(self) -> f64 {
        // The norm, a little larger, so rounding cannot leave it below the true one.
        self.heaviest.min(self.squares.sqrt() * (1.0 + MARGIN))
    }

    /// The set's norm, rounded up to an `f32`, so that an index entry stays 16 bytes.
    #[allow(clippy::cast_possible_truncation)] // rounded up first, by more than `as` rounds
    fn norm(self) -> f32 {
        (self.squares.sqrt() * (1.0 + 1e-6)) as f32
    }
}

/// Shared terms over all terms of two sorted, deduplicated lists.
pub(super) fn jaccard(a: &[u32], b: &[u32]) -> f64 {
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
    ratio(shared, a.len(), b.len())
}

/// Jaccard of two sets of `a` and `b` words sharing `shared`.
#[allow(clippy::cast_precision_loss)] // word counts
fn ratio(shared: usize, a: usize, b: usize) -> f64 {
    let all = a + b - shared;
    if all == 0 {
        0.0
    } else {
        shared as f64 / all as f64
    }
}

/// The dot product of two term-sorted sparse vectors.
pub(super) fn dot(a: &[(u32, f64)], b: &[(u32, f64)]) -> f64 {
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
