//! `cargo xtask test [ARGS]`: every test of the workspace, the real protocol peers included.
//!
//! Some tests hand our output to software we did not write: botocore's validator for
//! Bedrock requests, the official `mcp` Python SDK for `tools/list` results and as a
//! client of the MCP server, Google's `google-genai` for Gemini function declarations. They find their interpreter in `CATALOG_PEER_PYTHON`. This
//! command makes one, a virtual environment in `target/peers` with the pinned packages
//! of `tests/peers/requirements.txt` (installed once, again when the file changes), then
//! runs `cargo test --workspace ARGS` with the variable set.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Runs the tests; the exit code is cargo's.
pub fn run(args: &[String]) -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf();
    let python = match peers(&root) {
        Ok(python) => python,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(&root)
        .args(["test", "--workspace"])
        .args(args)
        .env("CATALOG_PEER_PYTHON", &python)
        .status();
    match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: cannot run cargo: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The peers' interpreter, installing the environment first when it is missing or stale.
fn peers(root: &Path) -> Result<PathBuf, String> {
    let requirements = root.join("tests/peers/requirements.txt");
    let wanted = std::fs::read_to_string(&requirements)
        .map_err(|e| format!("cannot read {}: {e}", requirements.display()))?;
    let venv = root.join("target/peers");
    let python = venv.join("bin/python");
    // What was installed last, so an edited requirements file reinstalls.
    let stamp = venv.join("installed.txt");
    if python.exists() && std::fs::read_to_string(&stamp).is_ok_and(|s| s == wanted) {
        return Ok(python);
    }
    let system = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    eprintln!(
        "installing the test peers into {} (once) ...",
        venv.display()
    );
    step(
        Command::new(&system).arg("-m").arg("venv").arg(&venv),
        &format!("`{system} -m venv` (set PYTHON to a Python 3.10+ with venv)"),
    )?;
    step(
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "-r",
            ])
            .arg(&requirements),
        "pip install of the test peers",
    )?;
    std::fs::write(&stamp, wanted).map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    Ok(python)
}

fn step(command: &mut Command, what: &str) -> Result<(), String> {
    match command.status() {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("{what} failed ({s})")),
        Err(e) => Err(format!("{what} could not start: {e}")),
    }
}
