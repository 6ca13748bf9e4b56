//! What a handler gets besides its arguments: who calls, and the way back to them.
//!
//! A handler method takes a [`Context`]. Through it a handler reports progress, logs,
//! asks the user (a form, or a URL to open), samples the caller's model, reads the
//! caller's roots, and learns that the call was cancelled. The same context reaches a
//! handler from every caller: an MCP client (`catalog-mcp` puts these on the wire), or
//! the application's own agent loop, where the application says what its user and model
//! can do (`catalog_wire::Agent::with_peer`). A handler is written
//! once and runs under both.
//!
//! What the other end can be asked is what it declared ([`Declared`]); asking for more
//! is refused here, before anything is sent, with [`TalkError::Undeclared`] naming what
//! is missing. That check lives in [`Context`] alone: a [`Peer`] only carries messages.

mod messages;
pub mod rounds;

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;
use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};

pub use messages::{Elicited, LogLevel, Progress, Root, Sampled, Sampling};
pub use rounds::{Question, Rounds};

use crate::output::UrlElicitation;
use crate::{BoxFuture, Caller, Map, Value};

/// Something the other end of a call may declare it can do, and a handler may ask of it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Capability {
    /// Sampling its model (MCP `sampling`).
    Sampling,
    /// Sampling with tools the model may call (MCP `sampling.tools`).
    SamplingTools,
    /// Asking its user to fill in a form (MCP `elicitation.form`).
    ElicitationForm,
    /// Asking its user to open a URL (MCP `elicitation.url`).
    ElicitationUrl,
    /// Listing its roots: the folders or places it works in (MCP `roots`).
    Roots,
}

impl Capability {
    /// Every capability.
    pub const ALL: [Capability; 5] = [
        Capability::Sampling,
        Capability::SamplingTools,
        Capability::ElicitationForm,
        Capability::ElicitationUrl,
        Capability::Roots,
    ];

    /// The capability as MCP names it in a client's `capabilities`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Capability::Sampling => "sampling",
            Capability::SamplingTools => "sampling.tools",
            Capability::ElicitationForm => "elicitation.form",
            Capability::ElicitationUrl => "elicitation.url",
            Capability::Roots => "roots",
        }
    }

    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the other end of a call declared it can do.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Declared(u8);

impl Declared {
    /// Nothing: the other end can be told things, never asked.
    pub const NONE: Declared = Declared(0);

    /// These capabilities.
    #[must_use]
    pub const fn of(capabilities: &[Capability]) -> Declared {
        let mut bits = 0;
        let mut i = 0;
        while i < capabilities.len() {
            bits |= capabilities[i].bit();
            i += 1;
        }
        Declared(bits)
    }

    /// The same, with `capability` too.
    #[must_use]
    pub const fn with(self, capability: Capability) -> Declared {
        Declared(self.0 | capability.bit())
    }

    /// Whether `capability` was declared.
    #[must_use]
    pub const fn has(self, capability: Capability) -> bool {
        self.0 & capability.bit() != 0
    }

    /// Every capability declared.
    pub fn iter(self) -> impl Iterator<Item = Capability> {
        Capability::ALL.into_iter().filter(move |c| self.has(*c))
    }
}

impl fmt::Debug for Declared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Why talking back did not work.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TalkError {
    /// The other end did not declare what this needs, so it was not asked: go on without
    /// it, or fail with a message that says what the user's client lacks.
    Undeclared(Capability),
    /// The other end answered with an error: its code and message.
    Refused {
        /// The JSON-RPC error code.
        code: i64,
        /// Its message.
        message: String,
    },
    /// No answer: the other end left, the call was cancelled, or the wait ran out.
    Gone(String),
    /// What was to be sent is not what the protocol allows: which rule, and how.
    Invalid(String),
}

impl fmt::Display for TalkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TalkError::Undeclared(capability) => write!(
                f,
                "the caller's client declared no `{capability}` capability, so it was not asked; \
                 go on without it, or tell the user their client cannot do this"
            ),
            TalkError::Refused { code, message } => {
                write!(f, "the caller's client refused ({code}): {message}")
            }
            TalkError::Gone(why) => write!(f, "no answer from the caller's client: {why}"),
            TalkError::Invalid(why) => write!(f, "not sent: {why}"),
        }
    }
}

