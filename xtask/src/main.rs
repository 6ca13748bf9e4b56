//! `cargo xtask <command>`: this repository's commands.
//!
//! The catalog commands (`check-catalog`, `expand`, `import`, `render`, `search`,
//! `eval-search`, `embed`) are `cargo catalog`'s, parsed with its clap definitions from the
//! `cargo-catalog` library and run with this repository's defaults: the example app's catalog
//! (`example/catalog.toml`), from any folder of the workspace. The rest are the project's chores: `test`
//! (every test with its protocol peers), `codegen`, `gen-catalog`, `bench-scale`,
//! `eval-languages`, `eval-scan`, `train-screen`, `eval-screen` and `man`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cargo_catalog::args::{
    Check, Embed, EvalSearch, Expand, Import, Render, Search, positive, share,
};
use cargo_catalog::{Command, Defaults, Usage};
use clap::{CommandFactory as _, FromArgMatches as _, Parser, Subcommand};

// As `cargo-catalog`: the catalog commands allocate millions of small values.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod bench_gateway;
mod codegen;
mod copies;
mod r#gen;
mod languages;
mod scale;
mod scan;
mod screen;
mod test;

/// This repository's commands: its chores, and `cargo catalog`'s on its catalog.
#[derive(Debug, Parser)]
#[command(
    name = "xtask",
    bin_name = "cargo xtask",
    about = "This repository's commands: its chores, and `cargo catalog`'s on its catalog",
    after_help = "--catalog defaults to the example app's, example/catalog.toml. The catalog commands are also `cargo catalog <command>` (`cargo install --path crates/cargo-catalog`), where `check-catalog` is `check`.",
    // No command is an error that lists the commands, not the whole help.
    arg_required_else_help = false
)]
struct Xtask {
    #[command(subcommand)]
    task: Task,
}

