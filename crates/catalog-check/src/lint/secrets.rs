//! `secret-in-catalog`: a credential written in an `[[upstream]]` table, where everyone who
//! reads the catalog (or its history) reads it too. The value belongs in the gateway's
//! environment or a file, named by `{ from-env = "NAME" }` or `{ from-file = "PATH" }`.
//!
//! The rule, short enough to say in a sentence and general rather than tuned:
//!
//! - **A known token shape**, whatever the name: a word of the value that starts the way
//!   a provider's credentials start and goes on with at least 16 token characters
//!   (`ghp_`, `github_pat_`, `glpat-`, `xoxb-`, `sk-`, `sk-ant-`, ...), an AWS access key
//!   id (`AKIA` and 16 capitals or digits), a JWT (three base64url parts, the first two
//!   `eyJ...`), or a PEM private key.
//! - **A random-looking word under a name that says secret**: a word of the name (split at
//!   `_`, `-` and case changes) ends in TOKEN, SECRET, KEY, PASSWORD, PASSWD, PWD,
//!   CREDENTIAL, AUTH, AUTHORIZATION or COOKIE (plurals too), and a word of the value
//!   has at least 16 characters, letters and digits both, at least 10 different
//!   characters, and is no path or URL. Paths, URLs, time zones, booleans, ports and
//!   ordinary words fail the word test; an ID under a name that does not say secret is
//!   never read.
//! - **A credential in the `url`**: a password before the `@`, a user part that passes
//!   either test above, or a query parameter whose name says secret (`token=`, `key=`,
//!   `api_key=`), or whose value has a token shape.

use super::{Ctx, Found, LintId};
use crate::diag::Diagnostic;
use crate::model::{Transport, Upstream};

/// Runs the check over every upstream.
pub(super) fn check(ctx: &Ctx<'_>, found: &mut Vec<Found>) {
    for upstream in &ctx.catalog.upstreams {
        let (key, values) = match &upstream.transport {
            Transport::Stdio { env, .. } => ("env", env),
            Transport::Http { url, headers, .. } => {
                if let Some(why) = in_url(url) {
                    found.push((
                        LintId::SecretInCatalog,
                        None,
                        Diagnostic::new(
                            ctx.find(&upstream.table, url),
                            format!(
                                "the `url` of upstream `{}` holds a credential: {why}",
                                upstream.name
                            ),
                        )
                        .help(
                            "take it out of the URL and send it as a header read when the upstream is reached, e.g. `headers = { Authorization = { from-env = \"MCP_TOKEN\" } }` (the header the server reads); then revoke it, since the catalog's history keeps it",
                        ),
                    ));
                }
                ("headers", headers)
            }
        };
        for (name, value) in values {
            let Some(literal) = value.literal() else {
                continue;
            };
            if let Some(why) = secret(name, literal) {
                found.push(finding(ctx, upstream, key, name, literal, why));
            }
        }
    }
}

/// The finding about `key.name` (`env.GITHUB_TOKEN`), written as `literal`.
fn finding(
    ctx: &Ctx<'_>,
    upstream: &Upstream,
    key: &str,
    name: &str,
    literal: &str,
    why: &str,
) -> Found {
    let variable: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    let file = variable.to_ascii_lowercase();
    (
        LintId::SecretInCatalog,
        None,
        Diagnostic::new(
            ctx.find(&upstream.table, literal),
            format!(
                "`{key}.{name}` of upstream `{}` is written in the catalog and looks like a secret: {why}",
                upstream.name
            ),
        )
        .help(format!(
            "read it when the upstream starts instead: `{name} = {{ from-env = \"{variable}\" }}` (the gateway's environment) or `{name} = {{ from-file = \"/run/secrets/{file}\" }}`; then revoke it, since the catalog's history keeps it"
        )),
    )
}

/// Why the value `value` of `name` looks like a secret, if it does.
pub(crate) fn secret(name: &str, value: &str) -> Option<&'static str> {
    if value.contains("-----BEGIN") && value.contains("PRIVATE KEY-----") {
        return Some("a PEM private key");
    }
    let words = words(value);
    if let Some(shape) = words.iter().find_map(|w| shape(w)) {
        return Some(shape);
    }
    (says_secret(name) && words.iter().any(|w| random(w)))
        .then_some("a long random-looking value under a name that says secret")
}

