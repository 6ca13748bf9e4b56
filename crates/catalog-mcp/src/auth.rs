//! Who a request over HTTP is and what it may do: the one decision, from its bearer token,
//! whichever way the server authenticates: the static tokens of a file ([`Tokens`]), an
//! OAuth authorization server's access tokens (feature `oauth`), or both. Every way ends in
//! a [`Grant`], which the HTTP layer puts in the request's extensions.

use std::sync::Arc;

pub use crate::tokens::Refusal;
use crate::tokens::{Grant, Tokens};

/// How the HTTP endpoint authenticates requests.
#[derive(Clone, Default)]
pub struct Auth {
    tokens: Option<Arc<Tokens>>,
    #[cfg(feature = "oauth")]
    oauth: Option<Arc<crate::oauth::Verifier>>,
}

impl From<Arc<Tokens>> for Auth {
    fn from(tokens: Arc<Tokens>) -> Auth {
        Auth::tokens(tokens)
    }
}

impl Auth {
    /// The static tokens of a file, and nothing else.
    #[must_use]
    pub fn tokens(tokens: Arc<Tokens>) -> Auth {
        Auth::default().with_tokens(tokens)
    }

    /// An authorization server's access tokens, checked by `verifier`.
    #[cfg(feature = "oauth")]
    #[must_use]
    pub fn oauth(verifier: crate::oauth::Verifier) -> Auth {
        Auth {
            oauth: Some(Arc::new(verifier)),
            ..Auth::default()
        }
    }

    /// The same, accepting the static `tokens` too (checked first).
    #[must_use]
    pub fn with_tokens(mut self, tokens: Arc<Tokens>) -> Auth {
        self.tokens = Some(tokens);
        self
    }

    /// What it accepts, for the log line a server starts with: `2 tokens`, `OAuth (issuer
    /// https://as.example)`, or both.
    #[must_use]
    pub fn describe(&self) -> String {
        let mut ways = Vec::new();
        #[cfg(feature = "oauth")]
        if let Some(oauth) = &self.oauth {
            ways.push(format!("OAuth, issuer {}", oauth.settings().issuer));
        }
        if let Some(tokens) = &self.tokens {
            ways.push(format!("{} tokens", tokens.len()));
        }
        if ways.is_empty() {
            ways.push(String::from("no credentials"));
        }
        ways.join(" and ")
    }

    /// The OAuth verifier, when there is one.
    #[cfg(feature = "oauth")]
    #[must_use]
    pub fn verifier(&self) -> Option<&crate::oauth::Verifier> {
        self.oauth.as_deref()
    }

    /// What `presented` grants: a static token's grant, else what the authorization
    /// server's token grants.
    ///
    /// # Errors
    /// [`Refusal`].
    // Without the `oauth` feature nothing here waits, but the signature stays one.
    #[cfg_attr(not(feature = "oauth"), allow(clippy::unused_async))]
    pub async fn authenticate(&self, presented: &str) -> Result<Grant, Refusal> {
        if let Some(grant) = self.tokens.as_ref().and_then(|t| t.check(presented)) {
            return Ok(grant.clone());
        }
        #[cfg(feature = "oauth")]
        if let Some(oauth) = &self.oauth {
            return oauth.verify(presented).await;
        }
        Err(Refusal::Invalid(String::from(
            "the token is not one of this server's",
        )))
    }
}
