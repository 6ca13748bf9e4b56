//! The command line.

use std::net::SocketAddr;
use std::path::PathBuf;

use catalog_core::Access;

use catalog_core::ScanResults;

use crate::gate::GatedPolicy;

/// What `--help` prints, and what follows an error: `program` is the binary's name.
#[must_use]
pub fn usage(program: &str) -> String {
    format!(
        "\
usage: {program} [--access LEVEL] [--gated POLICY] [--scan-results POLICY]
       {program} --http ADDRESS --tokens FILE [--allowed-origin ORIGIN]... [--gated POLICY]
              [--scan-results POLICY]

Serves {program}'s tools to MCP clients: over stdio by default, or over streamable
HTTP at http://ADDRESS{endpoint}.

  --access LEVEL    stdio: read-only (default), read-and-stage or full-access
  --http ADDRESS    a loopback address and port, e.g. 127.0.0.1:8931 (port 0 picks one)
  --tokens FILE     HTTP: bearer tokens and their levels, one [[token]] table each:
                    value = \"...\" (16 characters or more), access = \"LEVEL\", name = \"...\"
  --allowed-origin ORIGIN
                    HTTP: a browser origin whose pages may call the server besides the
                    loopback ones, e.g. https://app.example:443 (:* for any port);
                    repeatable. A request from any other Origin gets 403
  --gated POLICY    gated tools: ask (default; the client's user is asked through MCP
                    elicitation, refused when the client cannot be asked), deny, allow
  --scan-results POLICY
                    what a tool result holding hidden characters, text addressed to the
                    model or a link that carries data out gets: off, warn (a notice),
                    strip (hidden characters removed, and the notice) or withhold (an
                    error result); default: the catalog's scan-results, else warn
  -h, --help        this text
  -V, --version     the version

Logs go to stderr (RUST_LOG filters them). Exit status 2: unusable arguments.",
        endpoint = crate::http::ENDPOINT,
    )
}

/// Where the server listens.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Transport {
    /// Standard input and output, one client at one level.
    Stdio {
        /// The connection's level.
        access: Access,
    },
    /// Streamable HTTP, each request at its token's level.
    Http {
        /// The loopback address to bind.
        address: SocketAddr,
        /// The tokens file: required by [`parse`], optional for a program with other ways to
        /// authenticate ([`parse_with`]).
        tokens: Option<PathBuf>,
        /// The browser origins allowed besides the loopback ones (`--allowed-origin`).
        origins: Vec<String>,
    },
}

/// A server to run.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Options {
    /// Where it listens.
    pub transport: Transport,
    /// The gated-tool policy.
    pub gated: GatedPolicy,
    /// The result-scanning policy, when given: the catalog's `scan-results` otherwise.
    pub scan_results: Option<ScanResults>,
}

/// What the command line asks for.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Command {
    /// Run a server.
    Serve(Options),
    /// Print [`usage`].
    Help,
    /// Print the version.
    Version,
}

/// Reads the arguments after the program's name; `--flag value` and `--flag=value`.
///
/// # Errors
/// A message naming the argument and what would be accepted.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    parse_with(args, false)
}

/// [`parse`] for a program that can authenticate HTTP clients without a tokens file
/// (the gateway, from its configuration file): with `other_credentials`, `--http` needs no
/// `--tokens`, and the program says what it lacks when it has neither.
///
/// # Errors
/// As [`parse`].
pub fn parse_with(
    args: impl IntoIterator<Item = String>,
    other_credentials: bool,
) -> Result<Command, String> {
    let mut access = None;
    let mut http = None;
    let mut tokens = None;
    let mut gated = None;
    let mut scan_results = None;
    let mut origins = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => {
                (flag.to_owned(), Some(value.to_owned()))
            }
            _ => (arg.clone(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            "--access" => {
                let v = value()?;
                let level = Access::parse(&v).ok_or_else(|| {
                    format!("--access {v}: use read-only, read-and-stage or full-access")
                })?;
                once(&mut access, level, "--access")?;
            }
            "--gated" => {
                let v = value()?;
                let policy = GatedPolicy::parse(&v)
                    .ok_or_else(|| format!("--gated {v}: use ask, deny or allow"))?;
                once(&mut gated, policy, "--gated")?;
            }
            "--scan-results" => {
                let v = value()?;
                let policy = ScanResults::parse(&v).ok_or_else(|| {
                    format!("--scan-results {v}: use off, warn, strip or withhold")
                })?;
                once(&mut scan_results, policy, "--scan-results")?;
            }
            "--http" => {
                let v = value()?;
                let address: SocketAddr = v.parse().map_err(|_| {
                    format!("--http {v}: give an IP address and port, e.g. 127.0.0.1:8931")
                })?;
                if !address.ip().is_loopback() {
                    return Err(format!(
                        "--http {v}: only loopback addresses (127.0.0.0/8, [::1]) are served; \
                         tokens cross plain HTTP, so reach it from elsewhere through a TLS proxy"
                    ));
                }
                once(&mut http, address, "--http")?;
            }
            "--tokens" => {
                let v = value()?;
                once(&mut tokens, PathBuf::from(v), "--tokens")?;
            }
            "--allowed-origin" => origins.push(crate::http::Origins::parse(&value()?)?),
            _ if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            _ => return Err(format!("unexpected argument {arg}")),
        }
    }
    if http.is_none() && !origins.is_empty() {
        return Err(String::from(
            "--allowed-origin goes with --http ADDRESS: stdio has no origins",
        ));
    }
    let transport = match (http, tokens, access) {
        (None, None, access) => Transport::Stdio {
            access: access.unwrap_or(Access::ReadOnly),
        },
        (Some(address), tokens, None) => {
            if tokens.is_none() && !other_credentials {
                return Err(String::from("--http needs --tokens FILE"));
            }
            Transport::Http {
                address,
                tokens,
                origins,
            }
        }
        (None, Some(_), _) => return Err(String::from("--tokens goes with --http ADDRESS")),
        (Some(_), _, Some(_)) => {
            return Err(String::from(
                "--access is for stdio; over HTTP each token's access in the tokens file applies",
            ));
        }
    };
    Ok(Command::Serve(Options {
        transport,
        gated: gated.unwrap_or_default(),
        scan_results,
    }))
}

