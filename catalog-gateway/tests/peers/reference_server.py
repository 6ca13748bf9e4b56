"""An MCP server, written with the official Python SDK, with the tools, prompts, resources,
resource template, completions and subscriptions that the MCP conformance suite's
scenarios call on its reference server, each answering as the scenario's description asks.
The gateway's conformance test imports it beside the filesystem server, so those scenarios
run through the gateway: what passes there is what the gateway passes on faithfully, what
the server sends back mid-call (log messages, progress, sampling and elicitation requests)
included. Over stdio.
"""

import json
from typing import Annotated

import anyio
from pydantic import Field

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import (
    AudioContent,
    CallToolResult,
    Completion,
    EmbeddedResource,
    EmptyResult,
    ImageContent,
    SamplingMessage,
    SubscribeRequestParams,
    TextContent,
    TextResourceContents,
    ToolAnnotations,
    UnsubscribeRequestParams,
)

# A 1x1 PNG and a WAV of one sample: the smallest valid media.
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
WAV = "UklGRiUAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQEAAACA"

server = MCPServer("conformance-reference")
# Every tool only answers: read-only, so the import makes it silent.
READS = ToolAnnotations(read_only_hint=True)


def image() -> ImageContent:
    return ImageContent(type="image", data=PNG, mime_type="image/png")


def embedded(uri: str, mime_type: str, text: str) -> EmbeddedResource:
    return EmbeddedResource(
        type="resource", resource=TextResourceContents(uri=uri, mime_type=mime_type, text=text)
    )


@server.tool(annotations=READS)
def test_simple_text() -> CallToolResult:
    """Returns a simple text."""
    return CallToolResult(content=[TextContent(type="text", text="This is a simple text response for testing.")])


@server.tool(annotations=READS)
def test_image_content() -> CallToolResult:
    """Returns an image."""
    return CallToolResult(content=[image()])


@server.tool(annotations=READS)
def test_audio_content() -> CallToolResult:
    """Returns a sound."""
    return CallToolResult(content=[AudioContent(type="audio", data=WAV, mime_type="audio/wav")])


@server.tool(annotations=READS)
def test_embedded_resource() -> CallToolResult:
    """Returns an embedded resource."""
    return CallToolResult(
        content=[embedded("test://embedded-resource", "text/plain", "This is an embedded resource content.")]
    )


@server.tool(annotations=READS)
def test_multiple_content_types() -> CallToolResult:
    """Returns a text, an image and an embedded resource."""
    return CallToolResult(
        content=[
            TextContent(type="text", text="Multiple content types test:"),
            image(),
            embedded("test://mixed-content-resource", "application/json", '{"test":"data","value":123}'),
        ]
    )


@server.tool(annotations=READS)
def test_error_handling() -> CallToolResult:
    """Always fails."""
    return CallToolResult(
        is_error=True,
        content=[TextContent(type="text", text="This tool intentionally returns an error for testing")],
    )


@server.tool(annotations=READS)
async def test_tool_with_logging(ctx: Context) -> str:
    """Sends three log messages while it runs."""
    for i, text in enumerate(["Tool execution started", "Tool processing data", "Tool execution completed"]):
        if i:
            await anyio.sleep(0.05)
        await ctx.log("info", text)
    return "Tool with logging executed successfully"


@server.tool(annotations=READS)
async def test_tool_with_progress(ctx: Context) -> str:
    """Reports its progress three times while it runs."""
    for i, done in enumerate([0, 50, 100]):
        if i:
            await anyio.sleep(0.05)
        await ctx.report_progress(done, 100)
    return "Tool with progress completed"


@server.tool(annotations=READS)
async def test_sampling(prompt: str, ctx: Context) -> str:
    """Asks the client's model to answer a prompt."""
    message = SamplingMessage(role="user", content=TextContent(type="text", text=prompt))
    result = await ctx.session.create_message(messages=[message], max_tokens=100)
    content = result.content if isinstance(result.content, list) else [result.content]
    text = "".join(block.text for block in content if isinstance(block, TextContent))
    return f"LLM response: {text}"


def answered(result) -> str:
    return f"action={result.action}, content={json.dumps(result.content or {})}"


@server.tool(annotations=READS)
async def test_elicitation(message: str, ctx: Context) -> str:
    """Asks the client's user for a user name and an email address."""
    schema = {
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"},
        },
        "required": ["username", "email"],
    }
    return f"User response: {answered(await ctx.session.elicit(message, schema))}"


