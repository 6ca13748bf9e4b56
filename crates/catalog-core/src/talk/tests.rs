use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::future::Future;
use core::pin::pin;
use core::sync::atomic::{AtomicU32, Ordering};
use core::task::{Context as TaskContext, Poll, Waker};

use serde_json::json;

use super::*;
use crate::Access;

/// Runs a future that never waits.
fn now<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut TaskContext::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the future waited"),
    }
}

/// What reached a [`Recording`] peer, a bit each.
const PROGRESS: u32 = 1;
const FORM: u32 = 2;
const URL: u32 = 4;
const SAMPLE: u32 = 8;
const SAMPLE_WITH_TOOLS: u32 = 16;
const ROOTS: u32 = 32;

/// A peer that declares `declared` and records what reaches it (and how often progress
/// did, above the bits).
struct Recording {
    declared: Declared,
    seen: AtomicU32,
}

impl Recording {
    fn new(declared: Declared) -> Arc<Recording> {
        Arc::new(Recording {
            declared,
            seen: AtomicU32::new(0),
        })
    }

    fn seen(&self) -> u32 {
        self.seen.load(Ordering::Relaxed)
    }

    fn saw(&self, what: u32) {
        self.seen.fetch_or(what, Ordering::Relaxed);
    }
}

impl Peer for Recording {
    fn declared(&self) -> Declared {
        self.declared
    }

    fn progress(&self, _: Progress) -> BoxFuture<'_, Result<(), TalkError>> {
        self.saw(PROGRESS);
        // Counted above the bits.
        self.seen.fetch_add(1 << 8, Ordering::Relaxed);
        Box::pin(core::future::ready(Ok(())))
    }

    fn elicit_form(
        &self,
        _: String,
        _: Map<String, Value>,
    ) -> BoxFuture<'_, Result<Elicited, TalkError>> {
        self.saw(FORM);
        Box::pin(core::future::ready(Ok(Elicited::Declined)))
    }

    fn elicit_url(&self, _: UrlElicitation) -> BoxFuture<'_, Result<Elicited, TalkError>> {
        self.saw(URL);
        Box::pin(core::future::ready(Ok(Elicited::Accepted(Map::new()))))
    }

    fn sample(&self, request: Sampling) -> BoxFuture<'_, Result<Sampled, TalkError>> {
        self.saw(if request.has_tools() {
            SAMPLE_WITH_TOOLS
        } else {
            SAMPLE
        });
        let result =
            json!({"role": "assistant", "model": "m", "content": {"type": "text", "text": "blue"}});
        let Value::Object(result) = result else {
            unreachable!()
        };
        Box::pin(core::future::ready(Ok(Sampled::from_json(result))))
    }

    fn roots(&self) -> BoxFuture<'_, Result<Vec<Root>, TalkError>> {
        self.saw(ROOTS);
        Box::pin(core::future::ready(Ok(Vec::new())))
    }
}

fn url() -> UrlElicitation {
    UrlElicitation {
        message: "Sign in".into(),
        url: "https://example.com/sign-in".into(),
        id: "e1".into(),
    }
}

#[test]
fn nothing_is_asked_of_a_caller_that_did_not_declare_it() {
    fn undeclared<T>(capability: Capability) -> Result<T, TalkError> {
        Err(TalkError::Undeclared(capability))
    }
    let peer = Recording::new(Declared::NONE);
    let context = Context::new(Caller::Mcp(Access::ReadOnly), peer.clone());
    assert_eq!(
        now(context.elicit("Which?", json!({"type": "object", "properties": {}}))),
        undeclared(Capability::ElicitationForm)
    );
    assert_eq!(
        now(context.elicit_url(url())),
        undeclared(Capability::ElicitationUrl)
    );
    assert_eq!(
        now(context.sample(Sampling::new(10).user("hi"))),
        undeclared(Capability::Sampling)
    );
    assert_eq!(now(context.roots()), undeclared(Capability::Roots));
    assert_eq!(peer.seen(), 0);
    // Being told things needs no capability.
    assert_eq!(now(context.progress(1.0, None, None)), Ok(()));
    assert_eq!(peer.seen(), PROGRESS | 1 << 8);
}

