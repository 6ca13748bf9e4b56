//! Orders to the model inside a tool's result. A result is data, and honest data talks
//! about orders too (an advisory quotes a payload, a page is titled "Ignore Previous
//! Prompt"), so beyond the lint's fixed phrases ([`orders`](crate::orders)) this reads
//! what an injection does, in any of the languages attacks are written in:
//! - **overrides**: a verb that drops the model's instructions (`ignore`, `disregard`,
//!   `forget`, `oublie`, `ignoriere`, `无视`, `무시`...) with, a few words on, what it
//!   drops (`previous`, `instructions`, `précédentes`, `指示`...), a word of eight letters
//!   or more counting with one typing slip (`iunstructions`);
//! - **concealment**: keeping something from the user (`don't tell the user`, `without
//!   asking the user`, `ユーザーに言わない`...);
//! - **address**: the text speaks to the model (`AI agents:`, `Assistant:` opening a line,
//!   `If you are an AI`, `to you, GPT-4`, `AIアシスタントへ`) or labels a system role's
//!   turn as a template does (`(system_message)`, `[system prompt]`);
//! - **turn markers**: the end of a tool's output or a chat template's tokens
//!   (`</tool_result>`, `<|im_start|>`), which fake a new turn;
//! - the lint's phrases, where a credential path counts only in a sentence that moves
//!   data, and phrases honest text uses too (`you are now`, `never reveal`, `<important>`)
//!   only beside a word that addresses a model.
//!
//! None counts where the text only mentions it: in code, in a short quotation, after
//! "such as", "payload", "attackers"... in its sentence, or written as a title (each word
//! capitalised).

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::OnceLock;

use crate::orders::{self, Folded};

mod labels;

/// The first order `text` gives the model, as written.
pub(crate) fn order(text: &str) -> Option<String> {
    order_in(text, false)
}

/// The first order in text that was hidden (spelled in tag characters): there, every
/// phrase of the lint counts, an address or not.
pub(crate) fn hidden_order(text: &str) -> Option<String> {
    order_in(text, true)
}

fn order_in(text: &str, hidden: bool) -> Option<String> {
    // A first look without the source of each byte: nearly every text has nothing.
    let plain = orders::folded(text);
    if !orders::any_order(&plain)
        && patterns(&plain).is_empty()
        && addresses(text).is_empty()
        && closed_outputs(text).is_empty()
    {
        return None;
    }
    let folded = Folded::new(text);
    let mut candidates: Vec<Range<usize>> = Vec::new();
    for (range, phrase) in orders::each_order(text) {
        let sentence = sentence_around(text, range.clone());
        // An override counts with what it drops (`ignore the previous instructions`, not
        // `ignore the previous warning`): the verb and object rule finds those.
        let counts = if ["ignore", "disregard", "forget", "override"]
            .iter()
            .any(|verb| phrase.starts_with(verb))
        {
            false
        } else if orders::LOCATIONS.contains(&phrase) {
            let lower = sentence.to_lowercase();
            MOVES.iter().any(|m| lower.contains(m))
        } else if phrase == "system prompt" {
            // Pages about language models name it all the time.
            false
        } else if orders::MENTIONS.contains(&phrase) {
            hidden || addresses_a_model(sentence) || fake_turn(text)
        } else {
            true
        };
        if counts {
            candidates.push(range);
        }
    }
    candidates.extend(
        patterns(&folded.text)
            .into_iter()
            .map(|r| folded.start[r.start]..folded.end[r.end - 1]),
    );
    candidates.extend(addresses(text));
    candidates.extend(closed_outputs(text));
    candidates.sort_by_key(|r| r.start);
    candidates
        .into_iter()
        .find(|range| !mentioned(text, range.clone()))
        .map(|range| text[range].to_string())
}

/// Words of a sentence that moves data somewhere.
const MOVES: &[&str] = &[
    "send",
    "upload",
    "post ",
    "include",
    "attach",
    "paste",
    "pass ",
    "forward",
    "exfiltrat",
    "leak",
    "share",
    "copy",
    "append",
    "email",
    "transmit",
    "curl",
];

/// Words that name the reader as a model.
const MODEL_WORDS: &[&str] = &[
    "ai",
    "assistant",
    "assistants",
    "agent",
    "agents",
    "llm",
    "llms",
    "model",
    "chatbot",
    "claude",
    "gpt",
    "chatgpt",
    "gemini",
    "copilot",
];

