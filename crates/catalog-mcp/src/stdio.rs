//! Standard input and output: one client, at one access level for the whole session.

use std::fmt;
use std::io;
use std::sync::Arc;

use catalog_core::{Access, CompiledCatalog, HandledBy};
use rmcp::{ServerHandler, ServiceExt};

use crate::backend::Level;
use crate::calls::Tools;
use crate::handler::Grant;
use crate::served::CatalogServer;

/// Serves `tools` to the client on standard input and output at `access`, until it
/// closes its end. Nothing else may write to standard output meanwhile: it is the
/// transport (log to standard error).
///
/// # Errors
/// The session could not start (the client's first message was not MCP), or ended with
/// a transport error.
pub async fn serve<C, H, const W: usize>(
    tools: Arc<Tools<C, H, W>>,
    access: Access,
) -> io::Result<()>
where
    C: CompiledCatalog<W>,
    H: Send + Sync + 'static,
    C::Call: HandledBy<H>,
    <C::Call as HandledBy<H>>::Error: fmt::Display,
{
    serve_for(CatalogServer::new(
        tools,
        Level::Fixed(Grant::local(access)),
    ))
    .await
}

/// [`serve`] for any MCP server: `handler` answers the one client on standard input and
/// output.
///
/// # Errors
/// As [`serve`].
pub async fn serve_for<S: ServerHandler>(handler: S) -> io::Result<()> {
    let service = handler
        // Pipes (as MCP clients start servers) are read and written on the runtime's own
        // I/O driver; the blocking `stdio()` hands every message to another thread and back.
        // Anything else (a terminal, a file) falls back to the blocking handles.
        .serve(rmcp::transport::stdio_pipes())
        .await
        .map_err(|e| io::Error::other(format!("the MCP session did not start: {e}")))?;
    service
        .waiting()
        .await
        .map_err(|e| io::Error::other(format!("the MCP session ended with an error: {e}")))?;
    Ok(())
}
