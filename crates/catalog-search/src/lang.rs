//! The language of a catalog's words in Latin script: which stemmer and stop words search
//! uses for them. Text in Han, Hiragana, Katakana or Hangul needs neither: it is indexed
//! by character pairs in every language (see [`terms`](crate::terms)).

use alloc::string::String;

use super::{snowball, stem};

/// A catalog's language, from `[settings] language` (default `"en"`).
///
/// For the European languages it picks the Snowball stemmer and the stop words; `ja`,
/// `zh` and `ko` say what the catalog is written in, and stem its Latin-script words
/// (tool names, product and technical terms) as English, which such catalogs mix in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Language {
    /// English (`en`): Snowball English.
    #[default]
    English,
    /// German (`de`): Snowball German.
    German,
    /// French (`fr`): Snowball French.
    French,
    /// Spanish (`es`): Snowball Spanish.
    Spanish,
    /// Portuguese (`pt`): Snowball Portuguese.
    Portuguese,
    /// Italian (`it`): Snowball Italian.
    Italian,
    /// Dutch (`nl`): Snowball Dutch.
    Dutch,
    /// Japanese (`ja`): Latin-script words as English.
    Japanese,
    /// Chinese (`zh`): Latin-script words as English.
    Chinese,
    /// Korean (`ko`): Latin-script words as English.
    Korean,
}

impl Language {
    /// Every language, in the order the documentation lists them.
    pub const ALL: [Language; 10] = [
        Language::English,
        Language::German,
        Language::French,
        Language::Spanish,
        Language::Portuguese,
        Language::Italian,
        Language::Dutch,
        Language::Japanese,
        Language::Chinese,
        Language::Korean,
    ];

    /// The ISO 639-1 code a catalog writes (`"en"`).
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::German => "de",
            Language::French => "fr",
            Language::Spanish => "es",
            Language::Portuguese => "pt",
            Language::Italian => "it",
            Language::Dutch => "nl",
            Language::Japanese => "ja",
            Language::Chinese => "zh",
            Language::Korean => "ko",
        }
    }

    /// The language a code names.
    #[must_use]
    pub fn from_code(code: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.code() == code)
    }

    /// Appends the stem of `word` (lowercase) to `out`.
    pub(super) fn stem_into(self, word: &str, out: &mut String) {
        let snowball = match self {
            Language::English | Language::Japanese | Language::Chinese | Language::Korean => {
                return stem::stem_into(word, out);
            }
            Language::German => snowball::GERMAN,
            Language::French => snowball::FRENCH,
            Language::Spanish => snowball::SPANISH,
            Language::Portuguese => snowball::PORTUGUESE,
            Language::Italian => snowball::ITALIAN,
            Language::Dutch => snowball::DUTCH,
        };
        snowball::stem_into(snowball, word, out);
    }

    /// Whether `word` (lowercase) is too common in this language to tell tools apart.
    pub(super) fn is_stop_word(self, word: &str) -> bool {
        let list = match self {
            Language::English | Language::Japanese | Language::Chinese | Language::Korean => {
                return is_english_stop_word(word);
            }
            Language::German => GERMAN,
            Language::French => FRENCH,
            Language::Spanish => SPANISH,
            Language::Portuguese => PORTUGUESE,
            Language::Italian => ITALIAN,
            Language::Dutch => DUTCH,
        };
        list.binary_search(&word).is_ok()
    }
}

