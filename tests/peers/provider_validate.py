"""Checks chat providers' request, reply and stream bodies with their official SDKs.

Usage: python provider_validate.py [FILE]            (stdin without FILE)
       python provider_validate.py --recorded DIR    (the recorded bodies under DIR)

The input is JSON Lines, each line {"provider": P, "kind": K, "body": ...} (a "note" key is
allowed and ignored), P one of anthropic, openai-chat, openai-responses, bedrock, gemini,
and K one of:
  request  the body our agent sends to the provider's non-streaming endpoint;
  reply    a non-streamed response body as the provider returns it;
  stream   a list of the stream's events: Anthropic's SSE `data` objects, OpenAI's
           ChatCompletionChunk or Responses stream events, Gemini's GenerateContentResponse
           chunks, Bedrock's ConverseStream events each a one-key object as the AWS SDKs
           yield them ({"contentBlockDelta": {...}}).
With --recorded DIR the lines are made from DIR/<provider>/ files: request*.json is a
request, reply*.json a reply, stream*.jsonl a stream of one event per line (error.json is
not checked), and each output line also carries "file", the file's path under DIR.

Everything is checked with the SDKs pinned in requirements.txt, with no network and no
credentials:

- anthropic, openai-chat, openai-responses requests: the SDK's own TypedDicts
  (MessageCreateParamsNonStreaming, CompletionCreateParamsNonStreaming,
  ResponseCreateParamsNonStreaming) through a pydantic TypeAdapter in strict mode (no
  coercion), over the parsed JSON (Python mode: validating JSON input, a lazy iterator
  takes a string for an iterable of its characters). TypedDicts allow unknown keys and
  pydantic checks
  `Iterable[...]` fields only when they are iterated, so before the adapter is built every
  TypedDict reachable from the root annotation gets `__pydantic_config__` with
  extra="forbid" and strict=True (kept merged with the SDK's own config, as
  set_pydantic_config does), and every lazy iterator in the validated result is consumed,
  its items checked the same way. Where a request union also admits the SDK's response
  models (content blocks sent back as they came), a block that matched such a model is
  held to the model's fields as below.
- replies and stream events of anthropic, openai-chat, openai-responses: the SDK's
  pydantic models (Message, RawMessageStreamEvent, ChatCompletion, ChatCompletionChunk,
  Response, ResponseStreamEvent) the same way, in strict mode. The models keep unknown keys
  silently (extra="allow"), so every model in the parsed tree is walked and each key it did
  not declare is an error, except these few that the APIs send and the SDK does not
  declare: Response's store, billing, frequency_penalty and presence_penalty, and the
  obfuscation of Responses' text and arguments delta events.
- gemini: google-genai's models, which forbid unknown fields, strict from JSON, each
  dumped back (camelCase, base64 compared as bytes) to exactly what was given, and the
  SDK's warnings (an enum value it does not know, which it keeps) are errors: each of a
  request's contents and systemInstruction as Content, tools as Tool (with the checks of
  gemini_validate.py), toolConfig as ToolConfig, generationConfig as GenerationConfig,
  and the whole request rebuilt by the SDK's generateContent converter for the Gemini API
  (not Vertex AI), which must give back the body as sent; replies and stream chunks as
  GenerateContentResponse, then read through the SDK's response converter.
- bedrock: botocore's bedrock-runtime service model. A request as in bedrock_validate.py
  (ParamValidator, lengths and patterns, the serializer). A reply: ParamValidator and the
  same length and pattern checks over the ConverseResponse shape (unknown members, types,
  required members, unions of exactly one member), then botocore's rest-json parser on the
  body, whose result must equal the body (a toolUse input is a document: any JSON value
  passes). A stream: each event must be one member of the
  ConverseStreamOutput event stream, checked the same way against its event shape; then
  the events are framed as an AWS event stream (headers, CRCs) and read back through
  botocore's own EventStream parser, which must yield exactly the events given.

Each input line gives one JSON line on stdout:
  {"ok": false, "errors": ["...", ...]}   when any check fails (the exit status is then 1);
  {"ok": true}                            for a valid request;
  {"ok": true, "text": T, "calls": [C, ...], "stop": S, "usage": U}   for a valid reply or
  stream: what the SDK itself makes of it. T is the reply's text, its text parts joined
  (thoughts left out); S the stop reason as the provider spells it (anthropic stop_reason,
  openai-chat finish_reason, openai-responses the response's status, bedrock stopReason,
  gemini the first candidate's finishReason), null when a stream ended before saying it;
  U is {"input_tokens": N|null, "output_tokens": N|null}. Each call C is
  {"id": I, "name": N, "arguments": A, "complete": B}: I the provider's call id (Responses:
  call_id; null where Gemini sent none), A the arguments: the value sent where the
  provider sends a value (anthropic and bedrock replies, gemini), else the JSON text
  parsed, null when it is not valid JSON; B false for a call a stream was cut inside,
  which then has A null and "partial": the raw argument text received so far. Anthropic replies with server-side
  tool use add "server_calls" (the server_tool_use blocks, as calls) and "loaded" (the
  tool names of tool_search_tool_result blocks).
Streams are gathered by the SDKs' own accumulators where they have one: Anthropic's
accumulate_event (its json buffers hold a cut call's text; a call is complete once
build_events gave its content_block_stop), OpenAI's ChatCompletionStreamState (complete
once it emitted tool_calls.function.arguments.done) and ResponseStreamState (complete once
the call's response.output_item.done came; the final response from response.completed).
Gemini and Bedrock have none, so the documented rules are applied here. Gemini: chunks
are GenerateContentResponses whose parts append; the SDK's `text` and `function_calls` of
each chunk are joined, a functionCall part always arrives whole (the Gemini API does not
stream arguments: google-genai refuses partial_args, will_continue and
stream_function_call_arguments outside Vertex AI), the last finishReason and usageMetadata
count. Bedrock: blocks by contentBlockIndex, contentBlockStart's toolUse gives a call's id
and name, contentBlockDelta appends text or toolUse.input (a JSON text), a block is
complete at its contentBlockStop, messageStop gives stopReason, metadata the usage.
Anthropic `ping` events are skipped, as the SDK's stream does. Error lines name the JSON
path, union members in <>, and only the members the body came closest to.
Needs: pip install anthropic openai botocore google-genai
"""

