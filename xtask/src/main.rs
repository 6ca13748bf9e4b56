//! `cargo xtask <command>`: project commands that share the catalog compiler with the macro.
//!
//! - `check-catalog [--catalog PATH] [--format human|json]`: exit 0 valid, 1 errors, 2 usage.
//! - `expand [--catalog PATH]`: the Rust that `catalog!` generates, formatted.

use std::io::Write as _;
use std::process::ExitCode;

mod check;

const USAGE: &str = "\
usage: cargo xtask <command> [options]

commands:
  check-catalog [--catalog PATH] [--format human|json]
      validate a catalog; print every error, or a summary of what it declares
  expand [--catalog PATH]
      print the Rust code that `catalog!` generates for a catalog

--catalog defaults to catalog.toml in the workspace root.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(Usage(msg)) => {
            eprintln!("error: {msg}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Unusable arguments: exit code 2.
pub struct Usage(String);

fn run(args: &[String]) -> Result<ExitCode, Usage> {
    let Some((command, rest)) = args.split_first() else {
        return Err(Usage("no command given".into()));
    };
    let opts = Flags::parse(rest)?;
    match command.as_str() {
        "check-catalog" => {
            let format = match opts.get("format").unwrap_or("human") {
                "human" => check::Format::Human,
                "json" => check::Format::Json,
                other => {
                    return Err(Usage(format!(
                        "unknown format `{other}`: use human or json"
                    )));
                }
            };
            opts.only(&["catalog", "format"])?;
            let (path, source) = read(&opts)?;
            Ok(check::run(&path, &source, format))
        }
        "expand" => {
            opts.only(&["catalog"])?;
            let (path, source) = read(&opts)?;
            match catalog_compiler::compile(&source) {
                Ok(catalog) => {
                    let tokens =
                        catalog_compiler::expand(&catalog, &catalog_compiler::Options::default());
                    match catalog_compiler::format(tokens) {
                        Ok(code) => {
                            let _ = std::io::stdout().write_all(code.as_bytes());
                            Ok(ExitCode::SUCCESS)
                        }
                        Err(e) => {
                            eprintln!("internal error: the generated code does not parse: {e}");
                            Ok(ExitCode::FAILURE)
                        }
                    }
                }
                Err(diagnostics) => {
                    eprint!(
                        "{}",
                        catalog_compiler::render_all(&path, &source, &diagnostics)
                    );
                    Ok(ExitCode::FAILURE)
                }
            }
        }
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        other => Err(Usage(format!("unknown command `{other}`"))),
    }
}

/// `--key value` pairs.
struct Flags(Vec<(String, String)>);

impl Flags {
    fn parse(args: &[String]) -> Result<Flags, Usage> {
        let mut out = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let Some(key) = a.strip_prefix("--") else {
                return Err(Usage(format!("unexpected argument `{a}`")));
            };
            let (key, value) = match key.split_once('=') {
                Some((k, v)) => (k.to_string(), v.to_string()),
                None => match it.next() {
                    Some(v) => (key.to_string(), v.clone()),
                    None => return Err(Usage(format!("`--{key}` needs a value"))),
                },
            };
            out.push((key, value));
        }
        Ok(Flags(out))
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn only(&self, allowed: &[&str]) -> Result<(), Usage> {
        match self.0.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
            Some((k, _)) => Err(Usage(format!("unknown option `--{k}`"))),
            None => Ok(()),
        }
    }
}

/// The catalog's path as the user named it (for messages) and its text.
fn read(opts: &Flags) -> Result<(String, String), Usage> {
    let path = opts.get("catalog").unwrap_or("catalog.toml").to_string();
    // `cargo xtask` runs from anywhere in the workspace; the default names the root's file.
    let full = if opts.get("catalog").is_some() {
        std::path::PathBuf::from(&path)
    } else {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(&path)
    };
    match std::fs::read_to_string(&full) {
        Ok(source) => Ok((path, source)),
        Err(e) => Err(Usage(format!("cannot read `{path}`: {e}"))),
    }
}
