//! `task`: whether a row's MCP calls may run as tasks. Only a row that a crate's own
//! handler serves over MCP can say so.

use crate::diag::{Diagnostic, Errors};
use crate::model::TaskSupport;
use crate::parse::RawTool;

/// The row's `task`, when it may have one; every row that may not is named, with the fix:
/// the search tool (the agent loop answers it), a row kept from MCP (only MCP clients run
/// tasks), and a row an upstream serves (its server decides how its calls run).
pub(super) fn task(
    row: &RawTool,
    name: &str,
    is_search: bool,
    errors: &mut Errors,
) -> Option<TaskSupport> {
    let (task, at) = row.task.as_ref()?;
    if is_search {
        errors.push(
            Diagnostic::new(at.clone(), format!("the search tool `{name}` has a `task`"))
                .help("remove `task`: the search tool is part of the agent loop and never served over MCP"),
        );
        return None;
    }
    if let Some((false, mcp_at)) = &row.mcp {
        errors.push(
            Diagnostic::new(
                at.clone(),
                format!("tool `{name}` says how its MCP calls run, but is kept from MCP"),
            )
            .related(mcp_at.clone(), "kept from MCP here")
            .help(format!(
                "remove `task = \"{task}\"`, or remove `mcp = false` to serve the tool over MCP: only MCP clients run tools as tasks"
            )),
        );
        return None;
    }
    if let Some((upstream, _)) = &row.upstream {
        errors.push(
            Diagnostic::new(
                at.clone(),
                format!("tool `{name}` comes from upstream `{upstream}`, whose server decides whether a call runs as a task"),
            )
            .help("remove `task`: a gateway serves an upstream's tool as its server answers it"),
        );
        return None;
    }
    Some(*task)
}
