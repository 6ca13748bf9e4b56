use super::*;

use catalog_testkit::CATALOG_HEAD as HEAD;

fn catalog() -> CatalogModel {
    let digest = "sha256:4d41fd02ed49812a668b205580a74e06ad61797a560f982ee3275fcad9edd8a6";
    let source = format!(
        r#"{HEAD}
[[upstream]]
name = "git"
command = "mcp-server-git"

[[upstream]]
name = "files"
command = "mcp-server-filesystem"

[[tool]]
name = "git_status"
description = "Shows the working tree status of a repository."
visibility = "inline"
effect = "reads"
tier = "silent"
upstream = "git"
upstream-digest = "{digest}"

[tool.params]
repo_path = {{ type = "string", description = "The repository." }}
"#
    );
    catalog_check::compile(&source).unwrap_or_else(|d| panic!("{d:?}"))
}

#[test]
fn tokens_and_profiles_are_read() {
    let config = Config::parse(
        "c.toml",
        r#"
[[token]]
name = "coder"
value = "c-0123456789abcdef"
access = "full-access"
profile = "coding"

[[profile]]
name = "coding"
upstreams = ["git"]
tools = ["git_status"]

[audit]
file = "audit.jsonl"
arguments = "values"
fsync = "always"

[metrics]
listen = "127.0.0.1:9464"

[[limit]]
rate = "1/minute"
tools = ["git_status"]
"#,
        &catalog(),
    )
    .unwrap();
    let audit = config.audit.as_ref().unwrap();
    assert_eq!(audit.arguments, crate::audit::Arguments::Values);
    assert_eq!(audit.fsync, crate::audit::Fsync::Always);
    assert_eq!(audit.keep, 5);
    assert_eq!(config.metrics.unwrap().listen.port(), 9464);
    assert_eq!(config.limits.len(), 1);
    let grant = config
        .tokens
        .as_ref()
        .unwrap()
        .check("c-0123456789abcdef")
        .unwrap();
    assert_eq!(grant.profile.as_deref(), Some("coding"));
    let coding = config.profiles.get("coding").unwrap();
    assert!(coding.sees_tool("git_status", Some("git")));
    assert!(coding.sees_upstream("git"));
    assert!(!coding.sees_upstream("files"));
    assert!(!coding.sees_tool("read_file", Some("files")));
}

#[test]
fn the_scan_table_sets_the_detector_threshold() {
    let read = |text: &str| Config::parse("c.toml", text, &catalog());
    assert_eq!(read("").unwrap().scan_threshold, None);
    assert_eq!(
        read("[scan]\nthreshold = 0.8\n").unwrap().scan_threshold,
        Some(0.8)
    );
    for bad in ["threshold = 0", "threshold = 1.2"] {
        let Errors(errors) = read(&format!("[scan]\n{bad}\n")).unwrap_err();
        assert_eq!(errors.len(), 1, "{bad}");
        assert!(errors[0].message.starts_with("`threshold` is"), "{bad}");
        assert!(
            errors[0]
                .help
                .as_deref()
                .unwrap_or_default()
                .contains("above 0 and at most 1")
        );
    }
    let Errors(errors) = read("[scan]\nthreshhold = 0.8\n").unwrap_err();
    assert!(
        errors[0].message.contains("unknown field `threshhold`"),
        "{errors:?}"
    );
}

#[test]
fn every_mistake_is_reported_at_once_with_a_fix() {
    let text = r#"
[[token]]
value = "c-0123456789abcdef"
access = "full-access"
profile = "codng"

[[profile]]
name = "coding"
upstreams = ["gti"]
tools = ["git_stats"]

[[profile]]
name = "coding"
upstreams = ["git"]

[[profile]]
name = "empty"

[[limit]]
rate = "20/day"
burst = 0
tools = ["git_stauts"]
"#;
    let Errors(errors) = Config::parse("c.toml", text, &catalog()).unwrap_err();
    let messages: Vec<String> = errors
        .iter()
        .map(|d| format!("{} / {}", d.message, d.help.as_deref().unwrap_or_default()))
        .collect();
    assert_eq!(
        messages,
        [
            "the catalog has no upstream `gti` / name one the catalog declares (git, files)",
            "the catalog has no row `git_stats` / did you mean `git_status`?",
            "profile `coding` is declared twice / merge the two tables, or rename one",
            "profile `empty` sees nothing / list what it sees: `upstreams = [\"...\"]`, `tools = [\"...\"]` or both",
            "no `[[profile]]` is named `codng` / did you mean `coding`?",
            "`20/day` is not a rate; write calls per period, e.g. \"20/second\", \"1/minute\" or \"500/hour\" / ",
            "`burst = 0` lets no call through / give the most calls that may come at once, 1 or more, or leave `burst` out",
            "the catalog has no row `git_stauts` / did you mean `git_status`?",
        ],
        "{messages:#?}"
    );
    let at = &text[errors[0].span.clone()];
    assert_eq!(at, "\"gti\"");
}

#[test]
fn the_sessions_table_names_a_redis_database() {
    let text = "[sessions]\nredis = \"redis://127.0.0.1:6390/2\"\nexpire-seconds = 600\n";
    let config = Config::parse("c.toml", text, &catalog()).unwrap();
    assert_eq!(
        config.sessions,
        Some(Sessions {
            redis: "redis://127.0.0.1:6390/2".into(),
            expire: std::time::Duration::from_secs(600),
        })
    );
    let text = "[sessions]\nredis = \"redis://127.0.0.1:6379/0\"\n";
    let config = Config::parse("c.toml", text, &catalog()).unwrap();
    assert_eq!(config.sessions.unwrap().expire, EXPIRE);
    assert!(
        Config::parse("c.toml", "", &catalog())
            .unwrap()
            .sessions
            .is_none()
    );
}

