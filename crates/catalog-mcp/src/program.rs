//! The ready-made program: [`main`] reads the command line, sets up logging and serves;
//! [`main_with`] does the same for a program with flags of its own that build its
//! handler, [`main_offering`] for one with prompts or resources of its own. An application
//! that needs more composes the same pieces ([`cli::command`], [`Tools`],
//! [`stdio::serve`], [`http::serve`]) as this module does.

use std::fmt;
use std::process::ExitCode;
use std::sync::Arc;

use catalog_core::{CompiledCatalog, HandledBy};
use tracing_subscriber::EnvFilter;

use crate::calls::Tools;
use crate::cli::{self, Options, Transport};
use crate::identity::{Identity, VERSION};
use crate::offers::Offers;
use crate::tokens::Tokens;
use crate::{http, stdio};

/// The whole server program for catalog `C` (the `Catalog` unit struct `catalog!`
/// generated) and its handler: a binary's `fn main` is this one call (see the
/// [crate example](crate)).
///
/// It reads the command line with [`cli::command`] (`--help` shows it, with `program` as
/// the name; unusable arguments are reported in clap's style), reads the tokens file of
/// `--http` before anything starts, logs to standard error (`RUST_LOG` filters, by default
/// `catalog_mcp=info,rmcp=error`), and serves over stdio or streamable HTTP until the
/// client leaves (stdio) or the process is interrupted (HTTP). Clients read `program` as
/// the server's name, with this crate's version ([`VERSION`]); `-V` prints both.
///
/// Exit status: 0 when the server stopped cleanly, 2 for unusable arguments or tokens
/// file (with the reason and the usage on standard error), 1 when serving failed.
pub fn main<C, H, const W: usize>(catalog: C, program: &str, handler: H) -> ExitCode
where
    C: CompiledCatalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
    main_with(catalog, program, &[], |_| Ok(handler))
}

/// [`main`] for a server that also serves prompts, resources, templates or completions
/// of its own: `offers` (see [`Offers`]).
pub fn main_offering<C, H, const W: usize>(
    catalog: C,
    program: &str,
    handler: H,
    offers: impl Offers,
) -> ExitCode
where
    C: CompiledCatalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
    serve_program(catalog, program, &[], |_| Ok(handler), Some(offers))
}

/// A flag of the program's own for [`main_with`], given as `NAME VALUE` or `NAME=VALUE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    /// The flag, e.g. `--db`.
    pub name: &'static str,
    /// What its value is, for `--help`, e.g. `PATH`.
    pub value: &'static str,
    /// One line for `--help`.
    pub help: &'static str,
}

/// [`main`] for a program with flags of its own, which build its handler: a database
/// path, a data folder. The flags are read with the common ones ([`cli::command`]) and
/// listed by `--help` under a heading of their own; once the command line is read,
/// `handler` gets their values (in the order of `flags`, `None` for one not given) and
/// builds the handler, or says what is wrong: that message is printed like any unusable
/// argument, with exit status 2.
pub fn main_with<C, H, const W: usize>(
    catalog: C,
    program: &str,
    flags: &[Flag],
    handler: impl FnOnce(&[Option<String>]) -> Result<H, String>,
) -> ExitCode
where
    C: CompiledCatalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
    serve_program(catalog, program, flags, handler, None::<NoOffers>)
}

/// What a server without offers of its own offers: nothing.
struct NoOffers;

impl Offers for NoOffers {
    fn offered(&self) -> crate::Offered {
        crate::Offered::default()
    }
}

/// [`main_with`], and `offers` when there are some.
fn serve_program<C, H, const W: usize>(
    catalog: C,
    program: &str,
    flags: &[Flag],
    handler: impl FnOnce(&[Option<String>]) -> Result<H, String>,
    offers: Option<impl Offers>,
) -> ExitCode
where
    C: CompiledCatalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
    let mut command = command_with(program, flags);
    let matches = match command.try_get_matches_from_mut(std::env::args_os()) {
        Ok(matches) => matches,
        Err(error) => return exit(&error),
    };
    let values: Vec<Option<String>> = flags
        .iter()
        .map(|flag| matches.get_one::<String>(flag.name).cloned())
        .collect();
    let options = match cli::ServeArgs::from_matches(&matches)
        .map_err(|e| e.to_string())
        .and_then(|args| args.options(false))
    {
        Ok(options) => options,
        Err(message) => return unusable(&mut command, message),
    };
    let Options {
        transport,
        gated,
        scan_results,
    } = options;
    // Tokens are read before anything starts, so a bad file is an argument error.
    let listen = match transport {
        Transport::Stdio { access } => Listen::Stdio(access),
        Transport::Http {
            address,
            tokens,
            origins,
        } => match tokens.map_or_else(
            || Err(String::from("--http needs --tokens FILE")),
            |file| Tokens::read(&file).map_err(|e| e.to_string()),
        ) {
            Ok(tokens) => Listen::Http(address, Arc::new(tokens), http::Origins::new(origins)),
            Err(error) => return unusable(&mut command, error),
        },
    };
    let handler = match handler(&values) {
        Ok(handler) => handler,
        Err(message) => return unusable(&mut command, message),
    };
    init_logging();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("{program}: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let mut tools =
        Tools::new(catalog, handler, gated).with_identity(Identity::new(program, VERSION));
    if let Some(policy) = scan_results {
        tools = tools.with_scan_results(policy);
    }
    if let Some(offers) = offers {
        tools = tools.with_offers(offers);
    }
    match runtime.block_on(run(Arc::new(tools), listen, program)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{program}: {message}");
            ExitCode::FAILURE
        }
    }
}

