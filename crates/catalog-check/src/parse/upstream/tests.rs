use crate::TEST_HEAD as HEAD;
use crate::diag::Diagnostic;
use crate::model::{ClientCredential, OAuth, Source, Supplied, Transport};

const DIGEST: &str = "sha256:4d41fd02ed49812a668b205580a74e06ad61797a560f982ee3275fcad9edd8a6";

/// A row of `upstream` with the given extra keys.
fn row(name: &str, keys: &str) -> String {
    format!(
        "\n[[tool]]\nname = \"{name}\"\ndescription = \"Tells the time.\"\nvisibility = \"discoverable\"\neffect = \"reads\"\ntier = \"silent\"\n{keys}\n"
    )
}

/// The errors of a catalog, each with the text its span covers.
fn errors(source: &str) -> Vec<(Diagnostic, String)> {
    crate::validate(source)
        .err()
        .unwrap_or_default()
        .into_iter()
        .map(|d| {
            let text = source[d.span.clone()].to_string();
            (d, text)
        })
        .collect()
}

/// `source` has exactly the `expect`ed errors: each message, the text its span covers,
/// and a part of its help.
fn assert_errors(source: &str, expect: &[(&str, &str, &str)]) {
    let found = errors(source);
    for (message, at, help) in expect {
        let hit = found.iter().find(|(d, _)| d.message == *message);
        let Some((d, text)) = hit else {
            panic!("no `{message}` in {found:#?}");
        };
        assert_eq!(text, at, "{message}");
        assert!(
            d.help.as_deref().unwrap_or("").contains(help),
            "{message}: {d:?}"
        );
        // An error about two places points at the other one too, which comes first.
        if message.contains("twice") || message.contains(" both ") {
            assert!(
                d.related.len() == 1 && d.related[0].span.start < d.span.start,
                "{message}: {d:?}"
            );
        }
    }
    assert_eq!(found.len(), expect.len(), "{found:#?}");
}

#[test]
fn upstreams_and_their_rows_reach_the_model() {
    let source = format!(
        "{HEAD}{}{}{}",
        r#"
[[upstream]]
name = "time"
command = "mcp-server-time"
args = ["--local-timezone", "UTC"]
env = { TZ = "UTC", LANG = "C", GITHUB_TOKEN = { from-env = "GITHUB_TOKEN" }, API_KEY = { from-file = "/run/secrets/api_key" } }

[[upstream]]
name = "web"
url = "https://example.com/mcp"
headers = { Authorization = { from-env = "WEB_TOKEN" }, X-Region = "eu" }

[[upstream]]
name = "unused"
url = "http://127.0.0.1:8000/mcp"
"#,
        row(
            "get_current_time",
            &format!("upstream = \"time\"\nupstream-digest = \"{DIGEST}\"")
        ),
        row(
            "web_get_current_time",
            &format!(
                "upstream = \"web\"\nupstream-tool = \"get_current_time\"\nupstream-digest = \"{DIGEST}\""
            )
        ),
    );
    let catalog = crate::validate(&source).unwrap();
    let names: Vec<&str> = catalog.upstreams.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names, ["time", "web", "unused"]);
    assert_eq!(
        catalog.upstreams[0].transport,
        Transport::Stdio {
            command: "mcp-server-time".into(),
            args: vec!["--local-timezone".into(), "UTC".into()],
            env: vec![
                ("TZ".into(), "UTC".into()),
                ("LANG".into(), "C".into()),
                (
                    "GITHUB_TOKEN".into(),
                    Supplied::FromEnv("GITHUB_TOKEN".into())
                ),
                (
                    "API_KEY".into(),
                    Supplied::FromFile("/run/secrets/api_key".into())
                ),
            ],
        }
    );
    assert_eq!(
        catalog.upstreams[1].transport,
        Transport::Http {
            url: "https://example.com/mcp".into(),
            headers: vec![
                (
                    "Authorization".into(),
                    Supplied::FromEnv("WEB_TOKEN".into())
                ),
                ("X-Region".into(), "eu".into()),
            ],
            oauth: None,
        }
    );
    let second = source.match_indices("[[upstream]]").nth(1).unwrap().0;
    assert_eq!(
        catalog.upstreams[1].span,
        second..second + "[[upstream]]".len()
    );
    let table = &source[catalog.upstreams[1].table.clone()];
    assert!(
        table.starts_with("[[upstream]]\nname = \"web\"") && table.ends_with("X-Region = \"eu\" }"),
        "{table}"
    );
    let sources: Vec<Option<&Source>> = catalog.tools.iter().map(|t| t.upstream.as_ref()).collect();
    assert_eq!(sources[..2], [None, None], "search and ask tools");
    assert_eq!(
        sources[2],
        Some(&Source {
            upstream: "time".into(),
            tool: "get_current_time".into(),
            digest: DIGEST.into(),
        })
    );
    assert_eq!(
        sources[3].map(|s| s.tool.as_str()),
        Some("get_current_time")
    );
    assert_eq!(sources[3].map(|s| s.upstream.as_str()), Some("web"));
}

