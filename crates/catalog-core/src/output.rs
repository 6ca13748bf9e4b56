//! What a handler's call comes to: a JSON value (most tools), MCP content blocks (text,
//! images, sound, resources and links to them) with or without structured content, or
//! the URL the user must visit before the call can go on.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::{Map, Value};

/// What a handler returns when it does not fail.
///
/// `Output::from(value)` is the common case: the model reads the JSON, an MCP client gets
/// it as text and, when the row declares an output, as `structuredContent`. A handler
/// that answers in MCP's content blocks builds them ([`Output::text`],
/// [`Output::content`], [`Output::with`]), and one that cannot go on until the user
/// finishes something in a browser says where ([`Output::NeedsUrl`]).
#[derive(Clone, PartialEq, Debug)]
pub enum Output {
    /// A JSON value, held to the row's declared output.
    Value(Value),
    /// MCP content blocks, and the structured content beside them (held to the row's
    /// declared output).
    Content {
        /// The blocks, in order.
        content: Vec<Content>,
        /// The structured content (an object), if any.
        structured: Option<Value>,
    },
    /// The call cannot go on until the user completes what each URL shows (MCP's
    /// `URLElicitationRequiredError`, `-32042`); the caller retries it afterwards.
    NeedsUrl(Vec<UrlElicitation>),
}

impl From<Value> for Output {
    fn from(value: Value) -> Output {
        Output::Value(value)
    }
}

impl Output {
    /// One text block.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Output {
        Output::content(alloc::vec![Content::text(text)])
    }

    /// These blocks, with no structured content.
    #[must_use]
    pub fn content(content: Vec<Content>) -> Output {
        Output::Content {
            content,
            structured: None,
        }
    }

    /// The user must complete `request` first.
    #[must_use]
    pub fn needs_url(request: UrlElicitation) -> Output {
        Output::NeedsUrl(alloc::vec![request])
    }

    /// The same output with `block` after what it holds; a JSON value becomes its text
    /// block followed by `block`, and stays the structured content.
    #[must_use]
    pub fn with(self, block: Content) -> Output {
        match self {
            Output::Value(value) => Output::Content {
                content: alloc::vec![Content::text(value.to_string()), block],
                structured: Some(value),
            },
            Output::Content {
                mut content,
                structured,
            } => {
                content.push(block);
                Output::Content {
                    content,
                    structured,
                }
            }
            needs @ Output::NeedsUrl(_) => needs,
        }
    }

    /// The same output with `structured` as its structured content.
    #[must_use]
    pub fn with_structured(self, structured: Value) -> Output {
        match self {
            Output::Value(value) => Output::Content {
                content: alloc::vec![Content::text(value.to_string())],
                structured: Some(structured),
            },
            Output::Content { content, .. } => Output::Content {
                content,
                structured: Some(structured),
            },
            needs @ Output::NeedsUrl(_) => needs,
        }
    }

    /// What a declared output is held to: the value, or the structured content (`None`
    /// when a content answer has none, or the user must visit a URL).
    #[must_use]
    pub fn checked(&self) -> Option<&Value> {
        match self {
            Output::Value(value) => Some(value),
            Output::Content { structured, .. } => structured.as_ref(),
            Output::NeedsUrl(_) => None,
        }
    }

    /// What a chat model reads of it: the value; for content, the structured content when
    /// there is some, else a lone text block's text, else the blocks as MCP writes them.
    /// `None` when the user must visit a URL, which is not a result.
    #[must_use]
    pub fn into_model_value(self) -> Option<Value> {
        match self {
            Output::Value(value) => Some(value),
            Output::Content {
                structured: Some(structured),
                ..
            } => Some(structured),
            Output::Content { mut content, .. } => Some(match content.as_slice() {
                [only] if only.as_text().is_some() => {
                    Value::String(content.remove(0).as_text().unwrap_or_default().to_string())
                }
                _ => Value::Array(content.into_iter().map(Content::into_json).collect()),
            }),
            Output::NeedsUrl(_) => None,
        }
    }
}

/// A URL the user is asked to open: to sign in, pay, or anything the server should not
/// see typed into the client (MCP URL-mode elicitation).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UrlElicitation {
    /// What the user reads: why, and what happens there.
    pub message: String,
    /// Where to go.
    pub url: String,
    /// The server's name for this question, unique to it, which names it again when it
    /// is complete.
    pub id: String,
}

