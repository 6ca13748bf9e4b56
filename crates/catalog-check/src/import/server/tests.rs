//! Importing from a live server: new catalogs, appended rows, re-imports, refusals.

use serde_json::{Value, json};

use super::*;
use crate::TEST_HEAD;
use crate::model::{CatalogModel, ClientCredential, OAuth, Source, Supplied, Upstream};

/// Two tools as `mcp-server-time` lists them, the first with annotations and `_meta`.
fn time_tools() -> Vec<Value> {
    let zone = "IANA timezone name (e.g., 'America/New_York', 'Europe/London').";
    vec![
        json!({
            "name": "get_current_time",
            "description": "Get current time in a specific timezones",
            "inputSchema": {
                "type": "object",
                "properties": {"timezone": {"type": "string", "description": zone}},
                "required": ["timezone"]
            },
            "annotations": {"readOnlyHint": true, "title": "Current time"},
            "_meta": {"io.example/version": "2025.1"}
        }),
        json!({
            "name": "convert_time",
            "description": "Convert time between timezones",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "source_timezone": {"type": "string", "description": zone},
                    "time": {"type": "string", "description": "Time to convert in 24-hour format (HH:MM)"},
                    "target_timezone": {"type": "string", "description": zone}
                },
                "required": ["source_timezone", "time", "target_timezone"]
            }
        }),
    ]
}

fn stdio() -> Server {
    Server {
        name: "time".into(),
        transport: Transport::Stdio {
            command: "mcp-server-time".into(),
            args: vec!["--local-timezone".into(), "UTC".into()],
            env: vec![
                ("TZ".into(), "UTC".into()),
                ("API_KEY".into(), Supplied::FromEnv("TIME_API_KEY".into())),
            ],
        },
    }
}

fn http(name: &str) -> Server {
    Server {
        name: name.into(),
        transport: Transport::Http {
            url: "http://127.0.0.1:8000/mcp".into(),
            headers: vec![(
                "X-Tenant".into(),
                Supplied::FromFile("/run/secrets/mcp tenant".into()),
            )],
            oauth: Some(OAuth {
                client_id: "gateway \"one\"".into(),
                credential: ClientCredential::PrivateKey(Supplied::FromFile(
                    "/run/secrets/key.pem".into(),
                )),
                scope: Some("tools read".into()),
            }),
        },
    }
}

fn compiled(text: &str) -> CatalogModel {
    crate::compile(text)
        .unwrap_or_else(|e| panic!("{}", crate::render_all("catalog.toml", text, &e)))
}

/// Every row that names an upstream pins the digest of the wire object it names.
fn assert_pinned(catalog: &CatalogModel, wire: &BTreeMap<String, Value>, upstream: &str) {
    let sources: Vec<&Source> = catalog
        .tools
        .iter()
        .filter_map(|t| t.upstream.as_ref())
        .collect();
    assert_eq!(sources.len(), wire.len());
    for source in sources {
        assert_eq!(source.upstream, upstream);
        assert_eq!(
            source.digest,
            pin::digest(&wire[&source.tool]),
            "{}",
            source.tool
        );
    }
}

