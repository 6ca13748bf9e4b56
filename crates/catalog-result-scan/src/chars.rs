//! Characters a reviewer cannot see, and words whose letters come from scripts that look
//! alike.
//!
//! What hides text is read from the Unicode Character Database (through `icu_properties`),
//! not from a list of ours: every `Default_Ignorable_Code_Point` (renders as nothing, and
//! so carries text unseen: zero-width characters, variation selectors, tags, fillers, the
//! code points Unicode reserves as ignorable) and every `Bidi_Control` (reorders what is
//! shown), plus the terminal controls that rewrite a line. Such a character passes only
//! inside the sequences honest text needs: an emoji ZWJ sequence (👨‍👩‍👧), one
//! variation selector after an emoji (❤️) or an ideograph, a Mongolian free variation
//! selector after a Mongolian letter, a joiner after a virama (Hindi) or a non-joiner
//! between joining letters (Persian), and an emoji tag sequence (🏴󠁧󠁢󠁥󠁮󠁧󠁿).
//!
//! Mixed scripts follow UTS #39 (through `unicode-security`): a word is suspect when its
//! resolved script set is empty and it is not what UTS #39 calls moderately restrictive,
//! i.e. it mixes Latin with Cyrillic or Greek, or two other scripts. Japanese (Han, kana
//! and Latin), Korean (Hangul, Han and Latin: `ID를`) and any text wholly in one script
//! pass.

use icu_properties::props::{
    BidiClass, BidiControl, DefaultIgnorableCodePoint, Emoji, EmojiModifier, ExtendedPictographic,
    JoiningType, UnifiedIdeograph, VariationSelector,
};
use icu_properties::{
    CodePointMapData, CodePointMapDataBorrowed, CodePointSetData, CodePointSetDataBorrowed,
};
use unicode_script::{Script, UnicodeScript};
use unicode_security::mixed_script::AugmentedScriptSet;
use unicode_segmentation::UnicodeSegmentation;

const ZWNJ: char = '\u{200C}';
const ZWJ: char = '\u{200D}';
const BLACK_FLAG: char = '\u{1F3F4}';
const CANCEL_TAG: char = '\u{E007F}';

const IGNORABLE: CodePointSetDataBorrowed<'static> =
    CodePointSetData::new::<DefaultIgnorableCodePoint>();
const BIDI_CONTROL: CodePointSetDataBorrowed<'static> = CodePointSetData::new::<BidiControl>();
const SELECTOR: CodePointSetDataBorrowed<'static> = CodePointSetData::new::<VariationSelector>();
const EMOJI: CodePointSetDataBorrowed<'static> = CodePointSetData::new::<Emoji>();
const PICTOGRAPHIC: CodePointSetDataBorrowed<'static> =
    CodePointSetData::new::<ExtendedPictographic>();
const MODIFIER: CodePointSetDataBorrowed<'static> = CodePointSetData::new::<EmojiModifier>();
const IDEOGRAPH: CodePointSetDataBorrowed<'static> = CodePointSetData::new::<UnifiedIdeograph>();

const BIDI_CLASS: CodePointMapDataBorrowed<'static, BidiClass> = CodePointMapData::new();

fn joining(c: char) -> JoiningType {
    const MAP: CodePointMapDataBorrowed<'static, JoiningType> = CodePointMapData::new();
    MAP.get(c)
}

/// The first character of `text` that hides or rewrites what a reader sees, its name, and
/// how many such characters the text holds.
#[must_use]
pub fn hidden(text: &str) -> Option<(char, &'static str, usize)> {
    let found = hidden_at(text);
    found.first().map(|&(_, c, name)| (c, name, found.len()))
}

