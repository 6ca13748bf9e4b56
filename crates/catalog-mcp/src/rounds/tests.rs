use serde_json::json;

use catalog_core::talk::{Declared, Elicited, Peer, Sampling, TalkError};
use catalog_core::{Access, Caller, Context, UrlElicitation};
use rmcp::model::InputRequest;

use super::*;

/// Each input request of `result`, as MCP writes it.
fn requests_json(result: &InputRequiredResult) -> BTreeMap<String, Value> {
    result
        .input_requests
        .iter()
        .flatten()
        .map(|(key, request): (&String, &InputRequest)| {
            (key.clone(), serde_json::to_value(request).unwrap())
        })
        .collect()
}

fn call<'a>(principal: Option<&'a str>, arguments: &'a Value) -> Call<'a> {
    Call {
        principal,
        method: "tools/call",
        target: "closeIssue",
        arguments,
    }
}

/// Runs a future that waits for nothing.
fn now<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    match future
        .as_mut()
        .poll(&mut TaskContext::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the future waited"),
    }
}

#[test]
fn a_state_opens_once_for_its_own_call_and_client_and_nowhere_else() {
    let seal = Seal::new();
    let arguments = json!({"number": 2});
    let answers = Map::from_iter([("approve".into(), json!({"action": "accept"}))]);
    let asked = vec!["approve".to_owned()];
    let state = seal.seal(
        &call(Some("ada"), &arguments),
        answers.clone(),
        asked.clone(),
        None,
    );
    // Another client, tool, argument, server, or a changed state: refused.
    let other = json!({"number": 3});
    let mut wrong = vec![
        now(seal.open(&state, &call(Some("bob"), &arguments))),
        now(seal.open(&state, &call(None, &arguments))),
        now(seal.open(&state, &call(Some("ada"), &other))),
        now(Seal::new().open(&state, &call(Some("ada"), &arguments))),
        now(seal.open(&format!("{state}-TAMPERED"), &call(Some("ada"), &arguments))),
    ];
    let renamed = Call {
        target: "deleteIssue",
        ..call(Some("ada"), &arguments)
    };
    wrong.push(now(seal.open(&state, &renamed)));
    for refused in wrong {
        let error = refused.unwrap_err();
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert!(error.message.contains("without requestState"), "{error:?}");
    }
    // Arguments compare as values, whatever their order.
    let reordered: Value = serde_json::from_str(r#"{"number": 2}"#).unwrap();
    assert_eq!(
        now(seal.open(&state, &call(Some("ada"), &reordered))),
        Ok(Opened {
            answers,
            asked,
            upstream: None
        })
    );
    let again = now(seal.open(&state, &call(Some("ada"), &arguments))).unwrap_err();
    assert!(again.message.contains("used already"), "{again:?}");
}

#[test]
fn a_round_keeps_the_answers_it_read_and_says_which_answer_is_unusable() {
    let sent = BTreeMap::from([
        ("elicit-1".to_owned(), json!({"action": "accept"})),
        ("stray".to_owned(), json!(1)),
    ]);
    let round = Round::new(Opened::default(), Some(sent));
    assert!(round.answer("elicit-1").is_some());
    round.ask("roots-2".into(), Question::Roots);
    assert!(round.stopped());
    let seal = Seal::new();
    let arguments = json!({});
    let asked = round.ending(&seal, &call(None, &arguments)).unwrap();
    let requests = requests_json(&asked);
    assert_eq!(requests["roots-2"]["method"], "roots/list");
    let state = asked.request_state.unwrap();
    let kept = now(seal.open(&state, &call(None, &arguments))).unwrap();
    assert_eq!(kept.answers.keys().collect::<Vec<_>>(), ["elicit-1"]);
    assert_eq!(kept.asked, ["roots-2"]);

    let round = Round::new(Opened::default(), None);
    round.unreadable("user_name".into(), "is not an elicitation result".into());
    let error = round.ending(&seal, &call(None, &arguments)).unwrap_err();
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert!(error.message.contains("`user_name` is not"), "{error:?}");
}

#[test]
fn the_answer_about_a_gated_call_counts_only_in_the_retry_of_the_round_that_asked_it() {
    let accept = || BTreeMap::from([(QUESTION.to_owned(), json!({"action": "accept"}))]);
    assert_eq!(
        Round::new(Opened::default(), Some(accept())).answer(QUESTION),
        None
    );
    let asked = Opened {
        asked: vec![QUESTION.to_owned()],
        ..Opened::default()
    };
    assert!(Round::new(asked, Some(accept())).answer(QUESTION).is_some());
}

#[test]
fn an_upstreams_questions_go_out_as_they_came_and_its_state_comes_back_to_it() {
    let seal = Seal::new();
    let arguments = json!({});
    let relayed: InputRequiredResult = serde_json::from_value(json!({
        "resultType": "input_required",
        "inputRequests": {"user_name": {"method": "roots/list", "params": {}}},
        "requestState": "the upstream's own",
    }))
    .unwrap();
    let round = Round::new(Opened::default(), None);
    round.relay(relayed);
    assert!(round.stopped());
    let asked = round.ending(&seal, &call(None, &arguments)).unwrap();
    assert_eq!(requests_json(&asked)["user_name"]["method"], "roots/list");
    let opened = now(seal.open(&asked.request_state.unwrap(), &call(None, &arguments))).unwrap();
    let sent = BTreeMap::from([
        ("user_name".to_owned(), json!({"roots": []})),
        (QUESTION.to_owned(), json!({"action": "accept"})),
    ]);
    let retry = Round::new(opened, Some(sent));
    let (answers, state) = retry.for_upstream();
    assert_eq!(state.as_deref(), Some("the upstream's own"));
    assert_eq!(answers.unwrap().keys().collect::<Vec<_>>(), ["user_name"]);
}

/// A peer asked between rounds: it declares `declared`, carries `round`, and is never
/// asked anything itself.
struct Between {
    declared: Declared,
    round: Round,
}

impl Peer for Between {
    fn declared(&self) -> Declared {
        self.declared
    }

    fn rounds(&self) -> Option<&dyn Rounds> {
        Some(&self.round)
    }
}

/// Polls `future` once: its output, or `None` while it waits.
fn once<F: Future>(future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    match future
        .as_mut()
        .poll(&mut TaskContext::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => Some(output),
        Poll::Pending => None,
    }
}

/// A handler's context asked between rounds that bring `answers`.
fn between(answers: Value) -> (Arc<Between>, Context) {
    let sent = serde_json::from_value(answers).unwrap();
    let peer = Arc::new(Between {
        declared: Declared::of(&[
            Capability::ElicitationForm,
            Capability::Sampling,
            Capability::Roots,
        ]),
        round: Round::new(Opened::default(), Some(sent)),
    });
    let context = Context::new(Caller::Mcp(Access::ReadOnly), peer.clone());
    (peer, context)
}

#[test]
fn a_question_without_an_answer_is_put_and_waits_and_one_with_an_answer_is_read() {
    let form = json!({"type": "object", "properties": {"name": {"type": "string"}}});
    // The first run: each question is put under its kind and number, or its own key.
    let (peer, context) = between(json!({}));
    assert_eq!(once(context.elicit("Name?", form.clone())), None);
    assert_eq!(once(context.sample(Sampling::new(5).user("Hi"))), None);
    assert_eq!(once(context.roots()), None);
    let user = context.keyed("user_name");
    assert_eq!(once(user.elicit("Name?", form.clone())), None);
    let asked = lock(&peer.round.asked).clone();
    let keys: Vec<&str> = asked.iter().map(|(key, _)| key.as_str()).collect();
    assert_eq!(keys, ["elicit-1", "sample-2", "roots-3", "user_name"]);
    assert_eq!(asked[2].1, Question::Roots);
    assert!(matches!(&asked[0].1, Question::Form { message, .. } if message == "Name?"));
    // The next run brings the answers, read in MCP's shapes.
    let (peer, context) = between(json!({
        "elicit-1": {"action": "accept", "content": {"name": "Ada"}},
        "sample-2": {"role": "assistant", "model": "m", "content": {"type": "text", "text": "Hello"}},
        "roots-3": {"roots": [{"uri": "file:///work", "name": "work"}]},
        "user_name": {"action": "decline"},
    }));
    let name = once(context.elicit("Name?", form.clone()))
        .unwrap()
        .unwrap();
    assert_eq!(
        name,
        Elicited::Accepted(Map::from_iter([("name".into(), json!("Ada"))]))
    );
    let sampled = once(context.sample(Sampling::new(5).user("Hi")))
        .unwrap()
        .unwrap();
    assert_eq!(sampled.text().as_deref(), Some("Hello"));
    let roots = once(context.roots()).unwrap().unwrap();
    assert_eq!(roots[0].uri, "file:///work");
    let user = context.keyed("user_name");
    assert_eq!(
        once(user.elicit("Name?", form)),
        Some(Ok(Elicited::Declined))
    );
    assert!(!peer.round.stopped());
}

#[test]
fn an_answer_of_the_wrong_shape_and_a_capability_not_declared_are_noted() {
    let (peer, context) = between(json!({"elicit-1": 12345, "sample-2": {"role": "assistant"}}));
    let form = json!({"type": "object", "properties": {}});
    assert_eq!(once(context.elicit("?", form)), None);
    assert_eq!(once(context.sample(Sampling::new(5).user("Hi"))), None);
    let unreadable = lock(&peer.round.unreadable).clone();
    assert_eq!(unreadable.len(), 2);
    assert!(unreadable[0].starts_with("`elicit-1` is not an elicitation result"));
    assert!(unreadable[1].starts_with("`sample-2` is not a sampling result"));
    // Not declared: refused at once, as on every revision, and noted.
    let url = UrlElicitation {
        message: "Sign in".into(),
        url: "https://example.com/sign-in".into(),
        id: "e1".into(),
    };
    assert_eq!(
        once(context.elicit_url(url)),
        Some(Err(TalkError::Undeclared(Capability::ElicitationUrl)))
    );
    assert_eq!(peer.round.undeclared(), [Capability::ElicitationUrl]);
    assert!(lock(&peer.round.asked).is_empty());
}

#[test]
fn a_missing_capability_is_named_as_client_capabilities_write_it() {
    let error = missing(&[Capability::Sampling, Capability::ElicitationForm]);
    assert_eq!(error.code, ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY);
    assert_eq!(
        error.data.unwrap()["requiredCapabilities"],
        json!({"sampling": {}, "elicitation": {"form": {}}})
    );
}
