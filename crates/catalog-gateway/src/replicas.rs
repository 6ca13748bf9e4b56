//! What the replicas of one gateway share, so that any of them answers any request of a
//! client's session (behind a load balancer without sticky sessions): a Redis database
//! the operator names in `[sessions]` of the `--config` file.
//!
//! Two things live there, each under the MCP session id (`Mcp-Session-Id`):
//! - `catalog-gateway:session:ID`: the client's `initialize` parameters, written by the
//!   SDK (`rmcp`'s [`SessionStore`]) before the `initialize` answer goes out; a replica
//!   that does not hold the session replays the handshake from them;
//! - `catalog-gateway:discovery:ID`: the names of the rows the session's searches found
//!   (`--discoverable search`), written before the search's answer goes out.
//!
//! Both expire [`Sessions::expire`] after their last write or read, and a `DELETE` of the
//! session removes both. The replicas also share what makes the state of a call between
//! rounds (2026-07-28) good on any of them: the key that seals it
//! (`catalog-gateway:seal-key`, made by the first replica to start) and the states
//! already redeemed (`catalog-gateway:spent:NONCE`, until they would have lapsed).

use std::collections::BTreeSet;
use std::fmt::{self, Write as _};
use std::time::Duration;

use catalog_core::BoxFuture;
use catalog_mcp::rounds::{STATE_TTL, Seal, Spent};
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore, SessionStoreError,
};

/// The `[sessions]` table of the operator's file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sessions {
    /// The Redis database, as a `redis://` (or `unix://`) URL.
    pub redis: String,
    /// How long a session's shared state outlives its last use.
    pub expire: Duration,
}

/// By default a session's shared state lasts a day past its last use.
pub const EXPIRE: Duration = Duration::from_secs(24 * 60 * 60);

/// How long one Redis command may take before the request it serves fails.
const TIMEOUT: Duration = Duration::from_secs(5);

const PREFIX: &str = "catalog-gateway:";

/// The connection to the shared Redis database (one multiplexed connection that
/// reconnects by itself).
#[derive(Clone)]
pub struct Redis {
    connection: ConnectionManager,
    /// Seconds, as `EX` takes them.
    expire: u64,
}

impl fmt::Debug for Redis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Redis")
            .field("expire", &self.expire)
            .finish_non_exhaustive()
    }
}

impl Redis {
    /// Connects to the database `sessions` names.
    ///
    /// # Errors
    /// Why it cannot be reached, for the command line.
    pub async fn connect(sessions: &Sessions) -> Result<Redis, String> {
        let url = &sessions.redis;
        let client = redis::Client::open(url.as_str())
            .map_err(|e| format!("[sessions] redis = \"{url}\": {e}"))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(TIMEOUT))
            .set_response_timeout(Some(TIMEOUT))
            .set_number_of_retries(2);
        let connection = client
            .get_connection_manager_with_config(config)
            .await
            .map_err(|e| {
                format!("cannot reach Redis at {url} ([sessions] of --config): {e}; start it, or fix the URL")
            })?;
        Ok(Redis {
            connection,
            expire: sessions.expire.as_secs().max(1),
        })
    }

    /// The rows' names the searches of session `id` found; none for a session not seen.
    /// Refreshes the session's expiry.
    ///
    /// # Errors
    /// What Redis said.
    pub async fn found(&self, id: &str) -> Result<BTreeSet<String>, redis::RedisError> {
        let mut connection = self.connection.clone();
        let (names,): (BTreeSet<String>,) = redis::pipe()
            .smembers(key("discovery", id))
            .expire(key("discovery", id), self.ttl())
            .ignore()
            .expire(key("session", id), self.ttl())
            .ignore()
            .query_async(&mut connection)
            .await?;
        Ok(names)
    }

    /// Adds `names` to what session `id`'s searches found, or, with `replace`, makes them
    /// all it found; in one transaction, done when this returns.
    ///
    /// # Errors
    /// What Redis said.
    pub async fn keep(
        &self,
        id: &str,
        names: &[&str],
        replace: bool,
    ) -> Result<(), redis::RedisError> {
        let mut connection = self.connection.clone();
        let discovery = key("discovery", id);
        let mut pipe = redis::pipe();
        pipe.atomic();
        if replace {
            pipe.del(&discovery).ignore();
        }
        if !names.is_empty() {
            pipe.sadd(&discovery, names).ignore();
        }
        pipe.expire(&discovery, self.ttl()).ignore();
        pipe.query_async::<()>(&mut connection).await
    }

    /// The seal the replicas share: its key made by the first replica to ask, and the
    /// states redeemed kept here.
    ///
    /// # Errors
    /// Redis cannot be reached, or holds a key too short: why, for the command line.
    pub async fn seal(&self) -> Result<Seal, String> {
        let mut connection = self.connection.clone();
        let made = catalog_mcp::rounds::random_key()
            .iter()
            .fold(String::new(), |mut hex, b| {
                let _ = write!(hex, "{b:02x}");
                hex
            });
        let key = format!("{PREFIX}seal-key");
        let (hex,): (String,) = redis::pipe()
            .cmd("SET")
            .arg(&key)
            .arg(&made)
            .arg("NX")
            .ignore()
            .get(&key)
            .query_async(&mut connection)
            .await
            .map_err(|e| format!("the replicas' store: {e}"))?;
        let bytes: Vec<u8> = (0..hex.len() / 2)
            .filter_map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
            .collect();
        Seal::shared(&bytes, Box::new(self.clone()))
    }

    fn ttl(&self) -> i64 {
        i64::try_from(self.expire).unwrap_or(i64::MAX)
    }
}

fn key(what: &str, id: &str) -> String {
    format!("{PREFIX}{what}:{id}")
}

/// The states of calls between rounds already redeemed on any replica.
impl Spent for Redis {
    fn spend(&self, nonce: &str) -> BoxFuture<'_, Result<bool, String>> {
        let spent = key("spent", nonce);
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let set: Option<String> = redis::cmd("SET")
                .arg(spent)
                .arg(1)
                .arg("NX")
                .arg("EX")
                .arg(STATE_TTL.as_secs())
                .query_async(&mut connection)
                .await
                .map_err(|e| format!("the replicas' store: {e}"))?;
            Ok(set.is_some())
        })
    }
}

/// The SDK's sessions, kept for every replica.
#[async_trait::async_trait]
impl SessionStore for Redis {
    async fn load(&self, id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let mut connection = self.connection.clone();
        let json: Option<String> = redis::cmd("GETEX")
            .arg(key("session", id))
            .arg("EX")
            .arg(self.expire)
            .query_async(&mut connection)
            .await?;
        Ok(match json {
            Some(json) => Some(serde_json::from_str(&json)?),
            None => None,
        })
    }

    async fn store(&self, id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let mut connection = self.connection.clone();
        let json = serde_json::to_string(state)?;
        redis::cmd("SET")
            .arg(key("session", id))
            .arg(json)
            .arg("EX")
            .arg(self.expire)
            .query_async::<()>(&mut connection)
            .await?;
        Ok(())
    }

    async fn delete(&self, id: &str) -> Result<(), SessionStoreError> {
        let mut connection = self.connection.clone();
        redis::cmd("DEL")
            .arg(key("session", id))
            .arg(key("discovery", id))
            .query_async::<()>(&mut connection)
            .await?;
        Ok(())
    }
}
