//! `cargo catalog`: the catalog commands for any repository, with the compiler the
//! `catalog!` macro uses, so the command and the build give the same verdict.
//!
//! ```sh
//! cargo install --path crates/cargo-catalog
//! cargo catalog check                   # catalog.toml here or in the nearest folder above
//! cargo catalog check --catalog app/catalog.toml --format json
//! cargo catalog help import             # every command's options
//! ```
//!
//! `import --from-server`, `import --from-url` and `check --upstreams` talk to live MCP
//! servers, with the client the gateway uses too (`catalog-upstream`): they need the
//! `upstreams` feature (`cargo install --path crates/cargo-catalog --features upstreams`), which
//! the default build leaves out to install in a fraction of the time. Without it they exit
//! 2, saying so.
//! `eval-agent` talks to chat providers over HTTPS: it needs the `eval-agent` feature, for
//! the same reason; `embed` and `eval-search --model` run an embedding model: the `embed`
//! feature.
//!
//! The binary is a shell over this library; a repository that wants the commands under
//! its own `cargo xtask`, with its own defaults, parses them with the same clap definition
//! ([`Command`]) and runs them (the example of the guide's command-line chapter):
//!
//! ```no_run
//! use std::process::ExitCode;
//!
//! use cargo_catalog::{Command, Defaults};
//! use clap::{CommandFactory as _, Parser};
//!
//! /// This repository's commands: `cargo catalog`'s, on the catalog at its root.
//! #[derive(Parser)]
//! #[command(name = "xtask", bin_name = "cargo xtask")]
//! enum Xtask {
//!     #[command(flatten)]
//!     Catalog(Command),
//! }
//!
//! fn main() -> ExitCode {
//!     // The catalog at the workspace root, whichever folder the command runs from.
//!     let defaults = Defaults::in_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
//!     let Xtask::Catalog(command) = Xtask::parse();
//!     let name = command.name();
//!     // A file that cannot be read is an unusable argument, reported as clap reports one.
//!     command
//!         .run(&defaults)
//!         .unwrap_or_else(|usage| usage.error(&mut Xtask::command(), name).exit())
//! }
//! ```
//!
//! Exit codes, for every command: 0 success (for `check`: the catalog follows every rule
//! and no denied lint finds anything), 1 the catalog or an input has errors (printed with
//! their file, line and column), 2 unusable arguments (clap's errors, with the usage).

/// How to install a build with `feature`, as it works until the crate is published: from
/// the repository by git, or from a clone by path. Unused when every feature is on.
#[cfg(not(all(feature = "upstreams", feature = "eval-agent", feature = "embed")))]
macro_rules! install_with {
    ($feature:literal) => {
        concat!(
            "`cargo install --git ",
            env!("CARGO_PKG_REPOSITORY"),
            " cargo-catalog --features ",
            $feature,
            "` (in a clone of the repository: `cargo install --path crates/cargo-catalog --features ",
            $feature,
            "`)"
        )
    };
}

pub mod args;
mod check;
mod command;
mod defaults;
mod embed;
mod eval;
#[cfg(feature = "eval-agent")]
mod eval_agent;
mod expand;
mod import;
#[cfg(feature = "upstreams")]
mod import_server;
mod indexed;
mod lints;
mod numbers;
mod progress;
mod reach;
mod render;
mod search;
mod summary;
mod tokens;
#[cfg(feature = "upstreams")]
mod upstreams;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{CommandFactory as _, Parser as _};

use args::Program;
pub use args::{Cli, Command, Usage};
pub use defaults::Defaults;
// For the workspace's `cargo xtask`, whose benchmark tables print figures as the commands
// do: not part of the library's API.
#[doc(hidden)]
pub use numbers::thousands;

/// The `cargo-catalog` binary: `args` without the program's name. Cargo runs
/// `cargo catalog check` as `cargo-catalog catalog check`, so a first `catalog` is
/// skipped; `cargo-catalog check` works as well.
#[must_use]
pub fn main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let mut args: Vec<OsString> = args.into_iter().collect();
    if args.first().is_some_and(|a| a == "catalog") {
        args.remove(0);
    }
    let cli = match Cli::try_parse_from(std::iter::once("cargo-catalog".into()).chain(args)) {
        Ok(cli) => cli,
        Err(error) => return exit(&error),
    };
    match cli.program {
        Program::Completions { shell } => {
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "cargo-catalog",
                &mut std::io::stdout(),
            );
            ExitCode::SUCCESS
        }
        Program::Catalog(command) => {
            let name = command.name();
            command
                .run(&Defaults::current_dir())
                .unwrap_or_else(|usage| exit(&usage.error(&mut Cli::command(), name)))
        }
    }
}

/// Prints a clap error (or the help or version it stands for) as clap does: its exit
/// code, 2 for unusable arguments.
fn exit(error: &clap::Error) -> ExitCode {
    let _ = error.print();
    ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
}