#[test]
fn a_new_catalog_has_the_rows_of_from_mcp_and_the_upstream() {
    let tools = time_tools();
    let done = from_server(&stdio(), &tools, None, None).unwrap();
    let catalog = compiled(&done.imported.toml);
    assert_eq!(
        catalog.upstreams,
        [Upstream {
            name: "time".into(),
            transport: stdio().transport,
            span: catalog.upstreams[0].span.clone(),
            table: catalog.upstreams[0].table.clone(),
        }]
    );
    assert!(done.imported.toml.contains("\n[[upstream]]\nname = \"time\"\ncommand = \"mcp-server-time\"\nargs = [\"--local-timezone\", \"UTC\"]\nenv = { TZ = \"UTC\", API_KEY = { from-env = \"TIME_API_KEY\" } }\n"));
    let wire: Vec<&Value> = done.wire.values().collect();
    assert_eq!(wire, [&tools[1], &tools[0]], "by name, exactly as sent");
    assert_pinned(&catalog, &done.wire, "time");
    let row = catalog
        .tools
        .iter()
        .find(|t| t.name == "get_current_time")
        .unwrap();
    assert_eq!(
        row.upstream.as_ref().unwrap().digest,
        pin::digest(&tools[0])
    );
    // The same rows as `from_mcp` writes, with the upstream keys added.
    let mcp = crate::import::from_mcp("tools.json", &json!({"tools": tools})).unwrap();
    let plain = compiled(&mcp.toml);
    let shape = |c: &CatalogModel| -> Vec<String> {
        c.tools
            .iter()
            .map(|t| {
                format!(
                    "{} {:?} {:?} {:?} {}",
                    t.name, t.visibility, t.role, t.arguments, t.description
                )
            })
            .collect()
    };
    assert_eq!(shape(&catalog), shape(&plain));
    // The whole text too, but for the first line (what made it), the upstream table
    // and its comment, and the rows' upstream keys.
    let table = done
        .imported
        .toml
        .find("\n# The server the tools below come from.")
        .unwrap();
    let end = table + done.imported.toml[table..].find("\n\n[[tool]]").unwrap() + 1;
    let text = format!(
        "{}{}",
        &done.imported.toml[..table],
        &done.imported.toml[end..]
    );
    let without: Vec<&str> = text
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("upstream"))
        .collect();
    let from_mcp: Vec<&str> = mcp.toml.lines().skip(1).collect();
    assert_eq!(without, from_mcp);
    assert_eq!(done.imported.report.tools(), 2);
    assert_eq!(done.imported.report.read_only(), 1);
}

#[test]
fn into_keeps_the_catalog_byte_for_byte_and_appends_the_rows() {
    // No final line break, and a comment the compiler ignores: both kept.
    let text = format!("# Our own tools.\n{}", TEST_HEAD.trim_end());
    let done = from_server(&http("web"), &time_tools(), Some(&text), None).unwrap();
    let toml = &done.imported.toml;
    assert!(toml.starts_with(&text));
    assert_eq!(
        toml.matches("[settings]").count(),
        1,
        "no second settings table"
    );
    let catalog = compiled(toml);
    assert_eq!(
        catalog.tools.len(),
        4,
        "searchTools, ask and the two imported"
    );
    assert_eq!(catalog.search_tool().name, "searchTools");
    assert_eq!(catalog.upstreams[0].transport, http("web").transport);
    assert_pinned(&catalog, &done.wire, "web");
    for t in &catalog.tools[2..] {
        assert_eq!(
            t.arguments,
            Arguments::Json,
            "{}: the gateway serves it",
            t.name
        );
    }
    assert_eq!(done.imported.report.search_tool(), "searchTools");
}

#[test]
fn names_the_catalog_has_are_errors_without_a_prefix() {
    let text = format!(
        "{TEST_HEAD}{}{}",
        row("convert_time"),
        row("get_current_time")
    );
    let e = from_server(&stdio(), &time_tools(), Some(&text), None).unwrap_err();
    assert!(e.contains("`get_current_time`, `convert_time`"), "{e}");
    assert!(e.contains("`--prefix time_`"), "{e}");
}

#[test]
fn a_prefix_renames_the_colliding_rows_and_keeps_their_name_on_the_server() {
    let text = format!("{TEST_HEAD}{}", row("convert_time"));
    let done = from_server(&stdio(), &time_tools(), Some(&text), Some("time_")).unwrap();
    let catalog = compiled(&done.imported.toml);
    let names: Vec<&str> = catalog.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "searchTools",
            "ask",
            "convert_time",
            "get_current_time",
            "time_convert_time"
        ]
    );
    let renamed = catalog
        .tools
        .iter()
        .find(|t| t.name == "time_convert_time")
        .unwrap();
    assert_eq!(renamed.upstream.as_ref().unwrap().tool, "convert_time");
    assert!(
        done.imported
            .toml
            .contains("name = \"time_convert_time\"\n")
    );
    assert!(
        done.imported
            .toml
            .contains("upstream-tool = \"convert_time\"\n")
    );
    assert_eq!(done.imported.toml.matches("upstream-tool").count(), 1);
    assert_pinned(&catalog, &done.wire, "time");
    assert_eq!(
        done.imported.report.renamed(),
        ["`convert_time` → `time_convert_time`"]
    );
    let e = from_server(&stdio(), &time_tools(), Some(&text), Some("no space ")).unwrap_err();
    assert!(e.contains("is not a valid tool name"), "{e}");
}

