//! Rows whose arguments are verified JSON (`arguments = "json"`) beside typed rows: a JSON
//! row has its `Tool` variant, spec, sets and verification, and its verified call reaches
//! the handler's one `call_json` method with exactly the arguments the verifier checked.

use std::sync::Mutex;

use catalog_core::{AllowAll, Context, Dispatch, ErrorClass, Map, Output, Value, Verified, Via};
use serde_json::json;

catalog_macros::catalog!("fixtures/mixed.toml");

/// What reached the handler: the typed calls by name, the JSON calls with their arguments.
#[derive(Default)]
struct Recorder {
    typed: Mutex<Vec<&'static str>>,
    json: Mutex<Vec<(Tool, Map<String, Value>)>>,
}

impl Handler for Recorder {
    type Error = String;

    async fn ask(&self, _: Context, _: AskArgs) -> Result<Output, String> {
        self.typed.lock().unwrap().push("ask");
        Ok(Value::Null.into())
    }

    async fn export_csv(&self, _: Context, args: ExportCsvArgs) -> Result<Output, String> {
        self.typed.lock().unwrap().push("exportCsv");
        Ok(json!({ "table": args.table }).into())
    }

    async fn call_json(
        &self,
        _: Context,
        tool: Tool,
        arguments: Map<String, Value>,
    ) -> Result<Output, String> {
        self.json.lock().unwrap().push((tool, arguments));
        Ok(json!({ "ran": tool.name() }).into())
    }
}

/// Verifies a call as an MCP client with full access would send it, approves a gated one,
/// and runs it.
fn call(recorder: &Recorder, name: &str, arguments: Value) -> Result<Value, ErrorClass> {
    let call = match Catalog::verify(
        Via::Mcp(catalog_core::Access::FullAccess, &Catalog),
        name,
        arguments,
        &mut AllowAll,
    ) {
        Ok(Verified::Run(call)) => call,
        Ok(Verified::Ask(pending)) => pending.approve(),
        Err(rejection) => return Err(rejection.class),
    };
    match pollster::block_on(call.run(recorder)) {
        Dispatch::Ran(result) => Ok(result.unwrap().into_model_value().unwrap()),
        Dispatch::Search(_) => panic!("not a search"),
    }
}

#[test]
fn a_json_row_reaches_call_json_with_exactly_the_verified_arguments() {
    let recorder = Recorder::default();
    let arguments = json!({"repo": "octo/hello", "title": "Crash on start", "labels": ["bug"]});
    assert_eq!(
        call(&recorder, "github.create_issue", arguments.clone()),
        Ok(json!({"ran": "github.create_issue"}))
    );
    let got = recorder.json.lock().unwrap().clone();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].0, Tool::GithubCreateIssue);
    assert_eq!(Value::Object(got[0].1.clone()), arguments);
    // Typed parameters declared in the row are verified the same way, and reach
    // `call_json` as sent: defaults are the schema's business, not filled in.
    call(
        &recorder,
        "get_current_time",
        json!({"timezone": "Europe/Paris"}),
    )
    .unwrap();
    let got = recorder.json.lock().unwrap().clone();
    assert_eq!(got[1].0, Tool::GetCurrentTime);
    assert_eq!(
        Value::Object(got[1].1.clone()),
        json!({"timezone": "Europe/Paris"})
    );
    // `null` is no arguments.
    assert!(call(&recorder, "get_current_time", Value::Null).is_err());
}

#[test]
fn a_json_row_refuses_bad_arguments_before_anything_runs() {
    let recorder = Recorder::default();
    for bad in [
        json!({"repo": "octo/hello"}),
        json!({"repo": "octo/hello", "title": 3}),
        json!({"repo": "octo/hello", "title": "x", "assignee": "me"}),
        json!({"timezone": "UTC", "format": "rfc"}),
        json!(["not", "an", "object"]),
    ] {
        let tool = if bad.get("timezone").is_some() {
            "get_current_time"
        } else {
            "github.create_issue"
        };
        let refused = call(&recorder, tool, bad.clone());
        assert!(
            matches!(
                refused,
                Err(ErrorClass::SchemaResolution | ErrorClass::ConstraintViolation)
            ),
            "{bad}: {refused:?}"
        );
    }
    assert!(recorder.json.lock().unwrap().is_empty());
}

#[test]
fn typed_rows_beside_json_rows_keep_their_types_and_methods() {
    let recorder = Recorder::default();
    assert_eq!(
        call(&recorder, "exportCsv", json!({"table": "orders"})),
        Ok(json!({"table": "orders"}))
    );
    assert_eq!(*recorder.typed.lock().unwrap(), ["exportCsv"]);
    // The JSON rows are in every derived set like any row.
    assert!(Catalog::DISCOVERABLE.contains(Tool::GithubCreateIssue));
    assert!(Catalog::GATED.contains(Tool::GithubCreateIssue));
    assert!(Catalog::INLINE.contains(Tool::GetCurrentTime));
    let parsed =
        ToolCall::parse("github.create_issue", json!({"repo": "a", "title": "b"})).unwrap();
    assert_eq!(parsed.tool(), Tool::GithubCreateIssue);
    assert!(matches!(
        parsed,
        ToolCall::Json {
            tool: Tool::GithubCreateIssue,
            ..
        }
    ));
}
