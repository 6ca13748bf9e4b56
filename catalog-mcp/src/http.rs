//! Streamable HTTP: the MCP endpoint at `/mcp`, behind a bearer-token check that decides
//! each request's access level, with the transport's rules: `Host` and `Origin` checked
//! against DNS rebinding and cross-origin pages (403), a body that is not JSON answered
//! with a JSON-RPC parse error, the end of an unknown session with 404.

use std::fmt;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, WWW_AUTHENTICATE};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::Response;
use catalog_core::{CompiledCatalog, HandledBy};
use rmcp::ServerHandler;
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::store::SessionStore;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::calls::Tools;
use crate::handler::{CatalogServer, Level};
use crate::tokens::Tokens;

/// The path of the MCP endpoint.
pub const ENDPOINT: &str = "/mcp";

/// The whole HTTP application: every path needs a valid token, `/mcp` is MCP.
///
/// Sessions (`Mcp-Session-Id`) let the server ask the client mid-call; the level is
/// still read from each request's own token, so a session is worth no more than the
/// token that sends on it. The `Host` header must name a loopback host or the address
/// bound (`bound`), which keeps DNS-rebinding pages out; an `Origin` header, when there
/// is one, must be a loopback origin or one of `origins` (see [`Origins`]), else 403.
pub fn router<C, H, const W: usize>(
    tools: Arc<Tools<C, H, W>>,
    tokens: Arc<Tokens>,
    origins: &Origins,
    bound: SocketAddr,
    cancel: &CancellationToken,
) -> Router
where
    C: CompiledCatalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
    let realm = tools.identity().name.clone();
    router_for(
        move || CatalogServer::new(Arc::clone(&tools), Level::PerRequest),
        tokens,
        &realm,
        origins,
        bound,
        cancel,
        None,
    )
}

/// [`router`] for any MCP server: `make` builds the handler of each new session, which
/// reads each request's level as [`Level::PerRequest`] does. `realm` names the server in
/// the token challenges.
///
/// `store`, when given, is where sessions are kept for other instances of the server (the
/// replicas behind one load balancer): a request naming a session this instance does not
/// hold restores it from there, replaying the client's `initialize`, instead of 404.
pub fn router_for<S: ServerHandler>(
    make: impl Fn() -> S + Send + Sync + 'static,
    tokens: Arc<Tokens>,
    realm: &str,
    origins: &Origins,
    bound: SocketAddr,
    cancel: &CancellationToken,
    store: Option<Arc<dyn SessionStore>>,
) -> Router {
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(cancel.child_token())
        .with_allowed_origins(origins.allowed());
    config.session_store.clone_from(&store);
    let ip = bound.ip().to_string();
    if !config.allowed_hosts.contains(&ip) {
        config.allowed_hosts.push(ip);
    }
    let check = Check::new(tokens, realm);
    let sessions = Arc::new(LocalSessionManager::default());
    let rules = Rules {
        sessions: Arc::clone(&sessions),
        store,
        max_body: config.max_request_body_bytes,
    };
    let service = StreamableHttpService::new(move || Ok(make()), sessions, config);
    // The token check is the outer layer: nothing else answers a request without one.
    Router::new()
        .nest_service(ENDPOINT, service)
        .layer(middleware::from_fn_with_state(
            Arc::new(rules),
            transport_rules,
        ))
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
    origins: &Origins,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()>
where
    C: CompiledCatalog<W>,
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
        origins,
        shutdown,
        None,
    )
    .await
}

/// [`serve`] for any MCP server, as [`router_for`] builds it (`store` as it takes it).
///
/// # Errors
/// What the listener reports.
pub async fn serve_for<S: ServerHandler>(
    listener: TcpListener,
    make: impl Fn() -> S + Send + Sync + 'static,
    tokens: Arc<Tokens>,
    realm: &str,
    origins: &Origins,
    shutdown: impl Future<Output = ()> + Send + 'static,
    store: Option<Arc<dyn SessionStore>>,
) -> io::Result<()> {
    let cancel = CancellationToken::new();
    let app = router_for(
        make,
        tokens,
        realm,
        origins,
        listener.local_addr()?,
        &cancel,
        store,
    );
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

/// The browser origins whose pages may call the endpoint: the loopback ones, always, and
/// those given with `--allowed-origin`. A request that carries an `Origin` header naming
/// any other origin is refused with 403 (MCP's transport rule against DNS rebinding and
/// cross-origin pages); a request without one (any client that is not a browser page) is
/// not affected.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Origins {
    extra: Vec<String>,
}

/// The loopback origins, on any port, over `http` and `https`.
const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
    "https://localhost:*",
    "https://127.0.0.1:*",
    "https://[::1]:*",
];

