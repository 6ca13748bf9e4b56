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

use crate::auth::{Auth, Refusal};
use crate::backend::Level;
use crate::calls::Tools;
use crate::served::CatalogServer;

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
    auth: impl Into<Auth>,
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
        auth,
        &realm,
        origins,
        bound,
        cancel,
        None,
    )
}

/// [`router`] for any MCP server: `make` builds the handler of each new session, which
/// reads each request's level as [`Level::PerRequest`] does. `realm` names the server in
/// the token challenges. With OAuth, the protected-resource metadata is served, without a
/// token, at its well-known paths.
///
/// `store`, when given, is where sessions are kept for other instances of the server (the
/// replicas behind one load balancer): a request naming a session this instance does not
/// hold restores it from there, replaying the client's `initialize`, instead of 404.
pub fn router_for<S: ServerHandler>(
    make: impl Fn() -> S + Send + Sync + 'static,
    auth: impl Into<Auth>,
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
    let auth = auth.into();
    let published = published(&auth, realm);
    let check = Check::new(auth, realm);
    let sessions = Arc::new(LocalSessionManager::default());
    let rules = Rules {
        sessions: Arc::clone(&sessions),
        store,
        max_body: config.max_request_body_bytes,
    };
    let service = StreamableHttpService::new(move || Ok(make()), sessions, config);
    // The token check is the outer layer: nothing else answers a request without one.
    let app = Router::new()
        .nest_service(ENDPOINT, service)
        .layer(middleware::from_fn_with_state(
            Arc::new(rules),
            transport_rules,
        ))
        .layer(middleware::from_fn_with_state(Arc::new(check), authorize));
    // Added after the token check's layer, so they are outside it.
    published.into_iter().fold(app, |app, (path, document)| {
        let document = document.to_string();
        app.route(
            &path,
            axum::routing::get(move || {
                let mut response = Response::new(Body::from(document.clone()));
                response
                    .headers_mut()
                    .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
                async move { response }
            }),
        )
    })
}

/// The documents served without a token, by path: the protected-resource metadata
/// (RFC 9728) at its well-known path, with the resource's path appended and without.
#[cfg_attr(not(feature = "oauth"), allow(unused_variables))]
fn published(auth: &Auth, realm: &str) -> Vec<(String, serde_json::Value)> {
    #[cfg(feature = "oauth")]
    if let Some(verifier) = auth.verifier() {
        use crate::oauth::metadata::{WELL_KNOWN, path_of};
        let document = verifier.metadata(realm);
        let resource = &verifier.settings().resource;
        let mut paths = vec![WELL_KNOWN.to_owned(), format!("{WELL_KNOWN}{ENDPOINT}")];
        let own = path_of(resource).trim_end_matches('/');
        if !own.is_empty() && !paths.contains(&format!("{WELL_KNOWN}{own}")) {
            paths.push(format!("{WELL_KNOWN}{own}"));
        }
        return paths.into_iter().map(|p| (p, document.clone())).collect();
    }
    Vec::new()
}

