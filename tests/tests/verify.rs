//! The verifier on the tables catalog (`tests/data/tables.toml`): typed calls, one realistic rejection of each class,
//! the MCP level matrix, the permission hook, and a property test over arbitrary JSON.

use std::cell::Cell;

use catalog_core::shape::Shape;
use catalog_core::{
    Access, AllowAll, Caller, Decision, DenyAll, Discovery, ErrorClass, Info, Map, Rejection,
    Value, Verified, Via, check_output, check_value, verify,
};
use catalog_tests::tables::{Catalog, Tool, ToolCall};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::json;

/// A conversation in which every tool is active, so chat calls reach the argument check.
fn everything_active() -> Discovery<'static, Tool, 1> {
    Discovery::new(Info {
        inline: Catalog::ALL,
        ..Catalog::INFO
    })
}

fn chat(name: &str, arguments: Value) -> Result<Verified<'static, ToolCall>, Rejection> {
    verify(
        Via::Chat(&Catalog::discovery()),
        name,
        arguments,
        &mut AllowAll,
    )
}

fn mcp(
    level: Access,
    name: &str,
    arguments: Value,
    permission: &mut impl catalog_core::Permission<Tool>,
) -> Result<Verified<'static, ToolCall>, Rejection> {
    verify::<ToolCall, 1>(Via::Mcp(level, &Catalog), name, arguments, permission)
}

/// The smallest value that fits a shape: required properties only, lowest bounds, first
/// enum value, first branch.
fn minimal(shape: &Shape) -> Value {
    match shape {
        Shape::Any => json!({}),
        Shape::Null => Value::Null,
        Shape::Boolean => json!(false),
        // Whole bounds, so `2.0` and `2` are the same integer to the verifier.
        Shape::Integer(b) | Shape::Int64(b) | Shape::Number(b) => json!(b.minimum.unwrap_or(0.0)),
        Shape::String { values } => json!(values.first().copied().unwrap_or("x")),
        Shape::Array(_) => json!([]),
        Shape::Object(o) => Value::Object(
            o.properties
                .iter()
                .filter(|p| p.required)
                .map(|p| (p.name.to_string(), minimal(&p.shape)))
                .collect(),
        ),
        Shape::Either(branches) => branches.first().map_or(Value::Null, minimal),
        // The tables catalog's typed rows have none of these.
        _ => unreachable!("{shape:?}"),
    }
}

#[test]
fn a_valid_call_parses_into_the_typed_call() {
    let verified = chat(
        "queryRows",
        json!({"table": "customers", "limit": 10.0, "sort": [{"column": "name", "direction": "desc"}]}),
    )
    .unwrap();
    let Verified::Run(call) = verified else {
        panic!("expected a queryRows call to run: {verified:?}");
    };
    let ToolCall::QueryRows(args) = call.into_call() else {
        panic!("expected a queryRows call");
    };
    assert_eq!(args.table, "customers");
    assert_eq!(args.limit, 10, "a whole float is an integer");
    assert_eq!(args.offset, 0, "the default fills in");
    assert_eq!(args.sort.map(|s| s.len()), Some(1));

    // `null` arguments are `{}`.
    let time = mcp(
        Access::ReadOnly,
        "getCurrentTime",
        Value::Null,
        &mut DenyAll,
    )
    .unwrap();
    assert_eq!(time.call().tool(), Tool::GetCurrentTime);
}

#[test]
fn a_tool_outside_the_active_set_gets_the_discovery_message() {
    let rejection = chat("exportCsv", json!({"table": "orders"})).unwrap_err();
    assert_eq!(
        rejection.to_json(),
        r#"{"error":"SCHEMA_RESOLUTION","tool":"exportCsv","message":"Model tried to call unavailable tool 'exportCsv'. Available tools: searchTools, ask, getCurrentTime, listAttachments, readAttachment, openTable, proposeOpenTable, listTables, describeTable, queryRows, proposeJoinView, stageItem, bulkEdit.","issues":[]}"#
    );
    assert_eq!(rejection.mcp_code(), Some(-32602));
    assert_eq!(
        chat("frobnicate", json!({})).unwrap_err().tool,
        None,
        "no such tool"
    );
}

