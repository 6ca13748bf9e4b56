//! `oauth` of an `[[upstream]]` reached at a `url`: the client the gateway is at the
//! server's authorization server, and how it proves it.
//!
//! ```toml
//! oauth = { client-id = "catalog-gateway", client-secret = { from-env = "BILLING_SECRET" } }
//! oauth = { client-id = "catalog-gateway", private-key = { from-file = "/run/secrets/billing.pem" }, scope = "tools" }
//! ```
//!
//! The secret and the key are read when a token is requested, never written here.

use toml::Spanned;
use toml::de::DeValue;

use super::supplied::secret;
use super::table::{Table, table};
use super::values::string;
use crate::diag::{Diagnostic, Errors};
use crate::model::{ClientCredential, OAuth};

/// The keys of `oauth`.
pub(crate) const OAUTH_KEYS: &[&str] = &["client-id", "client-secret", "private-key", "scope"];

/// `oauth`: a client id, exactly one of `client-secret` and `private-key`, and maybe a
/// `scope`.
pub(super) fn oauth(v: &Spanned<DeValue<'_>>, what: &str, errors: &mut Errors) -> Option<OAuth> {
    let entries = table(v, "`oauth`", errors)?;
    let mut t = Table::new(entries, v.span(), &format!("the `oauth` of {what}"));
    let client_id = t.take("client-id").map(|(v, _)| {
        string(v, "client-id", errors).filter(|(id, at)| {
            let ok = !id.trim().is_empty();
            if !ok {
                errors.push(
                    Diagnostic::new(at.clone(), format!("the `client-id` of {what} is empty"))
                        .help("write the identifier the authorization server gave the gateway's client, e.g. `client-id = \"catalog-gateway\"`"),
                );
            }
            ok
        })
    });
    let credential = [
        ("client-secret", ClientCredential::Secret as fn(_) -> _),
        ("private-key", ClientCredential::PrivateKey),
    ]
    .map(|(key, kind)| {
        t.take(key).map(|(value, at)| {
            let read = secret(value, &format!("oauth.{key}"), errors).map(kind);
            (read, at)
        })
    });
    let scope = t.take("scope").and_then(|(v, _)| {
        string(v, "scope", errors).and_then(|(scope, at)| {
            if scope.trim().is_empty() {
                errors.push(
                    Diagnostic::new(at, format!("the `scope` of {what} is empty"))
                        .help("name the scopes to ask for, separated by spaces, or remove `scope` to ask for what the server's challenge names"),
                );
                return None;
            }
            Some(scope)
        })
    });
    let seen = t.finish(OAUTH_KEYS, errors);
    if client_id.is_none() && !seen.has("client-id") {
        errors.push(
            Diagnostic::new(v.span(), format!("the `oauth` of {what} has no `client-id`"))
                .help("add `client-id = \"...\"`: the identifier the authorization server gave the gateway's client"),
        );
    }
    let [secret_key, private_key] = credential;
    let credential = match (secret_key, private_key) {
        (Some((_, first)), Some((_, second))) => {
            errors.push(
                Diagnostic::new(second, format!("the `oauth` of {what} has both `client-secret` and `private-key`"))
                    .related(first, "`client-secret`")
                    .help("keep one: `client-secret` for a client with a shared secret, `private-key` for one that signs its requests (`private_key_jwt`)"),
            );
            None
        }
        (Some((read, _)), None) | (None, Some((read, _))) => read,
        (None, None) => {
            if !seen.has("client-secret") && !seen.has("private-key") {
                errors.push(
                    Diagnostic::new(v.span(), format!("the `oauth` of {what} says neither `client-secret` nor `private-key`"))
                        .help("add how the client proves it is the client, read when a token is requested: `client-secret = { from-env = \"NAME\" }` or `private-key = { from-file = \"PATH\" }`"),
                );
            }
            None
        }
    };
    Some(OAuth {
        client_id: client_id??.0,
        credential: credential?,
        scope,
    })
}
