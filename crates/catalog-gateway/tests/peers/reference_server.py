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

import mcp_types as types
import anyio
from pydantic import Field

from mcp import MCPError
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


def one_field(name: str, kind: str) -> dict:
    return {"type": "object", "properties": {name: {"type": kind}}, "required": [name]}


def field(result, name: str) -> str:
    return str((result.content or {}).get(name, "")) if result.action == "accept" else ""


async def sample(ctx: Context, text: str, max_tokens: int) -> str:
    message = SamplingMessage(role="user", content=TextContent(type="text", text=text))
    result = await ctx.session.create_message(messages=[message], max_tokens=max_tokens)
    content = result.content if isinstance(result.content, list) else [result.content]
    return "".join(block.text for block in content if isinstance(block, TextContent)) or "no response"


# What the suite calls on 2026-07-28. On a connection of that revision these answer as the
# suite's own reference server does: with the questions they need answered (under keys a
# client may answer ahead by) and a state, read again from the retry. On an older one they
# ask mid-call, as a server of 2025-11-25 does, and the gateway makes each question one of
# the call's rounds for a client that is asked between rounds.


def modern(ctx: Context) -> bool:
    return (ctx.protocol_version or "") >= "2026-07-28"


def form(message: str, schema: dict) -> types.ElicitRequest:
    return types.ElicitRequest(params=types.ElicitRequestFormParams(message=message, requested_schema=schema))


def sampling(text: str, max_tokens: int) -> types.CreateMessageRequest:
    message = SamplingMessage(role="user", content=TextContent(type="text", text=text))
    return types.CreateMessageRequest(
        params=types.CreateMessageRequestParams(messages=[message], max_tokens=max_tokens)
    )


def roots_request() -> types.ListRootsRequest:
    return types.ListRootsRequest()


def answered_field(answer, name: str) -> str:
    content = answer.get("content") if isinstance(answer, dict) else None
    return str((content or {}).get(name, "")) if isinstance(answer, dict) and answer.get("action") == "accept" else ""


def said_text(answer) -> str:
    content = answer.get("content") if isinstance(answer, dict) else None
    if isinstance(content, dict) and isinstance(content.get("text"), str):
        return content["text"]
    return "no response"


def responses(ctx: Context) -> dict:
    """The answers the request brought, as MCP writes them (the SDK reads them into its types)."""
    plain = {}
    for key, answer in (ctx.input_responses or {}).items():
        plain[key] = answer.model_dump(by_alias=True, mode="json") if hasattr(answer, "model_dump") else answer
    return plain


def valid(answer) -> bool:
    if not isinstance(answer, dict):
        raise MCPError(code=-32602, message="inputResponses: each answer is the result its question's method returns")
    return True


@server.tool(annotations=READS)
async def test_missing_capability(ctx: Context) -> str:
    """Asks the client's model to say something: a client that offers no sampling cannot use it."""
    if modern(ctx) and not (ctx.client_capabilities and ctx.client_capabilities.sampling):
        raise MCPError(
            code=-32021,
            message="this tool needs the client's sampling capability",
            data={"requiredCapabilities": {"sampling": {}}},
        )
    return f"Success: {await sample(ctx, 'Say something.', 20)}"


@server.tool(annotations=READS)
async def test_input_required_result_elicitation(ctx: Context) -> str | types.InputRequiredResult:
    """Asks the user's name (question `user_name`) and greets them."""
    if modern(ctx):
        answer = responses(ctx).get("user_name")
        if answer is None:
            return types.InputRequiredResult(
                input_requests={"user_name": form("What is your name?", one_field("name", "string"))}
            )
        valid(answer)
        return f"Hello, {answered_field(answer, 'name')}!"
    answer = await ctx.session.elicit("What is your name?", one_field("name", "string"))
    return f"Hello, {field(answer, 'name')}!"


@server.tool(annotations=READS)
async def test_input_required_result_sampling(ctx: Context) -> str | types.InputRequiredResult:
    """Asks the client's model a question (`sample_request`) and answers with what it said."""
    if modern(ctx):
        answer = responses(ctx).get("sample_request")
        if answer is None:
            return types.InputRequiredResult(
                input_requests={"sample_request": sampling("What is the capital of France?", 100)}
            )
        valid(answer)
        return f"Sampling result: {said_text(answer)}"
    return f"Sampling result: {await sample(ctx, 'What is the capital of France?', 100)}"


