//! English stemmer: the Snowball "english" algorithm (Porter2), as of Snowball 3.x.
//!
//! Search terms are stemmed so that "running", "runs" and "run" meet in one index
//! entry. The algorithm is the one published at
//! <https://snowballstem.org/algorithms/english/stemmer.html> and agrees with the
//! official vocabulary (`snowball-data/english/voc.txt` → `output.txt`) word for word.
//!
//! Snowball 3 revised the classic Porter2 description slightly, and this follows the
//! revision: R1 also starts after `emerg`, `inter`, `later`, `organ`, `past` and
//! `univers` (besides `gener`, `commun`, `arsen`); `-ogist` becomes `-og`; any
//! consonant + `ying` becomes `-ie` (the old `dying`/`lying`/`tying` exceptions,
//! generalised); `added`, `egged`, `erred` keep their double letter; `evening` joins
//! `inning`, `outing`, …. About 1 word in 750 of the official vocabulary stems
//! differently from Snowball 2 (e.g. "added": "add", not "ad").
//!
//! It runs on every query term, so it works in place on the bytes of the output
//! `String` (the caller's buffer): no regexes, no scratch allocations, no tables
//! built at run time. Every step only rewrites the end of the word, except the
//! `y` → `Y` marking, which flips case in place and is undone at the end.

use alloc::string::String;

/// Appends the stem of `word` (lowercase ASCII letters expected; other input is passed through unchanged) to `out`.
///
/// Anything other than `a`–`z` (digits, capitals, apostrophes, non-ASCII) is copied
/// as is: the tokenizer decides what a word is, and a half-stemmed identifier would
/// match nothing.
pub fn stem_into(word: &str, out: &mut String) {
    if !word.bytes().all(|c| c.is_ascii_lowercase()) {
        out.push_str(word);
        return;
    }
    if let Some(fixed) = exception(word) {
        out.push_str(fixed);
        return;
    }
    // The algorithm leaves words of one or two letters alone.
    if word.len() < 3 {
        out.push_str(word);
        return;
    }
    let base = out.len();
    out.push_str(word);
    let mut w = Word {
        s: out,
        base,
        p1: 0,
        p2: 0,
    };
    let marked_y = w.prelude();
    w.mark_regions();
    w.step_1a();
    w.step_1b();
    w.step_1c();
    w.step_2();
    w.step_3();
    w.step_4();
    w.step_5();
    if marked_y {
        // Postlude: the input was all lowercase, so lowering the whole stem only undoes `Y`.
        w.s[base..].make_ascii_lowercase();
    }
}

/// The stem as a new string; the index stems into a reused buffer instead.
#[cfg(test)]
fn stem(word: &str) -> String {
    let mut out = String::with_capacity(word.len() + 1);
    stem_into(word, &mut out);
    out
}

/// Whole words the algorithm treats specially before any step runs.
fn exception(word: &str) -> Option<&str> {
    // Cheap filter first: they are all 3 to 6 letters ending in `s`, `y` or `e`.
    if !(3..=6).contains(&word.len())
        || !matches!(word.as_bytes()[word.len() - 1], b's' | b'y' | b'e')
    {
        return None;
    }
    Some(match word {
        "skis" => "ski",
        "skies" => "sky",
        "idly" => "idl",
        "gently" => "gentl",
        "ugly" => "ugli",
        "early" => "earli",
        "only" => "onli",
        "singly" => "singl",
        "sky" | "news" | "howe" | "atlas" | "cosmos" | "bias" | "andes" => word,
        _ => return None,
    })
}

/// `<[u8]>::ends_with` without the `memcmp` call, which costs more than the
/// comparison itself for suffixes this short.
fn ends_with(word: &[u8], suffix: &[u8]) -> bool {
    word.len() >= suffix.len()
        && word[word.len() - suffix.len()..]
            .iter()
            .zip(suffix)
            .all(|(a, b)| a == b)
}

/// Vowels of the algorithm. `y` counts; a `Y` marked by the prelude does not.
const VOWEL: u8 = 1;
/// Letters that keep a consonant-vowel-consonant ending from being a short syllable
/// when they are its last letter: the vowels, `w`, `x` and a marked `Y`.
const VOWEL_WXY: u8 = 2;
/// Letters before which `-li` is dropped in step 2.
const VALID_LI: u8 = 4;

