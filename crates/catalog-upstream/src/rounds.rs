//! Results that ask for input first (MCP 2026-07-28, SEP-2322): instead of asking the
//! client in the middle of a call, an upstream answers with the requests it needs
//! answered (sampling, elicitation, roots) and an opaque `requestState`; the client asks
//! them and sends the call again with the answers and that state exactly as it came.
//!
//! Here each request is asked through the relay, as one made while the call runs, so the
//! client behind the gateway answers it as it answers the same request over 2025-11-25.
//! The answers and the state belong to the call they came for and to no other.

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{
    ClientResult, ElicitRequestParams, ElicitResult, ElicitationAction, InputRequest,
    InputRequests, InputResponses, ServerRequest,
};
use serde_json::Value;

use crate::relay::Origin;

/// How many times one call is sent again before the upstream is taken to be looping.
pub(crate) const MAX_ROUNDS: usize = 10;

/// Who answers what an upstream asks: the session's relay.
pub(crate) trait Asks {
    /// The client's answer to `request`, made while `origin` ran.
    async fn ask(
        &self,
        request: ServerRequest,
        origin: Option<Arc<Origin>>,
    ) -> Result<ClientResult, ErrorData>;
}

/// The answers to `requests`, by their keys, each asked through `asker` for `origin`.
///
/// # Errors
/// A request the client refused or could not be asked: the call cannot go on.
pub(crate) async fn answer(
    asker: &impl Asks,
    requests: InputRequests,
    origin: Option<&Arc<Origin>>,
) -> Result<InputResponses, ErrorData> {
    let mut answers = InputResponses::new();
    for (key, request) in requests {
        let request = match request {
            InputRequest::CreateMessage(r) => ServerRequest::CreateMessageRequest(r),
            InputRequest::Elicitation(r) => ServerRequest::ElicitRequest(r),
            InputRequest::ListRoots(r) => ServerRequest::ListRootsRequest(r),
            other => {
                return Err(ErrorData::invalid_params(
                    format!(
                        "the upstream asked for input of a kind this client does not know: {other:?}"
                    ),
                    None,
                ));
            }
        };
        let answer = asker.ask(request, origin.cloned()).await?;
        let answer = serde_json::to_value(answer)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        answers.insert(key, answer);
    }
    Ok(answers)
}

/// Fills in an accepted form the fields the client left out that the form gives a
/// default (SEP-1034): the upstream reads the form it asked for whole, whether or not
/// the client behind the gateway applies defaults itself.
pub(crate) fn apply_defaults(asked: &ElicitRequestParams, answer: &mut ElicitResult) {
    let ElicitRequestParams::FormElicitationParams {
        requested_schema, ..
    } = asked
    else {
        return;
    };
    if answer.action != ElicitationAction::Accept {
        return;
    }
    let Ok(schema) = serde_json::to_value(requested_schema) else {
        return;
    };
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return;
    };
    let content = answer
        .content
        .get_or_insert_with(|| Value::Object(serde_json::Map::new()));
    let Value::Object(content) = content else {
        return;
    };
    for (field, property) in properties {
        if let Some(default) = property.get("default")
            && !content.contains_key(field)
        {
            content.insert(field.clone(), default.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn form() -> ElicitRequestParams {
        serde_json::from_value(json!({
            "mode": "form",
            "message": "who?",
            "requestedSchema": {"type": "object", "properties": {
                "name": {"type": "string", "default": "John Doe"},
                "age": {"type": "integer", "default": 30},
                "note": {"type": "string"}
            }}
        }))
        .unwrap()
    }

    #[test]
    fn an_accepted_form_gets_the_defaults_it_left_out_and_keeps_what_it_gave() {
        let mut answer = ElicitResult::new(ElicitationAction::Accept);
        answer.content = Some(json!({"name": "Ada"}));
        apply_defaults(&form(), &mut answer);
        assert_eq!(answer.content, Some(json!({"name": "Ada", "age": 30})));

        let mut empty = ElicitResult::new(ElicitationAction::Accept);
        apply_defaults(&form(), &mut empty);
        assert_eq!(empty.content, Some(json!({"name": "John Doe", "age": 30})));

        let mut declined = ElicitResult::new(ElicitationAction::Decline);
        apply_defaults(&form(), &mut declined);
        assert_eq!(declined.content, None);
    }
}
