//! Asking a caller that cannot be asked while a call runs: MCP 2026-07-28's multi
//! round-trip requests, where a server answers a call with the questions it needs
//! answered, and the client calls again with the answers.
//!
//! A handler asks through its [`Context`](super::Context) as it always does. When its
//! peer carries a call's [`Rounds`], a question the call brought no answer for is put to
//! the round and the handler waits for ever: whoever drives the call ends it there, with
//! every question put while it waited, and runs it again from the start when the answers
//! come. Answered questions are answered at once from what the call brought, so the
//! handler reaches its next question, or its end. Questions are known by a key: the one
//! the handler gave ([`Context::keyed`](super::Context::keyed)), or the kind of question
//! and its number in the call (`elicit-1`, `sample-2`, `roots-3`), the same on every run
//! since a handler asks in the same order given the same answers.
//!
//! A call that runs as a task (MCP's tasks extension) carries rounds too, whose questions
//! are answered while the handler waits ([`Rounds::wait`]): the task shows them to its
//! client, and the answers come back to the waiting handler, which is not run again.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::{Capability, Elicited, Root, Sampled, Sampling, TalkError};
use crate::output::UrlElicitation;
use crate::{BoxFuture, Map, Value};

/// A question a handler put to its caller.
#[derive(Clone, PartialEq, Debug)]
pub enum Question {
    /// A form to fill in: what it is for, and the flat object schema of its fields.
    Form {
        /// What the user reads above the form.
        message: String,
        /// MCP's `requestedSchema`.
        schema: Map<String, Value>,
    },
    /// A URL to open.
    Url(UrlElicitation),
    /// A request to the caller's model.
    Sample(Sampling),
    /// The caller's roots.
    Roots,
}

/// One call's rounds, as a peer that cannot ask mid-call carries them: the answers the
/// call brought, and the questions, unreadable answers and undeclared capabilities of
/// this run, which end the round. Implemented by the MCP server (`catalog-mcp`).
pub trait Rounds: Send + Sync {
    /// The answer the call brought for question `key`, if any: the caller's own, as it
    /// sent it.
    fn answer(&self, key: &str) -> Option<Value>;

    /// Puts `question` to this round under `key`.
    fn ask(&self, key: String, question: Question);

    /// The answer under `key` is not an answer to the question asked there: `why`.
    fn unreadable(&self, key: String, why: String);

    /// The handler wanted `capability`, which the caller did not declare.
    fn undeclared(&self, capability: Capability);

    /// The answer to question `key`, once it was put with [`Rounds::ask`]: where the
    /// caller answers while the handler waits (a task's). By default never: the call
    /// ends with the round, and runs again with the answers.
    fn wait(&self, key: &str) -> BoxFuture<'_, Result<Value, TalkError>> {
        let _ = key;
        Box::pin(core::future::pending())
    }
}

/// What a handler reads from an answer to one kind of question, or what that answer
/// should have been.
pub type Read<T> = fn(&Value) -> Result<T, &'static str>;

/// Answers question `key` from `rounds`, read by `read`, or puts `question` to the round
/// and waits ([`Rounds::wait`]): for ever between rounds, where the call ends with the
/// round and runs again with the answers; in a task, until the caller answers. What a
/// [`Context`](super::Context) does between rounds, for a question put by other code than
/// a handler's (a server's own question about a gated call).
///
/// # Errors
/// Those [`Rounds::wait`] gives, and an answer the caller gave while the handler waited
/// that does not read.
pub async fn between<T>(
    rounds: &dyn Rounds,
    key: String,
    question: Question,
    read: Read<T>,
) -> Result<T, TalkError> {
    match rounds.answer(&key) {
        Some(answer) => match read(&answer) {
            Ok(answer) => return Ok(answer),
            Err(expected) => {
                rounds.unreadable(key, alloc::format!("is not {expected}"));
                return core::future::pending().await;
            }
        },
        None => rounds.ask(key.clone(), question),
    }
    let answer = rounds.wait(&key).await?;
    read(&answer).map_err(|expected| {
        TalkError::Invalid(alloc::format!("the answer to `{key}` is not {expected}"))
    })
}

/// Whether `answer` answers `question`: what it should have been, when not. A task checks
/// each answer with this before the waiting handler gets it.
///
/// # Errors
/// What the answer should have been.
pub fn answers(question: &Question, answer: &Value) -> Result<(), &'static str> {
    match question {
        Question::Form { .. } | Question::Url(_) => elicited(answer).map(drop),
        Question::Sample(_) => sampled(answer).map(drop),
        Question::Roots => roots(answer).map(drop),
    }
}

/// Reads an elicitation's answer: MCP's `ElicitResult`.
///
/// # Errors
/// What the answer should have been.
pub fn elicited(answer: &Value) -> Result<Elicited, &'static str> {
    Elicited::from_json(answer)
        .ok_or("an elicitation result (an object whose `action` is accept, decline or cancel)")
}

/// A sampling answer: MCP's `CreateMessageResult`.
pub(super) fn sampled(answer: &Value) -> Result<Sampled, &'static str> {
    match answer {
        Value::Object(result) if result.get("content").is_some_and(|c| !c.is_null()) => {
            Ok(Sampled::from_json(result.clone()))
        }
        _ => Err("a sampling result (an object with the model's `content`)"),
    }
}

/// A roots answer: MCP's `ListRootsResult`.
pub(super) fn roots(answer: &Value) -> Result<Vec<Root>, &'static str> {
    const EXPECTED: &str = "a roots result (an object whose `roots` lists objects with a `uri`)";
    let listed = answer
        .get("roots")
        .and_then(Value::as_array)
        .ok_or(EXPECTED)?;
    listed
        .iter()
        .map(|root| {
            Ok(Root {
                uri: root
                    .get("uri")
                    .and_then(Value::as_str)
                    .ok_or(EXPECTED)?
                    .into(),
                name: root.get("name").and_then(Value::as_str).map(String::from),
            })
        })
        .collect()
}
