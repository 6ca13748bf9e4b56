//! `schema-portability`: what a row's input schema uses that a provider the catalog
//! targets (`[settings] providers`) refuses, or drops or weakens on the way to the model.
//! Each finding names the providers, the JSON Pointer into the schema as published, and
//! the rewrite that keeps the meaning everywhere.
//!
//! What is checked, and on whose word:
//!
//! | schema | providers | what they do |
//! |---|---|---|
//! | a type array, `"type": ["string", "integer"]` | `mcp` | the `tools/list` result carries the schema as written; clients that hand it to a single-type dialect (Gemini's `parameters`, OpenAPI 3.0) refuse it or keep one type, which the MCP Inspector's strict mode warns about. (This crate's own Gemini renderer rewrites type arrays faithfully.) |
//! | an array without `items` | `openai-chat`, `openai-responses`, `gemini` | refused: OpenAI answers "array schema missing items", Gemini "items: missing field" |
//! | `anyOf`, `oneOf` or `allOf` at the root | `anthropic`, `bedrock`, `openai-chat`, `openai-responses` | refused: Anthropic answers "input_schema does not support oneOf, allOf, or anyOf at the top level" (Bedrock passes the schema to the model's provider), OpenAI requires a plain object root |
//! | what [`crate::gemini`] cannot carry as a keyword | `gemini` | the declaration says it in the description instead, `oneOf` becomes `anyOf`, a node without a type says nothing; a `required` name without its property is refused, and Vertex AI documents parameter names as `[A-Za-z_][A-Za-z0-9_]{0,63}` |

use serde_json::{Map, Value};

use super::{Ctx, Found, LintId};
use crate::diag::{Diagnostic, Span};
use crate::gemini::{self, Loss, LossKind};
use crate::model::{Field, Kind, Tool, TypeSpec};
use crate::provider::Provider;

/// Runs the check over every row.
pub(super) fn check(ctx: &Ctx<'_>, found: &mut Vec<Found>) {
    let settings = &ctx.catalog.settings;
    let schemas = ctx.schemas();
    for (i, (tool, issues)) in ctx.catalog.tools.iter().zip(&schemas.issues).enumerate() {
        for issue in issues {
            let providers: Vec<Provider> = issue
                .providers
                .iter()
                .copied()
                .filter(|&p| settings.targets(p) && (p != Provider::Mcp || tool.role.mcp()))
                .collect();
            if providers.is_empty() {
                continue;
            }
            let names: Vec<&str> = providers.iter().map(|p| p.name()).collect();
            let message = format!(
                "in tool `{}`, `{}` {}; {}: {}",
                tool.name,
                if issue.pointer.is_empty() {
                    "the input schema's root"
                } else {
                    &issue.pointer
                },
                issue.what,
                list(&names),
                issue.effect,
            );
            found.push((
                LintId::SchemaPortability,
                Some(i),
                Diagnostic::new(locate(tool, &issue.pointer), message).help(issue.rewrite.clone()),
            ));
        }
    }
}

/// One thing a schema uses that some providers refuse or weaken.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Issue {
    /// JSON Pointer into the input schema as published.
    pub pointer: String,
    /// The providers it concerns, before the catalog's targets are applied.
    pub providers: Vec<Provider>,
    /// What the schema does there (`has the type array ...`).
    pub what: String,
    /// What those providers do with it.
    pub effect: String,
    /// The rewrite that keeps the meaning.
    pub rewrite: String,
}

/// Every issue of an input schema, in schema order.
#[cfg(test)]
pub(crate) fn issues(input: &Value) -> Vec<Issue> {
    issues_with(input, &gemini::convert(input).losses)
}

