//! `cargo xtask eval-scan`: the result scanner on `tests/data/results` (its README says
//! how the set was written and split): per half, the attacks caught (every kind a case
//! expects found) and the honest results that pass unchanged, with the kinds found. The
//! cases of the `dev` half, on which the scanner's rules were chosen, are listed when they
//! fail; the `report` half gives the figures.

use std::path::Path;
use std::process::ExitCode;

use cargo_catalog::Usage;
use catalog_core::{ScanResults, Screened};
use catalog_result_scan::{Kind, Scanner};
use serde_json::Value;

/// One case of the set.
struct Case {
    id: String,
    half: String,
    attack: bool,
    result: Value,
    expect: Vec<Kind>,
}

/// Runs the command.
pub(crate) fn run() -> Result<ExitCode, Usage> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/results/cases.jsonl");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Usage(format!("cannot read {}: {e}", path.display())))?;
    let cases = text
        .lines()
        .enumerate()
        .map(|(n, line)| case(line).map_err(|e| Usage(format!("cases.jsonl:{}: {e}", n + 1))))
        .collect::<Result<Vec<_>, _>>()?;
    let scanner = Scanner::new(ScanResults::Warn);
    println!(
        "result scanner on tests/data/results, cap {} tokens",
        catalog_result_scan::DEFAULT_MAX_TOKENS
    );
    println!(
        "{:<8} {:>15} {:>8} {:>8} {:>8} {:>8} {:>17}",
        "half", "attacks caught", "hidden", "order", "link", "size", "honest unchanged"
    );
    let mut details = Vec::new();
    for half in ["dev", "report"] {
        let (mut attacks, mut caught, mut honest, mut unchanged) = (0, 0, 0, 0);
        let mut by_kind = [(0, 0); Kind::ALL.len()];
        for case in cases.iter().filter(|c| c.half == half) {
            let found: Vec<Kind> = scanner.scan(&case.result).iter().map(|f| f.kind).collect();
            if case.attack {
                attacks += 1;
                // The detector's finding is text addressed to the model too.
                let has = |kind: &Kind| {
                    found.contains(kind)
                        || (*kind == Kind::Order && found.contains(&Kind::Injection))
                };
                for kind in &case.expect {
                    let k = Kind::ALL.iter().position(|x| x == kind).unwrap_or(0);
                    by_kind[k].1 += 1;
                    by_kind[k].0 += usize::from(has(kind));
                }
                if case.expect.iter().all(has) {
                    caught += 1;
                } else if half == "dev" {
                    details.push(format!(
                        "  missed {}: expected {:?}, found {found:?}",
                        case.id, case.expect
                    ));
                }
            } else {
                honest += 1;
                let passes = Scanner::new(ScanResults::Strip)
                    .screen_named("tool", case.result.clone())
                    == Screened::Pass(case.result.clone());
                if passes {
                    unchanged += 1;
                } else if half == "dev" {
                    let findings: Vec<String> = scanner
                        .scan(&case.result)
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                    details.push(format!("  flagged {}: {}", case.id, findings.join("; ")));
                }
            }
        }
        let cell = |(n, of): (usize, usize)| format!("{n}/{of}");
        println!(
            "{half:<8} {:>15} {:>8} {:>8} {:>8} {:>8} {:>17}",
            cell((caught, attacks)),
            cell(by_kind[kind(Kind::Hidden)]),
            cell(by_kind[kind(Kind::Order)]),
            cell(by_kind[kind(Kind::Link)]),
            cell(by_kind[kind(Kind::Size)]),
            cell((unchanged, honest))
        );
    }
    if !details.is_empty() {
        println!("\ndev cases the scanner gets wrong:");
        for line in details {
            println!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Where `k` is in [`Kind::ALL`].
fn kind(k: Kind) -> usize {
    Kind::ALL.iter().position(|x| *x == k).unwrap_or(0)
}

fn case(line: &str) -> Result<Case, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let text = |key: &str| {
        v[key]
            .as_str()
            .map(String::from)
            .ok_or(format!("no `{key}`"))
    };
    let expect = v["expect"]
        .as_array()
        .ok_or("no `expect`")?
        .iter()
        .map(|k| {
            Kind::ALL
                .into_iter()
                .find(|kind| Some(kind.as_str()) == k.as_str())
                .ok_or(format!("unknown kind {k}"))
        })
        .collect::<Result<_, _>>()?;
    Ok(Case {
        id: text("id")?,
        half: text("half")?,
        attack: text("kind")? == "attack",
        result: expand(&v["result"]),
        expect,
    })
}

/// A result as the set writes it: `{"$repeat": text, "times": n}` is `text` n times.
fn expand(result: &Value) -> Value {
    match (result["$repeat"].as_str(), result["times"].as_u64()) {
        (Some(text), Some(times)) => {
            Value::String(text.repeat(usize::try_from(times).unwrap_or(0)))
        }
        _ => result.clone(),
    }
}