/// Words too common to tell tools apart (English function words and request filler).
const ENGLISH: &[&str] = &[
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

// The other languages' lists: articles, pronouns, prepositions, conjunctions, auxiliaries,
// politeness ("bitte", "svp", "por favor"), and the elided forms an apostrophe leaves
// (`l'application` → `l`, `application`), in byte order for binary search.
const GERMAN: &[&str] = &[
    "aber", "alle", "allem", "allen", "aller", "alles", "als", "also", "am", "an", "andere",
    "anderem", "anderen", "anderer", "anderes", "auch", "auf", "aus", "bei", "bin", "bis", "bist",
    "bitte", "da", "damit", "dann", "das", "dass", "dein", "deine", "dem", "den", "denn", "der",
    "des", "dessen", "dich", "die", "dies", "diese", "diesem", "diesen", "dieser", "dieses", "dir",
    "doch", "dort", "du", "durch", "ein", "eine", "einem", "einen", "einer", "eines", "er", "es",
    "etwas", "euch", "euer", "für", "gegen", "habe", "haben", "hat", "hatte", "hier", "ich", "ihm",
    "ihn", "ihnen", "ihr", "ihre", "ihrem", "ihren", "ihrer", "im", "in", "ins", "ist", "ja",
    "jede", "jedem", "jeden", "jeder", "jedes", "jetzt", "kann", "kannst", "können", "könnte",
    "man", "mein", "meine", "meinem", "meinen", "meiner", "meines", "mich", "mir", "mit", "muss",
    "nach", "nicht", "noch", "nun", "nur", "ob", "oder", "ohne", "sich", "sie", "sind", "so",
    "soll", "sollte", "um", "und", "uns", "unser", "unsere", "unter", "vom", "von", "vor", "war",
    "waren", "was", "weil", "wenn", "wer", "werden", "wie", "wieder", "wir", "wird", "wo", "würde",
    "zu", "zum", "zur", "über",
];
const FRENCH: &[&str] = &[
    "a", "ai", "as", "au", "aux", "avec", "c", "ce", "ces", "cet", "cette", "comme", "d", "dans",
    "de", "des", "du", "elle", "elles", "en", "est", "et", "eux", "il", "ils", "j", "je", "jusqu",
    "l", "la", "le", "les", "leur", "leurs", "lorsqu", "lui", "m", "ma", "mais", "me", "merci",
    "mes", "moi", "mon", "n", "ne", "nos", "notre", "nous", "on", "ou", "où", "par", "pas",
    "plait", "plaît", "pour", "puisqu", "qu", "que", "qui", "quoiqu", "s", "sa", "se", "ses",
    "son", "sont", "sur", "svp", "t", "ta", "te", "tes", "toi", "ton", "tous", "tout", "toute",
    "toutes", "tu", "un", "une", "vos", "votre", "vous", "y", "à",
];
const SPANISH: &[&str] = &[
    "a", "al", "algo", "como", "con", "cual", "cuál", "de", "del", "el", "ella", "ellas", "ellos",
    "en", "es", "esa", "esas", "ese", "eso", "esos", "esta", "estas", "este", "esto", "estos",
    "está", "favor", "hay", "la", "las", "le", "les", "lo", "los", "me", "mi", "mis", "muy", "mí",
    "nos", "o", "para", "pero", "por", "que", "qué", "se", "si", "sin", "sobre", "su", "sus", "sí",
    "te", "toda", "todas", "todo", "todos", "tu", "tus", "tú", "un", "una", "unas", "uno", "unos",
    "y", "ya", "yo", "él",
];
const PORTUGUESE: &[&str] = &[
    "a", "ao", "aos", "as", "com", "como", "da", "das", "de", "do", "dos", "e", "ela", "elas",
    "ele", "eles", "em", "essa", "essas", "esse", "esses", "esta", "estas", "este", "estes", "eu",
    "favor", "isso", "isto", "lhe", "me", "meu", "meus", "mim", "minha", "minhas", "na", "nas",
    "no", "nos", "o", "os", "ou", "para", "pela", "pelas", "pelo", "pelos", "por", "que", "se",
    "seu", "seus", "sua", "suas", "são", "também", "te", "toda", "todas", "todo", "todos", "um",
    "uma", "umas", "uns", "você", "vocês", "à", "às", "é",
];
const ITALIAN: &[&str] = &[
    "a", "ad", "agl", "agli", "ai", "al", "all", "alla", "alle", "allo", "anche", "c", "che", "ci",
    "col", "coll", "con", "d", "da", "dagl", "dagli", "dai", "dal", "dall", "dalla", "dalle",
    "dallo", "degl", "degli", "dei", "del", "dell", "della", "delle", "dello", "di", "e", "favore",
    "gl", "gli", "il", "in", "io", "l", "la", "le", "lo", "m", "ma", "mi", "ne", "negl", "negli",
    "nei", "nel", "nell", "nella", "nelle", "nello", "non", "o", "pell", "per", "più", "quell",
    "quest", "s", "se", "si", "su", "sugl", "sugli", "sui", "sul", "sull", "sulla", "sulle",
    "sullo", "t", "ti", "tu", "tutta", "tutte", "tutti", "tutto", "un", "una", "uno", "v", "è",
];
const DUTCH: &[&str] = &[
    "aan",
    "al",
    "alle",
    "als",
    "alsjeblieft",
    "alstublieft",
    "bij",
    "dan",
    "dat",
    "de",
    "der",
    "deze",
    "die",
    "dit",
    "door",
    "een",
    "en",
    "er",
    "graag",
    "hem",
    "het",
    "hij",
    "hun",
    "ik",
    "in",
    "is",
    "je",
    "jij",
    "jouw",
    "kan",
    "kun",
    "kunt",
    "maar",
    "me",
    "met",
    "mij",
    "mijn",
    "na",
    "naar",
    "niet",
    "nog",
    "of",
    "om",
    "onder",
    "ons",
    "onze",
    "ook",
    "op",
    "over",
    "te",
    "tot",
    "u",
    "uit",
    "uw",
    "van",
    "voor",
    "wat",
    "we",
    "wij",
    "wil",
    "worden",
    "wordt",
    "ze",
    "zij",
    "zijn",
    "zo",
    "zou",
];

/// A word of at most eight bytes as one integer, so the English stop-word test compares
/// integers instead of strings (it runs for every word of every query).
const fn pack(word: &[u8]) -> u64 {
    let mut key = 0u64;
    let mut i = 0;
    while i < word.len() {
        key = key << 8 | word[i] as u64;
        i += 1;
    }
    key
}

/// [`ENGLISH`] packed and sorted, built at compile time.
const ENGLISH_KEYS: [u64; ENGLISH.len()] = {
    let mut keys = [0u64; ENGLISH.len()];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = pack(ENGLISH[i].as_bytes());
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

fn is_english_stop_word(word: &str) -> bool {
    // English stop words are at most eight bytes; longer words never are.
    word.len() <= 8 && ENGLISH_KEYS.binary_search(&pack(word.as_bytes())).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stem(language: Language, word: &str) -> String {
        let mut out = String::new();
        language.stem_into(word, &mut out);
        out
    }

    #[test]
    fn codes_round_trip() {
        for l in Language::ALL {
            assert_eq!(Language::from_code(l.code()), Some(l));
        }
        assert_eq!(Language::from_code("EN"), None);
        assert_eq!(Language::default(), Language::English);
    }

    #[test]
    fn each_language_stems_its_own_words() {
        // Two forms of one word meet in one stem.
        for (language, a, b) in [
            (Language::English, "exporting", "exports"),
            (Language::German, "tabellen", "tabelle"),
            (Language::German, "löschen", "lösche"),
            (Language::French, "supprimer", "supprimez"),
            (Language::French, "tableaux", "tableau"),
            (Language::Spanish, "tablas", "tabla"),
            (Language::Spanish, "eliminar", "eliminando"),
            (Language::Portuguese, "tabelas", "tabela"),
            (Language::Italian, "tabelle", "tabella"),
            (Language::Dutch, "tabellen", "tabel"),
            (Language::Japanese, "exporting", "exports"),
        ] {
            assert_eq!(
                stem(language, a),
                stem(language, b),
                "{language:?}: {a}, {b}"
            );
        }
        // English does not stem German, nor German English.
        assert_ne!(
            stem(Language::English, "tabellen"),
            stem(Language::English, "tabelle")
        );
        assert_eq!(stem(Language::German, "exporting"), "exporting");
    }

    #[test]
    fn stop_word_lists_are_sorted_and_found() {
        assert!(ENGLISH.windows(2).all(|w| w[0] < w[1]));
        assert!(ENGLISH.iter().all(|w| w.len() <= 8));
        for (language, list) in [
            (Language::English, ENGLISH),
            (Language::German, GERMAN),
            (Language::French, FRENCH),
            (Language::Spanish, SPANISH),
            (Language::Portuguese, PORTUGUESE),
            (Language::Italian, ITALIAN),
            (Language::Dutch, DUTCH),
        ] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{language:?}");
            assert!(
                list.iter().all(|w| language.is_stop_word(w)),
                "{language:?}"
            );
            assert!(!language.is_stop_word("tabelle"), "{language:?}");
        }
        for word in ["table", "tab", "ab", "thee", "ours2", "yourselves"] {
            assert!(!is_english_stop_word(word), "{word}");
        }
        assert!(Language::Korean.is_stop_word("the"));
        assert!(Language::French.is_stop_word("où"));
        assert!(!Language::French.is_stop_word("the"));
    }

    #[test]
    fn stemmers_take_any_text_without_panicking() {
        let samples = [
            "",
            "a",
            "ß",
            "straße",
            "éé",
            "qu",
            "aeoeue",
            "ÿ",
            "日本",
            "𝔘𝔫𝔦",
            "\u{301}e",
            "nationalisation",
            "yyyyyy",
            "iiiiuuuu",
            "çà",
        ];
        for language in Language::ALL {
            for s in samples {
                let mut out = String::new();
                language.stem_into(s, &mut out);
            }
        }
    }
}
