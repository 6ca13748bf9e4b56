//! The `--provider` values: `catalog_core`'s list of chat APIs, which `render` extends
//! with MCP.

use catalog_wire::provider::Provider;
use catalog_wire::render::ToolSearch;
use clap::ValueEnum;
use clap::builder::PossibleValue;

/// `render --provider`: a chat API's request format (the list is `catalog_core`'s), or an
/// MCP server's `tools/list` result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// A chat API; `anthropic-tool-search` searches as `--search` says.
    Api(Provider),
    /// An MCP server's tools/list result.
    Mcp,
}

impl Target {
    /// Every target, in `--help`'s order: the APIs, Anthropic's with tool search after
    /// Anthropic's, then MCP.
    const ALL: [Target; Provider::APIS.len() + 2] = {
        let mut all = [Target::Mcp; Provider::APIS.len() + 2];
        all[0] = Target::Api(Provider::APIS[0]);
        all[1] = Target::Api(Provider::AnthropicToolSearch(ToolSearch::Bm25));
        let mut i = 1;
        while i < Provider::APIS.len() {
            all[i + 1] = Target::Api(Provider::APIS[i]);
            i += 1;
        }
        all
    };
}

impl ValueEnum for Target {
    fn value_variants<'a>() -> &'a [Self] {
        &Target::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Target::Api(api) => PossibleValue::new(api.name()).help(api.title()),
            Target::Mcp => PossibleValue::new("mcp").help("An MCP server's tools/list result"),
        })
    }
}

/// `eval-agent --provider`: one of the chat APIs an agent step talks to, as `catalog_core`
/// lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Api(pub(crate) Provider);

impl Api {
    const ALL: [Api; Provider::APIS.len()] = {
        let mut all = [Api(Provider::Anthropic); Provider::APIS.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = Api(Provider::APIS[i]);
            i += 1;
        }
        all
    };
}

impl ValueEnum for Api {
    fn value_variants<'a>() -> &'a [Self] {
        &Api::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()).help(self.0.title()))
    }
}
