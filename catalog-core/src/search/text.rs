//! Text → search terms: split identifiers, lowercase, drop stop words and numbers, stem.
//!
//! The same function reads tool text when the index is built (at compile time, or at run
//! time for a catalog read from a file) and reads every query, so both sides agree.

use alloc::string::String;

use super::stem::stem_into;

/// Calls `emit` with each term of `text`, in order.
///
/// `getCurrentTime` → `get`, `current`, `time`; `triangle_properties.get` → `triangl`,
/// `properti`, `get`; `HTTPServer` → `http`, `server`.
pub fn terms(text: &str, mut emit: impl FnMut(&str)) {
    let mut word = String::new();
    let mut stemmed = String::new();
    let mut flush = |word: &mut String| {
        if !word.is_empty() {
            if !is_stop_word(word) && !word.bytes().all(|b| b.is_ascii_digit()) {
                stemmed.clear();
                stem_into(word, &mut stemmed);
                emit(&stemmed);
            }
            word.clear();
        }
    };
    let mut prev: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_alphanumeric() {
            flush(&mut word);
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            // camelCase: a capital after a lowercase letter or digit starts a word; so does
            // the last capital of a run followed by a lowercase letter (`HTTPServer`).
            let lower_to_upper = c.is_uppercase() && (p.is_lowercase() || p.is_ascii_digit());
            let acronym_end = c.is_uppercase()
                && p.is_uppercase()
                && chars.peek().is_some_and(|n| n.is_lowercase());
            if lower_to_upper || acronym_end {
                flush(&mut word);
            }
        }
        word.extend(c.to_lowercase());
        prev = Some(c);
    }
    flush(&mut word);
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

fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
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

    #[test]
    fn identifiers_split() {
        assert_eq!(all("getCurrentTime"), ["get", "current", "time"]);
        assert_eq!(
            all("triangle_properties.get"),
            ["triangl", "properti", "get"]
        );
        assert_eq!(all("HTTPServer"), ["http", "server"]);
        assert_eq!(all("coordinate_1"), ["coordin"]);
    }

    #[test]
    fn stop_words_and_numbers_go() {
        assert_eq!(
            all("Find the area of a triangle with a base of 10 units"),
            ["find", "area", "triangl", "base", "unit"]
        );
    }

    #[test]
    fn stop_word_list_is_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    }
}
