//! `impl Handler for Backend`: one method per tool, each a read or a write on the store
//! through the module that holds the tool's work, and the UI events it causes.

use app_catalog::{self as cat, Handler, Tool};
use catalog_core::{Caller, Context, Output};
use rusqlite::Connection;
use serde_json::{Value, json};

use crate::ddl::Actor;
use crate::{
    Backend, Error, UiEvent, attachments, chart, csv_io, ddl, edits, history, index_stats, reads,
    recover, refreshes, schema, specs, sql, staging, vectors,
};

fn author(caller: Caller) -> String {
    match caller {
        Caller::Chat => "assistant".to_owned(),
        Caller::Mcp(level) => format!("MCP client ({level})"),
    }
}

impl Backend {
    /// Records the redraws a successful call causes, and passes its result on.
    fn done(&self, tool: Tool, result: Result<Value, Error>) -> Result<Output, Error> {
        if result.is_ok() {
            self.ui()
                .extend(refreshes(tool).iter().copied().map(UiEvent::Refresh));
        }
        result.map(Output::from)
    }

    fn read(
        &self,
        tool: Tool,
        f: impl FnOnce(&Connection) -> Result<Value, Error>,
    ) -> Result<Output, Error> {
        let result = self.store.read(f);
        self.done(tool, result)
    }

    fn write(
        &self,
        tool: Tool,
        f: impl FnOnce(&mut Connection) -> Result<Value, Error>,
    ) -> Result<Output, Error> {
        let result = self.store.write(f);
        self.done(tool, result)
    }

    /// A read whose success also shows something in the window.
    fn intent(
        &self,
        tool: Tool,
        f: impl FnOnce(&Connection) -> Result<(UiEvent, Value), Error>,
    ) -> Result<Output, Error> {
        let (event, value) = self.store.read(f)?;
        self.ui().push(event);
        self.done(tool, Ok(value))
    }

    /// An immediate operation: the user approved it, it runs now and is recorded.
    fn immediate(
        &self,
        tool: Tool,
        caller: Caller,
        f: impl FnOnce(&mut Connection, &Actor<'_>) -> Result<Value, Error>,
    ) -> Result<Output, Error> {
        let now = self.clock.now();
        let author = author(caller);
        let actor = Actor {
            now: &now,
            author: &author,
        };
        self.write(tool, |conn| f(conn, &actor))
    }
}

impl Handler for Backend {
    type Error = Error;

    async fn ask(&self, _cx: Context, args: cat::AskArgs) -> Result<Output, Error> {
        let choices = args.choices.unwrap_or_default();
        if choices.len() > 6 {
            return Err(Error::invalid(
                Tool::Ask,
                "offer at most six choices; the user can still type any other answer",
            ));
        }
        self.ui().push(UiEvent::Question {
            question: args.question,
            choices,
        });
        let answer = recover(self.answers.lock())
            .pop_front()
            .ok_or(Error::Unanswered)?;
        self.done(Tool::Ask, Ok(json!({ "answer": answer })))
    }

    async fn get_current_time(
        &self,
        _cx: Context,
        _args: cat::GetCurrentTimeArgs,
    ) -> Result<Output, Error> {
        let now = self.clock.now();
        Ok(
            json!({ "now": now.iso(), "weekday": now.weekday(), "timeZone": now.time_zone() })
                .into(),
        )
    }

    async fn list_attachments(
        &self,
        _cx: Context,
        _args: cat::ListAttachmentsArgs,
    ) -> Result<Output, Error> {
        self.read(Tool::ListAttachments, attachments::list)
    }

    async fn read_attachment(
        &self,
        _cx: Context,
        args: cat::ReadAttachmentArgs,
    ) -> Result<Output, Error> {
        self.read(Tool::ReadAttachment, |c| attachments::read(c, &args))
    }

    async fn open_table(&self, _cx: Context, args: cat::OpenTableArgs) -> Result<Output, Error> {
        let result = self.intent(Tool::OpenTable, |c| {
            let t = schema::load(c, &args.table)?;
            let row_key = match &args.row_key {
                Some(key) => {
                    let key = t.key(key)?;
                    if crate::change::row(c, &t, &key)?.is_none() {
                        return Err(Error::NoSuchRow {
                            table: t.name.clone(),
                            key,
                        });
                    }
                    Some(key)
                }
                None => None,
            };
            let value = json!({ "opened": t.name, "mode": args.mode.as_str() });
            let event = UiEvent::OpenTable {
                table: t.name,
                mode: args.mode.into(),
                row_key,
            };
            Ok((event, value))
        });
        if result.is_ok() {
            *recover(self.view.lock()) = Some(json!({ "table": args.table }));
        }
        result
    }

    async fn propose_open_table(
        &self,
        _cx: Context,
        args: cat::ProposeOpenTableArgs,
    ) -> Result<Output, Error> {
        self.intent(Tool::ProposeOpenTable, |c| {
            schema::load(c, &args.table)?;
            let label = args.label.unwrap_or_else(|| args.table.clone());
            let value = json!({ "shown": true, "label": label });
            let event = UiEvent::TableChip {
                table: args.table,
                label,
                mode: args.mode.into(),
            };
            Ok((event, value))
        })
    }

