//! `cargo xtask bench-scale`: how the compiler and the search index behave as a catalog
//! grows, measured in one run per size and printed as the tables of `BENCHMARKS.md`.
//!
//! For each size: the catalog (BFCL's imported tools at 1,853 when the data is there, a
//! generated one otherwise, see the `gen` module) and its requests are written under
//! `target/scale/N/`, then
//! - the expansion is timed in this process: what the macro runs (`compile` + `expand`);
//! - two throwaway crates are built with cargo's dev profile, one calling `catalog!` on the
//!   file, one holding the same expansion pasted as source; both share
//!   `target/scale/target`, so their dependencies are built once, untimed; each clean
//!   build is `cargo clean -p` of that crate then `cargo build`, wall time, so cargo's own
//!   start-up is in both. The rebuild edits one row's description (for the pasted crate
//!   the expansion is regenerated first, untimed) and times `cargo build`;
//! - the expansion is read by nightly rustc, which times it as the user's build runs it
//!   (see the `rustc` module);
//! - search runs in the `scale-bench` crate's bench, once per engine in its own process.
//!
//! Over 600 lines: one measurement, read top to bottom (write, build, time, print the
//! tables); the rustc readings have their own module.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use cargo_catalog::args::positive;
use cargo_catalog::{Usage, thousands};
use serde_json::Value;

use crate::r#gen::{self, Arguments};

mod rustc;

/// Sizes measured when `--sizes` is not given: a small catalog, BFCL, the hosted tool
/// search's limit and the largest published tool index.
const SIZES: &[usize] = &[100, 1853, 10_000, 25_519];
/// BFCL's tools and development requests, vendored in `tests/data/bfcl`.
const BFCL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/bfcl/");
const BFCL_TOOLS: usize = 1853;

/// A build's wall time and the processor time cargo and rustc spent on it (user +
/// system, the whole process tree), in seconds. The processor time barely moves when
/// other work shares the machine; the wall time is what a user waits.
#[derive(Clone, Copy)]
struct Timing {
    wall: f64,
    cpu: f64,
    /// The largest resident memory a rustc process reached meanwhile, in MiB.
    peak_mib: f64,
}

/// What one size measured; `None` where a step did not run (over budget or failed).
#[derive(Default)]
struct Row {
    tools: usize,
    source: String,
    expand_ms: f64,
    compile_ms: f64,
    index_ms: f64,
    format_ms: f64,
    code_bytes: usize,
    table_bytes: usize,
    macro_build: Option<Timing>,
    pasted_build: Option<Timing>,
    macro_rebuild: Option<Timing>,
    pasted_rebuild: Option<Timing>,
    rlib_bytes: Option<u64>,
    builds_timed: usize,
    ours: Option<Value>,
    tantivy: Option<Value>,
    /// The expansion as rustc runs it.
    rustc: rustc::Readings,
}

/// How the compiler and the search index behave as a catalog grows
///
/// Expansion (in this process and, with a nightly toolchain, inside rustc), build and
/// rebuild times, search against tantivy, sizes, per catalog size; prints the tables of
/// BENCHMARKS.md (run it with --release).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The catalog sizes, comma separated (1853 is BFCL's tools, when the data is there)
    #[arg(long, value_name = "N,...", value_delimiter = ',', value_parser = size, default_values_t = SIZES.to_vec())]
    sizes: Vec<usize>,
    /// Clean builds per size up to 2,000 tools (one above)
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = positive)]
    runs: usize,
    /// The generator's seed
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Builds stop being repeated once the run has taken this long
    #[arg(long, value_name = "MINUTES", default_value_t = 90, value_parser = positive)]
    budget_minutes: usize,
    /// Measurements to leave out, comma separated
    #[arg(long, value_enum, value_name = "PART,...", value_delimiter = ',')]
    skip: Vec<Skip>,
    /// The generated rows' arguments
    #[arg(long, value_enum, default_value_t = Arguments::Typed)]
    arguments: Arguments,
}

