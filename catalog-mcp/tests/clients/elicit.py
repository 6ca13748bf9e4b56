"""A full-access client against a server whose policy is to ask: stages an item, calls
commitStaged, and answers the server's question as told (or declares no elicitation).

usage: elicit.py --answer accept|decline|cancel|none --tag TAG (--stdio ... | --http URL --token T)
"""

import argparse

import anyio
import mcp.types as types

from peer import add_connection_args, call, connect, emit


async def main(args: argparse.Namespace) -> None:
    questions = []

    async def answer(context, params):
        questions.append({"mode": params.mode, "message": params.message, "schema": params.requested_schema})
        return types.ElicitResult(action=args.answer, content={} if args.answer == "accept" else None)

    options = {} if args.answer == "none" else {"elicitation_callback": answer}
    report = {}
    name = f"Elicit {args.tag}"
    with anyio.fail_after(60):
        async with connect(args, **options) as session:
            report["stageItem"] = await call(
                session, "stageItem", {"table": "customers", "operation": "insert", "values": {"name": name, "city": "Munich", "country": "DE"}}
            )
            report["commitStaged"] = await call(session, "commitStaged", {"message": args.tag})
            report["staged"] = (await call(session, "showStaging", {}))["content"]
            rows = await call(
                session,
                "queryRows",
                {"table": "customers", "filter": {"conditions": [{"column": "name", "op": "eq", "value": name}]}},
            )
            report["committedRows"] = rows["content"]["totalMatching"]
    report["protocolVersion"] = session.protocol_version
    report["questions"] = questions
    emit(report)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--answer", required=True, choices=["accept", "decline", "cancel", "none"])
    parser.add_argument("--tag", required=True)
    add_connection_args(parser)
    anyio.run(main, parser.parse_args())
