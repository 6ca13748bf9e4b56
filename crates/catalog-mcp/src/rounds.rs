//! Multi round-trip requests (MCP 2026-07-28, SEP-2322), the server's half: a call that
//! needs the client's answers ends with the questions (an input-required result), and
//! the client calls again with the answers and the `requestState` it was given.
//!
//! A handler asks through its context as on every revision (see
//! [`catalog_core::talk::rounds`]); the gate's question about a gated call is asked the
//! same way. A run of the call that reaches a question it brought no answer for stops
//! there ([`drive`]), with every question put while it waited; the retry runs the call
//! again from the start, and the questions answered so far are answered at once. So a
//! handler that changes the world does so after its questions, as it would before any
//! `await` that can fail.
//!
//! The `requestState` holds the answers of the earlier rounds, sealed ([`Seal`]): signed
//! with a key of this process (or one the replicas of a server share), good for
//! [`STATE_TTL`], bound to the client, the method, the tool and the arguments, and good
//! for one retry (the [`Spent`] states are remembered until they lapse, in this process
//! or where the replicas share them). A state that fails any of these is
//! refused with an invalid-params error that says to call again without it. Answers a
//! client sends ahead, for questions it knows by key, are read as if asked; but never the
//! answer to the question about a gated call ([`QUESTION`]), which counts only in the
//! retry of the round that asked it: the user approves what the server asked.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context as TaskContext, Poll, Waker};
use std::time::{Duration, Instant};

use catalog_core::talk::{Capability, Question, Rounds};
use catalog_core::{BoxFuture, Map, Value};
use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, CreateTaskResult, ErrorCode, InputRequests, InputRequiredResult,
    InputResponses, RequestStateCodec, SealOptions,
};
use serde::{Deserialize, Serialize};

use crate::complete::Complete;

/// The key of the question about a gated call (the gate's, in `crate::elicit`) in an
/// input-required result's `inputRequests`, and of its answer in the retry.
pub const QUESTION: &str = "approve";

/// How long a `requestState` stays good: time for a person to read a question and answer.
pub const STATE_TTL: Duration = Duration::from_secs(15 * 60);

/// How long a round stays open after a question put from another task (an upstream's,
/// relayed) for the questions that come with it: a server that asks several things at
/// once sends them together, and the round carries them together. Questions a handler
/// puts itself end the round at once.
pub const GATHER: Duration = Duration::from_millis(50);

/// Seals the state of calls between rounds and opens it again: one per server, shared by
/// its connections.
pub struct Seal {
    codec: RequestStateCodec,
    /// The states already redeemed.
    spent: Box<dyn Spent>,
}

/// Where the states already redeemed are remembered, until they would have lapsed anyway.
pub trait Spent: Send + Sync {
    /// Marks the state named `nonce` redeemed: `Ok(false)` when it was already.
    ///
    /// # Errors
    /// The store could not be reached: why.
    fn spend(&self, nonce: &str) -> BoxFuture<'_, Result<bool, String>>;
}

/// The states this process redeemed.
#[derive(Debug, Default)]
pub struct SpentHere(Mutex<HashMap<String, Instant>>);

impl Spent for SpentHere {
    fn spend(&self, nonce: &str) -> BoxFuture<'_, Result<bool, String>> {
        let mut spent = lock(&self.0);
        spent.retain(|_, redeemed| redeemed.elapsed() < STATE_TTL);
        let fresh = spent.insert(nonce.to_owned(), Instant::now()).is_none();
        Box::pin(std::future::ready(Ok(fresh)))
    }
}

impl std::fmt::Debug for Seal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seal").finish_non_exhaustive()
    }
}

impl Default for Seal {
    fn default() -> Seal {
        Seal::new()
    }
}