/// Every character of `text` that hides or rewrites what a reader sees: its byte offset,
/// the character and its name, in order.
#[must_use]
pub fn hidden_at(text: &str) -> Vec<(usize, char, &'static str)> {
    // Nearly every text is plain ASCII without controls: nothing to find.
    if text
        .bytes()
        .all(|b| b.is_ascii_graphic() || matches!(b, b' ' | b'\n' | b'\t'))
    {
        return Vec::new();
    }
    let (offsets, chars): (Vec<usize>, Vec<char>) = text.char_indices().unzip();
    // A bidi mark (LRM, RLM, ALM) sets the direction of numbers and punctuation in
    // right-to-left text, where it is honest; it only reorders, never hides, what it marks.
    let rtl = chars.iter().any(|&c| {
        !matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}')
            && matches!(
                BIDI_CLASS.get(c),
                BidiClass::RightToLeft | BidiClass::ArabicLetter
            )
    });
    (0..chars.len())
        .filter(|&i| !(rtl && matches!(chars[i], '\u{200E}' | '\u{200F}' | '\u{061C}')))
        .filter_map(|i| hides(&chars, i).map(|name| (offsets[i], chars[i], name)))
        .collect()
}

fn hides(chars: &[char], i: usize) -> Option<&'static str> {
    let c = chars[i];
    match c {
        // A carriage return of a CRLF line end is honest; alone it rewrites the line.
        '\r' if chars.get(i + 1) == Some(&'\n') => None,
        '\r' => Some("carriage return without a line feed, which rewrites the line in a terminal"),
        '\u{1B}' | '\u{9B}' => Some("escape, which starts a terminal control sequence"),
        '\u{08}' => Some("backspace, which erases what a terminal showed"),
        '\0' => Some("NUL, which ends the text where C strings are shown"),
        // Format characters outside the ignorable set that still hide their annotation.
        '\u{FFF9}'..='\u{FFFB}' => Some("interlinear annotation"),
        // Other controls (a bell, a delete) hide nothing.
        c if c.is_ascii() => None,
        c if !IGNORABLE.contains(c) && !BIDI_CONTROL.contains(c) => None,
        _ if honest(chars, i) => None,
        c => Some(name(c)),
    }
}

/// Whether the ignorable character at `i` is part of a sequence honest text needs.
fn honest(chars: &[char], i: usize) -> bool {
    let before = i.checked_sub(1).map(|j| chars[j]);
    let after = chars.get(i + 1).copied();
    match chars[i] {
        // Indic conjuncts: a joiner or non-joiner right after a virama.
        ZWJ | ZWNJ if before.is_some_and(canonical_virama) => true,
        ZWJ => emoji_before(&chars[..i]) && after.is_some_and(|a| PICTOGRAPHIC.contains(a)),
        ZWNJ => between_joining_letters(chars, i),
        '\u{E0020}'..='\u{E007F}' => in_tag_sequence(chars, i),
        c if SELECTOR.contains(c) => before.is_some_and(|b| selects(b, c)),
        _ => false,
    }
}

fn canonical_virama(c: char) -> bool {
    unicode_normalization::char::canonical_combining_class(c) == 9
}

/// Whether the text ends with an emoji, perhaps with its skin tone or presentation
/// selector: what a zero width joiner may join to the next emoji.
fn emoji_before(chars: &[char]) -> bool {
    chars
        .iter()
        .rev()
        .find(|&&c| !(MODIFIER.contains(c) || matches!(c, '\u{FE0E}' | '\u{FE0F}')))
        .is_some_and(|&c| PICTOGRAPHIC.contains(c))
}

/// A non-joiner between a letter that joins on its left and one that joins on its right,
/// marks between them aside (RFC 5892's rule, as IDNA applies it): how Persian writes
/// `می‌خواهم`.
fn between_joining_letters(chars: &[char], i: usize) -> bool {
    let left = chars[..i]
        .iter()
        .rev()
        .map(|&c| joining(c))
        .find(|&t| t != JoiningType::Transparent);
    let right = chars[i + 1..]
        .iter()
        .map(|&c| joining(c))
        .find(|&t| t != JoiningType::Transparent);
    matches!(
        left,
        Some(JoiningType::LeftJoining | JoiningType::DualJoining)
    ) && matches!(
        right,
        Some(JoiningType::RightJoining | JoiningType::DualJoining)
    )
}

