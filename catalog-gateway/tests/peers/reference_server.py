"""An MCP server, written with the official Python SDK, with the tools, prompts, resources
and resource template that the MCP conformance suite's scenarios call on its reference
server, each answering as the scenario's description asks. The gateway's conformance test
imports it beside the filesystem server, so those scenarios run through the gateway: what
passes there is what the gateway passes on faithfully. Over stdio.

Only what a gateway forwards is here: the scenarios whose tools send logging, progress,
sampling or elicitation requests back mid-call, and completions, are listed as not passable
in `tests/peers/conformance.json` instead.
"""

from typing import Annotated

from pydantic import Field

from mcp.server.mcpserver import MCPServer
from mcp_types import (
    AudioContent,
    CallToolResult,
    EmbeddedResource,
    ImageContent,
    TextContent,
    TextResourceContents,
    ToolAnnotations,
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


server.run()
