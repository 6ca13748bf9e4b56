"""Two clients of a gateway over streamable HTTP, with the official MCP Python SDK, calling
the same tools at the same time: `isolation.py URL TOKEN TOOL...` opens two sessions
(`alice` and `bob`, each answering sampling and forms with its own name), has each call
every TOOL with itself as the `caller` at once, and prints one JSON object: for each
client, what each call returned and everything it heard while they ran (log messages,
progress, what it was asked to sample and fill in).
"""

import asyncio
import json
import sys

import httpx2
import mcp.types as types
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def client(name: str, url: str, token: str, tools: list[str], start: asyncio.Event) -> dict:
    heard = {"logs": [], "progress": [], "sampled": [], "asked": [], "results": {}}

    async def sampling(ctx, params):
        heard["sampled"].append(params.messages[0].content.text)
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text=name), model="m", stop_reason="endTurn"
        )

    async def elicitation(ctx, params):
        heard["asked"].append(params.message)
        return types.ElicitResult(action="accept", content={"answer": name})

    async def logging(params) -> None:
        heard["logs"].append(str(params.data))

    headers = {"Authorization": f"Bearer {token}"}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=60.0)) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(
                read, write, sampling_callback=sampling, elicitation_callback=elicitation, logging_callback=logging
            ) as session:
                await session.initialize()
                await start.wait()

                async def call(tool: str) -> None:
                    async def progress(done, total, message):
                        heard["progress"].append(message)

                    result = await session.call_tool(tool, {"caller": name}, progress_callback=progress)
                    heard["results"][tool] = "".join(getattr(c, "text", "") for c in result.content)

                await asyncio.gather(*(call(tool) for tool in tools))
    return heard


async def main() -> None:
    url, token, tools = sys.argv[1], sys.argv[2], sys.argv[3:]
    start = asyncio.Event()
    both = asyncio.gather(*(client(name, url, token, tools, start) for name in ("alice", "bob")))
    # Both sessions open before either calls, so the calls overlap.
    await asyncio.sleep(1.0)
    start.set()
    alice, bob = await both
    print(json.dumps({"alice": alice, "bob": bob}))


asyncio.run(main())
