//! Rules the compiler cannot express, checked by reading files as text (rust-analyzer's
//! "tidy" style). Each failure prints `path:line: reason`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The manifest of a workspace member named by its folder: under `crates/`, or at the
/// path given (`example/catalog`).
fn manifest(krate: &str) -> String {
    let nested = format!("crates/{krate}/Cargo.toml");
    if root().join(&nested).is_file() {
        nested
    } else {
        format!("{krate}/Cargo.toml")
    }
}

/// Crates a browser build may pull in: the generated API and the runtime ship to wasm32,
/// so each dependency here is a decision, not an accident.
const LIGHT: &[(&str, &[&str])] = &[
    // once_cell: decoding the packed specs once, on first use, without `std`.
    // regress: the verifier's `pattern` and `patternProperties`, which JSON Schema defines
    // as ECMA-262 regular expressions; it reads that dialect, and builds without `std`.
    (
        "catalog-core",
        &[
            "catalog-search",
            "once_cell",
            "regress",
            "serde",
            "serde_json",
        ],
    ),
    // unicode-segmentation and unicode-normalization: search reads words by Unicode's
    // rules (UAX #29, NFKC) in every script; unicode-rs crates, `no_std`, tables only.
    (
        "catalog-search",
        &["unicode-normalization", "unicode-segmentation"],
    ),
    // The wire formats run where the agent does, the browser included.
    ("catalog-wire", &["catalog-core", "serde", "serde_json"]),
    ("example/catalog", &["catalog-core", "catalog-macros"]),
];

#[test]
fn light_crates_depend_only_on_the_allow_list() {
    let mut problems = Vec::new();
    for (krate, allowed) in LIGHT {
        let rel = manifest(krate);
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
        "once_cell",
        "serde",
        "serde_json",
        "unicode_normalization",
        "unicode_segmentation",
        "catalog_core",
        "catalog_macros",
        "catalog_search",
    ];
    let mut problems = Vec::new();
    for dir in [
        "crates/catalog-core/src",
        "crates/catalog-search/src",
        "crates/catalog-wire/src",
        "example/catalog/src",
    ] {
        let files = rust_files(&root().join(dir));
        // `use set::Iter` names the crate's own module `set`, not a crate; a module in a
        // folder (`provider/mod.rs`) is named by its folder.
        let modules: Vec<String> = files
            .iter()
            .filter_map(|f| {
                let stem = f.file_stem()?.to_str()?;
                let name = if stem == "mod" {
                    f.parent()?.file_name()?.to_str()?
                } else {
                    stem
                };
                Some(name.to_string())
            })
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
    "catalog-check",
    "catalog-macros",
    "catalog-mcp",
    "catalog-upstream",
    "catalog-providers",
    "catalog-embed",
    "cargo-catalog",
    "catalog-codegen",
    "catalog-result-scan",
    "catalog-gateway",
    "catalog-testkit",
    // The framework's own tests use their own catalogs (`tests/data/tables.toml`).
    "tests",
];

#[test]
fn framework_crates_name_no_example_crate() {
    let examples = ["app-catalog", "app-backend", "app-mcp"];
    let mut problems = Vec::new();
    for krate in FRAMEWORK {
        let rel = manifest(krate);
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

/// Inside every crate, modules name one another one way: `crate::` and `super::` paths
/// (outside tests) never make two modules depend on each other, directly or through
/// others. A module naming its own ancestor or descendant is nesting; one naming a module
/// elsewhere counts as a dependency between the two siblings that hold them.
#[test]
fn no_crate_has_a_module_cycle() {
    let mut problems = Vec::new();
    let mut crates = 0;
    for src in crate_sources(&root()) {
        crates += 1;
        let files: Vec<(Module, String)> = rust_files(&src)
            .into_iter()
            .map(|f| (module_of(&src, &f), std::fs::read_to_string(&f).unwrap()))
            .collect();
        let rel = src.strip_prefix(root()).unwrap().display().to_string();
        for cycle in cycles(&module_graph(&files)) {
            problems.push(format!(
                "{rel}: modules {} name each other",
                cycle.join(", ")
            ));
        }
    }
    assert!(crates >= 10, "found only {crates} crates");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A module's path inside its crate: `["lint", "poison"]`; the crate root is `[]`.
type Module = Vec<String>;

/// Every `src` folder of a crate under `dir`, build output and fuzz targets aside.
fn crate_sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if !path.is_dir() || name.starts_with('.') || name == "target" || name == "fuzz" {
            continue;
        }
        if name == "src" && dir.join("Cargo.toml").exists() {
            out.push(path);
        } else {
            out.extend(crate_sources(&path));
        }
    }
    out.sort();
    out
}

fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Module = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts
        .last()
        .is_some_and(|l| ["mod", "lib", "main"].contains(&l.as_str()))
    {
        parts.pop();
    }
    parts
}

/// Which sibling modules each module depends on, from the files' text.
fn module_graph(files: &[(Module, String)]) -> BTreeMap<Module, BTreeSet<Module>> {
    let modules: BTreeSet<&Module> = files.iter().map(|(m, _)| m).collect();
    let mut graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, text) in files {
        if module
            .last()
            .is_some_and(|l| l == "tests" || l.ends_with("_tests"))
        {
            continue;
        }
        let code: String = text
            .lines()
            .take_while(|l| !l.trim_start().starts_with("#[cfg(test)]"))
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let mut named = BTreeSet::new();
        let mut at = 0;
        while let Some(found) = code[at..].find("::") {
            let start = at + found;
            at = start + 2;
            let head_start = code[..start]
                .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(0, |i| i + 1);
            let head = &code[head_start..start];
            let base: Option<Module> = if head == "crate" {
                Some(Vec::new())
            } else if !head.is_empty() && head.split("::").all(|p| p == "super") {
                let up = head.split("::").count();
                Some(module[..module.len().saturating_sub(up)].to_vec())
            } else {
                None
            };
            if let Some(base) = base {
                resolve(&base, &code[at..], &modules, &mut named);
            }
        }
        for other in named {
            let common = module
                .iter()
                .zip(&other)
                .take_while(|(a, b)| a == b)
                .count();
            if common == module.len() || common == other.len() {
                continue;
            }
            graph
                .entry(module[..=common].to_vec())
                .or_default()
                .insert(other[..=common].to_vec());
        }
    }
    graph
}

