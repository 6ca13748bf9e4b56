//! Where a session's discovery state lives (`--discoverable search`): the rows its
//! searches found, in this process, or in the Redis database the replicas share, so that
//! whichever replica answers the session's next request lists and admits them.

use std::sync::{Arc, Mutex, PoisonError};

use catalog_core::{Retention, ToolId};
use http::request::Parts;
use rmcp::ErrorData;
use rmcp::service::{RequestContext, RoleServer};

use crate::replicas::Redis;
use crate::rows::Row;
use crate::rows::Rows;

/// The rows one session's searches found.
#[derive(Debug)]
pub struct Discovered {
    /// The session's own, when there is no shared store, or no session id to key it by
    /// (a request of the 2026-07-28 revision, which has no sessions).
    here: Mutex<Rows>,
    shared: Option<Arc<Redis>>,
}

impl Discovered {
    /// Nothing found yet; kept in `shared` when given, else in this process.
    #[must_use]
    pub fn new(shared: Option<Arc<Redis>>) -> Discovered {
        Discovered {
            here: Mutex::new(Rows::EMPTY),
            shared,
        }
    }

    /// What the session of the request in `context` found so far.
    ///
    /// # Errors
    /// An internal error when the shared store cannot be read.
    pub async fn rows(&self, context: &RequestContext<RoleServer>) -> Result<Rows, ErrorData> {
        let (Some(redis), Some(id)) = (&self.shared, session_id(context)) else {
            return Ok(*self.here.lock().unwrap_or_else(PoisonError::into_inner));
        };
        let names = redis.found(id).await.map_err(|e| unavailable(&e))?;
        // A name the catalog no longer has (another build of it) is left out.
        Ok(names.iter().filter_map(|n| Row::from_name(n)).collect())
    }

    /// Keeps what a search `found` (rows by name) as `retention` says: added to what the
    /// session found before (`conversation`), or in its place (`turn`). Done when this
    /// returns, so the search's answer may say so.
    ///
    /// # Errors
    /// An internal error when the shared store cannot be written.
    pub async fn keep(
        &self,
        context: &RequestContext<RoleServer>,
        found: &[&str],
        retention: Retention,
    ) -> Result<(), ErrorData> {
        let replace = retention == Retention::Turn;
        let (Some(redis), Some(id)) = (&self.shared, session_id(context)) else {
            let found: Rows = found.iter().filter_map(|n| Row::from_name(n)).collect();
            let mut here = self.here.lock().unwrap_or_else(PoisonError::into_inner);
            *here = if replace { found } else { *here | found };
            return Ok(());
        };
        redis
            .keep(id, found, replace)
            .await
            .map_err(|e| unavailable(&e))
    }
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
