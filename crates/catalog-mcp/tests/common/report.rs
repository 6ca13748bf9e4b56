//! What a client saw, checked against a catalog's generated tables, for any catalog: the
//! listing of a level, the probe of every tool, refusals by level.

use std::fmt::Display;
use std::sync::Arc;

use catalog_core::talk::NoPeer;
use catalog_core::{Access, Caller, CompiledCatalog, Effect, HandledBy, Reach, ToolSpec};
use catalog_mcp::rmcp::model::{CallToolResponse, ProtocolVersion};
use catalog_mcp::{NoAsker, Tools};
use serde_json::{Map, Value, json};

/// Whether a client on protocol `revision` gets invalid arguments and refused gated calls
/// as tool results (2025-11-25 on, SEP-1303) rather than JSON-RPC errors.
#[must_use]
pub fn in_results(revision: &str) -> bool {
    revision >= "2025-11-25"
}

/// Every tool of catalog `C` (the generated unit struct, passed so `W` is inferred),
/// listed at some level or not, as the JSON list `conformance.py --probe` takes.
#[must_use]
pub fn every_name<C: CompiledCatalog<W>, const W: usize>(_: C) -> String {
    let names: Vec<&str> = C::SETS
        .all
        .into_iter()
        .map(|t| C::INFO.tools.name(t))
        .collect();
    serde_json::to_string(&names).expect("names are JSON")
}

/// Calls as `--calls` takes them: `[[label, tool, arguments], ...]`.
#[must_use]
pub fn steps(calls: &[(&str, &str, Value)]) -> String {
    let steps: Vec<Value> = calls
        .iter()
        .map(|(label, tool, arguments)| json!([label, tool, arguments]))
        .collect();
    Value::Array(steps).to_string()
}

/// The JSON-RPC error a call got, or a panic naming what came instead.
#[must_use]
pub fn error<'a>(outcome: &'a Value, what: &str) -> &'a Value {
    outcome
        .get("error")
        .unwrap_or_else(|| panic!("{what}: expected a JSON-RPC error, got {outcome}"))
}

/// The rejection a refused call carried, as a client on `revision` gets it: the text of a
/// tool result with `isError: true` (2025-11-25 on), or the `data` of a JSON-RPC error
/// `-32602` whose message is the rejection's; a panic naming what came instead.
#[must_use]
pub fn rejected<'a>(outcome: &'a Value, revision: &str, what: &str) -> &'a Value {
    if in_results(revision) {
        assert_eq!(
            outcome["isError"], true,
            "{what}: expected a tool result with isError on {revision}, got {outcome}"
        );
        &outcome["content"]
    } else {
        let e = error(outcome, what);
        assert_eq!(e["code"], -32602, "{what}: {e}");
        let message = e["message"].as_str().unwrap_or_default();
        let summary = e["data"]["message"].as_str().unwrap_or_default();
        assert!(
            !summary.is_empty() && message.starts_with(summary),
            "{what}: {e}"
        );
        &e["data"]
    }
}

/// The content of a call that ran, or a panic naming what came instead.
#[must_use]
pub fn ran<'a>(outcome: &'a Value, what: &str) -> &'a Value {
    assert_eq!(outcome["isError"], false, "{what}: {outcome}");
    &outcome["content"]
}

/// A refusal because the connection's level is below the tool's.
pub fn assert_level_refusal(outcome: &Value, tool: &ToolSpec, level: Access, what: &str) {
    let needed = tool.access.expect("an MCP tool has a level");
    let e = error(outcome, what);
    assert_eq!(e["code"], -32602, "{what}: {e}");
    assert_eq!(e["data"]["error"], "PERMISSION_DENIED", "{what}: {e}");
    assert_eq!(e["data"]["tool"], tool.name, "{what}: {e}");
    let message = e["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(&format!(
            "needs the {needed} access level; this connection has {level}"
        )),
        "{what}: {message}"
    );
}

