//! The catalog as the gateway reads it at start, as `catalog_core` tools: the verifier,
//! the MCP renderer and the search run on it exactly as on a compiled catalog. Each
//! gateway holds its own, so a process serves as many catalogs as it starts gateways.

use catalog_check::model::{CatalogModel, Tool};
use catalog_core::{
    BoxFuture, Call, Context, Dispatch, HandledBy, Output, Proof, ToolId, ToolRow, Value,
};
use catalog_upstream::CallFailed;

/// The 64-bit words of the gateway's tool sets.
pub const WORDS: usize = 400;

/// The most rows a gateway catalog may have: the width of its tool sets.
pub const MAX_ROWS: usize = catalog_check::Loaded::<WORDS>::MAX_ROWS;

/// A row of a gateway's catalog.
pub type Row = ToolRow;

/// The tool sets of a gateway catalog.
pub type Rows = catalog_core::ToolSet<Row, WORDS>;

/// The catalog, read and checked, with its rows as the runtime reads them.
#[derive(Debug)]
pub struct Loaded {
    /// The catalog as the compiler reads it.
    pub catalog: CatalogModel,
    /// The catalog as the run time reads it: its rows by name, their specs, its discovery
    /// `Info`. Boxed: its sets are kilobytes, which every move of a `Loaded` (into a
    /// gateway's start, a future) would copy.
    pub rows: Box<catalog_check::Loaded<WORDS>>,
}

impl Loaded {
    /// `catalog`, ready to serve.
    ///
    /// # Errors
    /// The catalog has more than [`MAX_ROWS`] rows.
    pub fn new(catalog: CatalogModel) -> Result<Loaded, String> {
        let rows = catalog_check::Loaded::new(&catalog)
            .map_err(|too_many| format!("{too_many} in a gateway"))?;
        Ok(Loaded {
            catalog,
            rows: Box::new(rows),
        })
    }

    /// The compiler's model of a row.
    #[must_use]
    pub fn tool(&self, row: Row) -> &Tool {
        &self.catalog.tools[row.index()]
    }

    /// The upstream a row forwards to, if it has one.
    #[must_use]
    pub fn upstream(&self, row: Row) -> Option<&str> {
        let source = self.tool(row).upstream.as_ref()?;
        Some(&source.upstream)
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
