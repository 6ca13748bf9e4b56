//! The tables catalog's tools in every provider's format: the request bodies, locked by
//! snapshots; every documented limit of every provider; the same on the 1,853 real tools
//! of the BFCL data set; and the real validators of Bedrock (botocore), MCP (the official
//! SDK) and Gemini (google-genai, Google's official SDK) run over the output.
//! Over 600 lines: one case per provider limit, sharing the rendering helpers.
//!
//! The validators are Python scripts in `tests/peers/`, run with the interpreter named by
//! `CATALOG_PEER_PYTHON` (one with `pip install botocore mcp google-genai`). Without it the
//! peer tests print how to enable them and pass, except under CI (`CI` set), where they
//! fail.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use catalog_core::{Access, Caller, Effect, Reach, ToolSpec, Visibility};
use catalog_tests::tables::{Catalog, Tool};
use catalog_wire::render::{
    self, Format, OPENAI_MAX_TOOLS, RenderError, ToolSearch, render_set, specs,
};
use serde_json::{Value, json};

const BFCL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/bfcl/tools.json");

/// Every format, MCP at every level.
const FORMATS: [Format; 11] = [
    Format::Anthropic,
    Format::AnthropicToolSearch(ToolSearch::Bm25),
    Format::AnthropicToolSearch(ToolSearch::Regex),
    Format::AnthropicToolSearch(ToolSearch::Catalog),
    Format::OpenAiChat,
    Format::OpenAiResponses,
    Format::Bedrock,
    Format::Gemini,
    Format::Mcp(Access::ReadOnly),
    Format::Mcp(Access::ReadAndStage),
    Format::Mcp(Access::FullAccess),
];

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn pretty(text: &str) -> String {
    serde_json::to_string_pretty(&parse(text)).unwrap()
}

/// The tool names a rendered list sends, in order (the Anthropic server search tool left
/// out: it is Anthropic's, not a tool of the catalog).
fn wire_names(format: Format, rendered: &Value) -> Vec<String> {
    let list = match format {
        Format::Bedrock | Format::Mcp(_) => &rendered["tools"],
        Format::Gemini => &rendered[0]["functionDeclarations"],
        _ => rendered,
    };
    list.as_array()
        .unwrap_or_else(|| panic!("{format:?}: no tool array in {rendered}"))
        .iter()
        .filter(|t| {
            !t["type"]
                .as_str()
                .is_some_and(|t| t.starts_with("tool_search_tool_"))
        })
        .map(|t| {
            let name = match format {
                Format::OpenAiChat => &t["function"]["name"],
                Format::Bedrock => &t["toolSpec"]["name"],
                _ => &t["name"],
            };
            name.as_str()
                .unwrap_or_else(|| panic!("{format:?}: a tool without a name: {t}"))
                .to_string()
        })
        .collect()
}