/// Whether a variation selector after `base` is one honest text uses: text or emoji
/// presentation of an emoji, a glyph of an ideograph (standardized or ideographic
/// variation sequences), a form of a Mongolian letter. One selector only: `base` is never
/// a selector, so a run of them (how bytes are smuggled after an emoji) is found.
fn selects(base: char, selector: char) -> bool {
    match selector {
        '\u{FE0E}' | '\u{FE0F}' if EMOJI.contains(base) => true,
        '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' => IDEOGRAPH.contains(base),
        '\u{180B}'..='\u{180D}' | '\u{180F}' => base.script() == Script::Mongolian,
        _ => false,
    }
}

/// Whether the tag character at `i` belongs to an emoji tag sequence: 🏴, a subdivision
/// code in tag letters and digits (`gbeng`), the cancel tag. Tags anywhere else are ASCII
/// written invisibly.
fn in_tag_sequence(chars: &[char], i: usize) -> bool {
    let is_tag = |c: &char| ('\u{E0020}'..=CANCEL_TAG).contains(c);
    let start = chars[..i]
        .iter()
        .rposition(|c| !is_tag(c))
        .map_or(0, |p| p + 1);
    let end = chars[i..]
        .iter()
        .position(|c| !is_tag(c))
        .map_or(chars.len(), |p| i + p);
    let Some((last, code)) = chars[start..end].split_last() else {
        return false;
    };
    start > 0
        && chars[start - 1] == BLACK_FLAG
        && *last == CANCEL_TAG
        && (2..=7).contains(&code.len())
        && code
            .iter()
            .all(|c| matches!(c, '\u{E0030}'..='\u{E0039}' | '\u{E0061}'..='\u{E007A}'))
}

/// A character's name as the finding says it: the usual ones by name, the rest by the
/// property that found them.
fn name(c: char) -> &'static str {
    match c {
        '\u{200B}' => "zero width space",
        ZWNJ => "zero width non-joiner",
        ZWJ => "zero width joiner",
        '\u{2060}' => "word joiner",
        '\u{FEFF}' => "zero width no-break space",
        '\u{00AD}' => "soft hyphen",
        '\u{034F}' => "combining grapheme joiner",
        '\u{180E}' => "Mongolian vowel separator",
        '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' => "Hangul filler",
        '\u{E0000}'..='\u{E007F}' => "tag character",
        c if BIDI_CONTROL.contains(c) => "bidirectional control",
        c if SELECTOR.contains(c) => "variation selector",
        _ => "default-ignorable code point",
    }
}

/// The first word of `text` (as UAX #29 splits words) that mixes scripts the way UTS #39
/// calls confusable, and the scripts it mixes (`Latin and Cyrillic`).
#[must_use]
pub fn mixed_script(text: &str) -> Option<(&str, String)> {
    if text.is_ascii() {
        return None;
    }
    text.split_word_bounds().find_map(|word| {
        if word.is_ascii() || !confusable_mix(word) {
            return None;
        }
        let mut scripts: Vec<&str> = Vec::new();
        for c in word.chars().filter(|&c| !IGNORABLE.contains(c)) {
            let s = c.script();
            if !matches!(s, Script::Common | Script::Inherited | Script::Unknown)
                && !scripts.contains(&s.full_name())
            {
                scripts.push(s.full_name());
            }
        }
        let (last, rest) = scripts.split_last()?;
        (!rest.is_empty()).then(|| (word, format!("{} and {last}", rest.join(", "))))
    })
}

