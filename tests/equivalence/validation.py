"""Check request bodies the way the real services do, and answer violations with their errors.

``/v1/responses`` requests are checked strictly: a migrated program must send nothing the
Responses API would reject. Every set of accepted names (top-level parameters, the keys of a
function tool, an input message, ``text.format``...) is read from the installed ``openai`` SDK,
never copied by hand, so the bench follows the SDK when it changes. Chat requests are checked only
for what the Chat API itself rejects and an original program could plausibly get wrong (tool
message ordering).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, FrozenSet, Iterable, Mapping, Optional, Tuple, Union

from openai.resources.responses import Responses
from openai.types.chat import ChatCompletionMessageParam
from openai.types.responses import (
    EasyInputMessageParam,
    FunctionToolParam,
    ResponseFormatTextConfigParam,
    ResponseFormatTextJSONSchemaConfigParam,
    ResponseFunctionToolCallParam,
    ResponseInputContentParam,
    ResponseInputItemParam,
    ResponseOutputMessageParam,
    ResponseTextConfigParam,
    ToolChoiceFunctionParam,
    ToolChoiceOptions,
)
from openai.types.responses.response_create_params import StreamOptions
from openai.types.responses.response_input_item_param import FunctionCallOutput, Message
from typing_extensions import Annotated, Literal, NotRequired, Required, get_args, get_origin, get_type_hints


@dataclass(frozen=True)
class ApiError:
    """An HTTP 400 answer, in the OpenAI error format."""

    message: str
    param: Optional[str] = None
    code: Optional[str] = None
    type: str = "invalid_request_error"

    def body(self) -> dict:
        return {"error": {"message": self.message, "type": self.type, "param": self.param, "code": self.code}}


@dataclass(frozen=True)
class StoredResponse:
    """What the server remembers of a stored response, for ``previous_response_id``."""

    chain_call_ids: FrozenSet[str]  # every function call made in the conversation up to this response
    output_call_ids: Tuple[str, ...]  # the calls in its output: the next request must answer them


class _Rejected(Exception):
    def __init__(self, error: ApiError) -> None:
        super().__init__(error.message)
        self.error = error


def _missing(param: str) -> _Rejected:
    return _Rejected(ApiError(f"Missing required parameter: '{param}'.", param, "missing_required_parameter"))


def _unknown(param: str) -> _Rejected:
    return _Rejected(ApiError(f"Unknown parameter: '{param}'.", param, "unknown_parameter"))


def _invalid_value(param: str, value: Any, supported: Iterable[str]) -> _Rejected:
    choices = ", ".join(f"'{choice}'" for choice in sorted(supported))
    return _Rejected(
        ApiError(f"Invalid value: '{value}'. Supported values are: {choices}.", param, "invalid_value")
    )


def _invalid_type(param: str, expected: str, value: Any) -> _Rejected:
    got = "null" if value is None else type(value).__name__
    return _Rejected(
        ApiError(f"Invalid type for '{param}': expected {expected}, but got {got} instead.", param, "invalid_type")
    )


# -- what the installed SDK accepts --------------------------------------------------------------


def responses_parameters() -> FrozenSet[str]:
    """The body parameters ``client.responses.create`` accepts, read from its signature."""
    names = inspect.signature(Responses.create).parameters
    return frozenset(name for name in names if name not in ("self", "timeout") and not name.startswith("extra_"))


def _fields(typed_dict: type) -> Tuple[FrozenSet[str], FrozenSet[str]]:
    """(all keys, required keys) of one of the SDK's request TypedDicts."""
    hints = get_type_hints(typed_dict, include_extras=True)
    return frozenset(hints), frozenset(key for key, hint in hints.items() if get_origin(hint) is Required)


def _literal_values(hint: Any) -> FrozenSet[str]:
    """The strings of a ``Literal`` annotation, looking through Required/Optional/Annotated."""
    if get_origin(hint) is Literal:
        return frozenset(get_args(hint))
    if get_origin(hint) in (Required, NotRequired, Annotated, Union):
        return frozenset().union(*(_literal_values(arg) for arg in get_args(hint)))
    return frozenset()


