//! `[[prompt]]` and `[[resource]]` tables: an upstream's prompts, resources and resource
//! templates that a gateway passes on. Everything one table decides on its own is checked
//! here; the upstream it names and what no two tables may both pin are `check`'s.

use catalog_core::Access;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::At;
use super::table::{Table, table};
use super::values::{choice, digest, non_empty, string, wrong_type};
use crate::diag::{Diagnostic, Errors, Span};
use crate::model::Offered;

pub(crate) const PROMPT_KEYS: &[&str] = &[
    "name",
    "description",
    "arguments",
    "upstream",
    "upstream-prompt",
    "upstream-digest",
    "access",
];
pub(crate) const RESOURCE_KEYS: &[&str] = &[
    "uri",
    "uri-template",
    "description",
    "upstream",
    "upstream-digest",
    "access",
];

/// One `[[prompt]]` or `[[resource]]` table as read.
pub(crate) struct RawOffer {
    /// Its header.
    pub span: Span,
    /// What it pins, when that is written without error.
    pub what: Option<At<Offered>>,
    pub description: Option<At<String>>,
    pub arguments: Vec<At<(String, String)>>,
    pub upstream: Option<At<String>>,
    /// A prompt's name on its upstream, when the table's `name` differs from it
    /// (`upstream-prompt`).
    pub upstream_prompt: Option<At<String>>,
    pub digest: Option<At<String>>,
    pub access: Option<At<Access>>,
}

/// The `prompt` or `resource` key at the top: an array of tables of that kind.
pub(crate) fn offers(key: &str, v: &Spanned<DeValue<'_>>, errors: &mut Errors) -> Vec<RawOffer> {
    let DeValue::Array(tables) = v.get_ref() else {
        errors.push(
            Diagnostic::new(v.span(), format!("`{key}` must be an array of tables"))
                .help(format!("write each one as its own `[[{key}]]` table")),
        );
        return Vec::new();
    };
    let what = format!("each `[[{key}]]` entry");
    tables
        .iter()
        .filter_map(|t| {
            let read = if key == "prompt" { prompt } else { resource };
            table(t, &what, errors).map(|table| read(table, t.span(), errors))
        })
        .collect()
}

fn prompt(t: &DeTable<'_>, span: Span, errors: &mut Errors) -> RawOffer {
    let mut t = Table::new(t, span.clone(), "a `[[prompt]]` table");
    let what = t
        .take("name")
        .and_then(|(v, _)| non_empty(v, "name", errors))
        .map(|(name, at)| (Offered::Prompt(name), at));
    let arguments = t
        .take("arguments")
        .map(|(v, _)| arguments(v, errors))
        .unwrap_or_default();
    let upstream_prompt = t
        .take("upstream-prompt")
        .and_then(|(v, _)| non_empty(v, "upstream-prompt", errors));
    let mut raw = finish(t, span, what, arguments, PROMPT_KEYS, errors);
    raw.upstream_prompt = upstream_prompt;
    raw
}

fn resource(t: &DeTable<'_>, span: Span, errors: &mut Errors) -> RawOffer {
    let mut t = Table::new(t, span.clone(), "a `[[resource]]` table");
    let uri = t.take("uri");
    let template = t.take("uri-template");
    let what = match (uri, template) {
        (Some((_, first)), Some((_, second))) => {
            errors.push(
                Diagnostic::new(second, "a `[[resource]]` table has both `uri` and `uri-template`")
                    .related(first, "`uri`")
                    .help("a table pins one resource (`uri`) or one resource template (`uri-template`): split it in two"),
            );
            None
        }
        (Some((v, _)), None) => {
            non_empty(v, "uri", errors).map(|(uri, at)| (Offered::Resource(uri), at))
        }
        (None, Some((v, _))) => non_empty(v, "uri-template", errors)
            .map(|(template, at)| (Offered::Template(template), at)),
        (None, None) => None,
    };
    finish(t, span, what, Vec::new(), RESOURCE_KEYS, errors)
}

/// The keys both kinds have, and what is missing.
fn finish(
    mut t: Table<'_, '_>,
    span: Span,
    what: Option<At<Offered>>,
    arguments: Vec<At<(String, String)>>,
    keys: &[&str],
    errors: &mut Errors,
) -> RawOffer {
    if let Some((offered, _)) = &what {
        t.what = offered.to_string();
    }
    let description = t
        .take("description")
        .and_then(|(v, _)| string(v, "description", errors));
    let upstream = t
        .take("upstream")
        .and_then(|(v, _)| string(v, "upstream", errors));
    let digest = t
        .take("upstream-digest")
        .and_then(|(v, _)| digest(v, errors));
    let access = t.take("access").and_then(|(v, _)| {
        let levels = Access::ALL.map(|a| (a.as_str(), a));
        choice(v, "access", &levels, errors)
    });
    let named = t.what.clone();
    let seen = t.finish(keys, errors);
    let header = span.start..span.start;
    let identity = if keys == PROMPT_KEYS {
        vec![("name", "`name = \"...\"`: the prompt's name on its server")]
    } else {
        vec![(
            "uri",
            "`uri = \"...\"` (a resource) or `uri-template = \"...\"` (a resource template), as the server lists it",
        )]
    };
    for (key, help) in identity {
        if !seen.has(key) && !seen.has("uri-template") {
            errors.push(
                Diagnostic::new(header.clone(), format!("{named} has no `{key}`"))
                    .help(format!("add {help}")),
            );
        }
    }
    let required = [
        ("upstream", "`upstream = \"...\"`, the `[[upstream]]` that serves it".to_string()),
        ("upstream-digest", "`upstream-digest = \"sha256:...\"`, the digest of its listing as imported: import the server again to get it".to_string()),
        ("access", format!("`access = \"read-only\"` (or {}): the lowest MCP access level that may list and read it", Access::ALL[1..].iter().map(|a| format!("`{}`", a.as_str())).collect::<Vec<_>>().join(", "))),
    ];
    for (key, help) in required {
        if !seen.has(key) {
            errors.push(
                Diagnostic::new(header.clone(), format!("{named} has no `{key}`"))
                    .help(format!("add {help}")),
            );
        }
    }
    RawOffer {
        span,
        what,
        description,
        arguments,
        upstream,
        upstream_prompt: None,
        digest,
        access,
    }
}

