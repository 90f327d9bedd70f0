"""
## What it does
Rewrites the reads of the tool calls the model made. A Response has no message with
`tool_calls`: each call is a `function_call` item of `response.output`.

| Chat Completions | Responses |
|---|---|
| `for call in resp.choices[0].message.tool_calls:` | `for call in [item for item in resp.output if item.type == "function_call"]:` |
| `call.id`, `call.function.name`, `call.function.arguments` (the loop variable) | `call.call_id`, `call.name`, `call.arguments` |
| `resp.choices[0].message.tool_calls[0].function.name` | `[item for item in resp.output if item.type == "function_call"][0].name` |
| `call = resp.choices[0].message.tool_calls[0]`, then `call.id`, `call.function.name`, ... | `call = [item for item in resp.output if item.type == "function_call"][0]`, then `call.call_id`, `call.name`, ... |
| with `parse`: `call.function.parsed_arguments` | `call.parsed_arguments` |
| `isinstance(call, ChatCompletionMessageFunctionToolCall)` (or `ChatCompletionMessageToolCall`) | `isinstance(call, ResponseFunctionToolCall)` |
| `isinstance(call, ParsedFunctionToolCall)` | `isinstance(call, ParsedResponseFunctionToolCall)` |
| `resp.choices[0].message.tool_calls` tested for truth, `is None`, `is not None` | `any(item.type == "function_call" for item in resp.output)`, negated for `is None` |
| `len(resp.choices[0].message.tool_calls)` where the model called tools | `len([item for item in resp.output if item.type == "function_call"])` |

The same holds in comprehensions, in `for call in (message.tool_calls or [])`, through a
name bound to the message (`message = resp.choices[0].message`, which goes away), and through a
name bound to `message.tool_calls or []`, which then holds the function_call items: it may be
looped over, counted, tested for truth, indexed, and passed to a function of the module that
reads it the same ways.

## Why
`resp.choices` does not exist on a Response. A `function_call` item's `id` is the item's own
id (`fc_...`); the id that pairs a call with its result is `call_id`. `responses.parse` parses
the arguments of each function call item as `chat.completions.parse` did (into the tool's model,
with `json.loads` for another strict tool, `None` otherwise) and keeps them as `parsed_arguments`.

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
`len(...)` of the calls maps only where they are known to be there (in the body of `if
message.tool_calls:`, or past `if not message.tool_calls:` that always leaves, as an agent
loop's `break` does): without calls it raised `TypeError` on `None`, where the list has none.
Any other read of the calls, of a loop variable or of a name holding one call (`len(...)`,
`call.type`, `call.model_dump()`, passing a call to a function, unpacking `enumerate(...)`)
blocks the call and is reported. The calls, or one call, printed, logged or put in an f-string
are reported too; with `--unsafe-fixes` the line shows the function_call items instead (an
unsafe fix: what it shows changes, `[]` where it showed `None`), and a `# migrator:` comment
above the call says so.
"""

import dataclasses
from typing import List, Optional, Tuple, Union

import libcst as cst

from migrator.analysis import CallSite
from migrator.semantic.flow import ResultUse
from migrator.rules._function_calling import (
    FUNCTION_CALLS,
    TOOL_CALLS,
    assigned_name,
    is_or_empty,
    is_truth_test,
    only_with_tool_calls,
    presence_test,
    replaced,
    used_in,
)
from migrator.model import FixSafety
from migrator.rule import Block, Example, Rewrite, Rule, UseRewrite
from migrator.rules._chat_types import isinstance_test
from migrator.rules._shown import is_shown
from migrator.shapes import one_line

