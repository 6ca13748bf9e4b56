"""Checks Gemini API tool lists with google-genai, Google's official SDK.

Usage: python gemini_validate.py [FILE]   (stdin without FILE)

The input is one `tools` array as JSON, or one per line (JSON Lines), each
[{"functionDeclarations": [...]}], the list a generateContent request carries. Each is
checked four ways, with no network and no credentials:

1. every Tool parses with the SDK's own pydantic model, google.genai.types.Tool, in
   strict mode from JSON (no coercion of a value to another type), and the SDK's models
   forbid fields they do not know: a misspelt or unsupported field is an error;
2. the parsed Tool, dumped as the API's JSON (camelCase, no unset fields), is exactly the
   input: nothing was dropped, renamed or changed on the way in;
3. the SDK builds a Gemini API (not Vertex AI) generateContent request with the list as
   `tools`, through the same converters `client.models.generate_content` runs before
   sending, and the request's tools, read back, are the input: nothing refused, nothing
   dropped on the way out;
4. what the SDK leaves to the server, from the API reference: a function name is 1 to 64
   of a-z A-Z 0-9 _ . : - starting with a letter or an underscore, names are unique, the
   tool list is not empty, and every schema uses only the fields of the Gemini API's
   Schema (the SDK's Schema also has Vertex AI's additionalProperties, defs and ref, and
   refuses additionalProperties outside Vertex AI mode only for response schemas).

Prints every error found and exits 1; otherwise prints one JSON line per list,
{"count": N, "names": [...]}, the function names in order, and exits 0.
Needs: pip install google-genai
"""

import json
import re
import sys

from google.genai import Client, models, types
from google.genai import _common

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,63}")

# The fields of the Gemini API's Schema (v1beta), by their JSON names.
GEMINI_API_SCHEMA = {
    "type", "format", "title", "description", "nullable", "enum", "default", "example",
    "items", "minItems", "maxItems", "properties", "required", "propertyOrdering",
    "minProperties", "maxProperties", "minimum", "maximum", "minLength", "maxLength",
    "pattern", "anyOf",
}


def schema_errors(schema, path, errors):
    """Fields of a dumped Schema that the Gemini API's Schema does not have."""
    for key, value in schema.items():
        if key not in GEMINI_API_SCHEMA:
            errors.append(f"{path}: `{key}` is not a field of the Gemini API's Schema")
    for name, sub in (schema.get("properties") or {}).items():
        schema_errors(sub, f"{path}.properties[{name!r}]", errors)
    if isinstance(schema.get("items"), dict):
        schema_errors(schema["items"], f"{path}.items", errors)
    for k, sub in enumerate(schema.get("anyOf") or []):
        schema_errors(sub, f"{path}.anyOf[{k}]", errors)


def dump(tool):
    """A Tool as the API's JSON: camelCase names, unset fields left out."""
    return tool.model_dump(mode="json", by_alias=True, exclude_none=True)


def first_difference(a, b, path="$"):
    """Where two JSON values first differ, as a path and the two sides; None if equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}.{key}: {a.get(key, '<missing>')!r} != {b.get(key, '<missing>')!r}"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    # 1 and 1.0 are one JSON number; bool is not a number here.
    if isinstance(a, bool) or isinstance(b, bool):
        return None if a is b else f"{path}: {a!r} != {b!r}"
    return None if a == b else f"{path}: {a!r} != {b!r}"


def errors_of(tools, client):
    """Every error in one tool list, and its function names."""
    if not isinstance(tools, list) or not tools:
        return ["the tool list is not a non-empty JSON array"], []
    errors = []
    names = []
    for i, tool in enumerate(tools):
        try:
            parsed = types.Tool.model_validate_json(json.dumps(tool), strict=True)
        except Exception as e:  # pydantic's ValidationError, worded by the SDK's model
            errors.append(f"tools[{i}]: google-genai rejects the tool: {e}")
            continue
        difference = first_difference(tool, dump(parsed))
        if difference:
            errors.append(f"tools[{i}]: google-genai's Tool does not keep the input: {difference}")
        for j, declaration in enumerate(parsed.function_declarations or []):
            names.append(declaration.name)
            if declaration.parameters is not None:
                schema_errors(
                    declaration.parameters.model_dump(mode="json", by_alias=True, exclude_none=True),
                    f"tools[{i}].functionDeclarations[{j}].parameters",
                    errors,
                )
            if not declaration.name or not NAME.fullmatch(declaration.name):
                errors.append(
                    f"tools[{i}].functionDeclarations[{j}]: the name {declaration.name!r} is not 1-64 of"
                    " a-z A-Z 0-9 _ . : - starting with a letter or _"
                )
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        errors.append(f"functions declared twice: {twice}")
    if errors:
        return errors, names
    # The request the SDK would send to the Gemini API.
    try:
        params = types._GenerateContentParameters(
            model="gemini-2.5-flash",
            contents="Export the customers table to CSV.",
            config=types.GenerateContentConfig(tools=tools),
        )
        request = models._GenerateContentParameters_to_mldev(
            client._api_client, params, None, params
        )
        request = _common.convert_to_dict(request)
    except Exception as e:  # the converters raise ValueError and pydantic errors
        return [f"google-genai cannot build a Gemini API request with the tools: {e}"], names
    sent = [dump(types.Tool.model_validate(t)) for t in request.get("tools", [])]
    difference = first_difference(tools, sent)
    if difference:
        errors.append(f"the request google-genai builds does not carry the tools as given: {difference}")
    return errors, names


def documents(text):
    """One JSON document, or one per line: loading the SDK once for many."""
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def main():
    text = open(sys.argv[1], encoding="utf-8").read() if len(sys.argv) > 1 else sys.stdin.read()
    # A Gemini API client, never used to send: the converters read its mode.
    client = Client(api_key="unused-no-request-is-sent")
    failed = False
    for i, doc in enumerate(documents(text), 1):
        errors, names = errors_of(doc, client)
        for e in errors:
            print(f"list {i}: {e}")
        failed |= bool(errors)
        if not errors:
            print(json.dumps({"count": len(names), "names": names}))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