/// One mistake per table (the first has two).
const BAD_TABLES: &str = r#"
[[upstream]]
name = "time"
comand = "x"
command = "mcp-server-time"

[[upstream]]
command = "nameless"

[[upstream]]
name = "time"
url = "http://127.0.0.1:8000/mcp"

[[upstream]]
name = "Bad Name"
url = "http://x"

[[upstream]]
name = "both"
command = "srv"
url = "http://x"

[[upstream]]
name = "neither"

[[upstream]]
name = "http-args"
url = "http://x"
args = ["-v"]
env = { A = "1" }

[[upstream]]
name = "ftp"
url = "ftp://example.com"

[[upstream]]
name = "bad-env"
command = "srv"
env = { "A=B" = "1", C = 2 }

[[upstream]]
name = "empty"
command = " "
"#;

#[test]
fn every_mistake_in_the_upstream_tables_is_reported_at_once() {
    let source = format!("{HEAD}{BAD_TABLES}");
    assert_errors(
        &source,
        &[
            (
                "unknown key `comand` in upstream `time`",
                "comand",
                "did you mean `command`?",
            ),
            (
                "an `[[upstream]]` table has no `name`",
                "",
                "add `name = \"...\"`",
            ),
            (
                "upstream `time` is declared twice",
                "\"time\"",
                "rename or remove one",
            ),
            (
                "`Bad Name` is not a valid upstream name",
                "\"Bad Name\"",
                "lowercase letters",
            ),
            (
                "upstream `both` has both `command` and `url`",
                "url",
                "not both",
            ),
            (
                "upstream `neither` has neither `command` nor `url`",
                "",
                "add `command",
            ),
            (
                "upstream `http-args` has `args` but no `command`",
                "args",
                "remove `args`",
            ),
            (
                "upstream `http-args` has `env` but no `command`",
                "env",
                "remove `env`",
            ),
            (
                "`url` `ftp://example.com` is not an HTTP address",
                "\"ftp://example.com\"",
                "`http://` or `https://`",
            ),
            (
                "`A=B` is not an environment variable name",
                "\"A=B\"",
                "without `=`",
            ),
            (
                "`env.C` must be a string, or `{ from-env = \"NAME\" }` or `{ from-file = \"PATH\" }`, found integer",
                "2",
                "`{ from-env = \"NAME\" }`",
            ),
            (
                "the `command` of upstream `empty` is empty",
                "\" \"",
                "name the program",
            ),
        ],
    );
}

/// Mistakes in `env` and `headers` values and references, every one in one table.
const BAD_SUPPLIED: &str = r#"
[[upstream]]
name = "refs"
command = "srv"
env = { A = { from-enf = "A" }, B = { from-env = "B", from-file = "/b" }, C = { from-env = "" }, D = { from-file = " " }, E = { from-env = 1 }, F = {}, G = ["x"], "H=" = "h", I = { from-env = "I=1" } }

[[upstream]]
name = "web"
url = "http://x"
headers = { "Bad Header" = "1", Mcp-Session-Id = "s", Accept = "a", X-Multi = "a\nb", Authorization = { from-file = 2 } }

[[upstream]]
name = "stdio-headers"
command = "srv"
headers = { Authorization = { from-env = "T" } }
"#;

