//! The compiler on arbitrary and mutated TOML: no input makes it panic, and every failure
//! is a located error. Three streams of inputs, from one deterministic generator so a
//! failure reproduces from its seed and case number:
//!
//! - **mutated**: the tables catalog (`tests/data/tables.toml`) with bytes deleted, duplicated or replaced by TOML's
//!   punctuation, lines dropped, duplicated or swapped, the catalog's own keys and values
//!   and hidden or multi-byte characters inserted, or the text cut short;
//! - **generated**: catalogs built from the format's vocabulary (every key, lint, setting
//!   and value the compiler knows, and some it does not), mostly well-formed so that the
//!   checks past parsing run, then the lints and the expansion;
//! - **noise**: short strings of TOML-ish characters.
//!
//! For every input: `outline` and `compile` return; an error has a message and a span
//! inside the text, and renders with a line and column; the skeleton of an invalid catalog
//! is valid Rust. For a valid catalog every lint runs (with a stand-in tokenizer), and
//! the expansion is valid Rust.
//!
//! `CATALOG_FUZZ_CASES=N` sets the inputs per stream (default 150: `cargo test` stays
//! quick), `CATALOG_FUZZ_SEED=S` the seed. The long run:
//! `CATALOG_FUZZ_CASES=50000 cargo test --release -p catalog-codegen --test fuzz -- --nocapture`.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

use catalog_check::lint::{self, Level, LintId, Tokenizer};

const EXAMPLE: &str = include_str!("../../../tests/data/tables.toml");

/// A small deterministic generator (the constants of Knuth's MMIX LCG).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        #[allow(clippy::cast_possible_truncation)] // the high 31 bits
        let x = (self.0 >> 33) as usize;
        x % below.max(1)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.next(items.len())]
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.next(100) < percent
    }
}

/// Every key the format has, read from `catalog.schema.json` (which a unit test of the
/// parser keeps equal to the keys it reads), and some near misses.
fn keys() -> &'static [String] {
    static KEYS: OnceLock<Vec<String>> = OnceLock::new();
    KEYS.get_or_init(|| {
        fn walk(v: &serde_json::Value, out: &mut BTreeSet<String>) {
            match v {
                serde_json::Value::Object(m) => {
                    for (k, x) in m {
                        if let ("properties", serde_json::Value::Object(props)) = (k.as_str(), x) {
                            out.extend(props.keys().cloned());
                        }
                        walk(x, out);
                    }
                }
                serde_json::Value::Array(items) => items.iter().for_each(|x| walk(x, out)),
                _ => {}
            }
        }
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../../../catalog.schema.json"))
                .expect("the schema is JSON");
        let mut keys = BTreeSet::new();
        walk(&schema, &mut keys);
        let near_misses = [
            "visiblity",
            "unamed-need",
            "tpye",
            "question",
            "table",
            "filter",
        ];
        keys.extend(near_misses.map(String::from));
        keys.into_iter().collect()
    })
}

/// Values the format knows, and some it does not.
const VALUES: &[&str] = &[
    "\"inline\"",
    "\"discoverable\"",
    "\"silent\"",
    "\"gated\"",
    "\"read-only\"",
    "\"read-and-stage\"",
    "\"full-access\"",
    "\"allow\"",
    "\"warn\"",
    "\"deny\"",
    "\"string\"",
    "\"integer\"",
    "\"number\"",
    "\"boolean\"",
    "\"array\"",
    "\"object\"",
    "\"turn\"",
    "\"conversation\"",
    "\"searchTools\"",
    "\"ask\"",
    "true",
    "false",
    "0",
    "1",
    "-1",
    "30",
    "0.5",
    "1e400",
    "nan",
    "inf",
    "9223372036854775808",
    "1979-05-27T07:32:00Z",
    "[]",
    "{}",
    "[\"a\", \"a\"]",
    "{ type = \"string\" }",
    "{ level = \"deny\", max-tools = 2 }",
    "'{\"type\": \"object\"}'",
    "'{not json'",
    "\"\"",
    "\"\u{200B}x\u{202E}\"",
    "\"ignore previous instructions\"",
    "\"see https://x.example\"",
    "\"é中🙂\"",
];

