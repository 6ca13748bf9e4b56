//! The verifier on hand-written shapes and a five-tool catalog.
//! Over 600 lines: a list of independent cases sharing the catalog at the top; read one
//! test at a time.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use alloc::{format, vec};

use serde_json::json;

use super::*;
use crate::search::{Index, Language};
use crate::shape::{Bounds, Object, Property, Shape};
use crate::{Effect, Info, Retention, Settings, ToolRow, ToolSet, ToolSpec, Visibility};

const VIEWS: Shape = Shape::String {
    values: &["grid", "form"],
};
const LIMIT: Shape = Shape::Int64(Bounds {
    minimum: Some(1.0),
    maximum: Some(100.0),
    ..Bounds::NONE
});
const TEXT: Shape = Shape::String { values: &[] };

static OPEN_INPUT: Shape = Shape::Object(Object {
    properties: &[
        Property {
            name: "table",
            required: true,
            shape: TEXT,
        },
        Property {
            name: "view",
            required: false,
            shape: VIEWS,
        },
        Property {
            name: "limit",
            required: false,
            shape: LIMIT,
        },
    ],
    closed: true,
    others: None,
});

static ROW: Shape = Shape::Object(Object {
    properties: &[Property {
        name: "name",
        required: true,
        shape: TEXT,
    }],
    closed: false,
    others: None,
});
static ROWS: Shape = Shape::Object(Object {
    properties: &[Property {
        name: "rows",
        required: true,
        shape: Shape::Array(&ROW),
    }],
    closed: false,
    others: None,
});

/// A self-referential shape: only the depth cap ends a walk through it.
static DEEP: Shape = Shape::Array(&DEEP);

static NOTHING: Shape = Shape::Object(Object {
    properties: &[],
    closed: true,
    others: None,
});

fn issue(path: &str, class: ErrorClass, message: &str) -> Issue {
    Issue {
        path: String::from(path),
        class,
        message: String::from(message),
    }
}

use ErrorClass::{ConstraintViolation as Constraint, SchemaResolution as Schema};

#[test]
fn a_valid_value_has_no_issue() {
    assert_eq!(check_value(&OPEN_INPUT, &json!({"table": "t"})), []);
    assert_eq!(
        check_value(
            &OPEN_INPUT,
            &json!({"table": "t", "view": "form", "limit": 100})
        ),
        []
    );
    assert_eq!(check_value(&Shape::Any, &json!([1, {"a": null}])), []);
}

#[test]
fn a_wrong_type_names_the_place_and_both_types() {
    assert_eq!(
        check_value(&OPEN_INPUT, &json!({"table": "t", "limit": "5"})),
        [issue(
            "/limit",
            Schema,
            "`/limit`: expected an integer, got the string \"5\""
        )]
    );
    assert_eq!(
        check_value(&OPEN_INPUT, &json!([])),
        [issue(
            "",
            Schema,
            "the arguments: expected an object, got an array"
        )]
    );
}

#[test]
fn a_missing_parameter_is_named_with_its_type() {
    assert_eq!(
        check_value(&OPEN_INPUT, &json!({})),
        [issue(
            "/table",
            Schema,
            "missing required parameter `table` (a string)"
        )]
    );
    assert_eq!(
        check_value(&ROWS, &json!({"rows": [{"name": "a"}, {}]})),
        [issue(
            "/rows/1/name",
            Schema,
            "`/rows/1`: missing required property `name` (a string)"
        )]
    );
}

#[test]
fn an_unknown_parameter_gets_the_nearest_name_and_the_list() {
    assert_eq!(
        check_value(&OPEN_INPUT, &json!({"table": "t", "Limt": 3})),
        [issue(
            "/Limt",
            Schema,
            "unknown parameter `Limt` (did you mean `limit`?); the parameters are `table`, `view`, `limit`"
        )]
    );
    assert_eq!(
        check_value(&OPEN_INPUT, &json!({"table": "t", "columns": 3})),
        [issue(
            "/columns",
            Schema,
            "unknown parameter `columns`; the parameters are `table`, `view`, `limit`"
        )]
    );
    assert_eq!(
        check_value(&NOTHING, &json!({"a/b~": 1})),
        [issue(
            "/a~1b~0",
            Schema,
            "unknown parameter `a/b~`; there are no parameters"
        )]
    );
    // Open objects take anything beside their declared properties.
    assert_eq!(check_value(&ROW, &json!({"name": "a", "other": 1})), []);
}