fn addresses_a_model(sentence: &str) -> bool {
    sentence
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| MODEL_WORDS.contains(&w.to_lowercase().as_str()))
}

/// Verbs that drop the model's instructions, and what they drop, folded as the text is.
const OVERRIDE_VERBS: &[&str] = &[
    "ignore",
    "ignoring",
    "disregard",
    "forget",
    "override",
    "bypass",
    "ignora",
    "ignorar",
    "ignorez",
    "ignoriere",
    "ignorieren",
    "vergiss",
    "vergessen",
    "oublie",
    "oubliez",
    "olvida",
    "olvide",
    "esqueça",
    "esqueca",
    "игнорируй",
    "игнорируйте",
    "забудь",
    "забудьте",
];
const OVERRIDE_OBJECTS: &[&str] = &[
    "instructions",
    "instruction",
    "rules",
    "guidelines",
    "directives",
    "directions",
    "prompt",
    "prompts",
    "commands",
    "consignes",
    "instrucciones",
    "instruções",
    "instrucoes",
    "anweisungen",
    "richtlinien",
    "инструкции",
    "указания",
];
/// Words that end a clause: an override reaches no further.
const CLAUSE_WORDS: usize = 5;

/// Concealment from the user, as word sequences (`*` stands for up to three words).
const CONCEAL: &[&[&str]] = &[
    &["don", "t", "*", "tell", "*", "user"],
    &["do", "not", "*", "tell", "*", "user"],
    &["don", "t", "*", "inform", "*", "user"],
    &["do", "not", "*", "inform", "*", "user"],
    &["never", "tell", "*", "user"],
    &["without", "telling", "*", "user"],
    &["without", "informing", "*", "user"],
    &["without", "asking", "*", "user"],
    &["without", "notifying", "*", "user"],
    &["ne", "le", "dis", "pas"],
    &["ne", "le", "dites", "pas"],
    &["no", "se", "lo", "digas"],
    &["sag", "es", "*", "nicht"],
];

/// Orders in scripts written without spaces: an override's verb and what it drops, within
/// a few characters; concealment; an address.
const CJK_OVERRIDES: &[(&str, &[&str])] = &[
    ("無視", &["指示", "命令", "ルール"]),
    ("无视", &["指示", "指令", "命令"]),
    ("忽略", &["指示", "指令", "以上", "之前", "先前", "命令"]),
    ("무시", &["지시", "명령", "지침"]),
];
const CJK_PHRASES: &[&str] = &[
    "ユーザーに言わない",
    "ユーザーには言わない",
    "ユーザーに伝えない",
    "ユーザーに知らせない",
    "不要告诉用户",
    "不要让用户知道",
    "사용자에게 알리지",
    "사용자에게 말하지",
];

/// The end of a tool's output, or a chat template's tokens: a new turn, faked.
const TURN_MARKERS: &[&str] = &[
    "</tool_result>",
    "</tool_output>",
    "</function_results>",
    "</function_result>",
    "<|im_start|>",
    "<|im_end|>",
    "<|eot_id|>",
    "<|start_header_id|>",
    "<|system|>",
    "<|user|>",
    "<|assistant|>",
    "[/inst]",
    "<start_of_turn>",
    "<end_of_turn>",
    "<<sys>>",
    "[inst]",
];

/// Where folded text holds an override, a concealment or a turn marker, as ranges of it.
fn patterns(folded: &str) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let words = words(folded);
    let table = tables();
    for (i, &(start, end)) in words.iter().enumerate() {
        let word = &folded[start..end];
        if table.starts[usize::from(word.as_bytes()[0])] & (1 << word.len().min(63)) == 0 {
            continue;
        }
        if table.verbs.contains(word)
            && let Some(&(_, object_end)) =
                words[i + 1..].iter().take(CLAUSE_WORDS).find(|&&(s, e)| {
                    let word = &folded[s..e];
                    table.objects.contains(word)
                        || table.objects.iter().any(|o| labels::one_slip(word, o))
                })
        {
            found.push(start..object_end);
        }
        for pattern in table.conceal.get(word).into_iter().flatten() {
            if let Some(last) = sequence(folded, &words[i..], pattern) {
                found.push(start..last);
            }
        }
    }
    // One pass over the text for every phrase at once: nearly every text holds none.
    if !table.any_phrase.is_match(folded) {
        return found;
    }
    for (verb, objects) in &table.cjk_overrides {
        for at in verb.find_iter(folded) {
            let verb = verb.text();
            let window: String = folded[at + verb.len()..].chars().take(12).collect();
            let before: String = folded[..at]
                .chars()
                .rev()
                .take(12)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            if objects
                .iter()
                .any(|o| window.contains(o.as_str()) || before.contains(o.as_str()))
            {
                found.push(at..at + verb.len());
            }
        }
    }
    for phrase in table.cjk_phrases.iter().chain(&table.turn_markers) {
        for at in phrase.find_iter(folded) {
            found.push(at..at + phrase.text().len());
        }
    }
    found
}