/// What a sealed state holds.
#[derive(Serialize, Deserialize)]
struct State {
    /// Names this state among the spent ones.
    nonce: String,
    /// The call's arguments, which a retry must repeat.
    arguments: Value,
    /// The answers of the earlier rounds, by question.
    answers: Map<String, Value>,
    /// The questions of the round this state closes, whose answers the retry brings.
    asked: Vec<String>,
    /// The state an upstream gave with the questions it asked in that round, which goes
    /// back to it with the answers (a gateway's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    upstream: Option<String>,
}

/// What a redeemed state holds: the answers of the earlier rounds, and the questions of
/// the last one.
#[derive(Debug, Default, PartialEq)]
pub struct Opened {
    answers: Map<String, Value>,
    asked: Vec<String>,
    upstream: Option<String>,
}

/// 32 bytes from the system's random number source: a key for [`Seal::shared`].
///
/// # Panics
/// When the system has no randomness to give.
#[must_use]
pub fn random_key() -> [u8; 32] {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).expect("the system's random number source");
    key
}

/// Which call a state belongs to: who called, and what.
#[derive(Clone, Copy, Debug)]
pub struct Call<'a> {
    /// The client over HTTP (its grant's), `None` over stdio.
    pub principal: Option<&'a str>,
    /// The request's method: `tools/call`, `prompts/get`, `resources/read`.
    pub method: &'a str,
    /// The tool's or prompt's name, the resource's URI.
    pub target: &'a str,
    /// The arguments.
    pub arguments: &'a Value,
}

impl Call<'_> {
    /// What the seal binds a state to besides its contents.
    fn binding(&self) -> Vec<u8> {
        // Lengths first, so no two calls make the same bytes.
        let mut out = Vec::new();
        for part in [self.principal.unwrap_or(""), self.method, self.target] {
            out.extend_from_slice(&part.len().to_be_bytes());
            out.extend_from_slice(part.as_bytes());
        }
        out.push(u8::from(self.principal.is_some()));
        out
    }
}

impl Seal {
    /// A seal with a key of its own, random, remembering the states it redeemed in this
    /// process: states from another process open nowhere else.
    ///
    /// # Panics
    /// When the system has no randomness to give.
    #[must_use]
    pub fn new() -> Seal {
        Seal::shared(&random_key(), Box::new(SpentHere::default()))
            .expect("32 random bytes make a key")
    }

    /// A seal with `key` (the one the replicas of a server share), remembering the states
    /// redeemed in `spent`.
    ///
    /// # Errors
    /// A key shorter than 32 bytes.
    pub fn shared(key: &[u8], spent: Box<dyn Spent>) -> Result<Seal, String> {
        let codec = RequestStateCodec::try_new(key.to_vec())
            .map_err(|e| format!("the key that seals the state of calls: {e}"))?;
        Ok(Seal { codec, spent })
    }

    /// The state of `call` once the questions `asked` are answered: the answers it has so
    /// far.
    fn seal(
        &self,
        call: &Call<'_>,
        answers: Map<String, Value>,
        asked: Vec<String>,
        upstream: Option<String>,
    ) -> String {
        let mut nonce = [0u8; 16];
        getrandom::fill(&mut nonce).expect("the system's random number source");
        let state = State {
            nonce: u128::from_be_bytes(nonce).to_string(),
            arguments: call.arguments.clone(),
            answers,
            asked,
            upstream,
        };
        let binding = call.binding();
        let options = SealOptions::new().associated_data(&binding).ttl(STATE_TTL);
        // A map of JSON values always serializes.
        self.codec
            .seal_json_with(&state, &options)
            .unwrap_or_default()
    }

