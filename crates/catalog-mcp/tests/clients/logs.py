"""A client that asks for the server's log messages at one level and records them while it
makes the calls it is given.

usage: logs.py --level LEVEL|none --calls STEPS_JSON [--modern | --revision REV]
               (--stdio BIN ARGS... | --http URL --token T)

Up to 2025-11-25 the level is set for the session with `logging/setLevel`; on 2026-07-28
(`--modern`) the SDK names it in each request's `_meta`, and `logging/setLevel` is tried
anyway to record that the server refuses it. Reports the calls by label, the answer to
`logging/setLevel`, and every `notifications/message` as it came: level, logger, data,
and the label of the call it came during. `none` asks for no messages at all.
"""

import argparse

import anyio
import mcp.types as types
from mcp import MCPError

from peer import add_connection_args, call, connect, emit, steps


async def main(args: argparse.Namespace) -> None:
    messages = []
    current = {"label": None}

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        messages.append(
            {"level": params.level, "logger": params.logger, "data": params.data, "during": current["label"]}
        )

    asking = args.level != "none"
    options = {"logging_callback": on_log}
    if args.modern and asking:
        options["log_level"] = args.level
    report = {}
    with anyio.fail_after(60):
        async with connect(args, **options) as session:
            if asking:
                try:
                    await session.set_logging_level(args.level)
                    report["setLevel"] = {}
                except MCPError as error:
                    report["setLevel"] = {"error": {"code": error.code, "message": error.message}}
            report["calls"] = {}
            for label, tool, arguments in steps(args.calls):
                current["label"] = label
                report["calls"][label] = await call(session, tool, arguments)
                current["label"] = None
            # Over streamable HTTP a message that names no request rides the standalone
            # stream, so it may come after the response it belongs to: wait for stragglers.
            await anyio.sleep(1)
    report["protocolVersion"] = session.protocol_version
    report["messages"] = messages
    emit(report)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", required=True, help="the MCP log level to ask for")
    parser.add_argument("--calls", required=True, help="JSON list of [label, tool, arguments]")
    add_connection_args(parser)
    anyio.run(main, parser.parse_args())
