//! The two metadata documents: the one this server publishes about itself (RFC 9728,
//! protected-resource metadata) and the one it reads about its authorization server
//! (RFC 8414, falling back to OIDC discovery), for the keys and the
//! introspection endpoint the configuration does not name.

use serde::Deserialize;
use serde_json::{Value, json};

/// Where RFC 9728 puts the document, before the resource's path.
pub const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// The protected-resource metadata of `resource`, served at [`WELL_KNOWN`]: the
/// authorization server to ask, the scopes understood, and that tokens go in the
/// `Authorization` header only.
#[must_use]
pub fn protected_resource(resource: &str, issuer: &str, scopes: &[String], name: &str) -> Value {
    json!({
        "resource": resource,
        "authorization_servers": [issuer],
        "scopes_supported": scopes,
        "bearer_methods_supported": ["header"],
        "resource_name": name,
    })
}

/// The URL of `resource`'s metadata document: [`WELL_KNOWN`] inserted between its origin
/// and its path (RFC 9728 §3.1), what a 401's `resource_metadata` names.
#[must_use]
pub fn metadata_url(resource: &str) -> String {
    let (origin, path) = split(resource);
    format!("{origin}{WELL_KNOWN}{}", path.trim_end_matches('/'))
}

/// The path of a URL (`/mcp` of `https://host/mcp`), empty for none.
#[must_use]
pub fn path_of(url: &str) -> &str {
    split(url).1
}

/// `scheme://authority` and the rest (path, without query or fragment).
fn split(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let end = url[after_scheme..]
        .find(['?', '#'])
        .map_or(url.len(), |i| after_scheme + i);
    let url = &url[..end];
    match url[after_scheme..].find('/') {
        Some(i) => url.split_at(after_scheme + i),
        None => (url, ""),
    }
}

/// What the authorization server's metadata says that the configuration may leave out.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ServerMetadata {
    /// Its issuer identifier, which must be the one configured (RFC 8414 §3.3).
    pub issuer: String,
    /// Where its signing keys are.
    pub jwks_uri: Option<String>,
    /// Its token introspection endpoint (RFC 7662).
    pub introspection_endpoint: Option<String>,
}

/// The URLs to try for `issuer`'s metadata, in order: RFC 8414's (the well-known segment
/// before the issuer's path), then OIDC discovery's (after it).
#[must_use]
pub fn discovery_urls(issuer: &str) -> [String; 2] {
    let (origin, path) = split(issuer);
    let path = path.trim_end_matches('/');
    [
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}{path}/.well-known/openid-configuration"),
    ]
}

/// Reads `issuer`'s metadata with `http`, from the first of [`discovery_urls`] that
/// answers with a document for that issuer.
///
/// # Errors
/// What each URL answered, when none gave the document.
pub async fn discover(http: &reqwest::Client, issuer: &str) -> Result<ServerMetadata, String> {
    let mut failures = Vec::new();
    for url in discovery_urls(issuer) {
        let answer = async {
            let response = http.get(&url).send().await.map_err(|e| e.to_string())?;
            let status = response.status();
            if !status.is_success() {
                return Err(format!("HTTP {status}"));
            }
            response
                .json::<ServerMetadata>()
                .await
                .map_err(|e| format!("not authorization server metadata: {e}"))
        }
        .await;
        match answer {
            Ok(metadata) if same_issuer(&metadata.issuer, issuer) => return Ok(metadata),
            Ok(metadata) => failures.push(format!(
                "{url}: names issuer `{}`, not `{issuer}`",
                metadata.issuer
            )),
            Err(why) => failures.push(format!("{url}: {why}")),
        }
    }
    Err(format!(
        "no metadata for issuer `{issuer}` ({}); set `jwks-uri` (and `introspection-endpoint`) in [oauth]",
        failures.join("; ")
    ))
}

/// Issuers compare as strings (RFC 8414 §3.3), except that a root issuer with and without
/// its trailing slash name the same server.
#[must_use]
pub fn same_issuer(a: &str, b: &str) -> bool {
    a == b || a.trim_end_matches('/') == b.trim_end_matches('/') && path_of(a).len() <= 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_known_urls_go_between_origin_and_path() {
        assert_eq!(
            metadata_url("https://gw.example/mcp"),
            "https://gw.example/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            metadata_url("http://127.0.0.1:8931"),
            "http://127.0.0.1:8931/.well-known/oauth-protected-resource"
        );
        assert_eq!(
            discovery_urls("https://as.example/tenant/"),
            [
                "https://as.example/.well-known/oauth-authorization-server/tenant",
                "https://as.example/tenant/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            discovery_urls("http://127.0.0.1:9000"),
            [
                "http://127.0.0.1:9000/.well-known/oauth-authorization-server",
                "http://127.0.0.1:9000/.well-known/openid-configuration",
            ]
        );
        assert_eq!(path_of("https://gw.example/a/mcp?x=1"), "/a/mcp");
    }

    #[test]
    fn issuers_compare_exactly_but_for_a_root_slash() {
        assert!(same_issuer("https://as.example", "https://as.example/"));
        assert!(!same_issuer(
            "https://as.example/t",
            "https://as.example/t/"
        ));
        assert!(!same_issuer("https://as.example", "https://other.example"));
    }
}
