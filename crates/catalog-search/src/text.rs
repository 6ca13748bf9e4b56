//! Text → search terms: find words, split identifiers, lowercase, drop stop words and
//! numbers, stem; Han, Hiragana, Katakana and Hangul as overlapping character pairs.
//!
//! The same function reads tool text when the index is built (at compile time, or at run
//! time for a catalog read from a file) and reads every query, so both sides agree.
//!
//! Words are UAX #29's (Unicode's word boundaries), after NFKC folding (full-width `ＣＳＶ`
//! is `CSV`, half-width `ｶﾅ` is `カナ`, `ﬁ` is `fi`). Within a word, identifier punctuation
//! (`_`, `.`, `:`, apostrophes) and camelCase split it further: `triangle_properties.get`,
//! `getCurrentTime`, `l'application`. Text written without spaces between words (Chinese,
//! Japanese; Korean attaches particles to its words) is indexed the way Lucene's CJK
//! analyzer does it without a dictionary: each run of such characters as its overlapping
//! bigrams, a run of one character as itself. A run is one script's (Han, Hiragana,
//! Katakana, Hangul), as in Elasticsearch's and Lucene's CJK analysis, where the
//! tokenizer splits at a change of script: Japanese writes a word's stem in kanji and its
//! ending and particles in hiragana, so `シートを消して` is `シート`, `を`, `消`, `して`,
//! and `消` meets `消す` (`消`, `す`) where `消し` and `消す` would not. A Katakana word
//! of four characters or more loses a trailing long-vowel mark (`フィルター` is `フィルタ`),
//! as Lucene's Japanese analyzer has it.
//!
//! ASCII text, nearly every English catalog and request, takes a path of its own that
//! needs neither table: for ASCII, UAX #29's words split at identifier punctuation are
//! exactly the runs of letters and digits, and NFKC changes nothing.

use alloc::string::String;
use alloc::vec::Vec;

use unicode_normalization::UnicodeNormalization;
use unicode_segmentation::UnicodeSegmentation;

use super::lang::Language;

/// Length of the prefix term emitted beside every longer stem.
///
/// Stemming leaves derived words apart (`convert` → `convert`, `conversion` → `convers`);
/// a shared four-letter prefix (`^conv`) brings them together, at a lower weight
/// ([`Weights::prefix`](crate::Weights::prefix)), since it also joins unrelated words.
pub const PREFIX: usize = 4;

/// What a prefix term starts with, so it never equals a stem.
pub const PREFIX_MARK: char = '^';

/// What a pair term starts with: two stems that follow each other once stop words are
/// gone (`area of a triangle` → `~area triangl`), so a phrase outranks its scattered words.
pub const PAIR_MARK: char = '~';

/// What a CJK character's own term starts with: `売上` and `売り上げ` share no bigram, but
/// share `|売` and `|上`, at [`Weights::unigram`](crate::Weights::unigram) (a
/// Hangul syllable's or a Katakana character's at a weight of its own). A run of one
/// character is also its character alone, at full weight, so `消す` finds `消去` through
/// `|消`. Hiragana gets none: alone, it is mostly particles and endings.
pub const UNIGRAM_MARK: char = '|';

/// Calls `emit` with each term of `text`, in order: each word's stem, its prefix term (for
/// stems longer than [`PREFIX`]), and the pair it makes with the previous stem; each
/// bigram of a run of CJK characters (see the module's documentation). `language` picks
/// the stemmer and stop words of words in other scripts.
///
/// `getCurrentTime` → `get`, `current`, `^curr`, `~get current`, `time`, `~current time`.
pub fn terms(text: &str, language: Language, emit: impl FnMut(&str)) {
    let mut w = Words::new(language, emit);
    if text.is_ascii() {
        ascii_words(text, &mut w);
    } else {
        unicode_words(text, &mut w);
    }
    w.flush();
    w.end_run();
}

/// The ASCII path: runs of letters and digits, split at camelCase.
fn ascii_words<F: FnMut(&str)>(text: &str, w: &mut Words<F>) {
    let bytes = text.as_bytes();
    let mut prev: Option<u8> = None;
    for (i, &c) in bytes.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            w.flush();
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            // camelCase: a capital after a lowercase letter or digit starts a word; so does
            // the last capital of a run followed by a lowercase letter (`HTTPServer`).
            let lower_to_upper =
                c.is_ascii_uppercase() && (p.is_ascii_lowercase() || p.is_ascii_digit());
            let acronym_end = c.is_ascii_uppercase()
                && p.is_ascii_uppercase()
                && bytes.get(i + 1).is_some_and(u8::is_ascii_lowercase);
            if lower_to_upper || acronym_end {
                w.flush();
            }
        }
        w.word.push(char::from(c.to_ascii_lowercase()));
        prev = Some(c);
    }
}

