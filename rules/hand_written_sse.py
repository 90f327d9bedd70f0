"""
## What it does
Reports code that reads a Chat Completions stream by hand: the `"[DONE]"` sentinel tested in a
module that also names a `/chat/completions` URL (a `requests`, `httpx` or `aiohttp` call that
parses the server-sent events itself).

## Why
A Responses stream is a different protocol: every event has an `event:` line and a typed
`data:` payload (`response.output_text.delta`, ...), and the stream ends after
`response.completed` without any `[DONE]`. A hand-written parser moved to `/v1/responses`
would find no `choices`, and a loop that waits for `[DONE]` would never end.

## Example
```python
with httpx.stream("POST", f"{BASE}/chat/completions", json={**body, "stream": True}) as r:
    for line in r.iter_lines():
        data = line.removeprefix("data: ")
        if data == "[DONE]":
            break
        print(json.loads(data)["choices"][0]["delta"].get("content") or "", end="")
```

## Use instead
Use the SDK: `client.chat.completions.create(..., stream=True)`, which the tool migrates with its
loop (`stream_loops`), or `client.responses.create(..., stream=True)` directly:

```python
for event in client.responses.create(model=model, input=messages, stream=True):
    if event.type == "response.output_text.delta":
        print(event.delta, end="")
```

## Fix safety
Manual: the tool only reports. It looks at string literals in code (not comments or
docstrings), and reports a `"[DONE]"` only in a module that also has a string naming
`chat/completions`. The request itself is reported by `hand_written_http`.
"""

from typing import List

from migrator.model import FixSafety
from migrator.rule import Example, Report, Rule
from migrator.shapes import string_text

SENTINEL = "[DONE]"
ENDPOINT = "chat/completions"

RULE = Rule(
    title="Hand-written Chat Completions stream parsing",
    safety=FixSafety.MANUAL,
    needs=("[DONE]",),
    needs_in_strings=(SENTINEL, ENDPOINT),
    examples=[
        Example(
            before=(
                "import httpx\n"
                'URL = "https://api.openai.com/v1/chat/completions"\n'
                "for line in httpx.post(URL, json=body).iter_lines():\n"
                '    if line == "data: [DONE]":\n'
                "        break\n"
            ),
            finding="sends no `[DONE]`",
        ),
    ],
)


@RULE.module
def sentinels(analysis) -> List[Report]:
    strings = analysis.nodes.code_strings  # one of which names the endpoint: RULE.needs_in_strings
    return [
        Report(
            node,
            f"`{analysis.module.code_for_node(node)}`: this parses a Chat Completions stream by hand, and a"
            " Responses stream has typed events and sends no `[DONE]`; use the SDK's stream (see"
            " `stream_loops`) instead",
        )
        for node in strings
        if SENTINEL in string_text(node)
    ]