/// What `--skip` leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Skip {
    /// The timed builds of the throwaway crates
    Builds,
    /// Search against tantivy
    Search,
    /// The expansion inside nightly rustc
    Rustc,
}

/// Runs the benchmark.
pub fn run(args: &Args) -> Result<ExitCode, Usage> {
    let json = args.arguments == Arguments::Json;
    let (sizes, runs, seed) = (&args.sizes, args.runs, args.seed);
    let budget_s = 60.0 * count(args.budget_minutes);
    let skip = &args.skip;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let scale = root.join("target").join("scale");
    let started = Instant::now();
    if cfg!(debug_assertions) {
        println!(
            "note: xtask is a debug build, so expansion times mean little; use `cargo run --release -p xtask -- bench-scale`"
        );
    }

    let search_bench = if skip.contains(&Skip::Search) {
        None
    } else {
        println!("building the search bench (scale-bench, release)…");
        Some(build_search_bench(&root))
    };

    let mut rows = Vec::new();
    for &n in sizes {
        let elapsed = started.elapsed().as_secs_f64();
        println!("\n== {n} tools ({elapsed:.0} s into the run)");
        let dir = scale.join(n.to_string());
        std::fs::create_dir_all(&dir)
            .map_err(|e| Usage(format!("cannot create {}: {e}", dir.display())))?;
        let (source, toml, queries) = catalog_for(n, seed, json);
        write(&dir.join("tools.toml"), &toml);
        write(&dir.join("queries.jsonl"), &queries);
        let mut row = Row {
            source,
            ..Row::default()
        };
        expansion(&toml, n, &mut row);
        println!(
            "{} rows; expansion {:.0} ms (parse and check {:.0} ms, search index {:.0} ms; format {:.0} ms), {} KiB of code, search tables {} KiB",
            row.tools,
            row.expand_ms,
            row.compile_ms,
            row.index_ms,
            row.format_ms,
            row.code_bytes / 1024,
            row.table_bytes / 1024
        );
        if !skip.contains(&Skip::Rustc) {
            row.rustc = in_rustc(&root, &scale, &dir, n, &toml);
        }
        if !skip.contains(&Skip::Builds) {
            let runs = if n <= 2000 { runs } else { 1 };
            builds(
                &root, &scale, &dir, n, &toml, runs, budget_s, started, &mut row,
            );
        }
        if let Some(Some(bench)) = &search_bench {
            row.ours = search(bench, &dir, "ours");
            row.tantivy = search(bench, &dir, "tantivy");
        }
        rows.push(row);
    }
    print!("{}", tables(&rows));
    println!(
        "\nwhole run: {:.1} min (sizes {sizes:?}, {runs} clean builds each up to 2,000 tools, 1 above)",
        started.elapsed().as_secs_f64() / 60.0
    );
    Ok(ExitCode::SUCCESS)
}

/// `10_000` as a size of 3 tools or more.
fn size(value: &str) -> Result<usize, String> {
    match value.trim().replace('_', "").parse::<usize>() {
        Ok(n) if n >= 3 => Ok(n),
        _ => Err("sizes are whole numbers of 3 or more".into()),
    }
}

/// The catalog of a size, where it came from, and its requests.
fn catalog_for(n: usize, seed: u64, json: bool) -> (String, String, String) {
    if n == BFCL_TOOLS {
        let tools = std::fs::read_to_string(format!("{BFCL}tools.json"));
        let dev = std::fs::read_to_string(format!("{BFCL}dev.jsonl"));
        if let (Ok(tools), Ok(dev)) = (tools, dev) {
            let doc: Value = serde_json::from_str(&tools).expect("BFCL's tools.json is JSON");
            let imported = catalog_check::import::from_mcp("tools.json", &doc)
                .expect("BFCL's tools.json is a tools/list result");
            return ("BFCL, imported".into(), imported.toml, dev);
        }
        println!("BFCL data not found at {BFCL}: a generated catalog stands in");
    }
    let g = r#gen::catalog(n, seed);
    if json {
        let toml = r#gen::json_arguments(&g.toml);
        return (format!("generated, seed {seed}, JSON"), toml, g.queries);
    }
    (format!("generated, seed {seed}"), g.toml, g.queries)
}