/// Where the text speaks to a model: `AI agents:`, `Assistant:` or `Note to AI` opening a
/// clause, `if you are an AI`, `AIアシスタントへ`.
fn addresses(text: &str) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let lower = text.to_lowercase();
    // `to_lowercase` keeps offsets for what is looked at here: ASCII words and kana.
    if lower.len() != text.len() {
        return found;
    }
    for clause_start in std::iter::once(0).chain(
        lower
            .match_indices(['\n', '.', '!', '?', '(', '-', '>'])
            .map(|(i, s)| i + s.len()),
    ) {
        let rest = &lower[clause_start..];
        // Bidi controls and zero-width characters open a clause unseen.
        let trimmed = rest.trim_start_matches(|c: char| {
            c.is_whitespace() || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
        });
        // Every prefix and model word below starts with a letter: a clause that does not
        // (a date's `-03`, a number) addresses nobody.
        if !trimmed.starts_with(|c: char| c.is_ascii_lowercase()) {
            continue;
        }
        let at = clause_start + (rest.len() - trimmed.len());
        for prefix in [
            "note to the ",
            "note to any ",
            "note to ",
            "dear ",
            "attention ",
            "to the ",
            "to any ",
            "hey ",
        ] {
            if let Some(after) = trimmed.strip_prefix(prefix)
                && starts_with_model_word(after)
            {
                found.push(at..at + prefix.len());
            }
        }
        let head: String = trimmed
            .chars()
            .take_while(|c| *c != ':' && *c != ',' && *c != '\n')
            .collect();
        let delimited = trimmed[head.len()..].starts_with([':', ',']);
        let head_words: Vec<&str> = head.split_whitespace().collect();
        // `Agent:` alone labels a person in a support chat; a model is named as one.
        if delimited
            && (1..=3).contains(&head_words.len())
            && head_words
                .iter()
                .all(|w| MODEL_WORDS.contains(w) || *w == "dear")
            && head_words
                .iter()
                .any(|w| !matches!(*w, "agent" | "agents" | "model" | "dear"))
        {
            found.push(at..at + head.len() + 1);
        }
    }
    found.extend(labels::system_labels(&lower));
    found.extend(labels::vocatives(&lower));
    for phrase in questions() {
        for at in phrase.find_iter(&lower) {
            found.push(at..at + phrase.text().len());
        }
    }
    for (at, _) in text.match_indices("AI") {
        let after: String = text[at + 2..].chars().take(8).collect();
        if after.contains('へ') || after.contains("에게") {
            found.push(at..at + 2);
        }
    }
    found
}

/// Questions that address the model, lowercase.
fn questions() -> &'static [Phrase; 4] {
    static QUESTIONS: OnceLock<[Phrase; 4]> = OnceLock::new();
    QUESTIONS.get_or_init(|| {
        [
            "if you are an ai",
            "if you're an ai",
            "if you are a language model",
            "if you are an llm",
        ]
        .map(Phrase::new)
    })
}

/// Whether the text fakes a new turn: a chat template's token, or the end of a tool's
/// output followed by what a conversation's roles write.
fn fake_turn(text: &str) -> bool {
    let lower = text.to_lowercase();
    TURN_MARKERS.iter().any(|m| lower.contains(m)) || !closed_outputs(text).is_empty()
}

/// Closing tags of a tool's output (`</search_results>`, `</tool_output>`) that a role's
/// tag or label follows (`<system>`, `User:`): the result pretends to end, and a new turn
/// to begin.
fn closed_outputs(text: &str) -> Vec<Range<usize>> {
    let lower = text.to_lowercase();
    if lower.len() != text.len() {
        return Vec::new();
    }
    lower
        .match_indices("</")
        .filter_map(|(at, _)| {
            let name_end = lower[at + 2..].find('>')? + at + 2;
            let name = &lower[at + 2..name_end];
            let output = name.len() <= 40
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                && ["result", "output", "tool", "function", "response"]
                    .iter()
                    .any(|w| name.contains(w));
            let after = &lower[name_end..];
            let role = [
                "<system",
                "<user",
                "<assistant",
                "<instructions",
                "system:",
                "user:",
                "assistant:",
                "human:",
            ]
            .iter()
            .any(|r| after.contains(r));
            (output && role).then_some(at..name_end + 1)
        })
        .collect()
}

