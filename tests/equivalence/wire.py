"""Pieces both wire formats share: deterministic ids, the fixed clock, SSE framing, delta splitting."""

from __future__ import annotations

import itertools
import json
import re
from collections import defaultdict
from typing import DefaultDict, Iterator, List, Optional

# Every object is "created" at this instant (2025-01-01T00:00:00Z), so a program that prints a
# timestamp prints the same thing before and after migration.
CREATED = 1735689600


class Ids:
    """Deterministic ids, one counter per prefix: ``resp_0001``, ``msg_0001``, ``chatcmpl-0001``...

    The fake server makes a fresh ``Ids`` for each scenario, so two runs of the same program see
    the same ids.
    """

    def __init__(self) -> None:
        self._counters: DefaultDict[str, Iterator[int]] = defaultdict(lambda: itertools.count(1))

    def next(self, prefix: str) -> str:
        return f"{prefix}{next(self._counters[prefix]):04d}"


def pieces(text: str) -> List[str]:
    """Split ``text`` into stream deltas, one word (with its leading whitespace) each.

    ``"".join(pieces(text)) == text`` always; an empty text gives no pieces.
    """
    words = re.findall(r"\s*\S+", text)
    trailing = text[len("".join(words)) :]  # only whitespace can be left after the last word
    return words + [trailing] if trailing else words


def sse(data: object, event: Optional[str] = None) -> bytes:
    """One server-sent event; ``data`` is JSON-encoded unless it is already a string (``[DONE]``)."""
    payload = data if isinstance(data, str) else json.dumps(data)
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {payload}\n\n".encode()