/// What the macro does, timed in this process, and the sizes of what it makes.
fn expansion(toml: &str, n: usize, row: &mut Row) {
    let rounds = if n <= 2000 { 5 } else { 3 };
    let opts = catalog_codegen::Options {
        track: Some("tools.toml".into()),
        ..catalog_codegen::Options::default()
    };
    let (mut times, mut compile_times, mut index_times) = (Vec::new(), Vec::new(), Vec::new());
    let mut tokens = None;
    for _ in 0..rounds {
        drop(tokens.take()); // not timed
        let start = Instant::now();
        let catalog = catalog_check::compile(toml)
            .unwrap_or_else(|d| panic!("{}", catalog_check::render_all("tools.toml", toml, &d)));
        compile_times.push(ms(start));
        tokens = Some((catalog_codegen::expand(&catalog, &opts), catalog));
        times.push(ms(start));
        // The index alone, which `expand` also builds: its share of the expansion.
        let start = Instant::now();
        let index = catalog_check::search::index(
            &tokens.as_ref().expect("just set").1,
            catalog_core::search::Weights::DEFAULT,
        );
        index_times.push(ms(start));
        drop(index);
    }
    row.compile_ms = median(&mut compile_times);
    row.index_ms = median(&mut index_times);
    let (tokens, catalog) = tokens.expect("expanded at least once");
    let start = Instant::now();
    let code = catalog_codegen::format(tokens).expect("the expansion parses");
    row.format_ms = ms(start);
    row.expand_ms = median(&mut times);
    row.code_bytes = code.len();
    row.tools = catalog.tools.len();
    let index = catalog_check::search::index(&catalog, catalog_core::search::Weights::DEFAULT);
    row.table_bytes = std::mem::size_of_val(index.slots.as_slice())
        + std::mem::size_of_val(index.postings.as_slice())
        + std::mem::size_of_val(index.name_rank.as_slice());
}

/// The expansion read by nightly rustc (see [`rustc`]), from two crates of its own.
fn in_rustc(root: &Path, scale: &Path, dir: &Path, n: usize, toml: &str) -> rustc::Readings {
    let lock =
        std::fs::read_to_string(root.join("Cargo.lock")).expect("the workspace has a Cargo.lock");
    let (with_macro, pasted_dir) = (dir.join("rustc-macro"), dir.join("rustc-pasted"));
    write_crate(
        &with_macro,
        &format!("scale-rustc-macro-{n}"),
        true,
        MACRO_LIB,
        toml,
        &lock,
    );
    write_crate(
        &pasted_dir,
        &format!("scale-rustc-pasted-{n}"),
        false,
        &pasted(toml),
        toml,
        &lock,
    );
    let readings = rustc::measure(&scale.join("nightly"), &with_macro, &pasted_dir);
    let show = |r: Option<rustc::Read>| {
        r.map_or("—".into(), |r| {
            format!("{:.2} s ({:.0} MB)", r.secs, r.rss_mib)
        })
    };
    println!(
        "in rustc, parse + expand: catalog! {}, macro at opt-level 3 {}, pasted {}",
        show(readings.macro_default),
        show(readings.macro_optimised),
        show(readings.pasted)
    );
    readings
}

/// The library of the crate that calls the macro.
const MACRO_LIB: &str = "//! `catalog!` on a generated catalog.\n#![allow(missing_docs)]\n::catalog_macros::catalog!(\"tools.toml\");\n";

