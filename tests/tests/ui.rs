//! Compile-fail and compile-pass cases of `catalog!`, run with trybuild.
//!
//! Every case under `ui/<kind>/` is a `.rs` file that invokes `catalog_macros::catalog!` on
//! a `.toml` fixture next to it. Regenerate the expected output with
//! `TRYBUILD=overwrite cargo test -p catalog-tests --test ui`, then read every `.stderr`.
//!
//! # Where the fixtures are read from
//!
//! `catalog!("path")` resolves `path` against `CARGO_MANIFEST_DIR`. trybuild compiles the
//! cases as binaries of a crate it generates at `<target>/tests/trybuild/catalog-tests/`
//! (the directory holds only its `Cargo.toml` and a `main.rs`; trybuild creates it with
//! `create_dir_all` and never empties it), so that is the manifest dir the macro sees, not
//! this crate's. Before trybuild runs, this harness copies every `ui/**/*.toml` into that
//! directory under the same relative path, plus the workspace's own `catalog.toml` as
//! `ui/tables.toml`, and writes the one fixture it makes, `ui/pass/pieces.toml`. The cases then name their fixture as `"ui/<kind>/<case>.toml"`, and
//! the diagnostics print that same relative path, identical on every machine.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

#[test]
fn ui() {
    stage_fixtures();
    let t = trybuild::TestCases::new();
    for kind in [
        "syntax", "keys", "rows", "search", "params", "many", "drift", "cascade", "safety",
        "module",
    ] {
        t.compile_fail(format!("ui/{kind}/*.rs"));
    }
    t.pass("ui/pass/*.rs");
}

/// `<target>/tests/trybuild/catalog-tests`: the manifest dir of the crate trybuild builds.
fn trybuild_project_dir() -> PathBuf {
    // The test binary is `<target>/debug/deps/ui-<hash>`; trybuild takes `<target>` from
    // `cargo metadata` and puts its project under `<target>/tests/trybuild/<crate name>`.
    let exe = std::env::current_exe().expect("path of the test binary");
    let deps = exe.parent().expect("the test binary lives in a directory");
    assert_eq!(
        deps.file_name().and_then(|n| n.to_str()),
        Some("deps"),
        "unexpected test binary location {}",
        exe.display()
    );
    let target = deps
        .parent()
        .and_then(Path::parent)
        .expect("<target>/<profile>/deps");
    target
        .join("tests")
        .join("trybuild")
        .join(env!("CARGO_PKG_NAME"))
}

/// Copies the fixtures where `catalog!` will look for them, writing only files whose
/// content changed (an unchanged mtime keeps cargo from rebuilding the pass cases).
fn stage_fixtures() {
    let project = trybuild_project_dir();
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut fixtures = Vec::new();
    collect_toml(&here.join("ui"), &mut fixtures);
    assert!(
        !fixtures.is_empty(),
        "no fixtures under {}",
        here.join("ui").display()
    );
    let mut copies: Vec<(PathBuf, PathBuf)> = fixtures
        .into_iter()
        .map(|src| {
            let rel = src
                .strip_prefix(here)
                .expect("fixture inside the crate")
                .to_path_buf();
            (src, project.join(rel))
        })
        .collect();
    copies.push((
        here.join("data/tables.toml"),
        project.join("ui/tables.toml"),
    ));
    for (src, dst) in copies {
        let text = fs::read(&src).unwrap_or_else(|e| panic!("read {}: {e}", src.display()));
        stage(&dst, &text);
    }
    stage(
        &project.join("ui/pass/pieces.toml"),
        read_in_pieces().as_bytes(),
    );
}

/// Writes `text` to `dst` unless it already holds it.
fn stage(dst: &Path, text: &[u8]) {
    if fs::read(dst).ok().as_deref() == Some(text) {
        return;
    }
    fs::create_dir_all(dst.parent().expect("a file has a parent"))
        .expect("create the fixture directory");
    fs::write(dst, text).unwrap_or_else(|e| panic!("write {}: {e}", dst.display()));
}

/// A catalog the compiler reads in pieces (a file over 128 KiB is cut before `[[tool]]`
/// lines about that far apart), each piece with a row named in Rust by `rust-name`: four
/// rows apart by long comments, made here rather than kept as a half-megabyte file.
fn read_in_pieces() -> String {
    let mut text = String::from(catalog_testkit::CATALOG_HEAD);
    let comment = format!("# {}\n", "padding ".repeat(12));
    for k in 0..4 {
        text += &comment.repeat(1400);
        write!(
            text,
            "\n[[tool]]\nname = \"fetch.page{k}\"\nrust-name = \"FetchPage{k}\"\n\
             description = \"Fetches page {k} over HTTP and returns its text.\"\n\
             visibility = \"inline\"\neffect = \"reads\"\ntier = \"silent\"\n"
        )
        .expect("a String takes any text");
    }
    text
}

fn collect_toml(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("read {}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            collect_toml(&path, out);
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
}
