//! The `catalog-gateway` program: the command line, reading the catalog, then serving.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use catalog_mcp::cli::{Options, ServeArgs, Transport};
use catalog_mcp::program::{exit, init_logging_with, shutdown_signal};
use catalog_mcp::{Auth, Grant, Level, Tokens, http};

use crate::audit::Audit;
use crate::config::Config;
use crate::gateway::{Discoverable, Gateway, RETRY, Serving};
use crate::limits::Limits;
use crate::metrics::Metrics;
use crate::replicas::{Redis, Sessions};
use crate::rows;
use crate::server::Session;
use crate::traces::Traces;
use catalog_result_scan::{Scanner, Threshold};
use catalog_upstream::drift::Snapshot;
use clap::{CommandFactory as _, Parser};
use rmcp::transport::streamable_http_server::session::store::SessionStore;

/// The command line: the gateway's own options, then the ones every server built on
/// `catalog-mcp` takes.
#[derive(Debug, Parser)]
#[command(
    name = "catalog-gateway",
    version,
    about = "Serve the tools of the MCP servers a catalog's [[upstream]] tables name, as its rows say",
    long_about = "Serve the tools of the MCP servers a catalog's [[upstream]] tables name, as its rows say: \
        at each client's level, arguments checked against the reviewed schemas, rows whose \
        server changed them since import withheld.",
    after_help = "Logs go to stderr (RUST_LOG filters them). Exit status: 0 stopped cleanly, 1 serving failed, \
        2 unusable arguments or a catalog that does not compile."
)]
pub struct Args {
    /// The catalog (its upstream snapshot, FILE with .upstreams.json, is read when
    /// present, to name what changed)
    #[arg(long, value_name = "FILE")]
    pub catalog: PathBuf,
    /// `--config FILE`: the operator's file ([`crate::config`]).
    #[arg(
        long,
        value_name = "FILE",
        help = "The operator's file: [[token]] tables (instead of --tokens), [[profile]] tables \
            (the subsets of upstreams and rows a token's `profile` selects), an [oauth] table \
            with [[scope]] tables (then --http needs no tokens), [sessions] (the Redis database \
            that replicas behind one load balancer share), [audit], [metrics], [[limit]], \
            [traces] and [scan]"
    )]
    pub config: Option<PathBuf>,
    /// Stdio: the client sees only this profile of --config
    #[arg(long, value_name = "P", conflicts_with = "http")]
    pub profile: Option<String>,
    /// How discoverable rows reach a client: listed with the inline ones (for MCP clients
    /// that choose tools themselves) or found by search (the inline rows and the search
    /// tool; each search adds its hits)
    #[arg(long, value_name = "H", value_enum, default_value_t)]
    pub discoverable: Discoverable,
    /// Seconds between tries of an upstream that cannot be reached or whose session ended;
    /// its rows are withheld meanwhile
    #[arg(long, value_name = "S", default_value_t = RETRY.as_secs(), value_parser = clap::value_parser!(u64).range(1..))]
    pub retry: u64,
    /// The options every server built on `catalog-mcp` takes.
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// Runs the program; see [`Args`]. Exit status: 0 when the server stopped cleanly, 2
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
    loaded: rows::Loaded,
    serving: Serving,
    transport: Transport,
    tokens: Option<Arc<Tokens>>,
    /// The OAuth settings of the --config file.
    oauth: Option<crate::config::oauth::OAuth>,
    /// The stdio client's profile.
    profile: Option<String>,
    /// Where `/metrics` is served, if it is.
    metrics_at: Option<std::net::SocketAddr>,
    /// Where the replicas share sessions, over HTTP.
    sessions: Option<Sessions>,
}

