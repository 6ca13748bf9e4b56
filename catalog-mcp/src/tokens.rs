//! Bearer tokens and the access level each grants, read from a TOML file:
//!
//! ```toml
//! [[token]]
//! value = "a long random string"    # at least 16 characters
//! access = "read-only"              # read-only | read-and-stage | full-access
//! name = "ide"                      # optional, shown in the log
//! ```
//!
//! Only SHA-256 digests are kept, and a presented token is compared with every one of
//! them in constant time, so neither the time taken nor the order of the file tells an
//! attacker how close a guess was.

use std::fmt;

use catalog_core::Access;
use serde::Deserialize;
use sha2::{Digest, Sha256};

/// The access level an HTTP request was granted by its bearer token; the HTTP layer puts
/// it in the request's extensions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Granted(pub Access);

/// Which bearer token an HTTP request came with: its place in the tokens file. The HTTP
/// layer puts it in the request's extensions beside [`Granted`]; a question asked on
/// 2026-07-28 is answered only with the token that it was asked for.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Bearer(pub usize);

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
    access: Access,
    name: String,
}

/// A token the file grants, as the server logs it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Grant<'a> {
    /// The level the token grants.
    pub access: Access,
    /// The token's name in the file, or `token N` (1-based, in file order).
    pub name: &'a str,
    /// The token's place in the file (0-based): which client this is, whatever the names.
    pub index: usize,
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
    token: Vec<Row>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    value: String,
    access: String,
    name: Option<String>,
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
        if parsed.token.is_empty() {
            return Err(TokensError(format!(
                "{file}: no tokens; add one [[token]] table per client, with `value` and `access`"
            )));
        }
        let mut entries: Vec<Entry> = Vec::with_capacity(parsed.token.len());
        for (i, row) in parsed.token.into_iter().enumerate() {
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
                    first.name
                )));
            }
            entries.push(Entry {
                digest,
                access,
                name,
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
    pub fn check(&self, presented: &str) -> Option<Grant<'_>> {
        let presented = digest(presented);
        let mut found = None;
        for (index, entry) in self.entries.iter().enumerate() {
            if same(&entry.digest, &presented) {
                found = Some((index, entry));
            }
        }
        found.map(|(index, e)| Grant {
            access: e.access,
            name: &e.name,
            index,
        })
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
            Some(Grant {
                access: Access::ReadOnly,
                name: "viewer",
                index: 0
            })
        );
        assert_eq!(
            tokens.check("f-0123456789abcdef"),
            Some(Grant {
                access: Access::FullAccess,
                name: "token 2",
                index: 1
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
