//! The installed command in another repository: the binary runs in a fresh directory
//! outside this workspace, as cargo runs it (`cargo-catalog catalog <command>`), and reads
//! that directory's `catalog.toml` with no option naming it.

use std::path::{Path, PathBuf};
use std::process::Command;

use catalog_check::Located;

/// A small valid catalog: the two roles, an inline read and a gated, discoverable write.
const VALID: &str = r#"[settings]
search-tool = "searchTools"
ask-tool = "ask"

[[tool]]
name = "searchTools"
description = "Finds tools by what they do."
[tool.params]
query = { type = "string", description = "What the tool should do." }

[[tool]]
name = "ask"
description = "Asks the user a question."
visibility = "inline"
effect = "reads"
tier = "silent"
[tool.params]
question = { type = "string", description = "The question." }

[[tool]]
name = "listNotes"
description = "Lists the user's notes, newest first."
keywords = ["notes", "list"]
examples = ["What notes do I have?"]
visibility = "inline"
effect = "reads"
tier = "silent"
[tool.params]
limit = { type = "integer", minimum = 1, maximum = 100, default = 20, description = "How many notes." }

[[tool]]
name = "deleteNote"
description = "Deletes one note for good."
keywords = ["delete", "remove", "note"]
examples = ["Delete my note about the dentist"]
visibility = "discoverable"
effect = "acts"
tier = "gated"
[tool.params]
id = { type = "string", description = "The note to delete." }
"#;

/// The same catalog with two mistakes: a misspelt key, and a full-access tool that runs
/// silently.
const INVALID: &str = r#"[settings]
search-tool = "searchTools"
ask-tool = "ask"

[[tool]]
name = "searchTools"
description = "Finds tools by what they do."
[tool.params]
query = { type = "string" }

[[tool]]
name = "ask"
description = "Asks the user a question."
visiblity = "inline"
visibility = "inline"
effect = "reads"
tier = "silent"

[[tool]]
name = "deleteNote"
description = "Deletes one note for good."
visibility = "discoverable"
effect = "acts"
tier = "silent"
"#;

