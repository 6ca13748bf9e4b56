//! The catalog as the gateway reads it at start, as `catalog_core` tools: the verifier,
//! the MCP renderer and the search run on it exactly as on a compiled catalog.
//!
//! `ToolId` finds a tool by name without a value to ask, so the rows live in one
//! process-wide table, set once by [`load`]: a gateway serves one catalog.

use std::collections::HashMap;
use std::sync::OnceLock;

use catalog_compiler::model::{Catalog, Tool};
use catalog_compiler::pin::schema_differences;
use catalog_core::{
    Access, BoxFuture, Call, Caller, Dispatch, HandledBy, Proof, ToolId, ToolSpec, Value,
};

/// The most rows a gateway catalog may have: the width of its tool sets.
pub const MAX_ROWS: usize = 64 * WORDS;

/// The 64-bit words of the gateway's tool sets.
pub const WORDS: usize = 400;

/// The catalog, read and checked, with its rows as specs.
#[derive(Debug)]
pub struct Loaded {
    /// The catalog as the compiler reads it.
    pub catalog: Catalog,
    specs: &'static [ToolSpec],
    names: HashMap<&'static str, u32>,
}

static LOADED: OnceLock<Loaded> = OnceLock::new();

/// Makes `catalog` the process's catalog.
///
/// # Errors
/// A catalog was loaded before, or this one has more than [`MAX_ROWS`] rows.
pub fn load(catalog: Catalog) -> Result<&'static Loaded, String> {
    if catalog.tools.len() > MAX_ROWS {
        return Err(format!(
            "the catalog has {} rows; a gateway serves at most {MAX_ROWS}",
            catalog.tools.len()
        ));
    }
    // Built once per process, so the specs may live as long as it does.
    let specs = catalog_compiler::specs(&catalog);
    let names = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| (spec.name, u32::try_from(i).unwrap_or(u32::MAX)))
        .collect();
    let loaded = Loaded {
        catalog,
        specs,
        names,
    };
    LOADED
        .set(loaded)
        .map_err(|_| String::from("a catalog is already loaded in this process"))?;
    Ok(loaded_catalog())
}

fn loaded_catalog() -> &'static Loaded {
    // Rows exist only once a catalog is loaded: every `Row` was made from it.
    LOADED
        .get()
        .expect("rows are made only from a loaded catalog")
}

impl Loaded {
    /// Every row, in catalog order.
    pub fn rows(&self) -> impl Iterator<Item = Row> + '_ {
        (0..self.specs.len()).filter_map(Row::from_index)
    }

    /// Every row's spec, in catalog order.
    #[must_use]
    pub fn specs(&self) -> &'static [ToolSpec] {
        self.specs
    }

    /// The compiler's model of a row.
    #[must_use]
    pub fn tool(&self, row: Row) -> &Tool {
        &self.catalog.tools[row.index()]
    }
}

/// A row of the loaded catalog.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Row(u32);

impl std::fmt::Debug for Row {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl ToolId for Row {
    const COUNT: usize = MAX_ROWS;

    fn index(self) -> usize {
        self.0 as usize
    }

    fn from_index(index: usize) -> Option<Self> {
        let loaded = LOADED.get()?;
        (index < loaded.specs.len())
            .then(|| u32::try_from(index).ok())
            .flatten()
            .map(Row)
    }

    fn name(self) -> &'static str {
        self.spec().name
    }

    fn from_name(name: &str) -> Option<Self> {
        LOADED.get()?.names.get(name).copied().map(Row)
    }

    fn spec(self) -> &'static ToolSpec {
        &loaded_catalog().specs[self.index()]
    }
}

/// A verified call, as the gateway forwards it: the row and its checked arguments.
#[derive(PartialEq, Debug)]
pub struct Forward {
    /// The row called.
    pub row: Row,
    /// Its arguments, checked against the row's reviewed schema.
    pub arguments: Value,
}

