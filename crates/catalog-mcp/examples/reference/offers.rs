//! The prompts, resources, template, completions and subscriptions the conformance
//! suite's scenarios read on its reference server.

use catalog_core::talk::Elicited;
use catalog_core::{BoxFuture, Context};
use catalog_mcp::Grant;
use catalog_mcp::offers::{self, Offers, Subscriptions};
use catalog_mcp::rmcp::ErrorData;
use catalog_mcp::rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResult, Prompt,
    ReadResourceRequestParams, ReadResourceResult, Reference, Resource, ResourceTemplate,
};
use serde_json::json;

use crate::tools::PNG;

/// The template whose resources hold the id they are read with.
const TEMPLATE: &str = "test://template/{id}/data";

/// What the reference server offers besides its tools.
pub struct Offered {
    subscriptions: Subscriptions,
}

impl Offered {
    pub fn new() -> Offered {
        Offered {
            subscriptions: Subscriptions::new(),
        }
    }
}

/// An `rmcp` type read from MCP's JSON for it: every value here is written as the
/// protocol writes it.
fn mcp<T: serde::de::DeserializeOwned>(json: serde_json::Value) -> Result<T, ErrorData> {
    serde_json::from_value(json).map_err(|e| ErrorData::internal_error(e.to_string(), None))
}

fn resource(uri: &str, name: &str, description: &str, mime_type: &str) -> Resource {
    mcp(json!({"uri": uri, "name": name, "description": description, "mimeType": mime_type}))
        .expect("a resource is MCP's")
}

fn argument(name: &str, description: &str) -> serde_json::Value {
    json!({"name": name, "description": description, "required": true})
}

fn prompt(name: &str, description: &str, arguments: &[serde_json::Value]) -> Prompt {
    mcp(json!({"name": name, "description": description, "arguments": arguments}))
        .expect("a prompt is MCP's")
}

/// A prompt's messages, written as MCP writes them.
fn messages(messages: &serde_json::Value) -> Result<GetPromptResult, ErrorData> {
    mcp(json!({ "messages": messages }))
}

/// The prompt that asks its user first, under a key a client may answer ahead by.
async fn with_context(context: Context) -> Result<GetPromptResult, ErrorData> {
    let schema = json!({
        "type": "object",
        "properties": {"context": {"type": "string"}},
        "required": ["context"],
    });
    let answer = context
        .keyed("user_context")
        .elicit("What context should the prompt use?", schema)
        .await
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
    let Elicited::Accepted(fields) = answer else {
        return Err(ErrorData::invalid_params(
            "the user gave no context for the prompt",
            None,
        ));
    };
    let given = fields
        .get("context")
        .and_then(|c| c.as_str())
        .unwrap_or_default();
    messages(&json!([
        {"role": "user", "content": {"type": "text", "text": format!("Prompt with context: {given}")}}
    ]))
}

impl Offers for Offered {
    fn offered(&self) -> offers::Offered {
        offers::Offered {
            prompts: true,
            resources: true,
            completions: true,
        }
    }

    fn prompts(&self, _: &Grant) -> Vec<Prompt> {
        vec![
            prompt(
                "test_simple_prompt",
                "A simple prompt without arguments.",
                &[],
            ),
            prompt(
                "test_prompt_with_arguments",
                "A prompt with two arguments.",
                &[
                    argument("arg1", "The first argument."),
                    argument("arg2", "The second argument."),
                ],
            ),
            prompt(
                "test_prompt_with_embedded_resource",
                "A prompt that embeds a resource.",
                &[argument("resourceUri", "The URI of the resource to embed.")],
            ),
            prompt("test_prompt_with_image", "A prompt with an image.", &[]),
            prompt(
                "test_input_required_result_prompt",
                "A prompt that asks the user what context it should use first.",
                &[],
            ),
        ]
    }

