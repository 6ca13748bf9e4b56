"""A client that answers the server's questions as told (or declares no elicitation),
making the calls it is given; for a server whose policy for gated tools is to ask.

usage: elicit.py --answer accept|decline|cancel|none --calls STEPS_JSON [--modern]
                 (--stdio BIN ARGS... | --http URL --token T)

STEPS_JSON: [[label, tool, arguments], ...], reported under "calls" by label, with every
question the server asked under "questions".
"""

import argparse

import anyio
import mcp.types as types

from peer import add_connection_args, connect, emit, run_steps, steps


async def main(args: argparse.Namespace) -> None:
    questions = []

    async def answer(context, params):
        questions.append({"mode": params.mode, "message": params.message, "schema": params.requested_schema})
        return types.ElicitResult(action=args.answer, content={} if args.answer == "accept" else None)

    options = {} if args.answer == "none" else {"elicitation_callback": answer}
    report = {}
    with anyio.fail_after(60):
        async with connect(args, **options) as session:
            report["calls"] = await run_steps(session, steps(args.calls))
    report["protocolVersion"] = session.protocol_version
    report["questions"] = questions
    emit(report)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--answer", required=True, choices=["accept", "decline", "cancel", "none"])
    parser.add_argument("--calls", required=True, help="JSON list of [label, tool, arguments]")
    add_connection_args(parser)
    anyio.run(main, parser.parse_args())
