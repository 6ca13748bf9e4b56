//! Results that say they are complete: MCP 2026-07-28 requires `resultType` on every
//! result, and a result a server builds from JSON (an upstream's, an offer's) has none.
//! `rmcp` takes `"complete"` off again for clients of older revisions, so both servers
//! here put it on every result they answer with, whatever the revision.

use rmcp::model::{
    CompleteResult, GetPromptResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, ReadResourceResult, ResultType,
};

/// A result that can say it is complete.
pub trait Complete: Sized {
    /// The result, saying it is complete unless it says otherwise already.
    #[must_use]
    fn complete(self) -> Self;
}

macro_rules! complete {
    ($($result:ty),* $(,)?) => {$(
        impl Complete for $result {
            fn complete(mut self) -> Self {
                self.result_type.get_or_insert(ResultType::COMPLETE);
                self
            }
        }
    )*};
}

complete!(
    CompleteResult,
    GetPromptResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListToolsResult,
    ReadResourceResult,
);
