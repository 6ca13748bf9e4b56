"""Not a test: the time a `tools/call` takes straight to a server and through the gateway
in front of it, with the official MCP Python SDK as the client, alternating twice.

python latency.py N SERVER_COMMAND... -- GATEWAY_COMMAND...

Each run makes 20 calls to warm up, then N timed calls of `get_current_time` (the
`mcp-server-time` tool) and prints the median and the 90th percentile.
"""

import asyncio
import statistics
import sys
import time

from mcp import ClientSession, StdioServerParameters, stdio_client


async def measure(command: list[str], n: int) -> tuple[float, float]:
    server = StdioServerParameters(command=command[0], args=command[1:])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for _ in range(20):
                await session.call_tool("get_current_time", {"timezone": "UTC"})
            times = []
            for _ in range(n):
                start = time.perf_counter()
                result = await session.call_tool("get_current_time", {"timezone": "UTC"})
                times.append((time.perf_counter() - start) * 1e6)
                assert not result.is_error, result
            return statistics.median(times), sorted(times)[int(n * 0.9)]


async def main() -> None:
    n = int(sys.argv[1])
    split = sys.argv.index("--")
    direct, gateway = sys.argv[2:split], sys.argv[split + 1 :]
    for label, command in (("direct", direct), ("gateway", gateway)) * 2:
        median, p90 = await measure(command, n)
        print(f"{label}: median {median:.0f} µs, p90 {p90:.0f} µs")


asyncio.run(main())
