"""One client at one access level: initialize, list the tools, probe each tool named, then
make the calls it is given. Prints what it saw as JSON.

usage: conformance.py --probe NAMES_JSON [--calls STEPS_JSON] [--modern | --revision REV]
                      (--stdio BIN ARGS... | --http URL --token T)

NAMES_JSON: the tools to probe, e.g. every tool of the catalog, listed or not.
STEPS_JSON: [[label, tool, arguments], ...], reported under "calls" by label.
"""

import argparse
import json

import anyio

from peer import add_connection_args, call, connect, emit, run_steps, steps

# Fits no tool's input: every input schema is closed. A tool the level reaches answers
# "Invalid arguments"; one it does not reach answers with the level or "Unknown tool".
PROBE = {"catalogProbe": True}


async def main(args: argparse.Namespace) -> None:
    names = json.loads(args.probe)
    report = {}
    with anyio.fail_after(60):
        async with connect(args) as session:
            report["initialize"] = {
                "protocolVersion": session.protocol_version,
                "serverName": session.server_info.name if session.server_info else None,
                "tools": session.server_capabilities.tools is not None,
            }
            listed = await session.list_tools()
            report["listed"] = [
                {
                    "name": tool.name,
                    "description": tool.description,
                    "inputSchema": tool.input_schema,
                    "outputSchema": tool.output_schema,
                    "readOnlyHint": tool.annotations.read_only_hint if tool.annotations else None,
                    "destructiveHint": tool.annotations.destructive_hint if tool.annotations else None,
                    "openWorldHint": tool.annotations.open_world_hint if tool.annotations else None,
                }
                for tool in listed.tools
            ]
            report["probe"] = {name: await call(session, name, PROBE) for name in [*names, "noSuchTool"]}
            report["calls"] = await run_steps(session, steps(args.calls))
    emit(report)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--probe", required=True, help="JSON list of the tool names to probe")
    parser.add_argument("--calls", default="[]", help="JSON list of [label, tool, arguments]")
    add_connection_args(parser)
    anyio.run(main, parser.parse_args())
