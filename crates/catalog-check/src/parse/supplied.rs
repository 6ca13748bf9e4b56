//! `env` and `headers` of an `[[upstream]]`: names, each with a value written in the
//! catalog or a reference to where it is read when the upstream is started or reached:
//!
//! ```toml
//! env = { TZ = "UTC", GITHUB_TOKEN = { from-env = "GITHUB_TOKEN" } }
//! headers = { Authorization = { from-file = "/run/secrets/mcp_auth" } }
//! ```
//!
//! A reference is an inline table, not a syntax inside the string (`"${GITHUB_TOKEN}"`):
//! a string stays exactly what it says (a value may hold `$`), and a misspelt reference
//! is an unknown key the compiler names, not a literal sent to the server.

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::table::{Table, table};
use super::values::{string, wrong_type};
use crate::diag::{Diagnostic, Errors};
use crate::model::Supplied;

/// The keys of a reference.
pub(crate) const REFERENCE_KEYS: &[&str] = &["from-env", "from-file"];

/// Which table is read: what its names are and what it is for.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    /// `env`: environment variables of a program the gateway starts.
    Env,
    /// `headers`: HTTP headers sent to a server at a `url`.
    Headers,
}

impl Kind {
    fn key(self) -> &'static str {
        match self {
            Kind::Env => "env",
            Kind::Headers => "headers",
        }
    }
}

/// Headers the MCP client sets itself on every request: a catalog cannot replace them.
/// (`Mcp-*` are the protocol's own, checked by prefix.)
const RESERVED_HEADERS: &[&str] = &[
    "accept",
    "content-type",
    "content-length",
    "host",
    "last-event-id",
];

/// `env` or `headers`: a table of names and values, in file order.
pub(super) fn supplied(
    v: &Spanned<DeValue<'_>>,
    kind: Kind,
    errors: &mut Errors,
) -> Option<Vec<(String, Supplied)>> {
    let entries = table(v, &format!("`{}`", kind.key()), errors)?;
    let mut out = Vec::new();
    let mut valid = true;
    for (key, value) in entries {
        let name = key.get_ref().as_ref();
        if let Some((message, help)) = name_problem(kind, name) {
            errors.push(Diagnostic::new(key.span(), message).help(help));
            valid = false;
        }
        let what = format!("{}.{name}", kind.key());
        match one(value, kind, &what, errors) {
            Some(value) => out.push((name.to_string(), value)),
            None => valid = false,
        }
    }
    valid.then_some(out)
}

/// One value: a string, or a reference.
fn one(
    value: &Spanned<DeValue<'_>>,
    kind: Kind,
    what: &str,
    errors: &mut Errors,
) -> Option<Supplied> {
    match value.get_ref() {
        DeValue::String(s) => {
            if let Kind::Headers = kind
                && let Some(c) = s.chars().find(|&c| !header_char(c))
            {
                errors.push(
                    Diagnostic::new(
                        value.span(),
                        format!("`{what}` holds {c:?}, which a header value cannot"),
                    )
                    .help("write the value on one line, without control characters"),
                );
                return None;
            }
            Some(Supplied::Literal(s.to_string()))
        }
        DeValue::Table(t) => reference(t, value, what, errors),
        _ => {
            errors.push(wrong_type(
                value,
                what,
                "a string, or `{ from-env = \"NAME\" }` or `{ from-file = \"PATH\" }`",
            ));
            None
        }
    }
}

/// A secret (`oauth.client-secret`, `oauth.private-key`): only where it is read,
/// `{ from-env = "NAME" }` or `{ from-file = "PATH" }`, never the value itself.
pub(super) fn secret(
    value: &Spanned<DeValue<'_>>,
    what: &str,
    errors: &mut Errors,
) -> Option<Supplied> {
    match value.get_ref() {
        DeValue::Table(t) => reference(t, value, what, errors),
        DeValue::String(_) => {
            errors.push(
                Diagnostic::new(value.span(), format!("`{what}` is written in the catalog"))
                    .help(format!("a secret is read when the upstream is reached: `{what} = {{ from-env = \"NAME\" }}` or `{{ from-file = \"PATH\" }}`; then revoke this one, since the catalog's history keeps it")),
            );
            None
        }
        _ => {
            errors.push(wrong_type(
                value,
                what,
                "`{ from-env = \"NAME\" }` or `{ from-file = \"PATH\" }`",
            ));
            None
        }
    }
}