/// A directory of its own under the system's temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("cargo-catalog-test-{}-{name}", std::process::id()));
        // A leftover of an earlier run with the same process id.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        assert!(
            !dir.starts_with(workspace),
            "{} is inside the workspace",
            dir.display()
        );
        TempDir(dir)
    }

    fn write(&self, path: &str, text: &str) {
        let path = self.0.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `cargo-catalog ARGS` in `dir`: exit code, stdout, stderr.
fn cli(dir: &TempDir, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-catalog"))
        .args(args)
        .current_dir(&dir.0)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// `catalog.toml:LINE:COL` from the `--> ` line under each rendered diagnostic, in order
/// (the `::: ` lines of the other places it points at are not its location).
fn locations(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|line| {
            let at = line.trim_start().strip_prefix("--> ")?;
            let mut parts = at.splitn(3, ':');
            let (file, line, column) = (parts.next()?, parts.next()?, parts.next()?);
            let numbers = [line, column]
                .iter()
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            (file == "catalog.toml" && numbers).then(|| format!("{file}:{line}:{column}"))
        })
        .collect()
}

#[test]
fn a_valid_catalog_in_the_current_directory_exits_0() {
    let dir = TempDir::new("valid");
    dir.write("catalog.toml", VALID);
    // As cargo runs it for `cargo catalog check`, and as run directly.
    for args in [&["catalog", "check"][..], &["check"]] {
        let (code, stdout, stderr) = cli(&dir, args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert!(
            stdout.starts_with("catalog.toml: valid, 4 tools\n"),
            "{stdout}"
        );
        assert!(
            stdout.ends_with("catalog.toml: 0 errors, 0 warnings\n"),
            "{stdout}"
        );
    }

    let (code, stdout, stderr) = cli(&dir, &["catalog", "check", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["file"], "catalog.toml");
    assert_eq!(doc["valid"], true);
    assert_eq!(doc["summary"]["tools"], 4);
    assert_eq!(doc["tokens"]["tokenizer"], "o200k_base");
}

#[test]
fn errors_are_located_where_the_compiler_locates_them() {
    let dir = TempDir::new("invalid");
    dir.write("catalog.toml", INVALID);
    let diagnostics = catalog_check::validate(INVALID).unwrap_err();
    assert_eq!(diagnostics.len(), 2, "{diagnostics:?}");
    let expected: Vec<(usize, usize)> = diagnostics
        .iter()
        .map(|d| {
            let at = Located::new("catalog.toml", INVALID, d);
            (at.line, at.column)
        })
        .collect();

    let (code, stdout, stderr) = cli(&dir, &["catalog", "check"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    let shown: Vec<String> = expected
        .iter()
        .map(|(line, column)| format!("catalog.toml:{line}:{column}"))
        .collect();
    assert_eq!(locations(&stderr), shown, "{stderr}");

    let (code, stdout, _) = cli(&dir, &["catalog", "check", "--format=json"]);
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["valid"], false);
    let errors: Vec<(usize, usize)> = doc["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            assert_eq!(e["file"], "catalog.toml");
            let number = |key: &str| usize::try_from(e[key].as_u64().unwrap()).unwrap();
            (number("line"), number("column"))
        })
        .collect();
    assert_eq!(errors, expected);
}

#[test]
fn the_catalog_is_found_upward_as_cargo_finds_its_manifest() {
    let dir = TempDir::new("upward");
    dir.write("catalog.toml", VALID);
    dir.write("src/agent/notes.txt", "");
    let below = TempDir(dir.0.join("src/agent"));
    let (code, stdout, stderr) = cli(&below, &["catalog", "check"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("../../catalog.toml: valid, 4 tools\n"),
        "{stdout}"
    );
}

#[test]
fn catalog_names_another_file() {
    let dir = TempDir::new("named");
    dir.write("catalog.toml", INVALID);
    dir.write("agent/tools.toml", VALID);
    let (code, stdout, stderr) = cli(&dir, &["catalog", "check", "--catalog", "agent/tools.toml"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("agent/tools.toml: valid, 4 tools\n"),
        "{stdout}"
    );
}

#[test]
fn unusable_arguments_exit_2_and_name_the_fix() {
    let dir = TempDir::new("usage");
    // No catalog.toml here or above: the message says how to name one.
    let (code, _, stderr) = cli(&dir, &["catalog", "check"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("no `catalog.toml` in the current directory or any directory above it")
            && stderr.contains("--catalog PATH"),
        "{stderr}"
    );
    dir.write("catalog.toml", VALID);
    // Clap's errors: each names the argument and what it takes, with a tip where one fits.
    for (args, message) in [
        (
            &["catalog", "check", "--nope", "x"][..],
            "unexpected argument '--nope' found",
        ),
        (
            &["catalog", "check", "--formt", "json"],
            "tip: a similar argument exists: '--format'",
        ),
        (
            &["catalog", "check", "--format", "yaml"],
            "invalid value 'yaml' for '--format <FORMAT>'\n  [possible values: human, json]",
        ),
        (
            &["catalog", "check", "--catalog"],
            "a value is required for '--catalog <PATH>' but none was supplied",
        ),
        (
            &[
                "catalog",
                "check",
                "--catalog",
                "a.toml",
                "--catalog",
                "b.toml",
            ],
            "the argument '--catalog <PATH>' cannot be used multiple times",
        ),
        (
            &["catalog", "check", "extra"],
            "unexpected argument 'extra' found",
        ),
        (
            &["catalog", "check-catalog"],
            "unrecognized subcommand 'check-catalog'\n\n  tip: a similar subcommand exists: 'check'",
        ),
        (
            &["catalog", "frobnicate"],
            "unrecognized subcommand 'frobnicate'",
        ),
        (
            &["catalog"],
            "requires a subcommand but one was not provided\n  [subcommands: check, expand, import, search, render, eval-search, eval-agent, embed, completions, help]",
        ),
        (&[], "requires a subcommand"),
        (
            &["catalog", "search", "--k", "0", "notes"],
            "invalid value '0' for '--k <N>': must be a positive whole number",
        ),
    ] {
        let (code, stdout, stderr) = cli(&dir, args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(
            stderr.ends_with("For more information, try '--help'.\n"),
            "{args:?}: {stderr}"
        );
    }
    // What a command finds unusable while it runs is reported the same way, with the
    // command's usage.
    let (code, _, stderr) = cli(&dir, &["catalog", "check", "--catalog", "missing.toml"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.starts_with("error: cannot read `missing.toml`: ")
            && stderr.contains("\n\nUsage: cargo catalog check [OPTIONS]\n"),
        "{stderr}"
    );

    let (code, stdout, _) = cli(&dir, &["catalog", "--help"]);
    assert_eq!(code, 0);
    for command in [
        "check",
        "expand",
        "import",
        "search",
        "render",
        "eval-search",
        "completions",
    ] {
        assert!(stdout.contains(&format!("\n  {command} ")), "{stdout}");
    }
    // `cargo catalog help`, as the README says, and each command's own help.
    let (code, help, _) = cli(&dir, &["catalog", "help"]);
    assert_eq!((code, &help), (0, &stdout));
    let (code, stdout, _) = cli(&dir, &["catalog", "help", "render"]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("Usage: cargo catalog render [OPTIONS] --provider <PROVIDER>"),
        "{stdout}"
    );
}

/// `cargo catalog completions bash`: a completion script that names every command.
#[test]
fn completions_name_the_commands() {
    let dir = TempDir::new("completions");
    let (code, stdout, stderr) = cli(&dir, &["catalog", "completions", "bash"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("complete -F _cargo__catalog ") && stdout.contains(" cargo-catalog\n"),
        "{stdout}"
    );
    for command in [
        "check",
        "expand",
        "import",
        "search",
        "render",
        "eval-search",
        "completions",
    ] {
        assert!(stdout.contains(command), "{command} not in\n{stdout}");
    }
    assert!(stdout.contains("--catalog") && stdout.contains("--from-server"));
    let (code, _, stderr) = cli(&dir, &["catalog", "completions", "tcsh"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("invalid value 'tcsh'"), "{stderr}");
}

/// Without the `upstreams` feature, the options that talk to MCP servers say how to get
/// it; with it, they run (the gateway's tests run them against real servers).
#[test]
fn live_servers_need_the_upstreams_feature() {
    let dir = TempDir::new("upstreams");
    dir.write("catalog.toml", VALID);
    for (args, option) in [
        (&["catalog", "check", "--upstreams"][..], "--upstreams"),
        (
            &[
                "catalog",
                "import",
                "--from-server",
                "--out",
                "new.toml",
                "--",
                "no-such-mcp-server",
            ],
            "--from-server",
        ),
        (
            &[
                "catalog",
                "import",
                "--from-url",
                "http://127.0.0.1:9/mcp",
                "--out",
                "new.toml",
            ],
            "--from-url",
        ),
    ] {
        let (code, _, stderr) = cli(&dir, args);
        if cfg!(feature = "upstreams") {
            assert_ne!(code, 2, "{args:?}: {stderr}");
            assert!(!stderr.contains("--features upstreams"), "{stderr}");
        } else {
            assert_eq!(code, 2, "{args:?}: {stderr}");
            assert!(
                stderr.starts_with(&format!("error: `{option}` talks to MCP servers"))
                    && stderr.contains(
                        "cargo install --git https://github.com/tool-catalog/tool-catalog cargo-catalog --features upstreams`"
                    )
                    && stderr.contains("cargo install --path crates/cargo-catalog --features upstreams`"),
                "{args:?}: {stderr}"
            );
        }
    }
    // The help lists them all the same, marked when they need the feature.
    let (_, stdout, _) = cli(&dir, &["catalog", "import", "--help"]);
    let marked = stdout.contains("[needs the `upstreams` feature]");
    assert_eq!(marked, cfg!(not(feature = "upstreams")), "{stdout}");
}

/// The other commands, on the same directory's catalog and on files named there.
#[test]
fn every_command_runs_on_the_current_directory() {
    let dir = TempDir::new("commands");
    dir.write("catalog.toml", VALID);

    let (code, stdout, stderr) = cli(&dir, &["catalog", "expand"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("pub enum Tool {"), "{stdout}");

    let (code, stdout, stderr) = cli(&dir, &["catalog", "search", "remove a note"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout
            .lines()
            .next()
            .is_some_and(|l| l.contains("deleteNote")),
        "{stdout}"
    );

    let (code, stdout, stderr) = cli(
        &dir,
        &[
            "catalog",
            "render",
            "--provider",
            "anthropic",
            "--tools",
            "inline",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let tools: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["searchTools", "ask", "listNotes"]);

    let eval = [
        "catalog",
        "eval-search",
        "--queries",
        "requests.jsonl",
        "--format",
        "json",
    ];
    // A request for an inline tool measures nothing a search does: said, with the fix.
    dir.write(
        "requests.jsonl",
        r#"{"id": "1", "query": "show my notes", "expected": ["listNotes"]}"#,
    );
    let (code, _, stderr) = cli(&dir, &eval);
    assert_ne!(code, 0);
    assert!(
        stderr.contains("requests.jsonl:1: request `1` expects \"listNotes\", which is inline")
            && stderr.contains("leave it out of `expected`"),
        "{stderr}"
    );
    dir.write(
        "requests.jsonl",
        r#"{"id": "1", "query": "throw away the note about my dentist", "expected": ["deleteNote"]}
{"id": "2", "query": "remove that note for good", "expected": ["deleteNote"]}
"#,
    );
    let (code, stdout, stderr) = cli(&dir, &eval);
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["queries"], 2);
    assert_eq!(report["recall_at_k"], 1.0);

    dir.write(
        "server.json",
        r#"{"tools": [{"name": "get_weather", "description": "Current weather for a city.",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            "annotations": {"readOnlyHint": true}}]}"#,
    );
    let (code, _, stderr) = cli(
        &dir,
        &[
            "catalog",
            "import",
            "--from",
            "mcp",
            "server.json",
            "--out",
            "imported.toml",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) = cli(&dir, &["catalog", "check", "--catalog", "imported.toml"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("imported.toml: valid, 3 tools\n"),
        "{stdout}"
    );
}
