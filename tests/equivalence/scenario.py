"""Model turns: what the fake server answers, one turn per request, in order.

A turn says what the model produced (text, tool calls, a refusal, ...) independently of any wire
format; the fake server renders it as a Chat Completion, a Response or a legacy Completion
depending on the endpoint that was hit. A scenario is a list of turns, written in Python or loaded
from a ``scenario.json`` file::

    {"turns": [
        {"type": "text", "text": "Paris.", "usage": {"input_tokens": 21, "output_tokens": 2}},
        {"type": "tool_calls", "calls": [{"call_id": "call_1", "name": "get_weather",
                                          "arguments": "{\\"city\\": \\"Paris\\"}"}]},
        {"type": "json", "data": {"city": "Paris"}},
        {"type": "refusal", "refusal": "I can't help with that."},
        {"type": "truncated", "text": "Once upon a"},
        {"type": "content_filter", "text": ""},
        {"type": "stream_failure", "text": "Once", "message": "The server had an error."}
    ]}

A ``stream_failure`` (streamed requests only) sends ``text`` and then fails: Chat sends an error
chunk, the Responses API a ``response.failed`` event (``"event": "error"``: an ``error`` event).

``usage`` is optional on every turn (default: 10 input and 5 output tokens); it also takes
``cached_tokens`` and ``reasoning_tokens``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, List, Optional, Tuple


@dataclass(frozen=True)
class Usage:
    """Token counts, named neutrally: rendered as prompt/completion (Chat) or input/output (Responses)."""

    input_tokens: int = 10
    output_tokens: int = 5
    cached_tokens: int = 0  # part of input_tokens
    reasoning_tokens: int = 0  # part of output_tokens

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


@dataclass(frozen=True)
class ToolCall:
    """One function call the model makes. ``arguments`` is the JSON string, as on the wire."""

    call_id: str
    name: str
    arguments: str


class Turn:
    """What the model produced for one request.

    The renderers read only the attributes below. ``finish_reason`` uses the Chat vocabulary
    (stop / length / tool_calls / content_filter); the Responses renderer maps it to a status.
    """

    text: Optional[str] = None  # None: no message text at all
    refusal: Optional[str] = None
    tool_calls: Tuple[ToolCall, ...] = ()
    finish_reason: ClassVar[str] = "stop"
    usage: Usage


@dataclass(frozen=True)
class TextAnswer(Turn):
    """A plain text answer that ran to completion."""

    text: str
    usage: Usage = field(default_factory=Usage)


@dataclass(frozen=True)
class JsonAnswer(Turn):
    """A structured answer: ``data`` serialised as the message text."""

    data: Any
    usage: Usage = field(default_factory=Usage)

    @property
    def text(self) -> str:  # type: ignore[override]
        return json.dumps(self.data)


@dataclass(frozen=True)
class ToolCalls(Turn):
    """One or several function calls and no text (Chat's ``content`` is None)."""

    tool_calls: Tuple[ToolCall, ...]
    usage: Usage = field(default_factory=Usage)
    finish_reason: ClassVar[str] = "tool_calls"


@dataclass(frozen=True)
class Refusal(Turn):
    """The model declined: the text goes to ``refusal``, not to the content."""

    refusal: str
    usage: Usage = field(default_factory=Usage)


@dataclass(frozen=True)
class Truncated(Turn):
    """The answer hit the token limit: ``text`` is the partial output."""

    text: str
    usage: Usage = field(default_factory=Usage)
    finish_reason: ClassVar[str] = "length"


@dataclass(frozen=True)
class ContentFiltered(Turn):
    """The output was stopped by the content filter after ``text`` (possibly empty)."""

    text: str = ""
    usage: Usage = field(default_factory=Usage)
    finish_reason: ClassVar[str] = "content_filter"


@dataclass(frozen=True)
class StreamFailure(Turn):
    """A streamed answer the service fails partway through, after ``text``."""

    message: str
    text: str  # takes Turn's default (None), so fields without one come before it
    event: str = "response.failed"  # or "error": how the Responses stream reports it
    usage: Usage = field(default_factory=Usage)
    finish_reason: ClassVar[str] = "failed"


def turn_from_dict(raw: dict) -> Turn:
    """Build one turn from its JSON form (see the module docstring)."""
    raw = dict(raw)
    kind = raw.pop("type")
    usage = Usage(**raw.pop("usage", {}))
    turn: Turn
    if kind == "text":
        turn = TextAnswer(text=raw.pop("text"), usage=usage)
    elif kind == "json":
        turn = JsonAnswer(data=raw.pop("data"), usage=usage)
    elif kind == "tool_calls":
        turn = ToolCalls(tool_calls=tuple(ToolCall(**call) for call in raw.pop("calls")), usage=usage)
    elif kind == "refusal":
        turn = Refusal(refusal=raw.pop("refusal"), usage=usage)
    elif kind == "truncated":
        turn = Truncated(text=raw.pop("text"), usage=usage)
    elif kind == "content_filter":
        turn = ContentFiltered(text=raw.pop("text", ""), usage=usage)
    elif kind == "stream_failure":
        turn = StreamFailure(message=raw.pop("message"), text=raw.pop("text"), event=raw.pop("event", "response.failed"), usage=usage)
    else:
        raise ValueError(f"unknown turn type {kind!r}")
    if raw:  # a typo in a scenario file must not pass silently
        raise ValueError(f"unexpected keys in a {kind!r} turn: {sorted(raw)}")
    return turn


def load_scenario(path: Path) -> List[Turn]:
    """Read a ``scenario.json`` file: ``{"turns": [...]}``."""
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    return [turn_from_dict(raw) for raw in document["turns"]]