import base64
import json
import logging
import os
import struct
import sys
import typing
import warnings
import zlib

import typing_extensions
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

PROVIDERS = ("anthropic", "openai-chat", "openai-responses", "bedrock", "gemini")
KINDS = ("request", "reply", "stream")
# Union members are told apart by these keys: a member whose discriminator did not match
# is not what the body meant, and its errors are noise.
DISCRIMINATORS = ("type", "role", "object")
MOST_ERRORS = 12


class Invalid(Exception):
    """A body that fails a check; args[0] is the list of errors."""


# ---------------------------------------------------------------------------------------
# pydantic: TypedDicts made strict, lazy iterables consumed, unknown keys found


def typed_dicts(annotation, found):
    """Every TypedDict reachable from an annotation (BaseModels are not entered)."""
    if typing_extensions.is_typeddict(annotation):
        if annotation in found:
            return
        found.add(annotation)
        for hint in typing_extensions.get_type_hints(annotation, include_extras=True).values():
            typed_dicts(hint, found)
        return
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return
    for argument in typing.get_args(annotation):
        typed_dicts(argument, found)


def strict_adapter(annotation):
    """A TypeAdapter for a request TypedDict that forbids unknown keys all the way down."""
    found = set()
    typed_dicts(annotation, found)
    for td in found:
        own = dict(getattr(td, "__pydantic_config__", None) or {})
        td.__pydantic_config__ = ConfigDict(**{**own, "extra": "forbid", "strict": True})
    return TypeAdapter(annotation)


def render_loc(raw, loc, kind):
    """A pydantic error location as a JSON path into `raw`, union members in <>, and the
    positions of those members in `loc`; `kind` is the error's type."""
    path, members, cursor = "", [], raw
    for i, part in enumerate(loc):
        if isinstance(cursor, dict) and isinstance(part, str) and part in cursor:
            path += f".{part}"
            cursor = cursor[part]
        elif isinstance(cursor, list) and isinstance(part, int) and 0 <= part < len(cursor):
            path += f"[{part}]"
            cursor = cursor[part]
        elif i == len(loc) - 1 and (kind in ("missing", "extra_forbidden") or not isinstance(part, str)):
            path += f".{part}" if isinstance(part, str) else f"[{part}]"  # missing or unknown
        else:
            members.append(i)
            if "[" not in str(part):  # list[...], union[...] and the like say nothing more
                path += f" <{part}>"
    return path, members


def closest_members(rendered):
    """Where a body matched no member of a union, pydantic reports every member's errors.
    Keeps those of the members the body meant, outermost union first: not a member whose
    discriminator (type, role, object) did not match or that wants another kind of JSON
    value (unless no member is left), and of the rest those with the fewest errors."""
    done = set()
    while True:
        unions = {}
        for r in rendered:
            loc = tuple(r[0]["loc"])
            for m in r[2]:
                unions.setdefault(loc[:m], {}).setdefault(loc[m], []).append(r)
        waiting = sorted((p for p in unions if p not in done), key=len)
        if not waiting:
            return rendered
        prefix = waiting[0]
        done.add(prefix)
        groups = unions[prefix]

        def mismatched(tag, errors):
            at = prefix + (tag,)
            return any(
                (tuple(e["loc"]) == at and e["type"].endswith("_type"))
                or (tuple(e["loc"][:-1]) == at and e["loc"][-1] in DISCRIMINATORS
                    and e["type"] == "literal_error")
                for e, _, _ in errors)

        meant = {t: g for t, g in groups.items() if not mismatched(t, g)} or groups
        fewest = min(len(g) for g in meant.values())
        kept = {id(r) for g in meant.values() if len(g) == fewest for r in g}
        dropped = {id(r) for g in groups.values() for r in g} - kept
        rendered = [r for r in rendered if id(r) not in dropped]


