//! Streamable HTTP: the MCP endpoint at `/mcp`, behind a bearer-token check that decides
//! each request's access level.

use std::fmt;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, WWW_AUTHENTICATE};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::Response;
use catalog_core::{Catalog, HandledBy};
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::calls::Tools;
use crate::handler::{CatalogServer, Granted, Level};
use crate::tokens::Tokens;

/// The path of the MCP endpoint.
pub const ENDPOINT: &str = "/mcp";

/// The whole HTTP application: every path needs a valid token, `/mcp` is MCP.
///
/// Sessions (`Mcp-Session-Id`) let the server ask the client mid-call; the level is
/// still read from each request's own token, so a session is worth no more than the
/// token that sends on it. The `Host` header must name a loopback host or the address
/// bound (`bound`), which keeps DNS-rebinding pages out.
pub fn router<C, H, const W: usize>(
    tools: Arc<Tools<C, H, W>>,
    tokens: Arc<Tokens>,
    bound: SocketAddr,
    cancel: &CancellationToken,
) -> Router
where
    C: Catalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
    let realm = tools.identity().name.clone();
    router_for(
        move || CatalogServer::new(Arc::clone(&tools), Level::PerRequest),
        tokens,
        &realm,
        bound,
        cancel,
    )
}

/// [`router`] for any MCP server: `make` builds the handler of each new session, which
/// reads each request's level as [`Level::PerRequest`] does. `realm` names the server in
/// the token challenges.
pub fn router_for<S: ServerHandler>(
    make: impl Fn() -> S + Send + Sync + 'static,
    tokens: Arc<Tokens>,
    realm: &str,
    bound: SocketAddr,
    cancel: &CancellationToken,
) -> Router {
    let mut config =
        StreamableHttpServerConfig::default().with_cancellation_token(cancel.child_token());
    let ip = bound.ip().to_string();
    if !config.allowed_hosts.contains(&ip) {
        config.allowed_hosts.push(ip);
    }
    let check = Check::new(tokens, realm);
    let service = StreamableHttpService::new(
        move || Ok(make()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    Router::new()
        .nest_service(ENDPOINT, service)
        .layer(middleware::from_fn_with_state(Arc::new(check), authorize))
}

/// Serves the application on `listener` until `shutdown` completes, then closes every
/// session.
///
/// # Errors
/// What the listener reports.
pub async fn serve<C, H, const W: usize>(
    listener: TcpListener,
    tools: Arc<Tools<C, H, W>>,
    tokens: Arc<Tokens>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()>
where
    C: Catalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
    let realm = tools.identity().name.clone();
    serve_for(
        listener,
        move || CatalogServer::new(Arc::clone(&tools), Level::PerRequest),
        tokens,
        &realm,
        shutdown,
    )
    .await
}

/// [`serve`] for any MCP server, as [`router_for`] builds it.
///
/// # Errors
/// What the listener reports.
pub async fn serve_for<S: ServerHandler>(
    listener: TcpListener,
    make: impl Fn() -> S + Send + Sync + 'static,
    tokens: Arc<Tokens>,
    realm: &str,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let cancel = CancellationToken::new();
    let app = router_for(make, tokens, realm, listener.local_addr()?, &cancel);
    let closing = cancel.clone();
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            closing.cancel();
        })
        .await
}

/// Binds `address`, and the address bound (its port when `address` asked for port 0).
///
/// # Errors
/// What failed, with the address, as a message for the command line.
pub async fn bind(address: SocketAddr) -> Result<(TcpListener, SocketAddr), String> {
    let listener = TcpListener::bind(address)
        .await
        .map_err(|e| format!("cannot listen on {address}: {e}"))?;
    let bound = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    Ok((listener, bound))
}

/// The tokens, and the two challenges a refused request gets (RFC 6750), built once.
struct Check {
    tokens: Arc<Tokens>,
    /// For a request with no bearer token.
    missing: HeaderValue,
    /// For a bearer token that is not one of the file's.
    invalid: HeaderValue,
}

impl Check {
    /// The challenges name the server as `realm`, kept to the characters a quoted header
    /// parameter can hold as they are.
    fn new(tokens: Arc<Tokens>, realm: &str) -> Check {
        let realm: String = realm
            .chars()
            .filter(|&c| c == ' ' || (c.is_ascii_graphic() && c != '"' && c != '\\'))
            .collect();
        let challenge = |extra: &str| {
            HeaderValue::from_str(&format!(r#"Bearer realm="{realm}"{extra}"#))
                .unwrap_or_else(|_| HeaderValue::from_static("Bearer"))
        };
        Check {
            tokens,
            missing: challenge(""),
            invalid: challenge(r#", error="invalid_token""#),
        }
    }
}

/// The token check: a request with a valid `Authorization: Bearer` token goes on with its
/// level in its extensions; any other gets 401 with an empty body.
async fn authorize(State(check): State<Arc<Check>>, mut request: Request, next: Next) -> Response {
    let presented = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(bearer);
    let Some(presented) = presented else {
        return unauthorized(check.missing.clone());
    };
    let Some(grant) = check.tokens.check(presented) else {
        tracing::info!("refused a request with an unknown bearer token");
        return unauthorized(check.invalid.clone());
    };
    tracing::debug!(token = grant.name, access = %grant.access, "authorized");
    request.extensions_mut().insert(Granted(grant.access));
    next.run(request).await
}

/// The token of an `Authorization` header's `Bearer` credentials (the scheme is
/// case-insensitive, RFC 7235).
fn bearer(header: &str) -> Option<&str> {
    let (scheme, token) = header.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

fn unauthorized(challenge: HeaderValue) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::UNAUTHORIZED;
    response.headers_mut().insert(WWW_AUTHENTICATE, challenge);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_credentials_are_read_by_scheme() {
        assert_eq!(bearer("Bearer abc"), Some("abc"));
        assert_eq!(bearer("bearer  abc "), Some("abc"));
        assert_eq!(bearer("Basic abc"), None);
        assert_eq!(bearer("Bearer "), None);
        assert_eq!(bearer("Bearer"), None);
    }

    #[test]
    fn the_realm_is_the_server_name_and_never_breaks_the_header() {
        let tokens = Arc::new(
            Tokens::parse(
                "t",
                "[[token]]\nvalue = \"0123456789abcdef\"\naccess = \"read-only\"",
            )
            .unwrap(),
        );
        let check = Check::new(Arc::clone(&tokens), "app-mcp");
        assert_eq!(check.missing, r#"Bearer realm="app-mcp""#);
        assert_eq!(
            check.invalid,
            r#"Bearer realm="app-mcp", error="invalid_token""#
        );
        let odd = Check::new(tokens, "my \"odd\"\\ server\u{e9}\n");
        assert_eq!(odd.missing, r#"Bearer realm="my odd server""#);
    }
}
