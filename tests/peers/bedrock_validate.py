"""Checks Bedrock Converse requests with botocore, the AWS SDK's own model and validator.

Usage: python bedrock_validate.py [FILE]   (stdin without FILE)

The input is one request as JSON, or one request per line (JSON Lines), each the Converse
operation's input: {"modelId": "...", "messages": [...], "toolConfig": {...}}. Each is
checked three ways, all from botocore's bundled service model of bedrock-runtime, with no
network and no credentials:

1. botocore.validate.ParamValidator, what boto3 runs before sending: required members,
   types, unknown members, minimum lengths, and document values (inputSchema.json);
2. the constraints the validator leaves to the server, read from the same model: the
   maximum lengths and the patterns of strings (a tool name is [a-zA-Z0-9_-]+, 1 to 64);
3. botocore's serializer for the operation, which must turn the request into a body.

Prints every error found and exits 1; otherwise prints "ok" and the number of tools, one
line per request, and exits 0.
Needs: pip install botocore
"""

import json
import re
import sys

import botocore.session
import botocore.validate
from botocore.serialize import create_serializer


def constraint_errors(value, shape, path, errors):
    """Appends the `max` and `pattern` violations of `value` against `shape`."""
    if shape.type_name == "structure" and isinstance(value, dict):
        if shape.metadata.get("document"):
            return
        for name, member in shape.members.items():
            if name in value:
                constraint_errors(value[name], member, f"{path}.{name}", errors)
    elif shape.type_name == "list" and isinstance(value, list):
        limit = shape.metadata.get("max")
        if limit is not None and len(value) > limit:
            errors.append(f"{path}: {len(value)} items, the most is {limit}")
        for i, item in enumerate(value):
            constraint_errors(item, shape.member, f"{path}[{i}]", errors)
    elif shape.type_name == "string" and isinstance(value, str):
        limit = shape.metadata.get("max")
        if limit is not None and len(value) > limit:
            errors.append(f"{path}: {len(value)} characters, the most is {limit}")
        pattern = shape.metadata.get("pattern")
        if pattern is not None and not re.fullmatch(pattern, value):
            errors.append(f"{path}: {value!r} does not match {pattern}")


def errors_of(params, service, operation):
    """Every error in one request."""
    shape = operation.input_shape
    errors = []
    report = botocore.validate.ParamValidator().validate(params, shape)
    if report.has_errors():
        errors.append(report.generate_report())
    constraint_errors(params, shape, "Converse", errors)
    if not errors:
        try:
            create_serializer(service.metadata["protocol"]).serialize_to_request(params, operation)
        except Exception as e:  # the serializer's errors share no base class
            errors.append(f"botocore cannot serialize the request: {e}")
    return errors


def documents(text):
    """One JSON document, or one per line: loading botocore once for many."""
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def main():
    text = open(sys.argv[1], encoding="utf-8").read() if len(sys.argv) > 1 else sys.stdin.read()
    service = botocore.session.get_session().get_service_model("bedrock-runtime")
    operation = service.operation_model("Converse")
    failed = False
    for i, params in enumerate(documents(text), 1):
        errors = errors_of(params, service, operation)
        for e in errors:
            print(f"request {i}: {e}")
        failed |= bool(errors)
        if not errors:
            tools = params.get("toolConfig", {}).get("tools", [])
            print(f"request {i}: ok, Converse request with {len(tools)} tools")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