def _type_tags(union: Any) -> FrozenSet[str]:
    """The ``type`` values of the TypedDicts in a union of request shapes."""
    members = get_args(union) or (union,)
    return frozenset().union(*(_literal_values(get_type_hints(m, include_extras=True).get("type")) for m in members))


def _element_type(hint: Any) -> Any:
    """``T`` from ``Required[Iterable[T]]``."""
    (iterable,) = get_args(hint)
    (element,) = get_args(iterable)
    return element


RESPONSES_PARAMETERS = responses_parameters()
FUNCTION_TOOL_KEYS, _ = _fields(FunctionToolParam)
TOOL_CHOICE_FUNCTION_KEYS, TOOL_CHOICE_FUNCTION_REQUIRED = _fields(ToolChoiceFunctionParam)
TOOL_CHOICE_MODES = _literal_values(ToolChoiceOptions)
TEXT_KEYS, _ = _fields(ResponseTextConfigParam)
TEXT_FORMAT_TYPES = _type_tags(ResponseFormatTextConfigParam)
JSON_SCHEMA_FORMAT_KEYS, JSON_SCHEMA_FORMAT_REQUIRED = _fields(ResponseFormatTextJSONSchemaConfigParam)
STREAM_OPTIONS_KEYS, _ = _fields(StreamOptions)
INPUT_ITEM_TYPES = _type_tags(ResponseInputItemParam)
INPUT_MESSAGE_ROLES = _literal_values(get_type_hints(EasyInputMessageParam, include_extras=True)["role"])
# An input message may be written as EasyInputMessage, Message or an assistant output message.
INPUT_MESSAGE_KEYS = frozenset().union(*(_fields(shape)[0] for shape in (EasyInputMessageParam, Message, ResponseOutputMessageParam)))
CONTENT_PART_TYPES = _type_tags(ResponseInputContentParam) | _type_tags(
    _element_type(get_type_hints(ResponseOutputMessageParam, include_extras=True)["content"])
)
FUNCTION_CALL_KEYS, FUNCTION_CALL_REQUIRED = _fields(ResponseFunctionToolCallParam)
FUNCTION_CALL_OUTPUT_KEYS, _ = _fields(FunctionCallOutput)
CHAT_MESSAGE_ROLES = frozenset().union(
    *(_literal_values(get_type_hints(shape, include_extras=True)["role"]) for shape in get_args(ChatCompletionMessageParam))
)

# Chat parameters whose new home the service names in its error message.
MOVED_PARAMETERS = {
    "messages": "input",
    "max_tokens": "max_output_tokens",
    "max_completion_tokens": "max_output_tokens",
    "response_format": "text.format",
    "reasoning_effort": "reasoning.effort",
    "verbosity": "text.verbosity",
    "functions": "tools",
    "function_call": "tool_choice",
}
MIN_MAX_OUTPUT_TOKENS = 16


def _check_fields(value: Any, where: str, allowed: FrozenSet[str], required: Iterable[str] = ()) -> None:
    """A dict with every required key and no unknown one (missing keys are reported first, as the API does)."""
    if not isinstance(value, dict):
        raise _invalid_type(where, "an object", value)
    for key in required:
        if key not in value:
            raise _missing(f"{where}.{key}")
    for key in value:
        if key not in allowed:
            raise _unknown(f"{where}.{key}")


# -- Responses -----------------------------------------------------------------------------------


def validate_responses_request(body: Any, stored: Mapping[str, StoredResponse]) -> Optional[ApiError]:
    """The error the Responses API answers ``body`` with, or None if it would accept it.

    ``stored`` maps the ids of stored responses to what a ``previous_response_id`` brings along.
    """
    try:
        _check_responses_request(body, stored)
    except _Rejected as rejected:
        return rejected.error
    return None


