"""Checks MCP tools/list results with the official MCP Python SDK.

Usage: python mcp_validate.py [FILE]   (stdin without FILE)

The input is one result as JSON, or one result per line (JSON Lines), each
{"tools": [...]}. Each is parsed with mcp.types.ListToolsResult.model_validate, the SDK's
own model of the message. The SDK types schemas only as JSON objects, so the rules of the
specification it leaves unchecked are checked here too:

- every name is unique and is 1 to 128 of A-Z a-z 0-9 _ - . (the names the specification
  recommends);
- every inputSchema, and every outputSchema present, is an object schema
  ("type": "object");
- destructiveHint appears only on tools that are not read-only (it means nothing else).

Prints every error found and exits 1; otherwise prints one JSON line per result,
{"count": N, "names": [...]}, the names in the order listed, and exits 0.
Needs: pip install mcp
"""

import json
import re
import sys

import mcp.types

NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")


def errors_of(doc):
    """Every error in one result, and the tools' names."""
    try:
        result = mcp.types.ListToolsResult.model_validate(doc)
    except Exception as e:  # pydantic's ValidationError, worded by the SDK's model
        return [f"the MCP SDK rejects the result: {e}"], []
    errors = []
    seen = set()
    for tool in result.tools:
        if not NAME.fullmatch(tool.name):
            errors.append(f"tool {tool.name!r}: the name is not 1-128 of A-Z a-z 0-9 _ - .")
        if tool.name in seen:
            errors.append(f"tool {tool.name!r}: listed twice")
        seen.add(tool.name)
        if tool.input_schema.get("type") != "object":
            errors.append(f"tool {tool.name!r}: inputSchema is not an object schema")
        if tool.output_schema is not None and tool.output_schema.get("type") != "object":
            errors.append(f"tool {tool.name!r}: outputSchema is not an object schema")
        hints = tool.annotations
        if hints is not None and hints.destructive_hint is not None and hints.read_only_hint:
            errors.append(f"tool {tool.name!r}: destructiveHint on a read-only tool")
    return errors, [t.name for t in result.tools]


def documents(text):
    """One JSON document, or one per line: loading the SDK once for many."""
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def main():
    text = open(sys.argv[1], encoding="utf-8").read() if len(sys.argv) > 1 else sys.stdin.read()
    failed = False
    for i, doc in enumerate(documents(text), 1):
        errors, names = errors_of(doc)
        for e in errors:
            print(f"result {i}: {e}")
        failed |= bool(errors)
        if not errors:
            print(json.dumps({"count": len(names), "names": names}))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