#[test]
fn enums_and_bounds_are_constraint_violations() {
    assert_eq!(
        check_value(&OPEN_INPUT, &json!({"table": "t", "view": "list"})),
        [issue(
            "/view",
            Constraint,
            "`/view`: expected one of \"grid\", \"form\", got the string \"list\""
        )]
    );
    assert_eq!(
        check_value(&OPEN_INPUT, &json!({"table": "t", "view": 3})),
        [issue(
            "/view",
            Schema,
            "`/view`: expected one of \"grid\", \"form\", got the number 3"
        )]
    );
    assert_eq!(
        check_value(&LIMIT, &json!(0)),
        [issue(
            "",
            Constraint,
            "the arguments: 0 is below the minimum 1"
        )]
    );
    assert_eq!(
        check_value(&LIMIT, &json!(100.5e1)),
        [issue(
            "",
            Constraint,
            "the arguments: 1005.0 is above the maximum 100"
        )]
    );
    let fraction = Shape::Number(Bounds {
        minimum: Some(0.5),
        maximum: None,
        ..Bounds::NONE
    });
    assert_eq!(
        check_value(&fraction, &json!(-3)),
        [issue(
            "",
            Constraint,
            "the arguments: -3 is below the minimum 0.5"
        )]
    );
}

#[test]
fn integers_take_whole_floats_only() {
    assert_eq!(check_value(&LIMIT, &json!(2.0)), []);
    assert_eq!(
        check_value(&LIMIT, &json!(2.5)),
        [issue(
            "",
            Schema,
            "the arguments: expected an integer, got the number 2.5"
        )]
    );
    // Whole, but past what the typed call's `i64` holds.
    let any_integer = Shape::Int64(Bounds::default());
    assert_eq!(check_value(&any_integer, &json!(i64::MIN)), []);
    assert_eq!(check_value(&any_integer, &json!(-9.2e18)), []);
    assert_eq!(
        check_value(&any_integer, &json!(u64::MAX)),
        [issue(
            "",
            Constraint,
            "the arguments: 18446744073709551615 is outside the range of a 64-bit integer (-9223372036854775808 to 9223372036854775807)"
        )]
    );
    assert_eq!(
        check_value(&any_integer, &json!(1e300))[0].class,
        Constraint
    );
    assert_eq!(
        check_value(&LIMIT, &json!(1e300)),
        [issue(
            "",
            Constraint,
            "the arguments: 1e+300 is above the maximum 100"
        )],
        "a broken bound is the one issue"
    );
}

#[test]
fn every_issue_is_reported_together() {
    let issues = check_value(
        &OPEN_INPUT,
        &json!({"view": "list", "limit": "x", "extra": true}),
    );
    assert_eq!(
        issues,
        [
            issue(
                "/table",
                Schema,
                "missing required parameter `table` (a string)"
            ),
            issue(
                "/view",
                Constraint,
                "`/view`: expected one of \"grid\", \"form\", got the string \"list\""
            ),
            issue(
                "/limit",
                Schema,
                "`/limit`: expected an integer, got the string \"x\""
            ),
            issue(
                "/extra",
                Schema,
                "unknown parameter `extra`; the parameters are `table`, `view`, `limit`"
            ),
        ]
    );
}