impl UrlElicitation {
    /// The question, as MCP's URL-mode elicitation writes it.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut json = Map::new();
        json.insert("mode".into(), "url".into());
        json.insert("message".into(), self.message.as_str().into());
        json.insert("url".into(), self.url.as_str().into());
        json.insert("elicitationId".into(), self.id.as_str().into());
        Value::Object(json)
    }
}

/// One MCP content block, as MCP writes it: built by the constructors, each of which
/// writes the block's required fields.
///
/// ```
/// use catalog_core::Content;
///
/// let link = Content::resource_link("file:///notes/1.md", "1.md").with("mimeType", "text/markdown");
/// assert_eq!(link.kind(), "resource_link");
/// ```
#[derive(Clone, PartialEq, Debug)]
pub struct Content(Map<String, Value>);

impl Content {
    fn of(kind: &str, fields: &[(&str, Value)]) -> Content {
        let mut block = Map::new();
        block.insert("type".into(), kind.into());
        for (field, value) in fields {
            block.insert((*field).to_string(), value.clone());
        }
        Content(block)
    }

    /// Text.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Content {
        Content::of("text", &[("text", Value::String(text.into()))])
    }

    /// An image: its bytes in base64, and their MIME type.
    #[must_use]
    pub fn image(base64: impl Into<String>, mime_type: &str) -> Content {
        Content::of(
            "image",
            &[
                ("data", Value::String(base64.into())),
                ("mimeType", mime_type.into()),
            ],
        )
    }

    /// A sound: its bytes in base64, and their MIME type.
    #[must_use]
    pub fn audio(base64: impl Into<String>, mime_type: &str) -> Content {
        Content::of(
            "audio",
            &[
                ("data", Value::String(base64.into())),
                ("mimeType", mime_type.into()),
            ],
        )
    }

    /// A link to a resource the client may read (`resources/read`): its URI and name.
    #[must_use]
    pub fn resource_link(uri: &str, name: &str) -> Content {
        Content::of(
            "resource_link",
            &[("uri", uri.into()), ("name", name.into())],
        )
    }

    /// A resource's text, embedded.
    #[must_use]
    pub fn resource_text(uri: &str, mime_type: &str, text: impl Into<String>) -> Content {
        let mut resource = Map::new();
        resource.insert("uri".into(), uri.into());
        resource.insert("mimeType".into(), mime_type.into());
        resource.insert("text".into(), Value::String(text.into()));
        Content::of("resource", &[("resource", Value::Object(resource))])
    }

    /// A resource's bytes in base64, embedded.
    #[must_use]
    pub fn resource_blob(uri: &str, mime_type: &str, base64: impl Into<String>) -> Content {
        let mut resource = Map::new();
        resource.insert("uri".into(), uri.into());
        resource.insert("mimeType".into(), mime_type.into());
        resource.insert("blob".into(), Value::String(base64.into()));
        Content::of("resource", &[("resource", Value::Object(resource))])
    }

    /// The block with another field of MCP's (`mimeType`, `description`, `title`, `size`,
    /// `annotations`, `_meta`).
    #[must_use]
    pub fn with(mut self, field: &str, value: impl Into<Value>) -> Content {
        self.0.insert(field.to_string(), value.into());
        self
    }

    /// The block as MCP wrote it (a relay's, or a client's).
    #[must_use]
    pub fn from_json(block: Map<String, Value>) -> Content {
        Content(block)
    }

    /// Its `type`: `text`, `image`, `audio`, `resource_link` or `resource`.
    #[must_use]
    pub fn kind(&self) -> &str {
        self.0
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// A text block's text.
    #[must_use]
    pub fn as_text(&self) -> Option<&str> {
        (self.kind() == "text")
            .then(|| self.0.get("text").and_then(Value::as_str))
            .flatten()
    }

    /// The block as MCP writes it.
    #[must_use]
    pub fn as_json(&self) -> &Map<String, Value> {
        &self.0
    }

    /// The block, taken, as MCP writes it.
    #[must_use]
    pub fn into_json(self) -> Value {
        Value::Object(self.0)
    }
}
