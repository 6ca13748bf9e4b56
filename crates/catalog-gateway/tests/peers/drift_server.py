"""An MCP server, written with the official Python SDK, whose `echo` tool changes on
request: the drift cases of the gateway's tests.

`drift_server.py STATE [PORT]`: `echo`'s description is read from the file STATE when the
server starts; `reword` writes a new one there, re-registers `echo` with it and announces
`notifications/tools/list_changed`, as a server that changes a tool after review would.
Over stdio, or streamable HTTP at http://127.0.0.1:PORT/mcp when PORT is given.
"""

import sys
from pathlib import Path

from mcp.server.mcpserver import Context, MCPServer

state = Path(sys.argv[1])
server = MCPServer("drift")


def echo(text: str) -> str:
    return text


def register_echo(description: str) -> None:
    server.add_tool(echo, name="echo", description=description)


@server.tool()
async def reword(description: str, ctx: Context) -> str:
    """Gives `echo` a new description."""
    state.write_text(description)
    server.remove_tool("echo")
    register_echo(description)
    await ctx.session.send_tool_list_changed()
    return "reworded"


register_echo(state.read_text())
if len(sys.argv) > 2:
    server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
else:
    server.run()