/// The formatted expansion of a catalog, tracking `tools.toml` as the macro does.
fn pasted(toml: &str) -> String {
    let catalog = catalog_check::compile(toml).expect("the catalog compiled before");
    let opts = catalog_codegen::Options {
        track: Some("tools.toml".into()),
        ..catalog_codegen::Options::default()
    };
    let code = catalog_codegen::format(catalog_codegen::expand(&catalog, &opts))
        .expect("the expansion parses");
    format!(
        "//! Generated by `cargo xtask bench-scale`: the expansion of `catalog!(\"tools.toml\")`.\n#![allow(missing_docs)]\n{code}"
    )
}

/// A throwaway crate using the workspace's runtime (and macro) by path.
fn write_crate(dir: &Path, name: &str, with_macro: bool, lib: &str, toml: &str, lock: &str) {
    std::fs::create_dir_all(dir.join("src")).expect("target/scale is writable");
    let macros = if with_macro {
        "catalog-macros = { path = \"../../../../crates/catalog-macros\" }\n"
    } else {
        ""
    };
    write(
        &dir.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\ncatalog-core = {{ path = \"../../../../crates/catalog-core\" }}\n{macros}\n\
             # Its own workspace: the crate lives under the project's target directory.\n[workspace]\n"
        ),
    );
    write(&dir.join("src").join("lib.rs"), lib);
    write(&dir.join("tools.toml"), toml);
    // The project's lock file, so both crates build the same versions as the project.
    write(&dir.join("Cargo.lock"), lock);
}

#[allow(clippy::too_many_arguments)]
fn builds(
    root: &Path,
    scale: &Path,
    dir: &Path,
    n: usize,
    toml: &str,
    runs: usize,
    budget_s: f64,
    started: Instant,
    row: &mut Row,
) {
    let lock =
        std::fs::read_to_string(root.join("Cargo.lock")).expect("the workspace has a Cargo.lock");
    let target = scale.join("target");
    let mac = (dir.join("macro"), format!("scale-macro-{n}"));
    let pas = (dir.join("pasted"), format!("scale-pasted-{n}"));
    let pas_lib = pasted(toml);
    let over = || started.elapsed().as_secs_f64() > budget_s;
    // Dependencies first, untimed, under an empty library (so the crate itself is not
    // built for nothing); then the real library.
    for ((krate, name), with_macro, lib) in
        [(&mac, true, MACRO_LIB), (&pas, false, pas_lib.as_str())]
    {
        if over() {
            println!("builds skipped: over the time budget");
            return;
        }
        write_crate(krate, name, with_macro, "//! Empty.\n", toml, &lock);
        if cargo(&target, krate, &["build"]).is_none() {
            return;
        }
        write_crate(krate, name, with_macro, lib, toml, &lock);
    }
    let mut mac_times = Vec::new();
    let mut pas_times = Vec::new();
    for run in 0..runs {
        if over() && run > 0 {
            println!("further clean builds skipped: over the time budget");
            break;
        }
        // Alternating, so a slower spell of the machine weighs on both.
        for ((krate, name), times) in [(&mac, &mut mac_times), (&pas, &mut pas_times)] {
            let _ = cargo(&target, krate, &["clean", "-p", name]);
            if let Some(s) = cargo(&target, krate, &["build"]) {
                times.push(s);
            }
        }
        println!(
            "clean build {}: catalog! {}, pasted {}",
            run + 1,
            show(mac_times.last()),
            show(pas_times.last())
        );
    }
    row.builds_timed = mac_times.len().min(pas_times.len());
    row.macro_build = median_timing(&mac_times);
    row.pasted_build = median_timing(&pas_times);
    row.rlib_bytes = std::fs::metadata(
        target
            .join("debug")
            .join(format!("lib{}.rlib", mac.1.replace('-', "_"))),
    )
    .ok()
    .map(|m| m.len());

    if over() {
        println!("rebuilds skipped: over the time budget");
        return;
    }
    let edited = edit_one_row(toml);
    write(&mac.0.join("tools.toml"), &edited);
    row.macro_rebuild = cargo(&target, &mac.0, &["build"]);
    write(&pas.0.join("tools.toml"), &edited);
    write(&pas.0.join("src").join("lib.rs"), &pasted(&edited));
    row.pasted_rebuild = cargo(&target, &pas.0, &["build"]);
    println!(
        "rebuild after editing one row: catalog! {}, pasted {}",
        show(row.macro_rebuild.as_ref()),
        show(row.pasted_rebuild.as_ref())
    );
}

/// The catalog with the description of its last row changed.
fn edit_one_row(toml: &str) -> String {
    let at = toml
        .rfind("\ndescription = \"")
        .expect("a row has a description")
        + "\ndescription = \"".len();
    format!("{}Edited: {}", &toml[..at], &toml[at..])
}

/// Runs cargo on a throwaway crate; its timing, or `None` (with the reason printed) when
/// it fails.
fn cargo(target: &Path, krate: &Path, args: &[&str]) -> Option<Timing> {
    let cpu_before = children_cpu();
    let start = Instant::now();
    let child = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(args)
        .arg("--quiet")
        .current_dir(krate)
        .env("CARGO_TARGET_DIR", target)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            println!("cannot run cargo: {e}");
            return None;
        }
    };
    // Peak memory: each rustc's high-water mark, read while it runs.
    let mut peak_kib = 0;
    while matches!(child.try_wait(), Ok(None)) {
        peak_kib = peak_kib.max(rustc_peak_kib());
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output();
    let secs = start.elapsed().as_secs_f64();
    match out {
        Ok(o) if o.status.success() => Some(Timing {
            wall: secs,
            cpu: children_cpu() - cpu_before,
            #[allow(clippy::cast_precision_loss)] // KiB far below 2^52
            peak_mib: peak_kib as f64 / 1024.0,
        }),
        Ok(o) => {
            let err = String::from_utf8_lossy(&o.stderr);
            let tail: Vec<&str> = err.lines().rev().take(15).collect();
            println!(
                "`cargo {}` in {} failed:\n{}",
                args.join(" "),
                krate.display(),
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
            None
        }
        Err(e) => {
            println!("cannot run cargo: {e}");
            None
        }
    }
}

/// The largest `VmHWM` (peak resident memory, KiB) of the rustc processes running now,
/// from `/proc`; 0 where there is none or no `/proc`.
fn rustc_peak_kib() -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    dir.flatten()
        .filter(|e| {
            std::fs::read_to_string(e.path().join("comm")).is_ok_and(|c| c.trim() == "rustc")
        })
        .filter_map(|e| std::fs::read_to_string(e.path().join("status")).ok())
        .filter_map(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .max()
        .unwrap_or(0)
}

/// Builds the search bench; the path of its executable, or `None` (reason printed).
fn build_search_bench(root: &Path) -> Option<PathBuf> {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "bench",
            "-p",
            "scale-bench",
            "--bench",
            "scale",
            "--no-run",
            "--message-format",
            "json",
        ])
        .current_dir(root)
        .stderr(Stdio::inherit())
        .output();
    let out = match out {
        Ok(o) if o.status.success() => o,
        Ok(o) => {
            println!(
                "search skipped: the scale-bench build failed ({})",
                o.status
            );
            return None;
        }
        Err(e) => {
            println!("search skipped: cannot run cargo: {e}");
            return None;
        }
    };
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|m| m["target"]["name"] == "scale")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
}