/// The credential a URL holds, if any.
pub(crate) fn in_url(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    if let Some((userinfo, _)) = authority.rsplit_once('@') {
        match userinfo.split_once(':') {
            Some((_, password)) if !password.is_empty() => {
                return Some("a password before the `@`".into());
            }
            _ if shape(userinfo).is_some() || random(userinfo) => {
                return Some("a token before the `@`".into());
            }
            _ => {}
        }
    }
    let query = rest[end..].split_once('?')?.1;
    let query = query.split('#').next().unwrap_or(query);
    query.split('&').find_map(|pair| {
        let (name, value) = pair.split_once('=')?;
        (!value.is_empty() && (says_secret(name) || shape(value).is_some()))
            .then(|| format!("the query parameter `{name}`"))
    })
}

/// The words of a value: what whitespace and punctuation that is no part of a token
/// (`Bearer <token>`, `token=<token>`, `a,b`) set apart.
fn words(value: &str) -> Vec<&str> {
    value
        .split(|c: char| c.is_whitespace() || "=,;:\"'&?()[]{}<>".contains(c))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Prefixes of providers' credentials, with what they are.
const PREFIXES: &[(&str, &str)] = &[
    ("github_pat_", "a GitHub token"),
    ("ghp_", "a GitHub token"),
    ("gho_", "a GitHub token"),
    ("ghu_", "a GitHub token"),
    ("ghs_", "a GitHub token"),
    ("ghr_", "a GitHub token"),
    ("glpat-", "a GitLab token"),
    ("xoxa-", "a Slack token"),
    ("xoxb-", "a Slack token"),
    ("xoxp-", "a Slack token"),
    ("xoxr-", "a Slack token"),
    ("xoxs-", "a Slack token"),
    ("sk-ant-", "an Anthropic API key"),
    ("sk-", "a secret API key (OpenAI's shape)"),
    ("sk_live_", "a Stripe secret key"),
    ("rk_live_", "a Stripe secret key"),
    ("AIza", "a Google API key"),
];

/// What known credential `word` is shaped like, if any.
fn shape(word: &str) -> Option<&'static str> {
    let token = |s: &str| {
        s.len() >= 16
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    };
    if let Some((_, what)) = PREFIXES
        .iter()
        .find(|(prefix, _)| word.strip_prefix(prefix).is_some_and(token))
    {
        return Some(what);
    }
    let aws = ["AKIA", "ASIA"].iter().any(|prefix| {
        word.strip_prefix(prefix).is_some_and(|rest| {
            rest.len() == 16
                && rest
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        })
    });
    if aws {
        return Some("an AWS access key id");
    }
    let parts: Vec<&str> = word.split('.').collect();
    let jwt = parts.len() == 3
        && parts[0].starts_with("eyJ")
        && parts[1].starts_with("eyJ")
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        });
    jwt.then_some("a JSON Web Token")
}

/// Whether a word of `name` (split at `_`, `-`, `.` and where lower case turns upper)
/// ends in what a secret's name ends in.
fn says_secret(name: &str) -> bool {
    const SECRET: &[&str] = &[
        "TOKEN",
        "SECRET",
        "KEY",
        "PASSWORD",
        "PASSWD",
        "PWD",
        "CREDENTIAL",
        "AUTH",
        "AUTHORIZATION",
        "COOKIE",
    ];
    let mut words = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() || (previous_lower && c.is_ascii_uppercase()) {
            words.push(std::mem::take(&mut word));
        }
        if c.is_ascii_alphanumeric() {
            word.push(c.to_ascii_uppercase());
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
    }
    words.push(word);
    words.iter().any(|w| {
        let w = w.strip_suffix('S').filter(|s| s.len() >= 3).unwrap_or(w);
        SECRET.iter().any(|s| w.ends_with(s))
    })
}

/// Whether `word` looks like a random credential: at least 16 characters, letters and
/// digits both, at least 10 different characters, and no path or URL.
fn random(word: &str) -> bool {
    let path = word.starts_with(['/', '.', '~']) || word.contains("://");
    let mut seen = Vec::new();
    for c in word.chars() {
        if !seen.contains(&c) {
            seen.push(c);
        }
    }
    !path
        && word.chars().count() >= 16
        && word.chars().any(char::is_alphabetic)
        && word.chars().any(|c| c.is_ascii_digit())
        && seen.len() >= 10
}

#[cfg(test)]
mod tests {
    use super::{in_url, secret};

