//! `cargo xtask <command>`: this repository's commands.
//!
//! The catalog commands (`check-catalog`, `expand`, `import`, `render`, `search`,
//! `eval-search`) are `cargo catalog`'s, from the `cargo-catalog` library, run with this
//! repository's defaults: the example catalog at the root, from any folder of the
//! workspace. The rest are the project's chores: `test` (every test with its protocol
//! peers), `codegen`, `gen-catalog`, `bench-scale` and `eval-languages`.

use std::path::Path;
use std::process::ExitCode;

use cargo_catalog::{Command, Defaults, Flags, Usage};

// As `cargo-catalog`: the catalog commands allocate millions of small values.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod codegen;
mod r#gen;
mod languages;
mod scale;
mod scan;
mod test;

/// The catalog commands under their names here: `cargo catalog check` is `check-catalog`.
const CATALOG_COMMANDS: [(&str, Command); 6] = [
    ("check-catalog", Command::Check),
    ("expand", Command::Expand),
    ("import", Command::Import),
    ("search", Command::Search),
    ("render", Command::Render),
    ("eval-search", Command::EvalSearch),
];

/// The usage text: the chores around the catalog commands' own help.
fn usage() -> String {
    let mut out = String::from(
        "usage: cargo xtask <command> [options]

commands:
  test [CARGO TEST ARGS]
      every test of the workspace, with the Python protocol peers the tests check our
      output against installed into target/peers on first use
",
    );
    for (name, command) in CATALOG_COMMANDS {
        out.push_str(&command.help(name));
    }
    out.push_str(
        "  codegen
      writes the generated files (catalog.schema.json, the editor schema of catalog.toml)
      from the compiler's tables; a test fails until it is run after they change
  gen-catalog --tools N --out FILE [--seed S] [--queries FILE.jsonl] [--arguments typed|json]
      a synthetic catalog of N rows, the same for the same seed, and requests to search it;
      --arguments json gives every row verified JSON arguments, as an imported catalog
  bench-scale [--sizes 100,1853,10000,25519] [--runs 3] [--seed 1] [--budget-minutes 90]
              [--skip builds,search,rustc] [--arguments typed|json]
      expansion (in this process and, with a nightly toolchain, inside rustc), build and
      rebuild times, search against tantivy, sizes, per catalog size; prints the tables of
      BENCHMARKS.md (run it with --release)
  eval-languages [--k 5]
      search on each set of tests/data/languages (Japanese, Chinese, Korean, German,
      French, ...): recall@k and MRR@k on the requests for choosing parameters (01-20,
      and 45 on where a set has them) and on those for reporting (21-44), the catalog's
      examples found with each left out, and the median time per query, as a table (use
      --release); then the same for bm25s over character bigrams, when BM25S_PYTHON
      (default python3) can import bm25s and PyStemmer

  eval-scan
      the result scanner on tests/data/results: attacks caught and honest results passed
      unchanged, per half (dev, on which its rules were chosen, and report)

--catalog defaults to catalog.toml in the workspace root. The catalog commands are also
`cargo catalog <command>` (`cargo install --path cargo-catalog`), where `check-catalog`
is `check`.",
    );
    out
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(Usage(msg)) => {
            eprintln!("error: {msg}\n\n{}", usage());
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, Usage> {
    let Some((command, rest)) = args.split_first() else {
        return Err(Usage("no command given".into()));
    };
    if command == "test" {
        // Everything after `test` is cargo's, not ours.
        return Ok(test::run(rest));
    }
    if let Some((_, catalog_command)) = CATALOG_COMMANDS.iter().find(|(name, _)| name == command) {
        // `cargo xtask` runs from anywhere in the workspace; the default names the root's file.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        return catalog_command.run(rest, &Defaults::in_dir(root));
    }
    match command.as_str() {
        "codegen" => codegen::run(rest),
        "gen-catalog" => r#gen::run(&Flags::parse(rest)?),
        "bench-scale" => scale::run(&Flags::parse(rest)?),
        "eval-languages" => languages::run(&Flags::parse(rest)?),
        "eval-scan" => scan::run(&Flags::parse(rest)?),
        "help" | "--help" | "-h" => {
            println!("{}", usage());
            Ok(ExitCode::SUCCESS)
        }
        other => Err(Usage(format!("unknown command `{other}`"))),
    }
}
