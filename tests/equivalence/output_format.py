"""The output format a request asks the model for, whichever API it was sent to.

Chat Completions asks with ``response_format`` (a nested ``json_schema`` object) and ``verbosity``;
the Responses API with ``text={"format": ..., "verbosity": ...}`` (a flat ``json_schema`` format).
``text_config`` writes both in the Responses shape, with the Chat defaults spelled out, so that a
migrated request can be compared with the original one: a format lost, nested, or made strict on
the way shows up as a difference.
"""

from __future__ import annotations

from typing import Any, Dict

PLAIN_TEXT = {"type": "text"}


def text_config(body: Any) -> Dict[str, Any]:
    """``{"format": ..., "verbosity": ...}`` for a Chat Completions or a Responses request body."""
    if not isinstance(body, dict):
        return {}
    if "text" in body:  # a Responses request
        text = dict(body["text"] or {})
        return {"format": text.get("format", PLAIN_TEXT), "verbosity": text.get("verbosity")}
    return {"format": _chat_format(body.get("response_format")), "verbosity": body.get("verbosity")}


def _chat_format(response_format: Any) -> Any:
    if response_format is None:
        return PLAIN_TEXT
    if isinstance(response_format, dict) and response_format.get("type") == "json_schema":
        schema = dict(response_format.get("json_schema") or {})
        schema.setdefault("strict", False)  # Chat Completions' default
        return {"type": "json_schema", **schema}
    return response_format
