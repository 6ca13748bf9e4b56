"""An MCP server, written with the official Python SDK, whose tools talk back to the
client that called them while they run. `PREFIX_chatter` sends log messages, progress, a
sampling request and a form, each naming the caller the call was made for: the gateway's
isolation test has two clients call it at once and checks that each hears only its own.
`PREFIX_wait` says it waits, then waits until it is cancelled, and writes `cancelled` to
a file then;
`PREFIX_withdraw` asks the client's model, and withdraws the question when no answer
comes within half a second: the cancellation test's.

`chatty_server.py PREFIX` serves them over stdio; `chatty_server.py PREFIX --http PORT`
over streamable HTTP at `http://127.0.0.1:PORT/mcp`.
"""

import sys

import anyio

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import SamplingMessage, TextContent

prefix = sys.argv[1]
server = MCPServer(f"chatty-{prefix}")


@server.tool(name=f"{prefix}_chatter")
async def chatter(caller: str, ctx: Context) -> str:
    """Talks back to the caller while it runs, then says what the caller answered."""
    for i in range(3):
        await ctx.log("info", f"{caller} log {i}")
        await ctx.report_progress(i + 1, 3, f"{caller} progress {i}")
        await anyio.sleep(0.05)
    message = SamplingMessage(role="user", content=TextContent(type="text", text=f"{caller} sample"))
    sampled = await ctx.session.create_message(messages=[message], max_tokens=10)
    schema = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}
    asked = await ctx.session.elicit(f"{caller} question", schema)
    text = sampled.content.text if isinstance(sampled.content, TextContent) else "?"
    return f"{caller}: sampled {text}, answered {(asked.content or {}).get('answer')}"


@server.tool(name=f"{prefix}_wait")
async def wait(marker: str, ctx: Context) -> str:
    """Says it is waiting, then waits a minute, or until the call is cancelled."""
    await ctx.log("info", "waiting")
    try:
        await anyio.sleep(60)
    except anyio.get_cancelled_exc_class():
        with open(marker, "w") as file:
            file.write("cancelled")
        raise
    return "waited"


@server.tool(name=f"{prefix}_withdraw")
async def withdraw(ctx: Context) -> str:
    """Asks the client's model, and withdraws the question after half a second."""
    message = SamplingMessage(role="user", content=TextContent(type="text", text="take your time"))
    with anyio.move_on_after(0.5):
        await ctx.session.create_message(messages=[message], max_tokens=10)
        return "answered"
    return "withdrawn"


if len(sys.argv) > 2 and sys.argv[2] == "--http":
    server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[3]))
else:
    server.run()