@server.tool(annotations=READS)
async def test_input_required_result_list_roots(ctx: Context) -> str | types.InputRequiredResult:
    """Asks the client for its roots (`roots_request`) and counts them."""
    if modern(ctx):
        answer = responses(ctx).get("roots_request")
        if answer is None:
            return types.InputRequiredResult(input_requests={"roots_request": roots_request()})
        valid(answer)
        return f"Found {len(answer.get('roots') or [])} root(s)"
    roots = await ctx.session.list_roots()
    return f"Found {len(roots.roots)} root(s)"


async def confirmed(ctx: Context, kind: str, done: str) -> str | types.InputRequiredResult:
    if modern(ctx):
        answer = responses(ctx).get("confirm")
        if answer is None or ctx.request_state != kind:
            return types.InputRequiredResult(
                input_requests={"confirm": form("Please confirm", one_field("ok", "boolean"))},
                request_state=kind,
            )
        valid(answer)
        if answer.get("action") != "accept":
            raise ValueError("the user did not confirm")
        return done
    answer = await ctx.session.elicit("Please confirm", one_field("ok", "boolean"))
    if answer.action != "accept":
        raise ValueError("the user did not confirm")
    return done


@server.tool(annotations=READS)
async def test_input_required_result_request_state(ctx: Context) -> str | types.InputRequiredResult:
    """Asks the user to confirm (`confirm`), then says the state it was handed back held."""
    return await confirmed(ctx, "request-state", "state-ok: requestState validated")


@server.tool(annotations=READS)
async def test_input_required_result_multiple_inputs(ctx: Context) -> str | types.InputRequiredResult:
    """Asks for the user's name, a greeting from the model and the client's roots, all at once."""
    if modern(ctx):
        given = responses(ctx)
        keys = ("user_name", "greeting", "client_roots")
        if ctx.request_state != "multiple-inputs" or any(key not in given for key in keys):
            return types.InputRequiredResult(
                input_requests={
                    "user_name": form("What is your name?", one_field("name", "string")),
                    "greeting": sampling("Generate a greeting", 50),
                    "client_roots": roots_request(),
                },
                request_state="multiple-inputs",
            )
        for key in keys:
            valid(given[key])
        name = answered_field(given["user_name"], "name")
        roots = len(given["client_roots"].get("roots") or [])
        return f"Name: {name}; Greeting: {said_text(given['greeting'])}; Roots: {roots}"
    answers: dict = {}

    async def name() -> None:
        answers["name"] = field(await ctx.session.elicit("What is your name?", one_field("name", "string")), "name")

    async def greeting() -> None:
        answers["greeting"] = await sample(ctx, "Generate a greeting", 50)

    async def roots() -> None:
        answers["roots"] = len((await ctx.session.list_roots()).roots)

    async with anyio.create_task_group() as group:
        for ask in (name, greeting, roots):
            group.start_soon(ask)
    return f"Name: {answers['name']}; Greeting: {answers['greeting']}; Roots: {answers['roots']}"


@server.tool(annotations=READS)
async def test_input_required_result_multi_round(ctx: Context) -> str | types.InputRequiredResult:
    """Asks the user's name, then their favourite colour: two rounds."""
    if modern(ctx):
        given = responses(ctx)
        state = json.loads(ctx.request_state) if ctx.request_state else {}
        if state.get("round") == 1 and "step1" in given:
            valid(given["step1"])
            return types.InputRequiredResult(
                input_requests={
                    "step2": form("Step 2: What is your favorite color?", one_field("color", "string"))
                },
                request_state=json.dumps({"round": 2, "name": answered_field(given["step1"], "name")}),
            )
        if state.get("round") == 2 and "step2" in given:
            valid(given["step2"])
            return f"Multi-round complete for {state.get('name')} who likes {answered_field(given['step2'], 'color')}"
        return types.InputRequiredResult(
            input_requests={"step1": form("Step 1: What is your name?", one_field("name", "string"))},
            request_state=json.dumps({"round": 1}),
        )
    name = await ctx.session.elicit("Step 1: What is your name?", one_field("name", "string"))
    colour = await ctx.session.elicit("Step 2: What is your favorite color?", one_field("color", "string"))
    return f"Multi-round complete for {field(name, 'name')} who likes {field(colour, 'color')}"