/// `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`: the names Anthropic, OpenAI and Bedrock accept
/// (`[A-Za-z0-9_-]{1,64}`) that Gemini accepts too (a letter or `_` first).
fn fits_the_wire(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Checks one rendered list against every limit its provider documents.
fn check_limits(format: Format, specs: &[&ToolSpec], rendered: &str) {
    let value = parse(rendered);
    let names = wire_names(format, &value);
    if let Format::Mcp(level) = format {
        let expected: Vec<&str> = specs
            .iter()
            .filter(|s| s.reach(Caller::Mcp(level), false) == Reach::Allowed)
            .map(|s| s.name)
            .collect();
        assert_eq!(names, expected, "{format:?}");
    } else {
        for name in &names {
            assert!(
                fits_the_wire(name),
                "{format:?}: `{name}` is not a wire name"
            );
        }
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{format:?}: a name twice");
    }
    match format {
        Format::OpenAiChat | Format::OpenAiResponses => {
            assert!((1..=OPENAI_MAX_TOOLS).contains(&names.len()), "{format:?}");
        }
        Format::Bedrock => assert!(!names.is_empty()),
        Format::Gemini => {
            assert!(!names.is_empty());
            assert_eq!(value.as_array().map(Vec::len), Some(1), "one Tool");
        }
        Format::AnthropicToolSearch(search) => {
            let tools = value.as_array().unwrap();
            let loaded = tools
                .iter()
                .filter(|t| t.get("type").is_none() && t.get("defer_loading").is_none())
                .count();
            assert!(loaded >= 1, "{format:?}: every tool deferred");
            let server = tools.iter().filter(|t| t.get("type").is_some()).count();
            assert_eq!(
                server,
                usize::from(search != ToolSearch::Catalog),
                "{format:?}"
            );
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------
// The tables catalog
// ---------------------------------------------------------------------------------------

#[test]
fn anthropic_first_step() {
    insta::assert_snapshot!(pretty(
        &render_set(Format::Anthropic, &Catalog, Catalog::INLINE).unwrap()
    ));
}

#[test]
fn anthropic_tool_search_whole_catalog() {
    let bm25 = render_set(
        Format::AnthropicToolSearch(ToolSearch::Bm25),
        &Catalog,
        Catalog::ALL,
    )
    .unwrap();
    insta::assert_snapshot!(pretty(&bm25));
    // The three modes differ only in who searches.
    let regex = render_set(
        Format::AnthropicToolSearch(ToolSearch::Regex),
        &Catalog,
        Catalog::ALL,
    )
    .unwrap();
    let ours = render_set(
        Format::AnthropicToolSearch(ToolSearch::Catalog),
        &Catalog,
        Catalog::ALL,
    )
    .unwrap();
    let list = |text: &str| parse(text).as_array().unwrap().clone();
    let (bm25, regex, ours) = (list(&bm25), list(&regex), list(&ours));
    assert_eq!(bm25[1..], regex[1..]);
    assert_eq!(
        ours[1..],
        bm25[1..],
        "the catalog's search tool comes first, then the same tools"
    );
    assert_eq!(ours[0]["name"], Catalog::SEARCH_TOOL.spec().wire_name);
}

#[test]
fn openai_chat_first_step() {
    insta::assert_snapshot!(pretty(
        &render_set(Format::OpenAiChat, &Catalog, Catalog::INLINE).unwrap()
    ));
}

#[test]
fn openai_responses_first_step() {
    insta::assert_snapshot!(pretty(
        &render_set(Format::OpenAiResponses, &Catalog, Catalog::INLINE).unwrap()
    ));
}

#[test]
fn gemini_first_step() {
    insta::assert_snapshot!(pretty(
        &render_set(Format::Gemini, &Catalog, Catalog::INLINE).unwrap()
    ));
}

/// Gemini's declarations say what the input schema says: the same properties in the same
/// order, the same required ones (of those declared), and each declaration's name maps
/// back to its tool.
#[test]
fn gemini_declarations_keep_every_parameter_of_the_input_schema() {
    fn same_shape(input: &Value, gemini: &Value, at: &str) {
        let keys = |v: &Value| -> Vec<String> {
            v["properties"]
                .as_object()
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default()
        };
        assert_eq!(keys(input), keys(gemini), "{at}");
        // Gemini refuses a required name its properties do not declare (BFCL has such
        // objects): the declaration leaves those out, and `schema-portability` says so.
        let declared = keys(input);
        let required = |v: &Value| -> Vec<Value> {
            v.get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter(|r| r.as_str().is_some_and(|r| declared.iter().any(|d| d == r)))
                .cloned()
                .collect()
        };
        assert_eq!(required(input), required(gemini), "{at}");
        for name in keys(input) {
            same_shape(
                &input["properties"][&name],
                &gemini["properties"][&name],
                &format!("{at}/{name}"),
            );
        }
    }
    let check = |specs: &[&ToolSpec]| {
        for spec in specs {
            let input = parse(spec.input_schema);
            match spec.gemini_parameters {
                Some(p) => same_shape(&input, &parse(p), spec.name),
                None => assert!(
                    input["properties"]
                        .as_object()
                        .is_none_or(serde_json::Map::is_empty),
                    "{}",
                    spec.name
                ),
            }
        }
    };
    check(&specs(&Catalog, Catalog::ALL).collect::<Vec<_>>());
    check(&bfcl().iter().collect::<Vec<_>>());
    let rendered = parse(&render_set(Format::Gemini, &Catalog, Catalog::ALL).unwrap());
    for name in wire_names(Format::Gemini, &rendered) {
        assert!(Tool::from_wire_name(&name).is_some(), "{name}");
    }
}

#[test]
fn every_format_meets_its_limits_on_the_example_catalog() {
    for set in [Catalog::INLINE, Catalog::ALL] {
        let tools: Vec<&ToolSpec> = specs(&Catalog, set).collect();
        for format in FORMATS {
            let rendered = render_set(format, &Catalog, set).unwrap();
            check_limits(format, &tools, &rendered);
        }
    }
}

#[test]
fn mcp_lists_exactly_what_each_level_may_call() {
    for level in Access::ALL {
        let rendered = parse(&render_set(Format::Mcp(level), &Catalog, Catalog::ALL).unwrap());
        let names = wire_names(Format::Mcp(level), &rendered);
        let allowed: Vec<&str> = Catalog::mcp_allowed(level).iter().map(Tool::name).collect();
        assert_eq!(names, allowed, "{level}");
        let table = match level {
            Access::ReadOnly => Catalog::MCP_READ_ONLY,
            Access::ReadAndStage => Catalog::MCP_READ_AND_STAGE,
            Access::FullAccess => Catalog::MCP_FULL_ACCESS,
        };
        assert_eq!(Catalog::mcp_allowed(level), table);
        // Whatever set is rendered, nothing outside the level's table shows up.
        let inline = parse(&render_set(Format::Mcp(level), &Catalog, Catalog::INLINE).unwrap());
        let expected: Vec<&str> = Catalog::INLINE
            .intersection(table)
            .iter()
            .map(Tool::name)
            .collect();
        assert_eq!(wire_names(Format::Mcp(level), &inline), expected, "{level}");
    }
    let search = Catalog::SEARCH_TOOL.name();
    let full = render_set(Format::Mcp(Access::FullAccess), &Catalog, Catalog::ALL).unwrap();
    assert!(
        !wire_names(Format::Mcp(Access::FullAccess), &parse(&full))
            .iter()
            .any(|n| n == search)
    );
}

#[test]
fn mcp_hints_follow_the_effect() {
    let full = parse(&render_set(Format::Mcp(Access::FullAccess), &Catalog, Catalog::ALL).unwrap());
    for entry in full["tools"].as_array().unwrap() {
        let tool = Tool::from_name(entry["name"].as_str().unwrap()).unwrap();
        let expected = match tool.spec().effect {
            Some(Effect::Reads) => json!({"readOnlyHint": true}),
            Some(Effect::Stages) => {
                json!({"readOnlyHint": false, "destructiveHint": false, "openWorldHint": false})
            }
            Some(Effect::Acts) => json!({"readOnlyHint": false, "destructiveHint": true}),
            None => panic!("the search tool is listed"),
        };
        assert_eq!(entry["annotations"], expected, "{tool}");
        assert_eq!(
            entry.get("outputSchema").is_some(),
            tool.spec()
                .output_schema
                .is_some_and(|s| parse(s)["type"] == "object"),
            "{tool}"
        );
    }
}

#[test]
fn wire_names_map_back_to_their_tools() {
    for tool in Tool::ALL {
        assert_eq!(
            Tool::from_wire_name(tool.spec().wire_name),
            Some(tool),
            "{tool}"
        );
    }
}

#[test]
fn a_discoverable_only_list_cannot_use_anthropic_tool_search() {
    for search in [ToolSearch::Bm25, ToolSearch::Regex, ToolSearch::Catalog] {
        assert_eq!(
            render_set(
                Format::AnthropicToolSearch(search),
                &Catalog,
                Catalog::DISCOVERABLE
            ),
            Err(RenderError::AllDeferred)
        );
    }
}

#[test]
fn search_hits_load_as_tool_references() {
    let mut d = Catalog::discovery();
    let outcome = d.search("export this to CSV");
    let content = parse(&render::search_result_content(&outcome));
    let refs = content.as_array().expect("callable hits are references");
    assert!(
        refs.contains(
            &json!({"type": "tool_reference", "tool_name": Tool::ExportCsv.spec().wire_name})
        ),
        "{content}"
    );
    // Every reference names a tool of the request's tool list.
    let tools = parse(
        &render_set(
            Format::AnthropicToolSearch(ToolSearch::Catalog),
            &Catalog,
            Catalog::ALL,
        )
        .unwrap(),
    );
    let listed = wire_names(Format::AnthropicToolSearch(ToolSearch::Catalog), &tools);
    for r in refs {
        assert!(listed.iter().any(|n| r["tool_name"] == n.as_str()), "{r}");
    }
}

// ---------------------------------------------------------------------------------------
// The BFCL catalog: 1,853 tools imported from MCP, compiled and specified at run time
// ---------------------------------------------------------------------------------------

/// The BFCL tools as a catalog read at run time: its specs, in catalog order.
fn bfcl() -> &'static [ToolSpec<'static>] {
    static SPECS: OnceLock<catalog_check::Specs> = OnceLock::new();
    SPECS
        .get_or_init(|| {
            assert!(
                Path::new(BFCL).exists(),
                "the BFCL data is expected at {BFCL} (vendored in tests/data/bfcl)"
            );
            let doc: Value = serde_json::from_str(&std::fs::read_to_string(BFCL).unwrap()).unwrap();
            let imported = catalog_check::import::from_mcp("tools.json", &doc).unwrap();
            let catalog = catalog_check::compile(&imported.toml).unwrap_or_else(|d| {
                panic!(
                    "{}",
                    catalog_check::render_all("tools.toml", &imported.toml, &d)
                )
            });
            catalog_check::specs(&catalog)
        })
        .get()
}

#[test]
fn bfcl_renders_in_every_format_within_the_limits() {
    let all: Vec<&ToolSpec> = bfcl().iter().collect();
    assert_eq!(all.len(), 1_853 + 2);
    for format in FORMATS {
        match format {
            Format::OpenAiChat | Format::OpenAiResponses => {
                for chunk in all.chunks(OPENAI_MAX_TOOLS) {
                    let rendered = render::render(format, chunk.iter().copied()).unwrap();
                    check_limits(format, chunk, &rendered);
                }
            }
            _ => {
                let rendered = render::render(format, all.iter().copied())
                    .unwrap_or_else(|e| panic!("{format:?}: {e}"));
                check_limits(format, &all, &rendered);
            }
        }
    }
}

#[test]
fn bfcl_names_are_renamed_for_the_wire_only_where_needed() {
    let renamed: Vec<&ToolSpec> = bfcl().iter().filter(|s| s.wire_name != s.name).collect();
    assert!(!renamed.is_empty(), "BFCL has dotted names");
    for spec in bfcl() {
        assert!(fits_the_wire(spec.wire_name), "{}", spec.wire_name);
        if fits_the_wire(spec.name) {
            assert_eq!(spec.wire_name, spec.name);
        }
    }
}

#[test]
fn more_than_128_tools_is_an_error_that_names_the_fix() {
    for format in [Format::OpenAiChat, Format::OpenAiResponses] {
        let err = render::render(format, bfcl().iter().take(OPENAI_MAX_TOOLS + 1)).unwrap_err();
        assert_eq!(
            err,
            RenderError::TooManyTools {
                api: match format {
                    Format::OpenAiChat => "OpenAI Chat Completions",
                    _ => "OpenAI Responses API",
                },
                count: 129,
                limit: 128,
            }
        );
        let message = err.to_string();
        assert!(
            message.contains("129") && message.contains("128"),
            "{message}"
        );
        assert!(message.contains("active set"), "{message}");
        assert!(render::render(format, bfcl().iter().take(OPENAI_MAX_TOOLS)).is_ok());
    }
    let all = render::render(Format::OpenAiChat, bfcl()).unwrap_err();
    assert!(all.to_string().contains("1855"), "{all}");
}

#[test]
fn bfcl_tool_search_defers_every_imported_tool() {
    let rendered =
        parse(&render::render(Format::AnthropicToolSearch(ToolSearch::Bm25), bfcl()).unwrap());
    let tools = rendered.as_array().unwrap();
    let loaded: Vec<&str> = tools
        .iter()
        .filter(|t| t.get("type").is_none() && t.get("defer_loading").is_none())
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    // Imported tools are all discoverable; only the added ask tool stays loaded.
    let inline: Vec<&str> = bfcl()
        .iter()
        .filter(|s| s.visibility == Visibility::Inline && s.access.is_some())
        .map(|s| s.wire_name)
        .collect();
    assert_eq!(loaded, inline);
    assert_eq!(tools.len(), 1 + 1_853 + 1);
}

// ---------------------------------------------------------------------------------------
// The real validators
// ---------------------------------------------------------------------------------------

/// The interpreter for the peer scripts, or `None` (with a note) when the peers are off.
fn peer_python() -> Option<std::path::PathBuf> {
    catalog_testkit::peer("peer check", "CATALOG_PEER_PYTHON")
}

/// Runs `tests/peers/<script>` on some documents, one per line, loading its Python
/// package once for all of them: whether it accepted them all, and what it printed.
fn run_peer(python: &std::path::Path, script: &str, documents: &[String]) -> (bool, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("peers")
        .join(script);
    let mut child = Command::new(python)
        .arg(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run `{}`: {e}", python.display()));
    let mut stdin = child.stdin.take().unwrap();
    for doc in documents {
        // Compact JSON has no newline of its own, so each document is one line.
        writeln!(stdin, "{doc}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), report)
}

/// [`run_peer`] that must accept every document; its stdout lines.
fn peer(python: &std::path::Path, script: &str, documents: &[String]) -> Vec<String> {
    let (ok, report) = run_peer(python, script, documents);
    assert!(ok, "{script} rejects the output:\n{report}");
    let lines: Vec<String> = report.lines().map(str::to_string).collect();
    assert_eq!(lines.len(), documents.len(), "{report}");
    lines
}

/// A whole Converse request around a rendered `toolConfig`.
fn converse(tool_config: &str) -> String {
    json!({
        "modelId": "anthropic.claude-3-5-haiku-20241022-v1:0",
        "messages": [{"role": "user", "content": [{"text": "Export the customers table to CSV."}]}],
        "toolConfig": parse(tool_config),
    })
    .to_string()
}

/// Checks `tools/list` results with the MCP SDK; the names it read in each.
fn mcp_names(python: &std::path::Path, results: &[String]) -> Vec<Vec<String>> {
    peer(python, "mcp_validate.py", results)
        .iter()
        .map(|line| {
            let summary = parse(line);
            let names: Vec<String> = summary["names"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_str().unwrap().to_string())
                .collect();
            assert_eq!(summary["count"], names.len());
            names
        })
        .collect()
}

#[test]
fn botocore_and_the_mcp_sdk_accept_the_example_catalog() {
    let Some(python) = peer_python() else { return };
    let sets = [Catalog::INLINE, Catalog::ALL];
    let requests: Vec<String> = sets
        .iter()
        .map(|&set| converse(&render_set(Format::Bedrock, &Catalog, set).unwrap()))
        .collect();
    peer(&python, "bedrock_validate.py", &requests);
    let cases: Vec<_> = sets
        .iter()
        .flat_map(|&set| Access::ALL.map(|level| (set, level)))
        .collect();
    let results: Vec<String> = cases
        .iter()
        .map(|&(set, level)| render_set(Format::Mcp(level), &Catalog, set).unwrap())
        .collect();
    for ((set, level), names) in cases.iter().zip(mcp_names(&python, &results)) {
        let expected: Vec<&str> = set
            .intersection(Catalog::mcp_allowed(*level))
            .iter()
            .map(Tool::name)
            .collect();
        assert_eq!(names, expected, "{level}");
    }
}

#[test]
fn botocore_and_the_mcp_sdk_accept_bfcl() {
    let Some(python) = peer_python() else { return };
    let config = render::render(Format::Bedrock, bfcl()).unwrap();
    peer(&python, "bedrock_validate.py", &[converse(&config)]);
    let results: Vec<String> = Access::ALL
        .iter()
        .map(|&level| render::render(Format::Mcp(level), bfcl()).unwrap())
        .collect();
    for (level, names) in Access::ALL.iter().zip(mcp_names(&python, &results)) {
        let expected: Vec<&str> = bfcl()
            .iter()
            .filter(|s| s.reach(Caller::Mcp(*level), false) == Reach::Allowed)
            .map(|s| s.name)
            .collect();
        assert_eq!(names, expected, "{level}");
    }
}

/// Checks Gemini `tools` arrays with google-genai; the function names it read in each.
fn gemini_names(python: &std::path::Path, lists: &[String]) -> Vec<Vec<String>> {
    peer(python, "gemini_validate.py", lists)
        .iter()
        .map(|line| {
            let summary = parse(line);
            let names: Vec<String> = summary["names"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_str().unwrap().to_string())
                .collect();
            assert_eq!(summary["count"], names.len());
            names
        })
        .collect()
}

#[test]
fn google_genai_accepts_the_example_catalog() {
    let Some(python) = peer_python() else { return };
    let sets = [Catalog::INLINE, Catalog::ALL];
    let lists: Vec<String> = sets
        .iter()
        .map(|&set| render_set(Format::Gemini, &Catalog, set).unwrap())
        .collect();
    for (set, names) in sets.iter().zip(gemini_names(&python, &lists)) {
        let expected: Vec<&str> = specs(&Catalog, *set).map(|s| s.wire_name).collect();
        assert_eq!(names, expected);
    }
}

#[test]
fn google_genai_accepts_bfcl() {
    let Some(python) = peer_python() else { return };
    let list = render::render(Format::Gemini, bfcl()).unwrap();
    let names = gemini_names(&python, &[list]);
    let expected: Vec<&str> = bfcl().iter().map(|s| s.wire_name).collect();
    assert_eq!(names, [expected]);
}

/// The peers are not rubber stamps: each rejects what its provider would.
#[test]
fn the_peers_reject_broken_output() {
    let Some(python) = peer_python() else { return };
    let mut config = parse(&render_set(Format::Bedrock, &Catalog, Catalog::INLINE).unwrap());
    config["tools"][0]["toolSpec"]["name"] = json!("triangle_properties.get");
    let (ok, report) = run_peer(
        &python,
        "bedrock_validate.py",
        &[converse(&config.to_string())],
    );
    assert!(!ok && report.contains("does not match"), "{report}");

    let mut list =
        parse(&render_set(Format::Mcp(Access::FullAccess), &Catalog, Catalog::ALL).unwrap());
    list["tools"][0]["inputSchema"] = json!("not a schema");
    let (ok, report) = run_peer(&python, "mcp_validate.py", &[list.to_string()]);
    assert!(!ok && report.contains("MCP SDK rejects"), "{report}");

    // A type array, which Gemini's one-type Schema refuses; a Vertex-only field; a name
    // Gemini refuses.
    let tools = parse(&render_set(Format::Gemini, &Catalog, Catalog::INLINE).unwrap());
    let mut type_array = tools.clone();
    type_array[0]["functionDeclarations"][0]["parameters"]["properties"]["query"]["type"] =
        json!(["STRING", "NULL"]);
    let mut vertex_only = tools.clone();
    vertex_only[0]["functionDeclarations"][0]["parameters"]["additionalProperties"] = json!(false);
    let mut bad_name = tools;
    bad_name[0]["functionDeclarations"][0]["name"] = json!("3d.view");
    for (broken, says) in [
        (type_array, "google-genai rejects the tool"),
        (
            vertex_only,
            "`additionalProperties` is not a field of the Gemini API's Schema",
        ),
        (bad_name, "'3d.view' is not 1-64"),
    ] {
        let (ok, report) = run_peer(&python, "gemini_validate.py", &[broken.to_string()]);
        assert!(!ok && report.contains(says), "{report}");
    }
}