    fn get_prompt(
        &self,
        context: Context,
        _: &Grant,
        request: GetPromptRequestParams,
    ) -> BoxFuture<'_, Result<GetPromptResult, ErrorData>> {
        if request.name == "test_input_required_result_prompt" {
            return Box::pin(with_context(context));
        }
        let argument = |name: &str| {
            request
                .arguments
                .as_ref()
                .and_then(|arguments| arguments.get(name))
                .and_then(|value| value.as_str())
                .map(str::to_owned)
                .ok_or_else(|| ErrorData::invalid_params(format!("`{name}` is missing"), None))
        };
        let text = |text: &str| json!({"role": "user", "content": {"type": "text", "text": text}});
        let answer = match request.name.as_str() {
            "test_simple_prompt" => {
                messages(&json!([text("This is a simple prompt for testing.")]))
            }
            "test_prompt_with_arguments" => argument("arg1").and_then(|arg1| {
                let arg2 = argument("arg2")?;
                messages(&json!([text(&format!(
                    "Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"
                ))]))
            }),
            "test_prompt_with_embedded_resource" => argument("resourceUri").and_then(|uri| {
                messages(&json!([
                    {"role": "user", "content": {"type": "resource", "resource": {
                        "uri": uri, "mimeType": "text/plain",
                        "text": "Embedded resource content for testing."}}},
                    text("Please process the embedded resource above."),
                ]))
            }),
            "test_prompt_with_image" => messages(&json!([
                {"role": "user", "content": {"type": "image", "data": PNG, "mimeType": "image/png"}},
                text("Please analyze the image above."),
            ])),
            other => Err(ErrorData::invalid_params(
                format!("no prompt named `{other}`; prompts/list names them"),
                None,
            )),
        };
        Box::pin(std::future::ready(answer))
    }

    fn resources(&self, _: &Grant) -> Vec<Resource> {
        vec![
            resource(
                "test://static-text",
                "static-text",
                "A static text.",
                "text/plain",
            ),
            resource(
                "test://static-binary",
                "static-binary",
                "A static image.",
                "image/png",
            ),
            resource(
                "test://watched-resource",
                "watched-resource",
                "A resource to subscribe to.",
                "text/plain",
            ),
        ]
    }

    fn templates(&self, _: &Grant) -> Vec<ResourceTemplate> {
        vec![
            mcp(json!({"uriTemplate": TEMPLATE, "name": "template",
                       "description": "Data for an id.", "mimeType": "application/json"}))
            .expect("a resource template is MCP's"),
        ]
    }

    fn read(
        &self,
        _: Context,
        _: &Grant,
        request: ReadResourceRequestParams,
    ) -> BoxFuture<'_, Result<ReadResourceResult, ErrorData>> {
        let uri = request.uri;
        let text = |mime: &str, text: String| json!({"uri": uri, "mimeType": mime, "text": text});
        let contents = match uri.as_str() {
            "test://static-text" => Some(text(
                "text/plain",
                "This is the content of the static text resource.".into(),
            )),
            "test://watched-resource" => Some(text("text/plain", "Watched.".into())),
            "test://static-binary" => {
                Some(json!({"uri": uri, "mimeType": "image/png", "blob": PNG}))
            }
            _ if offers::template_matches(TEMPLATE, &uri) => {
                let id = uri
                    .trim_start_matches("test://template/")
                    .trim_end_matches("/data");
                Some(text(
                    "application/json",
                    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
                        .to_string(),
                ))
            }
            _ => None,
        };
        let answer = match contents {
            Some(contents) => mcp(json!({ "contents": [contents] })),
            None => Err(offers::not_found(&uri)),
        };
        Box::pin(std::future::ready(answer))
    }

    fn complete(
        &self,
        _: &Grant,
        request: CompleteRequestParams,
    ) -> BoxFuture<'_, Result<CompleteResult, ErrorData>> {
        let candidates: &[&str] = match (&request.r#ref, request.argument.name.as_str()) {
            (Reference::Prompt(prompt), "arg1" | "arg2")
                if prompt.name == "test_prompt_with_arguments" =>
            {
                &["paris", "park", "party", "test", "testing"]
            }
            _ => &[],
        };
        let values: Vec<String> = candidates
            .iter()
            .filter(|c| c.starts_with(request.argument.value.as_str()))
            .map(|c| (*c).to_owned())
            .collect();
        let total = values.len();
        let completion =
            json!({"completion": {"values": values, "total": total, "hasMore": false}});
        Box::pin(std::future::ready(mcp(completion)))
    }

    fn subscriptions(&self) -> Option<&Subscriptions> {
        Some(&self.subscriptions)
    }
}
