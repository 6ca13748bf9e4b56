"""Cancellation both ways through a gateway over streamable HTTP, with the official MCP
Python SDK: `cancel.py URL TOKEN PREFIX MARKER` calls `PREFIX_wait` and gives up once the
server says it waits (the SDK tells the server so), then calls `PREFIX_withdraw`, whose server withdraws
the sampling request it makes while the client's model takes its time. It prints one JSON
object: whether the first call ended cancelled, whether the sampling callback was
cancelled (not left to finish), and what the second call returned.
"""

import asyncio
import json
import sys

import httpx2
import mcp.types as types
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def main() -> None:
    url, token, prefix, marker = sys.argv[1:5]
    seen = {"waited": None, "sampling": None, "withdraw": None}
    waiting = asyncio.Event()

    async def logging(params) -> None:
        if params.data == "waiting":
            waiting.set()

    async def sampling(ctx, params):
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            seen["sampling"] = "cancelled"
            raise
        seen["sampling"] = "finished"
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text="late"), model="m", stop_reason="endTurn"
        )

    headers = {"Authorization": f"Bearer {token}"}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=60.0)) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(
                read, write, sampling_callback=sampling, logging_callback=logging
            ) as session:
                await session.initialize()
                call = asyncio.create_task(session.call_tool(f"{prefix}_wait", {"marker": marker}))
                # Given up once the upstream runs it: before, there is nothing to cancel there.
                await asyncio.wait_for(waiting.wait(), 30)
                call.cancel()
                try:
                    await call
                    seen["waited"] = "answered"
                except asyncio.CancelledError:
                    seen["waited"] = "cancelled"
                result = await session.call_tool(f"{prefix}_withdraw", {})
                seen["withdraw"] = "".join(getattr(c, "text", "") for c in result.content)
                # The withdrawn question's callback has heard of it by now, or never will.
                await asyncio.sleep(0.5)
    print(json.dumps(seen))


asyncio.run(main())