    /// Redeems the `requestState` a retry of `call` echoes: what it holds.
    ///
    /// # Errors
    /// Invalid params, saying to call again without the state, when it was not made
    /// here, was changed, is older than [`STATE_TTL`], belongs to another call or client,
    /// or was redeemed already.
    pub async fn open(&self, sealed: &str, call: &Call<'_>) -> Result<Opened, ErrorData> {
        let refused = |why: &str| {
            ErrorData::invalid_params(
                format!(
                    "the requestState {why}: call `{}` again without requestState and inputResponses, and answer the questions it asks",
                    call.target
                ),
                None,
            )
        };
        let state: State = self
            .codec
            .open_json_with(sealed, &call.binding())
            .map_err(|error| match error {
                rmcp::model::RequestStateError::Expired => refused(&format!(
                    "is older than {} minutes",
                    STATE_TTL.as_secs() / 60
                )),
                _ => refused(
                    "failed its integrity check (it was changed, or made for another call, client or server)",
                ),
            })?;
        if state.arguments != *call.arguments {
            return Err(refused(
                "was made for other arguments (a retry repeats the call as it was)",
            ));
        }
        match self.spent.spend(&state.nonce).await {
            Ok(true) => {}
            Ok(false) => return Err(refused("was used already (each is good for one retry)")),
            Err(why) => {
                return Err(ErrorData::internal_error(
                    format!("the requestState could not be checked: {why}"),
                    None,
                ));
            }
        }
        Ok(Opened {
            answers: state.answers,
            asked: state.asked,
            upstream: state.upstream,
        })
    }
}

