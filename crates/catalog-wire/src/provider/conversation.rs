//! A conversation's messages in one provider's shapes, and the request body that carries
//! them.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{Provider, Reply};
use catalog_core::Value;

/// The messages of one conversation with one provider, in its shapes, and the body of the
/// next request. Serde makes it a value to keep between a web backend's requests.
///
/// The user's words, each reply and each step's results go in, in that order; turns of
/// the same role that follow each other are merged where the provider asks for strict
/// alternation (Anthropic and Bedrock: tool results and the next user message share one
/// `user` turn).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Conversation {
    /// The system prompt, if any.
    pub system: Option<String>,
    /// The messages so far (for the Responses API, its input items).
    pub messages: Vec<Value>,
}

impl Conversation {
    /// An empty conversation with an optional system prompt.
    #[must_use]
    pub fn new(system: Option<&str>) -> Conversation {
        Conversation {
            system: system.map(String::from),
            messages: Vec::new(),
        }
    }

    /// Appends a user message.
    pub fn user(&mut self, provider: Provider, text: &str) {
        let message = match provider {
            Provider::Anthropic | Provider::AnthropicToolSearch(_) => {
                json!({"role": "user", "content": [{"type": "text", "text": text}]})
            }
            Provider::OpenAiChat | Provider::OpenAiResponses => {
                json!({"role": "user", "content": text})
            }
            Provider::Bedrock => json!({"role": "user", "content": [{"text": text}]}),
            Provider::Gemini => json!({"role": "user", "parts": [{"text": text}]}),
        };
        self.push(provider, message);
    }

    /// Appends what the conversation keeps of a reply.
    pub fn reply(&mut self, provider: Provider, reply: &Reply) {
        for message in &reply.messages {
            self.push(provider, message.clone());
        }
    }

    /// Appends the tool-result messages [`write`](super::write) made.
    pub fn results(&mut self, provider: Provider, results: Vec<Value>) {
        for message in results {
            self.push(provider, message);
        }
    }

    fn push(&mut self, provider: Provider, message: Value) {
        let list = match provider {
            Provider::Anthropic | Provider::AnthropicToolSearch(_) | Provider::Bedrock => "content",
            Provider::Gemini => "parts",
            Provider::OpenAiChat | Provider::OpenAiResponses => {
                self.messages.push(message);
                return;
            }
        };
        if let Some(last) = self.messages.last_mut()
            && last["role"] == message["role"]
            && let (Some(kept), Some(more)) = (last[list].as_array_mut(), message[list].as_array())
        {
            kept.extend(more.iter().cloned());
            return;
        }
        self.messages.push(message);
    }

    /// The body of the next request: `model` (Bedrock and Gemini name it in the URL
    /// instead, so it is left out there), the system prompt, the messages, and `tools` as
    /// [`render`](crate::render) wrote them for the provider (Bedrock's whole `toolConfig`),
    /// or `None` for a request without tools. `max_tokens` is what Anthropic requires;
    /// the others are sent it under their own names.
    #[must_use]
    pub fn body(
        &self,
        provider: Provider,
        model: &str,
        tools: Option<&str>,
        max_tokens: u32,
    ) -> String {
        let mut body = match provider {
            Provider::Anthropic | Provider::AnthropicToolSearch(_) => {
                let mut body =
                    json!({"model": model, "max_tokens": max_tokens, "messages": self.messages});
                if let Some(system) = &self.system {
                    body["system"] = json!(system);
                }
                body
            }
            Provider::OpenAiChat => {
                let mut messages = Vec::with_capacity(self.messages.len() + 1);
                if let Some(system) = &self.system {
                    messages.push(json!({"role": "system", "content": system}));
                }
                messages.extend(self.messages.iter().cloned());
                json!({"model": model, "max_completion_tokens": max_tokens, "messages": messages})
            }
            Provider::OpenAiResponses => {
                let mut body =
                    json!({"model": model, "max_output_tokens": max_tokens, "input": self.messages});
                if let Some(system) = &self.system {
                    body["instructions"] = json!(system);
                }
                body
            }
            Provider::Bedrock => {
                let mut body = json!({"messages": self.messages,
                                      "inferenceConfig": {"maxTokens": max_tokens}});
                if let Some(system) = &self.system {
                    body["system"] = json!([{"text": system}]);
                }
                body
            }
            Provider::Gemini => {
                let mut body = json!({"contents": self.messages,
                                      "generationConfig": {"maxOutputTokens": max_tokens}});
                if let Some(system) = &self.system {
                    body["systemInstruction"] = json!({"parts": [{"text": system}]});
                }
                body
            }
        }
        .to_string();
        // The rendered tools are spliced in as text: they are the compiler's JSON, copied.
        if let Some(tools) = tools {
            let key = if provider == Provider::Bedrock {
                "toolConfig"
            } else {
                "tools"
            };
            body.pop();
            body.push_str(",\"");
            body.push_str(key);
            body.push_str("\":");
            body.push_str(tools);
            body.push('}');
        }
        body
    }
}
