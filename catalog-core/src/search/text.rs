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
//! bigrams (`丸ごと削除` → `丸ご`, `ごと`, `と削`, `削除`), a run of one character as itself.
//!
//! ASCII text, nearly every English catalog and request, takes a path of its own that
//! needs neither table: for ASCII, UAX #29's words split at identifier punctuation are
//! exactly the runs of letters and digits, and NFKC changes nothing.

use alloc::string::String;

use unicode_normalization::UnicodeNormalization;
use unicode_segmentation::UnicodeSegmentation;

use super::lang::Language;

/// Length of the prefix term emitted beside every longer stem.
///
/// Stemming leaves derived words apart (`convert` → `convert`, `conversion` → `convers`);
/// a shared four-letter prefix (`^conv`) brings them together, at a lower weight
/// ([`Weights::prefix`](crate::search::Weights::prefix)), since it also joins unrelated words.
pub const PREFIX: usize = 4;

/// What a prefix term starts with, so it never equals a stem.
pub const PREFIX_MARK: char = '^';

/// What a pair term starts with: two stems that follow each other once stop words are
/// gone (`area of a triangle` → `~area triangl`), so a phrase outranks its scattered words.
pub const PAIR_MARK: char = '~';

/// What a CJK character's own term starts with, in a run of more than one (a run of one
/// is its character alone, at full weight): `売上` and `売り上げ` share no bigram, but
/// share `|売` and `|上`, at [`Weights::unigram`](crate::search::Weights::unigram).
/// Hiragana gets none: alone, it is mostly particles and endings.
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
    /// The last character of the CJK run being read, if one is.
    run: Option<char>,
    /// Characters in that run so far.
    run_len: usize,
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
            run: None,
            run_len: 0,
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

    /// The next character of a CJK run: emits the bigram it ends, and the unigrams of a
    /// run longer than one.
    fn push_cjk(&mut self, c: char) {
        if let Some(p) = self.run {
            self.gram.clear();
            self.gram.push(p);
            self.gram.push(c);
            (self.emit)(&self.gram);
            // Hiragana characters alone are mostly particles and endings (`を`, `て`),
            // in every request and every description: no unigram of their own.
            let hira = |x: char| ('\u{3041}'..='\u{309F}').contains(&x);
            self.gram.clear();
            self.gram.push(UNIGRAM_MARK);
            if self.run_len == 1 && !hira(p) {
                self.gram.push(p);
                (self.emit)(&self.gram);
                self.gram.truncate(UNIGRAM_MARK.len_utf8());
            }
            if !hira(c) {
                self.gram.push(c);
                (self.emit)(&self.gram);
            }
        }
        self.run = Some(c);
        self.run_len += 1;
        // Words on either side of a run are not neighbours.
        self.pair.truncate(PAIR_MARK.len_utf8());
    }

    /// The end of a CJK run: a run of one character is a term of its own.
    fn end_run(&mut self) {
        if let (Some(c), 1) = (self.run, self.run_len) {
            self.gram.clear();
            self.gram.push(c);
            (self.emit)(&self.gram);
        }
        self.run = None;
        self.run_len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// The terms of `text` but CJK characters' own, which [`unigrams`] shows.
    fn all(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        terms(text, Language::English, |t| {
            if !t.starts_with(UNIGRAM_MARK) {
                out.push(String::from(t));
            }
        });
        out
    }

    /// The stems alone, without prefix and pair terms.
    fn stems(text: &str) -> Vec<String> {
        all(text)
            .into_iter()
            .filter(|t| !t.starts_with(PREFIX_MARK) && !t.starts_with(PAIR_MARK))
            .collect()
    }

    #[test]
    fn identifiers_split() {
        assert_eq!(stems("getCurrentTime"), ["get", "current", "time"]);
        assert_eq!(
            stems("triangle_properties.get"),
            ["triangl", "properti", "get"]
        );
        assert_eq!(stems("HTTPServer"), ["http", "server"]);
        assert_eq!(stems("coordinate_1"), ["coordin"]);
    }

    #[test]
    fn stop_words_and_numbers_go() {
        assert_eq!(
            stems("Find the area of a triangle with a base of 10 units"),
            ["find", "area", "triangl", "base", "unit"]
        );
    }

    #[test]
    fn longer_stems_bring_a_prefix_term() {
        assert_eq!(all("conversion"), ["convers", "^conv"]);
        assert_eq!(all("convert"), ["convert", "^conv"]);
        assert_eq!(all("tab"), ["tab"]);
    }

    #[test]
    fn neighbouring_stems_make_pairs() {
        assert_eq!(
            all("area of a triangle"),
            ["area", "triangl", "^tria", "~area triangl"]
        );
    }

    #[test]
    fn unicode_words_are_lowercased_and_kept() {
        assert_eq!(stems("Año Vehículo"), ["año", "vehículo"]);
    }

    /// The terms `language` gives `text`.
    fn in_language(language: Language, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        terms(text, language, |t| {
            if !t.starts_with(UNIGRAM_MARK) {
                out.push(String::from(t));
            }
        });
        out
    }

    /// The terms of `text` through one path or the other, whatever the text.
    fn through(unicode: bool, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut w = Words::new(Language::English, |t: &str| out.push(String::from(t)));
        if unicode {
            unicode_words(text, &mut w);
        } else {
            ascii_words(text, &mut w);
        }
        w.flush();
        w.end_run();
        out
    }

    #[test]
    fn cjk_runs_become_overlapping_bigrams() {
        assert_eq!(all("丸ごと削除"), ["丸ご", "ごと", "と削", "削除"]);
        // Korean: words between spaces, each read as bigrams (particles attached).
        assert_eq!(all("테이블을 삭제"), ["테이", "이블", "블을", "삭제"]);
        // Chinese.
        assert_eq!(all("删除表格"), ["删除", "除表", "表格"]);
        // Katakana with its long-vowel mark.
        assert_eq!(all("テーブル"), ["テー", "ーブ", "ブル"]);
    }

    #[test]
    fn unigrams() {
        let mut out = Vec::new();
        terms("売上 表", Language::English, |t| {
            out.push(String::from(t));
        });
        assert_eq!(out, ["売上", "|売", "|上", "表"]);
        out.clear();
        terms("売り上げ", Language::English, |t| {
            out.push(String::from(t));
        });
        assert_eq!(out, ["売り", "|売", "り上", "|上", "上げ"]);
    }

    #[test]
    fn a_cjk_run_of_one_character_is_a_term() {
        assert_eq!(all("表"), ["表"]);
        assert_eq!(all("表、図。"), ["表", "図"]);
        assert_eq!(all("表 data"), ["表", "data"]);
    }

    #[test]
    fn punctuation_and_other_scripts_end_a_run() {
        // `、` and `・` are punctuation inside the CJK blocks.
        assert_eq!(all("売上、月"), ["売上", "月"]);
        assert_eq!(
            all("データ・テーブル"),
            ["デー", "ータ", "テー", "ーブ", "ブル"]
        );
        assert_eq!(
            all("CSVファイルに出力"),
            ["csv", "ファ", "ァイ", "イル", "ルに", "に出", "出力"]
        );
    }

    #[test]
    fn words_on_either_side_of_a_run_make_no_pair() {
        let t = all("export ファイル data");
        assert!(t.iter().all(|t| !t.starts_with(PAIR_MARK)), "{t:?}");
        assert_eq!(
            all("export data"),
            ["export", "^expo", "data", "~export data"]
        );
    }

    #[test]
    fn full_and_half_width_forms_fold() {
        assert_eq!(all("ＣＳＶ"), all("CSV"));
        assert_eq!(all("ＣＳＶファイル"), all("CSVファイル"));
        assert_eq!(all("ｶﾀｶﾅ"), all("カタカナ"));
        assert_eq!(all("ﬁle"), all("file"));
        assert_eq!(all("２０２４年"), ["年"]);
    }

    #[test]
    fn unicode_word_boundaries() {
        // A virama is a mark, not a letter: UAX #29 keeps it inside the word.
        assert_eq!(all("नमस्ते दुनिया").len(), 3, "two words and their pair");
        // Apostrophes split elisions, typographic or not.
        assert_eq!(
            in_language(Language::French, "l’application"),
            in_language(Language::French, "l'application")
        );
        assert_eq!(
            in_language(Language::French, "l'application"),
            ["appliqu", "^appl"]
        );
        // Identifiers split in any script.
        assert_eq!(stems("año_vehículo"), ["año", "vehículo"]);
        assert_eq!(stems("größeÄndern"), ["größe", "ändern"]);
        // Emoji and symbols are no words.
        assert_eq!(stems("🚀 launch ✓"), ["launch"]);
    }

    #[test]
    fn ascii_text_reads_the_same_on_either_path() {
        for text in [
            "getCurrentTime",
            "triangle_properties.get",
            "HTTPServer and XMLHttpRequest2Go",
            "Find the area of a triangle with a base of 10 units",
            "don't e.g. 3.14, 1,000; key:value user@example.com a-b/c",
            "  trailing  ",
            "",
            "ABC",
            "a1B2c3",
            "x__y..z",
        ] {
            assert_eq!(through(false, text), through(true, text), "{text:?}");
        }
    }

    #[test]
    fn each_language_stems_and_drops_its_stop_words() {
        let stems_in = |language, text| -> Vec<String> {
            in_language(language, text)
                .into_iter()
                .filter(|t| !t.starts_with(PREFIX_MARK) && !t.starts_with(PAIR_MARK))
                .collect()
        };
        for (language, a, b) in [
            (
                Language::German,
                "Lösche bitte die Tabellen",
                "löschen Tabelle",
            ),
            (
                Language::French,
                "Supprimez les tableaux",
                "supprimer tableau",
            ),
            (
                Language::Spanish,
                "Elimina las tablas, por favor",
                "eliminar tabla",
            ),
            (Language::Portuguese, "Exclua as tabelas", "excluir tabela"),
            (
                Language::Italian,
                "Elimina tutte le tabelle",
                "eliminare tabella",
            ),
            (
                Language::Dutch,
                "Verwijder de tabellen",
                "verwijderen tabel",
            ),
        ] {
            assert_eq!(stems_in(language, a), stems_in(language, b), "{language:?}");
            assert_eq!(stems_in(language, a).len(), 2, "{language:?}: {a}");
        }
    }

    #[test]
    fn mixed_text_stems_latin_words_in_the_catalog_language() {
        // English names beside Japanese descriptions.
        assert_eq!(
            in_language(Language::Japanese, "exportRows: 行をエクスポート"),
            [
                "export",
                "^expo",
                "row",
                "~export row",
                "行を",
                "をエ",
                "エク",
                "クス",
                "スポ",
                "ポー",
                "ート"
            ]
        );
    }

    #[test]
    fn any_text_gives_terms_without_panicking() {
        // A cheap generator over every plane, surrogates skipped.
        let mut x: u32 = 0x1234_5678;
        for _ in 0..2000 {
            let mut text = String::new();
            for _ in 0..12 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                if let Some(c) = char::from_u32(x % 0x11_0000) {
                    text.push(c);
                }
                text.push(char::from(b"aZ _.'"[(x % 6) as usize]));
            }
            for language in Language::ALL {
                terms(&text, language, |t| assert!(!t.is_empty()));
            }
        }
    }
}
