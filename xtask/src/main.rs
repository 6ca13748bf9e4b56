//! `cargo xtask <command>`: project commands that share the catalog compiler with the macro.
//!
//! - `check-catalog [--catalog PATH] [--format human|json]`: the rules and the lints; exit 0
//!   valid, 1 errors or denied lint findings, 2 usage.
//! - `expand [--catalog PATH]`: the Rust that `catalog!` generates, formatted.
//! - `import --from mcp FILE --out PATH`: an MCP `tools/list` result as a catalog.
//! - `render --provider P [--catalog PATH] [--tools inline|all] [--access L] [--search S]`:
//!   the tools in one provider's request format.

use std::io::Write as _;
use std::process::ExitCode;

mod check;
mod r#gen;
mod import;
mod render;
mod scale;
mod search;
mod test;

const USAGE: &str = "\
usage: cargo xtask <command> [options]

commands:
  test [CARGO TEST ARGS]
      every test of the workspace, with the Python protocol peers the tests check our
      output against installed into target/peers on first use
  check-catalog [--catalog PATH] [--format human|json]
      validate a catalog and run its lints; print every error and warning, what it
      declares, the tokens of its tool lists, what search reaches, and a table of the lints
  expand [--catalog PATH]
      print the Rust code that `catalog!` generates for a catalog
  import --from mcp FILE --out PATH
      turn an MCP tools/list result (JSON) into a valid catalog; report what was mapped
  search [--catalog PATH] [--k N] [--weights W] REQUEST
      the catalog's own search: ranked hits with scores
  render --provider anthropic|anthropic-tool-search|openai-chat|openai-responses|bedrock|mcp
         [--catalog PATH] [--tools inline|all] [--access read-only|read-and-stage|full-access]
         [--search bm25|regex|catalog]
      the tools as the provider's request takes them, as pretty JSON (bedrock: the whole
      toolConfig; mcp: the tools/list result at --access, default full-access;
      anthropic-tool-search: discoverable tools deferred, --search default bm25);
      --tools inline is the first step's active set, all (the default) every tool
  eval-search --catalog PATH --queries FILE.jsonl [--k 5] [--format human|json]
              [--weights W] [--show-misses N]
      recall@k, hit@k, MRR@k and median time per query (use --release for timings);
      W overrides search weights, e.g. name=2.5,keyword=2,description=1,param_name=1,
      param_description=0.8,example=1,k1=2.5,b=0.75,prefix=0.3,pair=0.4
  gen-catalog --tools N --out FILE [--seed S] [--queries FILE.jsonl]
      a synthetic catalog of N rows, the same for the same seed, and requests to search it
  bench-scale [--sizes 100,1853,10000,25519] [--runs 3] [--seed 1] [--budget-minutes 90]
              [--skip builds,search,rustc]
      expansion (in this process and, with a nightly toolchain, inside rustc), build and
      rebuild times, search against tantivy, sizes, per catalog size; prints the tables of
      BENCHMARKS.md (run it with --release)

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
    if command == "test" {
        // Everything after `test` is cargo's, not ours.
        return Ok(test::run(rest));
    }
    let opts = Flags::parse(rest)?;
    match command.as_str() {
        "import" => import::run(rest),
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
            Ok(expand(&path, &source))
        }
        "search" => {
            opts.only_options(&["catalog", "k", "weights"])?;
            let k = opts.count("k", 5)?;
            let weights = search::weights(opts.get("weights"))?;
            let [query] = opts.positional.as_slice() else {
                return Err(Usage("search takes one request, in quotes".into()));
            };
            let (path, source) = read(&opts)?;
            Ok(match search::load(&path, &source, weights) {
                Ok((catalog, index)) => search::search(&catalog, &index, query, k),
                Err(code) => code,
            })
        }
        "eval-search" => {
            opts.only(&[
                "catalog",
                "queries",
                "k",
                "format",
                "weights",
                "show-misses",
            ])?;
            let k = opts.count("k", 5)?;
            let weights = search::weights(opts.get("weights"))?;
            let show_misses = match opts.get("show-misses") {
                None => 0,
                Some(_) => opts.count("show-misses", 1)?,
            };
            let format = match opts.get("format").unwrap_or("human") {
                "human" => search::Format::Human,
                "json" => search::Format::Json,
                other => {
                    return Err(Usage(format!(
                        "unknown format `{other}`: use human or json"
                    )));
                }
            };
            let Some(queries) = opts.get("queries") else {
                return Err(Usage("eval-search needs --queries FILE.jsonl".into()));
            };
            let (path, source) = read(&opts)?;
            match search::load(&path, &source, weights) {
                Ok((catalog, index)) => {
                    search::eval(&catalog, &index, queries, k, format, show_misses)
                }
                Err(code) => Ok(code),
            }
        }
        "render" => render::command(&opts),
        "gen-catalog" => r#gen::run(&opts),
        "bench-scale" => scale::run(&opts),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        other => Err(Usage(format!("unknown command `{other}`"))),
    }
}

/// Prints the formatted code `catalog!` generates for a catalog.
fn expand(path: &str, source: &str) -> ExitCode {
    match catalog_compiler::compile(source) {
        Ok(catalog) => {
            let tokens = catalog_compiler::expand(&catalog, &catalog_compiler::Options::default());
            match catalog_compiler::format(tokens) {
                Ok(code) => {
                    let _ = std::io::stdout().write_all(code.as_bytes());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("internal error: the generated code does not parse: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(diagnostics) => {
            eprint!(
                "{}",
                catalog_compiler::render_all(path, source, &diagnostics)
            );
            ExitCode::FAILURE
        }
    }
}

/// `--key value` pairs and positional arguments.
struct Flags {
    pairs: Vec<(String, String)>,
    positional: Vec<String>,
}

impl Flags {
    fn parse(args: &[String]) -> Result<Flags, Usage> {
        let mut out = Vec::new();
        let mut positional = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let Some(key) = a.strip_prefix("--") else {
                positional.push(a.clone());
                continue;
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
        Ok(Flags {
            pairs: out,
            positional,
        })
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Fails on options outside `allowed` and on positional arguments.
    fn only(&self, allowed: &[&str]) -> Result<(), Usage> {
        if let Some(p) = self.positional.first() {
            return Err(Usage(format!("unexpected argument `{p}`")));
        }
        self.only_options(allowed)
    }

    fn only_options(&self, allowed: &[&str]) -> Result<(), Usage> {
        match self
            .pairs
            .iter()
            .find(|(k, _)| !allowed.contains(&k.as_str()))
        {
            Some((k, _)) => Err(Usage(format!("unknown option `--{k}`"))),
            None => Ok(()),
        }
    }

    /// A positive whole number option.
    fn count(&self, key: &str, default: usize) -> Result<usize, Usage> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => match v.parse::<usize>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(Usage(format!(
                    "`--{key}` must be a positive whole number, not `{v}`"
                ))),
            },
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

/// `25519` as `25,519`, for the figures the commands print.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
