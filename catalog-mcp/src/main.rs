//! `catalog-mcp`: the example catalog's MCP server. See `catalog-mcp --help`.

use std::process::ExitCode;
use std::sync::Arc;

use app_backend::Backend;
use catalog_mcp::cli::{self, Command, Options, Transport, USAGE};
use catalog_mcp::{CatalogServer, Level, Tokens, Tools, http};
use rmcp::ServiceExt;
use tracing_subscriber::EnvFilter;

fn main() -> ExitCode {
    let options = match cli::parse(std::env::args().skip(1)) {
        Ok(Command::Serve(options)) => options,
        Ok(Command::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Command::Version) => {
            println!("catalog-mcp {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("catalog-mcp: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    // Tokens are read before anything starts, so a bad file is an argument error.
    let tokens = match &options.transport {
        Transport::Http { tokens, .. } => match Tokens::read(tokens) {
            Ok(tokens) => Some(Arc::new(tokens)),
            Err(error) => {
                eprintln!("catalog-mcp: {error}");
                return ExitCode::from(2);
            }
        },
        Transport::Stdio { .. } => None,
    };
    // stdout is the stdio transport: every log line goes to stderr.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| EnvFilter::new("catalog_mcp=info,rmcp=error")),
        )
        .init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("catalog-mcp: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(options, tokens)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("catalog-mcp: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run(options: Options, tokens: Option<Arc<Tokens>>) -> Result<(), String> {
    let gated = options.gated;
    let tools = Arc::new(Tools::new(Backend::new(), gated));
    match (options.transport, tokens) {
        (Transport::Stdio { access }, _) => {
            eprintln!("catalog-mcp: serving MCP over stdio at {access} (gated tools: {gated})");
            let service = CatalogServer::new(tools, Level::Fixed(access))
                .serve(rmcp::transport::stdio())
                .await
                .map_err(|e| format!("the MCP session did not start: {e}"))?;
            service
                .waiting()
                .await
                .map_err(|e| format!("the MCP session ended with an error: {e}"))?;
            Ok(())
        }
        (Transport::Http { address, .. }, Some(tokens)) => {
            let listener = tokio::net::TcpListener::bind(address)
                .await
                .map_err(|e| format!("cannot listen on {address}: {e}"))?;
            let bound = listener
                .local_addr()
                .map_err(|e| format!("cannot read the bound address: {e}"))?;
            eprintln!(
                "catalog-mcp: serving MCP over streamable HTTP at http://{bound}{} ({} tokens, gated tools: {gated})",
                http::ENDPOINT,
                tokens.len()
            );
            http::serve(listener, tools, tokens, shutdown_signal())
                .await
                .map_err(|e| format!("the HTTP server stopped: {e}"))
        }
        (Transport::Http { .. }, None) => Err(String::from("no tokens were read")),
    }
}

/// Ctrl-C, or SIGTERM where there is one.
async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
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
