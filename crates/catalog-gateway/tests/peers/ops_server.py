"""An MCP server, written with the official Python SDK, for the gateway's operations
tests: `echo` reads (it answers its text), `note` writes (it appends its text to the file
NOTES). Over stdio.

`ops_server.py NOTES`
"""

import sys
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

notes = Path(sys.argv[1])
server = MCPServer("ops")


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def echo(text: str) -> str:
    """Answers with the text it is given."""
    return text


@server.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False))
def note(text: str) -> str:
    """Appends a line of text to the notes file."""
    with notes.open("a") as file:
        file.write(text + "\n")
    return "noted"


server.run()