/// `{ from-env = "NAME" }` or `{ from-file = "PATH" }`.
fn reference(
    t: &DeTable<'_>,
    value: &Spanned<DeValue<'_>>,
    what: &str,
    errors: &mut Errors,
) -> Option<Supplied> {
    let mut t = Table::new(t, value.span(), &format!("`{what}`"));
    let from_env = t.take("from-env").map(|(v, key)| {
        let name = string(v, "from-env", errors).filter(|(name, at)| {
            let ok = !name.is_empty() && !name.contains(['=', '\0']);
            if !ok {
                errors.push(
                    Diagnostic::new(
                        at.clone(),
                        format!("`from-env` of `{what}` is not an environment variable name"),
                    )
                    .help("name the variable the value is read from, without `=`, e.g. `{ from-env = \"GITHUB_TOKEN\" }`"),
                );
            }
            ok
        });
        (name, key)
    });
    let from_file = t.take("from-file").map(|(v, key)| {
        let path = string(v, "from-file", errors).filter(|(path, at)| {
            let ok = !path.trim().is_empty() && !path.contains('\0');
            if !ok {
                errors.push(
                    Diagnostic::new(at.clone(), format!("`from-file` of `{what}` is empty"))
                        .help("name the file the value is read from, e.g. `{ from-file = \"/run/secrets/api_key\" }`"),
                );
            }
            ok
        });
        (path, key)
    });
    let seen = t.finish(REFERENCE_KEYS, errors);
    match (from_env, from_file) {
        (Some((_, env)), Some((_, file))) => {
            errors.push(
                Diagnostic::new(file, format!("`{what}` has both `from-env` and `from-file`"))
                    .related(env, "`from-env`")
                    .help("keep one: `from-env` reads a variable of the gateway's environment, `from-file` a file"),
            );
            None
        }
        (Some((name, _)), None) => name.map(|(name, _)| Supplied::FromEnv(name)),
        (None, Some((path, _))) => path.map(|(path, _)| Supplied::FromFile(path)),
        (None, None) => {
            if !seen.has("from-env") && !seen.has("from-file") {
                errors.push(
                    Diagnostic::new(
                        value.span(),
                        format!("`{what}` says neither `from-env` nor `from-file`"),
                    )
                    .help("write the value as a string, or say where it is read: `{ from-env = \"NAME\" }` or `{ from-file = \"PATH\" }`"),
                );
            }
            None
        }
    }
}

/// What is wrong with a name in `env` or `headers`, if anything: the message and the fix.
fn name_problem(kind: Kind, name: &str) -> Option<(String, &'static str)> {
    match kind {
        Kind::Env if name.is_empty() || name.contains(['=', '\0']) => Some((
            format!("`{name}` is not an environment variable name"),
            "use a name without `=`, e.g. `TZ = \"UTC\"`",
        )),
        Kind::Env => None,
        Kind::Headers if name.is_empty() || !name.chars().all(token_char) => Some((
            format!("`{name}` is not an HTTP header name"),
            "use letters, digits and `-`, e.g. `Authorization = { from-env = \"MCP_TOKEN\" }`",
        )),
        Kind::Headers => {
            let lower = name.to_ascii_lowercase();
            (lower.starts_with("mcp-") || RESERVED_HEADERS.contains(&lower.as_str())).then(|| {
                (
                    format!("the header `{name}` is set by the MCP client itself"),
                    "remove it: the client sends `Accept`, `Content-Type`, `Host`, `Last-Event-Id` and the protocol's `Mcp-*` headers",
                )
            })
        }
    }
}

/// A character of an HTTP header name (RFC 9110's `tchar`).
fn token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// A character a header value may hold: visible characters, space and tab (RFC 9110's
/// `field-vchar`; text beyond ASCII is sent as its UTF-8 bytes).
pub(crate) fn header_char(c: char) -> bool {
    c == '\t' || !c.is_control()
}
