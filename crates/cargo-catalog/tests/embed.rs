//! `embed`, `search --model` and `eval-search --model` with a real model: all-MiniLM-L6-v2
//! as `cargo xtask test` installs it (`CATALOG_EMBED_MODEL`), on the example catalog.

#![cfg(feature = "embed")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn model() -> Option<PathBuf> {
    catalog_testkit::peer("embed", "CATALOG_EMBED_MODEL")
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-catalog"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("cargo-catalog runs")
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

/// A folder holding a copy of the example catalog, its vectors from `embed`, and the
/// example's requests that a search can answer (`queries.jsonl`).
fn embedded(model: &str) -> tempfile::TempDir {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().unwrap();
    let catalog = dir.path().join("catalog.toml");
    std::fs::copy(root.join("example/catalog.toml"), &catalog).unwrap();
    // eval-search takes only the requests whose tools a search can return.
    let compiled = catalog_check::compile(&std::fs::read_to_string(&catalog).unwrap()).unwrap();
    let searchable = |name: &Value| {
        compiled.tools.iter().any(|t| {
            name.as_str() == Some(t.name.as_str())
                && t.visibility == catalog_check::model::Visibility::Discoverable
        })
    };
    let requests = std::fs::read_to_string(root.join("example/catalog/requests.jsonl")).unwrap();
    let lines: Vec<&str> = requests
        .lines()
        .filter(|l| {
            let request: Value = serde_json::from_str(l).unwrap();
            request["expected"]
                .as_array()
                .unwrap()
                .iter()
                .all(searchable)
        })
        .collect();
    assert!(lines.len() >= 15);
    std::fs::write(dir.path().join("queries.jsonl"), lines.join("\n")).unwrap();

    let out = run(dir.path(), &["embed", "--model", model]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("of 384 dimensions in catalog.vectors.safetensors"),
        "{}",
        text(&out.stdout)
    );
    dir
}

fn search(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["search", "--k", "3"];
    args.extend_from_slice(extra);
    args.push("show the shares as slices of a circle");
    run(dir, &args)
}

#[test]
fn search_and_eval_search_rank_by_the_fusion_with_the_vectors_embed_wrote() {
    let Some(model) = model() else { return };
    let model = model.to_str().unwrap();
    let dir = embedded(model);
    let vectors = ["--model", model, "--vectors", "catalog.vectors.safetensors"];
    let out = search(dir.path(), &vectors);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("proposeChart"),
        "{}",
        text(&out.stdout)
    );

    let eval = [
        "eval-search",
        "--queries",
        "queries.jsonl",
        "--format",
        "json",
    ];
    let out = run(dir.path(), &eval);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let alone: Value = serde_json::from_slice(&out.stdout).unwrap();
    let out = run(
        dir.path(),
        &[&eval[..], &vectors, &["--fusion", "0.7", "--fusion", "1"]].concat(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let side: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rankers = side["rankers"].as_array().unwrap();
    let names: Vec<&str> = rankers
        .iter()
        .map(|r| r["ranker"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["BM25F", "embedding", "fusion 0.7", "fusion 1"]);
    // BM25F's figures are those eval-search prints alone; a fusion that is all BM25F's
    // ranks as BM25F does.
    for key in ["recall_at_k", "hit_at_k", "mrr_at_k"] {
        assert_eq!(rankers[0]["all"][key], alone[key], "{key}");
        assert_eq!(rankers[3]["all"][key], alone[key], "{key}");
        for r in rankers {
            let x = r["all"][key].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&x), "{key} {x}");
        }
    }
    assert!(side["vectors_seconds"].is_null(), "read from the file");
}

#[test]
fn vectors_of_an_edited_catalog_are_refused_with_the_command_to_run() {
    let Some(model) = model() else { return };
    let model = model.to_str().unwrap();
    let dir = embedded(model);
    let catalog = dir.path().join("catalog.toml");
    let source = std::fs::read_to_string(&catalog).unwrap();
    std::fs::write(
        &catalog,
        source.replacen("Discards staged changes", "Drops staged changes", 1),
    )
    .unwrap();
    let out = search(
        dir.path(),
        &["--model", model, "--vectors", "catalog.vectors.safetensors"],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("holds the tool vectors of another catalog")
            && err.contains("cargo catalog embed --model DIR --out catalog.vectors.safetensors"),
        "{err}"
    );
    // Without a vectors file, they are computed at start-up.
    let out = search(dir.path(), &["--model", model]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn a_folder_that_is_no_model_is_an_unusable_argument() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../example/catalog.toml");
    let out = run(
        dir.path(),
        &[
            "search",
            "--catalog",
            root.to_str().unwrap(),
            "--model",
            ".",
            "a chart",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("config.json"),
        "{}",
        text(&out.stderr)
    );
}
