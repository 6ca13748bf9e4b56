//! Rules the compiler cannot express, checked by reading files as text (rust-analyzer's
//! "tidy" style). Each failure prints `path:line: reason`.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Crates a browser build may pull in: the generated API and the runtime ship to wasm32,
/// so each dependency here is a decision, not an accident.
const LIGHT: &[(&str, &[&str])] = &[
    // unicode-segmentation and unicode-normalization: search reads words by Unicode's
    // rules (UAX #29, NFKC) in every script; unicode-rs crates, `no_std`, tables only.
    (
        "catalog-core",
        &[
            "serde",
            "serde_json",
            "unicode-normalization",
            "unicode-segmentation",
        ],
    ),
    ("example/catalog", &["catalog-core", "catalog-macros"]),
];

#[test]
fn light_crates_depend_only_on_the_allow_list() {
    let mut problems = Vec::new();
    for (krate, allowed) in LIGHT {
        let rel = format!("{krate}/Cargo.toml");
        let text = std::fs::read_to_string(root().join(&rel)).unwrap();
        let mut section = String::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.starts_with('[') {
                section = line.trim_matches(|c| c == '[' || c == ']').to_string();
                // `[dependencies.foo]` names its dependency in the header.
                if let Some(name) = section.strip_prefix("dependencies.")
                    && !allowed.contains(&name)
                {
                    problems.push(format!(
                        "{rel}:{}: `{name}` is not on the allow-list for {krate}",
                        i + 1
                    ));
                }
                continue;
            }
            let is_dep_section = section == "dependencies"
                || section.ends_with(".dependencies") && !section.contains("dev-dependencies");
            if let Some(name) = dependency_name(line).filter(|_| is_dep_section)
                && !allowed.contains(&name)
            {
                problems.push(format!(
                    "{rel}:{}: `{name}` is not on the allow-list for {krate} ({})",
                    i + 1,
                    allowed.join(", ")
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

fn dependency_name(line: &str) -> Option<&str> {
    if line.starts_with('#') || line.is_empty() {
        return None;
    }
    let (name, _) = line.split_once('=')?;
    let name = name.trim();
    let name = name.strip_suffix(".workspace").unwrap_or(name);
    (!name.contains(' ')).then_some(name)
}

/// The runtime is `no_std`: it may name `core`, `alloc` and its allowed dependencies only.
#[test]
fn light_crates_name_no_other_crate_in_source() {
    let allowed = [
        "core",
        "alloc",
        "crate",
        "self",
        "super",
        "serde",
        "serde_json",
        "unicode_normalization",
        "unicode_segmentation",
        "catalog_core",
        "catalog_macros",
    ];
    let mut problems = Vec::new();
    for dir in ["catalog-core/src", "example/catalog/src"] {
        let files = rust_files(&root().join(dir));
        // `use set::Iter` names the crate's own module `set`, not a crate.
        let modules: Vec<String> = files
            .iter()
            .filter_map(|f| Some(f.file_stem()?.to_str()?.to_string()))
            .collect();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let rel = file.strip_prefix(root()).unwrap().display().to_string();
            for (i, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for head in crate_paths(code) {
                    // Crate names are lowercase; `Action::Keep` names a type.
                    let is_type = head.starts_with(|c: char| c.is_ascii_uppercase());
                    if !is_type && !allowed.contains(&head) && !modules.iter().any(|m| m == head) {
                        problems.push(format!(
                            "{rel}:{}: names crate `{head}`; the browser build allows {}",
                            i + 1,
                            allowed.join(", ")
                        ));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The framework serves any catalog: no crate of it depends on the example app, not even
/// to test itself (it tests on catalogs of its own), so nothing in it can lean on the
/// example's tools.
const FRAMEWORK: &[&str] = &[
    "catalog-core",
    "catalog-compiler",
    "catalog-macros",
    "catalog-mcp",
    "cargo-catalog",
];

#[test]
fn framework_crates_name_no_example_crate() {
    let examples = ["app-catalog", "app-backend", "app-mcp"];
    let mut problems = Vec::new();
    for krate in FRAMEWORK {
        let rel = format!("{krate}/Cargo.toml");
        let text = std::fs::read_to_string(root().join(&rel)).unwrap();
        for (i, line) in text.lines().enumerate() {
            let header = line.trim().trim_matches(|c| c == '[' || c == ']');
            let named = dependency_name(line.trim())
                .or_else(|| header.rsplit_once("dependencies.").map(|(_, name)| name));
            if let Some(name) = named.filter(|name| examples.contains(name)) {
                problems.push(format!(
                    "{rel}:{}: depends on the example crate `{name}`; test on a catalog of this crate's own",
                    i + 1
                ));
            }
        }
        for dir in ["src", "tests", "examples", "benches"] {
            let dir = root().join(krate).join(dir);
            if !dir.is_dir() {
                continue;
            }
            for file in rust_files(&dir) {
                let text = std::fs::read_to_string(&file).unwrap();
                let rel = file.strip_prefix(root()).unwrap().display().to_string();
                for (i, line) in text.lines().enumerate() {
                    let code = line.split("//").next().unwrap_or("");
                    for head in crate_paths(code) {
                        if examples.iter().any(|e| e.replace('-', "_") == head) {
                            problems
                                .push(format!("{rel}:{}: names the example crate `{head}`", i + 1));
                        }
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// First segments of `use x::`, `extern crate x` and `::x::` paths on a line.
fn crate_paths(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let ident = |s: &str| -> usize {
        s.find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(s.len())
    };
    for prefix in ["use ", "extern crate "] {
        if let Some(rest) = code
            .trim_start()
            .strip_prefix("pub ")
            .unwrap_or(code.trim_start())
            .strip_prefix(prefix)
        {
            let rest = rest.trim_start_matches("::");
            let n = ident(rest);
            if n > 0 {
                out.push(&rest[..n]);
            }
        }
    }
    let mut rest = code;
    while let Some(at) = rest.find("::") {
        let before = rest[..at].chars().last();
        let after = &rest[at + 2..];
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '>') {
            let n = ident(after);
            if n > 0 {
                out.push(&after[..n]);
            }
        }
        rest = after;
    }
    out
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn the_tidy_checks_catch_what_they_claim() {
    assert_eq!(crate_paths("use std::fmt;"), ["std"]);
    assert_eq!(crate_paths("    let x = ::tokio::spawn(f);"), ["tokio"]);
    assert_eq!(crate_paths("pub use serde_json::Value;"), ["serde_json"]);
    assert!(crate_paths("let x = Foo::bar();").is_empty());
    assert_eq!(dependency_name("serde.workspace = true"), Some("serde"));
    assert_eq!(
        dependency_name("tokio = { version = \"1\" }"),
        Some("tokio")
    );
}