#[test]
fn either_passes_on_any_branch_and_names_the_accepted_types() {
    static NULLABLE: Shape = Shape::Either(&[TEXT, Shape::Null]);
    static NULLABLE_VIEW: Shape = Shape::Either(&[VIEWS, Shape::Null]);
    static TWO: Shape = Shape::Either(&[
        Shape::Object(Object {
            properties: &[Property {
                name: "a",
                required: true,
                shape: TEXT,
            }],
            closed: true,
            others: None,
        }),
        Shape::Object(Object {
            properties: &[Property {
                name: "b",
                required: true,
                shape: TEXT,
            }],
            closed: false,
            others: None,
        }),
        Shape::Either(&[Shape::Boolean, Shape::Null]),
    ]);
    assert_eq!(check_value(&NULLABLE, &json!(null)), []);
    assert_eq!(check_value(&NULLABLE, &json!("x")), []);
    assert_eq!(
        check_value(&NULLABLE, &json!(5)),
        [issue(
            "",
            Schema,
            "the arguments: expected a string or null, got the number 5"
        )]
    );
    // Only the enum branch is a string: its own issue says what to send.
    assert_eq!(
        check_value(&NULLABLE_VIEW, &json!("list")),
        [issue(
            "",
            Constraint,
            "the arguments: expected one of \"grid\", \"form\", got the string \"list\""
        )]
    );
    assert_eq!(check_value(&TWO, &json!({"b": "x", "c": 1})), []);
    assert_eq!(check_value(&TWO, &json!(false)), []);
    assert_eq!(
        check_value(&TWO, &json!({"c": 1})),
        [issue(
            "",
            Schema,
            "the arguments: an object fits none of the accepted shapes (an object, a boolean or null); the closest says: missing required parameter `b` (a string)"
        )]
    );
}

#[test]
fn issues_stop_at_the_cap_and_the_rest_are_counted() {
    static STRINGS: Shape = Shape::Array(&TEXT);
    static LIMITS: Shape = Shape::Array(&LIMIT);
    let items: Vec<Value> = (0..1000).map(Value::from).collect();
    let issues = check_value(&STRINGS, &Value::Array(items));
    assert_eq!(issues.len(), MAX_CHECK_ISSUES + 1);
    assert_eq!(
        issues[MAX_CHECK_ISSUES - 1],
        issue("/31", Schema, "`/31`: expected a string, got the number 31")
    );
    assert_eq!(
        issues[MAX_CHECK_ISSUES],
        issue("", Schema, "and 968 more issues")
    );

    // Past the cap, a class still counts: constraints only stay constraints.
    let issues = check_value(&LIMITS, &Value::Array(vec![json!(0); 40]));
    assert_eq!(issues.len(), MAX_CHECK_ISSUES + 1);
    assert!(issues.iter().all(|i| i.class == Constraint));
}

#[test]
fn the_walk_stops_at_the_depth_cap() {
    let mut value = json!([]);
    for _ in 0..1000 {
        value = json!([value]);
    }
    let issues = check_value(&DEEP, &value);
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].class, Schema);
    assert_eq!(
        issues[0].path.matches("/0").count(),
        MAX_CHECK_DEPTH + 1,
        "{issues:?}"
    );
    assert!(
        issues[0]
            .message
            .ends_with("nested more than 64 levels deep, which is more than the verifier reads"),
        "{issues:?}"
    );
    // Deeper than the shape is not walked at all.
    assert_eq!(check_value(&Shape::Array(&Shape::Any), &value), []);
}

#[test]
fn long_strings_and_keys_are_cut_in_messages_not_in_pointers() {
    let long = "x".repeat(1000);
    let issues = check_value(&LIMIT, &Value::String(long.clone()));
    assert_eq!(
        issues[0].message,
        format!(
            "the arguments: expected an integer, got the string \"{}\"…",
            "x".repeat(40)
        )
    );
    let mut map = Map::new();
    map.insert(long.clone(), json!(1));
    let issues = check_value(&NOTHING, &Value::Object(map));
    assert_eq!(issues[0].path, format!("/{long}"));
    assert_eq!(
        issues[0].message,
        format!(
            "unknown parameter `{}…`; there are no parameters",
            "x".repeat(40)
        )
    );
}

// A five-tool catalog: the search tool, a silent read, a gated write found by search, a
// tool kept from MCP, and a gated staging tool with a declared output.

const fn spec(
    name: &'static str,
    visibility: Visibility,
    tier: Option<Tier>,
    access: Option<Access>,
    mcp: bool,
    input: Shape<'static>,
    output: Option<Shape<'static>>,
) -> ToolSpec<'static> {
    ToolSpec {
        name,
        description: "",
        keywords: &[],
        examples: &[],
        visibility,
        effect: match access {
            None => None,
            Some(Access::ReadOnly) => Some(Effect::Reads),
            Some(Access::ReadAndStage) => Some(Effect::Stages),
            Some(Access::FullAccess) => Some(Effect::Acts),
        },
        tier,
        access,
        mcp,
        task: None,
        wire_name: name,
        input_schema: "{}",
        gemini_parameters: None,
        mcp_input_schema: None,
        input,
        strict: false,
        output_schema: None,
        output,
    }
}