/// Serves the application on `listener` until `shutdown` completes, then closes every
/// session.
///
/// # Errors
/// What the listener reports.
pub async fn serve<C, H, const W: usize>(
    listener: TcpListener,
    tools: Arc<Tools<C, H, W>>,
    auth: impl Into<Auth>,
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
        auth,
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
    auth: impl Into<Auth>,
    realm: &str,
    origins: &Origins,
    shutdown: impl Future<Output = ()> + Send + 'static,
    store: Option<Arc<dyn SessionStore>>,
) -> io::Result<()> {
    let cancel = CancellationToken::new();
    let app = router_for(
        make,
        auth,
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
/// not have gets 404, as a request on it would, and one it ends 200, not the SDK's 202,
/// which the official SDK clients log as a failed termination.
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
        let mut response = next.run(request).await;
        if response.status() == StatusCode::ACCEPTED {
            *response.status_mut() = StatusCode::OK;
        }
        return response;
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

/// How requests are authenticated, and the challenges a refused request gets (RFC 6750),
/// their fixed part built once.
struct Check {
    auth: Auth,
    /// `Bearer realm="..."`, and `resource_metadata="..."` with OAuth (RFC 9728 §5.1).
    base: String,
    /// For a request with no bearer token.
    missing: HeaderValue,
    /// For a bearer token that is not one of the file's.
    invalid: HeaderValue,
}

impl Check {
    /// The challenges name the server as `realm`, kept to the characters a quoted header
    /// parameter can hold as they are.
    fn new(auth: Auth, realm: &str) -> Check {
        #[cfg_attr(not(feature = "oauth"), allow(unused_mut))]
        let mut base = format!(r#"Bearer realm="{}""#, quotable(realm));
        #[cfg(feature = "oauth")]
        if let Some(verifier) = auth.verifier() {
            let url = crate::oauth::metadata::metadata_url(&verifier.settings().resource);
            // Writing to a String cannot fail.
            let _ = std::fmt::Write::write_fmt(
                &mut base,
                format_args!(r#", resource_metadata="{}""#, quotable(&url)),
            );
        }
        let missing = challenge(&base);
        let invalid = challenge(&format!(r#"{base}, error="invalid_token""#));
        Check {
            auth,
            base,
            missing,
            invalid,
        }
    }
}

/// `text` with only the characters a quoted header parameter holds as they are.
fn quotable(text: &str) -> String {
    text.chars()
        .filter(|&c| c == ' ' || (c.is_ascii_graphic() && c != '"' && c != '\\'))
        .collect()
}

fn challenge(text: &str) -> HeaderValue {
    HeaderValue::from_str(text).unwrap_or_else(|_| HeaderValue::from_static("Bearer"))
}

/// The token check: a request with a valid `Authorization: Bearer` token goes on with its
/// [`Grant`](crate::tokens::Grant) in its extensions; a request without one, or with one
/// that is invalid, gets 401, one whose token lacks a scope 403 (`insufficient_scope`), one
/// that cannot be checked because the authorization server cannot be reached 503; all with
/// an empty body.
async fn authorize(State(check): State<Arc<Check>>, mut request: Request, next: Next) -> Response {
    let presented = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(bearer);
    let Some(presented) = presented else {
        return refused(StatusCode::UNAUTHORIZED, check.missing.clone());
    };
    let grant = match check.auth.authenticate(presented).await {
        Ok(grant) => grant,
        Err(Refusal::Invalid(why)) => {
            tracing::info!("refused a request with an invalid bearer token: {why}");
            return refused(StatusCode::UNAUTHORIZED, check.invalid.clone());
        }
        Err(Refusal::Scope { needed, why }) => {
            tracing::info!("refused a request whose token lacks a scope: {why}");
            let header = challenge(&format!(
                r#"{}, error="insufficient_scope", scope="{}", error_description="{}""#,
                check.base,
                quotable(&needed),
                quotable(&why)
            ));
            return refused(StatusCode::FORBIDDEN, header);
        }
        Err(Refusal::Unavailable(why)) => {
            tracing::warn!("cannot check a bearer token: {why}");
            let mut response = Response::new(Body::empty());
            *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                HeaderValue::from_static("10"),
            );
            return response;
        }
    };
    tracing::debug!(client = %grant.client, access = %grant.access, "authorized");
    request.extensions_mut().insert(grant);
    next.run(request).await
}

/// The token of an `Authorization` header's `Bearer` credentials (the scheme is
/// case-insensitive, RFC 7235).
fn bearer(header: &str) -> Option<&str> {
    let (scheme, token) = header.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

fn refused(status: StatusCode, challenge: HeaderValue) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = status;
    response.headers_mut().insert(WWW_AUTHENTICATE, challenge);
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::Tokens;

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
        let check = Check::new(Auth::tokens(Arc::clone(&tokens)), "app-mcp");
        assert_eq!(check.missing, r#"Bearer realm="app-mcp""#);
        assert_eq!(
            check.invalid,
            r#"Bearer realm="app-mcp", error="invalid_token""#
        );
        let odd = Check::new(Auth::tokens(tokens), "my \"odd\"\\ server\u{e9}\n");
        assert_eq!(odd.missing, r#"Bearer realm="my odd server""#);
    }
}
