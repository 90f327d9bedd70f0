"""
## What it does
Rewrites the reads of the tool calls the model made. A Response has no message with
`tool_calls`: each call is a `function_call` item of `response.output`.

| Chat Completions | Responses |
|---|---|
| `for call in resp.choices[0].message.tool_calls:` | `for call in [item for item in resp.output if item.type == "function_call"]:` |
| `call.id`, `call.function.name`, `call.function.arguments` (the loop variable) | `call.call_id`, `call.name`, `call.arguments` |
| `resp.choices[0].message.tool_calls[0].function.name` | `[item for item in resp.output if item.type == "function_call"][0].name` |
| `resp.choices[0].message.tool_calls` tested for truth, `is None`, `is not None` | `any(item.type == "function_call" for item in resp.output)`, negated for `is None` |

The same holds in comprehensions, in `for call in (message.tool_calls or [])`, and through a
name bound to the message (`message = resp.choices[0].message`, which goes away).

## Why
`resp.choices` does not exist on a Response. A `function_call` item's `id` is the item's own
id (`fc_...`); the id that pairs a call with its result is `call_id`.

## Example
```python
message = resp.choices[0].message
if message.tool_calls:
    for call in message.tool_calls:
        print(call.id, call.function.name, json.loads(call.function.arguments))
```

## Use instead
```python
if any(item.type == "function_call" for item in resp.output):
    for call in [item for item in resp.output if item.type == "function_call"]:
        print(call.call_id, call.name, json.loads(call.arguments))
```

## Fix safety
Safe for the reads above. `tool_calls` is `None` when the model called no tool and the function
calls are then an empty list, so a test for truth or for `None` keeps its meaning; reading
`tool_calls[0]` without a call fails in both versions (`TypeError` before, `IndexError` after).
Any other read of the calls or of a loop variable (`len(...)`, `call.type`, `call.model_dump()`,
passing a call to a function, unpacking `enumerate(...)`) blocks the call and is reported.
"""

import dataclasses
from typing import Union

import libcst as cst

from migrator.analysis import CallSite
from migrator.semantic.flow import ResultUse
from migrator.rules._function_calling import FUNCTION_CALLS, presence_test, replaced, used_in
from migrator.model import FixSafety
from migrator.rule import Block, Example, Rule, UseRewrite

TOOL_CALLS = ("choices", 0, "message", "tool_calls")
# A Chat tool call's fields -> the function_call item's.
FIELDS = {("id",): "call_id", ("function", "name"): "name", ("function", "arguments"): "arguments"}

RULE = Rule(
    title="Reads of the tool calls",
    safety=FixSafety.SAFE,
    needs=("tool_calls",),
    examples=[
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m)\n'
                "for call in r.choices[0].message.tool_calls:\n"
                "    print(call.id, call.function.name)\n"
            ),
            after=(
                "import openai\n"
                'r = openai.responses.create(model="gpt-4o", input=m)\n'
                'for call in [item for item in r.output if item.type == "function_call"]:\n'
                "    print(call.call_id, call.name)\n"
            ),
        ),
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m)\n'
                "print(len(r.choices[0].message.tool_calls))\n"
            ),
            finding="`None` without calls",
        ),
    ],
)


@RULE.result_use
def tool_calls(use: ResultUse, site: CallSite) -> Union[UseRewrite, Block, None]:
    if not use.startswith(*TOOL_CALLS):
        return None
    rest = use.path[len(TOOL_CALLS) :]
    if not rest:
        return _all_calls(use, site)
    if isinstance(rest[0], int) and rest[1:] in FIELDS:
        return replaced(use, len(use.path), f"{FUNCTION_CALLS}[{rest[0]}].{FIELDS[rest[1:]]}", site.analysis)
    return Block(f"`{use.code}` has no Responses equivalent the tool can prove")


def _all_calls(use: ResultUse, site: CallSite) -> Union[UseRewrite, Block]:
    """``message.tool_calls`` itself: looped over, or tested."""
    analysis = site.analysis
    node = use.outer
    if _is_loop_iterable(node, analysis):
        return _loop(use, analysis.nodes.parents[node], site)
    if _is_or_empty(use.parent) and _is_loop_iterable(use.parent, analysis):
        # ``for call in (message.tool_calls or [])``: the calls are a list, never None.
        calls = _loop(use, analysis.nodes.parents[use.parent], site)
        if isinstance(calls, Block):
            return calls
        return dataclasses.replace(calls, target=use.parent, build=lambda updated: calls.build(updated.left))
    presence = presence_test(use, len(TOOL_CALLS), analysis)
    if presence is not None:
        return presence
    return Block(f"`{use.code}` is used in `{used_in(use, analysis)}`, which has no Responses equivalent the tool can prove (it is `None` without calls)")


def _is_loop_iterable(node: cst.CSTNode, analysis) -> bool:
    loop = analysis.nodes.parents.get(node)
    return isinstance(loop, (cst.For, cst.CompFor)) and loop.iter is node


def _is_or_empty(node) -> bool:
    """``x or []`` / ``x or ()``."""
    return (
        isinstance(node, cst.BooleanOperation)
        and isinstance(node.operator, cst.Or)
        and isinstance(node.right, (cst.List, cst.Tuple))
        and not node.right.elements
    )


def _loop(use: ResultUse, loop: Union[cst.For, cst.CompFor], site: CallSite) -> Union[UseRewrite, Block]:
    """Loop over the function_call items; each read of the loop variable reads the item."""
    if not isinstance(loop.target, cst.Name):
        return Block(f"the loop over `{use.code}` unpacks each call, which the tool cannot follow")
    trace = site.analysis.flow.trace_name(loop.target)
    if trace.escapes:
        return Block(trace.escapes[0].reason)
    if trace.exported_functions:
        return Block(f"a tool call is returned from `{trace.exported_functions[0]}`, which other modules may call")
    reads = []
    for read in trace.uses:
        if not read.path:
            return Block(f"the tool call `{read.code}` is used whole, in `{used_in(read, site.analysis)}`: only its id, name and arguments map")
        if read.path not in FIELDS:
            return Block(f"`{read.code}` has no Responses equivalent the tool can prove")
        reads.append(read.replace(len(read.path), "{base}." + FIELDS[read.path]))
    calls = replaced(use, len(TOOL_CALLS), FUNCTION_CALLS, site.analysis)
    return calls if isinstance(calls, Block) else dataclasses.replace(calls, more=tuple(reads))