    async fn list_tables(&self, _cx: Context, args: cat::ListTablesArgs) -> Result<Output, Error> {
        self.read(Tool::ListTables, |c| reads::list_tables(c, &args))
    }

    async fn describe_table(
        &self,
        _cx: Context,
        args: cat::DescribeTableArgs,
    ) -> Result<Output, Error> {
        self.read(Tool::DescribeTable, |c| reads::describe_table(c, &args))
    }

    async fn query_rows(&self, _cx: Context, args: cat::QueryRowsArgs) -> Result<Output, Error> {
        self.read(Tool::QueryRows, |c| {
            reads::query_rows(&self.store, c, &args)
        })
    }

    async fn propose_join_view(
        &self,
        _cx: Context,
        args: cat::ProposeJoinViewArgs,
    ) -> Result<Output, Error> {
        let tool = Tool::ProposeJoinView;
        self.intent(tool, |c| {
            let left = schema::load(c, &args.left_table)?;
            let right = schema::load(c, &args.right_table)?;
            if args.on.is_empty() {
                return Err(Error::invalid(
                    tool,
                    "on is empty; give at least one pair of columns to join on, usually a \
                     foreign key and the key it references (describeTable shows them)",
                ));
            }
            for pair in &args.on {
                left.column(&pair.left_column)?;
                right.column(&pair.right_column)?;
            }
            for qualified in args.columns.iter().flatten() {
                let Some((t, col)) = qualified.split_once('.') else {
                    return Err(Error::invalid(
                        tool,
                        format!("column `{qualified}` needs its table: write table.column"),
                    ));
                };
                match t {
                    _ if t == left.name => left.column(col)?,
                    _ if t == right.name => right.column(col)?,
                    _ => {
                        return Err(Error::invalid(
                            tool,
                            format!(
                                "column `{qualified}` is not of `{}` or `{}`",
                                left.name, right.name
                            ),
                        ));
                    }
                };
            }
            let label = args
                .label
                .unwrap_or_else(|| format!("{} + {}", args.left_table, args.right_table));
            let value = json!({ "shown": true, "label": label });
            let event = UiEvent::JoinViewChip {
                left_table: args.left_table,
                right_table: args.right_table,
                on: args
                    .on
                    .into_iter()
                    .map(|p| (p.left_column, p.right_column))
                    .collect(),
                join_type: args.join_type.as_str(),
                label,
            };
            Ok((event, value))
        })
    }

    async fn stage_item(&self, _cx: Context, args: cat::StageItemArgs) -> Result<Output, Error> {
        self.write(Tool::StageItem, |c| edits::stage_item(c, args))
    }

    async fn bulk_edit(&self, _cx: Context, args: cat::BulkEditArgs) -> Result<Output, Error> {
        self.write(Tool::BulkEdit, |c| edits::bulk_edit(c, args))
    }

    async fn show_staging(
        &self,
        _cx: Context,
        args: cat::ShowStagingArgs,
    ) -> Result<Output, Error> {
        let result = self.read(Tool::ShowStaging, |c| staging::show(c, &args));
        if result.is_ok() && args.open_panel {
            self.ui().push(UiEvent::OpenStagingPanel);
        }
        result
    }

    async fn undo_staged(&self, _cx: Context, args: cat::UndoStagedArgs) -> Result<Output, Error> {
        self.write(Tool::UndoStaged, |c| staging::undo(c, &args))
    }

    async fn discard_staged(
        &self,
        _cx: Context,
        args: cat::DiscardStagedArgs,
    ) -> Result<Output, Error> {
        self.write(Tool::DiscardStaged, |c| staging::discard(c, args))
    }

    async fn commit_staged(
        &self,
        cx: Context,
        args: cat::CommitStagedArgs,
    ) -> Result<Output, Error> {
        let now = self.clock.now();
        let author = author(cx.caller());
        self.write(Tool::CommitStaged, |c| {
            history::commit(c, &args, &now, &author, self.embedder.as_ref())
        })
    }

    async fn list_commits(
        &self,
        _cx: Context,
        args: cat::ListCommitsArgs,
    ) -> Result<Output, Error> {
        let now = self.clock.now();
        self.read(Tool::ListCommits, |c| history::list(c, &args, &now))
    }

    async fn revert_commit(
        &self,
        _cx: Context,
        args: cat::RevertCommitArgs,
    ) -> Result<Output, Error> {
        self.write(Tool::RevertCommit, |c| history::revert(c, &args))
    }

    async fn export_csv(&self, _cx: Context, args: cat::ExportCsvArgs) -> Result<Output, Error> {
        let export = self.store.read(|c| csv_io::export(c, &args))?;
        self.ui().push(UiEvent::SaveFile {
            file_name: export.file_name,
            media_type: "text/csv".to_owned(),
            bytes: export.bytes,
        });
        self.done(Tool::ExportCsv, Ok(export.result))
    }

    async fn import_csv(&self, _cx: Context, args: cat::ImportCsvArgs) -> Result<Output, Error> {
        self.write(Tool::ImportCsv, |c| csv_io::import(c, &args))
    }

