//! The authorization server's signing keys (its JWK Set), fetched when first needed and
//! again when a token names a key not yet seen (the server rotated its keys), at most once
//! per [`REFETCH_INTERVAL`], so a flood of tokens naming made-up keys cannot make this
//! server hammer the authorization server.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, KeyAlgorithm, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde::Deserialize;
use tokio::sync::Mutex;

/// The least time between two fetches of the key set caused by unknown keys.
pub const REFETCH_INTERVAL: Duration = Duration::from_secs(10);

/// One verification key, and the algorithm the set pins it to, if it does.
#[derive(Clone)]
pub struct Key {
    /// The key.
    pub key: DecodingKey,
    /// Its `alg`, when the set names one: a token must use exactly that.
    pub alg: Option<Algorithm>,
}

/// The keys last fetched, by `kid`.
#[derive(Default)]
pub struct Keys {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    keys: HashMap<String, Key>,
    /// Keys without a `kid`, for tokens without one.
    unnamed: Vec<Key>,
    /// Whether the set was fetched (or tried) at all.
    fetched: bool,
    /// When it was last fetched again for a key not in it.
    refetched: Option<Instant>,
}

/// Why a key cannot be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Missing {
    /// The set has no such key, even after a fetch (or a fetch was too recent to repeat).
    Unknown,
    /// The set could not be fetched: what went wrong.
    Unreachable(String),
}

impl Keys {
    /// The key `kid` names (`None`: the token names none, and the set has exactly one
    /// without a name, or exactly one at all), fetching the set from `uri` with `http`
    /// when it was never fetched, or again when the key is unknown and the last such
    /// fetch is older than [`REFETCH_INTERVAL`].
    ///
    /// # Errors
    /// [`Missing`].
    pub async fn get(
        &self,
        http: &reqwest::Client,
        uri: &str,
        kid: Option<&str>,
    ) -> Result<Key, Missing> {
        // One fetch at a time: requests arriving meanwhile wait for it, then find the key.
        let mut state = self.state.lock().await;
        if let Some(key) = state.find(kid) {
            return Ok(key);
        }
        if state.fetched {
            // Fetched before, and the key is not in it: a rotation, or a made-up key.
            let due = state
                .refetched
                .is_none_or(|at| at.elapsed() >= REFETCH_INTERVAL);
            if !due {
                return Err(Missing::Unknown);
            }
            state.refetched = Some(Instant::now());
        }
        state.fetched = true;
        let (keys, unnamed) = fetch(http, uri).await.map_err(Missing::Unreachable)?;
        tracing::info!(
            uri,
            keys = keys.len() + unnamed.len(),
            "fetched the authorization server's keys"
        );
        state.keys = keys;
        state.unnamed = unnamed;
        state.find(kid).ok_or(Missing::Unknown)
    }
}

impl State {
    fn find(&self, kid: Option<&str>) -> Option<Key> {
        match kid {
            Some(kid) => self.keys.get(kid).cloned(),
            None if self.unnamed.len() == 1 => self.unnamed.first().cloned(),
            None if self.unnamed.is_empty() && self.keys.len() == 1 => {
                self.keys.values().next().cloned()
            }
            None => None,
        }
    }
}

#[derive(Deserialize)]
struct Set {
    keys: Vec<serde_json::Value>,
}

/// The signing keys of the set at `uri`; keys of other uses, symmetric keys and keys this
/// build cannot read are left out (with a log line), so one odd key does not lose the rest.
async fn fetch(
    http: &reqwest::Client,
    uri: &str,
) -> Result<(HashMap<String, Key>, Vec<Key>), String> {
    let response = http
        .get(uri)
        .send()
        .await
        .map_err(|e| format!("cannot fetch the keys at {uri}: {e}"))?;
    let status = response.status();
    if !status.is_success() {
        return Err(format!("the keys at {uri} answered HTTP {status}"));
    }
    let set: Set = response
        .json()
        .await
        .map_err(|e| format!("{uri} is not a JWK Set: {e}"))?;
    let mut named = HashMap::new();
    let mut unnamed = Vec::new();
    for value in set.keys {
        let jwk: Jwk = match serde_json::from_value(value) {
            Ok(jwk) => jwk,
            Err(e) => {
                tracing::warn!(uri, "skipped a key this server cannot read: {e}");
                continue;
            }
        };
        let symmetric = matches!(jwk.algorithm, AlgorithmParameters::OctetKey(_));
        if symmetric
            || matches!(jwk.common.public_key_use, Some(ref u) if *u != PublicKeyUse::Signature)
        {
            continue;
        }
        let alg = match jwk.common.key_algorithm.map(signing) {
            Some(Some(alg)) => Some(alg),
            // A key for encryption, or a symmetric one: not for verifying access tokens.
            Some(None) => continue,
            None => None,
        };
        let Ok(key) = DecodingKey::from_jwk(&jwk) else {
            tracing::warn!(uri, kid = ?jwk.common.key_id, "skipped a key this server cannot read");
            continue;
        };
        let key = Key { key, alg };
        match jwk.common.key_id {
            Some(kid) => {
                named.insert(kid, key);
            }
            None => unnamed.push(key),
        }
    }
    Ok((named, unnamed))
}

/// The asymmetric signature algorithm a key names; `None` for any other (HMAC's shared
/// secrets, encryption).
fn signing(alg: KeyAlgorithm) -> Option<Algorithm> {
    Some(match alg {
        KeyAlgorithm::RS256 => Algorithm::RS256,
        KeyAlgorithm::RS384 => Algorithm::RS384,
        KeyAlgorithm::RS512 => Algorithm::RS512,
        KeyAlgorithm::PS256 => Algorithm::PS256,
        KeyAlgorithm::PS384 => Algorithm::PS384,
        KeyAlgorithm::PS512 => Algorithm::PS512,
        KeyAlgorithm::ES256 => Algorithm::ES256,
        KeyAlgorithm::ES384 => Algorithm::ES384,
        KeyAlgorithm::EdDSA => Algorithm::EdDSA,
        _ => return None,
    })
}

/// Whether `alg` is one a token may be signed with here: asymmetric only, so a key set's
/// public key can never be used as an HMAC secret.
#[must_use]
pub fn asymmetric(alg: Algorithm) -> bool {
    !matches!(alg, Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512)
}
