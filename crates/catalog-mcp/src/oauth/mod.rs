//! OAuth 2.1 for the streamable HTTP endpoint (feature `oauth`): the server as a resource
//! server, as the MCP authorization specification (revision 2025-11-25) asks.
//!
//! - It publishes its protected-resource metadata (RFC 9728) at
//!   `/.well-known/oauth-protected-resource` and the same with the resource's path
//!   appended, and names that document in every 401's `WWW-Authenticate: Bearer`
//!   challenge (`resource_metadata="..."`).
//! - A JWT access token is checked against the authorization server's keys
//!   ([`jwks`]): signature (asymmetric algorithms only), issuer, audience (the server's
//!   resource URI, RFC 8707: a token meant for another server is refused), expiry and
//!   not-before with [`LEEWAY`]. A token naming an unknown key makes the server fetch the
//!   keys again, at most once per [`jwks::REFETCH_INTERVAL`].
//! - Any other token is asked about at the introspection endpoint (RFC 7662,
//!   [`introspect`]) with the server's own client credentials, when one is configured.
//! - The keys' and the endpoint's URLs come from the configuration or from the
//!   authorization server's metadata (RFC 8414, then OIDC discovery;
//!   [`metadata`]).
//! - The token's scopes decide its level and profile ([`scopes`]); a token lacking a scope
//!   gets 403 with `error="insufficient_scope"` and the `scope` it needs.
//!
//! The result is a [`Grant`] like a static token's, whose client is the token's `sub` (or
//! its `client_id` when it has no subject).

pub mod introspect;
pub mod jwks;
pub mod metadata;
pub mod scopes;

use std::sync::Arc;
use std::time::{Duration, Instant};

use jsonwebtoken::{Validation, decode, decode_header};
use serde::Deserialize;
use tokio::sync::Mutex;

use crate::tokens::Grant;
pub use crate::tokens::Refusal;
pub use introspect::Endpoint;
pub use scopes::{ScopeRule, Scopes};

/// How far a token's `exp` and `nbf` may be off this server's clock.
pub const LEEWAY: Duration = Duration::from_secs(30);

/// What the server needs to know of its authorization server and itself.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The authorization server's issuer identifier: tokens must name it in `iss`.
    pub issuer: String,
    /// This server's resource URI (its `/mcp` URL as clients reach it): tokens must name it
    /// in `aud`.
    pub resource: String,
    /// Where the authorization server's keys are; `None` to read it from its metadata.
    pub jwks_uri: Option<String>,
    /// The introspection endpoint for opaque tokens, if they are accepted.
    pub introspection: Option<Endpoint>,
    /// What scopes grant.
    pub scopes: Scopes,
}

/// Checks access tokens and says what they grant.
pub struct Verifier {
    settings: Settings,
    http: reqwest::Client,
    /// The authorization server's metadata, once read (only when the settings lack a URL).
    discovered: Mutex<Discovery>,
    keys: jwks::Keys,
    introspected: introspect::Cache,
}

#[derive(Default)]
struct Discovery {
    metadata: Option<metadata::ServerMetadata>,
    /// When the last failed try was, so a down server is not asked on every request.
    failed: Option<Instant>,
}

/// The claims of a JWT access token this server reads (RFC 9068).
#[derive(Deserialize)]
struct Claims {
    sub: Option<String>,
    client_id: Option<String>,
    /// Space-separated (RFC 9068); some servers write a list, or `scp`, instead.
    scope: Option<ScopeClaim>,
    scp: Option<ScopeClaim>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ScopeClaim {
    Spaced(String),
    Listed(Vec<String>),
}

impl ScopeClaim {
    fn into_scopes(self) -> Vec<String> {
        match self {
            ScopeClaim::Spaced(s) => s.split_whitespace().map(String::from).collect(),
            ScopeClaim::Listed(all) => all,
        }
    }
}

impl Verifier {
    /// A verifier for `settings`. Nothing is fetched until the first token arrives.
    ///
    /// # Errors
    /// The HTTP client cannot be built (no TLS roots on this system).
    pub fn new(settings: Settings) -> Result<Verifier, String> {
        // One process-wide TLS provider; another part of the program may have set it.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .user_agent(concat!("catalog-mcp/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("cannot build the HTTP client for OAuth: {e}"))?;
        Ok(Verifier {
            settings,
            http,
            discovered: Mutex::default(),
            keys: jwks::Keys::default(),
            introspected: introspect::Cache::default(),
        })
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// This server's protected-resource metadata (RFC 9728), naming it `name`.
    #[must_use]
    pub fn metadata(&self, name: &str) -> serde_json::Value {
        metadata::protected_resource(
            &self.settings.resource,
            &self.settings.issuer,
            &self.settings.scopes.supported(),
            name,
        )
    }

    /// What `token` grants.
    ///
    /// # Errors
    /// [`Refusal`].
    pub async fn verify(&self, token: &str) -> Result<Grant, Refusal> {
        if let Ok(header) = decode_header(token) {
            return self.verify_jwt(token, &header).await;
        }
        if let Some(endpoint) = &self.settings.introspection {
            return self.verify_opaque(token, endpoint).await;
        }
        Err(Refusal::Invalid(String::from(
            "the token is not a JWT, and this server introspects no tokens",
        )))
    }

    async fn verify_jwt(
        &self,
        token: &str,
        header: &jsonwebtoken::Header,
    ) -> Result<Grant, Refusal> {
        let invalid = |why: String| Refusal::Invalid(why);
        if !jwks::asymmetric(header.alg) {
            return Err(invalid(format!(
                "the token is signed with {:?}; only asymmetric algorithms are accepted",
                header.alg
            )));
        }
        let uri = match &self.settings.jwks_uri {
            Some(uri) => uri.clone(),
            None => self.server_metadata().await?.jwks_uri.ok_or_else(|| {
                Refusal::Unavailable(String::from(
                    "the authorization server's metadata names no jwks_uri; set `jwks-uri` in [oauth]",
                ))
            })?,
        };
        let key = match self.keys.get(&self.http, &uri, header.kid.as_deref()).await {
            Ok(key) => key,
            Err(jwks::Missing::Unknown) => {
                return Err(invalid(format!(
                    "the token's key {:?} is not among the authorization server's keys",
                    header.kid.as_deref().unwrap_or("(none named)")
                )));
            }
            Err(jwks::Missing::Unreachable(why)) => return Err(Refusal::Unavailable(why)),
        };
        if key.alg.is_some_and(|alg| alg != header.alg) {
            return Err(invalid(format!(
                "the token's algorithm {:?} is not its key's",
                header.alg
            )));
        }
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&self.settings.issuer]);
        validation.set_audience(&[&self.settings.resource]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        validation.validate_nbf = true;
        validation.leeway = LEEWAY.as_secs();
        let claims = decode::<Claims>(token, &key.key, &validation)
            .map_err(|e| invalid(self.jwt_error(e.kind())))?
            .claims;
        let scopes: Vec<String> = [claims.scope, claims.scp]
            .into_iter()
            .flatten()
            .flat_map(ScopeClaim::into_scopes)
            .collect();
        self.grant(claims.sub.or(claims.client_id), &scopes)
    }

