//! Access tokens for an upstream behind an OAuth 2.1 authorization server (the
//! `[[upstream]]`'s `oauth`): the gateway is a client registered there in advance and uses
//! the client credentials grant, which needs no user at a browser.
//!
//! Tokens are asked for reactively, as the MCP authorization specification describes:
//! requests go out with the token held (none at first); a 401 names the server's
//! protected resource metadata, which names the authorization server, whose metadata
//! names the token endpoint (the SDK's `AuthorizationManager` does that discovery); a
//! token is requested there and the request sent again, once. A 403 that asks for more
//! scope gets a token with those scopes added. A token about to expire is replaced before
//! it is sent, since this grant has no refresh token: the SDK's `AuthClient` would only
//! refresh, so its session would end when its first token expires.
//!
//! A shared secret goes to the SDK's exchange (HTTP Basic or the body, as the server
//! advertises); a private key signs an assertion here (`assertion`), as the SDK signs one
//! only with a C crypto library this workspace does not build. The secret and the key are
//! read (`from-env`, `from-file`) each time a token is requested, so a rotated one is
//! picked up.

mod assertion;

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use catalog_check::model::{ClientCredential, OAuth};
use futures::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::auth::{
    AuthError, AuthorizationManager, AuthorizationMetadata, ClientCredentialsConfig,
    WWWAuthenticateParams,
};
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use serde_json::Value;

use crate::supplied;

/// How long before its expiry a token is replaced rather than sent.
const EARLY: Duration = Duration::from_secs(30);

/// The access tokens of one upstream: the one held, and how to get another.
pub(crate) struct Tokens {
    upstream: String,
    url: String,
    oauth: OAuth,
    held: tokio::sync::Mutex<Held>,
    /// Why the last request for a token failed, for the message of a session that could
    /// not open: the transport's own error only says that authorization was required.
    failure: Mutex<Option<String>>,
}

#[derive(Default)]
struct Held {
    token: Option<Token>,
    /// The authorization server, once a challenge led to it.
    metadata: Option<AuthorizationMetadata>,
    /// Scopes the upstream asked for beyond the configured ones (a 403's challenge).
    more: Vec<String>,
}

struct Token {
    access: String,
    /// When to stop sending it; never, when the server said nothing of its lifetime.
    replace_at: Option<Instant>,
}

impl Tokens {
    pub(crate) fn new(upstream: &str, url: &str, oauth: OAuth) -> Arc<Tokens> {
        Arc::new(Tokens {
            upstream: upstream.to_owned(),
            url: url.to_owned(),
            oauth,
            held: tokio::sync::Mutex::default(),
            failure: Mutex::new(None),
        })
    }