/// Every issue of an input schema, whose Gemini conversion lost `losses`, in schema order.
pub(super) fn issues_with(input: &Value, losses: &[Loss]) -> Vec<Issue> {
    let mut out = Vec::new();
    if let Value::Object(root) = input {
        let combinators: Vec<&str> = ["anyOf", "oneOf", "allOf"]
            .into_iter()
            .filter(|k| root.contains_key(*k))
            .collect();
        if !combinators.is_empty() {
            out.push(Issue {
                pointer: String::new(),
                providers: vec![
                    Provider::Anthropic,
                    Provider::OpenAiChat,
                    Provider::OpenAiResponses,
                    Provider::Bedrock,
                ],
                what: format!("uses {}", code_list(&combinators)),
                effect: "refused (\"input_schema does not support oneOf, allOf, or anyOf at the top level\"; OpenAI wants a plain object root)".into(),
                rewrite: "declare every argument under the root's `properties`, and say in the description which combinations a call may use".into(),
            });
        }
    }
    walk(input, "", &mut out);
    for loss in losses {
        let (what, effect, rewrite) = match &loss.kind {
            // Reported with OpenAI's refusal, by `walk`.
            LossKind::NoItems => continue,
            LossKind::Described(keys) => described(keys),
            LossKind::OneOf => (
                "uses `oneOf`".to_string(),
                "the declaration says `anyOf`, so a value that fits several branches is not refused (the verifier reads `oneOf` the same way)".to_string(),
                "write `anyOf` when the branches cannot overlap (nothing changes then); otherwise make them exclusive, by type or by a required property".to_string(),
            ),
            LossKind::Untyped => (
                "has no type".to_string(),
                "Gemini's schema cannot say \"any value\", so the declaration tells the model nothing here".to_string(),
                "give it a `type`, or `anyOf` the types it may take".to_string(),
            ),
            LossKind::ParameterName(name) => (
                format!("is the parameter `{name}`"),
                "may be refused: Gemini on Vertex AI documents parameter names as a letter or `_`, then letters, digits and `_`, 64 at most (the Gemini API states no rule)".to_string(),
                format!("rename `{name}` within those characters (`{}`)", parameter_name(name)),
            ),
            LossKind::UndeclaredRequired(name) => (
                format!("requires `{name}`, which its `properties` do not declare"),
                "refused (\"property is not defined\"), so the declaration leaves it out of `required`".to_string(),
                format!("declare `{name}` under `properties`, or take it out of `required`"),
            ),
        };
        out.push(Issue {
            pointer: loss.pointer.clone(),
            providers: vec![Provider::Gemini],
            what,
            effect,
            rewrite,
        });
    }
    out.sort_by(|a, b| a.pointer.cmp(&b.pointer));
    out
}

/// What, the effect and the rewrite for keywords the Gemini declaration moves into the
/// description. The verifier still checks most of them, whatever the model was shown.
fn described(keys: &Map<String, Value>) -> (String, String, String) {
    let names: Vec<&str> = keys.keys().map(String::as_str).collect();
    let (checked, unchecked): (Vec<&str>, Vec<&str>) = names
        .iter()
        .partition(|k| catalog_core::shape::CHECKED_KEYWORDS.contains(k));
    let verifier = match (checked.is_empty(), unchecked.is_empty()) {
        (_, true) => "the verifier still checks it on every call".to_string(),
        (true, false) => "and the verifier does not check it either".to_string(),
        (false, false) => format!(
            "the verifier checks {} on every call, not {}",
            code_list(&checked),
            code_list(&unchecked)
        ),
    };
    let effect = format!(
        "Gemini's schema cannot carry it as a keyword here, so the declaration says it in the description instead; {verifier}"
    );
    let rewrite = if keys.contains_key("additionalProperties") {
        "declare the keys under `properties` when they are known; otherwise drop `additionalProperties` and say in the description what the values are, which every provider then reads alike".to_string()
    } else if unchecked.is_empty() {
        format!(
            "say it in the description too, which every provider reads alike: a model shown only the declaration learns of {} from a refusal",
            code_list(&names)
        )
    } else {
        format!(
            "say it in the description, which every provider reads alike, or drop {}: nothing enforces it before the handler runs",
            code_list(&unchecked)
        )
    };
    (format!("uses {}", code_list(&names)), effect, rewrite)
}

/// Type arrays and arrays without `items`, anywhere in the schema as written.
fn walk(v: &Value, at: &str, out: &mut Vec<Issue>) {
    let Value::Object(m) = v else {
        return;
    };
    let types: Vec<&str> = match m.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if let Some(Value::Array(list)) = m.get("type") {
        out.push(Issue {
            pointer: at.to_string(),
            providers: vec![Provider::Mcp],
            what: format!("has the type array `{}`", Value::Array(list.clone())),
            effect: "clients that convert schemas to a single-type dialect (Gemini's `parameters`, OpenAPI 3.0) refuse it or keep one type".into(),
            rewrite: format!(
                "write it as `anyOf`, which every provider reads and the verifier checks the same: `{}`",
                any_of_form(v)
            ),
        });
    }
    if types.contains(&"array") && !m.contains_key("items") {
        out.push(Issue {
            pointer: at.to_string(),
            providers: vec![
                Provider::OpenAiChat,
                Provider::OpenAiResponses,
                Provider::Gemini,
            ],
            what: "is an array without `items`".into(),
            effect: "refused (OpenAI: \"array schema missing items\"; Gemini: \"items: missing field\")".into(),
            rewrite: "declare `items`, the schema every element has (`\"items\": {\"type\": \"string\"}`, or an object with its properties)".into(),
        });
    }
    for (k, x) in m {
        match (k.as_str(), x) {
            (
                "properties" | "patternProperties" | "$defs" | "definitions",
                Value::Object(props),
            ) => {
                for (name, p) in props {
                    walk(p, &format!("{at}/{k}/{}", gemini::escape(name)), out);
                }
            }
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(list)) => {
                for (i, b) in list.iter().enumerate() {
                    walk(b, &format!("{at}/{k}/{i}"), out);
                }
            }
            ("items" | "additionalProperties" | "not" | "if" | "then" | "else" | "contains", _) => {
                walk(x, &format!("{at}/{k}"), out);
            }
            _ => {}
        }
    }
}

