//! Where a pinned row says something else than its server's definition: its name, its
//! reviewed description, schemas that differ, an effect its server's annotations do not
//! say. One rule, two uses: [`overrides`] names each such field
//! (`cargo catalog check --upstreams`), [`faithful`] applies them to the definition the
//! gateway lists.

use catalog_check::model::Tool;
use catalog_check::pin::schema_differences;
use catalog_core::Effect;
use serde_json::Value;

/// A pinned row as `tools/list` shows it: the tool its server lists (which hashes to the
/// row's pin), title, annotations, icons and `_meta` as the server wrote them, with what
/// the row deliberately says instead — its name, its reviewed description, its schemas
/// where they differ from the server's, and the hints that say its effect where the
/// server's say another.
/// `execution` is left out: calls through the gateway are never tasks.
#[must_use]
pub fn faithful(tool: &Tool, definition: &Value) -> Value {
    let mut out = definition.as_object().cloned().unwrap_or_default();
    out.remove("execution");
    out.insert("name".into(), tool.name.clone().into());
    out.insert("description".into(), tool.description.clone().into());
    let input = catalog_check::schema::mcp_input(tool);
    if definition
        .get("inputSchema")
        .is_none_or(|server| !schema_differences(&input, server).is_empty())
    {
        out.insert("inputSchema".into(), input);
    }
    match catalog_check::schema::output(tool) {
        None => {
            out.remove("outputSchema");
        }
        Some(output) => {
            let same = definition
                .get("outputSchema")
                .is_some_and(|server| schema_differences(&output, server).is_empty());
            // MCP's structured content is an object: another output is not listed.
            if output.get("type") != Some(&Value::from("object")) {
                out.remove("outputSchema");
            } else if !same {
                out.insert("outputSchema".into(), output);
            }
        }
    }
    let effect = row_effect(tool);
    if effect != server_effect(definition) {
        let annotations = out
            .entry("annotations")
            .or_insert_with(|| Value::Object(serde_json::Map::new()));
        if let Value::Object(hints) = annotations {
            for (hint, value) in effect.hints() {
                hints.insert((*hint).into(), (*value).into());
            }
        }
    }
    Value::Object(out)
}

/// Where a row deliberately says something else than its server's definition: what the
/// gateway lists from the row rather than the server, one phrase each, for `check` and
/// the gateway's log. Empty when the row is the definition as imported.
#[must_use]
pub fn overrides(tool: &Tool, definition: &Value) -> Vec<String> {
    let mut found = Vec::new();
    if let Some(source) = &tool.upstream
        && source.tool != tool.name
    {
        found.push(format!("the name (the server's is `{}`)", source.tool));
    }
    let description = definition.get("description").and_then(Value::as_str);
    if description != Some(tool.description.as_str()) {
        found.push(match description {
            Some(_) => "the description".to_string(),
            None => "the description (the server gives none)".to_string(),
        });
    }
    let empty = serde_json::json!({"type": "object"});
    let server = definition.get("inputSchema").unwrap_or(&empty);
    let changed = schema_differences(&catalog_check::schema::mcp_input(tool), server);
    if !changed.is_empty() {
        found.push(format!("the input schema (at {})", pointers(&changed)));
    }
    match (
        catalog_check::schema::output(tool),
        definition.get("outputSchema"),
    ) {
        (None, None) => {}
        (Some(output), Some(server)) => {
            let changed = schema_differences(&output, server);
            if !changed.is_empty() {
                found.push(format!("the output schema (at {})", pointers(&changed)));
            }
        }
        (None, Some(_)) => found.push("no output schema (the server gives one)".to_string()),
        (Some(_), None) => found.push("an output schema (the server gives none)".to_string()),
    }
    let (effect, server) = (row_effect(tool), server_effect(definition));
    if effect != server {
        let listed: Vec<String> = effect
            .hints()
            .iter()
            .map(|(hint, value)| format!("{hint}: {value}"))
            .collect();
        found.push(format!(
            "the effect {effect}, where the server's annotations say {server} (listed with {})",
            listed.join(", ")
        ));
    }
    found
}

/// The row's effect; a row without one (the search tool) counts as acting, the most
/// guarded.
fn row_effect(tool: &Tool) -> Effect {
    tool.role.effect().unwrap_or(Effect::Acts)
}

/// The effect a definition's annotations say, by the importer's rule.
fn server_effect(definition: &Value) -> Effect {
    catalog_check::import::effect_of(definition.get("annotations"))
}

fn pointers(changed: &[String]) -> String {
    let shown: Vec<String> = changed
        .iter()
        .take(4)
        .map(|p| {
            if p.is_empty() {
                "the root".to_string()
            } else {
                format!("`{p}`")
            }
        })
        .collect();
    let more = changed.len().saturating_sub(shown.len());
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use catalog_check::import::{Server, from_server};
    use catalog_check::model::Transport;
    use serde_json::json;

    use super::*;

    /// A tool as a pydantic-model server lists it: hints of every kind, a title, icons,
    /// `_meta`, an output schema and `execution`.
    fn definition() -> Value {
        json!({
            "name": "git_add",
            "title": "Stage files",
            "description": "Adds file contents to the staging area",
            "inputSchema": {
                "type": "object",
                "title": "GitAdd",
                "properties": {
                    "repo_path": {"type": "string", "title": "Repo Path"},
                    "files": {"type": "array", "items": {"type": "string"}, "title": "Files"}
                },
                "required": ["repo_path", "files"]
            },
            "outputSchema": {"type": "object", "properties": {"result": {"type": "string"}}, "required": ["result"]},
            "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
            "icons": [{"src": "https://example.com/git.png", "mimeType": "image/png"}],
            "_meta": {"io.example/owner": "git"},
            "execution": {"taskSupport": "optional"}
        })
    }

    fn row(edit: impl Fn(String) -> String) -> Tool {
        let server = Server {
            name: "git".into(),
            transport: Transport::Stdio {
                command: "mcp-server-git".into(),
                args: vec![],
                env: vec![],
            },
        };
        let done = from_server(&server, &[definition()], None, None).unwrap();
        let catalog = catalog_check::compile(&edit(done.imported.toml)).unwrap();
        catalog
            .tools
            .into_iter()
            .find(|t| t.name == "git_add")
            .unwrap()
    }

    #[test]
    fn a_row_as_imported_is_listed_as_its_server_wrote_it() {
        let tool = row(|text| text);
        let mut expected = definition();
        expected.as_object_mut().unwrap().remove("execution");
        assert_eq!(faithful(&tool, &definition()), expected);
        assert_eq!(overrides(&tool, &definition()), [] as [String; 0]);
    }

    #[test]
    fn what_the_row_overrides_wins_and_is_named() {
        let tool = row(|text| {
            text.replace(
                "description = \"Adds file contents to the staging area\"",
                "description = \"Stages files for the next commit.\"",
            )
            .replace(
                "effect = \"stages\"\ntier = \"gated\"",
                "effect = \"reads\"\ntier = \"silent\"",
            )
        });
        let listed = faithful(&tool, &definition());
        assert_eq!(listed["description"], "Stages files for the next commit.");
        assert_eq!(
            listed["annotations"],
            json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
        );
        assert_eq!(listed["title"], "Stage files");
        assert_eq!(listed["inputSchema"], definition()["inputSchema"]);
        assert_eq!(
            overrides(&tool, &definition()),
            [
                "the description",
                "the effect reads, where the server's annotations say stages (listed with readOnlyHint: true)"
            ]
        );
    }
}