/// Any other text: NFKC, then UAX #29 words, each split as identifiers are and its CJK
/// characters read as bigrams.
fn unicode_words<F: FnMut(&str)>(text: &str, w: &mut Words<F>) {
    let normal: String = text.nfkc().collect();
    for segment in normal.split_word_bounds() {
        // Spaces, punctuation, symbols: the end of any word and of any CJK run.
        if !segment.chars().any(char::is_alphanumeric) {
            w.flush();
            w.end_run();
            continue;
        }
        let mut prev: Option<char> = None;
        let mut chars = segment.chars().peekable();
        while let Some(c) = chars.next() {
            if is_cjk(c) {
                w.flush();
                w.push_cjk(c);
                prev = None;
                continue;
            }
            w.end_run();
            if is_word_splitter(c) {
                w.flush();
                prev = None;
                continue;
            }
            if let Some(p) = prev {
                // camelCase, as on the ASCII path.
                let lower_to_upper = c.is_uppercase() && (p.is_lowercase() || p.is_numeric());
                let acronym_end = c.is_uppercase()
                    && p.is_uppercase()
                    && chars.peek().is_some_and(|n| n.is_lowercase());
                if lower_to_upper || acronym_end {
                    w.flush();
                }
            }
            w.word.extend(c.to_lowercase());
            prev = Some(c);
        }
        // Han and Hiragana are a UAX #29 word per character: a CJK run goes on into the
        // next segment, a word does not.
        w.flush();
    }
}

/// Characters UAX #29 keeps inside a word that still split one for search: identifier
/// punctuation (`_`, `.`, `:`, `'`, and `,`/`;` between digits) and typographic
/// apostrophes, so `l’application` gives `application` as `l'application` does. Marks,
/// joiners and other format characters inside a word stay in it.
#[must_use]
pub fn is_word_splitter(c: char) -> bool {
    !c.is_alphanumeric() && (c.is_ascii() || matches!(c, '\u{2018}' | '\u{2019}'))
}

/// Whether `c` is a letter of a script written without spaces between words (Han,
/// Hiragana, Katakana), or Hangul, whose words carry their particles attached: read as
/// bigrams. Punctuation inside these blocks (`、`, `・`) is not a letter and ends a run.
#[must_use]
pub fn is_cjk(c: char) -> bool {
    matches!(u32::from(c),
        0x1100..=0x11FF         // Hangul Jamo
        | 0x2E80..=0x2FDF       // CJK and Kangxi radicals
        | 0x3005..=0x3007       // 々 〆 〇
        | 0x3021..=0x3029       // Hangzhou numerals
        | 0x3031..=0x3035       // vertical kana repeat marks
        | 0x3038..=0x303C
        | 0x3041..=0x30FF       // Hiragana, Katakana (ー included)
        | 0x3130..=0x318F       // Hangul compatibility Jamo
        | 0x31F0..=0x31FF       // Katakana phonetic extensions
        | 0x3400..=0x4DBF       // CJK extension A
        | 0x4E00..=0x9FFF       // CJK unified ideographs
        | 0xA960..=0xA97F       // Hangul Jamo extended A
        | 0xAC00..=0xD7FF       // Hangul syllables, Jamo extended B
        | 0xF900..=0xFAFF       // CJK compatibility ideographs
        | 0x20000..=0x3FFFF     // supplementary ideographic planes
    ) && c.is_alphanumeric()
}

/// Whether `c` is Hiragana (or a vertical kana repeat mark): in Japanese, the script of
/// particles, endings and auxiliaries, around the words written in kanji and Katakana.
#[must_use]
pub fn is_hiragana(c: char) -> bool {
    matches!(u32::from(c), 0x3031..=0x3035 | 0x3041..=0x309F)
}