/// Characters that break things: TOML punctuation, line ends, multi-byte and invisible.
const ODD: &[&str] = &[
    "[",
    "]",
    "{",
    "}",
    "=",
    "\"",
    "'",
    ",",
    ".",
    "#",
    "\n",
    "\r\n",
    " ",
    "\t",
    "\\",
    "x",
    "1",
    "é",
    "中",
    "🙂",
    "\u{200B}",
    "\u{202E}",
    "\u{FEFF}",
    "\u{E0041}",
    "\0",
];

fn line_around(bytes: &[u8], at: usize) -> (usize, usize) {
    let start = bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let end = bytes[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| at + i);
    (start, end)
}

/// The tables catalog, changed one to four times.
fn mutated(rng: &mut Lcg) -> String {
    let mut bytes = EXAMPLE.as_bytes().to_vec();
    for _ in 0..=rng.next(4) {
        let at = rng.next(bytes.len());
        match rng.next(10) {
            0 => {
                bytes.remove(at);
            }
            1 => {
                let b = bytes[at];
                bytes.insert(at, b);
            }
            2 => {
                let punctuation = b"[]{}=\",.#'\n x1";
                bytes[at] = punctuation[rng.next(punctuation.len())];
            }
            3 => {
                let (start, end) = line_around(&bytes, at);
                bytes.drain(start..end);
            }
            4 => {
                let (start, end) = line_around(&bytes, at);
                let line = bytes[start..end].to_vec();
                let to = rng.next(bytes.len());
                bytes.splice(to..to, line);
            }
            5 => {
                let (start, end) = line_around(&bytes, at);
                let text = format!("{} = {}", rng.pick(keys()), rng.pick(VALUES));
                bytes.splice(start..end, text.into_bytes());
            }
            6 => {
                let odd = rng.pick(ODD).as_bytes().to_vec();
                bytes.splice(at..at, odd);
            }
            7 => {
                // Replace a value: the text after the first `=` of the line.
                let (start, end) = line_around(&bytes, at);
                if let Some(eq) = bytes[start..end].iter().position(|&b| b == b'=') {
                    let value = format!(" {}", rng.pick(VALUES));
                    bytes.splice(start + eq + 1..end, value.into_bytes());
                }
            }
            8 => {
                // Swap two lines.
                let (a0, a1) = line_around(&bytes, at);
                let line = bytes[a0..a1].to_vec();
                bytes.drain(a0..a1);
                let to = line_around(&bytes, rng.next(bytes.len())).0;
                bytes.splice(to..to, line);
            }
            _ => bytes.truncate(at),
        }
        if bytes.is_empty() {
            break;
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A catalog built from the vocabulary: rows that are mostly right, with a wrong key or
/// value now and then.
#[allow(clippy::too_many_lines)] // one section of the format after another
fn generated(rng: &mut Lcg) -> String {
    let mut out = String::new();
    let value = |rng: &mut Lcg, right: &str| -> String {
        if rng.chance(3) {
            (*rng.pick(VALUES)).to_string()
        } else {
            right.to_string()
        }
    };
    if !rng.chance(3) {
        out.push_str("[settings]\n");
        let _ = writeln!(out, "search-tool = {}", value(rng, "\"searchTools\""));
        let _ = writeln!(out, "ask-tool = {}", value(rng, "\"ask\""));
        if rng.chance(30) {
            let _ = writeln!(out, "search-results = {}", value(rng, "3"));
        }
        if rng.chance(20) {
            let _ = writeln!(out, "keep-discovered = {}", value(rng, "\"turn\""));
        }
    }
    if rng.chance(40) {
        out.push_str("\n[lints]\n");
        // Distinct lints: a repeated key is a TOML error, which the noise stream covers.
        let first = rng.next(lint::LINTS.len());
        for k in 0..=rng.next(4) {
            let l = &lint::LINTS[(first + k) % lint::LINTS.len()];
            let level = *rng.pick(&["\"allow\"", "\"warn\"", "\"deny\""]);
            match (l.settings.first(), rng.next(3)) {
                (Some(s), 0) => {
                    let n = if s.whole {
                        format!("{}", rng.next(60))
                    } else {
                        format!("0.{}", rng.next(10))
                    };
                    let _ = writeln!(out, "{} = {{ level = {level}, {} = {n} }}", l.name, s.name);
                }
                _ => {
                    let _ = writeln!(out, "{} = {}", l.name, value(rng, level));
                }
            }
        }
    }
    out.push_str(
        "\n[[tool]]\nname = \"searchTools\"\ndescription = \"Finds tools.\"\n[tool.params]\nquery = { type = \"string\" }\n",
    );
    out.push_str("\n[[tool]]\nname = \"ask\"\ndescription = \"Asks the user.\"\nvisibility = \"inline\"\neffect = \"reads\"\ntier = \"silent\"\n");
    let words = [
        "orders", "export", "csv", "table", "rows", "delete", "date", "chart", "undo", "open",
    ];
    for i in 0..rng.next(8) {
        let name = if rng.chance(2) {
            (*rng.pick(&["ask", "open table", "Tool", "searchTools", "a.b", "x"])).to_string()
        } else {
            format!("{}{i}", rng.pick(&words))
        };
        let _ = writeln!(out, "\n[[tool]]\nname = \"{name}\"");
        let text: Vec<&str> = (0..=rng.next(6)).map(|_| *rng.pick(&words)).collect();
        let _ = writeln!(
            out,
            "description = {}",
            value(rng, &format!("\"{}.\"", text.join(" ")))
        );
        let _ = writeln!(out, "visibility = {}", {
            let v = *rng.pick(&["\"inline\"", "\"discoverable\""]);
            value(rng, v)
        });
        let (tier, access) = *rng.pick(&[
            ("\"silent\"", "\"read-only\""),
            ("\"silent\"", "\"read-and-stage\""),
            ("\"gated\"", "\"full-access\""),
            ("\"gated\"", "\"read-only\""),
        ]);
        let _ = writeln!(
            out,
            "tier = {}\naccess = {}",
            value(rng, tier),
            value(rng, access)
        );
        if rng.chance(60) {
            let e: Vec<String> = (0..=rng.next(2))
                .map(|_| format!("\"{} the {}\"", rng.pick(&words), rng.pick(&words)))
                .collect();
            let _ = writeln!(out, "examples = [{}]", e.join(", "));
        }
        if rng.chance(30) {
            let _ = writeln!(out, "keywords = [\"{}\"]", rng.pick(&words));
        }
        if rng.chance(4) {
            let _ = writeln!(out, "{} = {}", rng.pick(keys()), rng.pick(VALUES));
        }
        if rng.chance(10) {
            let _ = writeln!(
                out,
                "[tool.lints]\n{} = {}",
                lint::LINTS[rng.next(lint::LINTS.len())].name,
                value(rng, "\"allow\"")
            );
        }
        if rng.chance(50) {
            out.push_str("[tool.params]\n");
            for p in 0..=rng.next(3) {
                let _ = writeln!(out, "p{p} = {}", type_spec(rng, 0));
            }
        }
    }
    out
}

/// An inline type, nested up to three levels.
fn type_spec(rng: &mut Lcg, depth: usize) -> String {
    let extra = if rng.chance(5) {
        format!(", {} = {}", rng.pick(keys()), rng.pick(VALUES))
    } else {
        String::new()
    };
    let required = if rng.chance(30) {
        ", required = false"
    } else {
        ""
    };
    let ty = match (rng.next(8), depth < 3) {
        (0, _) => "type = \"string\", enum = [\"a\", \"b\"], default = \"a\"".to_string(),
        (1, _) => "type = \"integer\", minimum = 0, maximum = 10, default = 3".to_string(),
        (2, _) => "type = \"number\", minimum = 1.5".to_string(),
        (3, _) => "type = \"boolean\", default = true".to_string(),
        (4, true) => format!("type = \"array\", items = {}", type_spec(rng, depth + 1)),
        (5, true) => format!(
            "type = \"object\", properties = {{ q = {}, r = {} }}",
            type_spec(rng, depth + 1),
            type_spec(rng, depth + 1)
        ),
        (6, _) => format!(
            "schema = {}",
            rng.pick(&[
                "'{\"type\": [\"string\", \"null\"]}'",
                "'{bad'",
                "'[1]'",
                "'true'"
            ])
        ),
        _ => "type = \"string\", description = \"Some text.\"".to_string(),
    };
    format!("{{ {ty}{required}{extra} }}")
}

/// Short strings of TOML-ish characters.
fn noise(rng: &mut Lcg) -> String {
    (0..rng.next(120)).map(|_| *rng.pick(ODD)).collect()
}

/// Counts a token per four bytes, so the budget lint runs without a real tokenizer.
struct Quarter;

impl Tokenizer for Quarter {
    fn name(&self) -> &'static str {
        "bytes/4"
    }
    fn count(&self, text: &str) -> usize {
        text.len() / 4
    }
}

#[derive(Default)]
struct Tally {
    valid: usize,
    invalid: usize,
    linted: usize,
    expanded: usize,
}

/// Runs one input through everything; `Err` describes what went wrong.
fn exercise(source: &str, full_lints: bool, tally: &mut Tally) -> Result<(), String> {
    let outline = catch_unwind(|| catalog_check::outline(source))
        .map_err(|_| "outline panicked".to_string())?;
    // What `catalog!` calls reads the file once, and agrees with `compile` and `outline`.
    let both = catch_unwind(|| catalog_check::compile_or_outline(source))
        .map_err(|_| "compile_or_outline panicked".to_string())?;
    let result = catch_unwind(|| catalog_check::compile(source))
        .map_err(|_| "compile panicked".to_string())?;
    match (&result, &both) {
        (Ok(_), Ok(_)) => {}
        (Err(diagnostics), Err((same, its_outline)))
            if diagnostics == same && format!("{its_outline:?}") == format!("{outline:?}") => {}
        _ => return Err("compile_or_outline disagrees with compile or outline".into()),
    }
    match result {
        Err(diagnostics) => {
            tally.invalid += 1;
            if diagnostics.is_empty() {
                return Err("an error without a diagnostic".into());
            }
            for d in &diagnostics {
                let outside = |span: &std::ops::Range<usize>| {
                    span.start > span.end || span.end > source.len()
                };
                if outside(&d.span) || d.related.iter().any(|r| outside(&r.span)) {
                    return Err(format!("span outside the text: {d:?}"));
                }
                if d.message.is_empty() {
                    return Err(format!("a diagnostic without a message: {d:?}"));
                }
                let text = catch_unwind(|| catalog_check::render("catalog.toml", source, d))
                    .map_err(|_| format!("render panicked on {d:?}"))?;
                if !located(&text) {
                    return Err(format!("rendered without a location: {text}"));
                }
            }
            let skeleton =
                catalog_codegen::skeleton(&outline, &catalog_codegen::Options::default());
            catalog_codegen::format(skeleton)
                .map_err(|e| format!("the skeleton is not Rust: {e}"))?;
        }
        Ok(mut catalog) => {
            tally.valid += 1;
            // The reach lint rebuilds the index once per example: on the tables catalog's
            // 90 examples that is seconds in a debug build, so it runs on a sample.
            if !full_lints {
                catalog.lints.set_level(LintId::UnnamedNeed, Level::Allow);
            }
            let options = lint::Options {
                tokenizer: Some(&Quarter),
                at_least: Level::Warn,
                only: None,
            };
            let report = catch_unwind(AssertUnwindSafe(|| lint::run(&catalog, source, &options)))
                .map_err(|_| "a lint panicked".to_string())?;
            tally.linted += 1;
            for f in &report.findings {
                if f.diagnostic.span.end > source.len() {
                    return Err(format!("a finding outside the text: {f:?}"));
                }
                let _ = catalog_check::Lines::new(source).render_styled(
                    "catalog.toml",
                    &f.diagnostic,
                    f.style(false),
                );
            }
            if full_lints {
                let tokens = catch_unwind(AssertUnwindSafe(|| {
                    catalog_codegen::expand(&catalog, &catalog_codegen::Options::default())
                }))
                .map_err(|_| "expand panicked".to_string())?;
                catalog_codegen::format(tokens)
                    .map_err(|e| format!("the expansion is not Rust: {e}"))?;
                tally.expanded += 1;
            }
        }
    }
    Ok(())
}

#[test]
fn arbitrary_and_mutated_catalogs_never_panic_and_fail_with_located_errors() {
    let env = |key: &str, default: u64| {
        std::env::var(key)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let cases = usize::try_from(env("CATALOG_FUZZ_CASES", 150)).unwrap();
    let seed = env("CATALOG_FUZZ_SEED", 0x5eed);
    // A panic inside `catch_unwind` still prints its message; keep the output to ours.
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    let mut summary = Vec::new();
    for (stream, make) in [
        ("mutated", mutated as fn(&mut Lcg) -> String),
        ("generated", generated),
        ("noise", noise),
    ] {
        let mut rng = Lcg(seed ^ stream.len() as u64);
        let mut tally = Tally::default();
        for case in 0..cases {
            let source = make(&mut rng);
            // Every generated catalog is small; one valid mutated example in twenty gets
            // every lint and the expansion.
            let full = stream != "mutated" || tally.valid % 20 == 0;
            if let Err(why) = exercise(&source, full, &mut tally) {
                failures.push(format!(
                    "{stream} case {case} (seed {seed:#x}): {why}\n{source}"
                ));
            }
        }
        summary.push(format!(
            "{stream}: {cases} inputs, {} valid ({} linted, {} expanded), {} invalid",
            tally.valid, tally.linted, tally.expanded, tally.invalid
        ));
        // Each stream reaches both outcomes, or it is not exercising anything.
        if stream != "noise" {
            assert!(
                tally.valid > 0 && tally.invalid > 0,
                "{stream}: {} valid, {} invalid",
                tally.valid,
                tally.invalid
            );
        }
    }
    let _ = std::panic::take_hook();
    eprintln!("{}", summary.join("\n"));
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Nesting deep enough to overflow a recursive reader is refused with a located error (the
/// TOML and JSON readers' recursion limits), never a crash: a stack overflow would abort the
/// build with no location at all.
#[test]
fn deep_nesting_is_a_located_error() {
    const HEAD: &str = "[settings]\nsearch-tool = \"s\"\nask-tool = \"a\"\n[[tool]]\nname = \"s\"\ndescription = \"Finds.\"\n[tool.params]\nquery = { type = \"string\" }\n[[tool]]\nname = \"a\"\ndescription = \"Asks.\"\nvisibility = \"inline\"\neffect = \"reads\"\ntier = \"silent\"\n";
    for depth in [200, 1_000, 20_000] {
        for source in [
            format!(
                "{HEAD}[tool.params]\np = {}{{ type = \"string\" }}{}\n",
                "{ type = \"array\", items = ".repeat(depth),
                "}".repeat(depth)
            ),
            format!(
                "{HEAD}[tool.params]\np = {}{{ type = \"string\" }}{}\n",
                "{ type = \"object\", properties.q = ".repeat(depth),
                "}".repeat(depth)
            ),
            format!(
                "{HEAD}[tool.params.p]\ntype = \"array\"\n{}type = \"string\"\n",
                "items.".repeat(depth)
            ),
            format!(
                "{HEAD}[tool.params]\np = {{ schema = '{}{{}}{}' }}\n",
                "{\"items\":".repeat(depth),
                "}".repeat(depth)
            ),
        ] {
            let diagnostics = catalog_check::compile(&source).unwrap_err();
            let first = &diagnostics[0];
            assert!(
                first.message.contains("recurs"),
                "depth {depth}: {}",
                first.message
            );
            assert!(first.span.end <= source.len());
        }
    }
}

/// Whether a rendered diagnostic says where, as rustc does: its second line is
/// `--> catalog.toml:LINE:COLUMN`.
fn located(text: &str) -> bool {
    text.lines()
        .nth(1)
        .and_then(|l| l.trim_start().strip_prefix("--> catalog.toml:"))
        .is_some_and(|at| {
            let mut parts = at.split(':');
            parts.clone().count() == 2 && parts.all(|n| n.parse::<usize>().is_ok_and(|n| n > 0))
        })
}