/// Reads the command line, the catalog and its snapshot, and the tokens file; what is
/// wrong is printed, and the exit code returned.
#[allow(
    clippy::too_many_lines,
    reason = "the command line, the catalog and the operator's file read in order, each mistake with its message"
)]
fn setup() -> Result<Setup, ExitCode> {
    let args = Args::try_parse().map_err(|error| exit(&error))?;
    let Args {
        catalog: path,
        config,
        profile,
        discoverable,
        retry,
        serve,
    } = args;
    let retry = Duration::from_secs(retry);
    let path = path.display().to_string();
    let source = std::fs::read_to_string(&path)
        .map_err(|e| unusable(&format!("cannot read `{path}`: {e}")))?;
    let catalog = catalog_check::compile(&source).map_err(|diagnostics| {
        eprint!(
            "{}",
            catalog_check::render_all(&path, &source, &diagnostics)
        );
        eprintln!("catalog-gateway: `{path}` does not compile; nothing is served");
        ExitCode::from(2)
    })?;
    let snapshot = Snapshot::read_for(Path::new(&path)).map_err(|m| unusable(&m))?;
    let mut config = match &config {
        Some(file) => read_config(&file.display().to_string(), &catalog)?,
        None => Config::default(),
    };
    // The configuration file may hold the tokens: `http_tokens` says what is missing.
    let Options {
        transport,
        gated,
        scan_results,
    } = serve.options(true).map_err(|m| unusable(&m))?;
    let scan_results = scan_results.unwrap_or(catalog.settings.scan_results);
    let scan_threshold = config.scan_threshold.map_or(
        Threshold::from_thousandths(catalog.settings.scan_threshold),
        Threshold::At,
    );
    let tokens = http_tokens(&transport, config.tokens.take(), config.oauth.is_some())?;
    if let Some(name) = &profile
        && config.profiles.get(name).is_none()
    {
        return Err(unusable(&format!(
            "--profile {name}: the --config file has no [[profile]] of that name"
        )));
    }
    let audit = config
        .audit
        .as_ref()
        .map(|settings| {
            Audit::open(settings).map_err(|e| {
                unusable(&format!(
                    "cannot open the audit log `{}`: {e}",
                    settings.file.display()
                ))
            })
        })
        .transpose()?;
    let traces = config
        .traces
        .as_ref()
        .map(|settings| Traces::start(settings).map_err(|m| unusable(&m)))
        .transpose()?;
    let loaded = rows::Loaded::new(catalog).map_err(|m| unusable(&m))?;
    Ok(Setup {
        path,
        loaded,
        serving: Serving {
            snapshot,
            gated,
            scanner: Scanner::new(scan_results).detector(scan_threshold),
            discoverable,
            retry,
            profiles: config.profiles,
            audit,
            metrics: config.metrics.as_ref().map(|_| Arc::new(Metrics::new())),
            limits: Limits::new(&config.limits),
            traces,
            shared: None,
            seal: None,
        },
        metrics_at: config.metrics.map(|m| m.listen),
        transport,
        tokens,
        oauth: config.oauth,
        profile,
        sessions: config.sessions,
    })
}

/// The static tokens of an HTTP gateway: from `--tokens FILE` or the config's
/// `[[token]]` tables (not both); none is fine when the config has `[oauth]`.
fn http_tokens(
    transport: &Transport,
    from_config: Option<Tokens>,
    oauth: bool,
) -> Result<Option<Arc<Tokens>>, ExitCode> {
    Ok(match transport {
        Transport::Http {
            tokens: Some(file), ..
        } => {
            if from_config.is_some() {
                return Err(unusable(
                    "tokens come from --tokens FILE or from the [[token]] tables of --config, not both",
                ));
            }
            Some(Arc::new(
                Tokens::read(file).map_err(|e| unusable(&e.to_string()))?,
            ))
        }
        Transport::Http { tokens: None, .. } => {
            if from_config.is_none() && !oauth {
                return Err(unusable(
                    "--http needs --tokens FILE, or [[token]] tables or an [oauth] table in the --config file",
                ));
            }
            from_config.map(Arc::new)
        }
        Transport::Stdio { .. } => None,
    })
}

