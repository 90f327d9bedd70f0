"""
## What it does
Reports requests sent to a Chat Completions endpoint by hand: a URL naming `chat/completions`
(a string, an f-string, a concatenation, or a name holding one) passed to `requests`, `httpx`
or `aiohttp`, whether to their functions (`requests.post`, `httpx.stream`, ...) or to the
methods of their sessions and clients (`requests.Session`, `httpx.Client`,
`httpx.AsyncClient`, `aiohttp.ClientSession`), followed through names, `with ... as` and
`self.` attributes.

## Why
The tool migrates calls of the OpenAI SDK. A hand-built request has its own body and reads its
own reply: moved to `/v1/responses` it must send `input` (and `instructions`) instead of
`messages`, and read `output` items instead of `choices`; a streamed one must parse typed
events (see `hand_written_sse`).

## Example
```python
import requests

r = requests.post("https://api.openai.com/v1/chat/completions", headers=headers,
                  json={"model": "gpt-4o-mini", "messages": messages})
print(r.json()["choices"][0]["message"]["content"])
```

## Use instead
Use the SDK, which the tool can then migrate, or send the Responses request directly:

```python
from openai import OpenAI

client = OpenAI()
response = client.responses.create(model="gpt-4o-mini", input=messages)
print(response.output_text)
```

## Fix safety
Manual: the tool only reports. Only string literals in code count (not comments or
docstrings), and only when they reach a call of one of these libraries.
"""

from typing import Iterator, List, Set

import libcst as cst

from migrator.model import FixSafety
from migrator.rule import Example, Report, Rule
from migrator.shapes import chain_root, one_line, string_text

ENDPOINT = "chat/completions"

RULE = Rule(
    title="Hand-written HTTP requests to Chat Completions",
    safety=FixSafety.MANUAL,
    needs=(ENDPOINT,),
    # The HTTP libraries: what it reports is a call qualified through an import of one.
    needs_imports=("requests", "httpx", "aiohttp"),
    needs_in_strings=(ENDPOINT,),
    needs_calls_from=("requests", "httpx", "aiohttp"),
    # The methods of the libraries' sessions and clients that take a URL.
    needs_strings_sent_to=("request", "get", "post", "put", "patch", "stream", "build_request"),
    examples=[
        Example(
            before=(
                "import requests\n"
                'r = requests.post("https://api.openai.com/v1/chat/completions", json=body)\n'
                'print(r.json()["choices"][0]["message"]["content"])\n'
            ),
            finding="sends a Chat Completions request by hand",
        ),
        Example(
            before=(
                "import httpx\n"
                'BASE = "http://localhost:8000/v1"\n'
                "class Bot:\n"
                "    def __init__(self):\n"
                "        self.http = httpx.Client()\n"
                "    def ask(self, body):\n"
                '        return self.http.post(f"{BASE}/chat/completions", json=body).json()\n'
            ),
            finding="`self.http.post` sends a Chat Completions request by hand",
        ),
        Example(
            before=(
                'URL = "https://api.openai.com/v1/chat/completions"  # not sent: only printed\n'
                "print(URL)\n"
            ),
        ),
    ],
)


@RULE.module
def requests_by_hand(analysis) -> List[Report]:
    reports: List[Report] = []
    reported: Set[cst.Call] = set()
    for string in analysis.nodes.code_strings:
        if ENDPOINT not in string_text(string).lower():
            continue
        for call in _calls_taking(string, analysis, seen=set()):
            if call not in reported and _is_http_call(call, analysis):
                reported.add(call)
                reports.append(_report(call, string, analysis))
    return reports


def _calls_taking(node: cst.CSTNode, analysis, seen: Set[cst.CSTNode]) -> Iterator[cst.Call]:
    """The calls an expression containing ``node`` is passed to, directly or through the names
    it is assigned to. A lambda's body is not passed to the call the lambda is passed to
    (``httpx.MockTransport(lambda request: ...)`` answers requests, it sends none)."""
    child, parent = node, analysis.nodes.parents.get(node)
    while parent is not None and not isinstance(parent, (cst.BaseSmallStatement, cst.BaseCompoundStatement, cst.Lambda)):
        if isinstance(parent, cst.Arg) and isinstance(analysis.nodes.parents.get(parent), cst.Call):
            yield analysis.nodes.parents[parent]
        child, parent = parent, analysis.nodes.parents.get(parent)
    if isinstance(parent, (cst.Assign, cst.AnnAssign)) and child is parent.value:
        targets = [t.target for t in parent.targets] if isinstance(parent, cst.Assign) else [parent.target]
        for target in targets:
            definition = analysis.bindings.definition_at(target) if isinstance(target, cst.Name) else None
            for read in definition.reads if definition is not None else ():
                if read not in seen:
                    seen.add(read)
                    yield from _calls_taking(read, analysis, seen)


def _is_http_call(call: cst.Call, analysis) -> bool:
    if _from_http_library(call.func, analysis):
        return True
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in RULE.needs_strings_sent_to):
        return False
    for made in analysis.bindings.bound_values(func.value):
        if isinstance(made, cst.Call) and _from_http_library(made.func, analysis):
            return True  # a session or client made here
        if isinstance(made, cst.Param) and made.annotation is not None:
            if _from_http_library(made.annotation.annotation, analysis):
                return True  # a session or client passed in, annotated
    return False


def _from_http_library(node: cst.CSTNode, analysis) -> bool:
    imported = analysis.imports.names_imported_from(RULE.needs_imports)
    if imported is not None and isinstance(node, (cst.Name, cst.Attribute)) and chain_root(node) not in imported:
        return False  # a name or attribute is qualified through its first name: spares resolving scopes
    return any(name.split(".")[0] in RULE.needs_imports for name in analysis.imports.qualified(node, imported_only=True))


def _report(call: cst.Call, string: cst.CSTNode, analysis) -> Report:
    code = analysis.module.code_for_node(call.func)
    literal = analysis.nodes.parents[string] if isinstance(string, cst.FormattedStringText) else string
    url = one_line(analysis.module.code_for_node(literal))
    message = (
        f"`{code}` sends a Chat Completions request by hand (to {url}): the tool migrates"
        " SDK calls only; use the SDK, or send `/v1/responses` its own request (`input`, not `messages`) and"
        " read its `output`, not `choices`"
    )
    return Report(call, message)
