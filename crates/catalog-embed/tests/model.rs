//! The ranker with a real model: all-MiniLM-L6-v2 as `cargo xtask test` installs it
//! (`CATALOG_EMBED_MODEL`), against the similarities sentence-transformers publishes for
//! it, on a catalog of its own both compiled and read at run time.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use catalog_check::model::CatalogModel as Rows;
use catalog_core::SearchOutcome;
use catalog_core::search::{OwnedIndex, Ranker as _, Scratch, Weights};
use catalog_embed::{Error, Hybrid, Model, Vectors};

catalog_macros::catalog!("examples/terse.toml");

/// The model, loaded once for every test; `None` (with a line saying why) outside
/// `cargo xtask test`, which CI runs.
fn model() -> Option<&'static Arc<Model>> {
    static MODEL: OnceLock<Option<Arc<Model>>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let dir = catalog_testkit::peer("model", "CATALOG_EMBED_MODEL")?;
            Some(Arc::new(Model::load(&dir).expect("the model loads")))
        })
        .as_ref()
}

fn terse_source() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/terse.toml");
    std::fs::read_to_string(path).expect("the catalog of these tests")
}

fn read(source: &str) -> (Rows, OwnedIndex) {
    let catalog = catalog_check::compile(source).expect("the catalog compiles");
    let index = catalog_check::search::index(&catalog, Weights::DEFAULT);
    (catalog, index)
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn similarities_are_those_sentence_transformers_publishes_for_the_model() {
    let Some(model) = model() else { return };
    // sentence-transformers' README: `model.similarity` of these three with this model.
    let v = model
        .embed(&[
            "The weather is lovely today.",
            "It's so sunny outside!",
            "He drove to the stadium.",
        ])
        .unwrap();
    assert_eq!(model.dim(), 384);
    for x in &v {
        assert!((cosine(x, x) - 1.0).abs() < 1e-5);
    }
    for (a, b, published) in [(0, 1, 0.6660), (0, 2, 0.1046), (1, 2, 0.1411)] {
        let got = cosine(&v[a], &v[b]);
        assert!(
            (got - published).abs() < 5e-4,
            "similarity {a}-{b}: {got}, published {published}"
        );
    }
}

#[test]
fn a_text_has_one_vector_whatever_it_is_batched_with() {
    let Some(model) = model() else { return };
    // Alone, and beside a much longer text that pads it: the padding must change nothing.
    let short = "rename a column";
    let long = "list every table of the database with its columns, their types, which ones \
                are keys, and how many rows each table holds today";
    let alone = model.embed(&[short]).unwrap();
    let padded = model.embed(&[long, short]).unwrap();
    let gap = alone[0]
        .iter()
        .zip(&padded[1])
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    assert!(gap < 1e-4, "largest difference {gap}");
}

#[test]
fn a_vectors_file_loads_against_the_compiled_index_and_refuses_a_changed_catalog() {
    let Some(model) = model() else { return };
    let (catalog, index) = read(&terse_source());
    let vectors = Vectors::compute(model, &catalog, &index.view()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("catalog.vectors.safetensors");
    vectors.write(&path).unwrap();
    let loaded = Vectors::read(&path).unwrap();
    assert_eq!(loaded, vectors);
    // Inline tools have no vector; discoverable ones have one of length 1.
    for (i, tool) in catalog.tools.iter().enumerate() {
        let norm = cosine(loaded.row(i), loaded.row(i));
        let searchable = !catalog_embed::text(&catalog, i).is_empty();
        assert_eq!(norm > 0.99, searchable, "{}", tool.name);
    }
    // The compiled catalog's index is the run-time one, table for table.
    loaded.check(model, &Catalog::INFO.index, &path).unwrap();

    // One description edited: the index changes, and the file is stale.
    let edited = terse_source().replacen("Draws a pie chart", "Draws a round chart", 1);
    let (_, edited_index) = read(&edited);
    let err = loaded
        .check(model, &edited_index.view(), &path)
        .unwrap_err();
    assert_eq!(
        err,
        Error::Stale {
            path: path.clone(),
            changed: "catalog"
        }
    );
    assert!(
        err.to_string()
            .contains("write it again with `cargo catalog embed --model DIR --out"),
        "{err}"
    );

    // Not a vectors file at all.
    std::fs::write(&path, b"not safetensors").unwrap();
    let err = Vectors::read(&path).unwrap_err().to_string();
    assert!(
        err.contains("not a vectors file of `cargo catalog embed`"),
        "{err}"
    );
}

#[test]
fn the_fusion_finds_a_paraphrase_that_shares_no_word_with_the_tool() {
    let Some(model) = model() else { return };
    let (catalog, index) = read(&terse_source());
    let vectors = Vectors::compute(model, &catalog, &index.view()).unwrap();
    let hybrid = Hybrid::new(Arc::clone(model), vectors);
    let top = |hits: Vec<catalog_core::search::Hit>| -> Vec<String> {
        hits.iter()
            .map(|h| catalog.tools[h.doc as usize].name.clone())
            .collect()
    };
    for (query, wanted) in [
        ("show the shares as slices of a circle", "pieChart"),
        ("order the records from largest to smallest", "sortRows"),
        ("bill the client by mail", "sendInvoice"),
    ] {
        let lexical = top(index.view().search(query, 1, &mut Scratch::default()));
        let fused = top(hybrid.search(&index.view(), query, 1, &mut Scratch::default()));
        assert_ne!(
            lexical.first().map(String::as_str),
            Some(wanted),
            "BM25F on {query:?}"
        );
        assert_eq!(fused, [wanted], "the fusion on {query:?}");
    }
}

#[test]
fn a_compiled_catalogs_discovery_ranked_by_the_fusion_returns_its_hits_and_makes_them_callable() {
    let Some(model) = model() else { return };
    let (catalog, index) = read(&terse_source());
    let vectors = Vectors::compute(model, &catalog, &index.view()).unwrap();
    let hybrid = Arc::new(Hybrid::new(Arc::clone(model), vectors));
    let query = "show the shares as slices of a circle";
    let compiled = Catalog::INFO.index;
    let k = Catalog::INFO.settings.search_results;
    let fused: Vec<String> = hybrid
        .search(&compiled, query, k, &mut Scratch::default())
        .iter()
        .map(|h| catalog.tools[h.doc as usize].name.clone())
        .collect();
    let lexical: Vec<String> = compiled
        .search(query, k, &mut Scratch::default())
        .iter()
        .map(|h| catalog.tools[h.doc as usize].name.clone())
        .collect();
    assert_ne!(
        fused, lexical,
        "the query must rank differently for the test to mean anything"
    );

    let mut discovery = Catalog::discovery().ranked_by(hybrid);
    let SearchOutcome::Found(found) = discovery.search(query) else {
        panic!("a search within the budget")
    };
    let names: Vec<&str> = found.iter().map(|f| f.tool.name()).collect();
    assert_eq!(names, fused);
    for name in &names {
        assert!(
            discovery.active().iter().any(|t| t.name() == *name),
            "{name}"
        );
    }
    // Inline tools are never hits: the model already has them.
    let inline = Catalog::INFO.inline;
    assert!(found.iter().all(|f| !inline.contains(f.tool)));
}

#[test]
fn a_folder_without_a_model_says_what_one_holds() {
    let dir = tempfile::tempdir().unwrap();
    let err = Model::load(dir.path()).unwrap_err().to_string();
    assert!(err.contains("config.json"), "{err}");
    assert!(
        err.contains("model.safetensors and tokenizer.json"),
        "{err}"
    );
}