static SPECS: [ToolSpec; 6] = [
    spec(
        "search",
        Visibility::Inline,
        None,
        None,
        false,
        Shape::Any,
        None,
    ),
    spec(
        "openTable",
        Visibility::Inline,
        Some(Tier::Silent),
        Some(Access::ReadOnly),
        true,
        OPEN_INPUT,
        None,
    ),
    spec(
        "dropTable",
        Visibility::Discoverable,
        Some(Tier::Gated),
        Some(Access::FullAccess),
        true,
        OPEN_INPUT,
        None,
    ),
    spec(
        "secret",
        Visibility::Inline,
        Some(Tier::Silent),
        Some(Access::ReadOnly),
        false,
        NOTHING,
        None,
    ),
    spec(
        "stage",
        Visibility::Inline,
        Some(Tier::Gated),
        Some(Access::ReadAndStage),
        true,
        NOTHING,
        Some(Shape::Object(Object {
            properties: &[Property {
                name: "rowCount",
                required: true,
                shape: Shape::Int64(Bounds {
                    minimum: Some(0.0),
                    maximum: None,
                    ..Bounds::NONE
                }),
            }],
            closed: false,
            others: None,
        })),
    ),
    spec(
        "raw",
        Visibility::Inline,
        Some(Tier::Silent),
        Some(Access::ReadOnly),
        true,
        Shape::Any,
        None,
    ),
];

/// The fixture rows' tools.
type T = ToolRow;

/// The fixture rows as a catalog.
struct Fixture;

impl Lookup<T> for Fixture {
    fn len(&self) -> usize {
        SPECS.len()
    }
    fn spec(&self, tool: T) -> &ToolSpec<'_> {
        &SPECS[tool.index()]
    }
    fn find(&self, name: &str) -> Option<T> {
        let i = SPECS.iter().position(|s| s.name == name)?;
        T::from_index(i)
    }
}

const SEARCH: T = T::new(0);
const OPEN: T = T::new(1);
const DROP: T = T::new(2);
const STAGE: T = T::new(4);

/// The typed call: the tool and its arguments; `raw` takes objects only, so a check that
/// passes everything still leaves a parse error to report.
#[derive(Debug, PartialEq)]
struct TestCall(T, Value);

impl Call for TestCall {
    type Tool = T;
    fn from_checked(tool: T, arguments: Value) -> Result<Self, String> {
        if Fixture.name(tool) == "raw" {
            crate::__private::arguments::<crate::Map<String, Value>>(arguments.clone())?;
        }
        Ok(TestCall(tool, arguments))
    }
    fn tool(&self) -> T {
        self.0
    }
}

fn discovery() -> Discovery<'static, T, 1> {
    let inline: ToolSet<T, 1> = [T::new(0), T::new(1), T::new(3), T::new(4), T::new(5)]
        .into_iter()
        .collect();
    Discovery::new(Info {
        tools: &Fixture,
        inline,
        discoverable: [DROP].into_iter().collect(),
        search_tool: SEARCH,
        ask_tool: T::new(3),
        settings: Settings {
            search_results: 5,
            searches_per_turn: 3,
            search_tool: "search",
            ask_tool: "secret",
            keep_discovered: Retention::Conversation,
            language: Language::English,
            scan_results: crate::ScanResults::Warn,
            scan_threshold: None,
        },
        index: Index {
            slots: &[0; 8],
            postings: &[],
            name_rank: &[0, 1, 2, 3, 4, 5],
            withheld: &[],
            language: Language::English,
        },
    })
}

fn chat(name: &str, arguments: Value) -> Result<Verified<'static, TestCall>, Rejection> {
    verify(Via::Chat(&discovery()), name, arguments, &mut AllowAll)
}

fn mcp(
    level: Access,
    name: &str,
    arguments: Value,
) -> Result<Verified<'static, TestCall>, Rejection> {
    verify::<TestCall, 1>(Via::Mcp(level, &Fixture), name, arguments, &mut AllowAll)
}

