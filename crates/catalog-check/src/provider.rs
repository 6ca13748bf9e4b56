//! The providers a catalog's tools go to, as `[settings] providers` and `cargo catalog
//! render --provider` name them: the ones whose request carries a tool list that
//! `catalog_wire::render` writes.

use std::fmt;

use catalog_core::Access;
use catalog_wire::provider::Provider as Api;
use catalog_wire::render::Format;

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

    /// The chat API this is, or `None` for MCP: the API's name and tool-list format are
    /// `catalog_core`'s, the one list of them.
    #[must_use]
    pub const fn api(self) -> Option<Api> {
        match self {
            Provider::Anthropic => Some(Api::Anthropic),
            Provider::OpenAiChat => Some(Api::OpenAiChat),
            Provider::OpenAiResponses => Some(Api::OpenAiResponses),
            Provider::Bedrock => Some(Api::Bedrock),
            Provider::Gemini => Some(Api::Gemini),
            Provider::Mcp => None,
        }
    }

    /// The name in `catalog.toml` and on the command line: the API's, or `mcp`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self.api() {
            Some(api) => api.name(),
            None => "mcp",
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
        match self.api() {
            Some(api) => api.format(),
            None => Format::Mcp(Access::FullAccess),
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

    /// Every chat API of `catalog_core` is a target here, in its order, then MCP.
    #[test]
    fn the_targets_are_the_apis_and_mcp() {
        let apis: Vec<Api> = Provider::ALL.iter().filter_map(|p| p.api()).collect();
        assert_eq!(apis, Api::APIS);
        assert_eq!(Provider::ALL.last(), Some(&Provider::Mcp));
    }
}
