//! The operator's file (`--config FILE`): who may connect and what each client sees.
//! The catalog says what the tools are; this file says how one deployment serves them.
//!
//! ```toml
//! [[token]]                  # a static bearer token, as in a `--tokens` file
//! name = "ide"
//! value = "..."              # 16 characters or more
//! access = "read-only"
//! profile = "coding"         # optional: the client sees only this profile's tools
//!
//! [[profile]]
//! name = "coding"
//! upstreams = ["git", "files"]   # every row, prompt and resource of these upstreams
//! tools = ["time_now"]           # and these rows, by their catalog names
//!
//! [audit]                    # one JSON line per call (see `crate::audit`)
//! file = "/var/log/catalog-gateway/audit.jsonl"
//!
//! [metrics]                  # Prometheus, at http://127.0.0.1:9464/metrics
//! listen = "127.0.0.1:9464"
//!
//! [[limit]]                  # token buckets (see `crate::limits`)
//! rate = "20/second"
//!
//! [traces]                   # OpenTelemetry over OTLP/HTTP (see `crate::traces`)
//! endpoint = "http://127.0.0.1:4318/v1/traces"
//!
//! [scan]                     # the result scanner's detector (see `catalog_result_scan::detector`)
//! threshold = 0.9            # instead of the catalog's `scan-threshold`
//!
//! [sessions]                 # optional: replicas behind one load balancer share
//! redis = "redis://127.0.0.1:6379/0"   # sessions and search finds here
//! expire-seconds = 86400     # optional: how long they outlive their last use
//! ```
//!
//! and, for OAuth access tokens, an `[oauth]` table and `[[scope]]` tables (see [`oauth`]).
//!
//! Every mistake is reported at once, located, with the fix, as the catalog's are.

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::Arc;

use catalog_check::Diagnostic;

use crate::limits::{self, LimitRow};
use catalog_check::model::CatalogModel;
use catalog_mcp::tokens::{TokenRow, Tokens};
use serde::Deserialize;
use toml::Spanned;

use crate::replicas::{EXPIRE, Sessions};
pub mod oauth;

/// The operator's file, read and checked against the catalog it serves.
#[derive(Debug, Default)]
pub struct Config {
    /// The static bearer tokens of its `[[token]]` tables, if it has any.
    pub tokens: Option<Tokens>,
    /// The client profiles, by name.
    pub profiles: Profiles,
    /// The `[audit]` table.
    pub audit: Option<crate::audit::Settings>,
    /// The `[metrics]` table.
    pub metrics: Option<crate::metrics::Settings>,
    /// The `[[limit]]` tables, checked.
    pub limits: Vec<LimitRow>,
    /// The `[traces]` table.
    pub traces: Option<crate::traces::Settings>,
    /// Where the replicas keep what they share, from `[sessions]`.
    pub sessions: Option<Sessions>,
    /// The OAuth settings of its `[oauth]` and `[[scope]]` tables, if it has them.
    pub oauth: Option<oauth::OAuth>,
    /// The result scanner's detector threshold of its `[scan]` table, if it sets one.
    pub scan_threshold: Option<f32>,
}

/// The `[[profile]]` tables: which upstreams and rows each profile sees.
#[derive(Debug, Default, Clone)]
pub struct Profiles {
    profiles: Vec<Profile>,
}

/// One profile: a subset of the catalog's upstreams and rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// Its name, as tokens and scopes select it.
    pub name: Arc<str>,
    /// The upstreams whose rows, prompts and resources it sees.
    pub upstreams: BTreeSet<String>,
    /// The rows it sees besides, by catalog name.
    pub tools: BTreeSet<String>,
}

impl Profiles {
    /// The profile called `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Profile> {
        self.profiles.iter().find(|p| &*p.name == name)
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.profiles.is_empty()
    }
}

impl Profile {
    /// Whether this profile sees the row `tool` of `upstream` (`None`: a row of the
    /// catalog's own, such as its search tool).
    #[must_use]
    pub fn sees_tool(&self, tool: &str, upstream: Option<&str>) -> bool {
        self.tools.contains(tool) || upstream.is_some_and(|u| self.upstreams.contains(u))
    }

