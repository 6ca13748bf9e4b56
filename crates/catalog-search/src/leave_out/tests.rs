//! [`LeaveOut`] against the index built again, on generated documents.

use alloc::string::String;
use alloc::vec;

use super::super::{Field, Language, Terms, Weights};
use super::*;

const WORDS: [&str; 28] = [
    "open", "opens", "table", "tables", "export", "csv", "file", "files", "row", "rows", "delete",
    "order", "orders", "week", "show", "last", "user", "users", "send", "mail", "grid", "sort",
    "sorted", "column", "price", "report", "weekly", "time",
];

/// Deterministic "random" documents: each a list of (field, text), some with examples.
fn documents(seed: u64, count: usize) -> Vec<Vec<(Field, String)>> {
    let mut state = seed;
    let mut next = move |below: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(state >> 33).unwrap() % below
    };
    let text = |words: usize, next: &mut dyn FnMut(usize) -> usize| {
        let n = 1 + next(words);
        (0..n)
            .map(|_| WORDS[next(WORDS.len())])
            .collect::<Vec<_>>()
            .join(" ")
    };
    (0..count)
        .map(|_| {
            let mut doc = vec![(Field::Name, text(2, &mut next))];
            for _ in 0..next(2) {
                doc.push((Field::Keyword, text(2, &mut next)));
            }
            doc.push((Field::Description, text(12, &mut next)));
            for _ in 0..next(4) {
                doc.push((Field::Example, text(8, &mut next)));
            }
            doc.push((Field::ParamName, text(1, &mut next)));
            doc.push((Field::ParamDescription, text(6, &mut next)));
            doc
        })
        .collect()
}

fn add(b: &mut Builder, doc: &[(Field, String)], skip: Option<usize>) {
    b.document(&doc[0].1);
    for (i, (field, text)) in doc.iter().enumerate() {
        if Some(i) != skip {
            b.add(*field, text);
        }
    }
}

fn bits(hits: &[Hit]) -> Vec<(u32, u32)> {
    hits.iter().map(|h| (h.doc, h.score.to_bits())).collect()
}

/// Every fourth document is withheld, as a catalog's inline tools are.
fn withheld(doc: usize) -> bool {
    doc % 4 == 1
}

/// Every example and description of every document left out in turn, and searched
/// for it and a few other requests: the hits, scores to the bit, and ranks are the
/// rebuilt index's, where the document left out is searched even if withheld.
fn matches_rebuilt(weights: Weights, seed: u64) {
    let docs = documents(seed, 40);
    let mut all = Builder::new(weights, Language::English);
    for (u, d) in docs.iter().enumerate() {
        add(&mut all, d, None);
        if withheld(u) {
            all.withhold();
        }
    }
    let index = LeaveOut::new(all.clone());
    let mut scratch = LeaveOutScratch::default();
    let mut searched = 0;
    for (t, doc) in docs.iter().enumerate() {
        for (i, (field, example)) in doc.iter().enumerate() {
            // Examples as the lint leaves them out; descriptions, to move another
            // field's average.
            if !matches!(field, Field::Example | Field::Description) {
                continue;
            }
            let mut without = Builder::new(weights, Language::English);
            add(&mut without, doc, Some(i));
            let mut rebuilt = Builder::new(weights, Language::English);
            for (u, d) in docs.iter().enumerate() {
                add(&mut rebuilt, d, (u == t).then_some(i));
                if withheld(u) && u != t {
                    rebuilt.withhold();
                }
            }
            let rebuilt = rebuilt.build();
            for query in [example.as_str(), "open the weekly orders", &doc[0].1] {
                let want = rebuilt
                    .view()
                    .search(query, docs.len(), &mut Scratch::default());
                let t = u32::try_from(t).unwrap();
                let got = index.hits(t, &without, query, &mut scratch);
                assert_eq!(bits(&got), bits(&want), "{t} {query:?}");
                let rank = want.iter().position(|h| h.doc == t).map(|p| p + 1);
                assert_eq!(index.rank(t, &without, query, &mut scratch), rank);
                searched += 2;
            }
        }
    }
    assert!(searched > 100);
    // The fast path answered (nearly) all: a rebuild only where the table shrinks.
    assert!(scratch.rebuilds() * 10 < searched, "{}", scratch.rebuilds());
}