/// Letter classes by byte: a class test is one load, where a chain of compares
/// would branch, and branches on letters mispredict (the vowel test runs on
/// nearly every letter).
static CLASSES: [u8; 256] = {
    let mut table = [0; 256];
    let mut i = 0;
    while i < 6 {
        table[b"aeiouy"[i] as usize] |= VOWEL | VOWEL_WXY;
        i += 1;
    }
    let mut i = 0;
    while i < 3 {
        table[b"wxY"[i] as usize] |= VOWEL_WXY;
        i += 1;
    }
    let mut i = 0;
    while i < 10 {
        table[b"cdeghkmnrt"[i] as usize] |= VALID_LI;
        i += 1;
    }
    table
};

fn is(class: u8, c: u8) -> bool {
    CLASSES[usize::from(c)] & class != 0
}

fn is_vowel(c: u8) -> bool {
    is(VOWEL, c)
}

/// Index of the letter after the first non-vowel that follows a vowel, at or after
/// `from`; `b.len()` when there is none. This is how R1 and R2 start.
fn after_vowel_consonant(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < b.len() && !is_vowel(b[i]) {
        i += 1;
    }
    while i < b.len() && is_vowel(b[i]) {
        i += 1;
    }
    if i < b.len() { i + 1 } else { b.len() }
}

/// Whether `b` ends in a short syllable: consonant-vowel-consonant (the last one
/// not `w`, `x` or `Y`), vowel-consonant as the whole of `b`, or "past".
fn ends_short_syllable(b: &[u8]) -> bool {
    match *b {
        [.., c1, v, c2] if !is_vowel(c1) && is_vowel(v) && !is(VOWEL_WXY, c2) => true,
        [v, c] => is_vowel(v) && !is_vowel(c),
        _ => ends_with(b, b"past"),
    }
}

/// Length of the prefix after which R1 starts, whatever the usual rule says (so
/// that e.g. "generate" and "general" keep apart, and "universe"/"university" meet).
/// Each starts with a different letter, so the first letter picks the candidate.
fn r1_prefix_len(word: &[u8]) -> Option<usize> {
    let prefix: &[u8] = match word.first()? {
        b'a' => b"arsen",
        b'c' => b"commun",
        b'e' => b"emerg",
        b'g' => b"gener",
        b'i' => b"inter",
        b'l' => b"later",
        b'o' => b"organ",
        b'p' => b"past",
        b'u' => b"univers",
        _ => return None,
    };
    (word.len() >= prefix.len() && word.iter().zip(prefix).all(|(a, b)| a == b))
        .then_some(prefix.len())
}

/// What a matched suffix turns into.
#[derive(Clone, Copy)]
enum Action {
    /// Replace the suffix by this text (empty: delete it).
    To(&'static str),
    /// Step 2 `-li`: delete if preceded by a valid `li` ending.
    Li,
    /// Step 2 `-ogi`: becomes `-og` if preceded by `l`.
    Ogi,
    /// Step 3 `-ative`: delete only if also in R2.
    DelInR2,
    /// Step 4 `-ion`: delete if preceded by `s` or `t`.
    Ion,
}

/// A suffix table: for each final letter, the candidate suffixes, longest first,
/// because Snowball's `among` acts on the longest suffix that matches.
type Rules = &'static [(&'static [u8], Action)];

fn step_2_rules(last: u8) -> Rules {
    use Action::{Li, Ogi, To};
    match last {
        b'i' => &[
            (b"biliti", To("ble")),
            (b"lessli", To("less")),
            (b"entli", To("ent")),
            (b"ousli", To("ous")),
            (b"fulli", To("ful")),
            (b"aliti", To("al")),
            (b"iviti", To("ive")),
            (b"anci", To("ance")),
            (b"enci", To("ence")),
            (b"abli", To("able")),
            (b"alli", To("al")),
            (b"bli", To("ble")),
            (b"ogi", Ogi),
            (b"li", Li),
        ],
        b'l' => &[(b"ational", To("ate")), (b"tional", To("tion"))],
        b'n' => &[(b"ization", To("ize")), (b"ation", To("ate"))],
        b's' => &[
            (b"iveness", To("ive")),
            (b"fulness", To("ful")),
            (b"ousness", To("ous")),
        ],
        b'm' => &[(b"alism", To("al"))],
        b't' => &[(b"ogist", To("og"))],
        b'r' => &[(b"izer", To("ize")), (b"ator", To("ate"))],
        _ => &[],
    }
}

fn step_3_rules(last: u8) -> Rules {
    use Action::{DelInR2, To};
    match last {
        b'l' => &[
            (b"ational", To("ate")),
            (b"tional", To("tion")),
            (b"ical", To("ic")),
            (b"ful", To("")),
        ],
        b'e' => &[
            (b"icate", To("ic")),
            (b"ative", DelInR2),
            (b"alize", To("al")),
        ],
        b'i' => &[(b"iciti", To("ic"))],
        b's' => &[(b"ness", To(""))],
        _ => &[],
    }
}