impl core::error::Error for TalkError {}

/// The other end of a call, as a [`Context`] reaches it: an MCP client's session
/// (`catalog-mcp` implements this over `rmcp`), or the application's user and model in
/// its own agent loop. Each method carries one message; the [`Context`] has checked it
/// against [`Peer::declared`] before it gets here. What a peer cannot carry, it refuses
/// by default.
pub trait Peer: Send + Sync {
    /// What the other end declared it can do.
    fn declared(&self) -> Declared {
        Declared::NONE
    }

    /// Tells it how far the call got. A caller that asked for no progress hears nothing.
    fn progress(&self, progress: Progress) -> BoxFuture<'_, Result<(), TalkError>> {
        let _ = progress;
        Box::pin(core::future::ready(Ok(())))
    }

    /// Sends it a log message. A caller that asked for no messages at this level hears
    /// nothing.
    fn log(
        &self,
        level: LogLevel,
        logger: Option<String>,
        data: Value,
    ) -> BoxFuture<'_, Result<(), TalkError>> {
        let _ = (level, logger, data);
        Box::pin(core::future::ready(Ok(())))
    }

    /// Asks its user to fill in a form: `message`, and the flat object schema of what to
    /// fill in.
    fn elicit_form(
        &self,
        message: String,
        schema: Map<String, Value>,
    ) -> BoxFuture<'_, Result<Elicited, TalkError>> {
        let _ = (message, schema);
        refused(Capability::ElicitationForm)
    }

    /// Asks its user to open a URL.
    fn elicit_url(&self, request: UrlElicitation) -> BoxFuture<'_, Result<Elicited, TalkError>> {
        let _ = request;
        refused(Capability::ElicitationUrl)
    }

    /// Samples its model.
    fn sample(&self, request: Sampling) -> BoxFuture<'_, Result<Sampled, TalkError>> {
        let _ = request;
        refused(Capability::Sampling)
    }

    /// Lists its roots.
    fn roots(&self) -> BoxFuture<'_, Result<Vec<Root>, TalkError>> {
        refused(Capability::Roots)
    }

    /// Whether the caller cancelled the call.
    fn is_cancelled(&self) -> bool {
        false
    }

    /// Resolves once the caller cancels the call; never, by default.
    fn cancelled(&self) -> BoxFuture<'static, ()> {
        Box::pin(core::future::pending())
    }

    /// The call's [`Rounds`], when this caller is asked between rounds rather than
    /// mid-call (MCP 2026-07-28), or through a task: the [`Context`] then answers from
    /// them and puts its questions to them, and the asking methods above are not called.
    fn rounds(&self) -> Option<&dyn Rounds> {
        None
    }

    /// Lets the call go on as a task (MCP's tasks extension), when the tool may run as
    /// one and the caller declared it takes tasks: resolves once the call is a task. By
    /// default at once, the call staying where it is.
    fn as_task(&self) -> BoxFuture<'_, ()> {
        Box::pin(core::future::ready(()))
    }
}

fn refused<T: Send + 'static>(capability: Capability) -> BoxFuture<'static, Result<T, TalkError>> {
    Box::pin(core::future::ready(Err(TalkError::Undeclared(capability))))
}

/// The peer of a caller that can be asked nothing and hears nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoPeer;

impl Peer for NoPeer {}

/// What a handler gets besides its arguments: who calls ([`Context::caller`]), and the
/// way back to them (see the [module](self)). Cheap to clone; every clone talks to the
/// same caller about the same call.
#[derive(Clone)]
pub struct Context {
    caller: Caller,
    peer: Arc<dyn Peer>,
    /// The last progress reported, as `f64` bits (`u64::MAX`: none yet): MCP wants it
    /// to grow with each report.
    last_progress: Arc<AtomicU64>,
    /// How many questions without a key of their own the call put, which numbers the
    /// next one's (see [`rounds`]).
    asked: Arc<AtomicU32>,
    /// The key this context's questions carry, from [`Context::keyed`].
    key: Option<Arc<str>>,
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("caller", &self.caller)
            .field("declared", &self.peer.declared())
            .finish_non_exhaustive()
    }
}

