//! What an import did, as `cargo catalog import` prints it.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value};

use super::model::{Field, Input, Kind, Row, Type};
use crate::model::Effect;

/// What an import did: how many tools were mapped exactly, which schemas went through an
/// escape hatch and why, which `rust-name`s were assigned, and which MCP keys a catalog has
/// no place for. Its [`Display`](fmt::Display) form is the indented summary that
/// `cargo catalog import` prints under its first line, one item per line.
#[derive(Debug, Clone, Default)]
pub struct Report {
    tools: usize,
    exact: usize,
    read_only: usize,
    stages: usize,
    pub(super) search: String,
    pub(super) ask: String,
    /// Escape hatches by reason, and where.
    schema: BTreeMap<String, Vec<String>>,
    whole: Vec<(String, String)>,
    rust_names: Vec<String>,
    pub(super) filled_descriptions: Vec<String>,
    /// Tools without a description, described by their title.
    pub(super) titled_descriptions: Vec<String>,
    /// Tools left out, each with why.
    pub(super) refused: Vec<String>,
    /// Rows whose compiled schemas say something else than the server's, and where.
    pub(super) changed: Vec<String>,
    /// Whether the rows are served by a gateway, which passes on what the catalog has no
    /// place for (titles, annotations, icons, `_meta`) as the server wrote it.
    pub(super) served: bool,
    /// MCP keys the catalog has no place for, and on how many tools.
    dropped: BTreeMap<String, usize>,
    /// Rows named with a prefix, as `` `name` → `prefixed` ``.
    pub(super) renamed: Vec<String>,
}

impl Report {
    /// The number of tools imported (the added search and ask tools not counted).
    #[must_use]
    pub fn tools(&self) -> usize {
        self.tools
    }

    /// How many imported tools read (`readOnlyHint: true`); the rest stage or act.
    #[must_use]
    pub fn read_only(&self) -> usize {
        self.read_only
    }

    /// How many imported tools have every parameter (and output) in the type language,
    /// with no escape hatch.
    #[must_use]
    pub fn exact(&self) -> usize {
        self.exact
    }

    /// The name given to the added search tool (`searchTools`, or a numbered variant when
    /// an imported tool takes it); the catalog's own, for an import into a catalog.
    #[must_use]
    pub fn search_tool(&self) -> &str {
        &self.search
    }

    /// The name given to the added ask tool (`ask`, or a numbered variant); the catalog's
    /// own, for an import into a catalog.
    #[must_use]
    pub fn ask_tool(&self) -> &str {
        &self.ask
    }

    /// The tools left out, each with why (`` `name`: ... ``): a catalog cannot serve them
    /// as their server defines them.
    #[must_use]
    pub fn refused(&self) -> &[String] {
        &self.refused
    }

    /// The rows whose compiled input or output schema differs from the server's, with
    /// the JSON Pointers where; empty when every schema keeps its meaning.
    #[must_use]
    pub fn changed(&self) -> &[String] {
        &self.changed
    }

    /// The tools that an import into an existing catalog named with the prefix, because
    /// a row already had their name: `` `get_time` → `time_get_time` `` each.
    #[must_use]
    pub fn renamed(&self) -> &[String] {
        &self.renamed
    }

    pub(super) fn not_kept(&mut self, tool: &Value, annotations: Option<&Value>, described: bool) {
        let mut count = |k: String| *self.dropped.entry(k).or_default() += 1;
        for k in tool.as_object().into_iter().flat_map(Map::keys) {
            match k.as_str() {
                "name" | "description" | "inputSchema" | "outputSchema" | "annotations" => {}
                "title" if !described => {}
                other => count(format!("`{other}`")),
            }
        }
        let notes = annotations.and_then(Value::as_object).into_iter().flatten();
        for (k, _) in notes {
            match k.as_str() {
                "readOnlyHint" | "destructiveHint" | "openWorldHint" => {}
                "title" if !described && tool.get("title").is_none() => {}
                other => count(format!("`annotations.{other}`")),
            }
        }
    }

