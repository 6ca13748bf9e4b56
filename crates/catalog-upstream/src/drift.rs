//! Drift: each pinned row against the tool its upstream lists now. A row is served only
//! while the upstream's definition hashes to the digest the catalog recorded at import.
//!
//! The digest is the contract; the snapshot file beside the catalog (see
//! [`Snapshot`]) keeps the definitions as imported, so a report can name the fields that
//! changed rather than only say that something did.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use catalog_check::import::{Offers, snapshot_key};
use catalog_check::model::CatalogModel;
use catalog_check::pin::{changes, digest};
use serde_json::Value;

/// How one pinned row stands against its upstream.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Standing {
    /// The upstream lists the tool exactly as imported.
    Current,
    /// The upstream's definition no longer matches the pin.
    Changed {
        /// The digest of what the upstream lists now.
        now: String,
        /// What differs from the imported definition, as JSON Pointers; empty when the
        /// imported definition is not in the snapshot.
        fields: Vec<String>,
    },
    /// The upstream no longer lists the tool.
    Gone,
    /// The upstream could not be reached or listed.
    Unreachable(String),
}

impl Standing {
    /// Whether the row may be served.
    #[must_use]
    pub fn is_current(&self) -> bool {
        matches!(self, Standing::Current)
    }

    /// When a withheld row is served again: what its refusal tells the client.
    #[must_use]
    pub fn served_again(&self) -> &'static str {
        match self {
            Standing::Unreachable(_) => "once the gateway reaches its server again",
            _ => "once the catalog's maintainer re-imports and reviews it",
        }
    }
}

impl fmt::Display for Standing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Standing::Current => f.write_str("matches its pin"),
            Standing::Changed { now, fields } if fields.is_empty() => write!(
                f,
                "its upstream definition changed since import (now {now}; the imported definition is not in the snapshot file, so the fields cannot be named)"
            ),
            Standing::Changed { fields, .. } => write!(
                f,
                "its upstream definition changed since import: {}",
                fields.join(", ")
            ),
            Standing::Gone => f.write_str("its upstream no longer lists it"),
            Standing::Unreachable(why) => write!(f, "its upstream is unavailable: {why}"),
        }
    }
}

/// One upstream compared with the catalog.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Comparison {
    /// Each pinned row of this upstream (by index in the catalog) and its standing.
    pub rows: Vec<(usize, Standing)>,
    /// Tools the upstream lists that no row pins: never served until imported.
    pub unimported: Vec<String>,
}

impl Comparison {
    /// The rows that may not be served, with why.
    pub fn withheld(&self) -> impl Iterator<Item = &(usize, Standing)> {
        self.rows.iter().filter(|(_, s)| !s.is_current())
    }
}

/// Compares the rows pinned to `upstream` with the tools it lists now.
#[must_use]
pub fn compare(
    catalog: &CatalogModel,
    upstream: &str,
    listed: &[Value],
    snapshot: &Snapshot,
) -> Comparison {
    let by_name: BTreeMap<&str, &Value> = listed
        .iter()
        .filter_map(|tool| Some((tool.get("name")?.as_str()?, tool)))
        .collect();
    let mut pinned = BTreeSet::new();
    let rows = catalog
        .tools
        .iter()
        .enumerate()
        .filter_map(|(i, tool)| {
            let source = tool.upstream.as_ref().filter(|s| s.upstream == upstream)?;
            pinned.insert(source.tool.as_str());
            let before = snapshot.get(upstream, &source.tool);
            let standing = standing(
                &source.digest,
                by_name.get(source.tool.as_str()).copied(),
                before,
            );
            Some((i, standing))
        })
        .collect();
    let unimported = by_name
        .keys()
        .filter(|name| !pinned.contains(*name))
        .map(|name| (*name).to_owned())
        .collect();
    Comparison { rows, unimported }
}

/// How a pin stands against what its server lists `now` (`None`: not listed); `before`
/// is the listing as imported, from the snapshot, to name what changed.
fn standing(pin: &str, now: Option<&Value>, before: Option<&Value>) -> Standing {
    let Some(now) = now else {
        return Standing::Gone;
    };
    let now_digest = digest(now);
    if now_digest == pin {
        return Standing::Current;
    }
    let fields = before
        .filter(|before| digest(before) == pin)
        .map(|before| changes(before, now))
        .unwrap_or_default();
    Standing::Changed {
        now: now_digest,
        fields,
    }
}

