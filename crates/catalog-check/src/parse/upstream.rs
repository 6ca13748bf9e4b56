//! `[[upstream]]` tables: the live MCP servers rows may come from. Everything one table
//! decides on its own is checked here; unique names and the rows that name an upstream
//! are `check`'s.

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::At;
use super::oauth::oauth;
use super::supplied::{Kind, supplied};
use super::table::{Seen, Table, table};
use super::values::{string, wrong_type};
use crate::diag::{Diagnostic, Errors, Span};
use crate::model::{OAuth, Supplied, Transport};
use crate::pin;

pub(crate) const UPSTREAM_KEYS: &[&str] =
    &["name", "command", "args", "env", "url", "headers", "oauth"];

/// One `[[upstream]]` table as read.
pub(crate) struct RawUpstream {
    /// Its `[[upstream]]` header.
    pub span: Span,
    /// From its header to the end of its last value.
    pub table: Span,
    /// Its name, when written as a valid one.
    pub name: Option<At<String>>,
    /// How the server is reached, when the table says so without error.
    pub transport: Option<Transport>,
}

/// The `upstream` key at the top: an array of `[[upstream]]` tables.
pub(crate) fn upstreams(v: &Spanned<DeValue<'_>>, errors: &mut Errors) -> Vec<RawUpstream> {
    let DeValue::Array(tables) = v.get_ref() else {
        errors.push(
            Diagnostic::new(v.span(), "`upstream` must be an array of tables")
                .help("write each server as its own `[[upstream]]` table"),
        );
        return Vec::new();
    };
    tables
        .iter()
        .filter_map(|t| {
            table(t, "each `[[upstream]]` entry", errors).map(|table| read(table, t.span(), errors))
        })
        .collect()
}

fn read(t: &DeTable<'_>, span: Span, errors: &mut Errors) -> RawUpstream {
    let end = t
        .iter()
        .map(|(_, v)| v.span().end)
        .max()
        .unwrap_or(span.end)
        .max(span.end);
    let table = span.start..end;
    let mut t = Table::new(t, span.clone(), "an `[[upstream]]` table");
    let name = t
        .take("name")
        .and_then(|(v, _)| string(v, "name", errors))
        .filter(|(name, at)| {
            let ok = pin::is_name(name);
            if !ok {
                errors.push(
                    Diagnostic::new(at.clone(), format!("`{name}` is not a valid upstream name"))
                        .help("use lowercase letters, digits, `-` and `_`, e.g. `name = \"time\"`"),
                );
            }
            ok
        });
    if let Some((n, _)) = &name {
        t.what = format!("upstream `{n}`");
    }
    let what = t.what.clone();
    let command = t.take("command").map(|(v, key)| {
        let command = string(v, "command", errors).filter(|(c, at)| {
            let ok = !c.trim().is_empty();
            if !ok {
                errors.push(
                    Diagnostic::new(at.clone(), format!("the `command` of {what} is empty"))
                        .help("name the program that runs the server, e.g. `command = \"mcp-server-time\"`"),
                );
            }
            ok
        });
        (command, key)
    });
    let args = t.take("args").map(|(v, key)| (arguments(v, errors), key));
    let env = t
        .take("env")
        .map(|(v, key)| (supplied(v, Kind::Env, errors), key));
    let url = t.take("url").map(|(v, key)| {
        let url = string(v, "url", errors).filter(|(u, at)| {
            let ok = pin::is_url(u);
            if !ok {
                errors.push(
                    Diagnostic::new(at.clone(), format!("`url` `{u}` is not an HTTP address"))
                        .help("write the server's streamable HTTP endpoint, starting with `http://` or `https://`"),
                );
            }
            ok
        });
        (url, key)
    });
    let headers = t
        .take("headers")
        .map(|(v, key)| (supplied(v, Kind::Headers, errors), key));
    let oauth = t
        .take("oauth")
        .map(|(v, key)| (oauth(v, &what, errors), key));
    let seen = t.finish(UPSTREAM_KEYS, errors);
    if name.is_none() && !seen.has("name") {
        errors.push(
            Diagnostic::new(
                span.start..span.start,
                "an `[[upstream]]` table has no `name`",
            )
            .help("add `name = \"...\"`: what rows' `upstream` key names, e.g. `name = \"time\"`"),
        );
    }
    let keys = Keys {
        command,
        args,
        env,
        url,
        headers,
        oauth,
    };
    let transport = transport(&what, &span, &seen, keys, errors);
    RawUpstream {
        span,
        table,
        name,
        transport,
    }
}

