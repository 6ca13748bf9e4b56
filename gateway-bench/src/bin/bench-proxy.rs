//! An MCP proxy over stdio that verifies nothing: `tools/list` and `tools/call` go to the
//! server that `bench-proxy COMMAND [ARGS...]` starts, and its answers come back as they
//! are.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::{Peer, RequestContext, RoleClient};
use rmcp::transport::TokioChildProcess;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

struct Proxy {
    upstream: Peer<RoleClient>,
}

fn failed(e: &rmcp::ServiceError) -> ErrorData {
    ErrorData::internal_error(format!("upstream: {e}"), None)
}

impl ServerHandler for Proxy {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.upstream
            .list_tools(request)
            .await
            .map_err(|e| failed(&e))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.upstream
            .call_tool(request)
            .await
            .map(Into::into)
            .map_err(|e| failed(&e))
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let program = args.next().ok_or("usage: bench-proxy COMMAND [ARGS...]")?;
    let mut command = tokio::process::Command::new(program);
    command.args(args);
    let upstream = ().serve(TokioChildProcess::new(command)?).await?;
    let proxy = Proxy {
        upstream: upstream.peer().clone(),
    };
    proxy
        .serve(rmcp::transport::stdio_pipes())
        .await?
        .waiting()
        .await?;
    drop(upstream);
    Ok(())
}