/// One run of a call between rounds: the answers it brought (from its state and from
/// the request's `inputResponses`), and what the run put to the round.
#[derive(Debug, Default)]
pub struct Round {
    answers: Map<String, Value>,
    /// The answers the request brought, as it brought them: what an upstream that asked
    /// gets back.
    sent: InputResponses,
    /// The state the upstream that asked in the last round gave.
    upstream: Option<String>,
    /// The keys whose answers the run read: what the next state keeps.
    read: Mutex<BTreeSet<String>>,
    asked: Mutex<Vec<(String, Question)>>,
    /// The questions an upstream asked in this run, as it asked them, and its state.
    relayed: Mutex<Option<InputRequiredResult>>,
    /// The task an upstream made of the call in this run (a gateway's, MCP's tasks
    /// extension), as the client is to be answered with it.
    tasked: Mutex<Option<CreateTaskResult>>,
    unreadable: Mutex<Vec<String>>,
    undeclared: Mutex<Vec<Capability>>,
    /// The run's driver, woken when a question is put from another task (a relay's).
    driver: Mutex<Option<Waker>>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Round {
    /// A run with the answers of the earlier rounds (`earlier`, from a redeemed state, or
    /// nothing for a first call) and those the request brings (`sent`); an earlier answer
    /// stands over a sent one, and an answer about a gated call counts only when `earlier`
    /// asked it.
    #[must_use]
    pub fn new(earlier: Opened, sent: Option<InputResponses>) -> Round {
        let asked = |key: &str| earlier.asked.iter().any(|k| k == key);
        let sent: InputResponses = sent
            .unwrap_or_default()
            .into_iter()
            .filter(|(key, _)| key != QUESTION || asked(key))
            .collect();
        let mut answers: Map<String, Value> = sent.clone().into_iter().collect();
        answers.extend(earlier.answers);
        Round {
            answers,
            sent: sent
                .into_iter()
                .filter(|(key, _)| key != QUESTION)
                .collect(),
            upstream: earlier.upstream,
            ..Round::default()
        }
    }

    /// Whether the run put questions, or read an answer it could not use: it goes no
    /// further this round.
    #[must_use]
    pub fn stopped(&self) -> bool {
        !lock(&self.asked).is_empty()
            || !lock(&self.unreadable).is_empty()
            || lock(&self.relayed).is_some()
            || lock(&self.tasked).is_some()
    }

    /// An upstream answered the call with a task (MCP's tasks extension): the run ends
    /// with it, and the client is answered with `created`.
    pub fn became_task(&self, created: CreateTaskResult) {
        *lock(&self.tasked) = Some(created);
        self.wake();
    }

    /// Puts the questions of an upstream's input-required result to this round as they
    /// came (its keys, its requests), with its state: the round ends with them, and the
    /// retry gives the upstream back its state and the client's answers
    /// ([`Round::for_upstream`]).
    pub fn relay(&self, asked: InputRequiredResult) {
        *lock(&self.relayed) = Some(asked);
        self.wake();
    }

    /// What this run gives an upstream that asks between rounds: the answers the request
    /// brought (but the one about a gated call, the server's own), and the state the
    /// upstream gave in the round the request's state closes.
    #[must_use]
    pub fn for_upstream(&self) -> (Option<InputResponses>, Option<String>) {
        let sent = (!self.sent.is_empty()).then(|| self.sent.clone());
        (sent, self.upstream.clone())
    }

    /// The answers the call brought, from its state and its request: what a call that
    /// goes on as a task still answers from.
    #[must_use]
    pub fn answers(&self) -> &Map<String, Value> {
        &self.answers
    }

    /// How many questions the run put so far.
    fn put(&self) -> usize {
        lock(&self.asked).len()
    }

    /// Wakes the run's driver, which ends the round.
    fn wake(&self) {
        if let Some(driver) = lock(&self.driver).take() {
            driver.wake();
        }
    }

    /// What the caller lacked that the handler wanted (a capability not declared).
    #[must_use]
    pub fn undeclared(&self) -> Vec<Capability> {
        lock(&self.undeclared).clone()
    }

    /// How the round ends for a run that stopped at its questions: the input-required
    /// result that asks them, with the state of `call` holding the answers read so far;
    /// or, when an answer sent was not an answer to its question, the error that says so.
    ///
    /// # Errors
    /// Invalid params naming each unreadable answer; internal error for a question MCP
    /// cannot carry (a handler's malformed request).
    pub fn ending(&self, seal: &Seal, call: &Call<'_>) -> Result<InputRequiredResult, ErrorData> {
        let unreadable = lock(&self.unreadable);
        if !unreadable.is_empty() {
            return Err(ErrorData::invalid_params(
                format!(
                    "inputResponses: {}; answer each question with the result its method returns",
                    unreadable.join("; ")
                ),
                None,
            ));
        }
        let mut requests = InputRequests::new();
        let mut asked = Vec::new();
        for (key, question) in lock(&self.asked).drain(..) {
            let request = crate::talk::input_request(question).map_err(|why| {
                ErrorData::internal_error(format!("question `{key}` {why}"), None)
            })?;
            asked.push(key.clone());
            requests.insert(key, request);
        }
        let relayed = lock(&self.relayed).take();
        let upstream = relayed.as_ref().and_then(|r| r.request_state.clone());
        for (key, request) in relayed.and_then(|r| r.input_requests).into_iter().flatten() {
            asked.push(key.clone());
            requests.insert(key, request);
        }
        let read = lock(&self.read);
        let kept: Map<String, Value> = self
            .answers
            .iter()
            .filter(|(key, _)| read.contains(*key))
            .map(|(key, answer)| (key.clone(), answer.clone()))
            .collect();
        Ok(InputRequiredResult::new(
            (!requests.is_empty()).then_some(requests),
            Some(seal.seal(call, kept, asked, upstream)),
        ))
    }
}

impl Rounds for Round {
    fn answer(&self, key: &str) -> Option<Value> {
        let answer = self.answers.get(key).cloned();
        if answer.is_some() {
            lock(&self.read).insert(key.to_owned());
        }
        answer
    }

    fn ask(&self, key: String, question: Question) {
        lock(&self.asked).push((key, question));
        self.wake();
    }

    fn unreadable(&self, key: String, why: String) {
        lock(&self.unreadable).push(format!("`{key}` {why}"));
        self.wake();
    }