    #[test]
    fn known_token_shapes_are_secrets_under_any_name() {
        for (value, what) in [
            ("ghp_16C7e42F292c6912E7710c838347Ae178B4a", "GitHub"),
            (
                "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOP",
                "GitHub",
            ),
            ("glpat-xxxxXXXXxxxxXXXXxx12", "GitLab"),
            ("xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp", "Slack"),
            ("xoxp-1234567890-0987654321-AbCdEfGhIjKl", "Slack"),
            ("sk-proj-abcdefghijklmnopqrstuvwxyz012345", "OpenAI"),
            (
                "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789",
                "Anthropic",
            ),
            ("AKIAIOSFODNN7EXAMPLE", "AWS"),
            (
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
                "JSON Web Token",
            ),
            (
                "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
                "PEM",
            ),
            ("Bearer ghp_16C7e42F292c6912E7710c838347Ae178B4a", "GitHub"),
            ("token=ghp_16C7e42F292c6912E7710c838347Ae178B4a", "GitHub"),
        ] {
            let found = secret("X", value);
            assert!(
                found.is_some_and(|why| why.contains(what)),
                "{value}: {found:?}"
            );
        }
    }

    #[test]
    fn random_values_under_secret_names_are_secrets() {
        for (name, value) in [
            ("API_KEY", "a8f5f167f44f4964e6c998dee827110c"),
            ("apiKey", "Zx81kQp0LmN4vB7rT2yU"),
            ("DB_PASSWORD", "n0t-s0-s3cret-Passw0rd!"),
            ("CLIENT_SECRET", "3f2b9c1e-7d4a-4b8e-9f6c-2a1d5e8b7c40"),
            ("Authorization", "Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0"),
            ("Authorization", "Basic dXNlcjpwYXNzd29yZDEyMzQ1Ng=="),
            ("X-Api-Key", "k3y-9a8b7c6d5e4f3a2b1c0d"),
            ("SLACK_TOKENS", "a1b2c3d4e5f6g7h8i9j0"),
            ("GITLAB_AUTH", "q1w2e3r4t5y6u7i8o9p0"),
        ] {
            assert!(secret(name, value).is_some(), "{name} = {value}");
        }
    }

    #[test]
    fn ordinary_values_are_not_secrets() {
        for (name, value) in [
            // Not a secret's name: an ID, however random.
            ("PROJECT_ID", "3f2b9c1e-7d4a-4b8e-9f6c-2a1d5e8b7c40"),
            ("TZ", "Europe/Berlin"),
            ("LANG", "C.UTF-8"),
            ("DEBUG", "true"),
            ("ORG", "example-corp"),
            ("SESSION_ID", "a8f5f167f44f4964e6c998dee827110c"),
            ("KEYBOARD_LAYOUT", "de-nodeadkeys-2024-extended"),
            // A secret's name, but no random word: paths, URLs, words, numbers.
            ("API_KEY_FILE", "/run/secrets/api_key_2024_production"),
            ("SSH_KEY", "~/.ssh/id_ed25519_work_laptop_2024"),
            ("TOKEN_URL", "https://auth.example.com/oauth2/token/v2024"),
            ("AUTH_MODE", "client_credentials"),
            ("AUTH_PORT", "8443"),
            ("API_KEY", "changeme"),
            ("PASSWORD", "correct-horse-battery-staple"),
            ("KEY_ID", "2024-01-15"),
            ("SECRET", "xxxxxxxxxxxxxxxx1"),
            ("Authorization", "Bearer"),
            ("Accept-Language", "en-US"),
            ("User-Agent", "example-gateway/1.2.3 (build 20240115)"),
        ] {
            assert_eq!(secret(name, value), None, "{name} = {value}");
        }
    }

    #[test]
    fn credentials_in_urls_are_found() {
        for url in [
            "https://user:hunter2@mcp.example.com/mcp",
            "https://ghp_16C7e42F292c6912E7710c838347Ae178B4a@mcp.example.com/mcp",
            "https://mcp.example.com/mcp?token=abc",
            "https://mcp.example.com/mcp?region=eu&api_key=abc#top",
            "https://mcp.example.com/mcp?key=AIzaSyA1234567890abcdefghijklmnopq",
            "https://mcp.example.com/mcp?x=glpat-xxxxXXXXxxxxXXXXxx12",
        ] {
            assert!(in_url(url).is_some(), "{url}");
        }
        for url in [
            "http://127.0.0.1:8000/mcp",
            "https://mcp.example.com/mcp",
            "https://user@mcp.example.com/mcp",
            "https://mcp.example.com/mcp?region=eu&format=json",
            "https://mcp.example.com/mcp?token=",
            "https://mcp.example.com/a@b",
        ] {
            assert_eq!(in_url(url), None, "{url}");
        }
    }
}
