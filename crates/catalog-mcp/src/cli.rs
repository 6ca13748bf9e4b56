//! The command line, on clap: the options every MCP server built on this crate takes
//! ([`ServeArgs`], which a program with options of its own flattens into its parser, as
//! the gateway does), the checks across them ([`ServeArgs::options`]), and the command
//! [`main`](crate::main) reads ([`command`]).

use std::net::SocketAddr;
use std::path::PathBuf;

use catalog_core::{Access, ScanResults};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{ArgMatches, Args, FromArgMatches as _};

use crate::gate::GatedPolicy;

/// The options every server built on this crate takes: where it listens and what gated
/// tools and suspicious results get.
#[derive(Args, Clone, Debug, PartialEq, Eq, Default)]
#[allow(
    clippy::doc_markdown,
    reason = "the fields' doc comments are the --help text, where Markdown's brackets would show"
)]
pub struct ServeArgs {
    /// Stdio: the level of the one client [default: read-only]
    #[arg(long, value_name = "LEVEL", value_parser = access_parser(), conflicts_with = "http")]
    pub access: Option<Access>,
    /// Serve streamable HTTP at http://ADDRESS/mcp instead of stdio: a loopback address
    /// and port, e.g. 127.0.0.1:8931 (port 0 picks one)
    #[arg(long, value_name = "ADDRESS", value_parser = loopback)]
    pub http: Option<SocketAddr>,
    /// `--tokens FILE`: HTTP clients' bearer tokens and their levels (see [`Tokens`](crate::Tokens)).
    #[arg(
        long,
        value_name = "FILE",
        requires = "http",
        help = "HTTP: bearer tokens and their levels, one [[token]] table each: value = \"...\" \
            (16 characters or more), access = \"LEVEL\", name = \"...\""
    )]
    pub tokens: Option<PathBuf>,
    /// `--allowed-origin ORIGIN`: the browser origins allowed besides the loopback ones.
    #[arg(
        long = "allowed-origin",
        value_name = "ORIGIN",
        value_parser = origin,
        requires = "http",
        help = "HTTP: a browser origin whose pages may call the server besides the loopback \
            ones, e.g. https://app.example:443 (:* for any port); repeatable. A request from \
            any other Origin gets 403"
    )]
    pub allowed_origins: Vec<String>,
    /// Gated tools: ask (the client's user is asked through MCP elicitation, refused when
    /// the client cannot be asked), deny or allow [default: ask]
    #[arg(long, value_name = "POLICY", value_parser = gated_parser(), hide_possible_values = true)]
    pub gated: Option<GatedPolicy>,
    /// What a tool result holding hidden characters, text addressed to the model or a link
    /// that carries data out gets: off, warn (a notice), strip (hidden characters removed,
    /// and the notice) or withhold (an error result) [default: the catalog's scan-results]
    #[arg(long, value_name = "POLICY", value_parser = scan_parser(), hide_possible_values = true)]
    pub scan_results: Option<ScanResults>,
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
        /// The tokens file: required unless the program authenticates clients another way
        /// ([`ServeArgs::options`]).
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

impl ServeArgs {
    /// The options these arguments ask for. `other_credentials`: the program can
    /// authenticate HTTP clients without a tokens file (the gateway, from its
    /// configuration file), so `--http` needs no `--tokens`.
    ///
    /// # Errors
    /// `--http` without `--tokens` when the program has no other credentials.
    pub fn options(self, other_credentials: bool) -> Result<Options, String> {
        let transport = match self.http {
            None => Transport::Stdio {
                access: self.access.unwrap_or(Access::ReadOnly),
            },
            Some(_) if self.tokens.is_none() && !other_credentials => {
                return Err(String::from("--http needs --tokens FILE"));
            }
            Some(address) => Transport::Http {
                address,
                tokens: self.tokens,
                origins: self.allowed_origins,
            },
        };
        Ok(Options {
            transport,
            gated: self.gated.unwrap_or_default(),
            scan_results: self.scan_results,
        })
    }

    /// Reads these options from matches of a command built with [`command`] or with
    /// `ServeArgs` flattened into it.
    ///
    /// # Errors
    /// clap's, when the matches lack them (a command built without them).
    pub fn from_matches(matches: &ArgMatches) -> Result<ServeArgs, clap::Error> {
        ServeArgs::from_arg_matches(matches)
    }
}

/// The command of a server named `program`: its name, version (with this crate's),
/// description and [`ServeArgs`]; a program adds its own arguments to it.
#[must_use]
pub fn command(program: &str) -> clap::Command {
    // The struct's own doc comment would be the about text: it is set after.
    ServeArgs::augment_args(clap::Command::new(program.to_owned()))
        // Under the program's name, whatever the binary's file is called.
        .bin_name(program.to_owned())
        .version(format!("(catalog-mcp {})", crate::VERSION))
        .about(format!(
            "Serves {program}'s tools to MCP clients: over stdio by default, or over \
             streamable HTTP at http://ADDRESS{}.",
            crate::http::ENDPOINT
        ))
        .after_help("Logs go to stderr (RUST_LOG filters them). Exit status 2: unusable arguments.")
}

