"""Many concurrent HTTP clients staging and reading, bounded in count and time; then one
more client checks that every item staged is in the staging area exactly once.

usage: load.py --http URL --token T --clients N --calls M --deadline SECONDS
Prints {"clients", "calls", "seconds", "callsPerSecond", "stagedByClients", "foundOnce",
"missing", "duplicates", "failures", "latencyMs": {"p50", "p90", "p99"}}.
"""

import argparse
import time

import anyio

from peer import add_connection_args, call, connect, emit


async def client(args, index: int, latencies: list, staged_ids: list, failures: list) -> None:
    async with connect(args) as session:
        for i in range(args.calls):
            if i % 2 == 0:
                name, arguments = "stageItem", {
                    "table": "customers",
                    "operation": "insert",
                    "values": {"name": f"load-{index}-{i}", "city": "Load", "country": "DE"},
                    "note": f"load-{index}-{i}",
                }
            elif i % 4 == 1:
                name, arguments = "queryRows", {"table": "customers", "limit": 5}
            else:
                name, arguments = "showStaging", {"openPanel": False}
            start = time.perf_counter()
            outcome = await call(session, name, arguments)
            latencies.append(time.perf_counter() - start)
            if "error" in outcome or outcome["isError"]:
                failures.append({"client": index, "call": i, "tool": name, "outcome": outcome})
            elif name == "stageItem":
                staged_ids.append((f"load-{index}-{i}", outcome["content"]["changeId"]))


def percentile(sorted_values: list, p: float) -> float:
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, int(round(p / 100 * (len(sorted_values) - 1))))
    return round(sorted_values[k] * 1000, 2)


async def main(args: argparse.Namespace) -> None:
    latencies, staged_ids, failures = [], [], []
    start = time.perf_counter()
    with anyio.fail_after(args.deadline):
        async with anyio.create_task_group() as group:
            for index in range(args.clients):
                group.start_soon(client, args, index, latencies, staged_ids, failures)
    seconds = time.perf_counter() - start
    async with connect(args) as session:
        staging = (await call(session, "showStaging", {"openPanel": False}))["content"]
    counts = {}
    for change in staging:
        counts[change["changeId"]] = counts.get(change["changeId"], 0) + 1
    summaries = [change["summary"] for change in staging]
    found_once, missing, duplicates = 0, [], []
    for tag, change_id in staged_ids:
        hits = [s for s in summaries if f"({tag})" in s]
        if counts.get(change_id) == 1 and len(hits) == 1:
            found_once += 1
        elif not hits:
            missing.append(tag)
        else:
            duplicates.append(tag)
    ordered = sorted(latencies)
    emit(
        {
            "clients": args.clients,
            "calls": len(latencies),
            "seconds": round(seconds, 3),
            "callsPerSecond": round(len(latencies) / seconds, 1),
            "stagedByClients": len(staged_ids),
            "distinctChangeIds": len({change_id for _, change_id in staged_ids}),
            "foundOnce": found_once,
            "missing": missing,
            "duplicates": duplicates,
            "failures": failures[:5],
            "failureCount": len(failures),
            "latencyMs": {"p50": percentile(ordered, 50), "p90": percentile(ordered, 90), "p99": percentile(ordered, 99)},
        }
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--deadline", type=float, default=120.0)
    add_connection_args(parser)
    anyio.run(main, parser.parse_args())
