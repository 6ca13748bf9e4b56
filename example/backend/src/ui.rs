//! What the app's window should do after a tool ran, recorded for the UI to pick up.

use app_catalog as cat;
use serde_json::Value;

use crate::Area;

/// How a table opens: many rows, or one row at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViewMode {
    /// Many rows in a grid.
    Grid,
    /// One row at a time with every field.
    Form,
}

// `openTable` and `proposeOpenTable` each get their own generated enum for the same
// `["grid", "form"]`, so both need converting.
impl From<cat::OpenTableMode> for ViewMode {
    fn from(mode: cat::OpenTableMode) -> ViewMode {
        match mode {
            cat::OpenTableMode::Grid => ViewMode::Grid,
            cat::OpenTableMode::Form => ViewMode::Form,
        }
    }
}

impl From<cat::ProposeOpenTableMode> for ViewMode {
    fn from(mode: cat::ProposeOpenTableMode) -> ViewMode {
        match mode {
            cat::ProposeOpenTableMode::Grid => ViewMode::Grid,
            cat::ProposeOpenTableMode::Form => ViewMode::Form,
        }
    }
}

/// Something the app's window should do, recorded for the UI to pick up.
#[derive(Clone, Debug, PartialEq)]
pub enum UiEvent {
    /// Switch the main grid to a table.
    OpenTable {
        /// The table.
        table: String,
        /// Grid or form.
        mode: ViewMode,
        /// The row to select, by primary key.
        row_key: Option<Value>,
    },
    /// Show a chip in the chat that opens a table when clicked.
    TableChip {
        /// The table.
        table: String,
        /// The chip's text.
        label: String,
        /// Grid or form.
        mode: ViewMode,
    },
    /// Show a chip in the chat that opens a join of two tables when clicked.
    JoinViewChip {
        /// The left table.
        left_table: String,
        /// The right table.
        right_table: String,
        /// `(left column, right column)` pairs that must be equal.
        on: Vec<(String, String)>,
        /// `inner`, `left`, `right` or `full`.
        join_type: &'static str,
        /// The chip's text.
        label: String,
    },
    /// Open the staging panel.
    OpenStagingPanel,
    /// A question for the user in the chat.
    Question {
        /// The question.
        question: String,
        /// Answers offered as buttons.
        choices: Vec<String>,
    },
    /// Open a saved view spec in the main grid.
    LoadSpec {
        /// The spec's name.
        name: String,
        /// The spec: table, and filter, sort and columns as queryRows takes them.
        spec: Value,
    },
    /// Show a chart preview in the chat; clicking it pins the chart to the dashboard.
    ChartPreview {
        /// A Vega-Lite specification with its data inline.
        spec: Value,
    },
    /// Offer a file in a save dialog.
    SaveFile {
        /// The suggested file name.
        file_name: String,
        /// Its media type, e.g. `text/csv`.
        media_type: String,
        /// Its content, in the encoding asked for.
        bytes: Vec<u8>,
    },
    /// Redraw an area after a tool changed what it shows.
    Refresh(Area),
}
