//! The `catalog-gateway` program: the command line, reading the catalog, then serving.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use catalog_mcp::cli::{self, Command, Options, Transport};
use catalog_mcp::program::{init_logging_with, own_flags, shutdown_signal};
use catalog_mcp::{Grant, Level, Tokens, http, stdio};

use crate::config::Config;
use crate::gateway::{Discoverable, Gateway, RETRY, Serving};
use crate::rows;
use crate::server::Session;
use catalog_upstream::drift::Snapshot;

/// What `--help` prints.
#[must_use]
pub fn usage() -> String {
    let common = cli::usage("catalog-gateway");
    let options = common.splitn(3, "\n\n").nth(2).unwrap_or(common.as_str());
    format!(
        "\
usage: catalog-gateway --catalog FILE [--config FILE] [--discoverable H] [--retry S] [--access LEVEL] [--profile P] [--gated POLICY]
       catalog-gateway --catalog FILE [--config FILE] [--discoverable H] [--retry S] --http ADDRESS [--tokens FILE] [--allowed-origin O]... [--gated POLICY]

Serves the tools of the MCP servers that FILE's [[upstream]] tables name, as FILE's rows
say: at each client's level, arguments checked against the reviewed schemas, rows whose
server changed them since import withheld.

  --catalog FILE    the catalog (its upstream snapshot, FILE with .upstreams.json, is
                    read when present, to name what changed)
  --config FILE     the operator's file: [[token]] tables (instead of --tokens) and
                    [[profile]] tables, the subsets of upstreams and rows a token's
                    `profile` selects
  --profile P       stdio: the client sees only profile P of --config
  --discoverable H  how discoverable rows reach a client: listed (default: with the
                    inline ones, for MCP clients that choose tools themselves) or search
                    (the inline rows and the search tool; each search adds its hits)
  --retry S         seconds between tries of an upstream that cannot be reached or
                    whose session ended (default 30); its rows are withheld meanwhile

{options}"
    )
}

