"""A client of the catalog gateway, with the official MCP Python SDK.

`client.py PLAN COMMAND [ARGS...]` runs a plan of steps, given as JSON, against a gateway
it starts over stdio; `client.py PLAN --http URL TOKEN` against one serving streamable
HTTP; `client.py PLAN --oauth URL ISSUER CLIENT_ID SECRET` against one serving streamable
HTTP behind OAuth, the token got by the SDK's client-credentials provider (it reads the
gateway's protected-resource metadata, then the authorization server's). `--revision REV` right after PLAN opens the session at protocol revision REV (by
default the SDK's newest `initialize` revision). It prints one JSON list: what each step
saw. Steps:

- `{"revision": true}`: the protocol revision the session opened with;
- `{"list": true}`: the names `tools/list` answers;
- `{"definitions": true}`: the tools `tools/list` answers, whole, as the SDK reads them;
- `{"call": NAME, "arguments": {...}}`: the result (`isError`, text, structured content,
  the URIs of its resource links) or the JSON-RPC error (`code`, `message`); with `"meta": {...}`, the request's `_meta`
  (W3C `traceparent`, say);
- `{"wait_list_changed": SECONDS}`: waits for `notifications/tools/list_changed`;
- `{"prompts": true}`: the prompts `prompts/list` answers, whole, as the SDK reads them;
- `{"get_prompt": NAME, "arguments": {...}}`: the prompt's description and messages (each
  its role and text) or the JSON-RPC error;
- `{"resources": true}`, `{"templates": true}`: the resources `resources/list`, and the
  templates `resources/templates/list`, answer, whole, or the JSON-RPC error;
- `{"read": URI}`: the contents `resources/read` answers (each its URI and text, or
  `"blob": true` for binary content) or the JSON-RPC error;
- `{"wait_prompts_changed": SECONDS}`: waits for `notifications/prompts/list_changed`;
- `{"complete": PROMPT, "argument": {"name": NAME, "value": VALUE}}`: the values
  `completion/complete` proposes for the prompt's argument, or the JSON-RPC error.
"""

import asyncio
import json
import os
import sys

import httpx2
import mcp.types as types
from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client
from mcp_types.version import LATEST_HANDSHAKE_VERSION

TOOLS_CHANGED = "notifications/tools/list_changed"
PROMPTS_CHANGED = "notifications/prompts/list_changed"


async def main() -> None:
    plan = json.loads(sys.argv[1])
    command = sys.argv[2:]
    revision = LATEST_HANDSHAKE_VERSION
    if command[0] == "--revision":
        revision, command = command[1], command[2:]
    if command[0] == "--oauth":
        url, issuer, client_id, secret = command[1:5]
        auth = ClientCredentialsOAuthProvider(
            server_url=url,
            storage=MemoryStorage(),
            client_id=client_id,
            client_secret=secret,
            issuer=issuer,
        )
        timeout = httpx2.Timeout(30.0, read=60.0)
        async with httpx2.AsyncClient(auth=auth, timeout=timeout) as http:
            async with streamable_http_client(url, http_client=http) as (read, write):
                seen = await run(plan, revision, read, write)
    elif command[0] == "--http":
        headers = {"Authorization": f"Bearer {command[2]}"}
        timeout = httpx2.Timeout(30.0, read=60.0)
        async with httpx2.AsyncClient(headers=headers, timeout=timeout) as http:
            async with streamable_http_client(command[1], http_client=http) as (read, write):
                seen = await run(plan, revision, read, write)
    else:
        # The SDK starts the server with a few variables of its own choosing: the
        # gateway's log filter is passed on, for the tests that read its log.
        env = {"RUST_LOG": os.environ["RUST_LOG"]} if "RUST_LOG" in os.environ else None
        server = StdioServerParameters(command=command[0], args=command[1:], env=env)
        async with stdio_client(server) as (read, write):
            seen = await run(plan, revision, read, write)
    print(json.dumps(seen))


class MemoryStorage:
    """The SDK's token storage, in memory: one run, one token."""

    def __init__(self) -> None:
        self.tokens = None
        self.client = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens) -> None:
        self.tokens = tokens

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, client) -> None:
        self.client = client