#[test]
fn a_valid_call_becomes_the_typed_call() {
    assert_eq!(
        chat("openTable", json!({"table": "t"})),
        Ok(Verified::Run(VerifiedCall {
            call: TestCall(OPEN, json!({"table": "t"})),
            caller: Caller::Chat,
            spec: Fixture.spec(OPEN),
        }))
    );
    // A whole float reaches the typed call as an integer.
    let Ok(verified) = chat("openTable", json!({"table": "t", "limit": 3.0})) else {
        panic!("3.0 is a whole number");
    };
    assert!(verified.call().1["limit"].is_i64(), "{verified:?}");
    // `null` arguments are `{}`.
    assert_eq!(
        mcp(Access::FullAccess, "stage", Value::Null)
            .as_ref()
            .map(Verified::call),
        Ok(&TestCall(STAGE, json!({})))
    );
}

#[test]
fn chat_calls_outside_the_active_set_get_the_discovery_message() {
    let unknown = chat("nope", json!({})).unwrap_err();
    let message = "Model tried to call unavailable tool 'nope'. Available tools: search, openTable, secret, stage, raw.";
    assert_eq!(
        unknown,
        Rejection {
            class: Schema,
            tool: None,
            message: String::from(message),
            issues: vec![],
        }
    );
    assert_eq!(unknown.mcp_code(), Some(-32602));
    let hidden = chat("dropTable", json!({})).unwrap_err();
    assert_eq!(hidden.tool.as_deref(), Some("dropTable"));
    assert_eq!(hidden.message, message.replace("nope", "dropTable"));
    // Chat may call what MCP may not.
    assert!(chat("secret", json!({})).is_ok());
}

#[test]
fn mcp_hides_excluded_tools_and_names_the_missing_level() {
    for name in ["nope", "secret", "search"] {
        assert_eq!(
            mcp(Access::FullAccess, name, json!({})).unwrap_err(),
            Rejection {
                class: Schema,
                tool: None,
                message: format!("Unknown tool: {name}"),
                issues: vec![],
            }
        );
    }
    let low = mcp(Access::ReadOnly, "stage", json!({})).unwrap_err();
    assert_eq!(low.class, ErrorClass::PermissionDenied);
    assert_eq!(
        low.message,
        "`stage` needs the read-and-stage access level; this connection has read-only. Use the tools this level allows, or ask the user to connect at read-and-stage."
    );
    assert_eq!(low.mcp_code(), Some(Rejection::INVALID_PARAMS));
    assert!(mcp(Access::ReadAndStage, "stage", json!({})).is_ok());
    assert!(mcp(Access::ReadAndStage, "dropTable", json!({"table": "t"})).is_err());
    assert!(mcp(Access::FullAccess, "dropTable", json!({"table": "t"})).is_ok());
}

#[test]
fn the_rejection_json_has_a_fixed_key_order() {
    let rejection = chat("openTable", json!({"view": "list", "limit": 0})).unwrap_err();
    assert_eq!(
        rejection.class, Schema,
        "a missing parameter is not a constraint"
    );
    assert_eq!(
        rejection.to_json(),
        r#"{"error":"SCHEMA_RESOLUTION","tool":"openTable","message":"Invalid arguments for `openTable`: 3 issues, listed in `issues`. Correct all of them as the tool's input schema says and call `openTable` again.","issues":[{"path":"/table","class":"SCHEMA_RESOLUTION","message":"missing required parameter `table` (a string)"},{"path":"/view","class":"CONSTRAINT_VIOLATION","message":"`/view`: expected one of \"grid\", \"form\", got the string \"list\""},{"path":"/limit","class":"CONSTRAINT_VIOLATION","message":"`/limit`: 0 is below the minimum 1"}]}"#
    );
    assert_eq!(
        rejection.to_string(),
        "Invalid arguments for `openTable`: 3 issues, listed in `issues`. Correct all of them as the tool's input schema says and call `openTable` again.\n  - missing required parameter `table` (a string)\n  - `/view`: expected one of \"grid\", \"form\", got the string \"list\"\n  - `/limit`: 0 is below the minimum 1"
    );

    let constraint = chat("openTable", json!({"table": "t", "limit": 0})).unwrap_err();
    assert_eq!(constraint.class, Constraint);
    assert_eq!(
        constraint.message,
        "Invalid arguments for `openTable`: `/limit`: 0 is below the minimum 1. Correct the arguments as the tool's input schema says and call `openTable` again."
    );
    assert_eq!(
        chat("nope", json!({})).unwrap_err().to_json(),
        r#"{"error":"SCHEMA_RESOLUTION","tool":null,"message":"Model tried to call unavailable tool 'nope'. Available tools: search, openTable, secret, stage, raw.","issues":[]}"#
    );
}