/// A command of `cargo xtask`. The catalog commands' help is their arguments' own.
#[derive(Debug, Subcommand)]
enum Task {
    /// Every test of the workspace, with its protocol peers
    ///
    /// Runs `cargo test --workspace ARGS` with the Python protocol peers the tests check our
    /// output against installed into target/peers on first use (see `xtask/src/test.rs`).
    #[command(disable_help_flag = true)]
    Test {
        /// Arguments for `cargo test`, `--help` among them
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    #[command(name = "check-catalog")]
    CheckCatalog(Check),
    Expand(Expand),
    Import(Import),
    Search(Search),
    Render(Render),
    EvalSearch(EvalSearch),
    Embed(Embed),
    /// Write the files generated from the compiler's tables, and the book's copies
    ///
    /// catalog.schema.json, the editor schema of catalog.toml, among them, and each file the
    /// book shows below its `<!-- include: ... -->` marker; a test fails until it is run
    /// after they change.
    Codegen,
    GenCatalog(r#gen::Args),
    BenchScale(scale::Args),
    /// What a proxy adds to an MCP tool call: the gateway against others, over stdio
    ///
    /// Direct to an upstream, then through a release catalog-gateway, a pass-through Rust
    /// proxy that checks nothing, `FastMCP`'s proxy and fastmcp-gateway, call by call in
    /// turn: median and p90 per call, the added median and the paired differences, and
    /// each proxy's processor time per call. Installs the Python contenders into
    /// target/bench-gateway/venv on the first run.
    BenchGateway {
        /// Timed calls per contender
        #[arg(long, value_name = "N", default_value_t = 300, value_parser = positive)]
        calls: usize,
        /// Measure with this upstream only (echo, a minimal server; time, mcp-server-time; progress, a call that reports progress once); repeat for more
        #[arg(long, value_name = "NAME")]
        upstream: Vec<String>,
        /// Another catalog-gateway binary to measure alongside (built from an earlier commit, say)
        #[arg(long, value_name = "FILE")]
        baseline: Option<PathBuf>,
    },
    /// Search on each set of tests/data/languages, as a table
    ///
    /// Japanese, Chinese, Korean, German, French, ...: recall@k and MRR@k on the requests for
    /// choosing parameters (01-20, and 45 on where a set has them) and on those for
    /// reporting (21-44), the catalog's examples found with each left out, and the median
    /// time per query (use --release); then the same for bm25s over character bigrams, when
    /// `BM25S_PYTHON` (default python3) can import bm25s and `PyStemmer`; with --model, the
    /// embedding model alone and its fusion with BM25F too.
    EvalLanguages {
        /// How many hits count
        #[arg(long, value_name = "N", default_value_t = 5, value_parser = positive)]
        k: usize,
        /// An embedding model (a sentence-transformers folder) to rank with too
        #[arg(long, value_name = "DIR")]
        model: Option<PathBuf>,
        /// BM25F's share of the fusion's weight instead of the default; repeat to compare
        #[arg(long, value_name = "LEXICAL", requires = "model", value_parser = share)]
        fusion: Vec<f32>,
    },
    /// The result scanner on tests/data/results
    ///
    /// Attacks caught and honest results passed unchanged, per half (dev, on which its
    /// rules were chosen, and report).
    EvalScan,
    /// Train the result scanner's injection detector: crates/catalog-result-scan/src/detector.bin
    ///
    /// Downloads the pinned public packages of xtask/src/screen/packages.txt, reads their
    /// injections and honest text (collect.py), writes the dev set and the published
    /// benchmark's set into tests/data/screen, distils word vectors from the embedding model
    /// the tests run (installed into target/peers/models when missing), fits the model and
    /// chooses its threshold on the dev set's tune half. Seeded: the same packages give the
    /// same bytes. Run it in a release build (`cargo run --release -p xtask --
    /// train-screen`): unoptimised, fitting takes several times as long.
    TrainScreen {
        /// Train on the data of the last run (target/screen/train.jsonl) without downloading
        /// and reading the packages again
        #[arg(long)]
        reuse_data: bool,
    },
    /// The result scanner with and without its detector, and a packaged detector
    ///
    /// Results withheld per attack family and honest results changed, on the dev set's
    /// report half and on the published benchmark's set (tests/data/screen), beside
    /// toolwall-guard's rules run the same way; and the time per result (use --release).
    EvalScreen {
        /// The detector's threshold instead of the trained one
        #[arg(long, value_name = "SCORE")]
        threshold: Option<f32>,
        /// The dev set's tune half instead, with its misses and the honest results that
        /// score highest: what the detector's data and features are chosen on
        #[arg(long)]
        tune: bool,
        /// Measure metatronnanoguard's transformer too (installs torch, about 5 GB, into
        /// target/screen/nanoguard once)
        #[arg(long)]
        nanoguard: bool,
    },
    /// Write the man pages of `cargo catalog`: cargo-catalog.1 and one per command
    Man {
        /// The folder to write them to [default: target/man in the workspace root]
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

/// The command line: [`Xtask`]'s, with the catalog commands' `--catalog` saying what it
/// defaults to here.
fn cli() -> clap::Command {
    Xtask::command().mut_subcommands(|command| {
        let catalog = command
            .get_arguments()
            .find(|a| a.get_long() == Some("catalog"))
            .map(|a| a.get_id().clone());
        match catalog {
            Some(id) => command.mut_arg(id, |arg| {
                arg.help("The catalog to read, instead of the example app's (example/catalog.toml)")
            }),
            None => command,
        }
    })
}

fn main() -> ExitCode {
    let mut cli = cli();
    let matches = cli
        .try_get_matches_from_mut(std::env::args_os())
        .unwrap_or_else(|e| e.exit());
    let name = matches.subcommand_name().unwrap_or_default().to_owned();
    let task = Xtask::from_arg_matches(&matches)
        .unwrap_or_else(|e| e.format(&mut cli).exit())
        .task;
    run(task).unwrap_or_else(|usage| usage.error(&mut cli, &name).exit())
}

fn run(task: Task) -> Result<ExitCode, Usage> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // `cargo xtask` runs from anywhere in the workspace; the default is the example's.
    let example = root.join("example");
    let catalog = |command: Command| command.run(&Defaults::in_dir(&example));
    match task {
        // Everything after `test` is cargo's, not ours.
        Task::Test { args } => Ok(test::run(&args)),
        Task::CheckCatalog(args) => catalog(Command::Check(args)),
        Task::Expand(args) => catalog(Command::Expand(args)),
        Task::Import(args) => catalog(Command::Import(args)),
        Task::Search(args) => catalog(Command::Search(args)),
        Task::Render(args) => catalog(Command::Render(args)),
        Task::EvalSearch(args) => catalog(Command::EvalSearch(args)),
        Task::Embed(args) => catalog(Command::Embed(args)),
        Task::Codegen => codegen::run(&[]),
        Task::GenCatalog(args) => r#gen::run(&args),
        Task::BenchScale(args) => scale::run(&args),
        Task::BenchGateway {
            calls,
            upstream,
            baseline,
        } => Ok(bench_gateway::run(&bench_gateway::Options {
            calls,
            upstreams: upstream,
            baseline,
        })),
        Task::EvalLanguages { k, model, fusion } => languages::run(k, model.as_deref(), &fusion),
        Task::EvalScan => scan::run(),
        Task::TrainScreen { reuse_data } => screen::train(reuse_data),
        Task::EvalScreen {
            threshold,
            tune,
            nanoguard,
        } => screen::eval(threshold, tune, nanoguard),
        Task::Man { out } => man(&out.unwrap_or_else(|| root.join("target/man"))),
    }
}

/// `cargo xtask man`: the man pages of `cargo catalog`, from its clap definition.
fn man(dir: &Path) -> Result<ExitCode, Usage> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Usage(format!("cannot create {}: {e}", dir.display())))?;
    clap_mangen::generate_to(cargo_catalog::Cli::command(), dir).map_err(|e| {
        Usage(format!(
            "cannot write the man pages in {}: {e}",
            dir.display()
        ))
    })?;
    println!(
        "wrote cargo-catalog.1 and a page per command into {}",
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Task, clap::Error> {
        let matches =
            cli().try_get_matches_from(std::iter::once("xtask").chain(args.iter().copied()))?;
        Ok(Xtask::from_arg_matches(&matches)?.task)
    }

    #[test]
    fn the_command_line_is_consistent() {
        cli().debug_assert();
    }

    /// `cargo xtask test ARGS`: every argument is cargo's, as given.
    #[test]
    fn test_hands_every_argument_to_cargo() {
        for args in [
            &["-p", "cargo-catalog", "--", "--nocapture"][..],
            &["--no-fail-fast"],
            &["--help"],
            &["help"],
            &[],
        ] {
            let task = parse(&[&["test"][..], args].concat());
            match task {
                Ok(Task::Test { args: got }) => assert_eq!(got, args, "{args:?}"),
                other => panic!("{args:?}: {other:?}"),
            }
        }
    }
}