/// Who refused a gated call, which its message says first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cause {
    /// The server's `--gated deny`.
    Policy,
    /// The person asked declined, dismissed the question, or let it time out.
    Declined,
    /// The person could not be asked: the client declared no form elicitation.
    Unasked,
}

impl Cause {
    /// How the refusal's message opens for `tool`.
    #[must_use]
    pub fn opening(self, tool: &str) -> String {
        match self {
            Cause::Policy => format!("The application's policy refuses to run `{tool}`. "),
            Cause::Declined => format!("The user declined to run `{tool}`. "),
            Cause::Unasked => format!(
                "The user could not be asked whether to run `{tool}`: this MCP client declared no form elicitation"
            ),
        }
    }
}

/// A gated call refused for `cause`, as a client on `revision` gets it.
pub fn assert_gated_refusal(
    outcome: &Value,
    tool: &ToolSpec,
    cause: Cause,
    revision: &str,
    what: &str,
) {
    assert_refused_gated(outcome, tool.name, cause, revision, what);
}

/// [`assert_gated_refusal`] of a tool known by its name.
pub fn assert_refused_gated(outcome: &Value, tool: &str, cause: Cause, revision: &str, what: &str) {
    let rejection = rejected(outcome, revision, what);
    assert_eq!(
        rejection["error"], "PERMISSION_DENIED",
        "{what}: {rejection}"
    );
    assert_eq!(rejection["tool"], tool, "{what}: {rejection}");
    let message = rejection["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(&cause.opening(tool)),
        "{what}: {cause:?}: {message}"
    );
    assert!(
        message.ends_with(
            "Do not call it again for this request; ask the user how to proceed instead."
        ),
        "{what}: {message}"
    );
}

/// `initialize` and `tools/list` of a conformance report at `level`: the server's name,
/// and exactly the level's set, in catalog order, each entry as the row renders.
pub fn check_listing<C: CompiledCatalog<W>, const W: usize>(
    catalog: C,
    report: &Value,
    level: Access,
    server: &str,
) {
    let init = &report["initialize"];
    assert_eq!(init["serverName"], server, "{level}");
    assert_eq!(init["tools"], true, "{level}");
    check_listed_names(catalog, report, level);
    let entries = report["listed"].as_array().expect("a listing");
    for (entry, spec) in entries.iter().zip(C::specs(C::mcp_allowed(level))) {
        assert_eq!(entry["description"], spec.description, "{}", spec.name);
        let input: Value = serde_json::from_str(spec.mcp_schema()).expect("schemas are JSON");
        assert_eq!(entry["inputSchema"], input, "{}", spec.name);
        // MCP's outputSchema is an object schema: an array output is not listed.
        let object_output = spec
            .output_schema
            .map(|s| serde_json::from_str::<Value>(s).expect("schemas are JSON"))
            .filter(|s| s["type"] == "object");
        assert_eq!(
            entry["outputSchema"],
            object_output.unwrap_or(Value::Null),
            "{}",
            spec.name
        );
        // Each effect's hints as MCP defines them, written out apart from `Effect::hints`.
        let hints = match spec.effect {
            Some(Effect::Reads) => (json!(true), Value::Null, Value::Null),
            Some(Effect::Stages) => (json!(false), json!(false), json!(false)),
            Some(Effect::Acts) => (json!(false), json!(true), Value::Null),
            None => panic!("{} is listed but has no effect", spec.name),
        };
        assert_eq!(
            (
                entry["readOnlyHint"].clone(),
                entry["destructiveHint"].clone(),
                entry["openWorldHint"].clone()
            ),
            hints,
            "{}",
            spec.name
        );
    }
}