    fn jwt_error(&self, kind: &jsonwebtoken::errors::ErrorKind) -> String {
        use jsonwebtoken::errors::ErrorKind as K;
        match kind {
            K::ExpiredSignature => String::from("the token has expired"),
            K::ImmatureSignature => String::from("the token is not valid yet (nbf)"),
            K::InvalidAudience => format!(
                "the token is not meant for this server: its audience is not {}",
                self.settings.resource
            ),
            K::InvalidIssuer => format!("the token was not issued by {}", self.settings.issuer),
            K::InvalidSignature => String::from("the token's signature does not verify"),
            K::MissingRequiredClaim(claim) => format!("the token has no `{claim}` claim"),
            other => format!("the token cannot be read: {other:?}"),
        }
    }

    async fn verify_opaque(&self, token: &str, endpoint: &Endpoint) -> Result<Grant, Refusal> {
        let url = match &endpoint.url {
            Some(url) => url.clone(),
            None => self
                .server_metadata()
                .await?
                .introspection_endpoint
                .ok_or_else(|| {
                    Refusal::Unavailable(String::from(
                        "the authorization server's metadata names no introspection_endpoint; set `introspection-endpoint` in [oauth]",
                    ))
                })?,
        };
        let answer = self
            .introspected
            .introspect(&self.http, &url, endpoint, token)
            .await
            .map_err(Refusal::Unavailable)?;
        if !answer.active {
            return Err(Refusal::Invalid(String::from(
                "the authorization server says the token is not active",
            )));
        }
        let now = introspect::unix_now();
        if answer.exp.is_some_and(|exp| exp + LEEWAY.as_secs() <= now) {
            return Err(Refusal::Invalid(String::from("the token has expired")));
        }
        if let Some(iss) = &answer.iss
            && !metadata::same_issuer(iss, &self.settings.issuer)
        {
            return Err(Refusal::Invalid(format!(
                "the token was not issued by {}",
                self.settings.issuer
            )));
        }
        if let Some(aud) = &answer.aud
            && !aud.contains(&self.settings.resource)
        {
            return Err(Refusal::Invalid(format!(
                "the token is not meant for this server: its audience is not {}",
                self.settings.resource
            )));
        }
        let scopes: Vec<String> = answer
            .scope
            .as_deref()
            .unwrap_or_default()
            .split_whitespace()
            .map(String::from)
            .collect();
        self.grant(answer.sub.or(answer.client_id), &scopes)
    }

    /// The grant of a valid token of `client` with `scopes`.
    fn grant(&self, client: Option<String>, scopes: &[String]) -> Result<Grant, Refusal> {
        let client = client.filter(|c| !c.is_empty()).ok_or_else(|| {
            Refusal::Invalid(String::from(
                "the token names no client (no `sub`, no `client_id`)",
            ))
        })?;
        let carried: Vec<&str> = scopes.iter().map(String::as_str).collect();
        match self.settings.scopes.grant(&carried) {
            scopes::Granted::Level(access, profile) => Ok(Grant {
                access,
                client: Arc::from(client),
                profile,
            }),
            scopes::Granted::Insufficient { needed, why } => Err(Refusal::Scope { needed, why }),
        }
    }

    /// The authorization server's metadata, read once; after a failure, not asked again for
    /// [`jwks::REFETCH_INTERVAL`].
    async fn server_metadata(&self) -> Result<metadata::ServerMetadata, Refusal> {
        let mut discovery = self.discovered.lock().await;
        if let Some(metadata) = &discovery.metadata {
            return Ok(metadata.clone());
        }
        if discovery
            .failed
            .is_some_and(|at| at.elapsed() < jwks::REFETCH_INTERVAL)
        {
            return Err(Refusal::Unavailable(String::from(
                "the authorization server's metadata could not be read a moment ago",
            )));
        }
        match metadata::discover(&self.http, &self.settings.issuer).await {
            Ok(metadata) => {
                discovery.metadata = Some(metadata.clone());
                Ok(metadata)
            }
            Err(why) => {
                discovery.failed = Some(Instant::now());
                tracing::warn!("{why}");
                Err(Refusal::Unavailable(why))
            }
        }
    }
}