    /// Why the last request for a token failed, if it did.
    pub(crate) fn failure(&self) -> Option<String> {
        self.failure
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The token to send: the one held, replaced first when it is about to expire; none
    /// before the upstream first asked for one.
    async fn current(&self) -> Option<String> {
        let mut held = self.held.lock().await;
        let token = held.token.as_ref()?;
        if token.replace_at.is_none_or(|at| Instant::now() < at) {
            return Some(token.access.clone());
        }
        // Expired: a new one from the authorization server already found. When that
        // fails, the request goes without, and its 401 starts over from discovery.
        held.token = None;
        let metadata = held.metadata.clone()?;
        let scopes = self.scopes(None, &held.more);
        self.issue(&mut held, metadata, scopes).await.ok()
    }

    /// A new token after the upstream refused `sent` with `challenge` (its
    /// `WWW-Authenticate`); `more` is the scope a 403 asked for.
    async fn renew(
        &self,
        challenge: &str,
        sent: Option<&str>,
        more: Option<&str>,
    ) -> Result<String, String> {
        let mut held = self.held.lock().await;
        // Another request met the same refusal and renewed the token meanwhile.
        if let Some(token) = &held.token
            && Some(token.access.as_str()) != sent
        {
            return Ok(token.access.clone());
        }
        held.token = None;
        if let Some(more) = more {
            for scope in more.split_whitespace() {
                if !held.more.iter().any(|s| s == scope) {
                    held.more.push(scope.to_owned());
                }
            }
        }
        let result = async {
            let metadata = self.discover(challenge).await?;
            held.metadata = Some(metadata.clone());
            let scopes = self.scopes(Some(challenge), &held.more);
            self.issue(&mut held, metadata, scopes).await
        }
        .await;
        *self.failure.lock().unwrap_or_else(PoisonError::into_inner) =
            result.as_ref().err().cloned();
        result
    }

    /// The scopes to ask for: the configured ones, else those the challenge names; with
    /// those a 403 asked for added.
    fn scopes(&self, challenge: Option<&str>, more: &[String]) -> Vec<String> {
        let named = match (&self.oauth.scope, challenge) {
            (Some(scope), _) => Some(scope.clone()),
            (None, Some(challenge)) => url::Url::parse(&self.url)
                .ok()
                .and_then(|base| WWWAuthenticateParams::parse(challenge, &base).scope),
            (None, None) => None,
        };
        let mut scopes: Vec<String> = named
            .iter()
            .flat_map(|s| s.split_whitespace())
            .map(str::to_owned)
            .collect();
        for scope in more {
            if !scopes.contains(scope) {
                scopes.push(scope.clone());
            }
        }
        scopes
    }

    /// The authorization server's metadata, found from the upstream's challenge.
    async fn discover(&self, challenge: &str) -> Result<AuthorizationMetadata, String> {
        let name = &self.upstream;
        let not_found = |e: &dyn std::fmt::Display| {
            format!(
                "upstream `{name}` wants an OAuth access token, but its authorization server cannot be found ({e}): check its `url`, and that the server publishes its protected resource metadata"
            )
        };
        // The gateway's upstreams are the operator's choice, private addresses included.
        let manager = AuthorizationManager::new_allowing_private_addresses(self.url.as_str())
            .await
            .map_err(|e| not_found(&e))?;
        let found = manager
            .resolve_metadata_from_challenge(Some(challenge))
            .await
            .map_err(|e| not_found(&e))?;
        if !found.source.is_discovered() {
            return Err(not_found(&"it publishes no OAuth metadata"));
        }
        Ok(found.metadata)
    }

    /// A token from the token endpoint of `metadata`, held from now on.
    async fn issue(
        &self,
        held: &mut Held,
        metadata: AuthorizationMetadata,
        scopes: Vec<String>,
    ) -> Result<String, String> {
        let name = &self.upstream;
        let (key, credential) = match &self.oauth.credential {
            ClientCredential::Secret(s) => ("client-secret", s),
            ClientCredential::PrivateKey(s) => ("private-key", s),
        };
        let read = supplied::read(name, "oauth", &[(key.to_owned(), credential.clone())])?;
        let Some(Some(credential)) = read.into_iter().next().map(|(_, v)| v.into_string().ok())
        else {
            return Err(format!(
                "upstream `{name}`: the `oauth.{key}` read is not UTF-8 text"
            ));
        };
        let refused = |e: &dyn std::fmt::Display| {
            format!(
                "upstream `{name}`: the authorization server refused a token to client `{}` ({e}): check `oauth.client-id` and `oauth.{key}` of its [[upstream]], and that the client may use the client credentials grant there",
                self.oauth.client_id
            )
        };
        let issued = match &self.oauth.credential {
            ClientCredential::Secret(_) => {
                let mut manager =
                    AuthorizationManager::new_allowing_private_addresses(self.url.as_str())
                        .await
                        .map_err(|e| refused(&e))?;
                manager.set_metadata(metadata);
                let config = ClientCredentialsConfig::ClientSecret {
                    client_id: self.oauth.client_id.clone(),
                    client_secret: credential,
                    scopes,
                    resource: Some(self.url.clone()),
                };
                manager
                    .validate_client_credentials_metadata(&config)
                    .and_then(|()| manager.configure_client_credentials(&config))
                    .map_err(|e| refused(&e))?;
                let token = manager
                    .exchange_client_credentials(&config)
                    .await
                    .map_err(|e: AuthError| refused(&e))?;
                serde_json::to_value(token).map_err(|e| refused(&e))?
            }
            ClientCredential::PrivateKey(_) => assertion::exchange(
                &metadata,
                &self.oauth.client_id,
                &credential,
                &scopes,
                &self.url,
            )
            .await
            .map_err(|e| refused(&e))?,
        };
        let Some(access) = issued["access_token"].as_str().map(str::to_owned) else {
            return Err(refused(&"its answer has no `access_token`"));
        };
        let replace_at = issued["expires_in"].as_u64().map(|lifetime| {
            // A short-lived token is still sent for the first half of its life.
            let lifetime = Duration::from_secs(lifetime);
            Instant::now() + lifetime.saturating_sub(EARLY.min(lifetime / 2))
        });
        held.token = Some(Token {
            access: access.clone(),
            replace_at,
        });
        Ok(access)
    }
}

/// An HTTP client of the SDK's transport that sends the upstream's access token and gets
/// another when the upstream refuses it (once per request).
#[derive(Clone)]
pub(crate) struct Authorized<C> {
    pub(crate) inner: C,
    pub(crate) tokens: Arc<Tokens>,
}

impl<C: StreamableHttpClient + Sync> Authorized<C> {
    async fn send<T, F, Fut>(&self, call: F) -> Result<T, StreamableHttpError<C::Error>>
    where
        F: Fn(Option<String>) -> Fut,
        Fut: Future<Output = Result<T, StreamableHttpError<C::Error>>>,
    {
        let sent = self.tokens.current().await;
        let (challenge, more) = match call(sent.clone()).await {
            Err(StreamableHttpError::AuthRequired(refused)) => {
                (refused.www_authenticate_header, None)
            }
            Err(StreamableHttpError::InsufficientScope(refused)) => {
                let more = refused.required_scope.clone();
                (refused.www_authenticate_header, more)
            }
            answered => return answered,
        };
        let fresh = self
            .tokens
            .renew(&challenge, sent.as_deref(), more.as_deref())
            .await
            .map_err(|why| StreamableHttpError::Auth(AuthError::AuthorizationFailed(why)))?;
        call(Some(fresh)).await
    }
}

type Headers = HashMap<HeaderName, HeaderValue>;
type Events = BoxStream<'static, Result<sse_stream::Sse, sse_stream::Error>>;

impl<C: StreamableHttpClient + Sync> StreamableHttpClient for Authorized<C> {
    type Error = C::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _: Option<String>,
        headers: Headers,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.send(|token| {
            self.inner.post_message(
                Arc::clone(&uri),
                message.clone(),
                session_id.clone(),
                token,
                headers.clone(),
            )
        })
        .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _: Option<String>,
        headers: Headers,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.send(|token| {
            self.inner.post_message_with_max_sse_event_size(
                Arc::clone(&uri),
                message.clone(),
                session_id.clone(),
                token,
                headers.clone(),
                max_sse_event_size,
            )
        })
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _: Option<String>,
        headers: Headers,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.send(|token| {
            self.inner.post_message_with_response_limits(
                Arc::clone(&uri),
                message.clone(),
                session_id.clone(),
                token,
                headers.clone(),
                limits,
            )
        })
        .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        _: Option<String>,
        headers: Headers,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        self.send(|token| {
            self.inner.delete_session(
                Arc::clone(&uri),
                Arc::clone(&session_id),
                token,
                headers.clone(),
            )
        })
        .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        _: Option<String>,
        headers: Headers,
    ) -> Result<Events, StreamableHttpError<Self::Error>> {
        self.send(|token| {
            self.inner.get_stream(
                Arc::clone(&uri),
                session_id.clone(),
                last_event_id.clone(),
                token,
                headers.clone(),
            )
        })
        .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        _: Option<String>,
        headers: Headers,
        max_sse_event_size: usize,
    ) -> Result<Events, StreamableHttpError<Self::Error>> {
        self.send(|token| {
            self.inner.get_stream_with_max_sse_event_size(
                Arc::clone(&uri),
                session_id.clone(),
                last_event_id.clone(),
                token,
                headers.clone(),
                max_sse_event_size,
            )
        })
        .await
    }
}

/// What the token endpoint answered, as JSON; its error in words when it refused.
fn answer(status: u16, body: &[u8]) -> Result<Value, String> {
    let parsed: Option<Value> = serde_json::from_slice(body).ok();
    if (200..300).contains(&status) {
        return parsed.ok_or_else(|| "its answer is not JSON".to_owned());
    }
    let said = parsed
        .as_ref()
        .and_then(|v| v["error"].as_str())
        .map_or_else(
            || "no OAuth error in its answer".to_owned(),
            |error| {
                let description = parsed
                    .as_ref()
                    .and_then(|v| v["error_description"].as_str())
                    .map(|d| format!(": {d}"))
                    .unwrap_or_default();
                format!("{error}{description}")
            },
        );
    Err(format!("HTTP {status}, {said}"))
}
