//! Opaque access tokens, asked about at the authorization server's introspection endpoint
//! (RFC 7662) with this server's own client credentials. Answers are kept no longer than
//! the token's `exp` and at most [`CACHE_FOR`], so a revoked token stops working within
//! that time, and a flood of one bad token asks the server once.

use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::Deserialize;
use sha2::{Digest, Sha256};
use tokio::sync::Mutex;

/// The longest an introspection answer is reused.
pub const CACHE_FOR: Duration = Duration::from_secs(60);

/// The most answers kept; past it, expired ones are dropped, then all.
const MAX_CACHED: usize = 10_000;

/// The introspection endpoint and this server's credentials for it.
#[derive(Clone)]
pub struct Endpoint {
    /// The endpoint, or `None` to take it from the authorization server's metadata.
    pub url: Option<String>,
    /// This server's client identifier at the authorization server.
    pub client_id: String,
    /// Its secret, sent with HTTP Basic authentication (RFC 7662 §2.1).
    pub client_secret: String,
}

/// The credentials are never printed.
impl fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Endpoint")
            .field("url", &self.url)
            .field("client_id", &self.client_id)
            .finish_non_exhaustive()
    }
}

/// What the endpoint says of a token (the members this server reads).
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
pub struct Answer {
    /// Whether the token is valid now.
    pub active: bool,
    /// Its scopes, space-separated.
    pub scope: Option<String>,
    /// Its subject.
    pub sub: Option<String>,
    /// The client it was issued to.
    pub client_id: Option<String>,
    /// When it expires, in seconds since the epoch.
    pub exp: Option<u64>,
    /// Its audience: one string or several.
    pub aud: Option<Audience>,
    /// Its issuer.
    pub iss: Option<String>,
}

/// A JWT-style `aud`: one or several.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum Audience {
    /// One audience.
    One(String),
    /// Several.
    Many(Vec<String>),
}

impl Audience {
    /// Whether `resource` is among them.
    #[must_use]
    pub fn contains(&self, resource: &str) -> bool {
        match self {
            Audience::One(a) => a == resource,
            Audience::Many(all) => all.iter().any(|a| a == resource),
        }
    }
}

/// Answers by the token's SHA-256 digest (the tokens themselves are not kept), each with
/// the instant it stops being reused.
#[derive(Default)]
pub struct Cache {
    answers: Mutex<HashMap<[u8; 32], (Answer, Instant)>>,
}

impl Cache {
    /// What `endpoint` says of `token`, from the cache while fresh.
    ///
    /// # Errors
    /// The endpoint could not be reached or did not answer with an introspection response.
    pub async fn introspect(
        &self,
        http: &reqwest::Client,
        url: &str,
        endpoint: &Endpoint,
        token: &str,
    ) -> Result<Answer, String> {
        let digest: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        let now = Instant::now();
        if let Some((answer, until)) = self.answers.lock().await.get(&digest)
            && *until > now
        {
            return Ok(answer.clone());
        }
        let response = http
            .post(url)
            .basic_auth(&endpoint.client_id, Some(&endpoint.client_secret))
            .form(&[("token", token), ("token_type_hint", "access_token")])
            .send()
            .await
            .map_err(|e| format!("cannot reach the introspection endpoint {url}: {e}"))?;
        let status = response.status();
        if !status.is_success() {
            return Err(format!(
                "the introspection endpoint {url} answered HTTP {status}; check the gateway's client credentials for it"
            ));
        }
        let answer: Answer = response
            .json()
            .await
            .map_err(|e| format!("{url} did not answer an introspection response: {e}"))?;
        let until = now + keep_for(answer.exp, unix_now());
        let mut answers = self.answers.lock().await;
        if answers.len() >= MAX_CACHED {
            answers.retain(|_, (_, until)| *until > now);
            if answers.len() >= MAX_CACHED {
                answers.clear();
            }
        }
        answers.insert(digest, (answer.clone(), until));
        Ok(answer)
    }
}

/// How long an answer about a token expiring at `exp` may be reused at `now` (seconds
/// since the epoch): [`CACHE_FOR`], less if the token expires sooner.
fn keep_for(exp: Option<u64>, now: u64) -> Duration {
    exp.map_or(CACHE_FOR, |exp| {
        CACHE_FOR.min(Duration::from_secs(exp.saturating_sub(now)))
    })
}

/// Seconds since the epoch.
#[must_use]
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_kept_no_longer_than_the_token_lives_nor_the_cap() {
        assert_eq!(keep_for(None, 100), CACHE_FOR);
        assert_eq!(keep_for(Some(110), 100), Duration::from_secs(10));
        assert_eq!(keep_for(Some(90), 100), Duration::ZERO);
        assert_eq!(keep_for(Some(100_000), 100), CACHE_FOR);
    }

    #[test]
    fn audiences_are_one_or_many() {
        let one: Audience = serde_json::from_str("\"https://gw/mcp\"").unwrap();
        let many: Audience = serde_json::from_str("[\"a\", \"https://gw/mcp\"]").unwrap();
        assert!(one.contains("https://gw/mcp") && many.contains("https://gw/mcp"));
        assert!(!many.contains("https://other/mcp"));
    }
}