#[test]
fn a_wrong_type_is_a_schema_resolution_error() {
    let rejection = chat("queryRows", json!({"table": "customers", "limit": "5"})).unwrap_err();
    assert_eq!(
        rejection.to_json(),
        r#"{"error":"SCHEMA_RESOLUTION","tool":"queryRows","message":"Invalid arguments for `queryRows`: `/limit`: expected an integer, got the string \"5\". Correct the arguments as the tool's input schema says and call `queryRows` again.","issues":[{"path":"/limit","class":"SCHEMA_RESOLUTION","message":"`/limit`: expected an integer, got the string \"5\""}]}"#
    );
}

#[test]
fn a_misspelt_parameter_is_reported_with_the_missing_one_it_stands_for() {
    let rejection = chat(
        "queryRows",
        json!({"tabel": "customers", "filter": {"conditions": [{"column": "city", "op": "equals", "value": "Berlin"}]}}),
    )
    .unwrap_err();
    assert_eq!(
        rejection.to_json(),
        r#"{"error":"SCHEMA_RESOLUTION","tool":"queryRows","message":"Invalid arguments for `queryRows`: 3 issues, listed in `issues`. Correct all of them as the tool's input schema says and call `queryRows` again.","issues":[{"path":"/table","class":"SCHEMA_RESOLUTION","message":"missing required parameter `table` (a string)"},{"path":"/filter/conditions/0/op","class":"CONSTRAINT_VIOLATION","message":"`/filter/conditions/0/op`: expected one of \"eq\", \"ne\", \"lt\", \"le\", \"gt\", \"ge\", \"contains\", \"startsWith\", \"in\", \"isNull\", \"notNull\", got the string \"equals\""},{"path":"/tabel","class":"SCHEMA_RESOLUTION","message":"unknown parameter `tabel` (did you mean `table`?); the parameters are `table`, `columns`, `filter`, `sort`, `limit`, `offset`"}]}"#
    );
}

#[test]
fn a_value_out_of_bounds_is_a_constraint_violation() {
    let rejection = chat(
        "describeTable",
        json!({"table": "orders", "sampleRows": 50}),
    )
    .unwrap_err();
    assert_eq!(
        rejection.to_json(),
        r#"{"error":"CONSTRAINT_VIOLATION","tool":"describeTable","message":"Invalid arguments for `describeTable`: `/sampleRows`: 50 is above the maximum 20. Correct the arguments as the tool's input schema says and call `describeTable` again.","issues":[{"path":"/sampleRows","class":"CONSTRAINT_VIOLATION","message":"`/sampleRows`: 50 is above the maximum 20"}]}"#
    );
    assert_eq!(rejection.mcp_code(), Some(Rejection::INVALID_PARAMS));

    // Integer parameters are `i64`: the check says so, with the place, before the parse could.
    let rejection = chat("queryRows", json!({"table": "x", "offset": u64::MAX})).unwrap_err();
    assert_eq!(
        rejection.to_json(),
        r#"{"error":"CONSTRAINT_VIOLATION","tool":"queryRows","message":"Invalid arguments for `queryRows`: `/offset`: 18446744073709551615 is outside the range of a 64-bit integer (-9223372036854775808 to 9223372036854775807). Correct the arguments as the tool's input schema says and call `queryRows` again.","issues":[{"path":"/offset","class":"CONSTRAINT_VIOLATION","message":"`/offset`: 18446744073709551615 is outside the range of a 64-bit integer (-9223372036854775808 to 9223372036854775807)"}]}"#
    );
}

#[test]
fn mcp_permission_errors_name_the_level_and_hide_excluded_tools() {
    let low = mcp(
        Access::ReadOnly,
        "stageItem",
        json!({"table": "orders"}),
        &mut AllowAll,
    )
    .unwrap_err();
    assert_eq!(
        low.to_json(),
        r#"{"error":"PERMISSION_DENIED","tool":"stageItem","message":"`stageItem` needs the read-and-stage access level; this connection has read-only. Use the tools this level allows, or ask the user to connect at read-and-stage.","issues":[]}"#
    );
    assert_eq!(low.mcp_code(), Some(-32602));

    let hidden = mcp(Access::FullAccess, "ask", json!({}), &mut AllowAll).unwrap_err();
    assert_eq!(
        hidden.to_json(),
        r#"{"error":"SCHEMA_RESOLUTION","tool":null,"message":"Unknown tool: ask","issues":[]}"#
    );
    let unknown = mcp(Access::FullAccess, "askk", json!({}), &mut AllowAll).unwrap_err();
    assert_eq!(unknown.message, "Unknown tool: askk");
}

