"""Many concurrent HTTP clients writing and reading, bounded in count and time; then one
more client makes a last call whose result shows what the writes left.

usage: load.py --write CALL --reads CALLS --final CALL --clients N --calls M --deadline SECONDS
               --http URL --token T

CALL: [tool, arguments] as JSON; in --write every "{tag}" inside a string becomes the
call's own tag, load-<client>-<call>. Each client's even calls are the write, its odd
calls the reads in turn. Prints {"clients", "calls", "seconds", "callsPerSecond",
"writes": [{"tag", "content"}], "final", "failures", "failureCount",
"latencyMs": {"p50", "p90", "p99"}}; the Rust test checks that every write is in "final"
exactly once. With --stream, each write is also printed the moment it is acknowledged, as a
line {"write": {"tag", "content"}}, for a test that stops the server in the middle of the
load and then looks for every write it was told about.
"""

import argparse
import json
import time
from typing import Any

import anyio

from peer import add_connection_args, call, connect, emit


def tagged(value: Any, tag: str) -> Any:
    """The write's arguments with its tag filled in."""
    if isinstance(value, str):
        return value.replace("{tag}", tag)
    if isinstance(value, list):
        return [tagged(item, tag) for item in value]
    if isinstance(value, dict):
        return {key: tagged(item, tag) for key, item in value.items()}
    return value


async def client(args, index: int, latencies: list, writes: list, failures: list) -> None:
    write_tool, write_arguments = json.loads(args.write)
    reads = json.loads(args.reads)
    async with connect(args) as session:
        for i in range(args.calls):
            tag = f"load-{index}-{i}"
            if i % 2 == 0:
                name, arguments = write_tool, tagged(write_arguments, tag)
            else:
                name, arguments = reads[(i // 2) % len(reads)]
            start = time.perf_counter()
            outcome = await call(session, name, arguments)
            latencies.append(time.perf_counter() - start)
            if "error" in outcome or outcome["isError"]:
                failures.append({"client": index, "call": i, "tool": name, "outcome": outcome})
            elif i % 2 == 0:
                writes.append({"tag": tag, "content": outcome["content"]})
                if args.stream:
                    emit({"write": writes[-1]})


def percentile(sorted_values: list, p: float) -> float:
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, int(round(p / 100 * (len(sorted_values) - 1))))
    return round(sorted_values[k] * 1000, 2)


async def main(args: argparse.Namespace) -> None:
    latencies, writes, failures = [], [], []
    start = time.perf_counter()
    with anyio.fail_after(args.deadline):
        async with anyio.create_task_group() as group:
            for index in range(args.clients):
                group.start_soon(client, args, index, latencies, writes, failures)
    seconds = time.perf_counter() - start
    final_tool, final_arguments = json.loads(args.final)
    async with connect(args) as session:
        final = await call(session, final_tool, final_arguments)
    ordered = sorted(latencies)
    emit(
        {
            "clients": args.clients,
            "calls": len(latencies),
            "seconds": round(seconds, 3),
            "callsPerSecond": round(len(latencies) / seconds, 1),
            "writes": writes,
            "final": final,
            "failures": failures[:5],
            "failureCount": len(failures),
            "latencyMs": {"p50": percentile(ordered, 50), "p90": percentile(ordered, 90), "p99": percentile(ordered, 99)},
        }
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", required=True, help='[tool, arguments] as JSON; "{tag}" in strings is filled in')
    parser.add_argument("--reads", required=True, help="[[tool, arguments], ...] as JSON, made in turn")
    parser.add_argument("--final", required=True, help="[tool, arguments] as JSON, called once after the load")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--deadline", type=float, default=120.0)
    parser.add_argument("--stream", action="store_true", help="print each acknowledged write as it comes")
    add_connection_args(parser)
    anyio.run(main, parser.parse_args())
