"""The Python contenders of `cargo xtask bench-gateway`: a proxy over stdio in front of
one upstream over stdio.

python proxies.py fastmcp|fastmcp-gateway UPSTREAM_COMMAND...

- fastmcp: FastMCP's own proxy (`create_proxy`), the upstream's tools as they are.
- fastmcp-gateway: the upstream as its domain `bench`, its tools called through the
  gateway's `execute_tool`.
"""

import asyncio
import sys

from fastmcp.client.transports import StdioTransport


def upstream(command: list[str]) -> StdioTransport:
    return StdioTransport(command=command[0], args=command[1:])


def main() -> None:
    kind, command = sys.argv[1], sys.argv[2:]
    if kind == "fastmcp":
        from fastmcp.server import create_proxy

        create_proxy(upstream(command)).run(transport="stdio", show_banner=False)
    elif kind == "fastmcp-gateway":
        from fastmcp_gateway import GatewayServer

        gateway = GatewayServer({"bench": upstream(command)})
        asyncio.run(gateway.populate())
        gateway.run(transport="stdio", show_banner=False)
    else:
        sys.exit(f"unknown proxy {kind}: use fastmcp or fastmcp-gateway")


main()
