//! A minimal MCP server over stdio: `echo` answers with its `text`; `progress` first
//! reports progress once (to a client that gave a progress token), with the wall-clock time
//! it was sent, in nanoseconds since the Unix epoch, as the message: what a relayed
//! notification's latency is measured from.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

struct Echo {
    tools: Vec<Tool>,
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
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name == "progress" {
            if let Some(token) = context.meta.get_progress_token() {
                let sent = SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .unwrap_or_default()
                    .as_nanos();
                let mut progress = ProgressNotificationParam::new(token, 1.0);
                progress.message = Some(sent.to_string());
                context
                    .peer
                    .notify_progress(progress)
                    .await
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            }
            return Ok(CallToolResult::success(vec![ContentBlock::text("done")]).into());
        }
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
    let echo = Tool::new(
        "echo",
        "Answers with the text it is given.",
        Arc::new(schema),
    );
    let Value::Object(none) = json!({"type": "object", "properties": {}}) else {
        unreachable!("a JSON object literal")
    };
    let progress = Tool::new(
        "progress",
        "Reports its progress once, then answers.",
        Arc::new(none),
    );
    let service = Echo {
        tools: vec![echo, progress],
    }
    .serve(rmcp::transport::stdio_pipes())
    .await?;
    service.waiting().await?;
    Ok(())
}
