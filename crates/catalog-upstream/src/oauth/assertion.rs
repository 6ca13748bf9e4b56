//! The client credentials grant with `private_key_jwt` (RFC 7523): the client proves who
//! it is with a short-lived JWT signed by its private key, sent in place of a secret.
//!
//! Signed with `ring`, which the TLS stack already builds: EC P-256 (ES256), P-384
//! (ES384) or RSA (RS256), whichever the PKCS #8 key is.

use std::fmt::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::{SecureRandom as _, SystemRandom};
use ring::signature::{self, EcdsaKeyPair, RsaKeyPair};
use rmcp::transport::auth::AuthorizationMetadata;
use rustls::pki_types::PrivatePkcs8KeyDer;
use rustls::pki_types::pem::PemObject as _;
use serde_json::{Value, json};

/// How long an assertion is valid: long enough for one token request.
const LIFETIME_SECS: u64 = 300;

/// Asks the token endpoint of `metadata` for a token for `resource`, as `client` with an
/// assertion signed by the PEM key `pem`: the endpoint's answer.
pub(super) async fn exchange(
    metadata: &AuthorizationMetadata,
    client: &str,
    pem: &str,
    scopes: &[String],
    resource: &str,
) -> Result<Value, String> {
    // RFC 7523 (as revised) has the assertion name the authorization server's issuer.
    let audience = metadata
        .issuer
        .as_deref()
        .unwrap_or(&metadata.token_endpoint);
    let assertion = sign(client, audience, pem)?;
    let mut form = vec![
        ("grant_type", "client_credentials".to_owned()),
        (
            "client_assertion_type",
            "urn:ietf:params:oauth:client-assertion-type:jwt-bearer".to_owned(),
        ),
        ("client_assertion", assertion),
        // The token's audience (RFC 8707), which the MCP authorization spec requires.
        ("resource", resource.to_owned()),
    ];
    if !scopes.is_empty() {
        form.push(("scope", scopes.join(" ")));
    }
    crate::tls::provider();
    let response = reqwest::Client::new()
        .post(&metadata.token_endpoint)
        .form(&form)
        .send()
        .await
        .map_err(|e| format!("the token endpoint cannot be reached: {e}"))?;
    let status = response.status().as_u16();
    let body = response
        .bytes()
        .await
        .map_err(|e| format!("the token endpoint's answer cannot be read: {e}"))?;
    super::answer(status, &body)
}

/// A JWT naming `client` as issuer and subject, for `audience`, signed with the PEM key.
fn sign(client: &str, audience: &str, pem: &str) -> Result<String, String> {
    let key = PrivatePkcs8KeyDer::from_pem_slice(pem.as_bytes()).map_err(|e| {
        format!("`oauth.private-key` is not a PEM private key in PKCS #8 (`-----BEGIN PRIVATE KEY-----`): {e}; convert one with `openssl pkcs8 -topk8 -nocrypt`")
    })?;
    let key = key.secret_pkcs8_der();
    let random = SystemRandom::new();
    let private = Signer::of(key, &random)?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut id = [0u8; 16];
    random
        .fill(&mut id)
        .map_err(|_| "no randomness for the assertion's id".to_owned())?;
    let id = id.iter().fold(String::new(), |mut hex, b| {
        let _ = write!(hex, "{b:02x}");
        hex
    });
    let header = json!({"alg": private.algorithm(), "typ": "JWT"});
    let claims = json!({
        "iss": client,
        "sub": client,
        "aud": audience,
        "iat": now,
        "exp": now + LIFETIME_SECS,
        "jti": id,
    });
    let signed = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    );
    let signature = private.sign(signed.as_bytes(), &random)?;
    Ok(format!("{signed}.{}", URL_SAFE_NO_PAD.encode(signature)))
}