/// A key's value as read (`None` when it had an error, already reported) and where the
/// key is written.
type Keyed<T> = Option<(Option<T>, Span)>;

/// The keys that say how a server is reached, as read.
struct Keys {
    command: Keyed<At<String>>,
    args: Keyed<Vec<String>>,
    env: Keyed<Vec<(String, Supplied)>>,
    url: Keyed<At<String>>,
    headers: Keyed<Vec<(String, Supplied)>>,
    oauth: Keyed<OAuth>,
}

/// Exactly one of `command` and `url`; `args` and `env` only with `command`, `headers`
/// and `oauth` only with `url`, and `oauth` without a `headers.Authorization` of its own.
fn transport(
    what: &str,
    span: &Span,
    seen: &Seen,
    keys: Keys,
    errors: &mut Errors,
) -> Option<Transport> {
    let Keys {
        command,
        args,
        env,
        url,
        headers,
        oauth,
    } = keys;
    match (command, url) {
        (Some((_, command)), Some((_, key))) => {
            errors.push(
                Diagnostic::new(key, format!("{what} has both `command` and `url`"))
                    .related(command, "`command`")
                    .help("keep `command` (a program this machine starts) or `url` (a server reached over HTTP), not both"),
            );
            None
        }
        (Some((command, _)), None) => {
            let mut stray = false;
            if let Some((_, at)) = headers {
                errors.push(
                    Diagnostic::new(at, format!("{what} has `headers` but no `url`"))
                        .help("`headers` are sent to a server at a `url`: a program the gateway starts takes `env` instead"),
                );
                stray = true;
            }
            if let Some((_, at)) = oauth {
                errors.push(
                    Diagnostic::new(at, format!("{what} has `oauth` but no `url`"))
                        .help("`oauth` gets tokens for a server at a `url`: a program the gateway starts takes its credentials in `env`"),
                );
                stray = true;
            }
            if stray {
                return None;
            }
            let args = match args {
                Some((args, _)) => args?,
                None => Vec::new(),
            };
            let env = match env {
                Some((env, _)) => env?,
                None => Vec::new(),
            };
            Some(Transport::Stdio {
                command: command?.0,
                args,
                env,
            })
        }
        (None, url) => {
            for (key, found) in [("args", args.map(|(_, k)| k)), ("env", env.map(|(_, k)| k))] {
                if let Some(at) = found {
                    errors.push(
                        Diagnostic::new(at, format!("{what} has `{key}` but no `command`"))
                            .help(format!("`{key}` is for a program the gateway starts: add `command = \"...\"`, or remove `{key}` for a server at a `url`")),
                    );
                }
            }
            if let Some((url, _)) = url {
                let (headers, headers_at) = match headers {
                    Some((headers, at)) => (headers?, Some(at)),
                    None => (Vec::new(), None),
                };
                let oauth = match oauth {
                    Some((oauth, at)) => {
                        if let Some(headers_at) = headers_at
                            && headers
                                .iter()
                                .any(|(h, _)| h.eq_ignore_ascii_case("authorization"))
                        {
                            errors.push(
                                Diagnostic::new(at, format!("{what} has both `oauth` and an `Authorization` header"))
                                    .related(headers_at, "`headers`")
                                    .help("keep one: `oauth` obtains the access token the gateway sends as `Authorization`, a header sends one of your own"),
                            );
                            return None;
                        }
                        Some(oauth?)
                    }
                    None => None,
                };
                return url.map(|(url, _)| Transport::Http {
                    url,
                    headers,
                    oauth,
                });
            }
            if !seen.has("command") && !seen.has("url") {
                errors.push(
                    Diagnostic::new(span.start..span.start, format!("{what} has neither `command` nor `url`"))
                        .help("add `command = \"...\"` (a program that speaks MCP on stdio) or `url = \"http://...\"` (a streamable HTTP server)"),
                );
            }
            None
        }
    }
}

/// `args`: a list of strings, any of them empty (a program may take an empty argument).
fn arguments(v: &Spanned<DeValue<'_>>, errors: &mut Errors) -> Option<Vec<String>> {
    let DeValue::Array(items) = v.get_ref() else {
        errors.push(wrong_type(v, "args", "a list of strings"));
        return None;
    };
    let mut out = Vec::new();
    let mut valid = true;
    for item in items {
        if let Some(s) = item.get_ref().as_str() {
            out.push(s.to_string());
        } else {
            errors.push(wrong_type(item, "args", "a string"));
            valid = false;
        }
    }
    valid.then_some(out)
}

#[cfg(test)]
mod tests;
