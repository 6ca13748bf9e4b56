//! Bearer tokens and the access level each grants, read from a TOML file:
//!
//! ```toml
//! [[token]]
//! value = "a long random string"    # at least 16 characters
//! access = "read-only"              # read-only | read-and-stage | full-access
//! name = "ide"                      # optional, shown in the log; unique
//! profile = "coding"                # optional: the gateway's client profile
//! ```
//!
//! Only SHA-256 digests are kept, and a presented token is compared with every one of
//! them in constant time, so neither the time taken nor the order of the file tells an
//! attacker how close a guess was.

use std::fmt;
use std::sync::Arc;

use catalog_core::Access;
use serde::Deserialize;
use sha2::{Digest, Sha256};

/// Who sent a request and what it may do, as the server's authentication decided: the
/// HTTP layer puts it in each request's extensions, and every handler reads it through
/// [`Level`](crate::Level); nothing else grants a level.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Grant {
    /// The access level granted.
    pub access: Access,
    /// Which client this is, unique among the server's credentials: a token's name in
    /// the tokens file. A question asked on 2026-07-28 is answered only by the client it
    /// was asked of; logs, the gateway's audit and its rate limits name clients by it.
    pub client: Arc<str>,
    /// The client profile the credential selects, if any: a subset of a gateway's
    /// upstreams and tools, on top of the level. Servers without profiles ignore it.
    pub profile: Option<Arc<str>>,
}

impl Grant {
    /// The grant of a connection with one client for its whole life (stdio), at `access`.
    #[must_use]
    pub fn local(access: Access) -> Grant {
        Grant {
            access,
            client: Arc::from("stdio"),
            profile: None,
        }
    }
}

/// Why a presented token grants nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// 401 `invalid_token`: expired, not yet valid, for another audience or issuer, badly
    /// signed, unknown, inactive; the reason.
    Invalid(String),
    /// 403 `insufficient_scope`: the scopes needed, and why.
    Scope {
        /// Space-separated, as RFC 6750's `scope` attribute takes them.
        needed: String,
        /// The reason.
        why: String,
    },
    /// 503: the authorization server could not be asked; the reason.
    Unavailable(String),
}

/// The shortest token accepted: shorter ones are guessable.
pub const MIN_TOKEN_CHARS: usize = 16;

/// The tokens of a file, as digests with their levels.
#[derive(Clone)]
pub struct Tokens {
    entries: Vec<Entry>,
}

#[derive(Clone)]
struct Entry {
    digest: [u8; 32],
    /// What the token grants; its client is the token's name in the file, or `token N`
    /// (1-based, in file order).
    grant: Grant,
}

/// The clients and their grants; never the digests.
impl fmt::Debug for Tokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.grants()).finish()
    }
}

/// Why a tokens file cannot be used.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TokensError(String);

impl fmt::Display for TokensError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TokensError {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    token: Vec<TokenRow>,
}

/// One `[[token]]` table as written: in a tokens file, or in a file of a server's that
/// holds them among other tables (the gateway's configuration).
#[derive(Clone, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct TokenRow {
    /// The token itself.
    pub value: String,
    /// The level it grants.
    pub access: String,
    /// Its name, unique in the file.
    pub name: Option<String>,
    /// The client profile it selects.
    pub profile: Option<String>,
}

fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Equal digests, in time that does not depend on where they differ.
fn same(a: &[u8; 32], b: &[u8; 32]) -> bool {
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

impl Tokens {
    /// Reads a tokens file's text; `file` names it in errors.
    ///
    /// # Errors
    /// Invalid TOML or unknown keys (with the position), no token at all, a token shorter
    /// than [`MIN_TOKEN_CHARS`], the same token twice, an unknown access level.
    pub fn parse(file: &str, text: &str) -> Result<Tokens, TokensError> {
        let parsed: File = toml::from_str(text).map_err(|e| TokensError(format!("{file}: {e}")))?;
        Tokens::from_rows(file, parsed.token)
    }

    /// The tokens of `[[token]]` tables read elsewhere; `file` names their file in errors.
    ///
    /// # Errors
    /// As [`Tokens::parse`], and two tokens of one name.
    pub fn from_rows(file: &str, rows: Vec<TokenRow>) -> Result<Tokens, TokensError> {
        if rows.is_empty() {
            return Err(TokensError(format!(
                "{file}: no tokens; add one [[token]] table per client, with `value` and `access`"
            )));
        }
        let mut entries: Vec<Entry> = Vec::with_capacity(rows.len());
        for (i, row) in rows.into_iter().enumerate() {
            let name = row.name.unwrap_or_else(|| format!("token {}", i + 1));
            let access = Access::parse(&row.access).ok_or_else(|| {
                TokensError(format!(
                    "{file}: `{name}` has access = \"{}\"; use read-only, read-and-stage or full-access",
                    row.access
                ))
            })?;
            if row.value.chars().count() < MIN_TOKEN_CHARS {
                return Err(TokensError(format!(
                    "{file}: `{name}` is shorter than {MIN_TOKEN_CHARS} characters; use a long random value, e.g. from `openssl rand -hex 32`"
                )));
            }
            let digest = digest(&row.value);
            if let Some(first) = entries.iter().find(|e| e.digest == digest) {
                return Err(TokensError(format!(
                    "{file}: `{name}` has the same value as `{}`; give each client its own token",
                    first.grant.client
                )));
            }
            if entries.iter().any(|e| *e.grant.client == *name) {
                return Err(TokensError(format!(
                    "{file}: two tokens are named `{name}`; give each its own name, which logs and limits tell clients apart by"
                )));
            }
            entries.push(Entry {
                digest,
                grant: Grant {
                    access,
                    client: Arc::from(name),
                    profile: row.profile.map(Arc::from),
                },
            });
        }
        Ok(Tokens { entries })
    }

    /// Reads a tokens file.
    ///
    /// # Errors
    /// The file cannot be read, or [`Tokens::parse`] refuses it.
    pub fn read(path: &std::path::Path) -> Result<Tokens, TokensError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| TokensError(format!("cannot read {}: {e}", path.display())))?;
        Tokens::parse(&path.display().to_string(), &text)
    }

    /// What a presented token grants, if it is one of the file's. Every digest is
    /// compared, whichever matches.
    #[must_use]
    pub fn check(&self, presented: &str) -> Option<&Grant> {
        let presented = digest(presented);
        let mut found = None;
        for entry in &self.entries {
            if same(&entry.digest, &presented) {
                found = Some(&entry.grant);
            }
        }
        found
    }

    /// What each token grants, in file order.
    pub fn grants(&self) -> impl Iterator<Item = &Grant> {
        self.entries.iter().map(|e| &e.grant)
    }

    /// How many tokens the file holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the file holds none (never true of a parsed file).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"
[[token]]
value = "r-0123456789abcdef"
access = "read-only"
name = "viewer"
profile = "support"

[[token]]
value = "f-0123456789abcdef"
access = "full-access"
"#;

    #[test]
    fn each_token_grants_its_level_and_nothing_else_passes() {
        let tokens = Tokens::parse("tokens.toml", FILE).unwrap();
        assert_eq!(tokens.len(), 2);
        assert_eq!(
            tokens.check("r-0123456789abcdef"),
            Some(&Grant {
                access: Access::ReadOnly,
                client: Arc::from("viewer"),
                profile: Some(Arc::from("support")),
            })
        );
        assert_eq!(
            tokens.check("f-0123456789abcdef"),
            Some(&Grant {
                access: Access::FullAccess,
                client: Arc::from("token 2"),
                profile: None,
            })
        );
        for wrong in [
            "",
            "r-0123456789abcde",
            "r-0123456789abcdef ",
            "R-0123456789ABCDEF",
        ] {
            assert_eq!(tokens.check(wrong), None, "{wrong:?}");
        }
    }

    #[test]
    fn unusable_files_say_why() {
        let cases = [
            ("[[token]]\nvalue = \"x\"", "missing field `access`"),
            ("", "no tokens"),
            (
                "[[token]]\nvalue = \"0123456789abcdef\"\naccess = \"admin\"",
                "use read-only, read-and-stage or full-access",
            ),
            (
                "[[token]]\nvalue = \"short\"\naccess = \"read-only\"",
                "shorter than 16 characters",
            ),
            (
                "[[token]]\nvalue = \"0123456789abcdef\"\naccess = \"read-only\"\nlevel = 1",
                "unknown field `level`",
            ),
            (
                "[[token]]\nvalue = \"0123456789abcdef\"\naccess = \"read-only\"\n[[token]]\nvalue = \"0123456789abcdef\"\naccess = \"full-access\"",
                "`token 2` has the same value as `token 1`",
            ),
            (
                "[[token]]\nvalue = \"0123456789abcdef\"\naccess = \"read-only\"\nname = \"a\"\n[[token]]\nvalue = \"1123456789abcdef\"\naccess = \"full-access\"\nname = \"a\"",
                "two tokens are named `a`",
            ),
        ];
        for (text, expected) in cases {
            let error = Tokens::parse("t.toml", text).err().unwrap().to_string();
            assert!(
                error.starts_with("t.toml: ") && error.contains(expected),
                "{error}"
            );
        }
    }
}
