//! The `[oauth]` table and the `[[scope]]` tables: the gateway as an OAuth 2.1 resource
//! server (MCP authorization 2025-11-25), and what each scope of its tokens grants.
//!
//! ```toml
//! [oauth]
//! issuer = "https://auth.example"            # tokens' `iss`; its metadata is read (RFC 8414)
//! resource = "https://tools.example/mcp"     # tokens' `aud` (RFC 8707); default http://ADDRESS/mcp
//! jwks-uri = "https://auth.example/jwks"     # optional: else from the metadata
//! required-scopes = ["mcp"]                  # optional: every token must carry these
//! # Opaque tokens, introspected (RFC 7662) with the gateway's own credentials:
//! introspection-endpoint = "https://auth.example/introspect"   # optional: else from the metadata
//! client-id = "catalog-gateway"
//! client-secret-env = "GATEWAY_OAUTH_SECRET" # or client-secret-file = "secret.txt"
//!
//! [[scope]]
//! name = "tools:read"
//! access = "read-only"
//! profile = "coding"                         # optional
//! ```
//!
//! A token carrying several mapped scopes gets the highest level among them and the one
//! profile they name; scopes naming two profiles refuse it (see
//! `catalog_mcp::oauth::scopes`). The client secret is never in this file: it is read from
//! the environment variable or the file named, once, at start.

use std::path::Path;
use std::sync::Arc;

use catalog_check::Diagnostic;
use catalog_core::Access;
use catalog_mcp::oauth::{Endpoint, ScopeRule, Scopes, Settings};
use serde::Deserialize;
use toml::Spanned;

use super::{Profiles, unknown_profile};

/// The `[oauth]` table as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct Table {
    issuer: Spanned<String>,
    resource: Option<Spanned<String>>,
    jwks_uri: Option<Spanned<String>>,
    introspection_endpoint: Option<Spanned<String>>,
    client_id: Option<Spanned<String>>,
    client_secret_env: Option<Spanned<String>>,
    client_secret_file: Option<Spanned<String>>,
    #[serde(default)]
    required_scopes: Vec<Spanned<String>>,
}

/// One `[[scope]]` table as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ScopeTable {
    name: Spanned<String>,
    access: Spanned<String>,
    profile: Option<Spanned<String>>,
}

/// The gateway's OAuth settings, checked; the resource URI is settled once the address
/// is bound.
#[derive(Clone, Debug)]
pub struct OAuth {
    issuer: String,
    resource: Option<String>,
    jwks_uri: Option<String>,
    introspection: Option<Endpoint>,
    scopes: Scopes,
}

impl OAuth {
    /// The verifier's settings for a gateway bound at `bound`: the configured resource URI,
    /// else `http://BOUND/mcp`.
    #[must_use]
    pub fn settings(&self, bound: std::net::SocketAddr) -> Settings {
        Settings {
            issuer: self.issuer.clone(),
            resource: self
                .resource
                .clone()
                .unwrap_or_else(|| format!("http://{bound}{}", catalog_mcp::http::ENDPOINT)),
            jwks_uri: self.jwks_uri.clone(),
            introspection: self.introspection.clone(),
            scopes: self.scopes.clone(),
        }
    }
}

/// Checks the tables; every mistake goes to `errors`. `file` is the configuration's path,
/// which a relative `client-secret-file` is read from.
pub(super) fn read(
    file: &str,
    table: Option<&Spanned<Table>>,
    rows: &[Spanned<ScopeTable>],
    profiles: &Profiles,
    errors: &mut Vec<Diagnostic>,
) -> Option<OAuth> {
    let rules = scope_rules(rows, profiles, errors);
    let Some(table) = table else {
        if let Some(first) = rows.first() {
            errors.push(
                Diagnostic::new(first.span(), "`[[scope]]` tables map OAuth scopes, but there is no `[oauth]` table")
                    .help("add an `[oauth]` table with the `issuer` of the tokens, or remove the `[[scope]]` tables"),
            );
        }
        return None;
    };
    let at = table.span();
    let table = table.get_ref();
    if rows.is_empty() {
        errors.push(
            Diagnostic::new(at, "`[oauth]` without `[[scope]]` tables grants no token anything")
                .help("add a `[[scope]]` table per scope: `name = \"...\"`, `access = \"read-only\"` (or read-and-stage, full-access)"),
        );
    }
    url(&table.issuer, "issuer", errors);
    for (value, key) in [
        (&table.resource, "resource"),
        (&table.jwks_uri, "jwks-uri"),
        (&table.introspection_endpoint, "introspection-endpoint"),
    ] {
        if let Some(value) = value {
            url(value, key, errors);
        }
    }
    if let Some(resource) = &table.resource
        && resource.get_ref().contains('#')
    {
        errors.push(
            Diagnostic::new(resource.span(), "a resource URI has no fragment (RFC 8707)")
                .help("remove the `#...` part"),
        );
    }
    let mut required = Vec::new();
    for scope in &table.required_scopes {
        if let Some(name) = scope_name(scope, errors) {
            required.push(name);
        }
    }
    let introspection = introspection(file, table, errors);
    Some(OAuth {
        issuer: table.issuer.get_ref().clone(),
        resource: table.resource.as_ref().map(|r| r.get_ref().clone()),
        jwks_uri: table.jwks_uri.as_ref().map(|r| r.get_ref().clone()),
        introspection,
        scopes: Scopes { rules, required },
    })
}

