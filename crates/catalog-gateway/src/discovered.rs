//! Where a session's discovery state lives (`--discoverable search`): the rows its
//! searches found, in this process, or in the Redis database the replicas share, so that
//! whichever replica answers the session's next request lists and admits them. A client
//! without a session (2026-07-28), each of whose requests stands alone, keeps what its
//! searches found by its credential instead: every conversation on that credential
//! shares it.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use catalog_core::{Lookup, Retention};
use http::request::Parts;
use rmcp::ErrorData;
use rmcp::service::{RequestContext, RoleServer};

use catalog_mcp::Grant;
use catalog_mcp::talk::asks_between_rounds;

use crate::replicas::Redis;
use crate::rows::Row;
use crate::rows::Rows;

/// What clients without a session found, by credential, in this process.
pub type ByCredential = Arc<Mutex<BTreeMap<Arc<str>, Rows>>>;

/// The rows one session's searches found.
#[derive(Debug)]
pub struct Discovered {
    /// The session's own, when there is no shared store.
    here: Mutex<Rows>,
    /// Those of clients without a session, when there is no shared store.
    by_credential: ByCredential,
    shared: Option<Arc<Redis>>,
}

/// Whose finds a request reads and keeps.
enum Whose<'a> {
    /// The session's, by its id.
    Session(&'a str),
    /// A client's without a session, by its credential.
    Credential(&'a Arc<str>),
    /// This session's, kept here (a session over stdio, or before it has an id).
    Here,
}

impl Discovered {
    /// Nothing found yet; kept in `shared` when given, else in this process (those of
    /// clients without a session in `by_credential`).
    #[must_use]
    pub fn new(shared: Option<Arc<Redis>>, by_credential: ByCredential) -> Discovered {
        Discovered {
            here: Mutex::new(Rows::EMPTY),
            by_credential,
            shared,
        }
    }

    /// Whose finds the request in `context`, from `grant`'s client, reads and keeps.
    fn whose<'a>(context: &'a RequestContext<RoleServer>, grant: &'a Grant) -> Whose<'a> {
        match session_id(context) {
            Some(id) => Whose::Session(id),
            None if asks_between_rounds(context) => Whose::Credential(&grant.client),
            None => Whose::Here,
        }
    }

    /// The key of `whose` finds in the shared store.
    fn key(whose: &Whose<'_>) -> Option<String> {
        match whose {
            Whose::Session(id) => Some((*id).to_owned()),
            // Not a session id's shape, so the two never meet.
            Whose::Credential(client) => Some(format!("credential:{client}")),
            Whose::Here => None,
        }
    }

    /// What the session of the request in `context` (or, without a session, `grant`'s
    /// credential) found so far.
    ///
    /// # Errors
    /// An internal error when the shared store cannot be read.
    pub async fn rows(
        &self,
        tools: &dyn Lookup<Row>,
        context: &RequestContext<RoleServer>,
        grant: &Grant,
    ) -> Result<Rows, ErrorData> {
        let whose = Discovered::whose(context, grant);
        let (Some(redis), Some(id)) = (&self.shared, Discovered::key(&whose)) else {
            return Ok(match whose {
                Whose::Credential(client) => lock(&self.by_credential)
                    .get(client)
                    .copied()
                    .unwrap_or(Rows::EMPTY),
                _ => *lock(&self.here),
            });
        };
        let names = redis.found(&id).await.map_err(|e| unavailable(&e))?;
        // A name the catalog no longer has (another build of it) is left out.
        Ok(names.iter().filter_map(|n| tools.find(n)).collect())
    }

    /// Keeps what a search `found` (rows by name) as `retention` says: added to what the
    /// session found before (`conversation`), or in its place (`turn`). Done when this
    /// returns, so the search's answer may say so.
    ///
    /// # Errors
    /// An internal error when the shared store cannot be written.
    pub async fn keep(
        &self,
        tools: &dyn Lookup<Row>,
        context: &RequestContext<RoleServer>,
        grant: &Grant,
        found: &[&str],
        retention: Retention,
    ) -> Result<(), ErrorData> {
        let replace = retention == Retention::Turn;
        let whose = Discovered::whose(context, grant);
        let (Some(redis), Some(id)) = (&self.shared, Discovered::key(&whose)) else {
            let found: Rows = found.iter().filter_map(|n| tools.find(n)).collect();
            let keep = |kept: &mut Rows| *kept = if replace { found } else { *kept | found };
            match whose {
                Whose::Credential(client) => {
                    keep(
                        lock(&self.by_credential)
                            .entry(Arc::clone(client))
                            .or_default(),
                    );
                }
                _ => keep(&mut lock(&self.here)),
            }
            return Ok(());
        };
        redis
            .keep(&id, found, replace)
            .await
            .map_err(|e| unavailable(&e))
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The MCP session the request belongs to, from its HTTP headers.
fn session_id(context: &RequestContext<RoleServer>) -> Option<&str> {
    context
        .extensions
        .get::<Parts>()?
        .headers
        .get("mcp-session-id")?
        .to_str()
        .ok()
}

fn unavailable(error: &redis::RedisError) -> ErrorData {
    tracing::error!(%error, "the shared session store failed");
    ErrorData::internal_error(
        format!("the gateway's shared session store is unavailable: {error}"),
        None,
    )
}
