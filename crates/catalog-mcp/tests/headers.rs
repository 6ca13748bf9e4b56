//! Parameters mirrored in HTTP headers (MCP 2026-07-28): raw requests to the reference
//! example, whose `test_header_routing` says `header` on its parameters. The listing
//! carries each one's `x-mcp-header`; a call whose `Mcp-Param-*` header is missing,
//! differs from its argument, comes without the argument, or is bad Base64 is refused
//! with HTTP 400 and `-32020` before it runs; one whose headers agree, as they are or in
//! Base64, runs. No peer needed: the conformance test runs the suite's own scenario.

mod common;

use common::{Answered, HttpServer, example_binary, modern_request, token};
use serde_json::{Value, json};

#[test]
fn mirrored_parameters_are_listed_and_held_to_their_headers() {
    let full = token("headers");
    let server = HttpServer::start(
        &example_binary("reference"),
        &[(full.clone(), "full-access")],
        &[],
    );
    let listed = modern_request(&server.address, &full, "tools/list", json!({}), &[]);
    assert_eq!(listed.status, 200, "{}", listed.message);
    let tools = listed.message["result"]["tools"]
        .as_array()
        .expect("a listing");
    let mut mirrored: Vec<(&str, &str, &str)> = tools
        .iter()
        .flat_map(|tool| {
            let properties = tool["inputSchema"]["properties"].as_object();
            properties.into_iter().flatten().filter_map(|(name, p)| {
                let header = p.get("x-mcp-header")?.as_str()?;
                Some((tool["name"].as_str().unwrap(), name.as_str(), header))
            })
        })
        .collect();
    mirrored.sort_unstable();
    assert_eq!(
        mirrored,
        [
            ("test_header_routing", "priority", "Priority"),
            ("test_header_routing", "region", "Region"),
            ("test_header_routing", "verbose", "Verbose"),
        ]
    );

    let call = |arguments: Value, headers: &[&str]| {
        modern_request(
            &server.address,
            &full,
            "tools/call",
            json!({"name": "test_header_routing", "arguments": arguments}),
            headers,
        )
    };
    let ran = |answered: &Answered| -> String {
        assert_eq!(answered.status, 200, "{}", answered.message);
        let result = &answered.message["result"];
        assert_eq!(result["isError"], false, "{result}");
        result["content"][0]["text"].as_str().unwrap().to_owned()
    };
    let agree = [
        (
            json!({"region": "eu-west"}),
            vec!["Mcp-Param-Region: eu-west"],
            "Routed to region eu-west",
        ),
        // Header names ignore case; integers and booleans travel as their JSON text.
        (
            json!({"region": "eu-west", "priority": 3, "verbose": true}),
            vec![
                "Mcp-Param-Region: eu-west",
                "mcp-param-priority: 3",
                "MCP-PARAM-VERBOSE: true",
            ],
            "Routed to region eu-west, priority 3",
        ),
        // A value that is not plain ASCII travels in Base64.
        (
            json!({"region": "Zürich"}),
            vec!["Mcp-Param-Region: =?base64?WsO8cmljaA==?="],
            "Routed to region Zürich",
        ),
    ];
    for (arguments, headers, said) in agree {
        assert_eq!(ran(&call(arguments, &headers)), said, "{headers:?}");
    }

    let disagree = [
        (json!({"region": "eu-west"}), vec![]),
        (
            json!({"region": "eu-west"}),
            vec!["Mcp-Param-Region: us-east"],
        ),
        (
            json!({"region": "eu-west"}),
            vec!["Mcp-Param-Region: =?base64?ZXUtd2VzdA?="],
        ),
        (
            json!({"region": "eu-west", "priority": 3}),
            vec!["Mcp-Param-Region: eu-west", "Mcp-Param-Priority: 4"],
        ),
        (
            json!({"region": "eu-west"}),
            vec!["Mcp-Param-Region: eu-west", "Mcp-Param-Verbose: false"],
        ),
    ];
    for (arguments, headers) in disagree {
        let refused = call(arguments, &headers);
        assert_eq!(refused.status, 400, "{headers:?}: {}", refused.message);
        assert_eq!(
            refused.message["error"]["code"], -32020,
            "{headers:?}: {}",
            refused.message
        );
        assert!(refused.message.get("result").is_none(), "{headers:?}");
    }
}
