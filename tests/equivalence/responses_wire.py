"""Render a turn as the Responses API sends it: a ``response`` object, or its typed SSE events.

Shapes follow ``openai.types.responses.Response`` and the ``ResponseStreamEvent`` union;
``tests/test_fake_server.py`` validates them with those models and runs the SDK's stream helpers
against them.
"""

from __future__ import annotations

import copy
from typing import List, Tuple

from .scenario import StreamFailure, Turn, Usage
from .wire import CREATED, Ids, pieces

# How the Responses API reports each Chat finish reason: (status, incomplete_details.reason).
_OUTCOME = {
    "stop": ("completed", None),
    "tool_calls": ("completed", None),
    "length": ("incomplete", "max_output_tokens"),
    "content_filter": ("incomplete", "content_filter"),
    "failed": ("failed", None),
}


def responses_usage(usage: Usage) -> dict:
    return {
        "input_tokens": usage.input_tokens,
        # The installed SDK's InputTokensDetails requires cache_write_tokens.
        "input_tokens_details": {"cached_tokens": usage.cached_tokens, "cache_write_tokens": 0},
        "output_tokens": usage.output_tokens,
        "output_tokens_details": {"reasoning_tokens": usage.reasoning_tokens},
        "total_tokens": usage.total_tokens,
    }


def _echo_tool(tool: dict) -> dict:
    """A tool as the response echoes it: function tools get the server-side defaults filled in."""
    if tool.get("type") != "function":
        return tool
    return {
        "type": "function",
        "name": tool["name"],
        "description": tool.get("description"),
        "parameters": tool.get("parameters"),
        "strict": tool.get("strict", True),  # Responses function tools are strict by default
    }


def _echo_text(request: dict) -> dict:
    text = {"format": {"type": "text"}, "verbosity": "medium"}
    text.update(request.get("text") or {})
    return text