/// A schema with every type array written as `anyOf`, one branch per type holding the
/// keywords of that type; the others (description, default, ...) stay outside.
pub(crate) fn any_of_form(v: &Value) -> Value {
    let Value::Object(m) = v else {
        return v.clone();
    };
    let mut out = Map::new();
    let mut branches: Vec<Value> = Vec::new();
    if let Some(Value::Array(types)) = m.get("type") {
        for t in types.iter().filter_map(Value::as_str) {
            let mut branch = Map::new();
            branch.insert("type".into(), Value::String(t.to_string()));
            for (k, x) in m {
                if gemini::keys_of(t).contains(&k.as_str()) {
                    branch.insert(k.clone(), recurse(k, x));
                }
            }
            branches.push(Value::Object(branch));
        }
        for (k, x) in m {
            let typed = types
                .iter()
                .filter_map(Value::as_str)
                .any(|t| gemini::keys_of(t).contains(&k.as_str()));
            let of_any_type = ["string", "number", "boolean", "array", "object"]
                .iter()
                .any(|t| gemini::keys_of(t).contains(&k.as_str()));
            if k != "type" && !typed && !of_any_type {
                out.insert(k.clone(), x.clone());
            }
        }
        out.insert("anyOf".into(), Value::Array(branches));
        return Value::Object(out);
    }
    for (k, x) in m {
        out.insert(k.clone(), recurse(k, x));
    }
    Value::Object(out)
}

/// [`any_of_form`] applied to the schemas a keyword holds.
fn recurse(key: &str, x: &Value) -> Value {
    match (key, x) {
        ("properties" | "patternProperties" | "$defs" | "definitions", Value::Object(props)) => {
            Value::Object(
                props
                    .iter()
                    .map(|(n, p)| (n.clone(), any_of_form(p)))
                    .collect(),
            )
        }
        ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(list)) => {
            Value::Array(list.iter().map(any_of_form).collect())
        }
        ("items" | "additionalProperties" | "not" | "if" | "then" | "else" | "contains", _) => {
            any_of_form(x)
        }
        _ => x.clone(),
    }
}

/// `a`, `a and b`, `a, b and c`.
fn list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// ``` `a` ```, ``` `a` and `b` ```, ...
fn code_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("`{i}`")).collect();
    let refs: Vec<&str> = quoted.iter().map(String::as_str).collect();
    list(&refs)
}

/// A spelling of `name` Gemini takes, for the help: other characters become `_`.
fn parameter_name(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    out.truncate(64);
    out
}