/// Runs the program; see [`usage`]. Exit status: 0 when the server stopped cleanly, 2
/// for unusable arguments or a catalog that does not compile, 1 when serving failed.
#[must_use]
pub fn main() -> ExitCode {
    let setup = match setup() {
        Ok(setup) => setup,
        Err(code) => return code,
    };
    init_logging_with("catalog_gateway=info,catalog_mcp=info,rmcp=error");
    let runtime = match runtime(&setup.transport) {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("catalog-gateway: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(Box::pin(serve(setup))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("catalog-gateway: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The async runtime for `transport`. Over stdio there is one client, whose requests
/// and the upstreams' answers are all I/O: one thread serves them without handing each
/// message across threads, which was most of what the gateway added to a call. Over HTTP
/// the clients are many, and the worker threads serve them in parallel.
fn runtime(transport: &Transport) -> std::io::Result<tokio::runtime::Runtime> {
    match transport {
        Transport::Stdio { .. } => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build(),
        Transport::Http { .. } => tokio::runtime::Runtime::new(),
    }
}

/// What the command line and the catalog say to serve.
struct Setup {
    path: String,
    loaded: &'static rows::Loaded,
    serving: Serving,
    transport: Transport,
    tokens: Option<Arc<Tokens>>,
    /// The stdio client's profile.
    profile: Option<String>,
}

/// Reads the command line, the catalog and its snapshot, and the tokens file; what is
/// wrong is printed, and the exit code returned.
fn setup() -> Result<Setup, ExitCode> {
    let args: Result<Vec<String>, String> = std::env::args_os()
        .skip(1)
        .map(|a| {
            a.into_string()
                .map_err(|a| format!("argument {} is not valid UTF-8", a.to_string_lossy()))
        })
        .collect();
    let flag = |name| catalog_mcp::Flag {
        name,
        value: "VALUE",
        help: "",
    };
    let parsed = args
        .and_then(|args| {
            own_flags(
                args,
                &[
                    flag("--catalog"),
                    flag("--discoverable"),
                    flag("--retry"),
                    flag("--config"),
                    flag("--profile"),
                ],
            )
        })
        .and_then(|(rest, values)| {
            // The configuration file may hold the tokens.
            let credentials = values[3].is_some();
            Ok((cli::parse_with(rest, credentials)?, values))
        });
    let (options, values) = match parsed {
        Ok((Command::Serve(options), values)) => (options, values),
        Ok((Command::Help, _)) => {
            println!("{}", usage());
            return Err(ExitCode::SUCCESS);
        }
        Ok((Command::Version, _)) => {
            println!("catalog-gateway {}", env!("CARGO_PKG_VERSION"));
            return Err(ExitCode::SUCCESS);
        }
        Err(message) => return Err(unusable(&message)),
    };
    let Some(path) = values[0].clone() else {
        return Err(unusable("--catalog FILE is required"));
    };
    let discoverable = match values[1].as_deref() {
        None | Some("listed") => Discoverable::Listed,
        Some("search") => Discoverable::Search,
        Some(other) => {
            return Err(unusable(&format!(
                "--discoverable {other}: use listed or search"
            )));
        }
    };
    let retry = match values[2].as_deref() {
        None => RETRY,
        Some(seconds) => match seconds.parse::<u64>() {
            Ok(s) if s > 0 => Duration::from_secs(s),
            _ => {
                return Err(unusable(&format!(
                    "--retry {seconds}: give a whole number of seconds, 1 or more"
                )));
            }
        },
    };
    let source = std::fs::read_to_string(&path)
        .map_err(|e| unusable(&format!("cannot read `{path}`: {e}")))?;
    let catalog = catalog_compiler::compile(&source).map_err(|diagnostics| {
        eprint!(
            "{}",
            catalog_compiler::render_all(&path, &source, &diagnostics)
        );
        eprintln!("catalog-gateway: `{path}` does not compile; nothing is served");
        ExitCode::from(2)
    })?;
    let snapshot = Snapshot::read_for(Path::new(&path)).map_err(|m| unusable(&m))?;
    let config = match &values[3] {
        Some(file) => read_config(file, &catalog)?,
        None => Config::default(),
    };
    let Options {
        transport,
        gated,
        scan_results,
    } = options;
    let scan_results = scan_results.unwrap_or(catalog.settings.scan_results);
    let tokens = match &transport {
        Transport::Http {
            tokens: Some(file), ..
        } => {
            if config.tokens.is_some() {
                return Err(unusable(
                    "tokens come from --tokens FILE or from the [[token]] tables of --config, not both",
                ));
            }
            Some(Arc::new(
                Tokens::read(file).map_err(|e| unusable(&e.to_string()))?,
            ))
        }
        Transport::Http { tokens: None, .. } => Some(Arc::new(config.tokens.ok_or_else(|| {
            unusable("--http needs --tokens FILE, or [[token]] tables in the --config file")
        })?)),
        Transport::Stdio { .. } => None,
    };
    let profile = values[4].clone();
    match (&profile, &transport) {
        (Some(_), Transport::Http { .. }) => {
            return Err(unusable(
                "--profile is for stdio; over HTTP each token's `profile` applies",
            ));
        }
        (Some(name), Transport::Stdio { .. }) if config.profiles.get(name).is_none() => {
            return Err(unusable(&format!(
                "--profile {name}: the --config file has no [[profile]] of that name"
            )));
        }
        _ => {}
    }
    let loaded = rows::load(catalog).map_err(|m| unusable(&m))?;
    Ok(Setup {
        path,
        loaded,
        serving: Serving {
            snapshot,
            gated,
            scan_results,
            discoverable,
            retry,
            profiles: config.profiles,
        },
        transport,
        tokens,
        profile,
    })
}

/// Reads and checks the operator's file against the catalog; its mistakes are printed
/// as the catalog's are.
fn read_config(file: &str, catalog: &catalog_compiler::CatalogModel) -> Result<Config, ExitCode> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| unusable(&format!("cannot read `{file}`: {e}")))?;
    Config::parse(file, &text, catalog).map_err(|errors| {
        eprint!("{}", catalog_compiler::render_all(file, &text, &errors.0));
        eprintln!("catalog-gateway: `{file}` is not a usable configuration; nothing is served");
        ExitCode::from(2)
    })
}

/// Starts the gateway and serves until the client leaves (stdio) or the process is
/// interrupted (HTTP).
async fn serve(setup: Setup) -> Result<(), String> {
    let Setup {
        path,
        loaded,
        serving,
        transport,
        tokens,
        profile,
    } = setup;
    let gated = serving.gated;
    let gateway = Gateway::start(loaded, serving).await;
    match (transport, tokens) {
        (Transport::Stdio { access }, _) => {
            eprintln!(
                "catalog-gateway: serving `{path}` over stdio at {access} (gated tools: {gated})"
            );
            let grant = Grant {
                profile: profile.map(Arc::from),
                ..Grant::local(access)
            };
            stdio::serve_for(Session::new(gateway, Level::Fixed(grant)))
                .await
                .map_err(|e| e.to_string())
        }
        (
            Transport::Http {
                address, origins, ..
            },
            Some(tokens),
        ) => {
            let (listener, bound) = http::bind(address).await?;
            // The line tests and scripts read the address from.
            eprintln!(
                "catalog-gateway: serving `{path}` over streamable HTTP at http://{bound}{} ({} tokens, gated tools: {gated})",
                http::ENDPOINT,
                tokens.len()
            );
            http::serve_for(
                listener,
                move || Session::new(Arc::clone(&gateway), Level::PerRequest),
                tokens,
                "catalog-gateway",
                &http::Origins::new(origins),
                shutdown_signal(),
            )
            .await
            .map_err(|e| format!("the HTTP server stopped: {e}"))
        }
        (Transport::Http { .. }, None) => Err(String::from("--http needs --tokens FILE")),
    }
}

fn unusable(message: &str) -> ExitCode {
    eprintln!("catalog-gateway: {message}\n\n{}", usage());
    ExitCode::from(2)
}