fn once<T>(slot: &mut Option<T>, value: T, flag: &str) -> Result<(), String> {
    if slot.replace(value).is_some() {
        return Err(format!("{flag} is given twice"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(line: &str) -> Result<Command, String> {
        parse(line.split_whitespace().map(String::from))
    }

    #[test]
    fn the_usage_names_the_program() {
        let text = usage("tracker-mcp");
        assert!(
            text.starts_with("usage: tracker-mcp [--access LEVEL]"),
            "{text}"
        );
        assert!(
            text.contains("       tracker-mcp --http ADDRESS --tokens FILE"),
            "{text}"
        );
        assert!(text.contains("http://ADDRESS/mcp."), "{text}");
        assert!(!text.contains("catalog-mcp"), "{text}");
    }

    #[test]
    fn stdio_and_http_command_lines() {
        assert_eq!(
            parse_str(""),
            Ok(Command::Serve(Options {
                transport: Transport::Stdio {
                    access: Access::ReadOnly
                },
                gated: GatedPolicy::Ask,
                scan_results: None,
            }))
        );
        assert_eq!(
            parse_str("--access full-access --gated=deny"),
            Ok(Command::Serve(Options {
                transport: Transport::Stdio {
                    access: Access::FullAccess
                },
                gated: GatedPolicy::Deny,
                scan_results: None,
            }))
        );
        assert_eq!(
            parse_str("--http [::1]:0 --tokens t.toml --gated allow"),
            Ok(Command::Serve(Options {
                transport: Transport::Http {
                    address: "[::1]:0".parse().unwrap(),
                    tokens: Some(PathBuf::from("t.toml")),
                    origins: Vec::new(),
                },
                gated: GatedPolicy::Allow,
                scan_results: None,
            }))
        );
        assert_eq!(
            parse_str(
                "--http 127.0.0.1:0 --tokens t --allowed-origin https://App.example:443 \
                 --allowed-origin=http://tool.internal:*"
            ),
            Ok(Command::Serve(Options {
                transport: Transport::Http {
                    address: "127.0.0.1:0".parse().unwrap(),
                    tokens: Some(PathBuf::from("t")),
                    origins: vec![
                        "https://app.example:443".into(),
                        "http://tool.internal:*".into()
                    ],
                },
                gated: GatedPolicy::Ask,
                scan_results: None,
            }))
        );
        assert_eq!(parse_str("--access read-only --help"), Ok(Command::Help));
    }

    #[test]
    fn unusable_command_lines_say_what_to_do() {
        for (line, expected) in [
            (
                "--access admin",
                "use read-only, read-and-stage or full-access",
            ),
            ("--access", "--access needs a value"),
            ("--gated maybe", "use ask, deny or allow"),
            ("--http 0.0.0.0:80 --tokens t", "only loopback addresses"),
            (
                "--http localhost:80 --tokens t",
                "give an IP address and port",
            ),
            ("--http 127.0.0.1:1", "--http needs --tokens FILE"),
            ("--tokens t", "--tokens goes with --http"),
            (
                "--http 127.0.0.1:1 --tokens t --access full-access",
                "--access is for stdio",
            ),
            (
                "--access read-only --access full-access",
                "--access is given twice",
            ),
            ("--port 1", "unknown option --port"),
            (
                "--http 127.0.0.1:1 --tokens t --allowed-origin app.example",
                "--allowed-origin app.example: not an http or https origin",
            ),
            (
                "--http 127.0.0.1:1 --tokens t --allowed-origin https://app.example",
                "no port",
            ),
            (
                "--http 127.0.0.1:1 --tokens t --allowed-origin https://app.example:443/x",
                "the port is not a number or *",
            ),
            (
                "--http 127.0.0.1:1 --tokens t --allowed-origin https://a/b:443",
                "the host is not a host name or address",
            ),
            (
                "--allowed-origin https://app.example:443",
                "--allowed-origin goes with --http",
            ),
            ("serve", "unexpected argument serve"),
        ] {
            let error = parse_str(line).unwrap_err();
            assert!(error.contains(expected), "{line}: {error}");
        }
    }
}