/// `text`, a run of characters [`is_cjk`] accepts, cut where search cuts it: at each
/// change of script (`テーブルを消して` → `テーブル`, `を`, `消`, `して`).
#[must_use]
pub fn script_runs(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut script) = (0, None);
    for (i, c) in text.char_indices() {
        let s = match (Script::of(c), script) {
            // The long-vowel mark lengthens the kana before it, in either script.
            (_, Some(k @ (Script::Hiragana | Script::Katakana))) if c == LONG_VOWEL => k,
            (s, _) => s,
        };
        if script.is_some_and(|k| k != s) {
            out.push(&text[start..i]);
            start = i;
        }
        script = Some(s);
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// The word being read and the buffers its terms are built in, reused across words.
struct Words<F> {
    language: Language,
    word: String,
    stemmed: String,
    /// The prefix mark, then the current stem's prefix.
    prefix: String,
    /// The pair mark, then the previous stem (and, while emitting, this one).
    pair: String,
    /// A CJK bigram or unigram being emitted.
    gram: String,
    /// The CJK run being read.
    run: Vec<char>,
    /// The script of that run (of the last run, while none is read).
    script: Script,
    emit: F,
}

impl<F: FnMut(&str)> Words<F> {
    fn new(language: Language, emit: F) -> Self {
        Words {
            language,
            word: String::new(),
            stemmed: String::new(),
            prefix: String::from(PREFIX_MARK),
            pair: String::from(PAIR_MARK),
            gram: String::new(),
            run: Vec::new(),
            script: Script::Han,
            emit,
        }
    }

    fn flush(&mut self) {
        if self.word.is_empty() {
            return;
        }
        if !self.language.is_stop_word(&self.word) && !self.word.chars().all(char::is_numeric) {
            self.stemmed.clear();
            self.language.stem_into(&self.word, &mut self.stemmed);
            (self.emit)(&self.stemmed);
            if self.stemmed.len() > PREFIX && self.stemmed.is_char_boundary(PREFIX) {
                self.prefix.truncate(PREFIX_MARK.len_utf8());
                self.prefix.push_str(&self.stemmed[..PREFIX]);
                (self.emit)(&self.prefix);
            }
            if self.pair.len() > PAIR_MARK.len_utf8() {
                self.pair.push(' ');
                self.pair.push_str(&self.stemmed);
                (self.emit)(&self.pair);
            }
            self.pair.truncate(PAIR_MARK.len_utf8());
            self.pair.push_str(&self.stemmed);
        }
        self.word.clear();
    }

    /// The next character of a CJK run. A run is one script's: where kanji meets kana, or
    /// Hiragana meets Katakana, one run ends and the next begins.
    fn push_cjk(&mut self, c: char) {
        let mut script = Script::of(c);
        let c = match (c, self.run.last()) {
            // An iteration mark repeats the kanji before it: `人々` is `人人`.
            ('々', Some(&p)) if self.script == Script::Han => p,
            _ => c,
        };
        // The long-vowel mark lengthens the kana before it, in either script.
        if c == LONG_VOWEL && matches!(self.script, Script::Hiragana | Script::Katakana) {
            script = self.script;
        }
        if script != self.script {
            self.end_run();
            self.script = script;
        }
        self.run.push(c);
        // Words on either side of a run are not neighbours.
        self.pair.truncate(PAIR_MARK.len_utf8());
    }

    /// The end of a CJK run: emits its bigrams, and its characters' own terms (see
    /// [`UNIGRAM_MARK`]) but for Hiragana's and the long-vowel mark's.
    fn end_run(&mut self) {
        let script = self.script;
        // `フィルター` and `フィルタ` are one word: a trailing long-vowel mark goes, in
        // words of four characters or more (as Lucene's Katakana stemmer does).
        if script != Script::Han && self.run.len() >= 4 && self.run.last() == Some(&LONG_VOWEL) {
            self.run.pop();
        }
        let run = core::mem::take(&mut self.run);
        if script == Script::Hiragana {
            for pair in run.windows(2) {
                self.emit_chars(None, pair);
            }
        } else if let [c] = run[..] {
            self.emit_chars(None, &[c]);
            self.emit_chars(Some(UNIGRAM_MARK), &[c]);
        } else {
            for (i, pair) in run.windows(2).enumerate() {
                self.emit_chars(None, pair);
                if i == 0 {
                    self.emit_chars(Some(UNIGRAM_MARK), &pair[..1]);
                }
                if pair[1] != LONG_VOWEL {
                    self.emit_chars(Some(UNIGRAM_MARK), &pair[1..]);
                }
            }
        }
        // The buffer goes back, emptied, to be reused.
        self.run = run;
        self.run.clear();
    }

    /// Emits `mark` (if any) and `chars` as one term.
    fn emit_chars(&mut self, mark: Option<char>, chars: &[char]) {
        self.gram.clear();
        self.gram.extend(mark);
        self.gram.extend(chars);
        (self.emit)(&self.gram);
    }
}

/// Katakana's long-vowel mark, `ー`.
const LONG_VOWEL: char = '\u{30FC}';

/// The script of a CJK character (see [`is_cjk`]): a run of CJK characters is one
/// script's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Script {
    /// Han (kanji, hanzi), and the iteration and closing marks `々`, `〆`, `〇`.
    Han,
    /// Hiragana, and the vertical kana repeat marks.
    Hiragana,
    /// Katakana, with its long-vowel mark `ー` (which Hiragana borrows: `すごーい`).
    Katakana,
    /// Hangul syllables and jamo.
    Hangul,
}

impl Script {
    /// The script of `c`, a character [`is_cjk`] accepts.
    pub(super) fn of(c: char) -> Script {
        match u32::from(c) {
            0x1100..=0x11FF | 0x3130..=0x318F | 0xA960..=0xA97F | 0xAC00..=0xD7FF => Script::Hangul,
            _ if is_hiragana(c) => Script::Hiragana,
            0x30A0..=0x30FF | 0x31F0..=0x31FF => Script::Katakana,
            _ => Script::Han,
        }
    }
}

#[cfg(test)]
mod tests;