async def run(plan: list, revision: str, read, write) -> list:
    # One flag per notification a step can wait for, set whenever it arrives.
    changed = {TOOLS_CHANGED: asyncio.Event(), PROMPTS_CHANGED: asyncio.Event()}

    async def on_message(message) -> None:
        method = getattr(message, "method", None) or getattr(getattr(message, "root", None), "method", None)
        if method in changed:
            changed[method].set()

    seen = []
    async with ClientSession(read, write, message_handler=on_message) as session:
        if revision == LATEST_HANDSHAKE_VERSION:
            await session.initialize()
        else:
            await initialize_at(session, revision)
        for step in plan:
            if "revision" in step:
                seen.append({"revision": session.protocol_version})
            elif "definitions" in step:
                tools = await session.list_tools()
                seen.append(
                    {"tools": [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in tools.tools]}
                )
            elif "list" in step:
                tools = await session.list_tools()
                seen.append({"tools": [t.name for t in tools.tools]})
            elif "call" in step:
                seen.append(await call(session, step["call"], step.get("arguments", {}), step.get("meta")))
            elif "wait_list_changed" in step:
                arrived = await wait(changed[TOOLS_CHANGED], step["wait_list_changed"])
                seen.append({"list_changed": arrived})
            elif "prompts" in step:
                seen.append(await listing(session.list_prompts, "prompts", "prompts"))
            elif "get_prompt" in step:
                seen.append(await get_prompt(session, step["get_prompt"], step.get("arguments", {})))
            elif "resources" in step:
                seen.append(await listing(session.list_resources, "resources", "resources"))
            elif "templates" in step:
                seen.append(await listing(session.list_resource_templates, "resource_templates", "templates"))
            elif "read" in step:
                seen.append(await read_resource(session, step["read"]))
            elif "wait_prompts_changed" in step:
                arrived = await wait(changed[PROMPTS_CHANGED], step["wait_prompts_changed"])
                seen.append({"prompts_changed": arrived})
            elif "complete" in step:
                seen.append(await complete(session, step["complete"], step["argument"]))
    return seen


async def wait(event: asyncio.Event, seconds: float) -> bool:
    """Whether `event` is set within `seconds`; cleared after, so a later wait needs a new
    notification."""
    try:
        await asyncio.wait_for(event.wait(), seconds)
        return True
    except asyncio.TimeoutError:
        return False
    finally:
        event.clear()


async def initialize_at(session: ClientSession, revision: str) -> None:
    """`initialize` asking for an older revision, which `session.initialize()` cannot: the
    same handshake through the session's public requests, then the result adopted."""
    params = types.InitializeRequestParams(
        protocol_version=revision,
        capabilities=types.ClientCapabilities(),
        client_info=types.Implementation(name="catalog-gateway-tests", version="0"),
    )
    result = await session.send_request(types.InitializeRequest(params=params), types.InitializeResult)
    session.adopt(result)
    await session.send_notification(types.InitializedNotification())


async def call(session: ClientSession, name: str, arguments: dict, meta: dict | None = None) -> dict:
    try:
        result = await session.call_tool(name, arguments, meta=meta)
    except MCPError as error:
        return rpc_error(error)
    text = "".join(getattr(c, "text", "") for c in result.content)
    links = [str(c.uri) for c in result.content if c.type == "resource_link"]
    return {"isError": bool(result.is_error), "text": text, "structured": result.structured_content, "links": links}


def rpc_error(error: MCPError) -> dict:
    return {"code": error.code, "message": error.message}


async def whole(list_page, field: str) -> list:
    """Every item of a paginated listing (following `nextCursor`), whole, as the SDK reads
    them."""
    items, cursor = [], None
    while True:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await list_page(params=params)
        items.extend(i.model_dump(by_alias=True, exclude_none=True, mode="json") for i in getattr(page, field))
        cursor = page.next_cursor
        if not cursor:
            return items


async def listing(list_page, field: str, key: str) -> dict:
    """`whole` under `key`, or the JSON-RPC error: a gateway may refuse a listing."""
    try:
        return {key: await whole(list_page, field)}
    except MCPError as error:
        return rpc_error(error)


async def get_prompt(session: ClientSession, name: str, arguments: dict) -> dict:
    try:
        result = await session.get_prompt(name, arguments)
    except MCPError as error:
        return rpc_error(error)
    messages = [{"role": m.role, "text": getattr(m.content, "text", None)} for m in result.messages]
    return {"messages": messages, "description": result.description}


async def complete(session: ClientSession, prompt: str, argument: dict) -> dict:
    try:
        result = await session.complete(types.PromptReference(type="ref/prompt", name=prompt), argument)
    except MCPError as error:
        return rpc_error(error)
    return {"values": result.completion.values}


async def read_resource(session: ClientSession, uri: str) -> dict:
    try:
        result = await session.read_resource(uri)
    except MCPError as error:
        return rpc_error(error)
    contents = []
    for c in result.contents:
        if isinstance(c, types.TextResourceContents):
            contents.append({"uri": str(c.uri), "text": c.text})
        else:
            # Binary content is reported, not decoded: the tests only need to see it came.
            contents.append({"uri": str(c.uri), "blob": True})
    return {"contents": contents}


asyncio.run(main())