/// One engine's search figures on one size (the bench's JSON line).
fn search(bench: &Path, dir: &Path, engine: &str) -> Option<Value> {
    let out = Command::new(bench)
        .arg("--bench")
        .arg("--catalog")
        .arg(dir.join("tools.toml"))
        .arg("--queries")
        .arg(dir.join("queries.jsonl"))
        .args(["--engine", engine])
        .stderr(Stdio::inherit())
        .output()
        .ok()?;
    if !out.status.success() {
        println!("search with {engine} failed: {}", out.status);
        return None;
    }
    let f: Value = String::from_utf8_lossy(&out.stdout)
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())?;
    println!(
        "search, {engine}: recall@5 {:.3}, median {:.1} µs, p99 {:.1} µs, index {:.0} ms, peak +{} KiB",
        f["recall"].as_f64().unwrap_or(f64::NAN),
        f["median_us"].as_f64().unwrap_or(f64::NAN),
        f["p99_us"].as_f64().unwrap_or(f64::NAN),
        f["index_ms"].as_f64().unwrap_or(f64::NAN),
        f["peak_delta_kib"],
    );
    Some(f)
}

/// The figures as the markdown tables of `BENCHMARKS.md`.
fn tables(rows: &[Row]) -> String {
    let mut t = String::new();
    let f = cell;
    let _ = writeln!(t, "\n### Compile time\n");
    let _ = writeln!(
        t,
        "| tools | catalog | expansion (compile + expand) | of which parse + check | of which search index | generated code | search tables | clean build, `catalog!` | clean build, pasted expansion | macro overhead | rebuild after one edit, `catalog!` | rebuild, pasted | rlib |"
    );
    let _ = writeln!(
        t,
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for r in rows {
        let overhead = r
            .macro_build
            .zip(r.pasted_build)
            .map_or("—".into(), |(m, p)| {
                format!(
                    "{:+.0}% ({:+.0}%)",
                    100.0 * (m.wall - p.wall) / p.wall,
                    100.0 * (m.cpu - p.cpu) / p.cpu
                )
            });
        let _ = writeln!(
            t,
            "| {} | {} | {:.0} ms | {:.0} ms | {:.0} ms | {:.1} MiB | {:.0} KiB | {} | {} | {overhead} | {} | {} | {} |",
            thousands(r.tools),
            r.source,
            r.expand_ms,
            r.compile_ms,
            r.index_ms,
            mib(r.code_bytes),
            count(r.table_bytes) / 1024.0,
            f(r.macro_build),
            f(r.pasted_build),
            f(r.macro_rebuild),
            f(r.pasted_rebuild),
            r.rlib_bytes.map_or("—".into(), |b| format!(
                "{:.1} MiB",
                mib(usize::try_from(b).unwrap_or(usize::MAX))
            )),
        );
    }
    let runs: Vec<String> = rows
        .iter()
        .map(|r| format!("{}: {}", thousands(r.tools), r.builds_timed))
        .collect();
    let _ = writeln!(
        t,
        "\nBuild times: wall (processor: user + system of cargo and rustc; the largest resident memory of a rustc meanwhile). Clean builds timed (median taken): {}.",
        runs.join(", ")
    );

    rustc_table(&mut t, rows);
    search_table(&mut t, rows);
    t
}

/// The expansion as nightly rustc reports it: parse + expand, and memory after.
fn rustc_table(t: &mut String, rows: &[Row]) {
    if rows.iter().all(|r| r.rustc.pasted.is_none()) {
        return;
    }
    let _ = writeln!(t, "\n### Expansion in rustc\n");
    let _ = writeln!(
        t,
        "| tools | `catalog!`, macro as cargo builds it | macro at opt-level 3 | pasted expansion (parsing alone) | `catalog!` / pasted | opt-level 3 / pasted |"
    );
    let _ = writeln!(t, "|---:|---:|---:|---:|---:|---:|");
    let cell = |r: Option<rustc::Read>| {
        r.map_or("—".into(), |r| {
            format!("{:.2} s ({:.0} MB)", r.secs, r.rss_mib)
        })
    };
    let ratio = |a: Option<rustc::Read>, b: Option<rustc::Read>| {
        a.zip(b)
            .map_or("—".into(), |(a, b)| format!("{:.1}×", a.secs / b.secs))
    };
    for r in rows {
        let x = &r.rustc;
        let _ = writeln!(
            t,
            "| {} | {} | {} | {} | {} | {} |",
            thousands(r.tools),
            cell(x.macro_default),
            cell(x.macro_optimised),
            cell(x.pasted),
            ratio(x.macro_default, x.pasted),
            ratio(x.macro_optimised, x.pasted),
        );
    }
    let _ = writeln!(
        t,
        "\nSeconds of rustc's `parse_crate` + `macro_expand_crate` (nightly `-Z time-passes -Z no-analysis`), with rustc's resident memory after expansion."
    );
}

/// A build's timing as a table cell: wall (processor, peak rustc memory).
fn cell(v: Option<Timing>) -> String {
    v.map_or("—".into(), |t| {
        format!("{:.1} s ({:.1} s, {:.0} MiB)", t.wall, t.cpu, t.peak_mib)
    })
}

fn search_table(t: &mut String, rows: &[Row]) {
    if rows.iter().all(|r| r.ours.is_none() && r.tantivy.is_none()) {
        return;
    }
    let _ = writeln!(t, "\n### Search\n");
    let _ = writeln!(
        t,
        "| tools | requests | recall@5 ours | recall@5 tantivy | median µs ours | median µs tantivy | p99 µs ours | p99 µs tantivy | median tantivy / ours | index build ours | index build tantivy | peak memory growth ours | tantivy |"
    );
    let _ = writeln!(
        t,
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for r in rows {
        let (Some(o), Some(v)) = (&r.ours, &r.tantivy) else {
            continue;
        };
        let num = |x: &Value, k: &str| x[k].as_f64().unwrap_or(f64::NAN);
        let kib = |x: &Value| {
            x["peak_delta_kib"]
                .as_f64()
                .map_or("—".into(), |k| format!("{:.1} MiB", k / 1024.0))
        };
        let _ = writeln!(
            t,
            "| {} | {} | {:.3} | {:.3} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1}× | {:.0} ms | {:.0} ms | {} | {} |",
            thousands(r.tools),
            o["queries"],
            num(o, "recall"),
            num(v, "recall"),
            num(o, "median_us"),
            num(v, "median_us"),
            num(o, "p99_us"),
            num(v, "p99_us"),
            num(v, "median_us") / num(o, "median_us"),
            num(o, "index_ms"),
            num(v, "index_ms"),
            kib(o),
            kib(v),
        );
    }
}

/// Processor seconds of every finished child process and its descendants, from
/// `/proc/self/stat` (cutime + cstime, in clock ticks of 1/100 s); 0 where there is none.
fn children_cpu() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // cutime and cstime are the 16th and 17th fields; `rest` starts at the 3rd.
    let ticks: u64 = fields
        .get(13..15)
        .map_or(0, |f| f.iter().filter_map(|t| t.parse::<u64>().ok()).sum());
    #[allow(clippy::cast_precision_loss)] // ticks far below 2^52
    let secs = ticks as f64 / 100.0;
    secs
}

fn median_timing(times: &[Timing]) -> Option<Timing> {
    if times.is_empty() {
        return None;
    }
    let mut wall: Vec<f64> = times.iter().map(|t| t.wall).collect();
    let mut cpu: Vec<f64> = times.iter().map(|t| t.cpu).collect();
    let mut peak: Vec<f64> = times.iter().map(|t| t.peak_mib).collect();
    Some(Timing {
        wall: median(&mut wall),
        cpu: median(&mut cpu),
        peak_mib: median(&mut peak),
    })
}

fn show(t: Option<&Timing>) -> String {
    t.map_or("—".into(), |t| {
        format!(
            "{:.2} s ({:.2} s processor, rustc peak {:.0} MiB)",
            t.wall, t.cpu, t.peak_mib
        )
    })
}

fn write(path: &Path, text: &str) {
    // Unchanged files keep their time stamps, so cargo does not rebuild for nothing.
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return;
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

fn mib(bytes: usize) -> f64 {
    count(bytes) / (1024.0 * 1024.0)
}

#[allow(clippy::cast_precision_loss)] // counts far below 2^52
fn count(n: usize) -> f64 {
    n as f64
}
