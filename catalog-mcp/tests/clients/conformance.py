"""One client at one access level: initialize, list, probe every tool, read, stage, fail,
try to commit. Prints what it saw as JSON.

usage: conformance.py --tools NAMES_JSON --tag TAG [--modern] (--stdio BIN ARGS... | --http URL --token T)
"""

import argparse
import json

import anyio

from peer import add_connection_args, call, connect, emit

# Fits no tool's input: every input schema is closed. A tool the level reaches answers
# "Invalid arguments"; one it does not reach answers with the level or "Unknown tool".
PROBE = {"catalogProbe": True}


async def staged(session) -> list:
    return (await call(session, "showStaging", {"openPanel": False}))["content"]


async def main(args: argparse.Namespace) -> None:
    names = json.loads(args.tools)
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
                }
                for tool in listed.tools
            ]
            report["probe"] = {name: await call(session, name, PROBE) for name in [*names, "noSuchTool"]}

            report["listTables"] = await call(session, "listTables", {})
            report["queryRows"] = await call(session, "queryRows", {"table": "customers", "limit": 2})
            report["badArguments"] = await call(session, "queryRows", {"table": 5, "limit": 0})

            name = f"Conformance {args.tag}"
            before = await staged(session)
            report["stageItem"] = await call(
                session,
                "stageItem",
                {"table": "customers", "operation": "insert", "values": {"name": name, "city": "Munich", "country": "DE"}},
            )
            after_stage = await staged(session)
            report["stagedBefore"] = before
            report["stagedAfterStage"] = after_stage
            report["failedStage"] = await call(
                session, "stageItem", {"table": "noSuchTable", "operation": "insert", "values": {"name": "x"}}
            )
            report["stagedAfterFailure"] = await staged(session)
            report["commitStaged"] = await call(session, "commitStaged", {"message": "from " + args.tag})
            report["stagedAfterCommit"] = await staged(session)
            rows = await call(
                session,
                "queryRows",
                {"table": "customers", "filter": {"conditions": [{"column": "name", "op": "eq", "value": name}]}},
            )
            report["committedRows"] = rows["content"]["totalMatching"]
    emit(report)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", required=True, help="JSON list of every tool name in the catalog")
    parser.add_argument("--tag", required=True, help="marks what this client stages")
    add_connection_args(parser)
    anyio.run(main, parser.parse_args())
