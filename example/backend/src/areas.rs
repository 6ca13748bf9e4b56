//! Which parts of the app's window must redraw after a tool succeeds.

use app_catalog::Tool;

/// A part of the app's window that shows database state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Area {
    /// The conversation, where chips, questions and chart previews appear.
    Chat,
    /// The main grid showing the open table's rows.
    Grid,
    /// The staging panel listing changes that wait for review.
    StagingPanel,
    /// The commit history.
    History,
    /// The sidebar's list of tables with their row and column counts.
    TableList,
    /// The sidebar's saved view specs.
    SavedSpecs,
}

/// The areas a successful call of `tool` changes; empty for tools that only read.
///
/// This match is exhaustive on purpose and must stay without a wildcard arm: a row
/// added to `catalog.toml` adds a `Tool` variant, and this crate then fails to compile
/// until someone decides here what the new tool makes the window redraw. A `_ => &[]`
/// arm would silently leave the new tool's effects off the screen.
#[must_use]
pub const fn refreshes(tool: Tool) -> &'static [Area] {
    use Area::{Chat, Grid, History, SavedSpecs, StagingPanel, TableList};
    match tool {
        // The agent loop answers searches; the tools below only read or ask for time.
        Tool::SearchTools
        | Tool::GetCurrentTime
        | Tool::ListAttachments
        | Tool::ReadAttachment
        | Tool::ListTables
        | Tool::DescribeTable
        | Tool::QueryRows
        | Tool::ListCommits
        | Tool::Aggregate
        | Tool::FindDuplicates
        | Tool::VectorSearch
        | Tool::RunSql
        | Tool::IndexStats
        | Tool::ListSavedSpecs
        // A save dialog, not a change to any area.
        | Tool::ExportCsv => &[],
        Tool::Ask | Tool::ProposeOpenTable | Tool::ProposeJoinView | Tool::ProposeChart => &[Chat],
        Tool::OpenTable | Tool::LoadSpec => &[Grid],
        Tool::StageItem
        | Tool::BulkEdit
        | Tool::ShowStaging
        | Tool::UndoStaged
        | Tool::DiscardStaged
        | Tool::RevertCommit
        | Tool::ImportCsv
        | Tool::CreateTable
        | Tool::AddColumn
        | Tool::RenameColumn
        | Tool::FindReplace
        | Tool::CreateIndex => &[StagingPanel],
        // A commit can create tables and columns as well as change rows.
        Tool::CommitStaged => &[Grid, StagingPanel, History, TableList],
        Tool::SaveSpec => &[SavedSpecs],
        Tool::DropIndex => &[TableList],
        Tool::DeleteColumn | Tool::TruncateTable => &[Grid, TableList],
        // Dropping a table also removes the saved specs based on it.
        Tool::DropTable => &[Grid, TableList, SavedSpecs],
    }
}