fn step_4_rules(last: u8) -> Rules {
    use Action::{Ion, To};
    const DEL: Action = To("");
    match last {
        b't' => &[
            (b"ement", DEL),
            (b"ment", DEL),
            (b"ant", DEL),
            (b"ent", DEL),
        ],
        b'e' => &[
            (b"ance", DEL),
            (b"ence", DEL),
            (b"able", DEL),
            (b"ible", DEL),
            (b"ate", DEL),
            (b"ive", DEL),
            (b"ize", DEL),
        ],
        b'i' => &[(b"iti", DEL)],
        b'm' => &[(b"ism", DEL)],
        b'n' => &[(b"ion", Ion)],
        b's' => &[(b"ous", DEL)],
        b'c' => &[(b"ic", DEL)],
        b'l' => &[(b"al", DEL)],
        b'r' => &[(b"er", DEL)],
        _ => &[],
    }
}

/// The longest suffix of `b` in `rules`.
fn longest_match(b: &[u8], rules: fn(u8) -> Rules) -> Option<(usize, Action)> {
    let &last = b.last()?;
    rules(last)
        .iter()
        .find(|(suffix, _)| ends_with(b, suffix))
        .map(|&(suffix, action)| (suffix.len(), action))
}

/// The word being stemmed: the tail `s[base..]` of the caller's output buffer.
struct Word<'a> {
    s: &'a mut String,
    base: usize,
    /// Start of R1, as an index into the word.
    p1: usize,
    /// Start of R2, as an index into the word.
    p2: usize,
}

