//! What a window means, beyond its words: static word vectors distilled from a sentence
//! encoder (each word of the training text run alone through all-MiniLM-L6-v2, reduced to
//! [`DIM`] dimensions and weighted down by how common the word is), averaged over the
//! window and read by a small network.
//!
//! Hashed words tell the model which words it has seen; the vectors carry what it learned
//! to the words it has not: "wire the funds" lies near "transfer the money", "forward
//! every message" near "send all the mail". The encoder runs only in training; the
//! detector reads a table.

/// The dimensions of a word vector.
pub const DIM: usize = 64;
/// The network's hidden units.
pub const HIDDEN: usize = 32;

/// The word vectors: a key per word (the low half of its hash, as [`super::words`]
/// gives it), sorted, and its vector in signed bytes.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Words {
    keys: Vec<u32>,
    vectors: Vec<i8>,
    scale: f32,
}

impl Words {
    /// A table from each word's key and vector, [`DIM`] values each; a key given twice
    /// keeps its first vector.
    #[must_use]
    pub fn new(mut entries: Vec<(u32, Vec<f32>)>) -> Words {
        entries.sort_by_key(|(k, _)| *k);
        entries.dedup_by_key(|(k, _)| *k);
        let max = entries
            .iter()
            .flat_map(|(_, v)| v.iter())
            .fold(0f32, |m, x| m.max(x.abs()));
        let scale = if max > 0.0 { max / 127.0 } else { 1.0 };
        let mut words = Words {
            keys: Vec::with_capacity(entries.len()),
            vectors: Vec::with_capacity(entries.len() * DIM),
            scale,
        };
        for (key, v) in entries {
            words.keys.push(key);
            #[allow(clippy::cast_possible_truncation)]
            words.vectors.extend((0..DIM).map(|i| {
                (v.get(i).copied().unwrap_or(0.0) / scale)
                    .round()
                    .clamp(-127.0, 127.0) as i8
            }));
        }
        words
    }

    /// How many words have a vector.
    #[must_use]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no word has one.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The mean direction of the words of `keys` that have a vector, of length one; all
    /// zeros when none has.
    #[must_use]
    pub fn embed(&self, keys: &[u32]) -> [f32; DIM] {
        direction(&self.sum(keys))
    }

    /// The sum of the vectors of the words of `keys` that have one, in the table's units:
    /// a pair of sentences adds its two sentences' sums.
    pub(crate) fn sum(&self, keys: &[u32]) -> [i32; DIM] {
        let mut sum = [0i32; DIM];
        for key in keys {
            if let Ok(at) = self.keys.binary_search(key) {
                for (s, &x) in sum.iter_mut().zip(&self.vectors[at * DIM..(at + 1) * DIM]) {
                    *s += i32::from(x);
                }
            }
        }
        sum
    }

    fn encode(&self, out: &mut Vec<u8>) {
        put_u32(out, u32::try_from(self.keys.len()).unwrap_or(u32::MAX));
        out.extend_from_slice(&self.scale.to_le_bytes());
        for key in &self.keys {
            put_u32(out, *key);
        }
        out.extend(self.vectors.iter().map(|x| x.cast_unsigned()));
    }

    fn decode(bytes: &mut Bytes<'_>) -> Result<Words, String> {
        let n = bytes.u32()? as usize;
        let scale = bytes.f32()?;
        let keys = (0..n).map(|_| bytes.u32()).collect::<Result<Vec<_>, _>>()?;
        if !keys.is_sorted() {
            return Err("the word keys are not sorted".into());
        }
        let vectors = bytes
            .take(n * DIM)?
            .iter()
            .map(|b| b.cast_signed())
            .collect();
        Ok(Words {
            keys,
            vectors,
            scale,
        })
    }
}

/// The words' vectors and the network that reads their mean: one hidden layer of
/// [`HIDDEN`] rectified units and a weight for each.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Meaning {
    pub(super) words: Words,
    /// `HIDDEN` rows of `DIM` weights.
    hidden: Vec<f32>,
    hidden_bias: Vec<f32>,
    out: Vec<f32>,
}

impl Meaning {
    /// The network over `words`: `hidden` is [`HIDDEN`] rows of [`DIM`] weights.
    ///
    /// # Panics
    /// When the parts do not have those lengths.
    #[must_use]
    pub fn new(words: Words, hidden: Vec<f32>, hidden_bias: Vec<f32>, out: Vec<f32>) -> Meaning {
        assert_eq!(hidden.len(), HIDDEN * DIM, "hidden weights");
        assert_eq!(hidden_bias.len(), HIDDEN, "hidden biases");
        assert_eq!(out.len(), HIDDEN, "output weights");
        Meaning {
            words,
            hidden,
            hidden_bias,
            out,
        }
    }

    /// What the network adds to a window's logit, given its words' mean vector.
    #[must_use]
    pub fn logit(&self, v: &[f32; DIM]) -> f32 {
        if self.out.is_empty() {
            return 0.0;
        }
        let mut sum = 0.0;
        for ((row, b), w) in self
            .hidden
            .chunks_exact(DIM)
            .zip(&self.hidden_bias)
            .zip(&self.out)
        {
            let h = b + row.iter().zip(v).map(|(a, x)| a * x).sum::<f32>();
            if h > 0.0 {
                sum += w * h;
            }
        }
        sum
    }

    pub(super) fn encode(&self, out: &mut Vec<u8>) {
        self.words.encode(out);
        for x in self.hidden.iter().chain(&self.hidden_bias).chain(&self.out) {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }

    pub(super) fn decode(bytes: &mut Bytes<'_>) -> Result<Meaning, String> {
        let words = Words::decode(bytes)?;
        let mut floats = |n: usize| (0..n).map(|_| bytes.f32()).collect::<Result<Vec<_>, _>>();
        let hidden = floats(HIDDEN * DIM)?;
        let hidden_bias = floats(HIDDEN)?;
        let out = floats(HIDDEN)?;
        Ok(Meaning {
            words,
            hidden,
            hidden_bias,
            out,
        })
    }
}

/// `sum` scaled to length one; all zeros when it is.
pub(crate) fn direction(sum: &[i32; DIM]) -> [f32; DIM] {
    #[allow(clippy::cast_precision_loss)]
    let mut out = sum.map(|s| s as f32);
    let norm = out.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        for x in &mut out {
            *x /= norm;
        }
    }
    out
}

fn put_u32(out: &mut Vec<u8>, x: u32) {
    out.extend_from_slice(&x.to_le_bytes());
}

/// A reader of a weights file, failing with where it ran out.
pub(super) struct Bytes<'a>(pub &'a [u8]);

impl<'a> Bytes<'a> {
    pub(super) fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.0.len() < n {
            return Err(format!("the file ends {} bytes early", n - self.0.len()));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    pub(super) fn u32(&mut self) -> Result<u32, String> {
        let mut b = [0u8; 4];
        b.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(b))
    }

    pub(super) fn f32(&mut self) -> Result<f32, String> {
        Ok(f32::from_bits(self.u32()?))
    }
}