/// Reads and checks the operator's file against the catalog; its mistakes are printed
/// as the catalog's are.
fn read_config(file: &str, catalog: &catalog_check::CatalogModel) -> Result<Config, ExitCode> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| unusable(&format!("cannot read `{file}`: {e}")))?;
    Config::parse(file, &text, catalog).map_err(|errors| {
        eprint!("{}", catalog_check::render_all(file, &text, &errors.0));
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
        mut serving,
        transport,
        tokens,
        oauth,
        profile,
        metrics_at,
        sessions,
    } = setup;
    let gated = serving.gated;
    if let (Some(metrics), Some(listen)) = (&serving.metrics, metrics_at) {
        let bound =
            crate::metrics::serve(Arc::clone(metrics), &crate::metrics::Settings { listen })
                .await?;
        eprintln!("catalog-gateway: metrics served on {bound}, path /metrics");
    }
    if sessions.is_some() && matches!(transport, Transport::Stdio { .. }) {
        return Err(String::from(
            "the [sessions] table of --config is for replicas serving --http; remove it for stdio",
        ));
    }
    if let Some(sessions) = &sessions {
        let redis = Arc::new(Redis::connect(sessions).await?);
        serving.seal = Some(redis.seal().await?);
        serving.shared = Some(redis);
    }
    let store = serving
        .shared
        .clone()
        .map(|redis| redis as Arc<dyn SessionStore>);
    let gateway = Gateway::start(loaded, serving).await;
    match transport {
        Transport::Stdio { access } => {
            eprintln!(
                "catalog-gateway: serving `{path}` over stdio at {access} (gated tools: {gated})"
            );
            let grant = Grant {
                profile: profile.map(Arc::from),
                ..Grant::local(access)
            };
            let session = Session::serve(Arc::clone(&gateway), Level::Fixed(grant.clone()));
            let served = Box::pin(crate::express::serve(session, Arc::clone(&gateway), grant))
                .await
                .map_err(|e| e.to_string());
            gateway.flush();
            served
        }
        Transport::Http {
            address, origins, ..
        } => {
            let (listener, bound) = http::bind(address).await?;
            // The resource URI defaults to the address bound, known only now.
            let mut auth = match oauth {
                Some(oauth) => {
                    Auth::oauth(catalog_mcp::oauth::Verifier::new(oauth.settings(bound))?)
                }
                None => Auth::default(),
            };
            if let Some(tokens) = tokens {
                auth = auth.with_tokens(tokens);
            }
            // The line tests and scripts read the address from.
            eprintln!(
                "catalog-gateway: serving `{path}` over streamable HTTP at http://{bound}{} ({}, gated tools: {gated})",
                http::ENDPOINT,
                auth.describe()
            );
            let serving = Arc::clone(&gateway);
            let served = http::serve_for(
                listener,
                move || Session::serve(Arc::clone(&serving), Level::PerRequest),
                auth,
                "catalog-gateway",
                &http::Origins::new(origins),
                shutdown_signal(),
                store,
            )
            .await
            .map_err(|e| format!("the HTTP server stopped: {e}"));
            gateway.flush();
            served
        }
    }
}

/// Unusable arguments found after clap read them, reported as clap reports its own: the
/// message, the usage, exit status 2.
fn unusable(message: &str) -> ExitCode {
    catalog_mcp::program::unusable(&mut Args::command(), message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Args, String> {
        let args = std::iter::once("catalog-gateway").chain(line.split_whitespace());
        Args::try_parse_from(args).map_err(|e| e.to_string())
    }

    #[test]
    fn the_command_line_reads_the_gateways_options_and_the_common_ones() {
        Args::command().debug_assert();
        let args = parse(
            "--catalog g.toml --config c.toml --http 127.0.0.1:0 --discoverable search --retry 5 --gated deny",
        )
        .unwrap();
        assert_eq!(args.catalog, PathBuf::from("g.toml"));
        assert_eq!(args.config, Some(PathBuf::from("c.toml")));
        assert_eq!((args.discoverable, args.retry), (Discoverable::Search, 5));
        let options = args.serve.options(true).unwrap();
        assert_eq!(options.gated, catalog_mcp::GatedPolicy::Deny);
        assert!(matches!(
            options.transport,
            Transport::Http { tokens: None, .. }
        ));
        let defaults = parse("--catalog g.toml").unwrap();
        assert_eq!(
            (defaults.discoverable, defaults.retry),
            (Discoverable::Listed, 30)
        );
        for (line, expected) in [
            ("", "the following required arguments were not provided"),
            ("--catalog g.toml --retry 0", "0 is not in 1.."),
            (
                "--catalog g.toml --discoverable all",
                "[possible values: listed, search]",
            ),
            (
                "--catalog g.toml --http 127.0.0.1:0 --profile p",
                "cannot be used with '--profile <P>'",
            ),
        ] {
            let error = parse(line).unwrap_err();
            assert!(error.contains(expected), "{line}: {error}");
        }
    }
}