impl Word<'_> {
    fn bytes(&self) -> &[u8] {
        &self.s.as_bytes()[self.base..]
    }

    fn len(&self) -> usize {
        self.s.len() - self.base
    }

    fn truncate(&mut self, len: usize) {
        self.s.truncate(self.base + len);
    }

    /// Replaces the last `suffix_len` letters with `with`.
    fn replace_suffix(&mut self, suffix_len: usize, with: &str) {
        self.truncate(self.len() - suffix_len);
        self.s.push_str(with);
    }

    /// Marks an initial `y`, and every `y` after a vowel, as the consonant `Y`.
    /// Returns whether any was marked, so the postlude can be skipped otherwise.
    fn prelude(&mut self) -> bool {
        let mut marked = false;
        let mut from = self.base;
        // Most words have no `y`: jump from one to the next.
        while let Some(offset) = self.s.as_bytes()[from..].iter().position(|&c| c == b'y') {
            let i = from + offset;
            // Left to right, so "yy" after a vowel gives "Yy": a marked `Y` is no vowel.
            if i == self.base || is_vowel(self.s.as_bytes()[i - 1]) {
                self.s[i..=i].make_ascii_uppercase();
                marked = true;
            }
            from = i + 1;
        }
        marked
    }

    fn mark_regions(&mut self) {
        let b = self.bytes();
        let p1 = r1_prefix_len(b).unwrap_or_else(|| after_vowel_consonant(b, 0));
        self.p2 = after_vowel_consonant(b, p1);
        self.p1 = p1;
    }

    /// Plurals: `-sses`, `-ied`/`-ies`, and a lone `-s` after a syllable.
    fn step_1a(&mut self) {
        let b = self.bytes();
        let n = b.len();
        if ends_with(b, b"sses") {
            self.replace_suffix(2, "");
        } else if ends_with(b, b"ied") || ends_with(b, b"ies") {
            // "ties" → "tie" but "cries" → "cri".
            self.replace_suffix(3, if n > 4 { "i" } else { "ie" });
        } else if ends_with(b, b"ss") || ends_with(b, b"us") {
            // "caress", "bonus": not plurals.
        } else if ends_with(b, b"s") && b[..n - 2].iter().copied().any(is_vowel) {
            // The letter right before the `s` does not count: "gas", "this" stay.
            self.truncate(n - 1);
        }
    }

    /// `-eed`, `-ed`, `-ing` and their `-ly` forms, repairing the stem left behind.
    fn step_1b(&mut self) {
        enum Kind {
            Eed,
            Ing,
            Ed,
        }
        let word = self.bytes();
        let Some((suffix_len, kind)) = [
            (&b"eedly"[..], Kind::Eed),
            (b"ingly", Kind::Ed),
            (b"edly", Kind::Ed),
            (b"eed", Kind::Eed),
            (b"ing", Kind::Ing),
            (b"ed", Kind::Ed),
        ]
        .into_iter()
        .find(|(suffix, _)| ends_with(word, suffix))
        .map(|(suffix, kind)| (suffix.len(), kind)) else {
            return;
        };
        let stem = &word[..word.len() - suffix_len];
        match kind {
            Kind::Eed => {
                // "agreed" → "agree"; "succeed", "proceed", "exceed" stay whole.
                if stem.len() >= self.p1 && !matches!(stem, b"succ" | b"proc" | b"exc") {
                    self.replace_suffix(suffix_len, "ee");
                }
                return;
            }
            Kind::Ing => match stem {
                // Words that only look like verb + "ing".
                b"even" | b"cann" | b"inn" | b"earr" | b"herr" | b"out" => return,
                // "dying", "lying", "tying", "vying".
                [first, b'y'] if !is_vowel(*first) => {
                    self.replace_suffix(4, "ie");
                    return;
                }
                _ => {}
            },
            Kind::Ed => {}
        }
        if !stem.iter().copied().any(is_vowel) {
            // "bed", "sing": no syllable would be left.
            return;
        }
        let stem_len = stem.len();
        self.truncate(stem_len);
        let stem = self.bytes();
        match *stem {
            // "luxuriated" → "luxuriate", "troubled" → "trouble", "sized" → "size".
            [.., b'a', b't'] | [.., b'b', b'l'] | [.., b'i', b'z'] => self.s.push('e'),
            // "hopping" → "hop", but "added", "egged", "erred" keep their double.
            [.., prev, last]
                if prev == last
                    && matches!(
                        last,
                        b'b' | b'd' | b'f' | b'g' | b'm' | b'n' | b'p' | b'r' | b't'
                    ) =>
            {
                if !matches!(stem, [b'a' | b'e' | b'o', _, _]) {
                    self.truncate(stem_len - 1);
                }
            }
            // A short word gets its `e` back: "hoping" → "hope".
            _ => {
                if stem_len == self.p1 && ends_short_syllable(stem) {
                    self.s.push('e');
                }
            }
        }
    }

    /// Final `y`/`Y` after a consonant (not the first letter) becomes `i`: "cry" → "cri".
    fn step_1c(&mut self) {
        if let [_, .., c, b'y' | b'Y'] = *self.bytes()
            && !is_vowel(c)
        {
            self.replace_suffix(1, "i");
        }
    }

    /// Double suffixes in R1 folded to their base: "relational" → "relate".
    fn step_2(&mut self) {
        let b = self.bytes();
        let n = b.len();
        let Some((suffix_len, action)) = longest_match(b, step_2_rules) else {
            return;
        };
        let start = n - suffix_len;
        if start < self.p1 {
            return;
        }
        match action {
            Action::To(with) => self.replace_suffix(suffix_len, with),
            Action::Li => {
                if start > 0 && is(VALID_LI, b[start - 1]) {
                    self.truncate(start);
                }
            }
            Action::Ogi => {
                if start > 0 && b[start - 1] == b'l' {
                    self.replace_suffix(suffix_len, "og");
                }
            }
            Action::DelInR2 | Action::Ion => {}
        }
    }

    /// More suffixes in R1: "hopeful" → "hope", "electrical" → "electric".
    fn step_3(&mut self) {
        let b = self.bytes();
        let n = b.len();
        let Some((suffix_len, action)) = longest_match(b, step_3_rules) else {
            return;
        };
        let start = n - suffix_len;
        if start < self.p1 {
            return;
        }
        match action {
            Action::To(with) => self.replace_suffix(suffix_len, with),
            Action::DelInR2 => {
                if start >= self.p2 {
                    self.truncate(start);
                }
            }
            Action::Li | Action::Ogi | Action::Ion => {}
        }
    }

    /// Plain suffixes, deleted when in R2: "adjustment" → "adjust".
    fn step_4(&mut self) {
        let b = self.bytes();
        let n = b.len();
        let Some((suffix_len, action)) = longest_match(b, step_4_rules) else {
            return;
        };
        let start = n - suffix_len;
        if start < self.p2 {
            return;
        }
        match action {
            Action::To(_) => self.truncate(start),
            Action::Ion => {
                if start > 0 && matches!(b[start - 1], b's' | b't') {
                    self.truncate(start);
                }
            }
            Action::Li | Action::Ogi | Action::DelInR2 => {}
        }
    }

    /// A final `e`, or the second `l` of `-ll`, when far enough into the word.
    fn step_5(&mut self) {
        let b = self.bytes();
        let n = b.len();
        match *b {
            [.., b'e'] => {
                let start = n - 1;
                if start >= self.p2 || (start >= self.p1 && !ends_short_syllable(&b[..start])) {
                    self.truncate(start);
                }
            }
            [.., b'l', b'l'] if n > self.p2 => self.truncate(n - 1),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