    pub(super) fn add(&mut self, row: &Row) {
        self.tools += 1;
        self.read_only += usize::from(row.effect == Effect::Reads);
        self.stages += usize::from(row.effect == Effect::Stages);
        if let Some(r) = &row.rust_name {
            self.rust_names.push(format!("tool `{}` → `{r}`", row.name));
        }
        let before = self.schema.values().map(Vec::len).sum::<usize>();
        match &row.input {
            Input::Whole(_, reason) => self.whole.push((row.name.clone(), reason.to_string())),
            Input::Params(params) => self.fields(params, &format!("`{}`", row.name)),
        }
        if let Some(out) = &row.output {
            self.ty(out, &format!("`{}` output", row.name));
        }
        let after = self.schema.values().map(Vec::len).sum::<usize>();
        if before == after && matches!(row.input, Input::Params(_)) {
            self.exact += 1;
        }
    }

    fn fields(&mut self, fields: &[Field], at: &str) {
        for f in fields {
            let here = format!("{at}.{}", f.name);
            if let Some(r) = &f.rust_name {
                self.rust_names
                    .push(format!("field `{}` in {at} → `{r}`", f.name));
            }
            self.ty(&f.ty, &here);
        }
    }

    fn ty(&mut self, t: &Type, at: &str) {
        match &t.kind {
            Kind::Raw(_, reason) => self
                .schema
                .entry(reason.to_string())
                .or_default()
                .push(at.to_string()),
            Kind::Array(item) => self.ty(item, &format!("{at}[]")),
            Kind::Object(Some(fields)) => self.fields(fields, at),
            _ => {}
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "  effect: {} reads (readOnlyHint, silent), {} stages (neither destructive nor open world, gated), {} acts (gated)",
            self.read_only,
            self.stages,
            self.tools - self.read_only - self.stages
        )?;
        writeln!(
            f,
            "  mapped exactly, every parameter in the type language: {} tools",
            self.exact
        )?;
        let hatches: usize = self.schema.values().map(Vec::len).sum();
        writeln!(
            f,
            "  kept via `schema` (parameters, properties or items): {hatches}"
        )?;
        let mut by_count: Vec<_> = self.schema.iter().collect();
        by_count.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
        for (reason, at) in by_count {
            writeln!(f, "    {:>5}  {reason}  (e.g. {})", at.len(), at[0])?;
        }
        writeln!(f, "  tools kept via `input-schema`: {}", self.whole.len())?;
        for (name, reason) in &self.whole {
            writeln!(f, "    {name}: {reason}")?;
        }
        writeln!(f, "  `rust-name`s assigned: {}", self.rust_names.len())?;
        for r in &self.rust_names {
            writeln!(f, "    {r}")?;
        }
        if self.changed.is_empty() {
            writeln!(
                f,
                "  input and output schemas as the server wrote them: all {}",
                self.tools
            )?;
        } else {
            writeln!(
                f,
                "  schemas changed on import: {} (the gateway lists the row's)",
                self.changed.len()
            )?;
            for changed in &self.changed {
                writeln!(f, "    {changed}")?;
            }
        }
        if !self.refused.is_empty() {
            writeln!(f, "  not imported: {}", self.refused.len())?;
            for refused in &self.refused {
                writeln!(f, "    {refused}")?;
            }
        }
        let list = |keys: &mut dyn Iterator<Item = (&String, &usize)>| -> String {
            keys.map(|(k, n)| format!("{k} ({n})"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if self.served {
            // The gateway lists the pinned definition: all but `execution`, which the
            // SDK's tool type has no field for, and which only matters to task calls.
            let passed = list(&mut self.dropped.iter().filter(|(k, _)| *k != "`execution`"));
            if !passed.is_empty() {
                writeln!(
                    f,
                    "  passed on by the gateway as the server wrote them (pinned by the digest): {passed}"
                )?;
            }
            if let Some(n) = self.dropped.get("`execution`") {
                writeln!(
                    f,
                    "  `execution` ({n}): not listed by the gateway, whose calls are never tasks"
                )?;
            }
        } else if !self.dropped.is_empty() {
            writeln!(
                f,
                "  not kept (no place in a catalog): {}",
                list(&mut self.dropped.iter())
            )?;
        }
        if !self.renamed.is_empty() {
            writeln!(
                f,
                "  renamed with the prefix (their name elsewhere in the catalog): {}",
                self.renamed.join(", ")
            )?;
        }
        if !self.titled_descriptions.is_empty() {
            writeln!(
                f,
                "  tools without a description (their title is used): {}",
                self.titled_descriptions.join(", ")
            )?;
        }
        if !self.filled_descriptions.is_empty() {
            writeln!(
                f,
                "  tools without a description (their name is used): {}",
                self.filled_descriptions.join(", ")
            )?;
        }
        Ok(())
    }
}