/// How each `[[prompt]]` and `[[resource]]` table pinned to `upstream` (by index in
/// [`CatalogModel::offers`]) stands against what it offers now; `offers` is `Err` with why
/// the upstream could not be listed.
#[must_use]
pub fn compare_offers(
    catalog: &CatalogModel,
    upstream: &str,
    offers: Result<&Offers, &str>,
    snapshot: &Snapshot,
) -> Vec<(usize, Standing)> {
    catalog
        .offers
        .iter()
        .enumerate()
        .filter(|(_, offer)| offer.upstream == upstream)
        .map(|(i, offer)| {
            let standing = match offers {
                Ok(offers) => standing(
                    &offer.digest,
                    offers.find(&offer.on_upstream),
                    snapshot.get(upstream, &snapshot_key(&offer.on_upstream)),
                ),
                Err(why) => Standing::Unreachable(why.to_owned()),
            };
            (i, standing)
        })
        .collect()
}

/// Every row pinned to `upstream` withheld because it cannot be reached.
#[must_use]
pub fn unreachable(catalog: &CatalogModel, upstream: &str, why: &str) -> Comparison {
    let rows = catalog
        .tools
        .iter()
        .enumerate()
        .filter(|(_, tool)| {
            tool.upstream
                .as_ref()
                .is_some_and(|s| s.upstream == upstream)
        })
        .map(|(i, _)| (i, Standing::Unreachable(why.to_owned())))
        .collect();
    Comparison {
        rows,
        unimported: Vec::new(),
    }
}

/// The upstream definitions as imported: `{"UPSTREAM": {"TOOL": {...}}}`, with prompts,
/// resources and templates by [`snapshot_key`] beside the tools, kept in a JSON
/// file beside the catalog ([`Snapshot::path_for`]). Import writes it; the gateway and
/// `check --upstreams` read it only to name what changed.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Snapshot(BTreeMap<String, BTreeMap<String, Value>>);

impl Snapshot {
    /// The snapshot file of the catalog at `catalog`: `catalog.toml` → `catalog.upstreams.json`.
    #[must_use]
    pub fn path_for(catalog: &Path) -> PathBuf {
        catalog.with_extension("upstreams.json")
    }