fn scope_rules(
    rows: &[Spanned<ScopeTable>],
    profiles: &Profiles,
    errors: &mut Vec<Diagnostic>,
) -> Vec<ScopeRule> {
    let mut rules: Vec<ScopeRule> = Vec::new();
    for row in rows {
        let row = row.get_ref();
        let Some(name) = scope_name(&row.name, errors) else {
            continue;
        };
        if rules.iter().any(|r| r.name == name) {
            errors.push(
                Diagnostic::new(row.name.span(), format!("scope `{name}` is mapped twice"))
                    .help("keep one `[[scope]]` table per scope"),
            );
            continue;
        }
        let Some(access) = Access::parse(row.access.get_ref()) else {
            errors.push(
                Diagnostic::new(
                    row.access.span(),
                    format!("scope `{name}` has access = \"{}\"", row.access.get_ref()),
                )
                .help("use read-only, read-and-stage or full-access"),
            );
            continue;
        };
        if let Some(profile) = &row.profile
            && profiles.get(profile.get_ref()).is_none()
        {
            errors.push(unknown_profile(profile.get_ref(), profile.span(), profiles));
        }
        rules.push(ScopeRule {
            name,
            access,
            profile: row
                .profile
                .as_ref()
                .map(|p| Arc::from(p.get_ref().as_str())),
        });
    }
    rules
}

/// A scope token as RFC 6749 §3.3 allows: printable ASCII without space, `"` or `\`.
fn scope_name(scope: &Spanned<String>, errors: &mut Vec<Diagnostic>) -> Option<String> {
    let name = scope.get_ref();
    let fits = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_graphic() && c != '"' && c != '\\');
    if fits {
        Some(name.clone())
    } else {
        errors.push(
            Diagnostic::new(scope.span(), format!("`{name}` is not a scope"))
                .help("a scope is one word of printable ASCII, without spaces, `\"` or `\\`"),
        );
        None
    }
}

/// An `http(s)` URL; plain `http` only to a loopback host, since tokens and keys must not
/// cross a network in the clear (OAuth 2.1 §1.5).
fn url(value: &Spanned<String>, key: &str, errors: &mut Vec<Diagnostic>) {
    let text = value.get_ref();
    let host = |rest: &str| {
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        // Drop the port; an IPv6 literal keeps its brackets.
        match host.rsplit_once(':') {
            Some((h, port))
                if !h.is_empty()
                    && port.chars().all(|c| c.is_ascii_digit())
                    && !port.is_empty() =>
            {
                h.to_owned()
            }
            _ => host.to_owned(),
        }
    };
    let problem = if let Some(rest) = text.strip_prefix("https://") {
        host(rest).is_empty().then_some("it names no host")
    } else if let Some(rest) = text.strip_prefix("http://") {
        let host = host(rest);
        let loopback = host == "localhost"
            || host == "[::1]"
            || host
                .parse::<std::net::Ipv4Addr>()
                .is_ok_and(|ip| ip.is_loopback());
        (!loopback).then_some("plain http is only for a loopback host")
    } else {
        Some("it is not an http(s) URL")
    };
    if let Some(problem) = problem {
        errors.push(
            Diagnostic::new(value.span(), format!("`{key}` = \"{text}\": {problem}"))
                .help("give an https URL, e.g. https://auth.example"),
        );
    }
}

/// The introspection endpoint and credentials, when `client-id` is given.
fn introspection(file: &str, table: &Table, errors: &mut Vec<Diagnostic>) -> Option<Endpoint> {
    let Some(client_id) = &table.client_id else {
        for (key, value) in [
            ("introspection-endpoint", &table.introspection_endpoint),
            ("client-secret-env", &table.client_secret_env),
            ("client-secret-file", &table.client_secret_file),
        ] {
            if let Some(value) = value {
                errors.push(
                    Diagnostic::new(value.span(), format!("`{key}` without `client-id`"))
                        .help("introspection needs the gateway's own client: add `client-id` and its secret's source"),
                );
            }
        }
        return None;
    };
    let secret = match (&table.client_secret_env, &table.client_secret_file) {
        (Some(var), None) => match std::env::var(var.get_ref()) {
            Ok(secret) if !secret.trim().is_empty() => Some(secret.trim().to_owned()),
            _ => {
                errors.push(
                    Diagnostic::new(
                        var.span(),
                        format!("the environment variable `{}` is not set", var.get_ref()),
                    )
                    .help("set it to the gateway's client secret before starting the gateway"),
                );
                None
            }
        },
        (None, Some(path)) => {
            let relative = Path::new(path.get_ref());
            let full = Path::new(file)
                .parent()
                .map_or_else(|| relative.to_path_buf(), |dir| dir.join(relative));
            match std::fs::read_to_string(&full) {
                Ok(secret) if !secret.trim().is_empty() => Some(secret.trim().to_owned()),
                Ok(_) => {
                    errors.push(
                        Diagnostic::new(path.span(), format!("`{}` is empty", full.display()))
                            .help("write the gateway's client secret in it"),
                    );
                    None
                }
                Err(e) => {
                    errors.push(
                        Diagnostic::new(path.span(), format!("cannot read `{}`: {e}", full.display()))
                            .help("name a file holding the gateway's client secret, relative to this file"),
                    );
                    None
                }
            }
        }
        (Some(var), Some(_)) => {
            errors.push(
                Diagnostic::new(var.span(), "the client secret comes from two places")
                    .help("keep one of `client-secret-env` and `client-secret-file`"),
            );
            None
        }
        (None, None) => {
            errors.push(
                Diagnostic::new(client_id.span(), "`client-id` without its secret")
                    .help("add `client-secret-env = \"VARIABLE\"` or `client-secret-file = \"PATH\"`; the secret itself never goes in this file"),
            );
            None
        }
    };
    Some(Endpoint {
        url: table
            .introspection_endpoint
            .as_ref()
            .map(|u| u.get_ref().clone()),
        client_id: client_id.get_ref().clone(),
        client_secret: secret?,
    })
}