impl Context {
    /// The context of one call by `caller`, talking back through `peer`.
    #[must_use]
    pub fn new(caller: Caller, peer: Arc<dyn Peer>) -> Context {
        Context {
            caller,
            peer,
            last_progress: Arc::new(AtomicU64::new(u64::MAX)),
            asked: Arc::new(AtomicU32::new(0)),
            key: None,
        }
    }

    /// The same context, whose questions carry `key`: the name a caller asked between
    /// rounds (MCP 2026-07-28) knows the question by, and may answer it by before it is
    /// asked. One question per key: asked again in the same call, a key gets the answer
    /// it already has. Without a key a question is known by its kind and number
    /// (`elicit-1`, `sample-2`, `roots-3`).
    #[must_use]
    pub fn keyed(&self, key: &str) -> Context {
        Context {
            key: Some(Arc::from(key)),
            ..self.clone()
        }
    }

    /// The key of the question of `kind` being put: this context's own, or the next
    /// number of the call's.
    fn question_key(&self, kind: &str) -> String {
        match &self.key {
            Some(key) => String::from(&**key),
            None => alloc::format!("{kind}-{}", self.asked.fetch_add(1, Ordering::Relaxed) + 1),
        }
    }

    /// A context whose caller can be asked nothing: a test's, or a call made in code.
    #[must_use]
    pub fn detached(caller: Caller) -> Context {
        Context::new(caller, Arc::new(NoPeer))
    }

    /// Who calls, as the verifier saw it.
    #[must_use]
    pub const fn caller(&self) -> Caller {
        self.caller
    }

    /// What the caller declared it can do.
    #[must_use]
    pub fn declared(&self) -> Declared {
        self.peer.declared()
    }