/// Every tool of the catalog, probed with arguments no tool takes by a client on
/// `revision`: the level's tools reach the argument check, the others are refused before
/// it, as `reach` says, with a JSON-RPC error on every revision.
pub fn check_probes<C: CompiledCatalog<W>, const W: usize>(
    _: C,
    report: &Value,
    level: Access,
    revision: &str,
) {
    for tool in C::specs(C::SETS.all) {
        let name = tool.name;
        let outcome = &report["probe"][name];
        let what = format!("{level}: probe of {name}");
        match tool.reach(Caller::Mcp(level), false) {
            Reach::Hidden => {
                let e = error(outcome, &what);
                assert_eq!(e["code"], -32602, "{what}");
                assert_eq!(e["message"], format!("Unknown tool: {name}"), "{what}");
                assert_eq!(e["data"]["tool"], Value::Null, "{what}");
            }
            Reach::Below(_) => assert_level_refusal(outcome, tool, level, &what),
            Reach::Allowed => {
                let rejection = rejected(outcome, revision, &what);
                assert_eq!(rejection["error"], "SCHEMA_RESOLUTION", "{what}");
                assert_eq!(rejection["tool"], name, "{what}");
                let message = rejection["message"].as_str().unwrap_or_default();
                assert!(
                    message.starts_with(&format!("Invalid arguments for `{name}`")),
                    "{what}: {message}"
                );
                let unknown = rejection["issues"]
                    .as_array()
                    .is_some_and(|issues| issues.iter().any(|i| i["path"] == "/catalogProbe"));
                assert!(unknown, "{what}: {rejection}");
            }
        }
    }
    let unknown = error(&report["probe"]["noSuchTool"], "noSuchTool");
    assert_eq!(unknown["code"], -32602);
    assert_eq!(unknown["message"], "Unknown tool: noSuchTool");
}

/// The call path of `tools`, in process and without a transport, probed at `level` on
/// protocol `revision` as `conformance.py --probe` probes a server, written as the same
/// report: its `listed` names and its `probe` outcomes (a result's text read as JSON), for
/// [`check_listed_names`] and [`check_probes`].
pub fn probe_in_process<C, H, const W: usize>(
    tools: &Tools<C, H, W>,
    level: Access,
    revision: &ProtocolVersion,
) -> Value
where
    C: CompiledCatalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: Display,
{
    let names = C::specs(C::SETS.all).map(|spec| spec.name);
    let probe: Map<String, Value> = names
        .chain(["noSuchTool"])
        .map(|name| {
            let probe = json!({"catalogProbe": true});
            let called = tools.call(level, revision, name, probe, &NoAsker, Arc::new(NoPeer));
            let outcome = match super::block_on(called) {
                Err(e) => {
                    json!({"error": {"code": e.code.0, "message": e.message, "data": e.data}})
                }
                Ok(response) => {
                    let CallToolResponse::Complete(result) = response else {
                        panic!("{name}: a probe was answered with a question");
                    };
                    let text = result.content.first().and_then(|c| c.as_text());
                    let content = text.map_or(Value::Null, |t| {
                        serde_json::from_str(&t.text).unwrap_or_else(|_| json!(t.text))
                    });
                    json!({"isError": result.is_error, "content": content})
                }
            };
            (name.to_owned(), outcome)
        })
        .collect();
    let listed: Vec<Value> = tools
        .list(level)
        .iter()
        .map(|t| json!({"name": t.name}))
        .collect();
    json!({"listed": listed, "probe": probe})
}

/// The names a report lists at `level`: exactly the level's set, in catalog order.
pub fn check_listed_names<C: CompiledCatalog<W>, const W: usize>(
    _: C,
    report: &Value,
    level: Access,
) {
    let listed: Vec<&str> = report["listed"]
        .as_array()
        .expect("a listing")
        .iter()
        .map(|t| t["name"].as_str().unwrap_or_default())
        .collect();
    let allowed: Vec<&str> = C::specs(C::mcp_allowed(level))
        .map(|spec| spec.name)
        .collect();
    assert_eq!(listed, allowed, "{level}: tools/list");
}
