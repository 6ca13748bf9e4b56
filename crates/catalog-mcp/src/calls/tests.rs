use catalog_core::{Access, Rejection, Value, Via, check_output};
use rmcp::model::ProtocolVersion;
use serde_json::json;

use super::{Refusal, refuse};
use crate::GatedPolicy;

catalog_macros::catalog!("examples/tracker/catalog.toml");

/// The revisions before SEP-1303, and those after it (a later one still unknown to
/// `rmcp` among them).
fn revisions() -> (Vec<ProtocolVersion>, Vec<ProtocolVersion>) {
    let later: ProtocolVersion = serde_json::from_value(json!("2027-01-15")).unwrap();
    (
        vec![
            ProtocolVersion::V_2024_11_05,
            ProtocolVersion::V_2025_03_26,
            ProtocolVersion::V_2025_06_18,
        ],
        vec![
            ProtocolVersion::V_2025_11_25,
            ProtocolVersion::V_2026_07_28,
            later,
        ],
    )
}

fn verified(level: Access, name: &str, arguments: Value) -> Rejection {
    let mut policy = GatedPolicy::Deny;
    match Catalog::verify(Via::Mcp(level, &Catalog), name, arguments, &mut policy) {
        Ok(_) => panic!("{name} at {level} passed the verifier"),
        Err(rejection) => rejection,
    }
}

/// One rejection of each kind, as the verifier, the gated-call path and the run make
/// them.
fn every_kind() -> Vec<(Rejection, Refusal)> {
    let full = Access::FullAccess;
    let broken = json!({"number": 1, "title": 7, "body": "", "state": "open", "comments": []});
    vec![
        (
            verified(full, "noSuchTool", json!({})),
            Refusal::UnknownTool,
        ),
        // Kept from MCP: reads as unknown.
        (
            verified(full, "showIssue", json!({"number": 1})),
            Refusal::UnknownTool,
        ),
        (
            verified(
                Access::ReadOnly,
                "commentOnIssue",
                json!({"number": 1, "text": "x"}),
            ),
            Refusal::BelowLevel,
        ),
        (
            verified(full, "getIssue", json!({"number": 0, "title": 1})),
            Refusal::Arguments,
        ),
        // Every issue a broken constraint: CONSTRAINT_VIOLATION, still the arguments.
        (
            verified(full, "searchIssues", json!({"query": "x", "limit": 500})),
            Refusal::Arguments,
        ),
        // The policy's deny, inside the verifier; an answer of "no" after asking.
        (
            verified(full, "closeIssue", json!({"number": 1})),
            Refusal::Denied,
        ),
        (Rejection::denied(Tool::DeleteIssue.name()), Refusal::Denied),
        (
            Rejection::runtime(Tool::GetIssue.name(), "there is no issue 9"),
            Refusal::Runtime,
        ),
        (
            check_output(Tool::GetIssue.spec(), &broken).unwrap_err(),
            Refusal::Runtime,
        ),
    ]
}

#[test]
fn each_rejection_names_the_step_that_refused() {
    for (rejection, kind) in every_kind() {
        assert_eq!(Refusal::of(&rejection), kind, "{rejection:?}");
    }
}

#[test]
fn arguments_and_denials_are_tool_results_from_2025_11_25_on() {
    let (before, since) = revisions();
    for (rejection, kind) in every_kind() {
        let json = rejection.to_json();
        for revision in before.iter().chain(&since) {
            let what = format!("{kind:?} on {revision}");
            let in_result = match kind {
                Refusal::Runtime => true,
                Refusal::UnknownTool | Refusal::BelowLevel => false,
                Refusal::Arguments | Refusal::Denied => since.contains(revision),
            };
            match refuse(&rejection, revision) {
                Ok(result) => {
                    assert!(in_result, "{what}: a result");
                    assert_eq!(result.is_error, Some(true), "{what}");
                    assert_eq!(result.content.len(), 1, "{what}");
                    let text = &result.content[0].as_text().expect("text").text;
                    assert_eq!(*text, json, "{what}");
                    assert_eq!(result.structured_content, None, "{what}");
                }
                Err(error) => {
                    assert!(!in_result, "{what}: a JSON-RPC error");
                    assert_eq!(error.code.0, -32602, "{what}");
                    assert_eq!(error.message, rejection.to_string(), "{what}");
                    let data: Value = serde_json::from_str(&json).unwrap();
                    assert_eq!(error.data, Some(data), "{what}");
                }
            }
        }
    }
}