# A Chat tool call's fields -> the function_call item's.
FIELDS = {("id",): "call_id", ("function", "name"): "name", ("function", "arguments"): "arguments"}
# A tool call's class -> the function_call item's, for ``isinstance(call, ...)``: every call a
# migrated call can make is a function call (rule ``tool_definitions`` maps function tools only),
# as every item read here is a function_call item.
TOOL_CALL_CLASSES = {
    "ChatCompletionMessageToolCall": "ResponseFunctionToolCall",
    "ChatCompletionMessageFunctionToolCall": "ResponseFunctionToolCall",
    "ParsedFunctionToolCall": "ParsedResponseFunctionToolCall",
}
# With ``parse``, what the arguments parse to: the parsed function_call item's own field.
PARSED_ARGUMENTS = ("function", "parsed_arguments")

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
                "import json\n"
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m)\n'
                "if r.choices[0].message.tool_calls:\n"
                "    call = r.choices[0].message.tool_calls[0]\n"
                "    print(call.function.name, json.loads(call.function.arguments))\n"
            ),
            after=(
                "import json\n"
                "import openai\n"
                'r = openai.responses.create(model="gpt-4o", input=m)\n'
                'if any(item.type == "function_call" for item in r.output):\n'
                '    call = [item for item in r.output if item.type == "function_call"][0]\n'
                "    print(call.name, json.loads(call.arguments))\n"
            ),
        ),
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.parse(model="gpt-4o", messages=m, tools=[openai.pydantic_function_tool(GetWeather)])\n'
                "print(r.choices[0].message.tool_calls[0].function.parsed_arguments.city)\n"
            ),
            after=(
                "import openai\n"
                'r = openai.responses.parse(model="gpt-4o", input=m, tools=[openai.pydantic_responses_function_tool(GetWeather)])\n'
                'print([item for item in r.output if item.type == "function_call"][0].parsed_arguments.city)\n'
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
    if not isinstance(rest[0], int):
        return Block(f"`{use.code}` has no Responses equivalent the tool can prove")
    call = f"{FUNCTION_CALLS}[{rest[0]}]"
    holder = _held_in_name(use) if len(rest) == 1 else None
    if holder is not None:
        return _held_call(use, holder, call, site)
    field = _field(rest[1:], site)
    if field is None:
        return Block(f"`{use.code}` has no Responses equivalent the tool can prove")
    length, name = field
    return replaced(use, len(TOOL_CALLS) + 1 + length, f"{call}.{name}", site.analysis)


def _field(path: tuple, site: CallSite) -> Optional[Tuple[int, str]]:
    """The function_call item's field a read of a Chat tool call's ``path`` maps to, and how
    many segments of the path it replaces; None when it maps to none."""
    if path in FIELDS:
        return len(path), FIELDS[path]
    if path[:2] == PARSED_ARGUMENTS and site.kind.endswith(".parse"):
        return 2, "parsed_arguments"  # what follows reads the parsed value, the same in both
    return None


def _held_in_name(use: ResultUse) -> Optional[cst.Name]:
    """The name ``use`` is assigned to: ``call = message.tool_calls[0]``."""
    assign = use.parent
    if isinstance(assign, cst.Assign) and assign.value is use.outer and len(assign.targets) == 1:
        target = assign.targets[0].target
        return target if isinstance(target, cst.Name) else None
    return None


def _held_call(use: ResultUse, name: cst.Name, call: str, site: CallSite) -> Union[UseRewrite, Block]:
    """``call = message.tool_calls[0]``: the name holds the function_call item instead."""
    return _with_reads(replaced(use, len(use.path), call, site.analysis), name, site)


def _with_reads(rewrite: Union[UseRewrite, Block], name: cst.Name, site: CallSite) -> Union[UseRewrite, Block]:
    """``rewrite`` (which makes ``name`` hold a function_call item where it held a Chat tool
    call) with the reads of ``name`` made reads of the item. Where the call is only shown
    (printed, logged), the item is shown instead: an unsafe fix."""
    if isinstance(rewrite, Block):
        return rewrite
    trace = site.analysis.flow.trace_name(name)
    if trace.escapes:
        return Block(trace.escapes[0].reason)
    if trace.exported_functions:
        return Block(f"a tool call is returned from `{trace.exported_functions[0]}`, which other modules may call")
    imported = _passed_to_importers(trace, "a tool call", site)
    if imported is not None:
        return imported
    reads, shown = [], []
    for read in trace.uses:
        if not read.path and is_shown(read.outer, site):
            shown.append(read.code)
            continue
        narrowed = isinstance_test(read, site, TOOL_CALL_CLASSES)
        if isinstance(narrowed, Block):
            return narrowed
        if narrowed is not None:
            reads.append(narrowed)
            continue
        if not read.path:
            return Block(f"the tool call `{name.value}` is used whole, in `{used_in(read, site.analysis)}`: only its id, name and arguments map")
        field = _field(read.path, site)
        if field is None:
            return Block(f"`{read.code}` has no Responses equivalent the tool can prove")
        length, field_name = field
        reads.append(read.replace(length, "{base}." + field_name))
    if shown:
        return _shown_anyway(shown[0], "the tool call's fields", "a function_call item", (rewrite, *reads))
    return dataclasses.replace(rewrite, more=tuple(reads))


def _passed_to_importers(trace, what: str, site: CallSite) -> Optional[Block]:
    """A function the tool call is passed to (its parameter followed) that other modules of the
    project import: they call it with Chat tool calls, which its rewritten reads would not fit."""
    for function in trace.exported_parameters:
        where = site.analysis.project.where_imported(function.split(".")[0])
        if where is not None:
            return Block(f"{what} is passed to `{function}`, which other modules import ({where}) and call with what they have")
    return None


def _shown_anyway(code: str, what: str, now: str, rewrites: Tuple[UseRewrite, ...]) -> Block:
    """A line showing a Chat tool call (or all of them) shows the function_call items instead,
    with ``--unsafe-fixes``: what it prints changes, what the program does does not."""
    code = one_line(code)
    reason = f"`{code}` shows {what} as they are, and {now} has other fields"
    return Block(reason, unsafe=Rewrite(note=f"`{code}` now shows {now}", elsewhere=rewrites))


def _all_calls(use: ResultUse, site: CallSite) -> Union[UseRewrite, Block]:
    """``message.tool_calls`` itself: looped over, or tested."""
    analysis = site.analysis
    node = use.outer
    if _is_loop_iterable(node, analysis):
        return _loop(use, analysis.nodes.parents[node], site)
    if is_or_empty(use.parent, node) and _is_loop_iterable(use.parent, analysis):
        # ``for call in (message.tool_calls or [])``: the calls are a list, never None.
        calls = _loop(use, analysis.nodes.parents[use.parent], site)
        return calls if isinstance(calls, Block) else _without_default(calls, use)
    holder = assigned_name(use.parent, analysis) if is_or_empty(use.parent, node) else None
    if holder is not None:
        return _held_calls(use, holder, site)
    presence = presence_test(use, len(TOOL_CALLS), analysis)
    if presence is not None:
        return presence
    if _counted(use, site) and only_with_tool_calls(node, site):
        return replaced(use, len(TOOL_CALLS), FUNCTION_CALLS, analysis)  # a list either way: as long
    if is_shown(node, site):  # ``None`` without calls, where the items are ``[]``
        calls = replaced(use, len(TOOL_CALLS), FUNCTION_CALLS, analysis)
        return calls if isinstance(calls, Block) else _shown_anyway(use.code, "the Chat tool calls (`None` without calls)", "a list of function_call items", (calls,))
    return Block(f"`{use.code}` is used in `{used_in(use, analysis)}`, which has no Responses equivalent the tool can prove (it is `None` without calls)")


def _held_calls(use: ResultUse, name: cst.Name, site: CallSite) -> Union[UseRewrite, Block]:
    """``calls = message.tool_calls or []``: the name holds the function_call items instead, a
    list either way. It may be looped over (each call read as ``_with_reads`` allows), counted,
    tested for truth, or indexed; anything else blocks."""
    analysis = site.analysis
    calls = replaced(use, len(TOOL_CALLS), FUNCTION_CALLS, analysis)
    if isinstance(calls, Block):
        return calls
    trace = analysis.flow.trace_name(name)
    if trace.escapes:
        return Block(trace.escapes[0].reason)
    if trace.exported_functions:
        return Block(f"the tool calls are returned from `{trace.exported_functions[0]}`, which other modules may call")
    imported = _passed_to_importers(trace, "the tool calls", site)
    if imported is not None:
        return imported
    reads: List[UseRewrite] = []
    for read in trace.uses:
        if not read.path and _is_loop_iterable(read.outer, analysis):
            loop = analysis.nodes.parents[read.outer]
            if not isinstance(loop.target, cst.Name):
                return Block(f"the loop over `{name.value}` unpacks each call, which the tool cannot follow")
            item = _with_reads(UseRewrite(target=read.outer, build=lambda node: node), loop.target, site)
        elif not read.path and (is_truth_test(read.outer, analysis) or _counted(read, site)):
            continue  # the same of a list of calls and of a list of items
        elif read.path and isinstance(read.path[0], int):
            holder = _held_in_name(read) if len(read.path) == 1 else None
            field = _field(read.path[1:], site)
            if holder is not None:
                item = _with_reads(UseRewrite(target=read.outer, build=lambda node: node), holder, site)
            elif field is not None:
                item = read.replace(1 + field[0], f"{{base}}[{read.path[0]}].{field[1]}")
            else:
                return Block(f"`{read.code}` has no Responses equivalent the tool can prove")
        else:
            return Block(f"the tool calls `{name.value}` are used in `{used_in(read, analysis)}`, which has no Responses equivalent the tool can prove")
        if isinstance(item, Block):
            return item
        reads += [item, *item.more]
    return dataclasses.replace(_without_default(calls, use), more=tuple(reads))


def _without_default(calls: UseRewrite, use: ResultUse) -> UseRewrite:
    """``calls``, the rewrite of ``message.tool_calls``, made the rewrite of ``message.tool_calls
    or []`` around it: the function_call items are a list, never None."""
    return dataclasses.replace(calls, target=use.parent, build=lambda updated: calls.build(updated.left))


def _counted(use: ResultUse, site: CallSite) -> bool:
    """``len(message.tool_calls)``."""
    call = use.grandparent
    return isinstance(use.parent, cst.Arg) and not use.parent.star and isinstance(call, cst.Call) and len(call.args) == 1 and site.analysis.flow.calls_builtin(call, "len")


def _is_loop_iterable(node: cst.CSTNode, analysis) -> bool:
    loop = analysis.nodes.parents.get(node)
    return isinstance(loop, (cst.For, cst.CompFor)) and loop.iter is node


def _loop(use: ResultUse, loop: Union[cst.For, cst.CompFor], site: CallSite) -> Union[UseRewrite, Block]:
    """Loop over the function_call items; each read of the loop variable reads the item."""
    if not isinstance(loop.target, cst.Name):
        return Block(f"the loop over `{use.code}` unpacks each call, which the tool cannot follow")
    return _with_reads(replaced(use, len(TOOL_CALLS), FUNCTION_CALLS, site.analysis), loop.target, site)