/// Whether a word's letters share no script (its resolved script set is empty) and the
/// mix is not one UTS #39 allows up to moderately restrictive: Latin with Han, kana or
/// Hangul, or Latin with one other recommended script that is not Cyrillic or Greek.
fn confusable_mix(word: &str) -> bool {
    // Hidden characters have findings of their own.
    let letters = || word.chars().filter(|&c| !IGNORABLE.contains(c));
    let mut all = AugmentedScriptSet::default();
    letters().for_each(|c| all.intersect_with(c.into()));
    if !all.is_empty() {
        return false;
    }
    let mut others = AugmentedScriptSet::default();
    for c in letters() {
        let set = AugmentedScriptSet::for_char(c);
        if !set.base.contains_script(Script::Latin) {
            others.intersect_with(set);
        }
    }
    if others.hanb || others.jpan || others.kore {
        return false;
    }
    let mut scripts = others.base.iter();
    match (scripts.next(), scripts.next()) {
        (Some(s), None) => !s.is_recommended() || matches!(s, Script::Cyrillic | Script::Greek),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Option<char> {
        hidden(text).map(|h| h.0)
    }

    #[test]
    fn invisible_and_bidi_characters_are_found() {
        assert_eq!(hidden("plain text, é and 中文"), None);
        assert_eq!(
            hidden("Adds\u{200B} two\u{202E} numbers"),
            Some(('\u{200B}', "zero width space", 2))
        );
        assert_eq!(hidden("tag\u{E0041}").map(|h| h.1), Some("tag character"));
        assert_eq!(
            hidden("line\r\nbreak\ttab, a bell \u{7} and a delete \u{7F}"),
            None
        );
        assert_eq!(found("safe\u{1B}[2Khidden"), Some('\u{1B}'));
        assert_eq!(found("one\rtwo"), Some('\r'));
    }

    #[test]
    fn every_default_ignorable_is_found_from_the_property() {
        // Missing from the hand list this replaced; each from the Unicode data.
        for c in [
            '\u{034F}',
            '\u{180B}',
            '\u{180C}',
            '\u{180D}',
            '\u{180E}',
            '\u{180F}',
            '\u{2065}',
            '\u{FE00}',
            '\u{FE0F}',
            '\u{E0100}',
            '\u{1D173}',
            '\u{3164}',
            '\u{E0001}',
        ] {
            assert_eq!(
                found(&format!("read{c} this")),
                Some(c),
                "U+{:04X}",
                c as u32
            );
        }
        assert_eq!(
            hidden("a\u{2065}b").map(|h| h.1),
            Some("default-ignorable code point")
        );
        assert_eq!(
            hidden("a\u{2067}b").map(|h| h.1),
            Some("bidirectional control")
        );
        assert_eq!(
            hidden("a\u{FE05}b").map(|h| h.1),
            Some("variation selector")
        );
        // Bidi_Control holds the marks too: in left-to-right text a mark hides as well...
        assert_eq!(found("x\u{061C}y"), Some('\u{061C}'));
        assert_eq!(found("price\u{200F} 12"), Some('\u{200F}'));
        // ...where right-to-left text needs it for its numbers, it is honest; an override
        // is not.
        assert_eq!(found("המחיר\u{200F} 12–15 ₪"), None);
        assert_eq!(found("السعر\u{061C} 12"), None);
        assert_eq!(found("המחיר\u{202E} 12"), Some('\u{202E}'));
    }

    #[test]
    fn emoji_sequences_pass() {
        for honest in [
            "Family: 👨\u{200D}👩\u{200D}👧",
            "Love ❤\u{FE0F} and fire ❤\u{FE0F}\u{200D}🔥",
            "Coder 👩🏽\u{200D}💻, flag 🏳\u{FE0F}\u{200D}🌈",
            "Keycap 1\u{FE0F}\u{20E3}, text style ☺\u{FE0E}",
            "England 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
            "Eye in bubble 👁\u{FE0F}\u{200D}🗨\u{FE0F}",
        ] {
            assert_eq!(hidden(honest), None, "{honest}");
        }
    }

    #[test]
    fn selectors_and_joiners_outside_their_sequences_are_found() {
        // Bytes smuggled as selectors after an emoji: the second selector is found.
        assert_eq!(found("😀\u{FE0F}\u{FE01}"), Some('\u{FE01}'));
        assert_eq!(found("😀\u{E0150}\u{E0151}"), Some('\u{E0150}'));
        // An emoji selector after a letter, a joiner between letters.
        assert_eq!(found("a\u{FE0F}"), Some('\u{FE0F}'));
        assert_eq!(found("ig\u{200D}nore"), Some('\u{200D}'));
        assert_eq!(found("👨\u{200D}x"), Some('\u{200D}'));
        // Tags that spell ASCII, not a subdivision flag.
        assert_eq!(found("🏴\u{E0049}\u{E0047}\u{E007F}"), Some('\u{E0049}'));
        assert_eq!(found("\u{E0067}\u{E0062}\u{E007F}"), Some('\u{E0067}'));
        // A Mongolian selector after a Latin letter.
        assert_eq!(found("a\u{180B}"), Some('\u{180B}'));
    }

    #[test]
    fn scripts_that_need_joiners_and_selectors_pass() {
        for honest in [
            // Persian: a non-joiner between joining letters.
            "می\u{200C}خواهم فایل\u{200C}ها را ببینم",
            // Hindi and Malayalam: joiners after a virama.
            "क्\u{200D}ष और क्\u{200C}ष",
            "ന്\u{200D}",
            // Japanese names: an ideographic variation sequence.
            "葛\u{E0100}飾区の住所",
            // Mongolian: a free variation selector after a letter.
            "ᠭ\u{180B}ᠠ",
        ] {
            assert_eq!(hidden(honest), None, "{honest}");
        }
        assert_eq!(found("a\u{200C}b"), Some('\u{200C}'));
    }

    #[test]
    fn words_mixing_look_alike_scripts_are_found() {
        // `а` and `о` below are Cyrillic, `ο` Greek.
        assert_eq!(
            mixed_script("Sends money with p\u{0430}ypal."),
            Some(("p\u{0430}ypal", "Latin and Cyrillic".to_string()))
        );
        assert_eq!(
            mixed_script("the t\u{03BF}\u{043E}l").map(|m| m.1),
            Some("Latin, Greek and Cyrillic".to_string())
        );
        assert_eq!(
            mixed_script("\u{0441}\u{03BF}py").map(|m| m.0),
            Some("\u{0441}\u{03BF}py")
        );
        // Greek mu as a unit prefix is Greek; the micro sign is no script's.
        assert_eq!(mixed_script("in \u{03BC}s").map(|m| m.0), Some("\u{03BC}s"));
        assert_eq!(mixed_script("in \u{00B5}s"), None);
        // Hidden characters are found as such, not as a script of their own.
        assert_eq!(mixed_script("a\u{180E}b \u{2065}"), None);
    }

    #[test]
    fn text_in_one_script_or_an_allowed_mix_passes() {
        for honest in [
            "Отправляет письмо получателю и возвращает его идентификатор.",
            "Επιστρέφει τον καιρό για μια πόλη.",
            "テーブルごと消すにはdropTableを使います。CSVで書き出す",
            "東京タワーの高さ、ひらがなとカタカナ",
            "要删除整个表，请使用dropTable。",
            "이벤트 ID를 받아 cancelEvent를 호출합니다.",
            "Straße, naïve café, año_vehiculo, ε₀KA/d, 4π × 10^−7",
            "API-ключ и JSON-ответ",
            "שלום עולם and مرحبا",
            "Emoji 👍🏽 and 🇯🇵",
        ] {
            assert_eq!(mixed_script(honest), None, "{honest}");
        }
    }
}
