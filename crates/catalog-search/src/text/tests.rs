//! Words, identifiers, stop words, stems and CJK bigrams as the index and queries see them.

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
    // Japanese: one run per script.
    assert_eq!(all("丸ごと削除"), ["丸", "ごと", "削除"]);
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
    assert_eq!(out, ["売上", "|売", "|上", "表", "|表"]);
    out.clear();
    terms("売り上げ", Language::English, |t| {
        out.push(String::from(t));
    });
    assert_eq!(out, ["売", "|売", "上", "|上"]);
    out.clear();
    // Katakana's, but the long-vowel mark's.
    terms("ソート", Language::English, |t| {
        out.push(String::from(t));
    });
    assert_eq!(out, ["ソー", "|ソ", "ート", "|ト"]);
}

#[test]
fn a_kanji_stem_meets_its_other_endings() {
    // `消して`, `消しちゃって` and `消す` share `消`, their kanji, alone.
    let kanji = |text| -> Vec<String> {
        all(text)
            .into_iter()
            .filter(|t| t.chars().all(|c| Script::of(c) == Script::Han))
            .collect()
    };
    assert_eq!(kanji("シートを消して"), ["消"]);
    assert_eq!(kanji("消しちゃって"), ["消"]);
    assert_eq!(kanji("消す"), ["消"]);
    assert_eq!(all("シートを消して"), ["シー", "ート", "消", "して"]);
    // `人々` is `人人`.
    assert_eq!(all("人々"), all("人人"));
}

#[test]
fn hiragana_gives_bigrams_and_no_character_alone() {
    assert_eq!(all("行を"), ["行"]);
    assert_eq!(all("まとめて"), ["まと", "とめ", "めて"]);
    assert_eq!(all("の"), Vec::<String>::new());
}

#[test]
fn script_runs_cut_where_terms_do() {
    assert_eq!(
        script_runs("テーブルを丸ごと消して"),
        ["テーブル", "を", "丸", "ごと", "消", "して"]
    );
    assert_eq!(script_runs("すごーいデータ"), ["すごーい", "データ"]);
    assert_eq!(script_runs("表"), ["表"]);
    assert_eq!(script_runs(""), Vec::<&str>::new());
}

#[test]
fn katakana_spelling_variants_meet() {
    assert_eq!(all("フィルター"), all("フィルタ"));
    assert_eq!(all("ユーザー"), all("ユーザ"));
    // Three characters or fewer keep the mark: `ソート` is not `ソト`.
    assert_eq!(all("コピー"), ["コピ", "ピー"]);
    // Hiragana borrows the mark.
    assert_eq!(all("すごーい"), ["すご", "ごー", "ーい"]);
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
        ["csv", "ファ", "ァイ", "イル", "出力"]
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
            "行",
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