#[test]
fn a_refused_gated_call_is_permission_denied() {
    let denied = mcp(
        Access::FullAccess,
        "dropTable",
        json!({"table": "orders"}),
        &mut DenyAll,
    )
    .unwrap_err();
    assert_eq!(
        denied.to_json(),
        r#"{"error":"PERMISSION_DENIED","tool":"dropTable","message":"The user or the application's policy refused to run `dropTable`. Do not call it again for this request; ask the user how to proceed instead.","issues":[]}"#
    );
    assert_eq!(denied, Rejection::denied(Tool::DropTable.name()));

    // The chat agent has a tool to ask the user with; the refusal names it.
    let in_chat = verify::<ToolCall, 1>(
        Via::Chat(&everything_active()),
        "dropTable",
        json!({"table": "orders"}),
        &mut DenyAll,
    )
    .unwrap_err();
    assert_eq!(
        in_chat.message,
        "The user or the application's policy refused to run `dropTable`. Do not call it again for this request; call `ask` to ask the user how to proceed instead."
    );
}

#[test]
fn a_result_that_breaks_the_declared_output_is_a_runtime_error() {
    assert_eq!(
        check_output(
            Tool::QueryRows.spec(),
            &json!({"rows": [{"id": 1}], "totalMatching": 1, "hasMore": false})
        ),
        Ok(())
    );
    let broken = check_output(
        Tool::QueryRows.spec(),
        &json!({"rows": [{"id": 1}], "totalMatching": "1"}),
    )
    .unwrap_err();
    assert_eq!(
        broken.to_json(),
        r#"{"error":"RUNTIME_ERROR","tool":"queryRows","message":"`queryRows` returned a result that breaks its declared output: 2 issues, listed in `issues`. This is a fault of the application, not of the call; do not retry it unchanged.","issues":[{"path":"/totalMatching","class":"SCHEMA_RESOLUTION","message":"`/totalMatching`: expected an integer, got the string \"1\""},{"path":"/hasMore","class":"SCHEMA_RESOLUTION","message":"missing required property `hasMore` (a boolean)"}]}"#
    );
    assert_eq!(broken.mcp_code(), None);
    // No declared output: anything goes.
    assert_eq!(
        check_output(Tool::DescribeTable.spec(), &json!("text")),
        Ok(())
    );

    let failed = Rejection::runtime(Tool::DescribeTable.name(), "no table named `ordres`");
    assert_eq!(
        failed.to_json(),
        r#"{"error":"RUNTIME_ERROR","tool":"describeTable","message":"`describeTable` failed: no table named `ordres`","issues":[]}"#
    );
    assert_eq!(failed.class, ErrorClass::RuntimeError);
}

#[test]
fn mcp_allows_a_tool_exactly_when_it_is_exposed_and_within_the_level() {
    for tool in Tool::ALL {
        let spec = tool.spec();
        let arguments = minimal(&spec.input);
        for level in Access::ALL {
            // The rule as the README states it, written here on its own on purpose: this
            // test checks `catalog_core::reach` against it, not against itself.
            let allowed = spec.mcp && spec.access.is_some_and(|a| a <= level);
            let outcome = mcp(level, tool.name(), arguments.clone(), &mut AllowAll);
            assert_eq!(outcome.is_ok(), allowed, "{tool} at {level}: {outcome:?}");
            if let Err(rejection) = outcome {
                let class = if spec.mcp && spec.access.is_some() {
                    ErrorClass::PermissionDenied
                } else {
                    ErrorClass::SchemaResolution
                };
                assert_eq!(rejection.class, class, "{tool} at {level}");
            }
        }
    }
}