class RenderedResponse:
    """One turn rendered for one ``/v1/responses`` request: the final object and its stream events.

    Ids are drawn once, so the streamed items and the final response agree on them.
    """

    def __init__(self, turn: Turn, request: dict, ids: Ids) -> None:
        if isinstance(turn, StreamFailure) and not request.get("stream"):
            raise ValueError("a stream failure happens in a streamed answer: fix the scenario")
        self.turn = turn
        self.request = request
        self.id = ids.next("resp_")
        self.status, reason = _OUTCOME[turn.finish_reason]
        self.incomplete_details = {"reason": reason} if reason else None
        self.message_id = ids.next("msg_") if turn.text is not None or turn.refusal is not None else None
        self.call_item_ids = [ids.next("fc_") for _ in turn.tool_calls]

    # -- output items ----------------------------------------------------------------------

    def _content_parts(self) -> List[dict]:
        if self.turn.refusal is not None:
            return [{"type": "refusal", "refusal": self.turn.refusal}]
        if self.turn.text is not None:
            return [{"type": "output_text", "text": self.turn.text, "annotations": [], "logprobs": []}]
        return []

    def _message_item(self, status: str, content: List[dict]) -> dict:
        return {"id": self.message_id, "type": "message", "role": "assistant", "status": status, "content": content}

    def _call_item(self, index: int, status: str, arguments: str) -> dict:
        call = self.turn.tool_calls[index]
        return {
            "id": self.call_item_ids[index],
            "type": "function_call",
            "status": status,
            "arguments": arguments,
            "call_id": call.call_id,
            "name": call.name,
        }

    def output(self) -> List[dict]:
        """The final ``output`` list: the message (if any text or refusal), then the function calls."""
        items = []
        if self.message_id:  # a message's status has no "failed": it stops incomplete
            items.append(self._message_item("incomplete" if self.status == "failed" else self.status, self._content_parts()))
        items += [self._call_item(i, "completed", call.arguments) for i, call in enumerate(self.turn.tool_calls)]
        return items

    # -- the response object ---------------------------------------------------------------

    def response(self, final: bool = True) -> dict:
        """The ``response`` object: final, or as announced by ``response.created`` (in progress, no output)."""
        request = self.request
        return {
            "id": self.id,
            "object": "response",
            "created_at": CREATED,
            "status": self.status if final else "in_progress",
            "completed_at": CREATED + 1 if final and self.status == "completed" else None,
            "background": False,
            "error": {"code": "server_error", "message": self.turn.message} if final and isinstance(self.turn, StreamFailure) else None,
            "incomplete_details": self.incomplete_details if final else None,
            "instructions": request.get("instructions"),
            "max_output_tokens": request.get("max_output_tokens"),
            "max_tool_calls": request.get("max_tool_calls"),
            "model": request.get("model", ""),
            "output": self.output() if final else [],
            "parallel_tool_calls": request.get("parallel_tool_calls", True),
            "previous_response_id": request.get("previous_response_id"),
            "prompt_cache_key": request.get("prompt_cache_key"),
            "reasoning": request.get("reasoning") or {"effort": None, "summary": None},
            "safety_identifier": request.get("safety_identifier"),
            "service_tier": "default",
            "temperature": request.get("temperature", 1.0),
            "text": _echo_text(request),
            "tool_choice": request.get("tool_choice", "auto"),
            "tools": [_echo_tool(tool) for tool in request.get("tools") or []],
            "top_logprobs": request.get("top_logprobs", 0),
            "top_p": request.get("top_p", 1.0),
            "truncation": request.get("truncation", "disabled"),
            "usage": responses_usage(self.turn.usage) if final else None,
            "user": request.get("user"),
            "metadata": request.get("metadata") or {},
        }

    # -- the stream ------------------------------------------------------------------------

    def events(self) -> List[Tuple[str, dict]]:
        """The typed stream events as ``(event type, data)``, numbered by ``sequence_number``."""
        events: List[Tuple[str, dict]] = []

        def emit(event_type: str, **fields) -> None:
            events.append((event_type, {"type": event_type, "sequence_number": len(events), **fields}))

        emit("response.created", response=self.response(final=False))
        emit("response.in_progress", response=self.response(final=False))
        if isinstance(self.turn, StreamFailure):
            self._emit_failure(emit)
            return events
        output_index = 0
        if self.message_id:
            self._emit_message(emit, output_index)
            output_index += 1
        for call_index, call in enumerate(self.turn.tool_calls):
            item_id = self.call_item_ids[call_index]
            emit("response.output_item.added", output_index=output_index, item=self._call_item(call_index, "in_progress", ""))
            for piece in pieces(call.arguments):
                emit("response.function_call_arguments.delta", item_id=item_id, output_index=output_index, delta=piece)
            emit("response.function_call_arguments.done", item_id=item_id, output_index=output_index, arguments=call.arguments)
            emit("response.output_item.done", output_index=output_index, item=self._call_item(call_index, "completed", call.arguments))
            output_index += 1
        terminal = "response.completed" if self.status == "completed" else "response.incomplete"
        emit(terminal, response=self.response())
        return events

    def _emit_failure(self, emit) -> None:
        """The text so far, then the failure: an ``error`` event or ``response.failed``."""
        assert isinstance(self.turn, StreamFailure)
        where = {"item_id": self.message_id, "output_index": 0, "content_index": 0}
        emit("response.output_item.added", output_index=0, item=self._message_item("in_progress", []))
        emit("response.content_part.added", **where, part={"type": "output_text", "text": "", "annotations": [], "logprobs": []})
        for piece in pieces(self.turn.text):
            emit("response.output_text.delta", **where, delta=piece, logprobs=[])
        if self.turn.event == "error":
            emit("error", code="server_error", message=self.turn.message, param=None)
        else:
            emit("response.failed", response=self.response())

    def _emit_message(self, emit, output_index: int) -> None:
        (part,) = self._content_parts()
        where = {"item_id": self.message_id, "output_index": output_index, "content_index": 0}
        empty_part = copy.deepcopy(part)
        empty_part["text" if part["type"] == "output_text" else "refusal"] = ""
        emit("response.output_item.added", output_index=output_index, item=self._message_item("in_progress", []))
        emit("response.content_part.added", **where, part=empty_part)
        if part["type"] == "output_text":
            for piece in pieces(part["text"]):
                emit("response.output_text.delta", **where, delta=piece, logprobs=[])
            emit("response.output_text.done", **where, text=part["text"], logprobs=[])
        else:
            for piece in pieces(part["refusal"]):
                emit("response.refusal.delta", **where, delta=piece)
            emit("response.refusal.done", **where, refusal=part["refusal"])
        emit("response.content_part.done", **where, part=part)
        emit("response.output_item.done", output_index=output_index, item=self._message_item(self.status, [part]))

    def call_ids(self) -> List[str]:
        """The ``call_id`` of every function call in the output (a later request may answer them)."""
        return [call.call_id for call in self.turn.tool_calls]