/// The module a path after `base::` names (the longest prefix that is a module), and for
/// a `{a, b::c}` group each item's.
fn resolve(base: &Module, rest: &str, names: &BTreeSet<&Module>, out: &mut BTreeSet<Module>) {
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        let (mut depth, mut item_start) = (0, 0);
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    resolve(base, &group[item_start..i], names, out);
                    return;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    resolve(base, &group[item_start..i], names, out);
                    item_start = i + 1;
                }
                _ => {}
            }
        }
        return;
    }
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(rest.len());
    let mut path = base.clone();
    path.extend(
        rest[..end]
            .split("::")
            .filter(|p| !p.is_empty())
            .map(str::to_string),
    );
    while !names.contains(&path) && !path.is_empty() {
        path.pop();
    }
    out.insert(path);
}

/// The modules of each cycle, by name, one list per cycle.
fn cycles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> BTreeSet<Vec<String>> {
    let reach = |from: &Module| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(m) = todo.pop() {
            for next in graph.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let mut out = BTreeSet::new();
    for module in graph.keys() {
        let from = reach(module);
        if from.contains(module) {
            let cycle: Vec<String> = from
                .iter()
                .filter(|other| reach(other).contains(module))
                .map(|m| m.join("::"))
                .collect();
            out.insert(cycle);
        }
    }
    out
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        // A nested workspace's build (`fuzz/target`) is not source.
        if path.is_dir() && !path.ends_with("target") {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The compiler starts threads in one place, `threads.rs`, which runs everything on the
/// calling thread unless its caller chose more with `with_threads`; the `catalog!` macro
/// never chooses (it runs inside rustc, whose cores cargo's jobserver shares out) nor
/// starts threads of its own. The compiler's own test that the macro's calls start no
/// thread reads `threads.rs`'s count, so it holds only while no other place starts one.
#[test]
fn only_the_compilers_threads_module_starts_threads() {
    let mut problems = Vec::new();
    for (dir, allowed) in [
        (
            "crates/catalog-check/src",
            "crates/catalog-check/src/threads.rs",
        ),
        ("crates/catalog-macros/src", ""),
    ] {
        for file in rust_files(&root().join(dir)) {
            let rel = file.strip_prefix(root()).unwrap().display().to_string();
            if rel == allowed {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            for (i, line) in text.lines().enumerate() {
                let macros = dir.starts_with("catalog-macros");
                if let Some(what) = starts_threads(line, macros) {
                    problems.push(format!("{rel}:{}: {what}", i + 1));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// What on a line of code starts threads or lets the compiler start them; `macros` for
/// the macro crate, which may not choose threads either.
fn starts_threads(line: &str, macros: bool) -> Option<&'static str> {
    let code = line.split("//").next().unwrap_or("");
    let spawns = ["thread::spawn", "thread::scope", "thread::Builder", "rayon"];
    if spawns.iter().any(|s| code.contains(s)) {
        return Some(
            "starts threads outside the compiler's `threads.rs`; split work with `crate::threads` instead",
        );
    }
    (macros && code.contains("with_threads")).then_some(
        "the macro chooses threads: it runs inside rustc and shares its cores with the build",
    )
}

#[test]
fn the_tidy_checks_catch_what_they_claim() {
    assert!(starts_threads("    std::thread::scope(|s| {", false).is_some());
    assert!(starts_threads("let h = thread::spawn(f);", false).is_some());
    assert!(starts_threads("use rayon::prelude::*;", false).is_some());
    assert!(starts_threads("// thread::spawn is not used", false).is_none());
    assert!(starts_threads("catalog_check::with_threads(n, f)", true).is_some());
    assert!(starts_threads("catalog_check::with_threads(n, f)", false).is_none());
    assert_eq!(crate_paths("use std::fmt;"), ["std"]);
    assert_eq!(crate_paths("    let x = ::tokio::spawn(f);"), ["tokio"]);
    assert_eq!(crate_paths("pub use serde_json::Value;"), ["serde_json"]);
    assert!(crate_paths("let x = Foo::bar();").is_empty());
    assert_eq!(dependency_name("serde.workspace = true"), Some("serde"));
    let m = |path: &str| -> Module { path.split("::").map(str::to_string).collect() };
    let graph = module_graph(&[
        (
            m("a"),
            "use super::b::{self, X};\nuse crate::a::inner::Y;".to_string(),
        ),
        (m("a::inner"), "use super::super::c::Z;".to_string()),
        (m("b"), "fn f() { crate::a::g() }".to_string()),
        (
            m("c"),
            "use crate::{b::X, d};\n#[cfg(test)]\nuse crate::a::inner;".to_string(),
        ),
        (m("d"), "// crate::a::g()".to_string()),
    ]);
    assert_eq!(graph[&m("a")], BTreeSet::from([m("b"), m("c")]));
    assert_eq!(graph[&m("c")], BTreeSet::from([m("b"), m("d")]));
    assert!(!graph.contains_key(&m("d")));
    assert_eq!(
        cycles(&graph),
        BTreeSet::from([vec!["a".to_string(), "b".to_string(), "c".to_string()]])
    );
    assert_eq!(
        dependency_name("tokio = { version = \"1\" }"),
        Some("tokio")
    );
}

/// `ARCHITECTURE.md` draws the crates and `catalog-check`'s modules as the code has them:
/// a dependency added or removed without its line in the picture fails here, with the
/// lines to paste.
#[test]
fn the_architecture_draws_every_dependency() {
    let notes = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let compiler = root().join("crates/catalog-check/src");
    let files: Vec<(Module, String)> = rust_files(&compiler)
        .into_iter()
        .map(|f| {
            (
                module_of(&compiler, &f),
                std::fs::read_to_string(&f).unwrap(),
            )
        })
        .collect();
    let modules: BTreeMap<String, BTreeSet<String>> = module_graph(&files)
        .into_iter()
        .filter(|(from, _)| from.len() == 1)
        .map(|(from, to)| (from.join("::"), to.iter().map(|m| m.join("::")).collect()))
        .collect();
    for (what, edges) in [("crate", crate_graph()), ("module", modules)] {
        let picture = picture(&edges);
        assert!(
            notes.contains(&picture),
            "ARCHITECTURE.md should draw each {what} dependency as the code has it:\n{picture}"
        );
    }
}

/// `ARCHITECTURE.md` has a section for each crate in `crates/` and none for a crate that
/// is gone, every repository path it names exists, and it lists every check of this file.
#[test]
fn the_architecture_names_every_crate() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut problems = Vec::new();
    let crates: BTreeSet<String> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let sections: BTreeSet<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("### "))
        .filter(|h| *h != "The rest")
        .map(str::to_owned)
        .collect();
    for missing in crates.difference(&sections) {
        problems.push(format!(
            "ARCHITECTURE.md: no `### {missing}` section in the code map"
        ));
    }
    for gone in sections.difference(&crates) {
        problems.push(format!(
            "ARCHITECTURE.md: `### {gone}` names no crate in crates/"
        ));
    }
    for (i, line) in text.lines().enumerate() {
        for path in line.split('`').skip(1).step_by(2) {
            let repository_path = ["crates/", "tests/", "example/", "xtask/", "fuzz/"]
                .iter()
                .any(|top| path.starts_with(top));
            if repository_path && !root().join(path).exists() {
                problems.push(format!(
                    "ARCHITECTURE.md:{}: `{path}` does not exist",
                    i + 1
                ));
            }
        }
    }
    let tidy = std::fs::read_to_string(root().join("tests/tests/tidy.rs")).unwrap();
    for check in tidy.split("#[test]\nfn ").skip(1) {
        let name = &check[..check.find('(').unwrap()];
        if !text.contains(&format!("`{name}`")) {
            problems.push(format!(
                "ARCHITECTURE.md does not list the tidy check `{name}`"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `from → to, to` lines, one per node with dependencies, aligned, in name order.
fn picture(edges: &BTreeMap<String, BTreeSet<String>>) -> String {
    let width = edges.keys().map(|k| k.chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    for (from, to) in edges.iter().filter(|(_, to)| !to.is_empty()) {
        let to: Vec<&str> = to.iter().map(String::as_str).collect();
        writeln!(out, "{from:width$} → {}", to.join(", ")).unwrap();
    }
    out
}

/// The longest a source file may be without a reason given here.
const LONG: usize = 600;

/// The files longer than [`LONG`] lines, each with why it is one file.
const LONG_FILES: &[(&str, &str)] = &[
    // Snowball stemmers: each a translation, rule for rule, of its published algorithm;
    // kept whole so that it reads against the original.
    (
        "crates/catalog-search/src/snowball/dutch.rs",
        "a Snowball algorithm, translated whole",
    ),
    (
        "crates/catalog-search/src/snowball/french.rs",
        "a Snowball algorithm, translated whole",
    ),
    (
        "crates/catalog-search/src/snowball/italian.rs",
        "a Snowball algorithm, translated whole",
    ),
    (
        "crates/catalog-search/src/snowball/portuguese.rs",
        "a Snowball algorithm, translated whole",
    ),
    (
        "crates/catalog-search/src/snowball/spanish.rs",
        "a Snowball algorithm, translated whole",
    ),
    // Test suites: each of one subject, with the fixtures its tests share.
    (
        "crates/catalog-gateway/tests/servers.rs",
        "one suite: the gateway against real MCP servers",
    ),
    (
        "crates/catalog-gateway/tests/operations.rs",
        "one suite: the operator's file end to end",
    ),
    (
        "crates/catalog-core/src/verify/tests.rs",
        "one suite: the verifier's cases",
    ),
    (
        "crates/catalog-check/src/lint/tests.rs",
        "one suite: every lint's cases",
    ),
    (
        "example/backend/tests/tools.rs",
        "one suite: every tool of the example app",
    ),
    (
        "example/backend/tests/backend.rs",
        "one suite: the example backend's store and history",
    ),
    (
        "tests/tests/differential.rs",
        "one suite: the verifier against a reference validator",
    ),
    (
        "tests/tests/render.rs",
        "one suite: every provider's rendering, snapshotted",
    ),
    (
        "tests/tests/tidy.rs",
        "one suite: the rules tidy holds the tree to",
    ),
    (
        "crates/catalog-codegen/tests/fuzz.rs",
        "one suite: the generator of catalogs to fuzz and its checks",
    ),
    (
        "crates/catalog-mcp/examples/reference/tools.rs",
        "the reference server's handlers, one per scenario of the conformance suite",
    ),
    // One subject each, whose parts share private state or a table.
    (
        "crates/catalog-upstream/src/client.rs",
        "one type, `Upstream`: a session's connect, listings, calls and rounds share its private state",
    ),
    (
        "crates/catalog-check/src/shape/mod.rs",
        "one reader: every JSON Schema keyword into the verifier's shape",
    ),
    (
        "crates/catalog-check/src/check.rs",
        "the rules across keys and rows, one function each, run in order by `lower`",
    ),
    (
        "crates/catalog-check/src/model.rs",
        "the model's types, each with the few methods its readers share",
    ),
    (
        "crates/catalog-check/src/editor_schema.rs",
        "one generator: the editor's schema from the parser's key tables",
    ),
    (
        "crates/catalog-wire/src/provider/stream.rs",
        "one accumulator per provider's event stream, side by side",
    ),
    (
        "crates/catalog-result-scan/src/injection.rs",
        "one reading of orders to the model, across its languages",
    ),
    (
        "crates/catalog-gateway/src/relay.rs",
        "one router: everything an upstream sends back, by kind",
    ),
    (
        "crates/catalog-mcp/src/rounds.rs",
        "one protocol: multi round-trip requests, the server's half",
    ),
    (
        "crates/catalog-providers/src/scripted.rs",
        "one test double: a scripted model on each provider's wire",
    ),
    (
        "xtask/src/gen.rs",
        "one generator: synthetic catalogs and their requests",
    ),
    (
        "xtask/src/scale.rs",
        "one benchmark: the compiler and search as a catalog grows",
    ),
    (
        "xtask/src/bench_gateway.rs",
        "one benchmark: the gateway beside other proxies",
    ),
];

/// No source file is longer than [`LONG`] lines unless [`LONG_FILES`] says why; a file
/// listed there that has become short enough comes off the list.
#[test]
fn long_files_say_why() {
    let mut problems = Vec::new();
    let listed: BTreeMap<&str, &str> = LONG_FILES.iter().copied().collect();
    let mut long = BTreeSet::new();
    for dir in [
        "crates",
        "example",
        "tests",
        "xtask",
        "scale-bench",
        "gateway-bench",
        "fuzz",
    ] {
        for file in rust_files(&root().join(dir)) {
            let rel = file.strip_prefix(root()).unwrap().display().to_string();
            let lines = std::fs::read_to_string(&file).unwrap().lines().count();
            if lines > LONG {
                long.insert(rel.clone());
                if !listed.contains_key(rel.as_str()) {
                    problems.push(format!(
                        "{rel}: {lines} lines; split it, or give the reason it is one file in LONG_FILES"
                    ));
                }
            }
        }
    }
    for path in listed.keys().filter(|p| !long.contains(**p)) {
        problems.push(format!(
            "{path}: no longer over {LONG} lines; take it off LONG_FILES"
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The crates that read catalogs at run time link no Rust parser: neither they nor a
/// workspace crate they depend on names `syn`, `quote`, `proc-macro2` or the code
/// generator in `[dependencies]` (a derive macro's own parser is the compiler's, not
/// linked). `cargo tree -p catalog-gateway -e normal,no-proc-macro` agrees.
#[test]
fn serving_crates_link_no_rust_parser() {
    let all = dependencies();
    let graph = crate_graph();
    let parsers = ["syn", "quote", "proc-macro2", "catalog-codegen"];
    let mut problems = Vec::new();
    for root in [
        "catalog-gateway",
        "catalog-mcp",
        "catalog-upstream",
        "catalog-embed",
    ] {
        let mut seen = BTreeSet::new();
        let mut todo = vec![root.to_string()];
        while let Some(krate) = todo.pop() {
            if seen.insert(krate.clone()) {
                todo.extend(graph[&krate].iter().cloned());
            }
        }
        for krate in &seen {
            for parser in parsers.iter().filter(|p| all[krate].contains(**p)) {
                problems.push(format!("{root} links `{parser}` through {krate}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The macro's code generator changes with it: the workspace pins it exactly.
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let pin = manifest
        .lines()
        .find(|l| l.starts_with("catalog-codegen = "))
        .unwrap();
    assert!(pin.contains("version = \"="), "Cargo.toml: {pin}");
}

/// Which workspace crates each member depends on (`[dependencies]`, optional ones
/// included; dev-dependencies are the tests').
fn crate_graph() -> BTreeMap<String, BTreeSet<String>> {
    let deps = dependencies();
    let ours: BTreeSet<String> = deps.keys().cloned().collect();
    deps.into_iter()
        .map(|(name, named)| (name, named.intersection(&ours).cloned().collect()))
        .collect()
}

/// Every member's `[dependencies]` by name, the registry's included.
fn dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let members: Vec<&str> = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .unwrap()
        .0
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .collect();
    let mut deps = BTreeMap::new();
    for member in &members {
        let text = std::fs::read_to_string(root().join(member).join("Cargo.toml")).unwrap();
        let name = text
            .lines()
            .find_map(|l| l.strip_prefix("name = "))
            .unwrap()
            .trim_matches('"')
            .to_string();
        let mut section = String::new();
        let mut named = BTreeSet::new();
        for line in text.lines().map(str::trim) {
            if line.starts_with('[') {
                section = line.trim_matches(|c| c == '[' || c == ']').to_string();
                continue;
            }
            if section == "dependencies"
                && let Some(dep) = dependency_name(line)
            {
                named.insert(dep.to_string());
            }
        }
        deps.insert(name, named);
    }
    deps
}