fn access_parser() -> impl TypedValueParser<Value = Access> {
    PossibleValuesParser::new(Access::ALL.map(Access::as_str))
        .map(|s| Access::parse(&s).unwrap_or(Access::ReadOnly))
}

fn gated_parser() -> impl TypedValueParser<Value = GatedPolicy> {
    PossibleValuesParser::new(GatedPolicy::ALL.map(GatedPolicy::as_str))
        .map(|s| GatedPolicy::parse(&s).unwrap_or_default())
}

fn scan_parser() -> impl TypedValueParser<Value = ScanResults> {
    PossibleValuesParser::new(ScanResults::ALL.map(ScanResults::as_str))
        .map(|s| ScanResults::parse(&s).unwrap_or_default())
}

/// `--http`: an IP address and port on the loopback interface.
fn loopback(value: &str) -> Result<SocketAddr, String> {
    let address: SocketAddr = value
        .parse()
        .map_err(|_| String::from("give an IP address and port, e.g. 127.0.0.1:8931"))?;
    if !address.ip().is_loopback() {
        return Err(String::from(
            "only loopback addresses (127.0.0.0/8, [::1]) are served; tokens cross plain \
             HTTP, so reach it from elsewhere through a TLS proxy",
        ));
    }
    Ok(address)
}

fn origin(value: &str) -> Result<String, String> {
    crate::http::Origins::parse(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Options, String> {
        let args = std::iter::once("tracker-mcp").chain(line.split_whitespace());
        let matches = command("tracker-mcp")
            .try_get_matches_from(args)
            .map_err(|e| e.to_string())?;
        ServeArgs::from_matches(&matches)
            .map_err(|e| e.to_string())?
            .options(false)
    }

    #[test]
    fn the_command_is_well_formed_and_named_for_the_program() {
        command("tracker-mcp").debug_assert();
        let help = command("tracker-mcp").render_help().to_string();
        assert!(help.contains("Serves tracker-mcp's tools"), "{help}");
        assert!(help.contains("Usage: tracker-mcp [OPTIONS]"), "{help}");
        assert!(!help.contains("catalog-mcp"), "{help}");
        assert!(help.contains("http://ADDRESS/mcp"), "{help}");
    }

    #[test]
    fn stdio_and_http_command_lines() {
        assert_eq!(
            parse(""),
            Ok(Options {
                transport: Transport::Stdio {
                    access: Access::ReadOnly
                },
                gated: GatedPolicy::Ask,
                scan_results: None,
            })
        );
        assert_eq!(
            parse("--access full-access --gated=deny --scan-results withhold"),
            Ok(Options {
                transport: Transport::Stdio {
                    access: Access::FullAccess
                },
                gated: GatedPolicy::Deny,
                scan_results: Some(ScanResults::Withhold),
            })
        );
        assert_eq!(
            parse("--http [::1]:0 --tokens t.toml --gated allow"),
            Ok(Options {
                transport: Transport::Http {
                    address: "[::1]:0".parse().unwrap(),
                    tokens: Some(PathBuf::from("t.toml")),
                    origins: Vec::new(),
                },
                gated: GatedPolicy::Allow,
                scan_results: None,
            })
        );
        assert_eq!(
            parse(
                "--http 127.0.0.1:0 --tokens t --allowed-origin https://App.example:443 \
                 --allowed-origin=http://tool.internal:*"
            ),
            Ok(Options {
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
            })
        );
        // With other credentials, `--http` alone serves.
        let matches = command("gw")
            .try_get_matches_from(["gw", "--http", "127.0.0.1:0"])
            .unwrap();
        let options = ServeArgs::from_matches(&matches)
            .unwrap()
            .options(true)
            .unwrap();
        assert!(matches!(
            options.transport,
            Transport::Http { tokens: None, .. }
        ));
    }

    #[test]
    fn unusable_command_lines_say_what_to_do() {
        for (line, expected) in [
            (
                "--access admin",
                "[possible values: read-only, read-and-stage, full-access]",
            ),
            ("--access", "a value is required for '--access <LEVEL>'"),
            ("--gated maybe", "[possible values: deny, allow, ask]"),
            ("--http 0.0.0.0:80 --tokens t", "only loopback addresses"),
            (
                "--http localhost:80 --tokens t",
                "give an IP address and port",
            ),
            ("--http 127.0.0.1:1", "--http needs --tokens FILE"),
            (
                "--tokens t",
                "the following required arguments were not provided",
            ),
            (
                "--http 127.0.0.1:1 --tokens t --access full-access",
                "cannot be used with '--access <LEVEL>'",
            ),
            (
                "--access read-only --access full-access",
                "cannot be used multiple times",
            ),
            ("--port 1", "unexpected argument '--port'"),
            (
                "--http 127.0.0.1:1 --tokens t --allowed-origin app.example",
                "not an http or https origin",
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
                "--http <ADDRESS>",
            ),
            ("serve", "unexpected argument 'serve'"),
        ] {
            let error = parse(line).unwrap_err();
            assert!(error.contains(expected), "{line}: {error}");
        }
    }
}
