//! Text → search terms: split identifiers, lowercase, drop stop words and numbers, stem.
//!
//! The same function reads tool text when the index is built (at compile time, or at run
//! time for a catalog read from a file) and reads every query, so both sides agree.

use alloc::string::String;

use super::stem::stem_into;

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

/// Calls `emit` with each term of `text`, in order: each word's stem, its prefix term (for
/// stems longer than [`PREFIX`]), and the pair it makes with the previous stem.
///
/// `getCurrentTime` → `get`, `current`, `^curr`, `~get current`, `time`, `~current time`.
pub fn terms(text: &str, emit: impl FnMut(&str)) {
    let mut w = Words {
        word: String::new(),
        stemmed: String::new(),
        prefix: String::from(PREFIX_MARK),
        pair: String::from(PAIR_MARK),
        emit,
    };
    let bytes = text.as_bytes();
    let mut prev: Option<char> = None;
    let mut i = 0;
    while i < bytes.len() {
        // ASCII, nearly all of every catalog and request, skips UTF-8 decoding.
        let (c, len) = if bytes[i].is_ascii() {
            (char::from(bytes[i]), 1)
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            (c, c.len_utf8())
        };
        i += len;
        if !c.is_alphanumeric() {
            w.flush();
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            // camelCase: a capital after a lowercase letter or digit starts a word; so does
            // the last capital of a run followed by a lowercase letter (`HTTPServer`).
            let lower_to_upper = c.is_uppercase() && (p.is_lowercase() || p.is_ascii_digit());
            let acronym_end = c.is_uppercase()
                && p.is_uppercase()
                && text[i..].chars().next().is_some_and(char::is_lowercase);
            if lower_to_upper || acronym_end {
                w.flush();
            }
        }
        if c.is_ascii() {
            w.word.push(c.to_ascii_lowercase());
        } else {
            w.word.extend(c.to_lowercase());
        }
        prev = Some(c);
    }
    w.flush();
}

/// The word being read and the buffers its terms are built in, reused across words.
struct Words<F> {
    word: String,
    stemmed: String,
    /// The prefix mark, then the current stem's prefix.
    prefix: String,
    /// The pair mark, then the previous stem (and, while emitting, this one).
    pair: String,
    emit: F,
}

impl<F: FnMut(&str)> Words<F> {
    fn flush(&mut self) {
        if self.word.is_empty() {
            return;
        }
        if !is_stop_word(&self.word) && !self.word.bytes().all(|b| b.is_ascii_digit()) {
            self.stemmed.clear();
            stem_into(&self.word, &mut self.stemmed);
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
}

/// Words too common to tell tools apart (English function words and request filler).
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "been", "before", "being", "between", "both", "but", "by", "can", "could", "did", "do", "does",
    "doing", "during", "each", "either", "etc", "for", "from", "further", "given", "had", "has",
    "have", "having", "he", "her", "here", "hers", "him", "his", "how", "i", "if", "in", "into",
    "is", "it", "its", "itself", "just", "me", "might", "more", "most", "must", "my", "myself",
    "no", "nor", "not", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "out",
    "over", "own", "please", "same", "shall", "she", "should", "so", "some", "such", "than",
    "that", "the", "their", "theirs", "them", "then", "there", "these", "they", "this", "those",
    "through", "to", "too", "under", "until", "up", "upon", "us", "very", "via", "was", "we",
    "were", "what", "when", "where", "whether", "which", "while", "who", "whom", "whose", "why",
    "will", "with", "would", "you", "your", "yours",
];

/// A word of at most eight bytes as one integer, so the stop-word test compares integers
/// instead of strings (it runs for every word of every query).
const fn pack(word: &[u8]) -> u64 {
    let mut key = 0u64;
    let mut i = 0;
    while i < word.len() {
        key = key << 8 | word[i] as u64;
        i += 1;
    }
    key
}

/// [`STOP_WORDS`] packed and sorted, built at compile time.
const STOP_KEYS: [u64; STOP_WORDS.len()] = {
    let mut keys = [0u64; STOP_WORDS.len()];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = pack(STOP_WORDS[i].as_bytes());
        // Insertion sort: const fn has no `sort`.
        let mut j = i;
        while j > 0 && keys[j - 1] > keys[j] {
            let t = keys[j];
            keys[j] = keys[j - 1];
            keys[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
    keys
};

fn is_stop_word(word: &str) -> bool {
    // Stop words are at most eight bytes; longer words never are.
    word.len() <= 8 && STOP_KEYS.binary_search(&pack(word.as_bytes())).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn all(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        terms(text, |t| out.push(String::from(t)));
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

    #[test]
    fn stop_word_list_is_sorted_and_short() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(STOP_WORDS.iter().all(|w| w.len() <= 8));
        assert!(STOP_WORDS.iter().all(|w| is_stop_word(w)));
        for word in ["table", "tab", "ab", "thee", "ours2", "yourselves"] {
            assert!(!is_stop_word(word), "{word}");
        }
    }
}