impl Origins {
    /// The loopback origins and `extra`, each `scheme://host:port` (`:*` for any port), as
    /// [`Origins::parse`] accepts them.
    #[must_use]
    pub fn new(extra: Vec<String>) -> Origins {
        Origins { extra }
    }

    /// Checks one origin as `--allowed-origin` takes it: `http` or `https`, a host, and a
    /// port or `*`, nothing after (`https://app.example:443`, `http://tool.internal:*`).
    ///
    /// # Errors
    /// What is wrong, for the command line.
    pub fn parse(origin: &str) -> Result<String, String> {
        let wrong = |why: &str| {
            format!(
                "--allowed-origin {origin}: {why}; give scheme, host and port as a browser \
                 sends them, e.g. https://app.example:443 (or :* for any port)"
            )
        };
        let rest = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .ok_or_else(|| wrong("not an http or https origin"))?;
        let (host, port) = rest
            .rsplit_once(':')
            .filter(|(host, _)| !host.is_empty() && !host.ends_with(':'))
            .ok_or_else(|| wrong("no port"))?;
        if port != "*" && port.parse::<u16>().is_err() {
            return Err(wrong("the port is not a number or *"));
        }
        let fits = host.parse::<axum::http::uri::Authority>().is_ok()
            && !host.contains(['/', '?', '#', '@']);
        if !fits {
            return Err(wrong("the host is not a host name or address"));
        }
        Ok(origin.to_ascii_lowercase())
    }

    /// Every allowed origin, loopback first.
    #[must_use]
    pub fn allowed(&self) -> Vec<String> {
        LOOPBACK_ORIGINS
            .iter()
            .map(|&o| o.to_owned())
            .chain(self.extra.iter().cloned())
            .collect()
    }
}

/// What the transport rules need: the sessions, to tell an unknown one (in this instance
/// or, when there is one, the store the replicas share), and how large a body may be.
struct Rules {
    sessions: Arc<LocalSessionManager>,
    store: Option<Arc<dyn SessionStore>>,
    max_body: usize,
}

/// The transport's rules that the SDK's service does not keep by itself: a POST whose body
/// is not JSON gets a JSON-RPC parse error (`-32700`), and one that is JSON but no
/// JSON-RPC message an invalid-request error (`-32600`), both with 400 and no `id` (as the
/// spec allows when the request cannot be read); a DELETE of a session this server does
/// not have gets 404, as a request on it would.
async fn transport_rules(
    State(rules): State<Arc<Rules>>,
    request: Request,
    next: Next,
) -> Response {
    let json = request
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
        });
    if request.method() == Method::POST && json {
        let (parts, body) = request.into_parts();
        let Ok(bytes) = axum::body::to_bytes(body, rules.max_body).await else {
            let mut response = Response::new(Body::from(format!(
                "Payload Too Large: request body exceeds {} bytes",
                rules.max_body
            )));
            *response.status_mut() = StatusCode::PAYLOAD_TOO_LARGE;
            return response;
        };
        if let Err(error) = serde_json::from_slice::<ClientJsonRpcMessage>(&bytes) {
            return unreadable(&error);
        }
        return next
            .run(Request::from_parts(parts, Body::from(bytes)))
            .await;
    }
    if request.method() == Method::DELETE
        && let Some(id) = request
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
    {
        let here = rules
            .sessions
            .has_session(&Arc::from(id))
            .await
            .unwrap_or(false);
        // Another replica's session is ended here too: the SDK deletes it from the store.
        let known = here
            || match &rules.store {
                Some(store) => matches!(store.load(id).await, Ok(Some(_))),
                None => false,
            };
        if !known {
            let mut response = Response::new(Body::from("Not Found: Session not found"));
            *response.status_mut() = StatusCode::NOT_FOUND;
            return response;
        }
    }
    next.run(request).await
}

/// The JSON-RPC error for a body that cannot be read as a message: a parse error when it
/// is not JSON, an invalid request when it is JSON of another shape.
fn unreadable(error: &serde_json::Error) -> Response {
    use serde_json::error::Category;
    let (code, message) = match error.classify() {
        Category::Data => (-32600, "Invalid Request"),
        Category::Io | Category::Syntax | Category::Eof => (-32700, "Parse error"),
    };
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": code, "message": format!("{message}: {error}")},
    });
    let mut response = Response::new(Body::from(body.to_string()));
    *response.status_mut() = StatusCode::BAD_REQUEST;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
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
/// [`Grant`](crate::tokens::Grant) in its extensions; any other gets 401 with an empty
/// body.
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
    tracing::debug!(client = %grant.client, access = %grant.access, "authorized");
    request.extensions_mut().insert(grant.clone());
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
