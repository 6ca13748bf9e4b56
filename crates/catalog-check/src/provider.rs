//! The providers a catalog's tools go to, as `[settings] providers` and `cargo catalog
//! render --provider` name them: the ones whose request carries a tool list that
//! `catalog_core::render` writes.

use std::fmt;

use catalog_core::Access;
use catalog_core::render::Format;

/// A provider of the renderers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Provider {
    /// Anthropic's Messages API (with or without its tool search: the same schemas).
    Anthropic,
    /// `OpenAI` Chat Completions.
    OpenAiChat,
    /// The `OpenAI` Responses API.
    OpenAiResponses,
    /// Amazon Bedrock Converse.
    Bedrock,
    /// The Gemini API.
    Gemini,
    /// MCP clients, through a `tools/list` result.
    Mcp,
}

impl Provider {
    /// Every provider, in the order reports list them.
    pub const ALL: [Provider; 6] = [
        Provider::Anthropic,
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Bedrock,
        Provider::Gemini,
        Provider::Mcp,
    ];

    /// The name in `catalog.toml` and on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::OpenAiChat => "openai-chat",
            Provider::OpenAiResponses => "openai-responses",
            Provider::Bedrock => "bedrock",
            Provider::Gemini => "gemini",
            Provider::Mcp => "mcp",
        }
    }

    /// The provider with this name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.name() == name)
    }

    /// How its request carries the tools (MCP: a client at the highest level, which lists
    /// every tool exposed to MCP).
    #[must_use]
    pub const fn format(self) -> Format {
        match self {
            Provider::Anthropic => Format::Anthropic,
            Provider::OpenAiChat => Format::OpenAiChat,
            Provider::OpenAiResponses => Format::OpenAiResponses,
            Provider::Bedrock => Format::Bedrock,
            Provider::Gemini => Format::Gemini,
            Provider::Mcp => Format::Mcp(Access::FullAccess),
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in Provider::ALL {
            assert_eq!(Provider::from_name(p.name()), Some(p));
        }
        assert_eq!(Provider::from_name("openai"), None);
    }
}