def _check_responses_request(body: Any, stored: Mapping[str, StoredResponse]) -> None:
    if not isinstance(body, dict):
        raise _invalid_type("body", "an object", body)
    for name in body:
        if name in MOVED_PARAMETERS:
            raise _Rejected(
                ApiError(
                    f"Unsupported parameter: '{name}'. In the Responses API, this parameter has moved to '{MOVED_PARAMETERS[name]}'.",
                    name,
                    "unsupported_parameter",
                )
            )
        if name not in RESPONSES_PARAMETERS:
            raise _unknown(name)
    if "model" not in body and "prompt" not in body:  # a stored prompt can name the model
        raise _missing("model")
    if "max_output_tokens" in body:
        _check_max_output_tokens(body["max_output_tokens"])
    for index, tool in enumerate(body.get("tools") or []):
        _check_tool(tool, f"tools[{index}]")
    if "tool_choice" in body:
        _check_tool_choice(body["tool_choice"])
    if "text" in body:
        _check_text(body["text"])
    if "stream_options" in body:
        _check_fields(body["stream_options"], "stream_options", STREAM_OPTIONS_KEYS)
    if _format_type(body.get("text")) == "json_object" and not _mentions_json(body.get("input")):
        # Checked on the input only: a system prompt moved to `instructions` does not count.
        raise _Rejected(
            ApiError(
                "Response input messages must contain the word 'json' in some form to use 'text.format' of type 'json_object'.",
                "input",
                "invalid_value",
            )
        )
    previous = _previous_response(body.get("previous_response_id"), stored)
    items = body.get("input")
    if isinstance(items, list):
        for index, item in enumerate(items):
            _check_input_item(item, f"input[{index}]")
        _check_call_pairing(items, previous)
    elif items is not None and not isinstance(items, str):
        raise _invalid_type("input", "a string or an array of input items", items)


