//! A task an upstream made of a call (MCP's tasks extension, on a session at 2026-07-28):
//! its state, the answers to its questions, and its cancellation, asked of the upstream
//! for a client (`tasks/get`, `tasks/update`, `tasks/cancel`).

use std::sync::Arc;

use rmcp::ServiceError;
use rmcp::model::{
    CancelTaskParams, CancelTaskRequest, ClientRequest, GetTaskParams, GetTaskRequest,
    InputResponses, UpdateTaskParams, UpdateTaskRequest,
};
use serde_json::Value;

use crate::client::{CallFailed, Upstream};
use crate::relay::Origin;

/// What is asked of a task.
#[derive(Clone, Debug)]
pub enum Asked {
    /// Where it stands (`tasks/get`).
    State,
    /// These answers to its questions, as the client gave them (`tasks/update`).
    Answers(InputResponses),
    /// That it stop (`tasks/cancel`).
    Cancel,
}

impl Upstream {
    /// Asks the upstream `asked` of its task `id`, for `origin` (whose `_meta` says again
    /// what the client declared, the tasks extension among it): its answer as it came, a
    /// `DetailedTask` for [`Asked::State`], an empty result otherwise.
    ///
    /// # Errors
    /// The upstream refused the request (its JSON-RPC error), or the session failed.
    pub async fn task(
        &self,
        id: &str,
        asked: Asked,
        origin: Option<Origin>,
    ) -> Result<Value, CallFailed> {
        let request = match asked {
            Asked::State => {
                ClientRequest::GetTaskRequest(GetTaskRequest::new(GetTaskParams::new(id)))
            }
            Asked::Answers(answers) => ClientRequest::UpdateTaskRequest(UpdateTaskRequest::new(
                UpdateTaskParams::new(id, answers),
            )),
            Asked::Cancel => {
                ClientRequest::CancelTaskRequest(CancelTaskRequest::new(CancelTaskParams::new(id)))
            }
        };
        let failed = |e: &dyn std::fmt::Display| {
            CallFailed::Session(format!("upstream `{}`: {e}", self.name()))
        };
        match self.send(request, origin.map(Arc::new)).await {
            // As the SDK read it: which of its result types matched is no matter here.
            Ok(answer) => serde_json::to_value(answer).map_err(|e| failed(&e)),
            Err(ServiceError::McpError(error)) => Err(CallFailed::Refused {
                upstream: self.name().to_owned(),
                error,
            }),
            Err(other) => Err(failed(&other)),
        }
    }
}