    /// Whether this profile sees the prompts and resources of `upstream`.
    #[must_use]
    pub fn sees_upstream(&self, upstream: &str) -> bool {
        self.upstreams.contains(upstream)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    token: Vec<Spanned<TokenRow>>,
    #[serde(default)]
    profile: Vec<Spanned<ProfileRow>>,
    audit: Option<crate::audit::Settings>,
    metrics: Option<crate::metrics::Settings>,
    #[serde(default)]
    limit: Vec<LimitRow>,
    traces: Option<crate::traces::Settings>,
    sessions: Option<SessionsTable>,
    oauth: Option<Spanned<oauth::Table>>,
    #[serde(default)]
    scope: Vec<Spanned<oauth::ScopeTable>>,
    scan: Option<ScanTable>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScanTable {
    threshold: Spanned<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct SessionsTable {
    redis: Spanned<String>,
    expire_seconds: Option<Spanned<u64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileRow {
    name: Spanned<String>,
    #[serde(default)]
    upstreams: Vec<Spanned<String>>,
    #[serde(default)]
    tools: Vec<Spanned<String>>,
}

/// Why the file cannot be used: every mistake, located.
#[derive(Debug)]
pub struct Errors(pub Vec<Diagnostic>);

impl Config {
    /// Reads the text of the file named `file`, checked against `catalog`.
    ///
    /// # Errors
    /// Every mistake: TOML that does not read (the first one, where the reader stops),
    /// else unknown upstreams, rows and profiles, empty or repeated profiles, and what
    /// the tokens' own rules refuse.
    pub fn parse(file: &str, text: &str, catalog: &CatalogModel) -> Result<Config, Errors> {
        let parsed: File = toml::from_str(text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            Errors(vec![Diagnostic::new(span, e.message().to_owned()).help(
                "see the gateway's configuration reference for the tables and keys",
            )])
        })?;
        let mut errors = Vec::new();
        let profiles = profiles(&parsed.profile, catalog, &mut errors);
        for row in &parsed.token {
            if let Some(name) = &row.get_ref().profile
                && profiles.get(name).is_none()
            {
                errors.push(unknown_profile(name, row.span(), &profiles));
            }
        }
        let tokens = if parsed.token.is_empty() {
            None
        } else {
            let rows = parsed.token.iter().map(|r| r.get_ref().clone()).collect();
            match Tokens::from_rows(file, rows) {
                Ok(tokens) => Some(tokens),
                Err(e) => {
                    let message = e.to_string();
                    let message = message
                        .strip_prefix(&format!("{file}: "))
                        .unwrap_or(&message);
                    let at = parsed.token.first().map_or(0..0, Spanned::span);
                    errors.push(Diagnostic::new(at, message));
                    None
                }
            }
        };
        check_limits(&parsed.limit, catalog, &mut errors);
        let sessions = parsed
            .sessions
            .as_ref()
            .and_then(|table| sessions(table, &mut errors));
        let oauth = oauth::read(
            file,
            parsed.oauth.as_ref(),
            &parsed.scope,
            &profiles,
            &mut errors,
        );
        let scan_threshold = parsed.scan.as_ref().and_then(|scan| {
            let t = *scan.threshold.get_ref();
            if t > 0.0 && t <= 1.0 {
                #[allow(clippy::cast_possible_truncation)]
                Some(t as f32)
            } else {
                errors.push(
                    Diagnostic::new(scan.threshold.span(), format!("`threshold` is {t}")).help(
                        "give the detector's score from which a result counts as injected, above 0 and at most 1 (lower catches more and risks flagging honest results); leave `[scan]` out for the catalog's",
                    ),
                );
                None
            }
        });
        if errors.is_empty() {
            Ok(Config {
                scan_threshold,
                tokens,
                profiles,
                audit: parsed.audit,
                metrics: parsed.metrics,
                limits: parsed.limit,
                traces: parsed.traces,
                sessions,
                oauth,
            })
        } else {
            Err(Errors(errors))
        }
    }
}

fn profiles(
    rows: &[Spanned<ProfileRow>],
    catalog: &CatalogModel,
    errors: &mut Vec<Diagnostic>,
) -> Profiles {
    let upstreams: Vec<&str> = catalog.upstreams.iter().map(|u| u.name.as_str()).collect();
    let tools: Vec<&str> = catalog.tools.iter().map(|t| t.name.as_str()).collect();
    let mut profiles = Vec::new();
    for row in rows {
        let row_span = row.span();
        let row = row.get_ref();
        let name = row.name.get_ref();
        if profiles.iter().any(|p: &Profile| &*p.name == name.as_str()) {
            errors.push(
                Diagnostic::new(
                    row.name.span(),
                    format!("profile `{name}` is declared twice"),
                )
                .help("merge the two tables, or rename one"),
            );
            continue;
        }
        if row.upstreams.is_empty() && row.tools.is_empty() {
            errors.push(
                Diagnostic::new(row_span, format!("profile `{name}` sees nothing")).help(
                    "list what it sees: `upstreams = [\"...\"]`, `tools = [\"...\"]` or both",
                ),
            );
        }
        for (list, known, what) in [
            (&row.upstreams, &upstreams, "upstream"),
            (&row.tools, &tools, "row"),
        ] {
            for item in list {
                if !known.contains(&item.get_ref().as_str()) {
                    errors.push(unknown(what, item.get_ref(), item.span(), known));
                }
            }
        }
        profiles.push(Profile {
            name: Arc::from(name.as_str()),
            upstreams: row.upstreams.iter().map(|u| u.get_ref().clone()).collect(),
            tools: row.tools.iter().map(|t| t.get_ref().clone()).collect(),
        });
    }
    Profiles { profiles }
}

/// Each `[[limit]]`'s rate reads, its burst lets a call through, and its tools are rows.
fn check_limits(rows: &[LimitRow], catalog: &CatalogModel, errors: &mut Vec<Diagnostic>) {
    let tools: Vec<&str> = catalog.tools.iter().map(|t| t.name.as_str()).collect();
    for row in rows {
        if let Err(message) = limits::parse_rate(row.rate.get_ref()) {
            errors.push(Diagnostic::new(row.rate.span(), message));
        }
        if let Some(burst) = &row.burst
            && *burst.get_ref() == 0
        {
            errors.push(
                Diagnostic::new(burst.span(), "`burst = 0` lets no call through").help(
                    "give the most calls that may come at once, 1 or more, or leave `burst` out",
                ),
            );
        }
        for tool in &row.tools {
            if !tools.contains(&tool.get_ref().as_str()) {
                errors.push(unknown("row", tool.get_ref(), tool.span(), &tools));
            }
        }
    }
}

/// The `[sessions]` table: a Redis URL the client library reads, and an expiry of one
/// second or more.
fn sessions(table: &SessionsTable, errors: &mut Vec<Diagnostic>) -> Option<Sessions> {
    let url = table.redis.get_ref();
    let mut usable = true;
    if let Err(e) = redis::Client::open(url.as_str()) {
        errors.push(
            Diagnostic::new(table.redis.span(), format!("`{url}` is not a usable Redis URL: {e}"))
                .help("write redis://HOST:PORT/DB, e.g. \"redis://127.0.0.1:6379/0\" (or unix:///path/to/redis.sock)"),
        );
        usable = false;
    }
    let expire = match &table.expire_seconds {
        None => EXPIRE,
        Some(seconds) if *seconds.get_ref() == 0 => {
            errors.push(
                Diagnostic::new(seconds.span(), "`expire-seconds` is 0: sessions would expire as they are written")
                    .help("give the seconds a session's shared state outlives its last use, e.g. 86400 (the default, a day)"),
            );
            usable = false;
            EXPIRE
        }
        Some(seconds) => std::time::Duration::from_secs(*seconds.get_ref()),
    };
    usable.then(|| Sessions {
        redis: url.clone(),
        expire,
    })
}

fn unknown(what: &str, name: &str, at: Range<usize>, known: &[&str]) -> Diagnostic {
    let diagnostic = Diagnostic::new(at, format!("the catalog has no {what} `{name}`"));
    match nearest(name, known) {
        Some(near) => diagnostic.help(format!("did you mean `{near}`?")),
        None => diagnostic.help(format!(
            "name one the catalog declares ({})",
            known.join(", ")
        )),
    }
}

/// The error of a credential that selects a profile no table declares.
pub(crate) fn unknown_profile(name: &str, at: Range<usize>, profiles: &Profiles) -> Diagnostic {
    let known: Vec<&str> = profiles.profiles.iter().map(|p| &*p.name).collect();
    let diagnostic = Diagnostic::new(at, format!("no `[[profile]]` is named `{name}`"));
    match nearest(name, &known) {
        Some(near) => diagnostic.help(format!("did you mean `{near}`?")),
        None => diagnostic.help(format!(
            "add a `[[profile]]` table with `name = \"{name}\"`, or remove `profile`"
        )),
    }
}

fn nearest<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    catalog_check::names::suggest(name, known)
}

#[cfg(test)]
mod tests;