def _check_max_output_tokens(value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _invalid_type("max_output_tokens", "an integer", value)
    if value < MIN_MAX_OUTPUT_TOKENS:
        raise _Rejected(
            ApiError(
                "Invalid 'max_output_tokens': integer below minimum value. "
                f"Expected a value >= {MIN_MAX_OUTPUT_TOKENS}, but got {value} instead.",
                "max_output_tokens",
                "integer_below_min_value",
            )
        )


def _check_tool(tool: Any, where: str) -> None:
    if not isinstance(tool, dict):
        raise _invalid_type(where, "an object", tool)
    if "type" not in tool:
        raise _missing(f"{where}.type")
    if tool["type"] == "function":
        # The SDK's TypedDict also marks parameters and strict Required; the bench insists only on
        # name, as a Chat tool without parameters is common and its migration keeps it that way.
        _check_fields(tool, where, FUNCTION_TOOL_KEYS, required=("type", "name"))
        if tool.get("strict", True) is not False:  # strict unless told otherwise, unlike Chat's tools
            _check_strict_schema(tool.get("parameters"), tool["name"], ())


def _check_strict_schema(schema: Any, function: str, context: tuple) -> None:
    """A strict function's schema, as the service checks it: every object closed
    (``additionalProperties: false``) with all its properties required."""
    if not isinstance(schema, dict):
        return
    if schema.get("type") == "object":
        if schema.get("additionalProperties") is not False:
            raise _Rejected(ApiError(
                f"Invalid schema for function '{function}': In context={context}, 'additionalProperties' is required"
                " to be supplied and to be false.",
                "tools",
                "invalid_function_parameters",
            ))
        properties = schema.get("properties") or {}
        if sorted(schema.get("required") or []) != sorted(properties):
            raise _Rejected(ApiError(
                f"Invalid schema for function '{function}': In context={context}, 'required' is required to be"
                " supplied and to be an array including every key in properties.",
                "tools",
                "invalid_function_parameters",
            ))
        for key, value in properties.items():
            _check_strict_schema(value, function, (*context, "properties", key))
    if isinstance(schema.get("items"), dict):
        _check_strict_schema(schema["items"], function, (*context, "items"))


def _check_tool_choice(choice: Any) -> None:
    if isinstance(choice, str):
        if choice not in TOOL_CHOICE_MODES:
            raise _invalid_value("tool_choice", choice, TOOL_CHOICE_MODES)
    elif isinstance(choice, dict) and choice.get("type") == "function":
        _check_fields(choice, "tool_choice", TOOL_CHOICE_FUNCTION_KEYS, sorted(TOOL_CHOICE_FUNCTION_REQUIRED))
    elif not isinstance(choice, dict):
        raise _invalid_type("tool_choice", "a string or an object", choice)


def _check_text(text: Any) -> None:
    _check_fields(text, "text", TEXT_KEYS)
    if "format" not in text:
        return
    text_format = text["format"]
    if not isinstance(text_format, dict):
        raise _invalid_type("text.format", "an object", text_format)
    if "type" not in text_format:
        raise _missing("text.format.type")
    if text_format["type"] not in TEXT_FORMAT_TYPES:
        raise _invalid_value("text.format.type", text_format["type"], TEXT_FORMAT_TYPES)
    if text_format["type"] == "json_schema":
        # A Chat-shaped {"type": "json_schema", "json_schema": {...}} fails here on the missing name.
        _check_fields(text_format, "text.format", JSON_SCHEMA_FORMAT_KEYS, sorted(JSON_SCHEMA_FORMAT_REQUIRED))


def _format_type(holder: Any) -> Any:
    """The ``type`` of ``holder["format"]`` (Responses' ``text``) when it is a dict."""
    text_format = holder.get("format") if isinstance(holder, dict) else None
    return text_format.get("type") if isinstance(text_format, dict) else None


def _mentions_json(messages: Any) -> bool:
    """Does any text of ``messages`` (a string, or messages whose content is a string or text
    parts) hold the word "json", in any case? JSON mode requires it of both APIs."""
    if isinstance(messages, str):
        return "json" in messages.lower()
    texts = []
    for message in messages if isinstance(messages, list) else []:
        content = message.get("content") if isinstance(message, dict) else None
        parts = content if isinstance(content, list) else [content]
        texts += [part.get("text") if isinstance(part, dict) else part for part in parts]
    return any(isinstance(text, str) and "json" in text.lower() for text in texts)


def _check_input_item(item: Any, where: str) -> None:
    if not isinstance(item, dict):
        raise _invalid_type(where, "an object", item)
    kind = item.get("type", "message" if "role" in item else None)
    if kind is None:
        raise _missing(f"{where}.type")
    if kind not in INPUT_ITEM_TYPES:
        raise _invalid_value(f"{where}.type", kind, INPUT_ITEM_TYPES)
    if kind == "message":
        _check_message(item, where)
    elif kind == "function_call":
        _check_fields(item, where, FUNCTION_CALL_KEYS, sorted(FUNCTION_CALL_REQUIRED))
        if "id" in item and not str(item["id"]).startswith("fc_"):
            raise _Rejected(
                ApiError(f"Invalid '{where}.id': '{item['id']}'. Expected an ID that begins with 'fc_'.", f"{where}.id", "invalid_value")
            )
    elif kind == "function_call_output":
        # The SDK types call_id as optional; the service still needs it to pair the output with its call.
        _check_fields(item, where, FUNCTION_CALL_OUTPUT_KEYS, ("call_id", "output", "type"))


def _check_message(message: dict, where: str) -> None:
    for key in ("role", "content"):
        if key not in message:
            raise _missing(f"{where}.{key}")
    if message["role"] not in INPUT_MESSAGE_ROLES:
        raise _invalid_value(f"{where}.role", message["role"], INPUT_MESSAGE_ROLES)
    _check_fields(message, where, INPUT_MESSAGE_KEYS)
    content = message["content"]
    if isinstance(content, list):
        for index, part in enumerate(content):
            part_type = part.get("type") if isinstance(part, dict) else None
            if part_type not in CONTENT_PART_TYPES:  # e.g. Chat's {"type": "text"} or {"type": "image_url"}
                raise _invalid_value(f"{where}.content[{index}].type", part_type, CONTENT_PART_TYPES)
    elif not isinstance(content, str):
        raise _invalid_type(f"{where}.content", "a string or an array of content parts", content)


def _previous_response(response_id: Optional[str], stored: Mapping[str, StoredResponse]) -> StoredResponse:
    if response_id is None:
        return StoredResponse(frozenset(), ())
    if response_id not in stored:
        raise _Rejected(
            ApiError(f"Previous response with id '{response_id}' not found.", "previous_response_id", "previous_response_not_found")
        )
    return stored[response_id]


def _check_call_pairing(items: list, previous: StoredResponse) -> None:
    """Every function_call_output answers a known call, and every call that needs an answer gets one."""
    calls = [item["call_id"] for item in items if item.get("type") == "function_call"]
    answered = [item["call_id"] for item in items if item.get("type") == "function_call_output"]
    known = previous.chain_call_ids | set(calls)
    for call_id in answered:
        if call_id not in known:
            raise _Rejected(ApiError(f"No tool call found for function call output with call_id {call_id}.", "input"))
    for call_id in [*previous.output_call_ids, *calls]:
        if call_id not in answered:
            raise _Rejected(ApiError(f"No tool output found for function call {call_id}.", "input"))


def input_call_ids(body: dict) -> FrozenSet[str]:
    """The call ids of the function calls written into a (valid) request's ``input``."""
    items = body.get("input")
    if not isinstance(items, list):
        return frozenset()
    return frozenset(item["call_id"] for item in items if isinstance(item, dict) and item.get("type") == "function_call")


# -- Chat Completions ----------------------------------------------------------------------------


def validate_chat_request(body: Any) -> Optional[ApiError]:
    """The error the Chat Completions API answers ``body`` with, or None (a light check)."""
    try:
        _check_chat_request(body)
    except _Rejected as rejected:
        return rejected.error
    return None


def _check_chat_request(body: Any) -> None:
    if not isinstance(body, dict):
        raise _invalid_type("body", "an object", body)
    if "model" not in body:
        raise _Rejected(ApiError("you must provide a model parameter", None, None))
    messages = body.get("messages")
    if messages is None:
        raise _missing("messages")
    if not isinstance(messages, list) or not messages:
        raise _invalid_type("messages", "a non-empty array", messages)
    response_format = body.get("response_format")
    if isinstance(response_format, dict) and response_format.get("type") == "json_object" and not _mentions_json(messages):
        raise _Rejected(
            ApiError("'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.", "messages")
        )
    open_calls: list = []  # ids of the latest assistant tool calls still waiting for their tool message
    for index, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        if role not in CHAT_MESSAGE_ROLES:
            raise _invalid_value(f"messages[{index}].role", role, CHAT_MESSAGE_ROLES)
        if role == "tool":
            if message.get("tool_call_id") not in open_calls:
                raise _Rejected(
                    ApiError(
                        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
                        f"messages.[{index}].role",
                    )
                )
            open_calls.remove(message["tool_call_id"])
            continue
        if open_calls:
            raise _unanswered_tool_calls(open_calls, f"messages.[{index}].role")
        if role == "assistant":
            open_calls = [call["id"] for call in message.get("tool_calls") or []]
    if open_calls:
        raise _unanswered_tool_calls(open_calls, "messages")


def _unanswered_tool_calls(call_ids: list, param: str) -> _Rejected:
    return _Rejected(
        ApiError(
            "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
            f"'tool_call_id'. The following tool_call_ids did not have response messages: {', '.join(call_ids)}",
            param,
        )
    )


def validate_completions_request(body: Any) -> Optional[ApiError]:
    """The error the legacy Completions API answers ``body`` with, or None."""
    if not isinstance(body, dict):
        return _invalid_type("body", "an object", body).error
    for name in ("model", "prompt"):
        if name not in body:
            return _missing(name).error
    return None
