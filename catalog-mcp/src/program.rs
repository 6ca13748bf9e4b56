//! The ready-made program: [`main`] reads the command line, sets up logging and serves;
//! [`main_with`] does the same for a program with flags of its own that build its
//! handler, [`main_offering`] for one with prompts or resources of its own. An application that needs more composes the same pieces ([`cli::parse`],
//! [`Tools`], [`stdio::serve`], [`http::serve`]) as this module does.

use std::ffi::OsString;
use std::fmt::{self, Write as _};
use std::process::ExitCode;
use std::sync::Arc;

use catalog_core::{CompiledCatalog, HandledBy};
use tracing_subscriber::EnvFilter;

use crate::calls::Tools;
use crate::cli::{self, Command, Options, Transport};
use crate::identity::{Identity, VERSION};
use crate::offers::Offers;
use crate::tokens::Tokens;
use crate::{http, stdio};

/// The whole server program for catalog `C` (the `Catalog` unit struct `catalog!`
/// generated) and its handler: a binary's `fn main` is this one call (see the
/// [crate example](crate)).
///
/// It reads the arguments after the program's name as [`cli::parse`] does (`--help`
/// shows them, with `program` as the name), reads the tokens file of `--http` before
/// anything starts, logs to standard error (`RUST_LOG` filters, by default
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
/// path, a data folder. The flags are taken out of the command line before
/// [`cli::parse`] reads the rest, and listed by `--help` after the common ones; once the
/// command line is read, `handler` gets their values (in the order of `flags`, `None`
/// for one not given) and builds the handler, or says what is wrong: that message is
/// printed like any unusable argument, with exit status 2.
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
    let usage = || {
        let mut text = cli::usage(program);
        if !flags.is_empty() {
            // Writing to a String cannot fail.
            let _ = write!(text, "\n\n{program}'s own options:\n");
            for flag in flags {
                let name = format!("{} {}", flag.name, flag.value);
                let _ = writeln!(text, "  {name:<17} {}", flag.help);
            }
        }
        text.trim_end().to_owned()
    };
    let parsed = arguments(std::env::args_os().skip(1))
        .and_then(|args| own_flags(args, flags))
        .and_then(|(args, values)| Ok((cli::parse(args)?, values)));
    let (options, values) = match parsed {
        Ok((Command::Serve(options), values)) => (options, values),
        Ok((Command::Help, _)) => {
            println!("{}", usage());
            return ExitCode::SUCCESS;
        }
        Ok((Command::Version, _)) => {
            println!("{program} (catalog-mcp {VERSION})");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("{program}: {message}\n\n{}", usage());
            return ExitCode::from(2);
        }
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
            Err(error) => {
                eprintln!("{program}: {error}");
                return ExitCode::from(2);
            }
        },
    };
    let handler = match handler(&values) {
        Ok(handler) => handler,
        Err(message) => {
            eprintln!("{program}: {message}");
            return ExitCode::from(2);
        }
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

/// Takes the program's own flags out of `args`: the rest, and each flag's value.
///
/// # Errors
/// A flag without its value, or given twice.
pub fn own_flags(
    args: Vec<String>,
    flags: &[Flag],
) -> Result<(Vec<String>, Vec<Option<String>>), String> {
    let mut values = vec![None; flags.len()];
    let mut rest = Vec::with_capacity(args.len());
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) => (name, Some(value.to_owned())),
            None => (arg.as_str(), None),
        };
        let Some(i) = flags.iter().position(|f| f.name == name) else {
            rest.push(arg);
            continue;
        };
        let value = inline
            .or_else(|| args.next())
            .ok_or_else(|| format!("{name} needs a value: {} {}", name, flags[i].value))?;
        if values[i].replace(value).is_some() {
            return Err(format!("{name} is given twice"));
        }
    }
    Ok((rest, values))
}

/// The arguments as text: one that is not UTF-8 is named, not a panic.
fn arguments(args: impl IntoIterator<Item = OsString>) -> Result<Vec<String>, String> {
    args.into_iter()
        .map(|arg| {
            arg.into_string().map_err(|arg| {
                format!(
                    "argument {} is not valid UTF-8; use a UTF-8 path or value",
                    arg.to_string_lossy()
                )
            })
        })
        .collect()
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

    #[test]
    fn a_programs_own_flags_are_taken_out_before_the_common_ones_are_read() {
        let db = Flag {
            name: "--db",
            value: "PATH",
            help: "the database",
        };
        let args = |line: &str| {
            line.split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            own_flags(args("--access full-access --db t.db --gated=deny"), &[db]),
            Ok((
                args("--access full-access --gated=deny"),
                vec![Some("t.db".into())]
            ))
        );
        assert_eq!(
            own_flags(args("--db=a.db"), &[db]),
            Ok((Vec::new(), vec![Some("a.db".into())]))
        );
        assert_eq!(
            own_flags(args("--help"), &[db]),
            Ok((args("--help"), vec![None]))
        );
        assert_eq!(
            own_flags(args("--db"), &[db]),
            Err("--db needs a value: --db PATH".into())
        );
        assert_eq!(
            own_flags(args("--db a --db b"), &[db]),
            Err("--db is given twice".into())
        );
    }

    #[test]
    fn arguments_that_are_not_utf8_are_named() {
        assert_eq!(
            arguments([OsString::from("--access"), OsString::from("read-only")]),
            Ok(vec![String::from("--access"), String::from("read-only")])
        );
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStringExt;
            let bad = OsString::from_vec(vec![b't', 0xff]);
            let error = arguments([OsString::from("--tokens"), bad]).unwrap_err();
            assert!(error.contains("is not valid UTF-8"), "{error}");
        }
    }
}
