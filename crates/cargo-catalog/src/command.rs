//! Running a parsed command: which module runs each, and how a program reports the
//! arguments a command finds unusable while it runs.

use std::num::NonZeroUsize;
use std::process::ExitCode;

use clap::error::ErrorKind;

use crate::args::{Command, Usage};
use crate::defaults::Defaults;
#[cfg(feature = "eval-agent")]
use crate::eval_agent;
use crate::{check, embed, eval, expand, import, render, search};

impl Command {
    /// Runs the command, with `defaults` for the options left out: the exit code, 0 when
    /// it succeeded, 1 when the catalog or an input has errors (printed, located).
    ///
    /// # Errors
    /// [`Usage`] for arguments found unusable while running (a file that cannot be read):
    /// report it as clap reports its own errors, exit code 2, with [`Usage::error`].
    pub fn run(self, defaults: &Defaults) -> Result<ExitCode, Usage> {
        // A program of its own, unlike the `catalog!` macro inside rustc: the compiler's
        // work (parsing, checking, the lints, the specs) may take every core.
        let cores = std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN);
        catalog_check::with_threads(cores, || self.run_here(defaults))
    }

    fn run_here(self, defaults: &Defaults) -> Result<ExitCode, Usage> {
        match self {
            Command::Check(args) => check::command(&args, defaults),
            Command::Expand(args) => expand::command(&args, defaults),
            Command::Import(args) => import::command(args),
            Command::Search(args) => search::command(&args, defaults),
            Command::Render(args) => render::command(&args, defaults),
            Command::EvalSearch(args) => eval::command(&args, defaults),
            #[cfg(feature = "eval-agent")]
            Command::EvalAgent(args) => eval_agent::command(&args, defaults),
            #[cfg(not(feature = "eval-agent"))]
            Command::EvalAgent(_) => Err(Usage(String::from(concat!(
                "`eval-agent` talks to chat providers, which this build of cargo-catalog leaves out: install it with ",
                install_with!("eval-agent"),
            )))),
            Command::Embed(args) => embed::command(&args, defaults),
        }
    }
}

impl Usage {
    /// This error as clap's own: `error: ...`, then the usage of the subcommand `command`
    /// of the program `cli` (or of the program, when it has no such subcommand), and exit
    /// code 2; `.exit()` prints it and exits.
    #[must_use]
    pub fn error(self, cli: &mut clap::Command, command: &str) -> clap::Error {
        // Built, a subcommand's usage names the program too: `cargo catalog check`.
        cli.build();
        match cli.find_subcommand_mut(command) {
            Some(sub) => sub.error(ErrorKind::ValueValidation, self.0),
            None => cli.error(ErrorKind::ValueValidation, self.0),
        }
    }
}
