"""A client of gateway replicas behind a load balancer, with the official MCP Python SDK.

`replica_client.py session URL TOKEN` holds one session (streamable HTTP, the SDK's
newest `initialize` revision) and answers steps read from standard input, one JSON
object a line, with one JSON line each, so the caller can act between steps (stop a
replica):

- `{"list": true}`: the names `tools/list` answers, or the error;
- `{"call": NAME, "arguments": {...}}`: the result (`isError`, text, structured
  content) or the error;
- `{"http": true}`: what went over HTTP so far: how many `initialize` requests were
  sent, the session ids the requests carried, and the statuses of the answers.

It ends (ending the session with DELETE) at the end of its input.

`replica_client.py load URL TOKEN SESSIONS CALLS` opens SESSIONS sessions at once; each
searches for the time tool, then calls `get_current_time` CALLS times in a row. It
prints `{"calls": N, "failed": F, "seconds": S, "calls_per_second": R}`, timing the calls
only.
"""

import asyncio
import json
import sys
import time

import httpx2
from mcp import ClientSession, MCPError
from mcp.client.streamable_http import streamable_http_client

SEARCH = {"query": "current time in a timezone"}
CALL = {"timezone": "UTC"}


class Wire:
    """What the session sent and got over HTTP, from the HTTP client's hooks."""

    def __init__(self) -> None:
        self.initialize = 0
        self.session_ids: list[str] = []
        self.statuses: dict[str, int] = {}

    async def on_request(self, request) -> None:
        if request.method == "POST":
            try:
                body = json.loads(request.content or b"{}")
            except ValueError:
                body = {}
            if isinstance(body, dict) and body.get("method") == "initialize":
                self.initialize += 1
        sent = request.headers.get("mcp-session-id")
        if sent and sent not in self.session_ids:
            self.session_ids.append(sent)

    async def on_response(self, response) -> None:
        key = f"{response.request.method} {response.status_code}"
        self.statuses[key] = self.statuses.get(key, 0) + 1

    def report(self) -> dict:
        return {"initialize": self.initialize, "session_ids": self.session_ids, "statuses": self.statuses}


def client(token: str, wire: Wire | None = None) -> httpx2.AsyncClient:
    hooks = {"request": [wire.on_request], "response": [wire.on_response]} if wire else {}
    return httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {token}"},
        timeout=httpx2.Timeout(30.0, read=60.0),
        event_hooks=hooks,
    )


async def step(session: ClientSession, wire: Wire, line: dict) -> dict:
    try:
        if "list" in line:
            tools = await session.list_tools()
            return {"tools": [t.name for t in tools.tools]}
        if "call" in line:
            result = await session.call_tool(line["call"], line.get("arguments", {}))
            text = "".join(getattr(c, "text", "") for c in result.content)
            return {"isError": bool(result.is_error), "text": text, "structured": result.structured_content}
        if "http" in line:
            return wire.report()
        return {"unknown step": line}
    except MCPError as error:
        return {"code": error.code, "message": error.message}
    except Exception as error:  # noqa: BLE001: the caller asserts on what failed
        return {"failed": f"{type(error).__name__}: {error}"}


async def hold(url: str, token: str) -> None:
    wire = Wire()
    async with client(token, wire) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                while True:
                    line = await asyncio.to_thread(sys.stdin.readline)
                    if not line.strip():
                        break
                    answer = await step(session, wire, json.loads(line))
                    print(json.dumps(answer), flush=True)


async def one_session(url: str, token: str, calls: int, ready: asyncio.Barrier) -> tuple[int, int, float]:
    async with client(token) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await session.call_tool("searchTools", SEARCH)
                await ready.wait()
                failed = 0
                for _ in range(calls):
                    try:
                        result = await session.call_tool("get_current_time", CALL)
                        failed += bool(result.is_error)
                    except MCPError:
                        failed += 1
                return calls, failed, time.perf_counter()


async def load(url: str, token: str, sessions: int, calls: int) -> None:
    # Every session open and searched before the clock starts.
    ready = asyncio.Barrier(sessions + 1)
    tasks = [asyncio.create_task(one_session(url, token, calls, ready)) for _ in range(sessions)]
    await ready.wait()
    begun = time.perf_counter()
    done = await asyncio.gather(*tasks)
    seconds = max(d[2] for d in done) - begun
    total = sum(d[0] for d in done)
    print(
        json.dumps(
            {
                "calls": total,
                "failed": sum(d[1] for d in done),
                "seconds": round(seconds, 3),
                "calls_per_second": round(total / seconds, 1),
            }
        )
    )


def main() -> None:
    mode, url, token = sys.argv[1:4]
    if mode == "session":
        asyncio.run(hold(url, token))
    else:
        asyncio.run(load(url, token, int(sys.argv[4]), int(sys.argv[5])))


if __name__ == "__main__":
    main()