@server.tool(annotations=READS)
async def test_elicitation_sep1034_defaults(ctx: Context) -> str:
    """Asks the client's user to review a form whose every field has a default."""
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "User name", "default": "John Doe"},
            "age": {"type": "integer", "description": "User age", "default": 30},
            "score": {"type": "number", "description": "User score", "default": 95.5},
            "status": {
                "type": "string",
                "description": "User status",
                "enum": ["active", "inactive", "pending"],
                "default": "active",
            },
            "verified": {"type": "boolean", "description": "Verification status", "default": True},
        },
        "required": [],
    }
    result = await ctx.session.elicit("Please review and update the form fields with defaults", schema)
    return f"Elicitation completed: {answered(result)}"


def titled(pairs: list[tuple[str, str]]) -> list[dict]:
    return [{"const": value, "title": title} for value, title in pairs]


@server.tool(annotations=READS)
async def test_elicitation_sep1330_enums(ctx: Context) -> str:
    """Asks the client's user to pick from each kind of list a form may hold."""
    schema = {
        "type": "object",
        "properties": {
            "untitledSingle": {
                "type": "string",
                "description": "Select one option",
                "enum": ["option1", "option2", "option3"],
            },
            "titledSingle": {
                "type": "string",
                "description": "Select one option with titles",
                "oneOf": titled([("value1", "First Option"), ("value2", "Second Option"), ("value3", "Third Option")]),
            },
            "legacyEnum": {
                "type": "string",
                "description": "Select one option (legacy)",
                "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"],
            },
            "untitledMulti": {
                "type": "array",
                "description": "Select multiple options",
                "minItems": 1,
                "maxItems": 3,
                "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
            },
            "titledMulti": {
                "type": "array",
                "description": "Select multiple options with titles",
                "minItems": 1,
                "maxItems": 3,
                "items": {
                    "anyOf": titled([("value1", "First Choice"), ("value2", "Second Choice"), ("value3", "Third Choice")])
                },
            },
        },
        "required": [],
    }
    result = await ctx.session.elicit("Please select options from the enum fields", schema)
    return f"Elicitation completed: {answered(result)}"


@server.prompt(name="test_simple_prompt", description="A simple prompt without arguments.")
def test_simple_prompt() -> str:
    return "This is a simple prompt for testing."


@server.prompt(name="test_prompt_with_arguments", description="A prompt with two arguments.")
def test_prompt_with_arguments(
    arg1: Annotated[str, Field(description="The first argument.")],
    arg2: Annotated[str, Field(description="The second argument.")],
) -> str:
    return f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"


@server.prompt(name="test_prompt_with_embedded_resource", description="A prompt that embeds a resource.")
def test_prompt_with_embedded_resource(
    resourceUri: Annotated[str, Field(description="The URI of the resource to embed.")],  # noqa: N803
) -> list:
    return [
        embedded(resourceUri, "text/plain", "Embedded resource content for testing."),
        "Please process the embedded resource above.",
    ]


@server.prompt(name="test_prompt_with_image", description="A prompt with an image.")
def test_prompt_with_image() -> list:
    return [image(), "Please analyze the image above."]


@server.resource("test://static-text", name="static-text", description="A static text.", mime_type="text/plain")
def static_text() -> str:
    return "This is the content of the static text resource."


@server.resource("test://static-binary", name="static-binary", description="A static image.", mime_type="image/png")
def static_binary() -> bytes:
    import base64

    return base64.b64decode(PNG)


@server.resource(
    "test://template/{id}/data", name="template", description="Data for an id.", mime_type="application/json"
)
def template(id: str) -> str:  # noqa: A002
    return f'{{"id":"{id}","templateTest":true,"data":"Data for ID: {id}"}}'


@server.resource(
    "test://watched-resource", name="watched-resource", description="A resource to subscribe to.", mime_type="text/plain"
)
def watched() -> str:
    return "Watched."


@server.completion()
async def complete(ref, argument, context) -> Completion:
    values = [v for v in ["paris", "park", "party", "test", "testing"] if v.startswith(argument.value)]
    return Completion(values=values, total=len(values), has_more=False)


async def subscribed(ctx, params: SubscribeRequestParams) -> EmptyResult:
    return EmptyResult()


async def unsubscribed(ctx, params: UnsubscribeRequestParams) -> EmptyResult:
    return EmptyResult()


# MCPServer (2.3.0) has no decorator for the 2025 subscriptions: its low-level server has.
server._lowlevel_server.add_request_handler("resources/subscribe", SubscribeRequestParams, subscribed)
server._lowlevel_server.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, unsubscribed)

server.run()
