"""Render a turn as the Chat Completions API (and the legacy Completions API) sends it.

Shapes follow ``openai.types.chat.ChatCompletion`` / ``ChatCompletionChunk`` and
``openai.types.Completion``; ``tests/test_fake_server.py`` validates them with those models.
"""

from __future__ import annotations

from typing import List

from .scenario import StreamFailure, Turn, Usage
from .wire import CREATED, Ids, pieces

SYSTEM_FINGERPRINT = "fp_fake0001"


def chat_usage(usage: Usage) -> dict:
    return {
        "prompt_tokens": usage.input_tokens,
        "completion_tokens": usage.output_tokens,
        "total_tokens": usage.total_tokens,
        "prompt_tokens_details": {"cached_tokens": usage.cached_tokens, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": usage.reasoning_tokens,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    }


def _envelope(object_type: str, completion_id: str, request: dict) -> dict:
    return {
        "id": completion_id,
        "object": object_type,
        "created": CREATED,
        "model": request.get("model", ""),
        "system_fingerprint": SYSTEM_FINGERPRINT,
    }


def chat_completion(turn: Turn, request: dict, ids: Ids) -> dict:
    """A non-streaming ``chat.completion``. A request with the legacy ``functions`` gets its call
    as ``message.function_call``, with the finish reason ``function_call``."""
    if isinstance(turn, StreamFailure):
        raise ValueError("a stream failure happens in a streamed answer: fix the scenario")
    message: dict = {"role": "assistant", "content": turn.text, "refusal": turn.refusal, "annotations": []}
    finish_reason = turn.finish_reason
    if turn.tool_calls and "functions" in request:
        if len(turn.tool_calls) != 1:
            raise ValueError("a legacy function call names one function: fix the scenario")
        (call,) = turn.tool_calls
        message["function_call"] = {"name": call.name, "arguments": call.arguments}
        finish_reason = "function_call"
    elif turn.tool_calls:  # the real API leaves the key out when there are no calls
        message["tool_calls"] = [
            {"id": call.call_id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
            for call in turn.tool_calls
        ]
    return {
        **_envelope("chat.completion", ids.next("chatcmpl-"), request),
        "service_tier": "default",
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}],
        "usage": chat_usage(turn.usage),
    }


def chat_completion_chunks(turn: Turn, request: dict, ids: Ids) -> List[dict]:
    """The ``chat.completion.chunk`` objects of a stream, in order (the caller adds ``[DONE]``).

    As on the real API: the role comes first, then content (or refusal) pieces, then per tool call
    a delta carrying ``id`` and ``function.name`` followed by ``arguments`` pieces, then a chunk with
    the ``finish_reason``, and a usage chunk with empty ``choices`` only when
    ``stream_options.include_usage`` is set.
    """
    include_usage = bool((request.get("stream_options") or {}).get("include_usage"))
    envelope = {**_envelope("chat.completion.chunk", ids.next("chatcmpl-"), request), "service_tier": "default"}

    def chunk(delta: dict, finish_reason=None) -> dict:
        body = {**envelope, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]}
        if include_usage:
            body["usage"] = None  # every chunk carries the key; only the last one has the numbers
        return body

    chunks = [chunk({"role": "assistant", "content": "" if turn.text is not None else None, "refusal": None})]
    chunks += [chunk({"content": piece}) for piece in pieces(turn.text or "")]
    if isinstance(turn, StreamFailure):  # the SDK raises APIError on this chunk
        return chunks + [{"error": {"message": turn.message, "type": "server_error", "param": None, "code": None}}]
    chunks += [chunk({"refusal": piece}) for piece in pieces(turn.refusal or "")]
    for index, call in enumerate(turn.tool_calls):
        opening = {"index": index, "id": call.call_id, "type": "function", "function": {"name": call.name, "arguments": ""}}
        chunks.append(chunk({"tool_calls": [opening]}))
        chunks += [
            chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}) for piece in pieces(call.arguments)
        ]
    chunks.append(chunk({}, turn.finish_reason))
    if include_usage:
        chunks.append({**envelope, "choices": [], "usage": chat_usage(turn.usage)})
    return chunks


def _legacy_finish_reason(turn: Turn) -> str:
    if turn.tool_calls or turn.refusal is not None:
        raise ValueError("the legacy Completions API has no tool calls and no refusals: fix the scenario")
    return turn.finish_reason


def text_completion(turn: Turn, request: dict, ids: Ids) -> dict:
    """A non-streaming legacy ``text_completion`` (``POST /v1/completions``)."""
    choice = {"text": turn.text or "", "index": 0, "logprobs": None, "finish_reason": _legacy_finish_reason(turn)}
    return {**_envelope("text_completion", ids.next("cmpl-"), request), "choices": [choice], "usage": chat_usage(turn.usage)}


def text_completion_chunks(turn: Turn, request: dict, ids: Ids) -> List[dict]:
    """The chunks of a streamed legacy completion (the caller adds ``[DONE]``)."""
    finish_reason = _legacy_finish_reason(turn)
    envelope = _envelope("text_completion", ids.next("cmpl-"), request)

    def chunk(text: str, reason=None) -> dict:
        return {**envelope, "choices": [{"text": text, "index": 0, "logprobs": None, "finish_reason": reason}]}

    chunks = [chunk(piece) for piece in pieces(turn.text or "")] + [chunk("", finish_reason)]
    if (request.get("stream_options") or {}).get("include_usage"):
        chunks.append({**envelope, "choices": [], "usage": chat_usage(turn.usage)})
    return chunks
