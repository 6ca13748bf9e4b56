//! Tasks upstreams made of clients' calls (MCP's tasks extension), passed on. A client of
//! 2026-07-28 that declares the extension reaches an upstream that speaks that revision
//! through the gateway's session at it, its `_meta` said again there; when the upstream
//! answers the call with a task, the client gets the task under an id of the gateway's
//! own (128 random bits), which names it to that client alone: the upstream sees every
//! task as the gateway's. `tasks/get`, `tasks/update` and `tasks/cancel` go to the
//! upstream that runs it, as the client sent them. A task's questions reach the client as
//! the upstream put them, and its answers go back as the client gave them; its result is
//! read as a forwarded call's is (the reviewed output, the result scanner) before the
//! client sees it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use catalog_core::{Lookup as _, Value, check_output};
use catalog_mcp::Grant;
use catalog_mcp::calls::refuse;
use catalog_upstream::CallFailed;
use catalog_upstream::relay::Origin;
use catalog_upstream::tasks::Asked;
use rmcp::ErrorData;
use rmcp::model::{
    CallToolResult, ContentBlock, CreateTaskResult, ErrorCode, GetTaskResult, ProtocolVersion,
    RequestMetaObject,
};
use rmcp::service::{RequestContext, RoleServer};

use super::Gateway;
use crate::rows::Row;

/// How long a task no client asked about stays known: a client polls a task it waits on.
pub const IDLE: Duration = Duration::from_secs(24 * 60 * 60);

/// What the `_meta` of a request about a task says again to the upstream: what its client
/// declared (the tasks extension among it), and the log level it wants.
const CARRIED: [&str; 2] = [
    "io.modelcontextprotocol/clientCapabilities",
    "io.modelcontextprotocol/logLevel",
];

/// A task an upstream made of a client's call.
struct Relayed {
    /// The client that called: the only one the task is known to.
    owner: Arc<str>,
    row: Row,
    upstream: String,
    /// Its id on the upstream.
    there: String,
    /// When a client last asked about it.
    seen: Instant,
}

/// The tasks the gateway passes on, by the ids it handed out.
#[derive(Default)]
pub(crate) struct Tasks(Mutex<HashMap<String, Relayed>>);

impl std::fmt::Debug for Tasks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tasks")
            .field("known", &lock(&self.0).len())
            .finish()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What a task id that names no task of this client is answered with.
fn unknown(id: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!(
            "no task `{id}` here: a task is known to the client that started it, while its server keeps it; call the tool again for a new one"
        ),
        None,
    )
}

impl Tasks {
    /// Hands `owner` the task `created` that `upstream` made of a call of `row`, under an
    /// id of the gateway's own.
    pub(crate) fn relay(
        &self,
        owner: &Arc<str>,
        row: Row,
        upstream: &str,
        mut created: CreateTaskResult,
    ) -> CreateTaskResult {
        let key = catalog_mcp::rounds::random_key();
        let mut bits = [0u8; 16];
        bits.copy_from_slice(&key[..16]);
        let id = format!("{:032x}", u128::from_be_bytes(bits));
        let there = std::mem::replace(&mut created.task.task_id, id.clone());
        let mut tasks = lock(&self.0);
        tasks.retain(|_, task| task.seen.elapsed() < IDLE);
        tasks.insert(
            id,
            Relayed {
                owner: Arc::clone(owner),
                row,
                upstream: upstream.to_owned(),
                there,
                seen: Instant::now(),
            },
        );
        created
    }

    /// `owner`'s task `id`: its row, its upstream and its id there.
    fn find(&self, owner: &str, id: &str) -> Option<(Row, String, String)> {
        let mut tasks = lock(&self.0);
        let task = tasks.get_mut(id).filter(|t| &*t.owner == owner)?;
        task.seen = Instant::now();
        Some((task.row, task.upstream.clone(), task.there.clone()))
    }

    fn forget(&self, id: &str) {
        lock(&self.0).remove(id);
    }
}