fn starts_with_model_word(text: &str) -> bool {
    let word: String = text.chars().take_while(|c| c.is_alphanumeric()).collect();
    MODEL_WORDS.contains(&word.as_str())
}

/// The words of folded text, as byte ranges: runs of letters and digits.
fn words(text: &str) -> Vec<(usize, usize)> {
    let mut words = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                words.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        words.push((s, text.len()));
    }
    words
}

/// Whether `words` start with `pattern` (`*` skipping up to three words); where the last
/// word matched ends.
fn sequence(text: &str, words: &[(usize, usize)], pattern: &[String]) -> Option<usize> {
    let (first, rest) = pattern.split_first()?;
    let &(s, e) = words.first()?;
    if &text[s..e] != first {
        return None;
    }
    let mut at = 1;
    let mut end = e;
    let mut skip = false;
    for part in rest {
        if part == "*" {
            skip = true;
            continue;
        }
        let reach = if skip { 4 } else { 1 };
        let found = words
            .get(at..(at + reach).min(words.len()))?
            .iter()
            .position(|&(s, e)| &text[s..e] == part)?;
        at += found + 1;
        end = words[at - 1].1;
        skip = false;
    }
    Some(end)
}

/// The pattern words folded as the text is (the confusable skeleton changes some: `rn`
/// reads as `m`), once.
struct Tables {
    verbs: HashSet<String>,
    objects: HashSet<String>,
    /// By their first word.
    conceal: HashMap<String, Vec<Vec<String>>>,
    /// For each first byte, the lengths (up to 63) of the verbs and first words that start
    /// with it: most words of a text are ruled out without hashing them.
    starts: [u64; 256],
    cjk_overrides: Vec<(Phrase, Vec<String>)>,
    cjk_phrases: Vec<Phrase>,
    turn_markers: Vec<Phrase>,
    /// Whether a text holds any of the three above.
    any_phrase: aho_corasick::AhoCorasick,
}

