//! The chat providers' HTTP APIs, shared by the example agent and `cargo catalog
//! eval-agent`: [`Api`] sends a request body that [`catalog_wire::provider::Conversation`]
//! wrote to Anthropic, `OpenAI` (Chat Completions or Responses), Gemini or Bedrock, with
//! the provider's key (Bedrock's requests signed with AWS Signature Version 4), and returns the reply's JSON
//! or a [`Failure`] as one line, with its status and whether to retry.
//!
//! [`scripted`] is the other side: a local endpoint that plays a model turn by turn in
//! each provider's reply shapes, for tests of an agent or a harness.
//!
//! ```no_run
//! use catalog_wire::provider::{Conversation, Provider};
//! use catalog_providers::{Api, default_model};
//!
//! let provider = Provider::Anthropic;
//! let api = Api::new(provider, None, default_model(provider), |name| {
//!     std::env::var(name).ok()
//! })?;
//! let mut conversation = Conversation::new(None);
//! conversation.user(provider, "Hello");
//! let reply = api.send(&conversation.body(provider, api.model(), None, 1024))?;
//! # Ok::<(), catalog_providers::Failure>(())
//! ```

mod api;
pub mod scripted;

pub use api::{Api, Failure, default_model};

// The README's sample runs as a doctest, so it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeSample;