/// Where a pointer into the input schema is written: the deepest parameter or property
/// the catalog declares on the way, or the row for an `input-schema`.
fn locate(tool: &Tool, pointer: &str) -> Span {
    if tool.input_schema.is_some() {
        return tool.spans.row.clone();
    }
    let segments: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect();
    let mut fields: &[Field] = &tool.params;
    let mut span = tool.name_span.clone();
    let mut rest = segments.as_slice();
    while let [key, name, tail @ ..] = rest {
        if key != "properties" {
            break;
        }
        let Some(field) = fields.iter().find(|f| &f.name == name) else {
            break;
        };
        span = field.ty.span.clone();
        let mut ty: &TypeSpec = &field.ty;
        let mut tail = tail;
        while let (Kind::Array(item), [items, more @ ..]) = (&ty.kind, tail) {
            if items != "items" {
                break;
            }
            ty = item;
            span = ty.span.clone();
            tail = more;
        }
        match &ty.kind {
            Kind::Object(Some(props)) => {
                fields = props;
                rest = tail;
            }
            _ => break,
        }
    }
    span
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn summary(input: &Value) -> Vec<(String, Vec<&'static str>)> {
        issues(input)
            .into_iter()
            .map(|i| (i.pointer, i.providers.iter().map(|p| p.name()).collect()))
            .collect()
    }

    #[test]
    fn type_arrays_concern_mcp_clients_and_the_rewrite_is_any_of() {
        let input = json!({"type": "object", "properties": {
            "value": {"type": ["string", "number", "null", "array"],
                      "items": {"type": ["string", "null"]},
                      "description": "V."}
        }, "additionalProperties": false});
        assert_eq!(
            summary(&input),
            [
                ("/properties/value".into(), vec!["mcp"]),
                ("/properties/value/items".into(), vec!["mcp"]),
            ]
        );
        assert_eq!(
            any_of_form(&input["properties"]["value"]),
            json!({"description": "V.", "anyOf": [
                {"type": "string"},
                {"type": "number"},
                {"type": "null"},
                {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "null"}]}}
            ]})
        );
        let rewrite = &issues(&input)[0].rewrite;
        assert!(
            rewrite.contains(r#"{"type":"array","items":{"anyOf""#),
            "{rewrite}"
        );
    }

    #[test]
    fn the_keywords_of_each_type_go_to_its_branch() {
        let key = json!({"type": ["string", "integer", "object"],
                         "additionalProperties": {"type": ["string", "integer"]},
                         "minimum": 1, "default": "x"});
        assert_eq!(
            any_of_form(&key),
            json!({"default": "x", "anyOf": [
                {"type": "string"},
                {"type": "integer", "minimum": 1},
                {"type": "object", "additionalProperties": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}
            ]})
        );
    }

    #[test]
    fn arrays_without_items_are_refused_by_openai_and_gemini() {
        let input = json!({"type": "object", "properties": {
            "sort": {"type": "array"},
            "either": {"type": ["string", "array"]}
        }});
        assert_eq!(
            summary(&input),
            [
                ("/properties/either".into(), vec!["mcp"]),
                (
                    "/properties/either".into(),
                    vec!["openai-chat", "openai-responses", "gemini"]
                ),
                (
                    "/properties/sort".into(),
                    vec!["openai-chat", "openai-responses", "gemini"]
                ),
            ]
        );
    }

    #[test]
    fn root_combinators_are_refused_by_anthropic_bedrock_and_openai() {
        let input = json!({"type": "object", "properties": {"a": {"type": "string"}},
                           "anyOf": [{"required": ["a"]}, {"required": []}]});
        let found = issues(&input);
        assert_eq!(found[0].pointer, "");
        assert_eq!(
            found[0].providers,
            [
                Provider::Anthropic,
                Provider::OpenAiChat,
                Provider::OpenAiResponses,
                Provider::Bedrock
            ]
        );
    }

    #[test]
    fn what_gemini_cannot_carry_is_reported_for_gemini() {
        let input = json!({"type": "object", "properties": {
            "key": {"type": "object", "additionalProperties": {"type": "string"}},
            "Content-Type": {"type": "string"},
            "n": {"type": "number", "multipleOf": 5}
        }});
        let found = issues(&input);
        let got: Vec<(&str, &str)> = found
            .iter()
            .map(|i| (i.pointer.as_str(), i.what.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "/properties/Content-Type",
                    "is the parameter `Content-Type`"
                ),
                ("/properties/key", "uses `additionalProperties`"),
                ("/properties/n", "uses `multipleOf`"),
            ]
        );
        assert!(found.iter().all(|i| i.providers == [Provider::Gemini]));
        assert!(
            found[0].rewrite.contains("`content_type`"),
            "{}",
            found[0].rewrite
        );
    }

    /// Said in the description for Gemini, still checked by the verifier: the finding says
    /// which of the keywords the verifier checks.
    #[test]
    fn the_effect_says_what_the_verifier_still_checks() {
        let input = json!({"$defs": {"N": {"type": "number", "exclusiveMinimum": 0.5}},
            "type": "object", "properties": {
            "n": {"$ref": "#/$defs/N"},
            "when": {"type": "string", "contentMediaType": "text/plain", "not": {"const": ""}}
        }});
        let found = issues(&input);
        let effects: Vec<(&str, &str)> = found
            .iter()
            .map(|i| (i.what.as_str(), i.effect.as_str()))
            .collect();
        assert!(
            effects.iter().any(|(what, effect)| *what == "uses `$ref`"
                && effect.ends_with("the verifier still checks it on every call")),
            "{effects:?}"
        );
        assert!(
            effects
                .iter()
                .any(|(what, effect)| what.contains("`contentMediaType`")
                    && effect.ends_with(
                        "the verifier checks `not` on every call, not `contentMediaType`"
                    )),
            "{effects:?}"
        );
        assert!(
            found
                .iter()
                .all(|i| !i.effect.contains("does not check it either")
                    || i.what.contains("`contentMediaType`")),
            "{found:?}"
        );
    }

    #[test]
    fn a_plain_catalog_schema_has_no_issue() {
        let input = json!({"type": "object", "properties": {
            "table": {"type": "string", "enum": ["a"]},
            "rows": {"type": "array", "items": {"type": "object", "properties": {"x": {"type": "integer", "minimum": 0}}, "additionalProperties": false}},
            "free": {"type": "object"}
        }, "required": ["table"], "additionalProperties": false});
        assert_eq!(issues(&input), []);
    }
}