    fn undeclared(&self, capability: Capability) {
        let mut undeclared = lock(&self.undeclared);
        if !undeclared.contains(&capability) {
            undeclared.push(capability);
        }
    }
}

/// The error for a call that failed for want of what its client did not declare: MCP
/// 2026-07-28's `MissingRequiredClientCapabilityError` (`-32021`), its data naming each
/// capability as a `ClientCapabilities` object does.
#[must_use]
pub fn missing(capabilities: &[Capability]) -> ErrorData {
    let mut required = BTreeMap::<&str, Value>::new();
    for capability in capabilities {
        let (name, inner) = match capability {
            Capability::Sampling => ("sampling", serde_json::json!({})),
            Capability::SamplingTools => ("sampling", serde_json::json!({"tools": {}})),
            Capability::ElicitationForm => ("elicitation", serde_json::json!({"form": {}})),
            Capability::ElicitationUrl => ("elicitation", serde_json::json!({"url": {}})),
            Capability::Roots => ("roots", serde_json::json!({})),
        };
        let entry = required
            .entry(name)
            .or_insert_with(|| serde_json::json!({}));
        if let (Value::Object(entry), Value::Object(inner)) = (entry, inner) {
            entry.extend(inner);
        }
    }
    let names: Vec<String> = capabilities.iter().map(|c| format!("`{c}`")).collect();
    ErrorData::new(
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
        format!(
            "this request needs the client's {} capability, which its `_meta` does not declare: a client that has it declares it in `io.modelcontextprotocol/clientCapabilities`",
            names.join(" and ")
        ),
        Some(serde_json::json!({ "requiredCapabilities": required })),
    )
}

/// What a prompt or a resource answers when a run ended with a task, which only a tool
/// call becomes.
fn only_calls_become_tasks() -> ErrorData {
    ErrorData::internal_error(
        "an upstream answered a request other than tools/call with a task, which MCP's tasks extension makes of tool calls alone",
        None,
    )
}

/// How a request's run between rounds ended: its answer, or the questions it stopped at.
#[derive(Debug)]
pub enum Ended<T> {
    /// The run ended with this answer.
    Done(T),
    /// The run stopped at its questions: the input-required result that asks them.
    Asking(InputRequiredResult),
    /// An upstream made the call a task: the client is answered with it (a tool call's
    /// alone).
    Task(CreateTaskResult),
}

impl<T: Complete> Ended<T> {
    /// The response of a method that is no tool call (`prompts/get`, `resources/read`),
    /// `asking` its variant for questions: the answer says it is complete.
    ///
    /// # Errors
    /// A task, which only a tool call becomes.
    pub fn response<R: From<T>>(
        self,
        asking: fn(InputRequiredResult) -> R,
    ) -> Result<R, ErrorData> {
        match self {
            Ended::Done(result) => Ok(result.complete().into()),
            Ended::Asking(questions) => Ok(asking(questions)),
            Ended::Task(_) => Err(only_calls_become_tasks()),
        }
    }
}

impl Ended<CallToolResponse> {
    /// The response of a tool call that ended so.
    #[must_use]
    pub fn into_call(self) -> CallToolResponse {
        match self {
            Ended::Done(result) => result,
            Ended::Asking(questions) => CallToolResponse::InputRequired(questions),
            Ended::Task(created) => CallToolResponse::Task(created),
        }
    }
}

/// Runs one request between rounds: opens the `state` a retry echoes, reads the answers
/// it and `sent` bring, and runs `run` with the call's round until it ends or stops at
/// its questions ([`drive`]). An answer that `failed` says is a failure, after the run
/// wanted a capability the client did not declare, is [`missing`] that capability.
///
/// # Errors
/// A state that does not open ([`Seal::open`]), an unreadable answer
/// ([`Round::ending`]), [`missing`], or the run's own error.
pub async fn run<T, F>(
    seal: &Seal,
    call: &Call<'_>,
    state: Option<String>,
    sent: Option<InputResponses>,
    failed: fn(&Result<T, ErrorData>) -> bool,
    run: impl FnOnce(Arc<Round>) -> F,
) -> Result<Ended<T>, ErrorData>
where
    F: Future<Output = Result<T, ErrorData>>,
{
    let round = begin(seal, call, state, sent).await?;
    let ran = drive(&round, run(Arc::clone(&round))).await;
    end(&round, seal, call, ran, failed)
}

/// The round of one run of `call`: the answers of the `state` a retry echoes, opened, and
/// those `sent` with it.
///
/// # Errors
/// A state that does not open ([`Seal::open`]).
pub async fn begin(
    seal: &Seal,
    call: &Call<'_>,
    state: Option<String>,
    sent: Option<InputResponses>,
) -> Result<Arc<Round>, ErrorData> {
    let earlier = match state {
        Some(state) => seal.open(&state, call).await?,
        None => Opened::default(),
    };
    Ok(Arc::new(Round::new(earlier, sent)))
}

/// How a run of `call` in `round` ends: with its answer (`Some`), or stopped at its
/// questions (`None`). An answer that `failed` says is a failure, after the run wanted a
/// capability the client did not declare, is [`missing`] that capability.
///
/// # Errors
/// An unreadable answer ([`Round::ending`]), [`missing`], or the run's own error.
pub fn end<T>(
    round: &Round,
    seal: &Seal,
    call: &Call<'_>,
    ran: Option<Result<T, ErrorData>>,
    failed: fn(&Result<T, ErrorData>) -> bool,
) -> Result<Ended<T>, ErrorData> {
    match ran {
        Some(result) => {
            let undeclared = round.undeclared();
            if failed(&result) && !undeclared.is_empty() {
                return Err(missing(&undeclared));
            }
            result.map(Ended::Done)
        }
        None => match lock(&round.tasked).take() {
            Some(created) => Ok(Ended::Task(created)),
            None => round.ending(seal, call).map(Ended::Asking),
        },
    }
}

/// Runs `run` until it ends, or until it waits and `round` says the run stopped at its
/// questions: then `None`, and the future is dropped where it waits (each question waits
/// for ever; the retry brings the answers). Questions put in the same poll, as a handler
/// that awaits several at once puts them, end up in the same round. A question put from
/// another task (a relay's, for an upstream that asks) wakes the run, which ends the round
/// once no other question came for [`GATHER`].
pub async fn drive<F: Future>(round: &Round, run: F) -> Option<F::Output> {
    Driven {
        round,
        run: Box::pin(run),
        gathering: None,
    }
    .await
}

struct Driven<'a, F: Future> {
    round: &'a Round,
    run: Pin<Box<F>>,
    /// While questions from another task gather: how many there were when the wait began,
    /// and the wait.
    gathering: Option<(usize, Pin<Box<tokio::time::Sleep>>)>,
}

impl<F: Future> Future for Driven<'_, F> {
    type Output = Option<F::Output>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        *lock(&self.round.driver) = Some(cx.waker().clone());
        // Questions already put when this poll began came from another task.
        let before = self.round.put();
        if let Poll::Ready(output) = self.run.as_mut().poll(cx) {
            return Poll::Ready(Some(output));
        }
        if !self.round.stopped() {
            return Poll::Pending;
        }
        let now = self.round.put();
        if before == 0 || !lock(&self.round.unreadable).is_empty() {
            return Poll::Ready(None);
        }
        if self.gathering.as_ref().is_none_or(|(seen, _)| *seen != now) {
            let wait = Box::pin(tokio::time::sleep(GATHER));
            self.gathering = Some((now, wait));
        }
        let waiting = match &mut self.gathering {
            Some((_, wait)) => wait.as_mut().poll(cx).is_pending(),
            None => false,
        };
        if waiting {
            Poll::Pending
        } else {
            Poll::Ready(None)
        }
    }
}

#[cfg(test)]
mod tests;
