//! A minimal MCP server over stdio: one tool, `echo`, that answers with its `text`.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

struct Echo {
    tool: Tool,
}

impl ServerHandler for Echo {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![self.tool.clone()]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let text = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("text"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        Ok(CallToolResult::success(vec![ContentBlock::text(text.to_owned())]).into())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Value::Object(schema) = json!({
        "type": "object",
        "properties": {"text": {"type": "string", "description": "What to echo"}},
        "required": ["text"],
    }) else {
        unreachable!("a JSON object literal")
    };
    let tool = Tool::new(
        "echo",
        "Answers with the text it is given.",
        Arc::new(schema),
    );
    let service = Echo { tool }.serve(rmcp::transport::stdio_pipes()).await?;
    service.waiting().await?;
    Ok(())
}
