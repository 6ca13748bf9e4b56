//! What the model reads of a window: hashed features, computed once per unit of a text and
//! merged for a pair of units, with no string built per word.
//!
//! A text's tokens are its runs of letters and digits, lower-cased (a number read as its
//! shape: `0` for digits, `0a` for a code of six bytes or more with a digit in it), and its
//! runs of other visible characters, at most three of them (`###`, `!!!`, `<|`). The
//! features: the first token (an order starts with its verb), each token, each pair of
//! neighbouring tokens, and the letter triples of each word with its edges marked (`^ig`,
//! `ign` ... `es$`), which carry a misspelled or inflected word to its neighbours.

use super::BITS;

/// A unit's features: its slots, sorted, each once; its first and last tokens' hashes,
/// which make the pair feature across a boundary.
#[derive(Default, Debug)]
pub(crate) struct Unit {
    pub slots: Vec<u32>,
    /// Its words' keys, in order: what the word vectors are looked up by.
    pub words: Vec<u32>,
    first: Option<u64>,
    last: Option<u64>,
}

/// The features of `text` read as one unit.
pub(crate) fn unit(text: &str) -> Unit {
    let mut reader = Reader::default();
    each_token(text, |chars, is_word| reader.token(chars, is_word));
    let mut unit = reader.unit;
    unit.slots.sort_unstable();
    unit.slots.dedup();
    unit
}

/// Calls `f` with each token of `text`, lower-cased, and whether it is a word.
fn each_token(text: &str, mut f: impl FnMut(&[char], bool)) {
    let mut word: Vec<char> = Vec::new();
    let mut marks: Vec<char> = Vec::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            if !marks.is_empty() {
                f(&marks, false);
                marks.clear();
            }
            word.extend(c.to_lowercase());
        } else {
            if !word.is_empty() {
                f(&word, true);
                word.clear();
            }
            if c.is_whitespace() {
                if !marks.is_empty() {
                    f(&marks, false);
                    marks.clear();
                }
            } else if marks.len() < 3 {
                marks.push(c);
            }
        }
    }
    if !word.is_empty() {
        f(&word, true);
    }
    if !marks.is_empty() {
        f(&marks, false);
    }
}

/// The features of two neighbouring units read as one window: both units' and the pair of
/// tokens across their boundary.
pub(crate) fn pair(first: &Unit, second: &Unit) -> Vec<u32> {
    let mut slots = Vec::with_capacity(first.slots.len() + second.slots.len() + 1);
    slots.extend_from_slice(&first.slots);
    slots.extend_from_slice(&second.slots);
    if let (Some(last), Some(next)) = (first.last, second.first) {
        slots.push(slot(PAIR, last, next));
    }
    slots.sort_unstable();
    slots.dedup();
    slots
}

/// The words of two neighbouring units, in order.
pub(crate) fn pair_words(first: &Unit, second: &Unit) -> Vec<u32> {
    [first.words.as_slice(), second.words.as_slice()].concat()
}

/// The words of `text` as the model reads them (lower-cased, a number as its shape), each
/// with its key.
pub(crate) fn words(text: &str) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    each_token(text, |chars, is_word| {
        if is_word {
            let written: Vec<char> =
                shape(chars).map_or_else(|| chars.to_vec(), |s| s.chars().collect());
            out.push((written.iter().collect(), key(hash(&written))));
        }
    });
    out
}

/// A word's key in the table of word vectors: the low half of its hash.
fn key(h: u64) -> u32 {
    #[allow(clippy::cast_possible_truncation)]
    let low = h as u32;
    low
}

/// The tokens of `text` as written into features, with their hashes, for naming what a
/// window weighs.
pub(crate) fn named(text: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    each_token(text, |chars, is_word| {
        let shaped = if is_word { shape(chars) } else { None };
        let written: Vec<char> = shaped.map_or_else(|| chars.to_vec(), |s| s.chars().collect());
        out.push((written.iter().collect(), hash(&written)));
    });
    out
}

const FIRST: u64 = 1;
const TOKEN: u64 = 2;
const PAIR: u64 = 3;
const TRIPLE: u64 = 4;
/// A word longer than this, in characters, gives letter triples of its start only.
const WORD_MAX: usize = 24;

#[derive(Default)]
struct Reader {
    unit: Unit,
    padded: Vec<char>,
}

impl Reader {
    /// One token: `chars` lower-cased, a word (letters and digits) or marks.
    fn token(&mut self, chars: &[char], is_word: bool) {
        // Numbers are rare: their shape is the one allocation per token.
        let shaped: Option<Vec<char>> = if is_word {
            shape(chars).map(|s| s.chars().collect())
        } else {
            None
        };
        let written = shaped.as_deref().unwrap_or(chars);
        let h = hash(written);
        let unit = &mut self.unit;
        if unit.first.is_none() {
            unit.first = Some(h);
            unit.slots.push(slot(FIRST, h, 0));
        }
        unit.slots.push(slot(TOKEN, h, 0));
        if let Some(previous) = unit.last {
            unit.slots.push(slot(PAIR, previous, h));
        }
        unit.last = Some(h);
        if is_word {
            self.unit.words.push(key(h));
            self.padded.clear();
            self.padded.push('^');
            self.padded.extend(written.iter().take(WORD_MAX).copied());
            self.padded.push('$');
            for triple in self.padded.windows(3) {
                self.unit.slots.push(slot(TRIPLE, hash(triple), 0));
            }
        }
    }
}

/// A number as what it is, not which: `0` for any run of digits, `0a` for a code of
/// letters and digits of six bytes or more (an account, an order, a token).
fn shape(word: &[char]) -> Option<&'static str> {
    if word.iter().all(char::is_ascii_digit) {
        Some("0")
    } else if word.iter().map(|c| c.len_utf8()).sum::<usize>() >= 6
        && word.iter().any(char::is_ascii_digit)
    {
        Some("0a")
    } else {
        None
    }
}

/// FNV-1a over the characters' UTF-8 bytes.
fn hash(chars: &[char]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut buf = [0u8; 4];
    for c in chars {
        for &b in c.encode_utf8(&mut buf).as_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// A feature's slot: its kind and hashes mixed (`SplitMix64`'s finaliser), the high bits.
pub(crate) fn slot(kind: u64, a: u64, b: u64) -> u32 {
    let mut x = a ^ b.rotate_left(29) ^ kind.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    #[allow(clippy::cast_possible_truncation)]
    let slot = (x >> (64 - BITS)) as u32;
    slot
}

/// The slots of a token and of a pair of tokens, by their hashes, for [`named`].
pub(crate) fn token_slot(h: u64) -> u32 {
    slot(TOKEN, h, 0)
}

pub(crate) fn pair_slot(a: u64, b: u64) -> u32 {
    slot(PAIR, a, b)
}