#[test]
fn every_mistake_in_env_and_headers_is_reported_at_once() {
    let source = format!("{HEAD}{BAD_SUPPLIED}");
    assert_errors(
        &source,
        &[
            (
                "unknown key `from-enf` in `env.A`",
                "from-enf",
                "did you mean `from-env`?",
            ),
            (
                "`env.B` has both `from-env` and `from-file`",
                "from-file",
                "keep one",
            ),
            (
                "`from-env` of `env.C` is not an environment variable name",
                "\"\"",
                "name the variable",
            ),
            ("`from-file` of `env.D` is empty", "\" \"", "name the file"),
            (
                "`from-env` must be a string, found integer",
                "1",
                "as a string",
            ),
            (
                "`env.F` says neither `from-env` nor `from-file`",
                "{}",
                "`{ from-env = \"NAME\" }`",
            ),
            (
                "`env.G` must be a string, or `{ from-env = \"NAME\" }` or `{ from-file = \"PATH\" }`, found array",
                "[\"x\"]",
                "write `env.G` as",
            ),
            (
                "`H=` is not an environment variable name",
                "\"H=\"",
                "without `=`",
            ),
            (
                "`from-env` of `env.I` is not an environment variable name",
                "\"I=1\"",
                "without `=`",
            ),
            (
                "`Bad Header` is not an HTTP header name",
                "\"Bad Header\"",
                "letters, digits and `-`",
            ),
            (
                "the header `Mcp-Session-Id` is set by the MCP client itself",
                "Mcp-Session-Id",
                "remove it",
            ),
            (
                "the header `Accept` is set by the MCP client itself",
                "Accept",
                "remove it",
            ),
            (
                "`headers.X-Multi` holds '\\n', which a header value cannot",
                "\"a\\nb\"",
                "on one line",
            ),
            (
                "`from-file` must be a string, found integer",
                "2",
                "as a string",
            ),
            (
                "upstream `stdio-headers` has `headers` but no `url`",
                "headers",
                "takes `env` instead",
            ),
        ],
    );
}

#[test]
fn an_oauth_client_reaches_the_model_with_where_its_credential_is_read() {
    let source = format!(
        "{HEAD}{}",
        r#"
[[upstream]]
name = "billing"
url = "https://billing.example.com/mcp"
headers = { X-Tenant = "acme" }
oauth = { client-id = "catalog-gateway", client-secret = { from-env = "BILLING_SECRET" } }

[[upstream]]
name = "ledger"
url = "https://ledger.example.com/mcp"

[upstream.oauth]
client-id = "gw"
private-key = { from-file = "/run/secrets/ledger.pem" }
scope = "tools:read tools:call"
"#
    );
    let catalog = crate::validate(&source).unwrap();
    let oauth = |i: usize| match &catalog.upstreams[i].transport {
        Transport::Http { oauth, .. } => oauth.clone(),
        Transport::Stdio { .. } => None,
    };
    assert_eq!(
        oauth(0),
        Some(OAuth {
            client_id: "catalog-gateway".into(),
            credential: ClientCredential::Secret(Supplied::FromEnv("BILLING_SECRET".into())),
            scope: None,
        })
    );
    assert_eq!(
        oauth(1),
        Some(OAuth {
            client_id: "gw".into(),
            credential: ClientCredential::PrivateKey(Supplied::FromFile(
                "/run/secrets/ledger.pem".into()
            )),
            scope: Some("tools:read tools:call".into()),
        })
    );
}

/// Mistakes in `oauth`, every one in one catalog.
const BAD_OAUTH: &str = r#"
[[upstream]]
name = "inline"
url = "http://x"
oauth = { client-id = "gw", client-secret = "s3cr3t-written-here" }

[[upstream]]
name = "both-credentials"
url = "http://x"
oauth = { client-id = "gw", client-secret = { from-env = "S" }, private-key = { from-file = "/k.pem" } }

[[upstream]]
name = "no-credential"
url = "http://x"
oauth = { client-id = "gw", scpoe = "a" }

[[upstream]]
name = "no-client"
url = "http://x"
oauth = { client-secret = { from-env = "S" }, scope = " " }

[[upstream]]
name = "with-header"
url = "http://x"
headers = { authorization = { from-env = "T" } }
oauth = { client-id = "gw", private-key = { from-env = "K" } }

[[upstream]]
name = "stdio-oauth"
command = "srv"
oauth = { client-id = "gw", client-secret = { from-env = "S" } }

[[upstream]]
name = "not-a-table"
url = "http://x"
oauth = "gw"
"#;