    async fn aggregate(&self, _cx: Context, args: cat::AggregateArgs) -> Result<Output, Error> {
        self.read(Tool::Aggregate, |c| reads::aggregate(&self.store, c, &args))
    }

    async fn propose_chart(
        &self,
        _cx: Context,
        args: cat::ProposeChartArgs,
    ) -> Result<Output, Error> {
        self.intent(Tool::ProposeChart, |c| {
            let result = chart::propose(&self.store, c, &args)?;
            let event = UiEvent::ChartPreview {
                spec: result["spec"].clone(),
            };
            Ok((event, result))
        })
    }

    async fn find_duplicates(
        &self,
        _cx: Context,
        args: cat::FindDuplicatesArgs,
    ) -> Result<Output, Error> {
        self.read(Tool::FindDuplicates, |c| {
            reads::find_duplicates(&self.store, c, &args)
        })
    }

    async fn vector_search(
        &self,
        _cx: Context,
        args: cat::VectorSearchArgs,
    ) -> Result<Output, Error> {
        self.read(Tool::VectorSearch, |c| {
            vectors::search(c, &args, self.embedder.as_ref())
        })
    }

    async fn run_sql(&self, _cx: Context, args: cat::RunSqlArgs) -> Result<Output, Error> {
        self.read(Tool::RunSql, |c| {
            sql::run(&self.store, c, &args, self.sql_time_limit)
        })
    }

    async fn index_stats(&self, _cx: Context, args: cat::IndexStatsArgs) -> Result<Output, Error> {
        self.read(Tool::IndexStats, |c| {
            index_stats::stats(&self.store, c, &args)
        })
    }

    async fn list_saved_specs(
        &self,
        _cx: Context,
        args: cat::ListSavedSpecsArgs,
    ) -> Result<Output, Error> {
        self.read(Tool::ListSavedSpecs, |c| specs::list(c, &args))
    }

    async fn load_spec(&self, _cx: Context, args: cat::LoadSpecArgs) -> Result<Output, Error> {
        let result = self.intent(Tool::LoadSpec, |c| {
            let spec = specs::load(c, &args.name)?;
            let table = spec["table"].as_str().unwrap_or_default().to_owned();
            schema::load(c, &table)?;
            let value = json!({ "opened": args.name, "spec": spec });
            Ok((
                UiEvent::LoadSpec {
                    name: args.name.clone(),
                    spec,
                },
                value,
            ))
        });
        if let Ok(Output::Value(value)) = &result {
            *recover(self.view.lock()) = Some(value["spec"].clone());
        }
        result
    }

    async fn save_spec(&self, _cx: Context, args: cat::SaveSpecArgs) -> Result<Output, Error> {
        let now = self.clock.now();
        let current = recover(self.view.lock()).clone();
        self.write(Tool::SaveSpec, |c| specs::save(c, args, current, &now))
    }

    async fn create_table(
        &self,
        _cx: Context,
        args: cat::CreateTableArgs,
    ) -> Result<Output, Error> {
        self.write(Tool::CreateTable, |c| ddl::create_table(c, args))
    }

    async fn add_column(&self, _cx: Context, args: cat::AddColumnArgs) -> Result<Output, Error> {
        self.write(Tool::AddColumn, |c| ddl::add_column(c, args))
    }

    async fn rename_column(
        &self,
        _cx: Context,
        args: cat::RenameColumnArgs,
    ) -> Result<Output, Error> {
        self.write(Tool::RenameColumn, |c| ddl::rename_column(c, args))
    }

    async fn find_replace(
        &self,
        _cx: Context,
        args: cat::FindReplaceArgs,
    ) -> Result<Output, Error> {
        self.write(Tool::FindReplace, |c| edits::find_replace(c, args))
    }

    async fn create_index(
        &self,
        _cx: Context,
        args: cat::CreateIndexArgs,
    ) -> Result<Output, Error> {
        self.write(Tool::CreateIndex, |c| ddl::create_index(c, args))
    }

    async fn drop_index(&self, cx: Context, args: cat::DropIndexArgs) -> Result<Output, Error> {
        self.immediate(Tool::DropIndex, cx.caller(), |c, a| {
            ddl::drop_index(c, &args, a)
        })
    }

    async fn delete_column(
        &self,
        cx: Context,
        args: cat::DeleteColumnArgs,
    ) -> Result<Output, Error> {
        self.immediate(Tool::DeleteColumn, cx.caller(), |c, a| {
            ddl::delete_column(c, &args, a)
        })
    }

    async fn truncate_table(
        &self,
        cx: Context,
        args: cat::TruncateTableArgs,
    ) -> Result<Output, Error> {
        self.immediate(Tool::TruncateTable, cx.caller(), |c, a| {
            ddl::truncate_table(c, &args, a)
        })
    }

    async fn drop_table(&self, cx: Context, args: cat::DropTableArgs) -> Result<Output, Error> {
        self.immediate(Tool::DropTable, cx.caller(), |c, a| {
            ddl::drop_table(c, &args, a)
        })
    }
}