#[test]
fn a_parse_error_after_the_check_is_reported_in_the_parsers_words() {
    assert_eq!(
        chat("raw", json!(5)).unwrap_err(),
        Rejection {
            class: Schema,
            tool: Some("raw".into()),
            message: String::from(
                "Invalid arguments for `raw`: expected an object, found the number 5. Correct the arguments as the tool's input schema says and call `raw` again."
            ),
            issues: vec![issue("", Schema, "expected an object, found the number 5")],
        }
    );
}

#[test]
fn gated_tools_ask_the_hook_for_every_caller_and_silent_ones_never() {
    let mut d = discovery();
    let _ = d.search("anything");
    let mut seen: Vec<(Caller, T)> = Vec::new();
    let mut hook = |caller: Caller, tool: T, arguments: &Value| {
        assert!(arguments.is_object());
        seen.push((caller, tool));
        Decision::Ask
    };
    let args = || json!({"table": "t"});
    let asked = verify::<TestCall, 1>(Via::Chat(&d), "stage", json!({}), &mut hook);
    assert!(matches!(
        asked,
        Ok(Verified::Ask(PendingCall {
            call: TestCall(STAGE, _),
            ..
        }))
    ));
    let mcp_level = Access::FullAccess;
    let asked = verify::<TestCall, 1>(
        Via::Mcp(mcp_level, &Fixture),
        "dropTable",
        args(),
        &mut hook,
    );
    assert!(matches!(
        asked,
        Ok(Verified::Ask(PendingCall {
            call: TestCall(DROP, _),
            ..
        }))
    ));
    let silent = verify::<TestCall, 1>(
        Via::Mcp(mcp_level, &Fixture),
        "openTable",
        args(),
        &mut hook,
    );
    assert!(matches!(
        silent,
        Ok(Verified::Run(VerifiedCall {
            call: TestCall(OPEN, _),
            ..
        }))
    ));
    let silent = verify::<TestCall, 1>(Via::Chat(&d), "openTable", args(), &mut hook);
    assert!(matches!(silent, Ok(Verified::Run(_))));
    // Invalid arguments never reach the hook.
    let invalid = verify::<TestCall, 1>(Via::Chat(&d), "stage", json!({"x": 1}), &mut hook);
    assert!(invalid.is_err());
    assert_eq!(
        seen,
        [
            (Caller::Chat, STAGE),
            (Caller::Mcp(Access::FullAccess), DROP)
        ]
    );

    let denied = verify::<TestCall, 1>(
        Via::Mcp(mcp_level, &Fixture),
        "stage",
        json!({}),
        &mut DenyAll,
    );
    let denied = denied.unwrap_err();
    assert_eq!(denied, Rejection::denied(Fixture.name(STAGE)));
    assert_eq!(denied.class, ErrorClass::PermissionDenied);
    assert_eq!(
        denied.message,
        "The user or the application's policy refused to run `stage`. Do not call it again for this request; ask the user how to proceed instead."
    );
    let silent = verify::<TestCall, 1>(
        Via::Mcp(mcp_level, &Fixture),
        "openTable",
        args(),
        &mut DenyAll,
    );
    assert!(silent.is_ok(), "DenyAll leaves silent tools alone");
}

#[test]
fn results_are_checked_against_a_declared_output_only() {
    assert_eq!(
        check_output(Fixture.spec(STAGE), &json!({"rowCount": 3})),
        Ok(())
    );
    assert_eq!(check_output(Fixture.spec(OPEN), &json!("anything")), Ok(()));
    let broken = check_output(Fixture.spec(STAGE), &json!({"rowCount": -1})).unwrap_err();
    assert_eq!(
        broken,
        Rejection {
            class: ErrorClass::RuntimeError,
            tool: Some("stage".into()),
            message: String::from(
                "`stage` returned a result that breaks its declared output: `/rowCount`: -1 is below the minimum 0. This is a fault of the application, not of the call; do not retry it unchanged."
            ),
            issues: vec![issue(
                "/rowCount",
                Constraint,
                "`/rowCount`: -1 is below the minimum 0"
            )],
        }
    );
    assert_eq!(broken.mcp_code(), None);
    let missing = check_output(Fixture.spec(STAGE), &json!({})).unwrap_err();
    assert_eq!(
        missing.issues[0].message,
        "missing required property `rowCount` (an integer)"
    );
    assert_eq!(
        check_output(Fixture.spec(STAGE), &json!([]))
            .unwrap_err()
            .issues[0]
            .message,
        "the result: expected an object, got an array"
    );
}