impl Call for Forward {
    type Tool = Row;

    fn from_checked(tool: Row, arguments: Value) -> Result<Self, String> {
        Ok(Forward {
            row: tool,
            arguments,
        })
    }

    fn tool(&self) -> Row {
        self.row
    }
}

/// What runs a verified call: the upstreams (see [`crate::Gateway`]).
pub trait Runs: Send + Sync {
    /// Forwards a verified call of `row`, answering with the upstream's result as JSON.
    fn forward(&self, row: Row, arguments: Value) -> BoxFuture<'_, Result<Value, String>>;

    /// Whether `row` is the catalog's search tool, which the gateway answers itself.
    fn is_search(&self, row: Row) -> bool;
}

impl<R: Runs> HandledBy<R> for Forward {
    type Error = String;
    type Search = Value;

    fn dispatch<'h>(
        self,
        handler: &'h R,
        _: Caller,
        _: Proof<'_>,
    ) -> Dispatch<BoxFuture<'h, Result<Value, String>>, Value> {
        if handler.is_search(self.row) {
            Dispatch::Search(self.arguments)
        } else {
            Dispatch::Ran(handler.forward(self.row, self.arguments))
        }
    }
}

/// A pinned row as `tools/list` shows it: the tool its server lists (which hashes to the
/// row's pin), title, annotations, icons and `_meta` as the server wrote them, with what
/// the row deliberately says instead — its name, its reviewed description, its schemas
/// where they differ from the server's, and `readOnlyHint` where its access level does.
/// `execution` is left out: calls through the gateway are never tasks.
#[must_use]
pub fn faithful(tool: &Tool, definition: &Value) -> Value {
    let mut out = definition.as_object().cloned().unwrap_or_default();
    out.remove("execution");
    out.insert("name".into(), tool.name.clone().into());
    out.insert("description".into(), tool.description.clone().into());
    let input = catalog_compiler::schema::input(tool);
    if definition
        .get("inputSchema")
        .is_none_or(|server| !schema_differences(&input, server).is_empty())
    {
        out.insert("inputSchema".into(), input);
    }
    match catalog_compiler::schema::output(tool) {
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
    let read_only = tool.role.access() == Some(Access::ReadOnly);
    if read_only != says_read_only(definition) {
        let annotations = out
            .entry("annotations")
            .or_insert_with(|| Value::Object(serde_json::Map::new()));
        if let Value::Object(hints) = annotations {
            hints.insert("readOnlyHint".into(), read_only.into());
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
    let changed = schema_differences(&catalog_compiler::schema::input(tool), server);
    if !changed.is_empty() {
        found.push(format!("the input schema (at {})", pointers(&changed)));
    }
    match (
        catalog_compiler::schema::output(tool),
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
    let access = tool.role.access().unwrap_or(Access::FullAccess);
    let read_only = access == Access::ReadOnly;
    if read_only != says_read_only(definition) {
        found.push(if read_only {
            "the access level read-only, where the server does not say readOnlyHint: true (listed with readOnlyHint: true)".to_string()
        } else {
            format!(
                "the access level {}, where the server says readOnlyHint: true (listed with readOnlyHint: false)",
                access.as_str()
            )
        });
    }
    found
}

/// Whether a definition's annotations say the tool only reads.
fn says_read_only(definition: &Value) -> bool {
    definition.pointer("/annotations/readOnlyHint") == Some(&Value::Bool(true))
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
    use catalog_compiler::import::{Server, from_server};
    use catalog_compiler::model::Transport;
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
        let catalog = catalog_compiler::compile(&edit(done.imported.toml)).unwrap();
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
                "tier = \"gated\"\naccess = \"full-access\"",
                "tier = \"silent\"\naccess = \"read-only\"",
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
                "the access level read-only, where the server does not say readOnlyHint: true (listed with readOnlyHint: true)"
            ]
        );
    }
}
