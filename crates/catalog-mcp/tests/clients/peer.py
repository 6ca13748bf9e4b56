"""Connecting to a catalog-mcp server with the official MCP Python SDK, and recording what
it answers.

Every script here prints one JSON object on stdout: what the client saw. The scripts know
no catalog: the Rust tests that run them say which tools to call with what (as JSON
arguments), and compare what comes back with the catalog's generated tables.
"""

import argparse
import contextlib
import json
import sys
from typing import Any

import httpx2
import mcp.types as types
from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client
from mcp.client.session import ClientRequestContext
from mcp.client.streamable_http import streamable_http_client
from mcp_types.version import LATEST_HANDSHAKE_VERSION


def add_connection_args(parser: argparse.ArgumentParser) -> None:
    """--stdio BIN [ARG...] or --http URL --token TOKEN."""
    parser.add_argument("--http", help="the server's MCP endpoint URL")
    parser.add_argument("--token", help="the bearer token for --http")
    parser.add_argument(
        "--modern", action="store_true", help="open with server/discover (2026-07-28) instead of initialize"
    )
    parser.add_argument(
        "--revision",
        default=LATEST_HANDSHAKE_VERSION,
        help="the protocol revision `initialize` asks for (default: the SDK's newest, %(default)s)",
    )
    parser.add_argument("--stdio", nargs=argparse.REMAINDER, help="the server command and its arguments")


async def open_session(args: argparse.Namespace, session: ClientSession) -> None:
    if getattr(args, "modern", False):
        await session.discover()
    elif args.revision == LATEST_HANDSHAKE_VERSION:
        await session.initialize()
    else:
        await initialize_at(session, args.revision)


async def initialize_at(session: ClientSession, revision: str) -> None:
    """`initialize` asking for an older revision, which `session.initialize()` cannot: the
    same handshake through the session's public requests, then the result adopted."""
    params = types.InitializeRequestParams(
        protocol_version=revision,
        capabilities=types.ClientCapabilities(),
        client_info=types.Implementation(name="catalog-tests", version="0"),
    )
    result = await session.send_request(types.InitializeRequest(params=params), types.InitializeResult)
    session.adopt(result)
    await session.send_notification(types.InitializedNotification())


@contextlib.asynccontextmanager
async def connect(args: argparse.Namespace, **session_options: Any):
    """An initialized ClientSession over the transport the arguments name."""
    if args.stdio:
        server = StdioServerParameters(command=args.stdio[0], args=args.stdio[1:])
        async with stdio_client(server) as (read, write):
            async with ClientSession(read, write, **session_options) as session:
                await open_session(args, session)
                yield session
    else:
        headers = {"Authorization": f"Bearer {args.token}"}
        timeout = httpx2.Timeout(30.0, read=120.0)
        async with httpx2.AsyncClient(headers=headers, timeout=timeout) as http:
            async with streamable_http_client(args.http, http_client=http) as (read, write):
                async with ClientSession(read, write, **session_options) as session:
                    await open_session(args, session)
                    yield session


# As many rounds of input-required results as a client follows before it gives up (the
# SDK's own default).
MAX_ROUNDS = 10


async def call(session: ClientSession, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A tools/call as data: the result, or the JSON-RPC error.

    On 2026-07-28 a server asks by answering with an input-required result: each request
    in it goes to this client's own callbacks (the elicitation callback for a question),
    then the call is made again with the answers and the echoed state, as the SDK's Client
    does. The report says how many rounds that took, when it took any.
    """
    rounds = 0
    try:
        result = await session.call_tool(name, arguments, allow_input_required=True)
        while isinstance(result, types.InputRequiredResult):
            rounds += 1
            if rounds > MAX_ROUNDS:
                raise RuntimeError(f"{name}: still input-required after {MAX_ROUNDS} rounds")
            answers = {}
            for key, request in (result.input_requests or {}).items():
                context = ClientRequestContext(session=session, request_id=key)
                answer = await session.dispatch_input_request(context, request)
                if isinstance(answer, types.ErrorData):
                    raise MCPError.from_error_data(answer)
                answers[key] = answer
            result = await session.call_tool(
                name,
                arguments,
                input_responses=answers,
                request_state=result.request_state,
                allow_input_required=True,
            )
    except MCPError as error:
        return {"error": {"code": error.code, "message": error.message, "data": error.data}}
    text = "".join(block.text for block in result.content if block.type == "text")
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = text
    outcome = {
        "isError": bool(result.is_error),
        "content": parsed,
        "structuredContent": result.structured_content,
    }
    if rounds:
        outcome["inputRounds"] = rounds
    return outcome


def steps(text: str) -> list[tuple[str, str, dict[str, Any]]]:
    """Calls to make, as JSON: [[label, tool, arguments], ...]."""
    return [(label, tool, arguments) for label, tool, arguments in json.loads(text)]


async def run_steps(session: ClientSession, calls: list[tuple[str, str, dict[str, Any]]]) -> dict[str, Any]:
    """Makes the calls in order; what each got, by label."""
    return {label: await call(session, tool, arguments) for label, tool, arguments in calls}


def emit(report: dict[str, Any]) -> None:
    json.dump(report, sys.stdout)
    sys.stdout.write("\n")
    sys.stdout.flush()
