//! Where each provider's API is, how it takes its key, and its answer as one line when it
//! is not a reply.

use std::fmt::{self, Write as _};
use std::time::{Duration, SystemTime};

use aws_credential_types::Credentials;
use aws_sigv4::http_request::{SignableBody, SignableRequest, SigningSettings, sign};
use aws_sigv4::sign::v4;
use catalog_core::Value;
use catalog_wire::provider::{Provider, ReplyError, read};

/// One provider's API with its key and model: a blocking HTTP client (rustls) that sends
/// request bodies and returns the replies' JSON.
///
/// It is `Send` and `Sync`: one `Api` serves several threads at once, each request on a
/// connection of its own from a shared pool. Every request gives up after 300 s.
pub struct Api {
    provider: Provider,
    url: String,
    model: String,
    auth: Auth,
    http: ureq::Agent,
}

enum Auth {
    /// A key in a header of its own (Anthropic's `x-api-key`, Gemini's `x-goog-api-key`).
    Header(&'static str, String),
    /// `Authorization: Bearer` (`OpenAI`, a Bedrock API key).
    Bearer(String),
    /// AWS Signature Version 4 (Bedrock with the usual AWS variables).
    SigV4 {
        credentials: Credentials,
        region: String,
    },
}

/// What goes wrong between two steps: the one line the user reads, and what a caller
/// needs to decide whether to try again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The line the user reads (also what `Display` prints), e.g. `anthropic answered
    /// HTTP 429 Too Many Requests (rate_limit_error): …; retry in 7 s`.
    pub message: String,
    /// The HTTP status, when the provider answered; `None` when it could not be reached,
    /// timed out, or the failure is not the provider's (a missing key, a local error).
    pub status: Option<u16>,
    /// How long the provider asked to wait, from a `retry-after` header in seconds.
    pub retry_after: Option<Duration>,
}

impl Failure {
    /// A failure with only a message: no status, no wait.
    #[must_use]
    pub fn new(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            status: None,
            retry_after: None,
        }
    }

    /// Whether the same request may succeed later: the provider answered 429 (rate
    /// limit), 408 (request timeout) or a 5xx (its own failure or overload).
    #[must_use]
    pub fn retryable(&self) -> bool {
        matches!(self.status, Some(408 | 429 | 500..=599))
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::new(message)
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

/// The model a provider is asked for when none is given.
#[must_use]
pub fn default_model(provider: Provider) -> &'static str {
    match provider {
        Provider::Anthropic | Provider::AnthropicToolSearch(_) => "claude-sonnet-4-5",
        Provider::OpenAiChat | Provider::OpenAiResponses => "gpt-5-mini",
        Provider::Gemini => "gemini-2.5-flash",
        Provider::Bedrock => "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    }
}

impl Api {
    /// The API of `provider` at `base_url` (its public endpoint when `None`), asking for
    /// `model`, with the key from the provider's usual variables, read through `var`:
    /// `ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, `GEMINI_API_KEY` or `GOOGLE_API_KEY`, and for
    /// Bedrock `AWS_BEARER_TOKEN_BEDROCK` or `AWS_ACCESS_KEY_ID` and
    /// `AWS_SECRET_ACCESS_KEY` (with `AWS_SESSION_TOKEN`), in `AWS_REGION` or
    /// `AWS_DEFAULT_REGION` (default `us-east-1`).
    ///
    /// # Errors
    /// A missing key, named with the variables that would hold it.
    pub fn new(
        provider: Provider,
        base_url: Option<&str>,
        model: &str,
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<Api, Failure> {
        let need = |names: &[&str]| {
            names.iter().find_map(|name| var(name)).ok_or_else(|| {
                Failure::new(format!(
                    "{provider} needs a key: set {} (a run against a local endpoint takes any value)",
                    names.join(" or ")
                ))
            })
        };
        let region = var("AWS_REGION")
            .or_else(|| var("AWS_DEFAULT_REGION"))
            .unwrap_or_else(|| String::from("us-east-1"));
        let (default_base, path, auth) = match provider {
            Provider::Anthropic | Provider::AnthropicToolSearch(_) => (
                String::from("https://api.anthropic.com/v1"),
                String::from("/messages"),
                Auth::Header("x-api-key", need(&["ANTHROPIC_API_KEY"])?),
            ),
            Provider::OpenAiChat => (
                String::from("https://api.openai.com/v1"),
                String::from("/chat/completions"),
                Auth::Bearer(need(&["OPENAI_API_KEY"])?),
            ),
            Provider::OpenAiResponses => (
                String::from("https://api.openai.com/v1"),
                String::from("/responses"),
                Auth::Bearer(need(&["OPENAI_API_KEY"])?),
            ),
            Provider::Gemini => (
                String::from("https://generativelanguage.googleapis.com/v1beta"),
                format!("/models/{model}:generateContent"),
                Auth::Header(
                    "x-goog-api-key",
                    need(&["GEMINI_API_KEY", "GOOGLE_API_KEY"])?,
                ),
            ),
            Provider::Bedrock => {
                let auth = if let Some(key) = var("AWS_BEARER_TOKEN_BEDROCK") {
                    Auth::Bearer(key)
                } else {
                    let id = need(&["AWS_ACCESS_KEY_ID", "AWS_BEARER_TOKEN_BEDROCK"])?;
                    let secret = need(&["AWS_SECRET_ACCESS_KEY"])?;
                    let credentials =
                        Credentials::new(id, secret, var("AWS_SESSION_TOKEN"), None, "environment");
                    Auth::SigV4 {
                        credentials,
                        region: region.clone(),
                    }
                };
                (
                    format!("https://bedrock-runtime.{region}.amazonaws.com"),
                    format!("/model/{}/converse", encode_path(model)),
                    auth,
                )
            }
        };
        let base = base_url.map_or(default_base, |b| b.trim_end_matches('/').to_string());
        let http = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(300)))
            .build()
            .into();
        Ok(Api {
            provider,
            url: format!("{base}{path}"),
            model: model.to_string(),
            auth,
            http,
        })
    }

    /// The provider whose API this is.
    #[must_use]
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// The model asked for.
    #[must_use]
    pub fn model(&self) -> &str {
        &self.model
    }

    /// The URL every request is posted to (the base URL and the provider's path).
    #[must_use]
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Sends one request body; the reply's JSON.
    ///
    /// # Errors
    /// The provider's refusal (its HTTP status, its error's kind and message, when to
    /// retry), an endpoint that cannot be reached, or an answer that is not JSON.
    pub fn send(&self, body: &str) -> Result<Value, Failure> {
        let mut request = self
            .http
            .post(&self.url)
            .header("content-type", "application/json");
        match &self.auth {
            Auth::Header(name, key) => {
                request = request.header(*name, key);
                if *name == "x-api-key" {
                    request = request.header("anthropic-version", "2023-06-01");
                }
            }
            Auth::Bearer(key) => request = request.header("authorization", format!("Bearer {key}")),
            Auth::SigV4 {
                credentials,
                region,
            } => {
                for (name, value) in sigv4(&self.url, body, credentials, region)? {
                    request = request.header(name, value);
                }
            }
        }
        let mut response = request
            .send(body)
            .map_err(|e| Failure::new(format!("cannot reach {}: {e}", self.url)))?;
        let status = response.status();
        let retry = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let answered = |message: String| Failure {
            message,
            status: Some(status.as_u16()),
            retry_after: retry
                .as_deref()
                .and_then(|s| s.trim().parse().ok())
                .map(Duration::from_secs),
        };
        let text = response.body_mut().read_to_string().map_err(|e| {
            answered(format!(
                "{} answered HTTP {status}, unreadable: {e}",
                self.provider
            ))
        })?;
        let value: Result<Value, _> = serde_json::from_str(&text);
        if status.is_success() {
            return value.map_err(|e| {
                answered(format!(
                    "{} answered HTTP {status} with a body that is not JSON: {e}",
                    self.provider
                ))
            });
        }
        let why = match value.map(|v| read(self.provider, &v)) {
            Ok(Err(ReplyError::Provider { kind, message })) => match kind {
                Some(kind) => format!(" ({kind}): {message}"),
                None => format!(": {message}"),
            },
            _ => format!(": {}", text.chars().take(200).collect::<String>()),
        };
        let retry = retry
            .as_deref()
            .map(|s| format!("; retry in {s} s"))
            .unwrap_or_default();
        Err(answered(format!(
            "{} answered HTTP {status}{why}{retry}",
            self.provider
        )))
    }
}