/// `[prompt.arguments]`: each argument's name and reviewed description, and where the
/// description is written, in file order.
fn arguments(v: &Spanned<DeValue<'_>>, errors: &mut Errors) -> Vec<At<(String, String)>> {
    let Some(items) = table(v, "`[prompt.arguments]`", errors) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, value) in items {
        let name = key.get_ref().as_ref();
        match value.get_ref().as_str() {
            Some(description) => {
                out.push(((name.to_string(), description.to_string()), value.span()));
            }
            None => errors.push(wrong_type(value, &format!("arguments.{name}"), "a string")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::TEST_HEAD as HEAD;
    use crate::model::{Access, Offered};

    const DIGEST: &str = "sha256:4d41fd02ed49812a668b205580a74e06ad61797a560f982ee3275fcad9edd8a6";

    fn upstream() -> String {
        "\n[[upstream]]\nname = \"docs\"\ncommand = \"docs-server\"\n".to_string()
    }

    #[test]
    fn prompts_resources_and_templates_reach_the_model() {
        let source = format!(
            r#"{HEAD}{}
[[prompt]]
name = "review"
description = "Reviews code."
upstream = "docs"
upstream-digest = "{DIGEST}"
access = "read-only"
[prompt.arguments]
code = "The code."
"the style" = "How strict."

[[resource]]
uri-template = "docs://pages/{{page}}"
upstream = "docs"
upstream-digest = "{DIGEST}"
access = "full-access"
"#,
            upstream()
        );
        let catalog = crate::compile(&source).unwrap();
        let [prompt, template] = catalog.offers.as_slice() else {
            panic!("{:?}", catalog.offers);
        };
        assert_eq!(prompt.what, Offered::Prompt("review".into()));
        assert_eq!(prompt.description.as_deref(), Some("Reviews code."));
        assert_eq!(
            prompt.arguments,
            [
                ("code".to_string(), "The code.".to_string()),
                ("the style".to_string(), "How strict.".to_string())
            ]
        );
        assert_eq!(&source[prompt.span.clone()], "[[prompt]]");
        assert_eq!(
            template.what,
            Offered::Template("docs://pages/{page}".into())
        );
        assert_eq!(template.access, Access::FullAccess);
        assert_eq!(
            (template.upstream.as_str(), template.digest.as_str()),
            ("docs", DIGEST)
        );
    }

    #[test]
    fn every_mistake_in_the_tables_is_reported_at_once() {
        let source = format!(
            r#"{HEAD}{}
[[prompt]]
name = "review"
upstream = "doc"
upstream-digest = "{DIGEST}"
access = "read-only"
[prompt.arguments]
code = 1

[[prompt]]
description = "Nameless."
upstream-digest = "sha256:x"
acess = "read-only"

[[prompt]]
name = "review"
upstream = "docs"
upstream-digest = "{DIGEST}"
access = "everyone"

[[resource]]
uri = "docs://readme"
uri-template = "docs://{{page}}"
upstream = "docs"
upstream-digest = "{DIGEST}"
access = "read-only"

[[resource]]
upstream = "docs"
"#,
            upstream()
        );
        let errors = crate::validate(&source).unwrap_err();
        let messages: Vec<&str> = errors.iter().map(|d| d.message.as_str()).collect();
        for expected in [
            "`upstream` names `doc`, which no `[[upstream]]` declares",
            "`arguments.code` must be a string, found integer",
            "a `[[prompt]]` table has no `name`",
            "a `[[prompt]]` table has no `upstream`",
            "`upstream-digest` `sha256:x` is not a SHA-256 digest",
            "unknown key `acess` in a `[[prompt]]` table",
            "prompt `review` is pinned twice",
            "`everyone` is not a valid `access`",
            "a `[[resource]]` table has both `uri` and `uri-template`",
            "a `[[resource]]` table has no `uri`",
            "a `[[resource]]` table has no `upstream-digest`",
            "a `[[resource]]` table has no `access`",
        ] {
            assert!(
                messages.contains(&expected),
                "no {expected:?} in {messages:#?}"
            );
        }
        assert_eq!(messages.len(), 12, "{messages:#?}");
        let doubled = errors.iter().find(|d| d.message.contains("twice")).unwrap();
        // The first names no declared upstream: the second is told how to take another name.
        assert!(
            doubled
                .help
                .as_deref()
                .unwrap_or("")
                .contains("`name = \"docs_review\"`, with `upstream-prompt = \"review\"`"),
            "{doubled:?}"
        );
        assert_eq!(doubled.related.len(), 1);
    }
}