#[test]
fn gated_tools_reach_the_hook_from_chat_and_mcp_and_silent_ones_never() {
    let discovery = everything_active();
    let mut asked: Vec<(Caller, Tool)> = Vec::new();
    let mut hook = |caller: Caller, tool: Tool, _: &Value| {
        asked.push((caller, tool));
        Decision::Ask
    };
    let mut expected = Vec::new();
    for tool in Tool::ALL {
        let spec = tool.spec();
        let gated = spec.tier == Some(catalog_core::Tier::Gated);
        let arguments = minimal(&spec.input);
        let from_chat = verify::<ToolCall, 1>(
            Via::Chat(&discovery),
            tool.name(),
            arguments.clone(),
            &mut hook,
        )
        .unwrap_or_else(|r| panic!("{tool}: {r}"));
        assert_eq!(matches!(from_chat, Verified::Ask(_)), gated, "{tool}");
        assert_eq!(from_chat.call().tool(), tool);
        if gated {
            expected.push((Caller::Chat, tool));
        }
        if spec.mcp {
            let from_mcp = mcp(Access::FullAccess, tool.name(), arguments, &mut hook)
                .unwrap_or_else(|r| panic!("{tool}: {r}"));
            assert_eq!(matches!(from_mcp, Verified::Ask(_)), gated, "{tool}");
            if gated {
                expected.push((Caller::Mcp(Access::FullAccess), tool));
            }
        }
    }
    assert_eq!(asked, expected);
    assert_eq!(
        expected.len(),
        2 * Catalog::GATED.len(),
        "every gated tool is on MCP"
    );
}

// The property test: arbitrary JSON against every tool.

/// Every property name and enum value in a shape: keys and strings worth drawing so a
/// random value gets past the first level.
fn words(shape: &Shape<'static>, out: &mut Vec<&'static str>) {
    match shape {
        Shape::String { values } => out.extend_from_slice(values),
        Shape::Array(item) => words(item, out),
        Shape::Object(o) => {
            for p in o.properties {
                out.push(p.name);
                words(&p.shape, out);
            }
        }
        Shape::Either(branches) => branches.iter().for_each(|b| words(b, out)),
        _ => {}
    }
}

/// Any JSON value: numbers huge, negative, fractional and whole-as-float; strings and keys
/// partly from `words`.
fn any_json(words: Vec<&'static str>) -> BoxedStrategy<Value> {
    let words = if words.is_empty() { vec!["x"] } else { words };
    let string = prop_oneof![
        2 => proptest::sample::select(words.clone()).prop_map(str::to_string),
        1 => "[a-zA-Z_~/]{0,8}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..120).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        (-3i32..120).prop_map(|n| Value::from(f64::from(n))),
        (-300.0f64..300.0).prop_map(Value::from),
        string.clone().prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 48, 6, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            proptest::collection::vec((string.clone(), inner), 0..6)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>())),
        ]
    })
    .boxed()
}

/// Values built from the shape, each node now and then replaced by any JSON: mostly valid
/// calls with a mistake somewhere deep, so `Ok` is common and the walk reaches every level.
fn near(shape: &'static Shape, noise: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    let exact = match shape {
        Shape::Null => Just(Value::Null).boxed(),
        Shape::Boolean => any::<bool>().prop_map(Value::from).boxed(),
        Shape::Integer(b) | Shape::Int64(b) => {
            #[allow(
                clippy::cast_possible_truncation,
                reason = "the catalog's bounds are small"
            )]
            let (lo, hi) = (
                b.minimum.unwrap_or(-1000.0) as i64,
                b.maximum.unwrap_or(1000.0) as i64,
            );
            (lo..=hi.max(lo)).prop_map(Value::from).boxed()
        }
        Shape::Number(b) => {
            let lo = b.minimum.unwrap_or(-1000.0);
            let hi = b.maximum.unwrap_or(1000.0).max(lo);
            (lo..=hi).prop_map(Value::from).boxed()
        }
        Shape::String { values } if !values.is_empty() => proptest::sample::select(*values)
            .prop_map(Value::from)
            .boxed(),
        Shape::String { .. } => "[a-z]{0,6}".prop_map(Value::from).boxed(),
        Shape::Array(item) => proptest::collection::vec(near(item, noise.clone()), 0..4)
            .prop_map(Value::Array)
            .boxed(),
        Shape::Object(o) => {
            let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = o
                .properties
                .iter()
                .map(|p| {
                    let value =
                        near(&p.shape, noise.clone()).prop_map(move |v| (p.name.to_string(), v));
                    if p.required {
                        prop_oneof![19 => value.prop_map(Some), 1 => Just(None)].boxed()
                    } else {
                        proptest::option::of(value).boxed()
                    }
                })
                .collect();
            fields
                .prop_map(|fields| Value::Object(fields.into_iter().flatten().collect()))
                .boxed()
        }
        Shape::Either(branches) => {
            proptest::strategy::Union::new(branches.iter().map(|b| near(b, noise.clone()))).boxed()
        }
        // `Any`, and what the tables catalog's typed rows do not have.
        _ => noise.clone(),
    };
    prop_oneof![12 => exact, 1 => noise].boxed()
}

