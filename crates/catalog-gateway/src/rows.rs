//! The catalog as the gateway reads it at start, as `catalog_core` tools: the verifier,
//! the MCP renderer and the search run on it exactly as on a compiled catalog.
//!
//! `ToolId` finds a tool by name without a value to ask, so the rows live in one
//! process-wide table, set once by [`load`]: a gateway serves one catalog.

use std::collections::HashMap;
use std::sync::OnceLock;

use catalog_check::model::{CatalogModel, Tool};
use catalog_core::{
    BoxFuture, Call, Context, Dispatch, HandledBy, Output, Proof, ToolId, ToolSpec, Value,
};
use catalog_upstream::CallFailed;

/// The most rows a gateway catalog may have: the width of its tool sets.
pub const MAX_ROWS: usize = 64 * WORDS;

/// The 64-bit words of the gateway's tool sets.
pub const WORDS: usize = 400;

/// The catalog, read and checked, with its rows as specs.
#[derive(Debug)]
pub struct Loaded {
    /// The catalog as the compiler reads it.
    pub catalog: CatalogModel,
    specs: &'static [ToolSpec],
    names: HashMap<&'static str, u32>,
}

static LOADED: OnceLock<Loaded> = OnceLock::new();

/// Makes `catalog` the process's catalog.
///
/// # Errors
/// A catalog was loaded before, or this one has more than [`MAX_ROWS`] rows.
pub fn load(catalog: CatalogModel) -> Result<&'static Loaded, String> {
    if catalog.tools.len() > MAX_ROWS {
        return Err(format!(
            "the catalog has {} rows; a gateway serves at most {MAX_ROWS}",
            catalog.tools.len()
        ));
    }
    // Built once per process, so the specs may live as long as it does.
    let specs = catalog_check::specs(&catalog);
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

/// The tool sets of a gateway catalog.
pub type Rows = catalog_core::ToolSet<Row, WORDS>;

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
    fn forward(&self, row: Row, arguments: Value) -> BoxFuture<'_, Result<Value, CallFailed>>;

    /// Whether `row` is the catalog's search tool, which the gateway answers itself.
    fn is_search(&self, row: Row) -> bool;
}

impl<R: Runs> HandledBy<R> for Forward {
    type Error = CallFailed;
    type Search = Value;

    fn dispatch<'h>(
        self,
        handler: &'h R,
        _: Context,
        _: Proof<'_>,
    ) -> Dispatch<BoxFuture<'h, Result<Output, CallFailed>>, Value> {
        if handler.is_search(self.row) {
            Dispatch::Search(self.arguments)
        } else {
            let forwarded = handler.forward(self.row, self.arguments);
            Dispatch::Ran(Box::pin(async move { forwarded.await.map(Output::from) }))
        }
    }
}