/// A literal phrase with its searcher, built once: `str::match_indices` builds one for
/// every text, which costs more than the search on the short texts most results are.
struct Phrase(memchr::memmem::Finder<'static>);

impl Phrase {
    fn new(text: &str) -> Phrase {
        Phrase(memchr::memmem::Finder::new(text).into_owned())
    }

    fn text(&self) -> &str {
        // Built from a `&str` in `new`.
        std::str::from_utf8(self.0.needle()).unwrap_or_default()
    }

    /// Where the phrase starts in `text`, matches not overlapping, as `match_indices`.
    fn find_iter<'t>(&'t self, text: &'t str) -> impl Iterator<Item = usize> + 't {
        self.0.find_iter(text.as_bytes())
    }
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    let fold = |s: &str| {
        if s == "*" {
            s.to_string()
        } else {
            Folded::new(s).text
        }
    };
    TABLES.get_or_init(|| {
        let cjk_overrides: Vec<(Phrase, Vec<String>)> = CJK_OVERRIDES
            .iter()
            .map(|(v, o)| (Phrase::new(&fold(v)), o.iter().map(|s| fold(s)).collect()))
            .collect();
        let cjk_phrases: Vec<Phrase> = CJK_PHRASES.iter().map(|s| Phrase::new(&fold(s))).collect();
        let turn_markers: Vec<Phrase> =
            TURN_MARKERS.iter().map(|s| Phrase::new(&fold(s))).collect();
        let any_phrase = aho_corasick::AhoCorasick::new(
            cjk_overrides
                .iter()
                .map(|(verb, _)| verb)
                .chain(&cjk_phrases)
                .chain(&turn_markers)
                .map(Phrase::text),
        )
        .expect("a few hundred short phrases make an automaton");
        Tables {
            verbs: OVERRIDE_VERBS.iter().map(|s| fold(s)).collect(),
            objects: OVERRIDE_OBJECTS.iter().map(|s| fold(s)).collect(),
            conceal: CONCEAL.iter().fold(HashMap::new(), |mut by_first, p| {
                let pattern: Vec<String> = p.iter().map(|s| fold(s)).collect();
                by_first
                    .entry(pattern[0].clone())
                    .or_insert_with(Vec::new)
                    .push(pattern);
                by_first
            }),
            cjk_overrides,
            starts: OVERRIDE_VERBS
                .iter()
                .chain(CONCEAL.iter().map(|p| &p[0]))
                .fold([0; 256], |mut starts, word| {
                    let word = fold(word);
                    starts[usize::from(word.as_bytes()[0])] |= 1 << word.len().min(63);
                    starts
                }),
            cjk_phrases,
            turn_markers,
            any_phrase,
        }
    })
}

/// Words before an order, in its sentence, that show the text talks about the order
/// rather than gives it: an advisory, an explainer, a filter's documentation.
const DISCUSSION: &[&str] = &[
    "such as",
    "e.g",
    "for example",
    "for instance",
    "phrase",
    "payload",
    "string",
    "instructs",
    "instructed",
    "instructing",
    "tell the model",
    "tells the model",
    "tell models",
    "attacker",
    "adversar",
    "inject",
    "malicious",
    "known as",
    "so-called",
    "detect",
];

/// Whether the order at `range` is only mentioned: in code, in a short quotation, after a
/// word of [`DISCUSSION`] in its sentence, or written as a title.
pub(crate) fn mentioned(text: &str, range: Range<usize>) -> bool {
    let before = &text[..range.start];
    if before.matches("```").count() % 2 == 1 {
        return true;
    }
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..];
    let at = range.start - line_start;
    if line[..at].matches('`').count() % 2 == 1 || quoted(line, at) {
        return true;
    }
    let sentence = sentence_before(text, range.start).to_lowercase();
    if DISCUSSION.iter().any(|d| sentence.contains(d)) {
        return true;
    }
    // In a URL (`/papers/ignore-previous-prompt`) the words are a name.
    // After the white space, which may be more than a byte (U+00A0, U+3000).
    let token_start = before
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let token = &text[token_start..];
    let token = &token[..token.find(char::is_whitespace).unwrap_or(token.len())];
    if token.contains("://") || token.starts_with("www.") {
        return true;
    }
    title_case(&text[range])
}

/// Whether the text at `at` of `line` sits in a short quotation: a phrase quoted, not a
/// whole message in quotes (a CSV cell, a JSON string written out).
fn quoted(line: &str, at: usize) -> bool {
    const PAIRS: [(char, char); 7] = [
        ('"', '"'),
        ('\'', '\''),
        ('“', '”'),
        ('‘', '’'),
        ('«', '»'),
        ('「', '」'),
        ('『', '』'),
    ];
    PAIRS.iter().any(|&(open, close)| {
        let Some(o) = line[..at].rfind(open) else {
            return false;
        };
        // An apostrophe inside a word is not a quotation mark.
        if open == '\'' && line[..o].chars().last().is_some_and(char::is_alphanumeric) {
            return false;
        }
        let inside = &line[o + open.len_utf8()..];
        let closed = inside.find(close);
        let opened_earlier_closed = line[o + open.len_utf8()..at].contains(close);
        !opened_earlier_closed && closed.is_some_and(|c| inside[..c].chars().count() <= 60)
    })
}

/// Whether every word of `written` is capitalised and not all in capitals: a title or a
/// heading names the phrase, it does not give the order.
fn title_case(written: &str) -> bool {
    let words: Vec<&str> = written
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphabetic))
        .collect();
    words.len() >= 2
        && words.iter().all(|w| {
            let mut letters = w.chars().filter(|c| c.is_alphabetic());
            letters.next().is_some_and(char::is_uppercase)
                && letters.clone().count() > 0
                && letters.all(char::is_lowercase)
        })
}

/// The part of `text`'s sentence before `at`.
fn sentence_before(text: &str, at: usize) -> &str {
    let before = &text[..at];
    let start = before
        .rfind(['.', '!', '?', '\n', '。', '！', '？'])
        .map_or(0, |i| {
            i + before[i..].chars().next().map_or(1, char::len_utf8)
        });
    &before[start..]
}

/// The whole sentence around `range`.
fn sentence_around(text: &str, range: Range<usize>) -> &str {
    let start = range.start - sentence_before(text, range.start).len();
    let after = &text[range.end..];
    let end = range.end
        + after
            .find(['.', '!', '?', '\n', '。', '！', '？'])
            .unwrap_or(after.len());
    &text[start..end]
}

#[cfg(test)]
mod tests;