/// The provider, URL and model; never the key.
impl fmt::Debug for Api {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Api")
            .field("provider", &self.provider)
            .field("url", &self.url)
            .field("model", &self.model)
            .finish_non_exhaustive()
    }
}

/// The headers that sign a Bedrock request: `authorization`, `x-amz-date` and, with a
/// session token, `x-amz-security-token`.
fn sigv4(
    url: &str,
    body: &str,
    credentials: &Credentials,
    region: &str,
) -> Result<Vec<(String, String)>, Failure> {
    let identity = credentials.clone().into();
    let fail = |e: &dyn fmt::Display| Failure::new(format!("cannot sign the Bedrock request: {e}"));
    let params = v4::SigningParams::builder()
        .identity(&identity)
        .region(region)
        .name("bedrock")
        .time(SystemTime::now())
        .settings(SigningSettings::default())
        .build()
        .map_err(|e| fail(&e))?
        .into();
    let headers = [("content-type", "application/json")];
    let signable = SignableRequest::new(
        "POST",
        url,
        headers.into_iter(),
        SignableBody::Bytes(body.as_bytes()),
    )
    .map_err(|e| fail(&e))?;
    let (instructions, _signature) = sign(signable, &params).map_err(|e| fail(&e))?.into_parts();
    Ok(instructions
        .headers()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect())
}

/// A model id as one URL path segment: Bedrock's ids hold `:`.
fn encode_path(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(status: Option<u16>) -> Failure {
        Failure {
            status,
            ..Failure::new("x")
        }
    }

    #[test]
    fn rate_limits_timeouts_and_server_errors_are_retryable() {
        for status in [408, 429, 500, 502, 503, 504, 529, 599] {
            assert!(failure(Some(status)).retryable(), "{status}");
        }
        for status in [200, 400, 401, 403, 404, 413, 422, 600] {
            assert!(!failure(Some(status)).retryable(), "{status}");
        }
        assert!(!failure(None).retryable());
    }

    #[test]
    fn an_api_is_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Api>();
        shared::<Failure>();
    }

    #[test]
    fn the_url_is_the_base_and_the_providers_path() {
        let key = |name: &str| (!name.contains("REGION")).then(|| String::from("k"));
        let api = Api::new(Provider::Bedrock, None, "a.b:1", key).unwrap();
        assert_eq!(
            api.url(),
            "https://bedrock-runtime.us-east-1.amazonaws.com/model/a.b%3A1/converse"
        );
        assert_eq!(api.provider(), Provider::Bedrock);
        let api = Api::new(Provider::Gemini, Some("http://127.0.0.1:9/"), "g", key).unwrap();
        assert_eq!(api.url(), "http://127.0.0.1:9/models/g:generateContent");
        let missing = Api::new(Provider::OpenAiChat, None, "m", |_| None).unwrap_err();
        assert_eq!(missing.status, None);
        assert!(missing.message.contains("OPENAI_API_KEY"), "{missing}");
    }
}
