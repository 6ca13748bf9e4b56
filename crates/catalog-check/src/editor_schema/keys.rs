//! What each key of `catalog.toml` means to an editor: its description and the JSON
//! Schema of its value, by table. Which keys there are, in which order, is the parser's
//! key tables'; the choices of every enum are the model's.

#![allow(clippy::too_many_lines, reason = "one entry per key of the format")]

use catalog_core::search::Language;
use catalog_core::{Access, Effect, ScanResults, TaskSupport};
use serde_json::{Value, json};

use crate::model::{Arguments, SettingsTable};
use crate::parse::{RETENTIONS, TIERS, TYPE_NAMES, VISIBILITIES};
use crate::provider::Provider;

/// The top-level tables.
pub(super) fn top(key: &str) -> Option<Value> {
    Some(match key {
        "settings" => json!({
            "description": "Catalog-wide settings: which rows are the search and ask tools, and search limits.",
            "allOf": [
                {
                    "$ref": "#/definitions/settings"
                }
            ]
        }),
        "lints" => json!({
            "description": "Lint levels and settings: which checks of a valid catalog warn, fail the build, or are off.",
            "allOf": [
                {
                    "$ref": "#/definitions/lints"
                }
            ]
        }),
        "upstream" => json!({
            "description": "Live MCP servers whose tools the catalog serves, one [[upstream]] table each; rows name one with `upstream`.",
            "type": "array",
            "items": {
                "$ref": "#/definitions/upstream"
            }
        }),
        "prompt" => json!({
            "description": "Prompts of upstreams that a gateway passes on, one [[prompt]] table each, written by `cargo catalog import --from-server`.",
            "type": "array",
            "items": {
                "$ref": "#/definitions/prompt"
            }
        }),
        "resource" => json!({
            "description": "Resources and resource templates of upstreams that a gateway passes on, one [[resource]] table each, written by `cargo catalog import --from-server`.",
            "type": "array",
            "items": {
                "$ref": "#/definitions/resource"
            }
        }),
        "tool" => json!({
            "description": "The tools, one [[tool]] row each.",
            "type": "array",
            "items": {
                "$ref": "#/definitions/tool"
            },
            "minItems": 1
        }),
        _ => return None,
    })
}

/// The keys of `[settings]`, with the defaults the compiler applies.
pub(super) fn settings(key: &str) -> Option<Value> {
    // Whichever rows the search and ask tools are, the other keys default alike.
    let defaults = SettingsTable::defaults(0, 0);
    Some(match key {
        "search-tool" => json!({
            "description": "Name of the row that is the search tool (inline, no tier or access, required string parameter `query`).",
            "type": "string",
            "pattern": "^[A-Za-z0-9_.-]{1,128}$"
        }),
        "ask-tool" => json!({
            "description": "Name of the row that asks the user a question; it must be inline.",
            "type": "string",
            "pattern": "^[A-Za-z0-9_.-]{1,128}$"
        }),
        "search-results" => json!({
            "description": format!("Hits per search call, 1 to {}. Default {}.", SettingsTable::MAX_SEARCH_RESULTS, SettingsTable::DEFAULT_SEARCH_RESULTS),
            "type": "integer",
            "minimum": 1,
            "maximum": SettingsTable::MAX_SEARCH_RESULTS,
            "default": defaults.search_results
        }),
        "searches-per-turn" => json!({
            "description": format!("Search calls allowed per user turn, 1 to {}. Default {}.", SettingsTable::MAX_SEARCHES_PER_TURN, SettingsTable::DEFAULT_SEARCHES_PER_TURN),
            "type": "integer",
            "minimum": 1,
            "maximum": SettingsTable::MAX_SEARCHES_PER_TURN,
            "default": defaults.searches_per_turn
        }),
        "keep-discovered" => json!({
            "type": "string",
            "enum": RETENTIONS.map(|(n, _)| n),
            "default": spelling(&RETENTIONS, defaults.keep_discovered),
            "description": "How long a tool found by search stays in the model's tool list: the rest of the conversation (default), or until the next user message."
        }),
        "language" => json!({
            "type": "string",
            "enum": Language::ALL.map(Language::code),
            "default": defaults.language.code(),
            "description": "The language of the catalog's text: the stemmer and stop words search uses for words in Latin script, in the tools' text and in every request (Snowball English, German, French, Spanish, Portuguese, Italian, Dutch). Japanese, Chinese and Korean text is read as character bigrams whatever this says; `ja`, `zh` and `ko` stem the Latin-script words mixed into such catalogs as English."
        }),
        "scan-results" => json!({
            "type": "string",
            "enum": ScanResults::ALL.map(ScanResults::as_str),
            "default": defaults.scan_results.as_str(),
            "description": "What happens to a tool result in which the result scanner finds hidden characters, text addressed to the model, a link that carries data out, or more than the size cap: `off` (not read), `warn` (default: the result with a short notice naming what was found), `strip` (hidden characters removed, and the notice), `withhold` (a RUNTIME_ERROR rejection naming why). An oversized result is cut at the cap, with a notice, under every policy but `off`."
        }),
        "scan-threshold" => json!({
            "type": "number",
            "exclusiveMinimum": 0,
            "maximum": 1,
            "multipleOf": 0.001,
            "description": "From which score, above 0 and at most 1, the result scanner's learned detector calls a sentence of a tool result an injection: lower catches more and risks flagging honest text. Default: the threshold the detector was trained with, which no honest result of its dev set reaches."
        }),
        "providers" => json!({
            "description": "The providers the tools go to, as `cargo catalog render --provider` names them: `schema-portability` checks the input schemas for these only (default: all of them).",
            "type": "array",
            "items": {
                "type": "string",
                "enum": Provider::ALL.map(Provider::name)
            },
            "minItems": 1,
            "uniqueItems": true
        }),
        "arguments" => json!({
            "description": "How rows that do not say receive their verified arguments: `typed` (a generated argument type and a handler method per tool) or `json` (no type and no method of their own: the verified JSON object goes to the handler's one `call_json` method, with the tool). The search tool is always typed.",
            "type": "string",
            "enum": Arguments::ALL.map(|(n, _)| n),
            "default": spelling(&Arguments::ALL, defaults.arguments)
        }),
        _ => return None,
    })
}