#[test]
fn what_was_declared_is_asked_and_sampling_with_tools_needs_its_own_capability() {
    let declared = Declared::of(&[
        Capability::Sampling,
        Capability::ElicitationForm,
        Capability::ElicitationUrl,
        Capability::Roots,
    ]);
    let peer = Recording::new(declared);
    let context = Context::new(Caller::Chat, peer.clone());
    assert_eq!(
        now(context.elicit("Which?", json!({"type": "object", "properties": {}}))),
        Ok(Elicited::Declined)
    );
    assert!(now(context.elicit_url(url())).unwrap().is_accepted());
    let sampled = now(context.sample(Sampling::new(10).user("Sky?"))).unwrap();
    assert_eq!(sampled.text().as_deref(), Some("blue"));
    assert_eq!(now(context.roots()), Ok(Vec::new()));
    let with_tools = Sampling::new(10).user("Sky?").tools(alloc::vec![
        json!({"name": "look", "inputSchema": {"type": "object"}})
    ]);
    assert_eq!(
        now(context.sample(with_tools.clone())),
        Err(TalkError::Undeclared(Capability::SamplingTools))
    );
    assert_eq!(peer.seen(), FORM | URL | SAMPLE | ROOTS);
    let both = Recording::new(declared.with(Capability::SamplingTools));
    let context = Context::new(Caller::Chat, both.clone());
    assert!(now(context.sample(with_tools)).is_ok());
    assert_eq!(both.seen(), SAMPLE_WITH_TOOLS);
}

#[test]
fn progress_grows_with_each_report_and_forms_are_object_schemas() {
    let peer = Recording::new(Declared::of(&[Capability::ElicitationForm]));
    let context = Context::new(Caller::Chat, peer.clone());
    assert_eq!(now(context.progress(0.5, Some(2.0), Some("half"))), Ok(()));
    // A clone reports on the same call.
    let clone = context.clone();
    assert!(matches!(
        now(clone.progress(0.5, None, None)),
        Err(TalkError::Invalid(_))
    ));
    assert!(matches!(
        now(context.progress(f64::NAN, None, None)),
        Err(TalkError::Invalid(_))
    ));
    assert_eq!(now(context.progress(2.0, Some(2.0), None)), Ok(()));
    // Two reports reached the peer; the refused ones did not.
    assert_eq!(peer.seen(), PROGRESS | 2 << 8);
    for schema in [json!("name"), json!({"type": "string"})] {
        assert!(matches!(
            now(context.elicit("?", schema)),
            Err(TalkError::Invalid(_))
        ));
    }
}

#[test]
fn a_detached_context_names_its_caller_and_asks_nobody() {
    let context = Context::detached(Caller::Mcp(Access::FullAccess));
    assert_eq!(context.caller(), Caller::Mcp(Access::FullAccess));
    assert_eq!(context.declared(), Declared::NONE);
    assert!(!context.is_cancelled());
    assert_eq!(
        now(context.roots()),
        Err(TalkError::Undeclared(Capability::Roots))
    );
    assert_eq!(now(context.log(LogLevel::Info, Some("t"), "x")), Ok(()));
}

#[test]
fn answers_read_and_write_mcp_shapes() {
    for answer in [
        Elicited::Accepted(Map::from_iter([("name".into(), json!("Ada"))])),
        Elicited::Declined,
        Elicited::Cancelled,
    ] {
        assert_eq!(Elicited::from_json(&answer.to_json()), Some(answer));
    }
    assert_eq!(Elicited::from_json(&json!({"action": "maybe"})), None);
    let Value::Object(result) = json!({
        "role": "assistant", "model": "m", "stopReason": "toolUse",
        "content": [{"type": "text", "text": "Let me look. "},
                    {"type": "tool_use", "id": "c1", "name": "look", "input": {"at": "sky"}}]
    }) else {
        unreachable!()
    };
    let sampled = Sampled::from_json(result);
    assert_eq!(sampled.stop_reason(), Some("toolUse"));
    assert_eq!(sampled.text().as_deref(), Some("Let me look. "));
    assert_eq!(sampled.tool_uses(), [("c1", "look", &json!({"at": "sky"}))]);
    for level in LogLevel::ALL {
        assert_eq!(LogLevel::parse(level.as_str()), Some(level));
    }
    assert!(LogLevel::Debug < LogLevel::Emergency);
    assert_eq!(
        alloc::format!("{:?}", Declared::of(&[Capability::Roots])),
        "{Roots}"
    );
}