impl Gateway {
    /// Asks `asked` of task `id` of the client with `grant`, of the upstream that runs it,
    /// for the request `context` carries: `tasks/get`'s task, with the gateway's id and
    /// its result read as a forwarded call's; nothing for `tasks/update` and
    /// `tasks/cancel`, which the upstream acknowledged.
    ///
    /// # Errors
    /// Invalid params when the client has no such task (or its server no longer keeps
    /// it); the upstream's own error; an internal error when the upstream cannot be
    /// reached.
    pub(crate) async fn task(
        &self,
        grant: &Grant,
        id: &str,
        asked: Asked,
        context: &RequestContext<RoleServer>,
    ) -> Result<Option<GetTaskResult>, ErrorData> {
        let (row, upstream, there) = self
            .tasks
            .find(&grant.client, id)
            .ok_or_else(|| unknown(id))?;
        let Some(session) = self.session_between_rounds(&upstream).await else {
            return Err(ErrorData::internal_error(
                format!(
                    "upstream `{upstream}`, which runs task `{id}`, cannot be reached now; ask again later"
                ),
                None,
            ));
        };
        let mut meta = RequestMetaObject::default();
        for key in CARRIED {
            if let Some(value) = context.meta.get(key) {
                meta.insert(key.to_owned(), value.clone());
            }
        }
        let origin = Origin {
            request: context.id.clone(),
            progress: None,
            tool: self.loaded.rows.name(row).to_owned(),
            relay: None,
            meta: Some(meta),
        };
        let state = matches!(asked, Asked::State);
        let answer = match session.task(&there, asked, Some(origin)).await {
            Ok(answer) => answer,
            // Its server no longer keeps it: neither does the gateway.
            Err(CallFailed::Refused { error, .. }) if error.code == ErrorCode::INVALID_PARAMS => {
                self.tasks.forget(id);
                return Err(unknown(id));
            }
            Err(CallFailed::Refused { error, .. }) => return Err(error),
            Err(failed) => return Err(ErrorData::internal_error(failed.to_string(), None)),
        };
        if !state {
            return Ok(None);
        }
        let mut task = match answer {
            Value::Object(task) => task,
            other => {
                return Err(ErrorData::internal_error(
                    format!("upstream `{upstream}` answered tasks/get with no task: {other}"),
                    None,
                ));
            }
        };
        task.insert("taskId".into(), id.into());
        if let Some(result) = task.remove("result") {
            match self.task_result(grant, row, &upstream, result) {
                Ok(result) => {
                    task.insert("result".into(), result);
                }
                // Withheld: the task ends in the refusal, as a forwarded call would.
                Err(error) => {
                    task.insert("status".into(), "failed".into());
                    task.insert(
                        "error".into(),
                        serde_json::to_value(error).unwrap_or_default(),
                    );
                }
            }
        }
        serde_json::from_value(Value::Object(task))
            .map(Some)
            .map_err(|e| {
                ErrorData::internal_error(
                    format!("upstream `{upstream}`'s task is not MCP's: {e}"),
                    None,
                )
            })
    }

    /// A task's result as the client reads it: the reviewed output checked and the
    /// result scanner's reading, as a forwarded call's result; the resources it links to
    /// the client's to read. A refusal the protocol carries in a result is the result.
    ///
    /// # Errors
    /// The refusal the protocol carries as an error.
    fn task_result(
        &self,
        grant: &Grant,
        row: Row,
        upstream: &str,
        result: Value,
    ) -> Result<Value, ErrorData> {
        // The extension is of 2026-07-28, whose refusals of a tool's result are results.
        let revision = ProtocolVersion::V_2026_07_28;
        let result: CallToolResult = serde_json::from_value(result).map_err(|e| {
            ErrorData::internal_error(
                format!("upstream `{upstream}`'s task result is not a tool result: {e}"),
                None,
            )
        })?;
        let checked = if result.is_error != Some(true)
            && let Some(structured) = &result.structured_content
            && let Err(rejection) = check_output(self.loaded.rows.spec(row), structured)
        {
            Err(rejection)
        } else {
            self.screen(row, result, &mut Vec::new())
        };
        let result = match checked {
            Ok(result) => result,
            Err(rejection) => refuse(&rejection, &revision)?,
        };
        let link = self.sessionless_link(grant);
        for block in &result.content {
            if let ContentBlock::ResourceLink(resource) = block {
                link.handed(&resource.uri, upstream, self.loaded.rows.name(row));
            }
        }
        serde_json::to_value(result).map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }
}