#[test]
fn verify_never_panics_and_accepts_exactly_what_the_check_passes() {
    // `Config::default()` reads `PROPTEST_CASES` (256 when unset): that many per tool.
    let config = Config {
        failure_persistence: None,
        ..Config::default()
    };
    let discovery = everything_active();
    // Counted across tools: inputs tried, and calls accepted.
    let (tried, accepted) = (Cell::new(0), Cell::new(0));
    for tool in Tool::ALL {
        let spec = tool.spec();
        let mut names = Vec::new();
        words(&spec.input, &mut names);
        let noise = any_json(names);
        let strategy = prop_oneof![3 => near(&spec.input, noise.clone()), 1 => noise];
        let mut runner = TestRunner::new(config.clone());
        let result = runner.run(&strategy, |arguments| {
            tried.set(tried.get() + 1);
            let mut gated = 0;
            let mut hook = |_: Caller, t: Tool, _: &Value| {
                gated += 1;
                assert_eq!(t, tool);
                Decision::Allow
            };
            let issues = check_value(
                &spec.input,
                &if arguments.is_null() {
                    json!({})
                } else {
                    arguments.clone()
                },
            );
            let from_chat = verify::<ToolCall, 1>(
                Via::Chat(&discovery),
                tool.name(),
                arguments.clone(),
                &mut hook,
            );
            let from_mcp = mcp(
                Access::FullAccess,
                tool.name(),
                arguments.clone(),
                &mut hook,
            );
            match &from_chat {
                Ok(verified) => {
                    prop_assert_eq!(verified.call().tool(), tool);
                    prop_assert!(issues.is_empty(), "accepted with issues: {:?}", issues);
                    accepted.set(accepted.get() + 1);
                }
                Err(rejection) => {
                    prop_assert_eq!(rejection.tool.as_deref(), Some(tool.name()));
                    let json: Value = serde_json::from_str(&rejection.to_json()).unwrap();
                    prop_assert_eq!(&json["error"], rejection.class.as_str());
                    // What the check passes, the typed call takes: no rejection comes
                    // from the parse alone.
                    prop_assert!(!issues.is_empty(), "{}", rejection);
                    prop_assert_eq!(&rejection.issues, &issues);
                }
            }
            if spec.mcp {
                prop_assert_eq!(
                    from_mcp.as_ref().ok().map(Verified::call),
                    from_chat.as_ref().ok().map(Verified::call)
                );
                prop_assert_eq!(from_mcp.as_ref().err(), from_chat.as_ref().err());
            } else {
                prop_assert!(from_mcp.is_err());
            }
            let runs = usize::from(from_chat.is_ok()) + usize::from(spec.mcp && from_mcp.is_ok());
            let gated_tool = spec.tier == Some(catalog_core::Tier::Gated);
            prop_assert_eq!(gated, if gated_tool { runs } else { 0 });
            Ok(())
        });
        if let Err(failure) = result {
            panic!("{tool}: {failure}");
        }
    }
    let (tried, accepted) = (tried.get(), accepted.get());
    eprintln!(
        "verify property test: {tried} inputs over {} tools, {accepted} accepted, the rest rejected",
        Tool::COUNT
    );
    assert!(accepted > tried / 10, "too few valid inputs to mean much");
}