def pydantic_errors(error, raw, prefix="$"):
    """A ValidationError's errors as "path: message" lines, union members shown as
    <Member> and only the members the body came closest to."""
    rendered = [(e, *render_loc(raw, e["loc"], e["type"])) for e in error.errors(include_url=False)]
    lines = []
    for e, path, _ in closest_members(rendered):
        message = "unknown key" if e["type"] == "extra_forbidden" else e["msg"]
        line = f"{prefix}{path}: {message}"
        if e["type"] not in ("missing", "extra_forbidden") and not isinstance(e["input"], (dict, list)):
            line += f" (got {json.dumps(e['input'])[:80]})"
        if line not in lines:
            lines.append(line)
    return lines


def walk(value, raw, path, errors, allowed):
    """Consumes pydantic's lazy iterators in a validated value (validating their items) and
    reports every key of a model that the model does not declare. Returns the value with
    the iterators as lists."""
    if type(value).__name__ == "ValidatorIterator":
        items = []
        try:
            for item in value:
                items.append(item)
        except ValidationError as e:
            errors.extend(pydantic_errors(e, raw, path))
        return [walk(v, r, f"{path}[{i}]", errors, allowed)
                for i, (v, r) in enumerate(zip(items, raw if isinstance(raw, list) else []))]
    if isinstance(value, BaseModel):
        raw = raw if isinstance(raw, dict) else {}
        for key in value.__pydantic_extra__ or {}:
            if key not in allowed.get(type(value), ()):
                errors.append(f"{path}.{key}: unknown key (not a field of the SDK's {type(value).__name__})")
        for name, field in type(value).model_fields.items():
            key = field.alias or name
            if key in raw:
                walk(getattr(value, name), raw[key], f"{path}.{key}", errors, allowed)
        return value
    if isinstance(value, dict):
        raw = raw if isinstance(raw, dict) else {}
        return {k: walk(v, raw.get(k), f"{path}.{k}", errors, allowed) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        raw = raw if isinstance(raw, list) else []
        return [walk(v, raw[i] if i < len(raw) else None, f"{path}[{i}]", errors, allowed)
                for i, v in enumerate(value)]
    return value


def validate(adapter, raw, allowed=None, prefix="$"):
    """`raw` (parsed JSON) through the adapter in strict mode, iterators consumed and
    unknown keys reported; the validated value, or Invalid. Python mode, not JSON mode: a
    lazy iterator validating JSON input takes a string for an iterable of its characters."""
    try:
        value = adapter.validate_python(raw, strict=True)
    except ValidationError as e:
        raise Invalid(pydantic_errors(e, raw, prefix))
    errors = []
    value = walk(value, raw, prefix, errors, allowed or {})
    if errors:
        raise Invalid(errors)
    return value


# ---------------------------------------------------------------------------------------
# What a reply comes to


def call(id_, name, arguments):
    """One complete call of the output, its arguments a value as the provider sent it."""
    return {"id": id_, "name": name, "arguments": arguments, "complete": True}


def call_text(id_, name, text, complete=True):
    """One call whose arguments are JSON text; cut inside them when not `complete`."""
    if not complete:
        return {"id": id_, "name": name, "arguments": None, "complete": False, "partial": text}
    try:
        arguments = json.loads(text)
    except json.JSONDecodeError:
        arguments = None
    return {"id": id_, "name": name, "arguments": arguments, "complete": True}


def outcome(text, calls, stop, input_tokens, output_tokens, **more):
    result = {"ok": True, "text": text, "calls": calls, "stop": stop,
              "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens}}
    result.update({k: v for k, v in more.items() if v})
    return result


def stream_list(body):
    if not isinstance(body, list) or not body or not all(isinstance(e, dict) for e in body):
        raise Invalid(["a stream's body is a non-empty list of event objects"])
    return body


# ---------------------------------------------------------------------------------------
# Anthropic


class Anthropic:
    def __init__(self):
        from anthropic.types import Message, RawMessageStreamEvent
        from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
        from anthropic.lib.streaming import _messages

        self.request_adapter = strict_adapter(MessageCreateParamsNonStreaming)
        self.message = TypeAdapter(Message)
        self.event = TypeAdapter(RawMessageStreamEvent)
        self.streaming = _messages

    def request(self, body):
        validate(self.request_adapter, body)
        return {"ok": True}

    @staticmethod
    def read(message, open_calls=None):
        """text, calls, server calls and loaded tools of a Message (or a stream's snapshot);
        `open_calls` maps the index of each call a stream was cut inside to its raw text."""
        open_calls = open_calls or {}
        text, calls, server_calls, loaded = "", [], [], []
        for index, block in enumerate(message.content):
            if block.type == "text":
                text += block.text
            elif block.type == "tool_use":
                if index in open_calls:
                    calls.append(call_text(block.id, block.name, open_calls[index], complete=False))
                else:
                    calls.append(call(block.id, block.name, block.input))
            elif block.type == "server_tool_use":
                if index in open_calls:
                    server_calls.append(call_text(block.id, block.name, open_calls[index], complete=False))
                else:
                    server_calls.append(call(block.id, block.name, block.input))
            elif block.type == "tool_search_tool_result":
                loaded.extend(r.tool_name for r in getattr(block.content, "tool_references", None) or [])
        return text, calls, server_calls, loaded

    def reply(self, body):
        message = validate(self.message, body)
        text, calls, server_calls, loaded = self.read(message)
        return outcome(text, calls, message.stop_reason, message.usage.input_tokens,
                       message.usage.output_tokens, server_calls=server_calls, loaded=loaded)

    def stream(self, body):
        events, errors = [], []
        for i, raw in enumerate(stream_list(body)):
            if raw.get("type") == "ping":  # the SDK's stream drops `event: ping`
                continue
            try:
                events.append(validate(self.event, raw, prefix=f"$[{i}]"))
            except Invalid as e:
                errors.extend(e.args[0])
        if errors:
            raise Invalid(errors)
        snapshot, buffers, stopped = None, {}, set()
        try:
            for event in events:
                snapshot = self.streaming.accumulate_event(
                    event=event, current_snapshot=snapshot, json_bufs=buffers)
                for built in self.streaming.build_events(event=event, message_snapshot=snapshot):
                    if built.type == "content_block_stop":
                        stopped.add(built.index)
        except (RuntimeError, ValueError, IndexError) as e:
            raise Invalid([f"the SDK's accumulator refuses the stream: {e}"])
        if snapshot is None:
            raise Invalid(["the stream has no message_start"])
        open_calls = {
            i: buffers.get(i, b"").decode("utf-8")
            for i, block in enumerate(snapshot.content)
            if block.type in ("tool_use", "server_tool_use") and i not in stopped
        }
        text, calls, server_calls, loaded = self.read(snapshot, open_calls)
        return outcome(text, calls, snapshot.stop_reason, snapshot.usage.input_tokens,
                       snapshot.usage.output_tokens, server_calls=server_calls, loaded=loaded)


# ---------------------------------------------------------------------------------------
# OpenAI Chat Completions


class OpenAIChat:
    def __init__(self):
        from openai.types.chat import ChatCompletion, ChatCompletionChunk
        from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
        from openai.lib.streaming.chat import ChatCompletionStreamState

        self.request_adapter = strict_adapter(CompletionCreateParamsNonStreaming)
        self.completion = TypeAdapter(ChatCompletion)
        self.chunk = TypeAdapter(ChatCompletionChunk)
        self.State = ChatCompletionStreamState

    def request(self, body):
        validate(self.request_adapter, body)
        return {"ok": True}

    @staticmethod
    def read(completion, done=None):
        """text, calls and stop of a completion's first choice; `done` the indices of the
        calls the stream state finished (None: all)."""
        if not completion.choices:
            return "", [], None
        choice = completion.choices[0]
        message = choice.message
        calls = []
        for index, tool_call in enumerate(getattr(message, "tool_calls", None) or []):
            complete = done is None or index in done
            calls.append(call_text(tool_call.id, tool_call.function.name, tool_call.function.arguments, complete))
        return getattr(message, "content", None) or "", calls, getattr(choice, "finish_reason", None)

    @staticmethod
    def usage(completion):
        usage = getattr(completion, "usage", None)
        return (usage.prompt_tokens, usage.completion_tokens) if usage else (None, None)

    def reply(self, body):
        completion = validate(self.completion, body)
        text, calls, stop = self.read(completion)
        return outcome(text, calls, stop, *self.usage(completion))

    def stream(self, body):
        chunks, errors = [], []
        for i, raw in enumerate(stream_list(body)):
            try:
                chunks.append(validate(self.chunk, raw, prefix=f"$[{i}]"))
            except Invalid as e:
                errors.extend(e.args[0])
        if errors:
            raise Invalid(errors)
        state, done, finished = self.State(), set(), False
        try:
            for chunk in chunks:
                for event in state.handle_chunk(chunk):
                    if event.type == "tool_calls.function.arguments.done":
                        done.add(event.index)
                finished |= any(c.finish_reason for c in chunk.choices)
            completion = state.get_final_completion() if finished else state.current_completion_snapshot
        except Exception as e:  # the state raises assertion, index and parsing errors
            raise Invalid([f"the SDK's ChatCompletionStreamState refuses the stream: {e!r}"])
        text, calls, stop = self.read(completion, done)
        return outcome(text, calls, stop, *self.usage(completion))


# ---------------------------------------------------------------------------------------
# OpenAI Responses


class OpenAIResponses:
    def __init__(self):
        from openai import omit
        from openai.types.responses import Response, ResponseStreamEvent
        from openai.types.responses import ResponseTextDeltaEvent, ResponseFunctionCallArgumentsDeltaEvent
        from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming
        from openai.lib.streaming.responses import ResponseStreamState

        self.request_adapter = strict_adapter(ResponseCreateParamsNonStreaming)
        self.response = TypeAdapter(Response)
        self.event = TypeAdapter(ResponseStreamEvent)
        self.State = ResponseStreamState
        self.omit = omit
        # Sent by the API, not declared by the SDK's models.
        self.allowed = {
            Response: {"store", "billing", "frequency_penalty", "presence_penalty"},
            ResponseTextDeltaEvent: {"obfuscation"},
            ResponseFunctionCallArgumentsDeltaEvent: {"obfuscation"},
        }

    def request(self, body):
        validate(self.request_adapter, body)
        return {"ok": True}

    @staticmethod
    def usage(response):
        usage = getattr(response, "usage", None)
        return (usage.input_tokens, usage.output_tokens) if usage else (None, None)

    @staticmethod
    def read(output, done=None):
        """text and calls of output items; `done[i]` False for a call a stream was cut in."""
        text, calls = "", []
        for i, item in enumerate(output):
            if item.type == "message":
                for part in item.content:
                    if part.type == "output_text":
                        text += part.text
            elif item.type == "function_call":
                calls.append(call_text(item.call_id, item.name, item.arguments, done is None or done[i]))
        return text, calls

    def reply(self, body):
        response = validate(self.response, body, self.allowed)
        text, calls = self.read(response.output)
        if text != response.output_text:
            raise Invalid([f"the SDK's output_text is {response.output_text!r}, not the parts joined"])
        return outcome(text, calls, response.status, *self.usage(response))

    def stream(self, body):
        events, errors = [], []
        for i, raw in enumerate(stream_list(body)):
            try:
                events.append(validate(self.event, raw, self.allowed, prefix=f"$[{i}]"))
            except Invalid as e:
                errors.extend(e.args[0])
        if errors:
            raise Invalid(errors)
        state = self.State(input_tools=self.omit, text_format=self.omit)
        added, finished, final = [], set(), None
        try:
            for event in events:
                if event.type == "response.output_item.added":
                    added.append(event.output_index)
                for handled in state.handle_event(event):
                    if handled.type == "response.output_item.done":
                        finished.add(handled.output_index)
                    elif handled.type in ("response.completed", "response.incomplete", "response.failed"):
                        final = handled.response
        except Exception as e:  # the state raises RuntimeError, assertion and key errors
            raise Invalid([f"the SDK's ResponseStreamState refuses the stream: {e!r}"])
        if final is not None:
            text, calls = self.read(final.output)
            return outcome(text, calls, final.status, *self.usage(final))
        # Cut: what the state holds; its snapshot's output is in the order items were added.
        snapshot = state._ResponseStreamState__current_snapshot
        if snapshot is None:
            raise Invalid(["the stream has no response.created"])
        done = [index in finished for index in added]
        text, calls = self.read(snapshot.output, done)
        return outcome(text, calls, None, None, None)


# ---------------------------------------------------------------------------------------
# Gemini


class Gemini:
    def __init__(self):
        from google.genai import Client, _common, models, types
        import gemini_validate

        logging.getLogger("google_genai.types").setLevel(logging.ERROR)
        self.types, self.models, self.common = types, models, _common
        self.client = Client(api_key="unused-no-request-is-sent")
        self.tools_check = gemini_validate
        # The members of a generateContent body: (list or not, the type each parses as).
        self.members = {
            "contents": (list, types.Content),
            "systemInstruction": (None, types.Content),
            "tools": (list, types.Tool),
            "toolConfig": (None, types.ToolConfig),
            "generationConfig": (None, types.GenerationConfig),
            "safetySettings": (list, types.SafetySetting),
            "cachedContent": (None, str),
        }

    def parse(self, cls, raw, path):
        """`raw` as the SDK type, strict from JSON; the SDK's warnings (a value its enums
        do not know, which it keeps for forward compatibility) are errors too."""
        if cls is str:
            if not isinstance(raw, str):
                raise Invalid([f"{path}: not a string"])
            return raw
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            try:
                parsed = cls.model_validate_json(json.dumps(raw), strict=True)
            except ValidationError as e:
                raise Invalid(pydantic_errors(e, raw, path))
        if warned:
            raise Invalid([f"{path}: google-genai warns: {w.message}" for w in warned])
        return parsed

    def request(self, body):
        types = self.types
        if not isinstance(body, dict):
            raise Invalid(["the request is not a JSON object"])
        errors, parsed = [], {}
        for key, raw in body.items():
            if key not in self.members:
                errors.append(f"$.{key}: unknown key (not a member of a generateContent request)")
                continue
            many, cls = self.members[key]
            try:
                if many:
                    if not isinstance(raw, list):
                        raise Invalid([f"$.{key}: not an array"])
                    parsed[key] = [self.parse(cls, r, f"$.{key}[{i}]") for i, r in enumerate(raw)]
                else:
                    parsed[key] = self.parse(cls, raw, f"$.{key}")
            except Invalid as e:
                errors.extend(e.args[0])
        for key, value in parsed.items():
            difference = self.tools_check.first_difference(
                body[key], self.bytes_as_sent(body[key], self.dump(self.members[key], value)), f"$.{key}")
            if difference:
                errors.append(f"google-genai's types do not keep the body as sent: {difference}")
        if "contents" not in body:
            errors.append("$.contents: missing")
        if errors:
            raise Invalid(errors)
        if "tools" in body:
            tool_errors, _ = self.tools_check.errors_of(body["tools"], self.client)
            if tool_errors:
                raise Invalid([f"$.tools: {e}" for e in tool_errors])
        # The request google-genai builds from the same parts must be the body as sent.
        generation = parsed.get("generationConfig")
        config = {
            name: getattr(generation, name)
            for name in (generation.model_fields_set if generation else ())
        }
        unknown = [n for n in config if n not in types.GenerateContentConfig.model_fields]
        if unknown:
            raise Invalid([f"$.generationConfig: google-genai cannot send {unknown} to the Gemini API"])
        try:
            params = types._GenerateContentParameters(
                model="gemini-2.5-flash",
                contents=parsed["contents"],
                config=types.GenerateContentConfig(
                    system_instruction=parsed.get("systemInstruction"),
                    tools=parsed.get("tools"),
                    tool_config=parsed.get("toolConfig"),
                    safety_settings=parsed.get("safetySettings"),
                    cached_content=parsed.get("cachedContent"),
                    **config,
                ),
            )
            built = self.models._GenerateContentParameters_to_mldev(self.client._api_client, params, None, params)
            built = self.common.encode_unserializable_types(self.common.convert_to_dict(built))
        except Exception as e:  # the converters raise ValueError and pydantic errors
            raise Invalid([f"google-genai cannot build a Gemini API request of the body: {e}"])
        # Read back through the same types: the converters leave some models (a tool's
        # Schema) to be dumped by field name (property_ordering), which the API also reads.
        built = {k: v for k, v in built.items() if not k.startswith("_") and k != "config"}
        try:
            built = {key: self.dump(self.members[key], value) for key, value in built.items()}
        except (KeyError, ValidationError) as e:
            raise Invalid([f"google-genai builds a request google-genai cannot read back: {e}"])
        difference = self.tools_check.first_difference(body, self.bytes_as_sent(body, built))
        if difference:
            raise Invalid([f"the request google-genai builds is not the body: {difference}"])
        return {"ok": True}

    @staticmethod
    def dump(member, value):
        """A request member as the API's JSON (camelCase, unset fields left out)."""
        many, cls = member
        if cls is str:
            return value
        one = lambda v: cls.model_validate(v).model_dump(mode="json", by_alias=True, exclude_none=True)
        return [one(v) for v in value] if many else one(value)

    @classmethod
    def bytes_as_sent(cls, sent, built):
        """`built` with each base64 string that holds the same bytes as the one sent
        replaced by it: google-genai writes bytes (thoughtSignature, inline data) in the
        URL-safe alphabet, and the API reads both alphabets, as protobuf's JSON does."""
        if isinstance(sent, dict) and isinstance(built, dict):
            return {k: cls.bytes_as_sent(sent.get(k), v) for k, v in built.items()}
        if isinstance(sent, list) and isinstance(built, list) and len(sent) == len(built):
            return [cls.bytes_as_sent(a, b) for a, b in zip(sent, built)]
        if isinstance(sent, str) and isinstance(built, str) and sent != built:
            try:
                if base64.b64decode(sent, validate=True) == base64.urlsafe_b64decode(built):
                    return sent
            except ValueError:
                pass
        return built

    def response(self, raw, path="$"):
        """A GenerateContentResponse: strict from JSON, then as the SDK reads one."""
        parsed = self.parse(self.types.GenerateContentResponse, raw, path)
        dumped = parsed.model_dump(mode="json", by_alias=True, exclude_none=True)
        difference = self.tools_check.first_difference(raw, self.bytes_as_sent(raw, dumped), path)
        if difference:
            raise Invalid([f"google-genai's GenerateContentResponse does not keep the body: {difference}"])
        converted = self.models._GenerateContentResponse_from_mldev(raw, None, None)
        return self.types.GenerateContentResponse._from_response(response=converted, kwargs={})

    @staticmethod
    def usage(response):
        usage = response.usage_metadata
        return (usage.prompt_token_count, usage.candidates_token_count) if usage else (None, None)

    @staticmethod
    def stop(response):
        candidates = response.candidates or []
        reason = candidates[0].finish_reason if candidates else None
        return getattr(reason, "value", reason)

    @staticmethod
    def calls(response):
        return [call(c.id, c.name, c.args if c.args is not None else {}) for c in response.function_calls or []]

    def reply(self, body):
        response = self.response(body)
        return outcome(response.text or "", self.calls(response), self.stop(response), *self.usage(response))

    def stream(self, body):
        chunks, errors = [], []
        for i, raw in enumerate(stream_list(body)):
            try:
                chunks.append(self.response(raw, f"$[{i}]"))
            except Invalid as e:
                errors.extend(e.args[0])
        if errors:
            raise Invalid(errors)
        text, calls, stop, usage = "", [], None, (None, None)
        for chunk in chunks:
            text += chunk.text or ""
            calls.extend(self.calls(chunk))
            stop = self.stop(chunk) or stop
            if chunk.usage_metadata:
                usage = self.usage(chunk)
        return outcome(text, calls, stop, *usage)


# ---------------------------------------------------------------------------------------
# Bedrock


class Bedrock:
    def __init__(self):
        import botocore.session
        import botocore.validate
        from botocore.eventstream import EventStream
        from botocore.parsers import EventStreamJSONParser, create_parser
        import bedrock_validate

        self.service = botocore.session.get_session().get_service_model("bedrock-runtime")
        self.converse = self.service.operation_model("Converse")
        self.stream_shape = self.service.operation_model("ConverseStream").output_shape.members["stream"]
        self.validator = botocore.validate.ParamValidator()
        self.request_check = bedrock_validate
        self.EventStream, self.EventStreamJSONParser = EventStream, EventStreamJSONParser
        self.reply_parser = create_parser(self.service.metadata["protocol"])

    def request(self, body):
        errors = self.request_check.errors_of(body, self.service, self.converse)
        if errors:
            raise Invalid([line for e in errors for line in e.splitlines() if line.strip()])
        return {"ok": True}

    def shape_errors(self, value, shape, path):
        """ParamValidator and the length and pattern constraints against any shape."""
        report = self.validator.validate(value, shape)
        errors = []
        if report.has_errors():
            errors.extend(line for line in report.generate_report().splitlines() if line.strip())
        self.request_check.constraint_errors(value, shape, path, errors)
        return errors

    @staticmethod
    def usage(usage):
        return (usage.get("inputTokens"), usage.get("outputTokens")) if usage else (None, None)

    def reply(self, body):
        shape = self.converse.output_shape
        errors = self.shape_errors(body, shape, "ConverseResponse")
        if errors:
            raise Invalid(errors)
        response = {"status_code": 200, "headers": {}, "body": json.dumps(body).encode()}
        parsed = self.reply_parser.parse(response, shape)
        parsed.pop("ResponseMetadata", None)
        difference = self.difference(body, parsed)
        if difference:
            raise Invalid([f"botocore's parser does not read the body as given: {difference}"])
        text, calls = "", []
        for block in parsed["output"]["message"]["content"]:
            if "text" in block:
                text += block["text"]
            elif "toolUse" in block:
                use = block["toolUse"]
                calls.append(call(use["toolUseId"], use["name"], use["input"]))
        return outcome(text, calls, parsed["stopReason"], *self.usage(parsed.get("usage")))

    @staticmethod
    def difference(a, b):
        import gemini_validate  # its JSON comparison: 1 and 1.0 equal, booleans not numbers

        return gemini_validate.first_difference(a, b)

    @staticmethod
    def frame(event_type, payload):
        """One AWS event-stream message: prelude, string headers, payload, CRC32s."""
        headers = b""
        for name, value in ((":event-type", event_type), (":content-type", "application/json"),
                            (":message-type", "event")):
            headers += bytes([len(name)]) + name.encode() + b"\x07" + struct.pack(">H", len(value)) + value.encode()
        total = 12 + len(headers) + len(payload) + 4
        prelude = struct.pack(">II", total, len(headers))
        message = prelude + struct.pack(">I", zlib.crc32(prelude)) + headers + payload
        return message + struct.pack(">I", zlib.crc32(message))

    def stream(self, body):
        events, errors = stream_list(body), []
        for i, event in enumerate(events):
            if len(event) != 1 or next(iter(event)) not in self.stream_shape.members:
                errors.append(f"$[{i}]: not one member of ConverseStreamOutput "
                              f"({', '.join(self.stream_shape.members)}): {sorted(event)}")
                continue
            (name, value), = event.items()
            errors.extend(f"$[{i}]: {e}" for e in self.shape_errors(value, self.stream_shape.members[name],
                                                                    f"$[{i}].{name}"))
        if errors:
            raise Invalid(errors)

        class Raw:
            def stream(inner):
                for event in events:
                    (name, value), = event.items()
                    yield self.frame(name, json.dumps(value).encode())

        try:
            yielded = list(self.EventStream(Raw(), self.stream_shape, self.EventStreamJSONParser(),
                                            "ConverseStream"))
        except Exception as e:  # botocore's EventStreamError and parser errors
            raise Invalid([f"botocore's event stream parser refuses the stream: {e}"])
        for i, (event, parsed) in enumerate(zip(events, yielded)):
            difference = self.difference(event, parsed)
            if difference:
                errors.append(f"$[{i}]: botocore does not yield the event as given: {difference}")
        if len(yielded) != len(events):
            errors.append(f"botocore yields {len(yielded)} events of the {len(events)} given")
        if errors:
            raise Invalid(errors)
        # The documented rule: blocks by contentBlockIndex.
        blocks, closed, stop, usage = {}, set(), None, None
        for event in yielded:
            (name, value), = event.items()
            if name == "contentBlockStart" and "toolUse" in value["start"]:
                start = value["start"]["toolUse"]
                blocks[value["contentBlockIndex"]] = {"toolUse": [start["toolUseId"], start["name"], ""]}
            elif name == "contentBlockDelta":
                block = blocks.setdefault(value["contentBlockIndex"], {})
                delta = value["delta"]
                if "text" in delta:
                    block["text"] = block.get("text", "") + delta["text"]
                elif "toolUse" in delta:
                    if "toolUse" not in block:
                        raise Invalid([f"a toolUse delta for block {value['contentBlockIndex']}, not started"])
                    block["toolUse"][2] += delta["toolUse"]["input"]
            elif name == "contentBlockStop":
                closed.add(value["contentBlockIndex"])
            elif name == "messageStop":
                stop = value["stopReason"]
            elif name == "metadata":
                usage = value.get("usage")
        text, calls = "", []
        for index in sorted(blocks):
            block = blocks[index]
            text += block.get("text", "")
            if "toolUse" in block:
                id_, name, raw = block["toolUse"]
                complete = index in closed
                calls.append(call_text(id_, name, (raw or "{}") if complete else raw, complete))
        return outcome(text, calls, stop, *self.usage(usage))


# ---------------------------------------------------------------------------------------


CHECKERS = {
    "anthropic": Anthropic,
    "openai-chat": OpenAIChat,
    "openai-responses": OpenAIResponses,
    "bedrock": Bedrock,
    "gemini": Gemini,
}


def check(line, checkers):
    """One input line's output object."""
    if not isinstance(line, dict) or set(line) - {"provider", "kind", "body", "note"}:
        return {"ok": False, "errors": ['a line is {"provider": ..., "kind": ..., "body": ...}']}
    provider, kind = line.get("provider"), line.get("kind")
    if provider not in PROVIDERS or kind not in KINDS or "body" not in line:
        return {"ok": False, "errors": [f"provider is one of {PROVIDERS}, kind one of {KINDS}, and body is given"]}
    if provider not in checkers:
        checkers[provider] = CHECKERS[provider]()
    try:
        return getattr(checkers[provider], kind)(line["body"])
    except Invalid as e:
        errors = e.args[0]
        if len(errors) > MOST_ERRORS:
            errors = errors[:MOST_ERRORS] + [f"... and {len(errors) - MOST_ERRORS} more"]
        return {"ok": False, "errors": errors}
    except Exception as e:  # an SDK or this script choking on a body it let through
        return {"ok": False, "errors": [f"the check itself failed on this body: {e!r}"]}


def recorded(directory):
    """(file, line) for every recorded body under `directory`."""
    for provider in sorted(os.listdir(directory)):
        folder = os.path.join(directory, provider)
        if provider not in PROVIDERS or not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            relative = f"{provider}/{name}"
            if name.startswith("stream") and name.endswith(".jsonl"):
                body = [json.loads(event) for event in text.splitlines() if event.strip()]
                yield relative, {"provider": provider, "kind": "stream", "body": body}
            elif name.endswith(".json") and name.startswith(("reply", "request")):
                kind = "reply" if name.startswith("reply") else "request"
                yield relative, {"provider": provider, "kind": kind, "body": json.loads(text)}


def main():
    args = sys.argv[1:]
    if args[:1] == ["--recorded"] and len(args) == 2:
        lines = list(recorded(args[1]))
    elif len(args) <= 1 and not (args and args[0].startswith("--")):
        text = open(args[0], encoding="utf-8").read() if args else sys.stdin.read()
        lines = [(None, json.loads(line)) for line in text.splitlines() if line.strip()]
    else:
        sys.exit("usage: provider_validate.py [FILE] | --recorded DIR")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    checkers, failed = {}, False
    for file, line in lines:
        result = check(line, checkers)
        if file is not None:
            result = {"file": file, **result}
        failed |= not result["ok"]
        print(json.dumps(result, ensure_ascii=False), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