#[test]
fn leaving_an_example_out_scores_as_rebuilt() {
    for seed in 1..4 {
        matches_rebuilt(Weights::DEFAULT, seed);
    }
}

#[test]
fn other_weights_score_as_rebuilt() {
    // `b` outside [0, 1], and fields that do not count.
    let w = Weights {
        b: 1.2,
        example: 0.0,
        prefix: 0.0,
        ..Weights::DEFAULT
    };
    matches_rebuilt(w, 7);
}

#[test]
fn a_replacement_with_new_terms_is_rebuilt() {
    let docs = documents(11, 10);
    let mut all = Builder::new(Weights::DEFAULT, Language::English);
    for (u, d) in docs.iter().enumerate() {
        add(&mut all, d, None);
        // Withheld, and so searched in the index built again only as the document replaced.
        if u == 3 {
            all.withhold();
        }
    }
    let index = LeaveOut::new(all.clone());
    let mut other = Builder::new(Weights::DEFAULT, Language::English);
    other.document("zebra");
    other.add(Field::Description, "zebra crossing table");
    all.docs[3] = other.docs[0].clone();
    all.lengths[3] = other.lengths[0];
    all.withheld.clear();
    let want = all
        .build()
        .view()
        .search("zebra table", 10, &mut Scratch::default());
    let mut scratch = LeaveOutScratch::default();
    let got = index.hits(3, &other, "zebra table", &mut scratch);
    assert_eq!(bits(&got), bits(&want));
    assert_eq!(scratch.rebuilds(), 1);
}

/// A document's terms and lengths, to the bit, in an order of their own: the order a
/// document lists its terms in is not read by any search.
fn contents(b: &Builder, doc: usize) -> (Vec<(u64, [u32; FIELDS])>, [u32; FIELDS]) {
    let mut terms: Vec<(u64, [u32; FIELDS])> = b.docs[doc]
        .iter()
        .map(|(h, counts)| (*h, counts.map(f32::to_bits)))
        .collect();
    terms.sort_unstable();
    (terms, b.lengths[doc].map(f32::to_bits))
}

#[test]
fn a_document_with_one_field_replaced_is_the_document_read_again() {
    // Long documents too, whose terms are found through their places table.
    let mut docs = documents(5, 30);
    let long: Vec<&str> = WORDS.iter().cycle().take(300).copied().collect();
    docs[4].push((Field::Description, long.join(" ")));
    docs[4].push((Field::Example, long[..40].join(" ")));
    let mut all = Builder::new(Weights::DEFAULT, Language::English);
    for d in &docs {
        add(&mut all, d, None);
    }
    let mut replaced = 0;
    for (t, doc) in docs.iter().enumerate() {
        let examples: Vec<(usize, Terms)> = doc
            .iter()
            .enumerate()
            .filter(|(_, (field, _))| *field == Field::Example)
            .map(|(i, (_, text))| (i, all.terms(text)))
            .collect();
        for &(left_out, _) in &examples {
            let others: Vec<&Terms> = examples
                .iter()
                .filter(|(i, _)| *i != left_out)
                .map(|(_, terms)| terms)
                .collect();
            let got = all.replaced(t, Field::Example, &others);
            let mut want = Builder::new(Weights::DEFAULT, Language::English);
            add(&mut want, doc, Some(left_out));
            assert_eq!(got.names, want.names);
            assert_eq!(contents(&got, 0), contents(&want, 0), "{t} {left_out}");
            replaced += 1;
        }
    }
    assert!(replaced > 20, "{replaced}");
}