/// How the catalog spells `value`, one of the choices of `table`.
fn spelling<T: PartialEq + Copy>(table: &[(&'static str, T)], value: T) -> &'static str {
    table
        .iter()
        .find(|(_, v)| *v == value)
        .map_or("", |(name, _)| name)
}

/// The keys of a `[[prompt]]` or `[[resource]]` table.
pub(super) fn offer(key: &str) -> Option<Value> {
    Some(match key {
        "name" => json!({
            "description": "The prompt's name to clients, and on its server unless `upstream-prompt` gives that; unique among the catalog's prompts, whatever their upstreams.",
            "type": "string",
            "minLength": 1
        }),
        "uri" => json!({
            "description": "The resource's URI, as its server lists it; unique among the catalog's resources, and matched by no other upstream's template.",
            "type": "string",
            "minLength": 1
        }),
        "uri-template" => json!({
            "description": "The resource template's URI template (RFC 6570), as its server lists it, instead of `uri`; reads of a URI it matches go to its upstream, so no URI it matches may be another upstream's (a resource, or one of its templates' URIs).",
            "type": "string",
            "minLength": 1
        }),
        "description" => json!({
            "description": "The reviewed description clients see instead of the server's; the importer copies the server's, and the poisoning lint reads it. Without one, none is listed.",
            "type": "string"
        }),
        "arguments" => json!({
            "description": "A prompt's arguments, each with the reviewed description clients see instead of the server's.",
            "type": "object",
            "additionalProperties": {
                "type": "string"
            }
        }),
        "upstream" => json!({
            "description": "The [[upstream]] that serves it, by its `name`.",
            "type": "string",
            "pattern": "^[a-z0-9_-]+$"
        }),
        "upstream-prompt" => json!({
            "description": "A prompt's name on its upstream, when the table's `name` differs from it (a prefix added because another upstream's prompt has the name).",
            "type": "string",
            "minLength": 1
        }),
        "upstream-digest" => json!({
            "description": "The digest of its listing as imported (RFC 8785 canonical JSON, SHA-256), written by the importer; the gateway withholds it when the server's listing no longer matches.",
            "type": "string",
            "pattern": "^sha256:[0-9a-f]{64}$"
        }),
        "access" => json!({
            "description": "Lowest MCP access level that may list and read it.",
            "type": "string",
            "enum": Access::ALL.map(Access::as_str)
        }),
        _ => return None,
    })
}

/// The keys of an `[[upstream]]` table.
pub(super) fn upstream(key: &str) -> Option<Value> {
    Some(match key {
        "name" => json!({
            "description": "What rows' `upstream` names; unique among the upstreams. Lowercase letters, digits, `-` and `_`.",
            "type": "string",
            "pattern": "^[a-z0-9_-]+$"
        }),
        "command" => json!({
            "description": "The program that speaks MCP on its standard input and output.",
            "type": "string",
            "minLength": 1
        }),
        "args" => json!({
            "description": "The program's arguments; only with `command`.",
            "type": "array",
            "items": {
                "type": "string"
            }
        }),
        "env" => json!({
            "description": "Variables added to the program's environment; only with `command`. Each value is a string, or read when the upstream starts: `{ from-env = \"NAME\" }` (the gateway's environment) or `{ from-file = \"PATH\" }` (a file, its trailing line break dropped), so secrets stay out of the catalog.",
            "type": "object",
            "additionalProperties": {
                "$ref": "#/definitions/supplied"
            }
        }),
        "url" => json!({
            "description": "The server's streamable HTTP endpoint, instead of `command`.",
            "type": "string",
            "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://\\S+$"
        }),
        "headers" => json!({
            "description": "HTTP headers sent with every request, e.g. `Authorization`; only with `url`. Values as in `env`: a string, `{ from-env = \"NAME\" }` or `{ from-file = \"PATH\" }`, read when the upstream is reached.",
            "type": "object",
            "additionalProperties": {
                "$ref": "#/definitions/supplied"
            }
        }),
        "oauth" => oauth(),
        _ => return None,
    })
}

/// `oauth` of an `[[upstream]]`: its keys in the parser's order, the secrets only as
/// references.
fn oauth() -> Value {
    let reference = json!({
        "type": "object",
        "properties": {
            "from-env": {"description": "The variable of the gateway's environment the value is read from.", "type": "string", "minLength": 1},
            "from-file": {"description": "The file the value is read from (its trailing line break dropped).", "type": "string", "minLength": 1}
        },
        "oneOf": [{"required": ["from-env"]}, {"required": ["from-file"]}],
        "additionalProperties": false
    });
    let key = |key: &str| -> Value {
        match key {
            "client-id" => json!({
                "description": "The identifier the authorization server gave the gateway's client.",
                "type": "string",
                "minLength": 1
            }),
            "client-secret" => {
                let mut secret = reference.clone();
                secret["description"] = json!(
                    "The client's shared secret, read when a token is requested: `{ from-env = \"NAME\" }` or `{ from-file = \"PATH\" }`, never written here."
                );
                secret
            }
            "private-key" => {
                let mut secret = reference.clone();
                secret["description"] = json!(
                    "A PEM private key (PKCS #8: EC P-256 or P-384, or RSA) that signs the client's JWT assertion (`private_key_jwt`), read when a token is requested: `{ from-env = \"NAME\" }` or `{ from-file = \"PATH\" }`."
                );
                secret
            }
            _ => json!({
                "description": "The scopes to ask for, separated by spaces. Default: those the server's 401 challenge names, else the authorization server's default.",
                "type": "string",
                "minLength": 1
            }),
        }
    };
    let properties: serde_json::Map<String, Value> = crate::parse::OAUTH_KEYS
        .iter()
        .map(|k| ((*k).to_string(), key(k)))
        .collect();
    json!({
        "description": "For a server behind an OAuth 2.1 authorization server (it answers 401 and names its protected resource metadata); only with `url`, and not with an `Authorization` header. The gateway is a client registered there in advance and gets its access tokens with the client credentials grant, with no user at a browser: `client-id`, and `client-secret` or `private-key` (read from the environment or a file, never written here), and maybe `scope`. E.g. `oauth = { client-id = \"catalog-gateway\", client-secret = { from-env = \"BILLING_SECRET\" } }`.",
        "type": "object",
        "required": ["client-id"],
        "properties": properties,
        "oneOf": [{"required": ["client-secret"]}, {"required": ["private-key"]}],
        "additionalProperties": false
    })
}

/// The keys of a `[[tool]]` row.
pub(super) fn tool(key: &str) -> Option<Value> {
    Some(match key {
        "name" => json!({
            "description": "The name the model sees; unique in the catalog. 1-128 characters of A-Z a-z 0-9 _ - .",
            "type": "string",
            "pattern": "^[A-Za-z0-9_.-]{1,128}$"
        }),
        "rust-name" => json!({
            "type": "string",
            "pattern": "^[A-Za-z_][A-Za-z0-9_]*$",
            "description": "The Rust enum variant for this tool, when the one derived from `name` collides with another row's (`openTable` and `open_table` both become `OpenTable`). Names stay exactly as the model sees them."
        }),
        "description" => json!({
            "description": "What search returns and the model reads: what the tool does and how it differs from similar tools.",
            "type": "string",
            "minLength": 1
        }),
        "keywords" => json!({
            "description": "Extra search terms the description does not contain.",
            "type": "array",
            "items": {
                "type": "string"
            }
        }),
        "examples" => json!({
            "description": "Requests in users' words that need this tool; used by search.",
            "type": "array",
            "items": {
                "type": "string"
            }
        }),
        "visibility" => json!({
            "description": "When the tool enters the model's active set. Required except on the search tool, which is always inline.",
            "type": "string",
            "enum": VISIBILITIES.map(|(n, _)| n),
            "x-taplo": {
                "docs": {
                    "enumValues": [
                        "In the active set from the first step.",
                        "Joins the active set only after a search returned it."
                    ]
                }
            }
        }),
        "effect" => json!({
            "description": "What the tool does to the world. Required on every tool except the search tool, which must not have one. It sets the least access level that may call the tool; a tool that acts must be gated.",
            "type": "string",
            "enum": Effect::ALL.map(Effect::as_str),
            "x-taplo": {
                "docs": {
                    "enumValues": [
                        "Reads data, changes nothing: read-only clients may call it.",
                        "Stages changes a person reviews before a commit: read-and-stage clients may call it.",
                        "Acts on the world (cannot be taken back, or leaves the app): only full-access clients may call it, and it must be gated."
                    ]
                }
            }
        }),
        "tier" => json!({
            "description": "Permission tier. Required on every tool except the search tool, which must not have one. A tool whose effect is `acts` must be gated.",
            "type": "string",
            "enum": TIERS.map(|(n, _)| n),
            "x-taplo": {
                "docs": {
                    "enumValues": [
                        "Runs without a permission check.",
                        "Passes the application's permission check first, whoever calls it."
                    ]
                }
            }
        }),
        "access" => json!({
            "description": "Lowest MCP access level that may call the tool. Defaults to the least level the tool's effect needs (`reads`: read-only, `stages`: read-and-stage, `acts`: full-access); it may be higher, never lower. The search tool must not have one.",
            "type": "string",
            "enum": Access::ALL.map(Access::as_str),
            "x-taplo": {
                "docs": {
                    "enumValues": [
                        "Reads data, changes nothing.",
                        "May also put changes in the staging area for a person to review.",
                        "May also act on the world: commit, destroy, send."
                    ]
                }
            }
        }),
        "mcp" => json!({
            "description": "Whether MCP clients may see and call the tool at all. Default true; must be false or absent on the search tool.",
            "type": "boolean",
            "default": true
        }),
        "task" => json!({
            "description": "Whether its MCP calls may run as tasks (MCP's tasks extension, `io.modelcontextprotocol/tasks`, on 2026-07-28): `optional` (a client that declared the extension may get a task, any other the result in the response) or `required` (only such clients may call it; any other is refused with -32021). A call becomes a task once its handler first waits on anything but the client's answers, or calls `Context::as_task`; the client then polls `tasks/get`. Default: every call answers in its response. Not on the search tool, a row kept from MCP, or a row an upstream serves.",
            "type": "string",
            "enum": TaskSupport::ALL.map(TaskSupport::as_str),
            "x-taplo": {
                "docs": {
                    "enumValues": [
                        "A client that declared the extension may get a task; any other gets the result in the response.",
                        "Only a client that declared the extension may call it (any other is refused with -32021, before anything runs)."
                    ]
                }
            }
        }),
        "arguments" => json!({
            "description": "How this tool's verified arguments reach the application: `typed` (a generated argument type and a handler method of its own) or `json` (the verified JSON object, with the tool, to the handler's `call_json`). Default: `[settings] arguments`. Not on the search tool, which is always typed.",
            "type": "string",
            "enum": Arguments::ALL.map(|(n, _)| n)
        }),
        "params" => json!({
            "description": "Input parameters, one entry per parameter, in order. A long parameter can be its own sub-table [tool.params.NAME].",
            "type": "object",
            "propertyNames": {
                "minLength": 1
            },
            "additionalProperties": {
                "$ref": "#/definitions/param"
            }
        }),
        "additional-params" => json!({
            "description": "Whether a call may pass arguments beyond `params` (the input schema then has no `additionalProperties: false`). Default false: a model that invents an argument has misread the tool. The importer sets it where the server's schema leaves the object open. Not with `input-schema`, which says it itself.",
            "type": "boolean",
            "default": false
        }),
        "input-schema" => json!({
            "type": "string",
            "contentMediaType": "application/json",
            "description": "Escape hatch: the tool's whole input as a JSON Schema object, kept exactly as written, instead of `params`. Use it only for inputs the type language cannot express (e.g. property names providers reject)."
        }),
        "output" => json!({
            "description": "Shape of a successful result, in the same type language as parameters.",
            "allOf": [
                {
                    "$ref": "#/definitions/typeSpec"
                }
            ]
        }),
        "lints" => json!({
            "description": "Lint levels for this row's own findings (`unnamed-need = \"allow\"`).",
            "allOf": [
                {
                    "$ref": "#/definitions/toolLints"
                }
            ]
        }),
        "upstream" => json!({
            "description": "The [[upstream]] that serves this tool, by its `name`; needs `upstream-digest`. Not on the search or ask tool.",
            "type": "string",
            "pattern": "^[a-z0-9_-]+$"
        }),
        "upstream-tool" => json!({
            "description": "The tool's name on the upstream, when the row's `name` differs from it (a prefix added on a collision). Only with `upstream`.",
            "type": "string",
            "minLength": 1
        }),
        "upstream-digest" => json!({
            "description": "The digest of the tool's definition as imported (RFC 8785 canonical JSON, SHA-256), written by the importer; the gateway compares it with what the server lists. Only with `upstream`.",
            "type": "string",
            "pattern": "^sha256:[0-9a-f]{64}$"
        }),
        _ => return None,
    })
}

/// The keys of a parameter or property: those of a type, with the field's own.
pub(super) fn param(key: &str) -> Option<Value> {
    Some(match key {
        "description" => json!({
            "description": "What this parameter or property means; shown to the model in the JSON Schema.",
            "type": "string"
        }),
        "required" => json!({
            "description": "Whether a call must supply it. Absent = required, unless `default` is given (then optional). `required = true` together with `default` is an error.",
            "type": "boolean"
        }),
        "default" => json!({
            "description": "Value used when a call leaves it out; must be of the declared type. Makes the parameter optional."
        }),
        "rust-name" => json!({
            "type": "string",
            "pattern": "^[A-Za-z_][A-Za-z0-9_]*$",
            "description": "The Rust field name, when the one derived from the JSON name collides with another field's (`dateRange` and `date_range`). An enum or object field's generated type is named after it too (`direction` in tool `listRows`: `ListRowsDirection`)."
        }),
        "header" => json!({
            "type": "string",
            "pattern": "^(?![Mm][Cc][Pp]-[Pp][Aa][Rr][Aa][Mm]-)[A-Za-z0-9!#$%&'*+.^_`|~-]+$",
            "description": "Mirrors the argument in an HTTP header for MCP clients (MCP 2026-07-28): listed as the property's `x-mcp-header`, so a client sends the value as `Mcp-Param-` and this name too (`header = \"Region\"`: `Mcp-Param-Region`), for proxies to route on without reading the body; the server refuses a call whose header and argument differ. An HTTP token without the `Mcp-Param-`, once per tool whatever its case; on a string, integer or boolean parameter, or a property reached through properties alone, of a row on MCP. Proxies log headers: mirror no secret."
        }),
        _ => return type_spec(key),
    })
}

/// The keys of a type (`items`, `output`).
pub(super) fn type_spec(key: &str) -> Option<Value> {
    Some(match key {
        "type" => json!({
            "description": "Kind of value. Give exactly one of `type` and `schema`.",
            "enum": TYPE_NAMES
        }),
        "description" => json!({
            "description": "What this value means; shown to the model in the JSON Schema.",
            "type": "string"
        }),
        "enum" => json!({
            "description": "The allowed values; only with type = \"string\".",
            "type": "array",
            "items": {
                "type": "string"
            },
            "minItems": 1,
            "uniqueItems": true
        }),
        "items" => json!({
            "description": "Type of each element; required with type = \"array\", not allowed otherwise.",
            "allOf": [
                {
                    "$ref": "#/definitions/typeSpec"
                }
            ]
        }),
        "properties" => json!({
            "description": "Named properties, in order; only with type = \"object\". An object without properties is a free-form JSON object.",
            "type": "object",
            "propertyNames": {
                "minLength": 1
            },
            "additionalProperties": {
                "$ref": "#/definitions/param"
            }
        }),
        "minimum" => json!({
            "description": "Inclusive lower bound; only with type = \"integer\" or \"number\".",
            "type": "number"
        }),
        "maximum" => json!({
            "description": "Inclusive upper bound; only with type = \"integer\" or \"number\".",
            "type": "number"
        }),
        "schema" => json!({
            "description": "Escape hatch: a raw JSON Schema, as a string holding JSON, used instead of type, enum, items, properties, minimum and maximum (description and, for a parameter or property, required and default stay allowed). Use it where a value may be of several types.",
            "type": "string",
            "minLength": 2,
            "contentMediaType": "application/json"
        }),
        _ => return None,
    })
}