    /// Reads the snapshot of the catalog at `catalog`; a missing file is an empty one.
    ///
    /// # Errors
    /// The file exists but cannot be read or is not a snapshot.
    pub fn read_for(catalog: &Path) -> Result<Snapshot, String> {
        let path = Snapshot::path_for(catalog);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Snapshot::default()),
            Err(e) => return Err(format!("cannot read `{}`: {e}", path.display())),
        };
        serde_json::from_str(&text).map(Snapshot).map_err(|e| {
            format!(
                "`{}` is not an upstream snapshot ({e}); delete it and re-import to write it again",
                path.display()
            )
        })
    }

    /// Writes the snapshot of the catalog at `catalog`.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn write_for(&self, catalog: &Path) -> Result<(), String> {
        let path = Snapshot::path_for(catalog);
        let mut text = serde_json::to_string_pretty(&self.0).unwrap_or_default();
        text.push('\n');
        std::fs::write(&path, text).map_err(|e| format!("cannot write `{}`: {e}", path.display()))
    }

    /// The imported definition of `tool` on `upstream`.
    #[must_use]
    pub fn get(&self, upstream: &str, tool: &str) -> Option<&Value> {
        self.0.get(upstream)?.get(tool)
    }

    /// Records `upstream`'s definitions, replacing what it held for that upstream.
    pub fn set(&mut self, upstream: &str, tools: BTreeMap<String, Value>) {
        self.0.insert(upstream.to_owned(), tools);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn tool(description: &str) -> Value {
        json!({
            "name": "echo",
            "description": description,
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
            "execution": {"taskSupport": "forbidden"},
        })
    }

    /// A catalog with `echo` and `gone` pinned to upstream `up` as `imported`.
    fn catalog(imported: &Value) -> CatalogModel {
        let source = format!(
            r#"
[settings]
search-tool = "search"
ask-tool = "ask"
arguments = "json"

[[upstream]]
name = "up"
command = "up-server"

[[tool]]
name = "search"
description = "Finds tools."
visibility = "inline"
mcp = false
[tool.params]
query = {{ type = "string", description = "What to find." }}

[[tool]]
name = "ask"
description = "Asks the user."
visibility = "inline"
effect = "reads"
tier = "silent"
mcp = false
[tool.params]
question = {{ type = "string", description = "The question." }}

[[tool]]
name = "echo"
description = "Repeats the text."
visibility = "discoverable"
effect = "reads"
tier = "silent"
upstream = "up"
upstream-digest = "{}"
[tool.params]
text = {{ type = "string", description = "The text." }}

[[tool]]
name = "gone"
description = "Was listed once."
visibility = "discoverable"
effect = "reads"
tier = "silent"
upstream = "up"
upstream-digest = "{}"
"#,
            digest(imported),
            digest(&json!({"name": "gone"})),
        );
        catalog_check::compile(&source).unwrap()
    }

    #[test]
    fn each_pinned_row_is_current_changed_or_gone_and_new_tools_are_named() {
        let imported = tool("Repeats the text.");
        let catalog = catalog(&imported);
        let now = [tool("Repeats the text."), json!({"name": "fresh"})];
        let compared = compare(&catalog, "up", &now, &Snapshot::default());
        assert_eq!(compared.rows, [(2, Standing::Current), (3, Standing::Gone)]);
        assert_eq!(compared.unimported, ["fresh"]);
        assert_eq!(compared.withheld().count(), 1);
    }

    #[test]
    fn a_change_anywhere_in_the_definition_is_drift_named_from_the_snapshot() {
        let imported = tool("Repeats the text.");
        let catalog = catalog(&imported);
        let mut changed = imported.clone();
        changed["execution"]["taskSupport"] = json!("required");
        let mut snapshot = Snapshot::default();
        snapshot.set("up", [("echo".to_owned(), imported)].into());
        let compared = compare(&catalog, "up", std::slice::from_ref(&changed), &snapshot);
        assert_eq!(
            compared.rows[0],
            (
                2,
                Standing::Changed {
                    now: digest(&changed),
                    fields: vec!["/execution/taskSupport".to_owned()],
                }
            )
        );
        // Without the imported definition on record, the change is still found.
        let blind = compare(
            &catalog,
            "up",
            std::slice::from_ref(&changed),
            &Snapshot::default(),
        );
        assert!(
            matches!(&blind.rows[0].1, Standing::Changed { fields, .. } if fields.is_empty()),
            "{blind:?}"
        );
        assert!(blind.rows[0].1.to_string().contains("cannot be named"));
    }

    #[test]
    fn another_upstreams_rows_are_not_compared() {
        let catalog = catalog(&tool("Repeats the text."));
        assert_eq!(
            compare(&catalog, "other", &[], &Snapshot::default()),
            Comparison::default()
        );
        let down = unreachable(&catalog, "up", "connection refused");
        assert_eq!(down.rows.len(), 2);
        assert!(down.rows[0].1.to_string().contains("connection refused"));
    }

    #[test]
    fn the_snapshot_lives_beside_the_catalog_and_round_trips() {
        let dir = std::env::temp_dir().join(format!("catalog-snapshot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let catalog = dir.join("catalog.toml");
        assert_eq!(
            Snapshot::path_for(&catalog),
            dir.join("catalog.upstreams.json")
        );
        assert_eq!(Snapshot::read_for(&catalog).unwrap(), Snapshot::default());
        let mut snapshot = Snapshot::default();
        snapshot.set("up", [("echo".to_owned(), tool("x"))].into());
        snapshot.write_for(&catalog).unwrap();
        assert_eq!(Snapshot::read_for(&catalog).unwrap(), snapshot);
        std::fs::write(Snapshot::path_for(&catalog), "[1]").unwrap();
        let error = Snapshot::read_for(&catalog).unwrap_err();
        assert!(error.contains("re-import"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