#[test]
fn rust_names_the_catalog_has_get_numbered() {
    let text = format!("{TEST_HEAD}{}", row("getCurrentTime"));
    let done = from_server(&stdio(), &time_tools(), Some(&text), None).unwrap();
    let catalog = compiled(&done.imported.toml);
    let row = catalog
        .tools
        .iter()
        .find(|t| t.name == "get_current_time")
        .unwrap();
    assert_eq!(row.rust_name.as_deref(), Some("GetCurrentTime2"));
}

#[test]
fn a_reimport_repins_changed_tools_in_place_and_adds_new_ones() {
    let tools = time_tools();
    let first = from_server(&stdio(), &tools, None, None).unwrap();
    // The reviewer's own edit, which a re-import keeps.
    let reviewed = first.imported.toml.replacen(
        "visibility = \"discoverable\"",
        "visibility = \"inline\"",
        1,
    );
    let mut now = vec![
        tools[0].clone(),
        json!({"name": "get_time_zones", "inputSchema": {"type": "object"}}),
    ];
    now[0]["description"] = json!("Get the current time, now in any timezone.");
    let again = from_server(&stdio(), &now, Some(&reviewed), None).unwrap();
    let changed = tools[0]["name"].as_str().unwrap();
    assert_eq!(again.repinned, [changed]);
    assert_eq!(again.gone, [tools[1]["name"].as_str().unwrap()]);
    let toml = &again.imported.toml;
    let old = pin::digest(&tools[0]);
    let new = pin::digest(&now[0]);
    // Only the digest changed in what was there; the new tool comes after it.
    assert_eq!(toml[..reviewed.len()].replacen(&new, &old, 1), reviewed);
    let catalog = compiled(toml);
    let pinned = |name: &str| {
        let found = catalog.tools.iter().find(|t| t.name == name).unwrap();
        found.upstream.as_ref().unwrap().digest.clone()
    };
    assert_eq!(pinned(changed), new);
    assert_eq!(pinned("get_time_zones"), pin::digest(&now[1]));
    assert_eq!(catalog.upstreams.len(), 1);
    assert!(toml.contains("visibility = \"inline\""));
}

#[test]
fn bad_inputs_are_errors_that_say_what_to_do() {
    let tools = time_tools();
    let e = from_server(
        &stdio(),
        &tools,
        Some("[settings]\nsearch-tool = 1\n"),
        None,
    )
    .unwrap_err();
    assert!(e.starts_with("the catalog to import into has"), "{e}");
    let twice = [tools[0].clone(), tools[0].clone()];
    let e = from_server(&stdio(), &twice, None, None).unwrap_err();
    assert!(e.contains("lists tool `get_current_time` twice"), "{e}");
    let e = from_server(&http("Time"), &tools, None, None).unwrap_err();
    assert!(e.contains("`Time` cannot name an upstream"), "{e}");
    let mut ftp = http("web");
    ftp.transport = Transport::Http {
        url: "ftp://x".into(),
        headers: vec![],
        oauth: None,
    };
    assert!(
        from_server(&ftp, &tools, None, None)
            .unwrap_err()
            .contains("not an HTTP address")
    );
    let e = from_server(&stdio(), &[json!({"description": "x"})], None, None).unwrap_err();
    assert_eq!(e, "tool 1 has no string `name`");
}

/// A plain row of the catalog imported into.
fn row(name: &str) -> String {
    format!(
        "\n[[tool]]\nname = \"{name}\"\ndescription = \"Our own {name}.\"\nvisibility = \"inline\"\neffect = \"reads\"\ntier = \"silent\"\n"
    )
}

