//! A split: which rows are inline and which discoverable, and the catalog as the agent
//! step runs on it, read at run time. Each split is a catalog of its own (the search
//! tool's description names the discoverable rows, the index holds them), held as a
//! value that its requests borrow.

use catalog_check::model::{CatalogModel, Tool};
use catalog_core::{
    BoxFuture, Call, Context, Dispatch, HandledBy, Output, Proof, ToolId, ToolRow, Value,
    Visibility,
};
use catalog_wire::agent::Tools;

/// The 64-bit words of an evaluated catalog's tool sets.
pub(super) const WORDS: usize = 64;

/// A row of an evaluated catalog.
pub(super) type Row = ToolRow;

/// Which rows a split puts inline; the search and ask tools always are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Choice {
    /// As the catalog declares.
    Current,
    /// Every row inline: no search needed.
    AllInline,
    /// Only the search and ask tools inline.
    AllDiscoverable,
    /// The rows a file names, one a line (`#` starts a comment).
    File(String),
}

impl Choice {
    /// `current`, `all-inline`, `all-discoverable`, or a file's path.
    pub(super) fn parse(value: &str) -> Choice {
        match value {
            "current" => Choice::Current,
            "all-inline" => Choice::AllInline,
            "all-discoverable" => Choice::AllDiscoverable,
            path => Choice::File(path.to_string()),
        }
    }

    /// The split's name in reports.
    pub(super) fn name(&self) -> &str {
        match self {
            Choice::Current => "current",
            Choice::AllInline => "all-inline",
            Choice::AllDiscoverable => "all-discoverable",
            Choice::File(path) => path,
        }
    }

    /// Each row's visibility under this split, or every name of the file the catalog
    /// lacks (with its line and the nearest name).
    fn visibilities(&self, catalog: &CatalogModel) -> Result<Vec<Visibility>, Vec<String>> {
        let settings = &catalog.settings;
        let role = |i: usize| i == settings.search_tool || i == settings.ask_tool;
        let all = |inline: &dyn Fn(usize, &Tool) -> bool| {
            catalog
                .tools
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    if role(i) || inline(i, t) {
                        Visibility::Inline
                    } else {
                        Visibility::Discoverable
                    }
                })
                .collect()
        };
        match self {
            Choice::Current => Ok(catalog.tools.iter().map(|t| t.visibility).collect()),
            Choice::AllInline => Ok(all(&|_, _| true)),
            Choice::AllDiscoverable => Ok(all(&|_, _| false)),
            Choice::File(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| vec![format!("cannot read split `{path}`: {e}")])?;
                let names: Vec<&str> = catalog.tools.iter().map(|t| t.name.as_str()).collect();
                let mut inline = vec![false; names.len()];
                let mut unknown = Vec::new();
                for (n, line) in text.lines().enumerate() {
                    let name = line.split('#').next().unwrap_or_default().trim();
                    if name.is_empty() {
                        continue;
                    }
                    match names.iter().position(|t| *t == name) {
                        Some(i) => inline[i] = true,
                        None => unknown.push(format!(
                            "{path}:{}: the catalog has no tool `{name}`{}",
                            n + 1,
                            catalog_check::names::suggest(name, &names)
                                .map(|s| format!("; did you mean `{s}`?"))
                                .unwrap_or_default()
                        )),
                    }
                }
                if unknown.is_empty() {
                    Ok(all(&|i, _| inline[i]))
                } else {
                    Err(unknown)
                }
            }
        }
    }
}

/// One split of the catalog, ready for the agent step.
pub(super) struct Split {
    /// How it was chosen.
    pub(super) choice: Choice,
    /// The catalog under this split.
    pub(super) catalog: catalog_check::Loaded<WORDS>,
    /// The row of the catalog behind each spec, for its declared output.
    pub(super) outputs: Vec<Option<Value>>,
}

impl Split {
    /// `catalog` under `choice`.
    ///
    /// # Errors
    /// The catalog has too many rows, or the file of a `choice` cannot be read or names
    /// tools the catalog lacks (each one).
    pub(super) fn new(catalog: &CatalogModel, choice: Choice) -> Result<Split, Vec<String>> {
        let visibilities = choice.visibilities(catalog)?;
        let mut catalog = catalog.clone();
        for (tool, visibility) in catalog.tools.iter_mut().zip(visibilities) {
            tool.visibility = visibility;
        }
        let loaded = catalog_check::Loaded::new(&catalog)
            .map_err(|too_many| vec![format!("{too_many} in an evaluation")])?;
        let outputs = catalog
            .tools
            .iter()
            .map(catalog_check::schema::output)
            .collect();
        Ok(Split {
            choice,
            catalog: loaded,
            outputs,
        })
    }

    /// How many rows are inline and how many discoverable.
    pub(super) fn counts(&self) -> (usize, usize) {
        let info = self.catalog.info();
        (info.inline.len(), info.discoverable.len())
    }
}

/// The catalog as the agent step sees it during an evaluation.
pub(super) struct Evaluated;

impl Tools<WORDS> for Evaluated {
    type Tool = Row;
    type Call = Answered;
}

/// A verified call, answered without side effects.
#[derive(Debug)]
pub(super) struct Answered(Row);

impl Call for Answered {
    type Tool = Row;

    fn from_checked(tool: Row, _: Value) -> Result<Self, String> {
        Ok(Answered(tool))
    }

    fn tool(&self) -> Row {
        self.0
    }
}

/// Answers every call of a split's rows with a value of the row's declared output (the
/// smallest that fits it), or `{"ok": true}` for a row that declares none: nothing runs.
pub(super) struct Fixed<'s>(pub(super) &'s Split);

impl<'s> HandledBy<Fixed<'s>> for Answered {
    type Error = String;
    type Search = ();

    fn dispatch<'h>(
        self,
        fixed: &'h Fixed<'s>,
        _: Context,
        _: Proof<'_>,
    ) -> Dispatch<BoxFuture<'h, Result<Output, String>>, ()> {
        let value = match &fixed.0.outputs[self.0.index()] {
            Some(schema) => catalog_check::schema::sample(schema),
            None => serde_json::json!({"ok": true}),
        };
        Dispatch::Ran(Box::pin(async move { Ok(Output::from(value)) }))
    }
}
