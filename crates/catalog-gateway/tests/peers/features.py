"""Every feature of a server that exercises all of MCP, as the official Python SDK sees it:
`features.py COMMAND [ARGS...]` runs the server (or a gateway in front of it) over stdio,
`features.py --http URL TOKEN` reaches one over streamable HTTP. The client declares
sampling (with tools), elicitation (forms and URLs) and roots, and answers each callback
the same way every run. It prints one JSON object: for each feature, what came back
(results, errors, notifications, and what each callback was asked), with what differs
from run to run taken out (times, generated ids), so that two runs against servers that
behave alike print the same object.

The features are those of `@modelcontextprotocol/server-everything` that a client of the
SDK reaches: its tools, prompts, resources, templates, completions, subscriptions, log
messages, progress, and the sampling, elicitation and roots it asks of the client.

Two things are not the server's and are left out: the progress token of a request made of
the client (each leg of the way gives its own, as it gives its own request ids), and a
gateway's own log messages (logger `catalog_...`), which a client that asks for debug
messages gets beside the server's.
"""

import asyncio
import base64
import json
import re
import sys

import httpx2
import mcp.types as types
from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

# A time in a resource's text: `created at 3:28:23 AM`.
TIME = re.compile(r"created at [0-9:.]+( ?[AP]M)?")
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def steady(value):
    """`value` with what changes from run to run replaced: times, UUIDs, blobs."""
    if isinstance(value, str):
        return UUID.sub("<uuid>", TIME.sub("created at <time>", value))
    if isinstance(value, list):
        return [steady(v) for v in value]
    if isinstance(value, dict):
        return {k: ("<blob>" if k == "blob" else steady(v)) for k, v in value.items()}
    return value


def dump(model) -> dict:
    return model.model_dump(by_alias=True, exclude_none=True, mode="json")


def asked(params) -> dict:
    """A request's params as the client was asked them, but for the leg's progress token."""
    params = dump(params)
    meta = params.pop("_meta", {})
    meta.pop("progressToken", None)
    if meta:
        params["_meta"] = meta
    return params


class Client:
    """The callbacks, each recording what it was asked."""

    def __init__(self) -> None:
        self.asked: list = []
        self.logs: list = []
        self.updated: list = []
        self.roots = [types.Root(uri="file:///probe/a", name="a")]

    async def sampling(self, ctx, params):
        self.asked.append({"sampling": asked(params)})
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="sampled"),
            model="probe-model",
            stop_reason="endTurn",
        )

    async def elicitation(self, ctx, params):
        self.asked.append({"elicitation": asked(params)})
        if params.mode == "url":
            return types.ElicitResult(action="accept")
        properties = params.requested_schema.get("properties", {})
        content = {}
        for name, field in properties.items():
            if "default" in field:
                content[name] = field["default"]
            elif "enum" in field:
                content[name] = field["enum"][0]
            elif field.get("type") == "boolean":
                content[name] = True
            elif field.get("type") in ("integer", "number"):
                content[name] = field.get("minimum", 1)
            elif field.get("type") == "array":
                items = field.get("items", {})
                first = items.get("enum", [None])[0] or items.get("anyOf", [{}])[0].get("const")
                content[name] = [first]
            elif "oneOf" in field:
                content[name] = field["oneOf"][0]["const"]
            else:
                content[name] = {"email": "probe@example.com", "uri": "https://example.com", "date": "2026-01-01"}.get(
                    field.get("format"), "probe"
                )
        return types.ElicitResult(action="accept", content=content)

    async def list_roots(self, ctx):
        self.asked.append({"roots": True})
        return types.ListRootsResult(roots=self.roots)

    async def logging(self, params) -> None:
        if (params.logger or "").startswith("catalog_"):
            return
        self.logs.append({"level": params.level, "logger": params.logger, "data": params.data})

    async def message(self, message) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            self.updated.append(str(message.params.uri))

    def take(self) -> dict:
        """What the callbacks saw since the last take."""
        seen = {"asked": self.asked, "logs": self.logs, "updated": self.updated}
        self.asked, self.logs, self.updated = [], [], []
        return seen