/// A private key, of whichever kind the PKCS #8 document holds.
enum Signer {
    Ec(EcdsaKeyPair, &'static str),
    Rsa(RsaKeyPair),
}

impl Signer {
    fn of(der: &[u8], random: &SystemRandom) -> Result<Signer, String> {
        let curves = [
            (&signature::ECDSA_P256_SHA256_FIXED_SIGNING, "ES256"),
            (&signature::ECDSA_P384_SHA384_FIXED_SIGNING, "ES384"),
        ];
        for (curve, algorithm) in curves {
            if let Ok(key) = EcdsaKeyPair::from_pkcs8(curve, der, random) {
                return Ok(Signer::Ec(key, algorithm));
            }
        }
        RsaKeyPair::from_pkcs8(der).map(Signer::Rsa).map_err(|_| {
            "`oauth.private-key` is neither an EC P-256 or P-384 key nor an RSA key: make one with `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256` and register its public key".to_owned()
        })
    }

    fn algorithm(&self) -> &'static str {
        match self {
            Signer::Ec(_, algorithm) => algorithm,
            Signer::Rsa(_) => "RS256",
        }
    }

    fn sign(&self, message: &[u8], random: &SystemRandom) -> Result<Vec<u8>, String> {
        let failed = |_| "the private key could not sign the assertion".to_owned();
        match self {
            Signer::Ec(key, _) => key
                .sign(random, message)
                .map(|s| s.as_ref().to_vec())
                .map_err(failed),
            Signer::Rsa(key) => {
                let mut out = vec![0; key.public().modulus_len()];
                key.sign(&signature::RSA_PKCS1_SHA256, random, message, &mut out)
                    .map_err(failed)?;
                Ok(out)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ring::signature::KeyPair as _;

    /// A P-256 key made for this test, in PKCS #8.
    fn key() -> (String, Vec<u8>) {
        let random = SystemRandom::new();
        let document =
            EcdsaKeyPair::generate_pkcs8(&signature::ECDSA_P256_SHA256_FIXED_SIGNING, &random)
                .unwrap();
        let pair = EcdsaKeyPair::from_pkcs8(
            &signature::ECDSA_P256_SHA256_FIXED_SIGNING,
            document.as_ref(),
            &random,
        )
        .unwrap();
        let body = base64::engine::general_purpose::STANDARD.encode(document.as_ref());
        let pem = format!("-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----\n");
        (pem, pair.public_key().as_ref().to_vec())
    }

    #[test]
    fn the_assertion_names_the_client_and_the_issuer_and_verifies_with_the_public_key() {
        let (pem, public) = key();
        let jwt = sign("gateway", "http://as.example", &pem).unwrap();
        let parts: Vec<&str> = jwt.split('.').collect();
        assert_eq!(parts.len(), 3);
        let decode = |part: &str| -> Value {
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(part).unwrap()).unwrap()
        };
        assert_eq!(decode(parts[0])["alg"], "ES256");
        let claims = decode(parts[1]);
        assert_eq!(claims["iss"], "gateway");
        assert_eq!(claims["sub"], "gateway");
        assert_eq!(claims["aud"], "http://as.example");
        assert_eq!(
            claims["exp"].as_u64().unwrap() - claims["iat"].as_u64().unwrap(),
            LIFETIME_SECS
        );
        let signature = URL_SAFE_NO_PAD.decode(parts[2]).unwrap();
        signature::UnparsedPublicKey::new(&signature::ECDSA_P256_SHA256_FIXED, public)
            .verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature)
            .unwrap();
        // Two assertions never share an id.
        let again = sign("gateway", "http://as.example", &pem).unwrap();
        assert_ne!(
            decode(again.split('.').nth(1).unwrap())["jti"],
            claims["jti"]
        );
    }

    #[test]
    fn a_key_that_is_not_pkcs8_names_the_conversion() {
        let e = sign(
            "gateway",
            "aud",
            "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n",
        )
        .unwrap_err();
        assert!(e.contains("openssl pkcs8 -topk8"), "{e}");
    }
}