#[test]
fn every_mistake_in_oauth_is_reported_at_once() {
    let source = format!("{HEAD}{BAD_OAUTH}");
    assert_errors(
        &source,
        &[
            (
                "`oauth.client-secret` is written in the catalog",
                "\"s3cr3t-written-here\"",
                "`oauth.client-secret = { from-env = \"NAME\" }`",
            ),
            (
                "the `oauth` of upstream `both-credentials` has both `client-secret` and `private-key`",
                "private-key",
                "keep one",
            ),
            (
                "unknown key `scpoe` in the `oauth` of upstream `no-credential`",
                "scpoe",
                "did you mean `scope`?",
            ),
            (
                "the `oauth` of upstream `no-credential` says neither `client-secret` nor `private-key`",
                "{ client-id = \"gw\", scpoe = \"a\" }",
                "`client-secret = { from-env = \"NAME\" }`",
            ),
            (
                "the `oauth` of upstream `no-client` has no `client-id`",
                "{ client-secret = { from-env = \"S\" }, scope = \" \" }",
                "add `client-id = \"...\"`",
            ),
            (
                "the `scope` of upstream `no-client` is empty",
                "\" \"",
                "separated by spaces",
            ),
            (
                "upstream `with-header` has both `oauth` and an `Authorization` header",
                "oauth",
                "keep one",
            ),
            (
                "upstream `stdio-oauth` has `oauth` but no `url`",
                "oauth",
                "takes its credentials in `env`",
            ),
            (
                "`oauth` must be a table, found string",
                "\"gw\"",
                "`key = { ... }`",
            ),
        ],
    );
}

#[test]
fn every_mistake_in_the_rows_naming_an_upstream_is_reported_at_once() {
    let source = format!(
            "{HEAD}{}{}{}{}{}{}{}",
            "\n[[upstream]]\nname = \"time\"\ncommand = \"mcp-server-time\"\n",
            row("a", &format!("upstream = \"tme\"\nupstream-digest = \"{DIGEST}\"")),
            row("b", "upstream = \"elsewhere\"\nupstream-digest = \"sha256:ABC\""),
            row("c", "upstream = \"time\""),
            row("d", &format!("upstream-tool = \"x\"\nupstream-digest = \"{DIGEST}\"")),
            row("e", &format!("upstream = \"time\"\nupstream-tool = \"a\"\nupstream-digest = \"{DIGEST}\"\nupstream-tol = \"a\"")),
            row("f", &format!("upstream = \"time\"\nupstream-tool = \"c\"\nupstream-digest = \"{DIGEST}\"")),
        )
        .replace(
            "name = \"ask\"\n",
            &format!("name = \"ask\"\nupstream = \"time\"\nupstream-digest = \"{DIGEST}\"\n"),
        )
        .replace(
            "name = \"searchTools\"\n",
            &format!("name = \"searchTools\"\nupstream = \"time\"\nupstream-digest = \"{DIGEST}\"\n"),
        );
    assert_errors(
        &source,
        &[
            (
                "the search tool `searchTools` cannot come from an upstream",
                "\"time\"",
                "the agent loop answers the search tool itself",
            ),
            (
                "the ask tool `ask` cannot come from an upstream",
                "\"time\"",
                "remove `upstream`, `upstream-tool` and `upstream-digest`",
            ),
            (
                "`upstream` names `tme`, which no `[[upstream]]` declares",
                "\"tme\"",
                "did you mean `time`?",
            ),
            (
                "`upstream` names `elsewhere`, which no `[[upstream]]` declares",
                "\"elsewhere\"",
                "declare it: an `[[upstream]]` table with `name = \"elsewhere\"`",
            ),
            (
                "`upstream-digest` `sha256:ABC` is not a SHA-256 digest",
                "\"sha256:ABC\"",
                "64 lowercase hex digits",
            ),
            (
                "tool `c` has `upstream` but no `upstream-digest`",
                "\"time\"",
                "add `upstream-digest = \"sha256:...\"`",
            ),
            (
                "tool `d` has `upstream-tool` but no `upstream`",
                "upstream-tool",
                "add `upstream = \"...\"`",
            ),
            (
                "tool `d` has `upstream-digest` but no `upstream`",
                "upstream-digest",
                "or remove `upstream-digest`",
            ),
            (
                "unknown key `upstream-tol` in tool `e`",
                "upstream-tol",
                "did you mean `upstream-tool`?",
            ),
            (
                "tools `c` and `f` both serve `c` of upstream `time`",
                "\"c\"",
                "point one at another tool",
            ),
        ],
    );
}

#[test]
fn upstream_must_be_an_array_of_tables() {
    let source = format!("upstream = \"time\"\n{HEAD}");
    let found = errors(&source);
    assert!(
        found
            .iter()
            .any(|(d, _)| d.message == "`upstream` must be an array of tables"),
        "{found:#?}"
    );
}