def outcome(result) -> dict:
    return {
        "isError": bool(result.is_error),
        "content": [dump(block) for block in result.content],
        "structured": result.structured_content,
    }


def failure(error: MCPError) -> dict:
    return {"error": error.code, "message": error.message, "data": error.error.data}


async def call(session, name: str, arguments: dict, **options) -> dict:
    try:
        return outcome(await session.call_tool(name, arguments, **options))
    except MCPError as error:
        return failure(error)


async def features(session: ClientSession, client: Client) -> dict:
    seen = {}

    async def feature(name: str, work) -> None:
        try:
            observed = await work()
        except MCPError as error:
            observed = failure(error)
        extra = client.take()
        seen[name] = steady({"observed": observed, **{k: v for k, v in extra.items() if v}})

    # The log messages the server sends on its own at start (roots, say) are not a
    # feature's: wait for them to pass.
    await asyncio.sleep(1.0)
    client.take()

    async def tools():
        listed = await session.list_tools()
        return sorted(
            [{k: v for k, v in dump(t).items() if k in ("name", "inputSchema", "outputSchema")} for t in listed.tools],
            key=lambda t: t["name"],
        )

    await feature("tools/list", tools)
    async def ping():
        return dump(await session.send_ping())

    await feature("ping", ping)
    await feature("echo", lambda: call(session, "echo", {"message": "hello"}))
    await feature("get-sum", lambda: call(session, "get-sum", {"a": 2, "b": 40}))
    await feature(
        "get-annotated-message",
        lambda: call(session, "get-annotated-message", {"messageType": "error", "includeImage": True}),
    )
    await feature("get-tiny-image", lambda: call(session, "get-tiny-image", {}))
    await feature("get-resource-links", lambda: call(session, "get-resource-links", {"count": 3}))
    await feature(
        "get-resource-reference",
        lambda: call(session, "get-resource-reference", {"resourceType": "Text", "resourceId": 7}),
    )
    await feature("get-structured-content", lambda: call(session, "get-structured-content", {"location": "Chicago"}))

    async def progress():
        reports = []

        async def report(progress, total, message):
            reports.append([progress, total, message])

        result = await call(
            session, "trigger-long-running-operation", {"duration": 0.3, "steps": 3}, progress_callback=report
        )
        return {"result": result, "progress": reports}

    await feature("progress", progress)
    await feature(
        "sampling", lambda: call(session, "trigger-sampling-request", {"prompt": "Say hi", "maxTokens": 50})
    )
    await feature("elicitation (form)", lambda: call(session, "trigger-elicitation-request", {}))
    await feature(
        "elicitation (url)",
        lambda: call(
            session,
            "trigger-url-elicitation",
            {"url": "https://example.com/sign-in", "elicitationId": "probe-1"},
        ),
    )
    await feature(
        "url elicitation required (-32042)",
        lambda: call(
            session,
            "trigger-url-elicitation",
            {"url": "https://example.com/pay", "elicitationId": "probe-2", "errorPath": True},
        ),
    )
    await feature("roots", lambda: call(session, "get-roots-list", {}))

    async def roots_changed():
        client.roots = client.roots + [types.Root(uri="file:///probe/b", name="b")]
        await session.send_roots_list_changed()
        await asyncio.sleep(0.5)
        return await call(session, "get-roots-list", {})

    await feature("roots/list_changed", roots_changed)

    async def logging():
        await session.set_logging_level("debug")
        started = await call(session, "toggle-simulated-logging", {})
        await asyncio.sleep(0.3)
        stopped = await call(session, "toggle-simulated-logging", {})
        # The levels are the server's random pick: that messages came, at known levels.
        levels = {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
        logs = client.logs
        client.logs = []
        return {
            "started": started,
            "stopped": stopped,
            "messages": bool(logs) and all(log["level"] in levels for log in logs),
        }

    await feature("logging", logging)

    async def subscriptions():
        uri = "demo://resource/dynamic/text/1"
        await session.subscribe_resource(uri)
        started = await call(session, "toggle-subscriber-updates", {})
        await asyncio.sleep(0.3)
        stopped = await call(session, "toggle-subscriber-updates", {})
        await session.unsubscribe_resource(uri)
        updated = sorted(set(client.updated))
        client.updated = []
        client.logs = [log for log in client.logs if "Subscribe" not in str(log["data"])]
        return {"started": started, "stopped": stopped, "updated": updated}

    await feature("resources/subscribe", subscriptions)

    async def prompts():
        return [dump(p) for p in (await session.list_prompts()).prompts]

    await feature("prompts/list", prompts)
    await feature("prompts/get simple", lambda: prompt(session, "simple-prompt", {}))
    await feature("prompts/get with arguments", lambda: prompt(session, "args-prompt", {"city": "Paris", "state": "TX"}))
    await feature(
        "prompts/get with a resource", lambda: prompt(session, "resource-prompt", {"resourceType": "Text", "resourceId": "3"})
    )

    async def complete(ref, argument, context=None):
        result = await session.complete(ref, argument, context_arguments=context)
        return dump(result.completion)

    department = types.PromptReference(type="ref/prompt", name="completable-prompt")
    await feature("completion (prompt)", lambda: complete(department, {"name": "department", "value": "E"}))
    await feature(
        "completion (with context)",
        lambda: complete(department, {"name": "name", "value": ""}, {"department": "Sales"}),
    )
    template = types.ResourceTemplateReference(type="ref/resource", uri="demo://resource/dynamic/text/{resourceId}")
    await feature("completion (template)", lambda: complete(template, {"name": "resourceId", "value": "12"}))

    async def resources():
        return sorted(str(r.uri) for r in (await session.list_resources()).resources)

    async def templates():
        return [dump(t) for t in (await session.list_resource_templates()).resource_templates]

    await feature("resources/list", resources)
    await feature("resources/templates/list", templates)
    await feature("resources/read (static)", lambda: read(session, "demo://resource/static/document/features.md"))
    await feature("resources/read (template)", lambda: read(session, "demo://resource/dynamic/text/5"))
    await feature("resources/read (blob)", lambda: read(session, "demo://resource/dynamic/blob/6"))

    async def linked():
        data = "data:text/plain;base64," + base64.b64encode(b"probe").decode()
        result = await call(
            session, "gzip-file-as-resource", {"name": "probe.txt.gz", "data": data, "outputType": "resourceLink"}
        )
        links = [b["uri"] for b in result.get("content", []) if b.get("type") == "resource_link"]
        contents = await read(session, links[0]) if links else None
        return {"result": result, "read": contents}

    await feature("resource link to a resource of the session", linked)
    await feature("task-only tool called plainly", lambda: call(session, "simulate-research-query", {"topic": "probe"}))
    return seen


async def prompt(session, name: str, arguments: dict) -> dict:
    result = await session.get_prompt(name, arguments)
    return [dump(m) for m in result.messages]


async def read(session, uri: str) -> list:
    result = await session.read_resource(uri)
    return [dump(c) for c in result.contents]


async def main() -> None:
    command = sys.argv[1:]
    client = Client()

    async def run(read, write) -> dict:
        async with ClientSession(
            read,
            write,
            sampling_callback=client.sampling,
            sampling_capabilities=types.SamplingCapability(tools=types.SamplingToolsCapability()),
            elicitation_callback=client.elicitation,
            list_roots_callback=client.list_roots,
            logging_callback=client.logging,
            message_handler=client.message,
        ) as session:
            await session.initialize()
            return await features(session, client)

    if command[0] == "--http":
        headers = {"Authorization": f"Bearer {command[2]}"}
        timeout = httpx2.Timeout(30.0, read=60.0)
        async with httpx2.AsyncClient(headers=headers, timeout=timeout) as http:
            async with streamable_http_client(command[1], http_client=http) as (read, write):
                seen = await run(read, write)
    else:
        server = StdioServerParameters(command=command[0], args=command[1:])
        async with stdio_client(server) as (read, write):
            seen = await run(read, write)
    print(json.dumps(seen))


asyncio.run(main())
