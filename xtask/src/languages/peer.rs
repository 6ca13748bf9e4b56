//! The peer `eval-languages` compares with: bm25s over character bigrams, the plain
//! dictionary-free baseline, run by `xtask/peers/bm25s_languages.py` (which says how it
//! tokenises) on the same tools' texts and the same requests.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use catalog_check::CatalogModel;
use catalog_check::search::Request;
use catalog_core::Visibility;
use serde_json::{Value, json};

/// What the peer is called in the table's title.
pub(super) const NAME: &str = "bm25s over character bigrams";

/// The peer's hits for each request and its median time per query.
pub(super) struct Figures {
    pub(super) hits: Vec<Vec<u32>>,
    pub(super) median_us: f64,
}

/// Runs the peer on `catalog`'s discoverable tools (all a search may return); `Err` says
/// why it cannot run.
pub(super) fn run(
    catalog: &CatalogModel,
    requests: &[Request],
    k: usize,
) -> Result<Figures, String> {
    let python = std::env::var("BM25S_PYTHON").unwrap_or_else(|_| "python3".into());
    let importable = Command::new(&python)
        .args(["-c", "import bm25s, Stemmer"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !importable {
        return Err(format!(
            "`{python}` cannot import bm25s and Stemmer; enable it with `{python} -m pip install bm25s PyStemmer` (or set BM25S_PYTHON to an interpreter that has them)"
        ));
    }
    let docs: Vec<Value> = (0..catalog.tools.len())
        .filter(|&i| {
            catalog.tools[i].visibility == Visibility::Discoverable
                && i != catalog.settings.search_tool
        })
        .map(|i| {
            let mut text = String::new();
            catalog_check::search::each_text(catalog, i, |_, t| {
                text.push_str(t);
                text.push('\n');
            });
            json!({ "id": i, "text": text })
        })
        .collect();
    let job = json!({
        "language": catalog.settings.language.code(),
        "k": k,
        "rounds": 5,
        "docs": docs,
        "queries": requests.iter().map(|r| r.query.as_str()).collect::<Vec<_>>(),
    });
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/bm25s_languages.py");
    let mut child = Command::new(&python)
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot run `{python}`: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(job.to_string().as_bytes())
            .map_err(|e| format!("cannot write to {}: {e}", script.display()))?;
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("{}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(format!("{} exited with {}", script.display(), out.status));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let answer: Value = stdout
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .ok_or_else(|| format!("{} printed no JSON line", script.display()))?;
    let hits = answer["hits"]
        .as_array()
        .filter(|h| h.len() == requests.len())
        .ok_or_else(|| format!("{} gave no hits for each request", script.display()))?
        .iter()
        .map(|top| {
            let docs = top.as_array().map(Vec::as_slice).unwrap_or_default();
            docs.iter()
                .filter_map(|d| u32::try_from(d.as_u64()?).ok())
                .collect()
        })
        .collect();
    Ok(Figures {
        hits,
        median_us: answer["median_us"].as_f64().unwrap_or(f64::NAN),
    })
}