@server.tool(annotations=READS)
async def test_input_required_result_tampered_state(ctx: Context) -> str | types.InputRequiredResult:
    """Asks the user to confirm (`confirm`); a retry whose state was changed is refused."""
    return await confirmed(ctx, "tamper-test", "integrity-ok: state verified")


@server.tool(annotations=READS)
async def test_input_required_result_capabilities(ctx: Context) -> str | types.InputRequiredResult:
    """Asks the client for what it declared it can give, and nothing else."""
    if modern(ctx):
        given = responses(ctx)
        if given:
            return f"capabilities-ok: received {','.join(sorted(given))}"
        declared = ctx.client_capabilities
        requests = {}
        if declared and declared.elicitation:
            requests["elicit_input"] = form("Elicitation input", one_field("value", "string"))
        if declared and declared.sampling:
            requests["sample_input"] = sampling("Sample request", 50)
        if not requests:
            return "No supported capabilities declared"
        return types.InputRequiredResult(input_requests=requests, request_state="capabilities-test")
    received = []

    async def value() -> None:
        try:
            answer = await ctx.session.elicit("Elicitation input", one_field("value", "string"))
            received.append(field(answer, "value"))
        except Exception:  # the client cannot be asked this
            pass

    async def sampled() -> None:
        try:
            received.append(await sample(ctx, "Sample request", 50))
        except Exception:  # the client cannot be asked this
            pass

    async with anyio.create_task_group() as group:
        group.start_soon(value)
        group.start_soon(sampled)
    return f"capabilities-ok: received {', '.join(received)}" if received else "No supported capabilities declared"


@server.tool(annotations=READS)
async def test_streaming_elicitation(ctx: Context) -> str | types.InputRequiredResult:
    """Reports progress, then asks the user to confirm."""
    await ctx.report_progress(50, 100)
    return await confirmed(ctx, "streaming", "Streaming complete")


@server.tool(annotations=READS)
async def test_logging_tool(ctx: Context) -> str:
    """Sends a log message, which reaches only a client that asked for log messages."""
    await ctx.log("info", "Logging tool ran")
    return "Logging tool completed"


@server.tool(annotations=READS)
def test_header_routing(
    region: Annotated[
        str,
        # A client over streamable HTTP also sends it as `Mcp-Param-Region` (2026-07-28).
        Field(description="The region to route the call to.", json_schema_extra={"x-mcp-header": "Region"}),
    ],
) -> str:
    """Says which region a call was routed to: a client sends the region as an HTTP header too."""
    return f"Routed to region {region}"


@server.tool(annotations=READS)
def test_volatile() -> str:
    """A tool that comes and goes: test_trigger_tool_change takes it away and brings it back."""
    return "Still here."


@server.tool(annotations=READS)
async def test_trigger_tool_change(ctx: Context) -> str:
    """Takes test_volatile away, or brings it back, and says the tools changed."""
    if any(tool.name == "test_volatile" for tool in server._tool_manager.list_tools()):
        server.remove_tool("test_volatile")
    else:
        server.add_tool(test_volatile, annotations=READS)
    if modern(ctx):
        await ctx.notify_tools_changed()
    else:
        await ctx.session.send_tool_list_changed()
    return "The tools changed."


@server.prompt(name="test_volatile_prompt", description="A prompt that comes and goes.")
def test_volatile_prompt() -> str:
    return "Still here."


@server.tool(annotations=READS)
async def test_trigger_prompt_change(ctx: Context) -> str:
    """Takes test_volatile_prompt away, or brings it back, and says the prompts changed."""
    if any(prompt.name == "test_volatile_prompt" for prompt in server._prompt_manager.list_prompts()):
        server.remove_prompt("test_volatile_prompt")
    else:
        server.add_prompt(volatile_prompt)
    if modern(ctx):
        await ctx.notify_prompts_changed()
    else:
        await ctx.session.send_prompt_list_changed()
    return "The prompts changed."


@server.prompt(name="test_input_required_result_prompt", description="A prompt that asks what context it should use first.")
async def test_input_required_result_prompt(ctx: Context) -> str:
    answer = await ctx.session.elicit("What context should the prompt use?", one_field("context", "string"))
    return f"Prompt with context: {field(answer, 'context')}"


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

# The prompt test_trigger_prompt_change brings back.
volatile_prompt = server._prompt_manager.get_prompt("test_volatile_prompt")

server.run()