/// What the server left open stays open, at the root and below; a tool that must run as a
/// task is not imported; the report says what the gateway passes on and that no schema
/// changed.
#[test]
fn schemas_keep_their_meaning_and_task_only_tools_are_refused() {
    let mut tools = time_tools();
    tools.push(json!({
        "name": "save",
        "title": "Save a record",
        "inputSchema": {
            "type": "object",
            "properties": {
                "record": {"type": "object", "properties": {"id": {"type": "string"}}},
                "strict": {"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": false}
            },
            "additionalProperties": false
        },
        "annotations": {"destructiveHint": false, "idempotentHint": true},
        "icons": [{"src": "https://example.com/save.png"}]
    }));
    tools.push(json!({
        "name": "long_job",
        "description": "Runs for hours.",
        "inputSchema": {"type": "object"},
        "execution": {"taskSupport": "required"}
    }));
    let done = from_server(&stdio(), &tools, None, None).unwrap();
    let catalog = compiled(&done.imported.toml);
    let row = |name: &str| catalog.tools.iter().find(|t| t.name == name).unwrap();
    // Open at the root: `additional-params`; closed: not.
    assert!(row("convert_time").additional_params);
    assert!(!row("save").additional_params);
    let input = crate::schema::input(row("convert_time"));
    assert!(input.get("additionalProperties").is_none(), "{input}");
    // Open below the root: kept as written.
    assert_eq!(
        crate::schema::input(row("save"))["properties"]["record"],
        tools[2]["inputSchema"]["properties"]["record"]
    );
    // A task-only tool is the gateway's to forward: its upstream answers it.
    assert!(catalog.tools.iter().any(|t| t.name == "long_job"));
    assert!(done.wire.contains_key("long_job"));
    let report = &done.imported.report;
    assert_eq!(report.changed(), [] as [String; 0]);
    assert_eq!(report.refused(), [] as [String; 0]);
    let text = report.to_string();
    for expected in [
        "input and output schemas as the server wrote them: all 4",
        "`execution` (1): not listed by the gateway",
        "passed on by the gateway as the server wrote them (pinned by the digest): `_meta` (1), `annotations.idempotentHint` (1), `annotations.title` (1), `icons` (1)",
        "tools without a description (their title is used): save",
    ] {
        assert!(text.contains(expected), "{expected:?} not in\n{text}");
    }
}

/// A server's `x-mcp-header` comes in as the parameter's `header` wherever the compiler
/// takes one, and the schema as written wherever it would not (a `number`, a bad name, a
/// header twice, inside an array's items); either way the row lists to MCP clients what
/// the server wrote, and to other providers nothing of it where it became `header`.
#[test]
fn mirrored_parameters_come_in_as_header_where_the_compiler_takes_one() {
    let schema = json!({
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "limit": {"type": "integer", "minimum": 1, "x-mcp-header": "Limit"},
            "ratio": {"type": "number", "x-mcp-header": "Ratio"},
            "odd": {"type": "string", "x-mcp-header": "a b"},
            "zone": {"type": "string", "x-mcp-header": "Zone"},
            "area": {"type": "string", "x-mcp-header": "zone"},
            "scope": {
                "type": "object",
                "properties": {"tenant": {"type": "string", "x-mcp-header": "Tenant"}},
                "additionalProperties": false
            },
            "rows": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"id": {"type": "string", "x-mcp-header": "Id"}},
                    "additionalProperties": false
                }
            }
        },
        "required": ["region"],
        "additionalProperties": false
    });
    let tools = vec![json!({
        "name": "route",
        "description": "Routes a call.",
        "inputSchema": schema,
        "annotations": {"readOnlyHint": true}
    })];
    let done = from_server(&stdio(), &tools, None, None).unwrap();
    let toml = &done.imported.toml;
    for written in [
        r#"region = { type = "string", header = "Region" }"#,
        r#"header = "Limit""#,
        r#"properties.tenant = { type = "string", required = false, header = "Tenant" }"#,
    ] {
        assert!(toml.contains(written), "{written} not in\n{toml}");
    }
    for kept in ["Ratio", "a b", "Zone", "zone", "Id"] {
        assert!(
            !toml.contains(&format!("header = \"{kept}\"")),
            "{kept} in\n{toml}"
        );
    }
    let catalog = compiled(toml);
    let row = catalog.tools.iter().find(|t| t.name == "route").unwrap();
    assert_eq!(crate::schema::mcp_input(row), tools[0]["inputSchema"]);
    let provider = crate::schema::input(row);
    assert!(
        provider["properties"]["region"]
            .get("x-mcp-header")
            .is_none()
    );
    assert_eq!(
        provider["properties"]["ratio"],
        schema["properties"]["ratio"]
    );
    assert_eq!(done.imported.report.changed(), [] as [String; 0]);
}