/// [`cli::command`] with the program's own flags, listed under a heading of their own.
fn command_with(program: &str, flags: &[Flag]) -> clap::Command {
    let mut command = cli::command(program);
    for flag in flags {
        command = command.arg(
            clap::Arg::new(flag.name)
                .long(flag.name.trim_start_matches('-'))
                .value_name(flag.value)
                .help(flag.help)
                .help_heading(format!("{program}'s own options")),
        );
    }
    command
}

/// Prints clap's error, or the help or version it stands for, where clap prints it;
/// the exit status is clap's (2 for unusable arguments, 0 for `--help` and `-V`).
#[must_use]
pub fn exit(error: &clap::Error) -> ExitCode {
    // Printing to a closed stream is no reason to fail differently.
    let _ = error.print();
    ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
}

/// Unusable arguments found after clap read them (a check across options, a file that
/// cannot be read, the program's own flags), reported as clap reports its own.
#[must_use]
pub fn unusable(command: &mut clap::Command, message: impl fmt::Display) -> ExitCode {
    exit(&command.error(clap::error::ErrorKind::ValueValidation, message))
}

/// Where [`main`] serves, once the tokens file is read.
enum Listen {
    Stdio(catalog_core::Access),
    Http(std::net::SocketAddr, Arc<Tokens>, http::Origins),
}

async fn run<C, H, const W: usize>(
    tools: Arc<Tools<C, H, W>>,
    listen: Listen,
    program: &str,
) -> Result<(), String>
where
    C: CompiledCatalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
    let gated = tools.gated();
    match listen {
        Listen::Stdio(access) => {
            eprintln!("{program}: serving MCP over stdio at {access} (gated tools: {gated})");
            stdio::serve(tools, access).await.map_err(|e| e.to_string())
        }
        Listen::Http(address, tokens, origins) => {
            let (listener, bound) = http::bind(address).await?;
            // The first line on stderr, and the one tests and scripts read the port from.
            eprintln!(
                "{program}: serving MCP over streamable HTTP at http://{bound}{} ({} tokens, gated tools: {gated})",
                http::ENDPOINT,
                tokens.len()
            );
            http::serve(listener, tools, tokens, &origins, shutdown_signal())
                .await
                .map_err(|e| format!("the HTTP server stopped: {e}"))
        }
    }
}

/// Log lines to standard error, filtered by `RUST_LOG` (by default this crate's at info,
/// `rmcp`'s errors only), and the events of each client's requests to that client as MCP
/// `notifications/message` at the level it asked for ([`crate::logging`]). Standard
/// output is the stdio transport, so nothing is logged there. Does nothing when a global
/// subscriber is already set.
pub fn init_logging() {
    init_logging_with("catalog_mcp=info,rmcp=error");
}

/// [`init_logging`] with another filter for when `RUST_LOG` is not set, for a program
/// with log targets of its own.
pub fn init_logging_with(default: &str) {
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    use tracing_subscriber::{Layer as _, fmt};
    let stderr = fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default)));
    let _ = tracing_subscriber::registry()
        .with(stderr)
        .with(crate::logging::layer())
        .try_init();
}

/// Completes on Ctrl-C, or SIGTERM where there is one: the `shutdown` to give
/// [`http::serve`].
pub async fn shutdown_signal() {
    let interrupt = async {
        // Without a handler there is nothing to wait for: wait forever, as if unsent.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    {
        let terminate = async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut signal) => {
                    signal.recv().await;
                }
                Err(_) => std::future::pending().await,
            }
        };
        tokio::select! {
            () = interrupt => {},
            () = terminate => {},
        }
    }
    #[cfg(not(unix))]
    interrupt.await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Result<(Option<String>, cli::Options), String> {
        let db = Flag {
            name: "--db",
            value: "PATH",
            help: "the database",
        };
        let args = std::iter::once("app-mcp").chain(line.split_whitespace());
        let matches = command_with("app-mcp", &[db])
            .try_get_matches_from(args)
            .map_err(|e| e.to_string())?;
        let options = cli::ServeArgs::from_matches(&matches)
            .map_err(|e| e.to_string())?
            .options(false)?;
        Ok((matches.get_one::<String>("--db").cloned(), options))
    }

    #[test]
    fn a_programs_own_flags_are_read_beside_the_common_ones() {
        let (db, options) = read("--access full-access --db t.db --gated=deny").unwrap();
        assert_eq!(db.as_deref(), Some("t.db"));
        assert_eq!(options.gated, crate::GatedPolicy::Deny);
        assert_eq!(read("--db=a.db").unwrap().0.as_deref(), Some("a.db"));
        assert_eq!(read("").unwrap().0, None);
        assert!(
            read("--help")
                .unwrap_err()
                .contains("Usage: app-mcp [OPTIONS]")
        );
        let no_value = read("--db").unwrap_err();
        assert!(
            no_value.contains("a value is required for '--db <PATH>'"),
            "{no_value}"
        );
        let twice = read("--db a --db b").unwrap_err();
        assert!(
            twice.contains("'--db <PATH>' cannot be used multiple times"),
            "{twice}"
        );
        let help = command_with(
            "app-mcp",
            &[Flag {
                name: "--db",
                value: "PATH",
                help: "the database",
            }],
        )
        .render_help()
        .to_string();
        assert!(
            help.contains("app-mcp's own options:\n      --db <PATH>  the database"),
            "{help}"
        );
    }
}