#[test]
fn a_bad_sessions_table_is_located_with_the_fix() {
    let text = "[sessions]\nredis = \"http://127.0.0.1:6379\"\nexpire-seconds = 0\n";
    let Errors(errors) = Config::parse("c.toml", text, &catalog()).unwrap_err();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(&text[errors[0].span.clone()], "\"http://127.0.0.1:6379\"");
    assert!(
        errors[0].message.contains("not a usable Redis URL"),
        "{errors:?}"
    );
    assert!(
        errors[0].help.as_deref().unwrap().contains("redis://"),
        "{errors:?}"
    );
    assert_eq!(&text[errors[1].span.clone()], "0");
    let text = "[sessions]\nredis = \"redis://h\"\nexpire = 5\n";
    let Errors(errors) = Config::parse("c.toml", text, &catalog()).unwrap_err();
    assert!(
        errors[0].message.contains("unknown field `expire`"),
        "{errors:?}"
    );
}

#[test]
fn an_unknown_key_is_named_where_it_is() {
    let text = "[[profile]]\nname = \"a\"\nupstream = [\"git\"]\n";
    let Errors(errors) = Config::parse("c.toml", text, &catalog()).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].message.contains("unknown field `upstream`"),
        "{errors:?}"
    );
    assert!(
        text[errors[0].span.clone()].contains("upstream"),
        "{errors:?}"
    );
}

#[test]
fn oauth_and_scopes_are_read() {
    let config = Config::parse(
        "c.toml",
        r#"
[oauth]
issuer = "https://auth.example"
resource = "https://tools.example/mcp"
required-scopes = ["mcp"]

[[scope]]
name = "tools:read"
access = "read-only"

[[scope]]
name = "coding"
access = "full-access"
profile = "coding"

[[profile]]
name = "coding"
upstreams = ["git"]
"#,
        &catalog(),
    )
    .unwrap();
    let settings = config
        .oauth
        .unwrap()
        .settings("127.0.0.1:1".parse().unwrap());
    assert_eq!(settings.resource, "https://tools.example/mcp");
    assert_eq!(settings.scopes.supported(), ["mcp", "tools:read", "coding"]);
    assert!(settings.introspection.is_none());
    assert!(config.tokens.is_none());
}

#[test]
fn every_oauth_mistake_is_reported_at_once() {
    let text = r#"
[oauth]
issuer = "http://auth.example"
jwks-uri = "ftp://keys"
required-scopes = ["two words"]
client-id = "gateway"
client-secret-env = "CATALOG_GATEWAY_TEST_UNSET_VARIABLE"

[[scope]]
name = "tools:read"
access = "admin"

[[scope]]
name = "coding"
access = "full-access"
profile = "codng"

[[scope]]
name = "coding"
access = "read-only"

[[profile]]
name = "coding"
upstreams = ["git"]
"#;
    let Errors(errors) = Config::parse("c.toml", text, &catalog()).unwrap_err();
    let messages: Vec<&str> = errors.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "scope `tools:read` has access = \"admin\"",
            "no `[[profile]]` is named `codng`",
            "scope `coding` is mapped twice",
            "`issuer` = \"http://auth.example\": plain http is only for a loopback host",
            "`jwks-uri` = \"ftp://keys\": it is not an http(s) URL",
            "`two words` is not a scope",
            "the environment variable `CATALOG_GATEWAY_TEST_UNSET_VARIABLE` is not set",
        ],
        "{errors:#?}"
    );
    assert_eq!(&text[errors[1].span.clone()], "\"codng\"");
    let Errors(errors) = Config::parse(
        "c.toml",
        "[[scope]]\nname = \"a\"\naccess = \"read-only\"\n",
        &catalog(),
    )
    .unwrap_err();
    assert!(
        errors[0].message.contains("no `[oauth]` table"),
        "{errors:?}"
    );
}

/// The operator's guide's example file reads as written, against a catalog with the
/// upstreams and row it names.
#[test]
fn the_guides_example_file_reads() {
    use std::fmt::Write as _;
    let digest = "sha256:4d41fd02ed49812a668b205580a74e06ad61797a560f982ee3275fcad9edd8a6";
    let mut source = HEAD.to_owned();
    for upstream in ["git", "files", "memory", "fetch"] {
        let _ = write!(
            source,
            "\n[[upstream]]\nname = \"{upstream}\"\ncommand = \"mcp-server-{upstream}\"\n"
        );
    }
    let _ = write!(
        source,
        "\n[[tool]]\nname = \"git_commit\"\ndescription = \"Records changes to the repository.\"\nvisibility = \"inline\"\neffect = \"acts\"\ntier = \"gated\"\nupstream = \"git\"\nupstream-digest = \"{digest}\"\n\n[tool.params]\nmessage = {{ type = \"string\", description = \"The message.\" }}\n"
    );
    let catalog = catalog_check::compile(&source).unwrap_or_else(|d| panic!("{d:?}"));
    let text = include_str!("../../deploy/gateway.config.toml");
    let config = Config::parse("gateway.config.toml", text, &catalog)
        .unwrap_or_else(|e| panic!("{:#?}", e.0));
    assert!(config.oauth.is_some());
    assert!(config.tokens.is_some());
    assert!(config.profiles.get("support").is_some());
    assert!(config.audit.is_some() && config.metrics.is_some() && config.traces.is_some());
    assert_eq!(config.limits.len(), 2);
    assert!(config.sessions.is_some());
}