    /// Whether the caller cancelled the call. The call's future is dropped when it does
    /// (`catalog-mcp`); a handler that hands work elsewhere checks this, or awaits
    /// [`Context::cancelled`], to stop it.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.peer.is_cancelled()
    }

    /// Resolves once the caller cancels the call.
    #[must_use]
    pub fn cancelled(&self) -> BoxFuture<'static, ()> {
        self.peer.cancelled()
    }

    /// Goes on as a task from here (MCP's tasks extension), when the row says `task` and
    /// the MCP client declared it takes tasks: the client is answered with the task, and
    /// polls it for the questions asked from here on and for the result. A call becomes a
    /// task anyway once its handler first waits on anything but the client's answers; a
    /// handler calls this to be one before that, to ask its questions inside the task.
    /// Anywhere else (the agent loop, a tool without `task`, a client without tasks) it
    /// does nothing.
    pub async fn as_task(&self) {
        self.peer.as_task().await;
    }

    /// Reports how far the call got: `progress` of `total` (when known), with a message.
    /// A caller that asked for no progress hears nothing.
    ///
    /// # Errors
    /// [`TalkError::Invalid`] when `progress` is not more than the last report (MCP wants
    /// it to grow) or not finite; [`TalkError::Gone`] when the caller left.
    pub async fn progress(
        &self,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) -> Result<(), TalkError> {
        if !progress.is_finite() || total.is_some_and(|t| !t.is_finite()) {
            return Err(TalkError::Invalid(String::from(
                "progress and total must be finite numbers",
            )));
        }
        let bits = progress.to_bits();
        let last = self
            .last_progress
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |last| {
                (last == u64::MAX || progress > f64::from_bits(last)).then_some(bits)
            });
        if let Err(last) = last {
            return Err(TalkError::Invalid(alloc::format!(
                "progress must grow with each report: {progress} after {}",
                f64::from_bits(last)
            )));
        }
        self.peer
            .progress(Progress {
                progress,
                total,
                message: message.map(ToString::to_string),
            })
            .await
    }

    /// Sends the caller a log message at `level` from `logger` (the tool's name, say).
    /// A caller that asked for no messages at this level hears nothing.
    ///
    /// # Errors
    /// [`TalkError::Gone`] when the caller left.
    pub async fn log(
        &self,
        level: LogLevel,
        logger: Option<&str>,
        data: impl Into<Value>,
    ) -> Result<(), TalkError> {
        self.peer
            .log(level, logger.map(ToString::to_string), data.into())
            .await
    }

    /// Asks the caller's user to fill in a form: `message` says what for, `schema` is a
    /// flat JSON object schema of what to fill in (strings, numbers, booleans and enums,
    /// as MCP's `requestedSchema`). Accepting with nothing to fill in is a yes.
    ///
    /// # Errors
    /// [`TalkError::Undeclared`] when the caller takes no forms; [`TalkError::Invalid`]
    /// when `schema` is not an object schema; otherwise as the caller answers.
    pub async fn elicit(&self, message: &str, schema: Value) -> Result<Elicited, TalkError> {
        self.needs(Capability::ElicitationForm)?;
        let Value::Object(schema) = schema else {
            return Err(TalkError::Invalid(String::from(
                "a form's schema is a JSON object schema",
            )));
        };
        if schema.get("type").is_some_and(|t| t != "object") {
            return Err(TalkError::Invalid(String::from(
                "a form's schema has `\"type\": \"object\"`, its fields under `properties`",
            )));
        }
        if let Some(rounds) = self.peer.rounds() {
            let question = Question::Form {
                message: String::from(message),
                schema,
            };
            let key = self.question_key("elicit");
            return rounds::between(rounds, key, question, rounds::elicited).await;
        }
        self.peer.elicit_form(String::from(message), schema).await
    }

    /// Asks the caller's user to open `request.url` (to sign in, pay, or anything the
    /// server should not see typed into the client). An accepted answer means the user
    /// agreed to open it, not that they finished there.
    ///
    /// # Errors
    /// [`TalkError::Undeclared`] when the caller takes no URLs; otherwise as the caller
    /// answers.
    pub async fn elicit_url(&self, request: UrlElicitation) -> Result<Elicited, TalkError> {
        self.needs(Capability::ElicitationUrl)?;
        if let Some(rounds) = self.peer.rounds() {
            let key = self.question_key("elicit");
            return rounds::between(rounds, key, Question::Url(request), rounds::elicited).await;
        }
        self.peer.elicit_url(request).await
    }

    /// Samples the caller's model.
    ///
    /// # Errors
    /// [`TalkError::Undeclared`] when the caller offers no sampling, or no sampling with
    /// tools and `request` gives the model tools; otherwise as the caller answers.
    pub async fn sample(&self, request: Sampling) -> Result<Sampled, TalkError> {
        self.needs(Capability::Sampling)?;
        if request.has_tools() {
            self.needs(Capability::SamplingTools)?;
        }
        if let Some(rounds) = self.peer.rounds() {
            let key = self.question_key("sample");
            return rounds::between(rounds, key, Question::Sample(request), rounds::sampled).await;
        }
        self.peer.sample(request).await
    }

    /// The caller's roots: the folders or places it works in.
    ///
    /// # Errors
    /// [`TalkError::Undeclared`] when the caller declared no roots; otherwise as the
    /// caller answers.
    pub async fn roots(&self) -> Result<Vec<Root>, TalkError> {
        self.needs(Capability::Roots)?;
        if let Some(rounds) = self.peer.rounds() {
            let key = self.question_key("roots");
            return rounds::between(rounds, key, Question::Roots, rounds::roots).await;
        }
        self.peer.roots().await
    }

    /// **The capability rule**: nothing is asked of a caller that did not declare it. A
    /// call asked between rounds also notes what it lacked, so a call that fails for it
    /// can say so to the caller.
    fn needs(&self, capability: Capability) -> Result<(), TalkError> {
        if self.peer.declared().has(capability) {
            return Ok(());
        }
        if let Some(rounds) = self.peer.rounds() {
            rounds.undeclared(capability);
        }
        Err(TalkError::Undeclared(capability))
    }
}

#[cfg(test)]
mod tests;