#[test]
fn a_failed_handler_is_a_runtime_error() {
    let failed = Rejection::runtime(Fixture.name(OPEN), "no table named `t`");
    assert_eq!(failed.class, ErrorClass::RuntimeError);
    assert_eq!(failed.message, "`openTable` failed: no table named `t`");
    assert_eq!(failed.mcp_code(), None);
    assert_eq!(failed.to_string(), failed.message);
    assert_eq!(ErrorClass::RuntimeError.to_string(), "RUNTIME_ERROR");
}

#[test]
fn hostile_values_never_panic() {
    let values = [
        json!(null),
        json!(-0.0),
        json!(f64::MAX),
        json!(i64::MIN),
        json!({"table": {"table": [[[]]]}, "": "", "~": null}),
        json!([{}, [], "", 0]),
        Value::String("\u{0}\u{ffff}é".to_string()),
    ];
    for v in &values {
        for name in [
            "search",
            "openTable",
            "dropTable",
            "secret",
            "stage",
            "raw",
            "",
        ] {
            let _ = chat(name, v.clone());
            for level in Access::ALL {
                let _ = mcp(level, name, v.clone());
            }
        }
        for shape in [&OPEN_INPUT, &ROWS, &DEEP, &NOTHING, &LIMIT] {
            let _ = check_value(shape, v);
        }
    }
}

#[test]
fn whole_floats_become_integers_along_the_branch_that_passed() {
    static KEYED: Shape = Shape::Either(&[
        Shape::Object(Object {
            properties: &[Property {
                name: "a",
                required: true,
                shape: TEXT,
            }],
            closed: true,
            others: None,
        }),
        Shape::Object(Object {
            properties: &[Property {
                name: "b",
                required: true,
                shape: Shape::Int64(Bounds {
                    minimum: None,
                    maximum: None,
                    ..Bounds::NONE
                }),
            }],
            closed: true,
            others: None,
        }),
    ]);
    let mut value = json!({"b": 2.0});
    assert_eq!(check_value(&KEYED, &value), []);
    walk::canonicalize(&KEYED, &mut value, 0);
    assert!(value["b"].is_i64(), "{value}");
}

#[test]
fn issues_inside_either_branches_share_the_cap() {
    static ITEMS: Shape = Shape::Array(&Shape::Either(&[LIMIT, Shape::Null]));
    let issues = check_value(&ITEMS, &Value::Array(vec![json!("x"); 100]));
    assert_eq!(issues.len(), MAX_CHECK_ISSUES + 1);
    assert_eq!(
        issues[0],
        issue(
            "/0",
            Schema,
            "`/0`: expected an integer or null, got the string \"x\""
        )
    );
    assert_eq!(
        issues[MAX_CHECK_ISSUES],
        issue("", Schema, "and 68 more issues")
    );
    let issues = check_value(&ITEMS, &Value::Array(vec![json!(0); 100]));
    assert_eq!(issues[MAX_CHECK_ISSUES].message, "and 68 more issues");
    assert!(issues.iter().all(|i| i.class == Constraint));
}

/// Generic servers (the MCP server runs any catalog's calls on a multi-threaded runtime)
/// need the call futures to be `Send` from the call, the handler and the tool alone,
/// whatever the search arguments and the handler's error are.
#[allow(dead_code)] // Checked by compiling it: nothing calls it.
fn running_a_call_is_send<C, H>(dispatched: VerifiedCall<C>, run: VerifiedCall<C>, handler: &H)
where
    C: HandledBy<H> + Send,
    C::Tool: Send + Sync,
    C::Error: fmt::Display,
    H: Sync,
{
    fn send<F: Send>(_: F) {}
    send(dispatched.dispatch(handler));
    send(run.run(handler));
}
