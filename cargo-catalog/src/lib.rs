//! `cargo catalog`: the catalog commands for any repository, with the compiler the
//! `catalog!` macro uses, so the command and the build give the same verdict.
//!
//! ```sh
//! cargo install --path cargo-catalog
//! cargo catalog check                   # catalog.toml in the current directory
//! cargo catalog check --catalog app/catalog.toml --format json
//! ```
//!
//! The binary is a shell over this library; a repository that wants the commands under
//! its own `cargo xtask`, with its own defaults, calls the library the same way (the
//! README's example):
//!
//! ```no_run
//! use std::process::ExitCode;
//!
//! use cargo_catalog::{Command, Defaults, Usage};
//!
//! fn main() -> ExitCode {
//!     let args: Vec<String> = std::env::args().skip(1).collect();
//!     // The catalog at the workspace root, whichever folder the command runs from.
//!     let defaults = Defaults::in_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
//!     let result = match args.split_first() {
//!         Some((name, rest)) if name == "check-catalog" => Command::Check.run(rest, &defaults),
//!         Some((name, rest)) => match Command::from_name(name) {
//!             Some(command) => command.run(rest, &defaults),
//!             None => Err(Usage(format!("unknown command `{name}`"))),
//!         },
//!         None => Err(Usage("no command given".into())),
//!     };
//!     result.unwrap_or_else(|Usage(message)| {
//!         eprintln!("error: {message}\n\n{}", cargo_catalog::usage());
//!         ExitCode::from(2)
//!     })
//! }
//! ```
//!
//! Exit codes, for every command: 0 success (for `check`: the catalog follows every rule
//! and no denied lint finds anything), 1 the catalog or an input has errors (printed with
//! their file, line and column), 2 unusable arguments.

mod args;
mod check;
mod command;
mod defaults;
mod eval;
mod expand;
mod import;
mod import_server;
mod lints;
mod numbers;
mod reach;
mod render;
mod search;
mod summary;
mod tokens;
mod upstreams;

use std::ffi::OsString;
use std::process::ExitCode;

pub use args::{Flags, Format, Usage};
pub use command::Command;
pub use defaults::Defaults;
pub use numbers::thousands;

/// The usage text of `cargo catalog`.
#[must_use]
pub fn usage() -> String {
    let mut out = String::from("usage: cargo catalog <command> [options]\n\ncommands:\n");
    for command in Command::ALL {
        out.push_str(&command.help(command.name()));
    }
    out.push_str(
        "  help
      this text

--catalog defaults to catalog.toml in the current directory.
exit codes: 0 success, 1 the catalog or an input has errors, 2 unusable arguments.",
    );
    out
}

/// The `cargo-catalog` binary: `args` without the program's name. Cargo runs
/// `cargo catalog check` as `cargo-catalog catalog check`, so a first `catalog` is
/// skipped; `cargo-catalog check` works as well.
#[must_use]
pub fn main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    match cli(args) {
        Ok(code) => code,
        Err(Usage(message)) => {
            eprintln!("error: {message}\n\n{}", usage());
            ExitCode::from(2)
        }
    }
}

fn cli(args: impl IntoIterator<Item = OsString>) -> Result<ExitCode, Usage> {
    let mut args = args
        .into_iter()
        .map(|a| {
            a.into_string().map_err(|a| {
                Usage(format!(
                    "argument `{}` is not valid UTF-8: name files by UTF-8 paths",
                    a.to_string_lossy()
                ))
            })
        })
        .collect::<Result<Vec<String>, Usage>>()?;
    if args.first().is_some_and(|a| a == "catalog") {
        args.remove(0);
    }
    let Some((name, rest)) = args.split_first() else {
        return Err(Usage("no command given".into()));
    };
    match name.as_str() {
        "help" | "--help" | "-h" => {
            println!("{}", usage());
            Ok(ExitCode::SUCCESS)
        }
        "--version" | "-V" => {
            println!("cargo-catalog {}", env!("CARGO_PKG_VERSION"));
            Ok(ExitCode::SUCCESS)
        }
        other => match Command::from_name(other) {
            Some(command) => command.run(rest, &Defaults::current_dir()),
            None if other == "check-catalog" => Err(Usage(
                "unknown command `check-catalog`: `cargo catalog check` checks a catalog".into(),
            )),
            None => Err(Usage(format!("unknown command `{other}`"))),
        },
    }
}
