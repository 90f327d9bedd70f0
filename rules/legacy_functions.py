"""
## What it does
Migrates the legacy function-calling parameters and reads:

| Chat Completions | Responses |
|---|---|
| `functions=[{"name": n, "description": d, "parameters": p}]` | `tools=[{"type": "function", "name": n, "description": d, "parameters": p, "strict": False}], parallel_tool_calls=False` |
| `function_call="auto"` / `"none"` | `tool_choice="auto"` / `"none"` |
| `function_call={"name": n}` | `tool_choice={"type": "function", "name": n}` |
| `resp.choices[0].message.function_call.name` / `.arguments` | `[item for item in resp.output if item.type == "function_call"][0].name` / `.arguments` |
| `resp.choices[0].message.function_call` tested for truth or `None` | `any(item.type == "function_call" for item in resp.output)` |

A `functions` list held in a name is rewritten where it is defined, as `tools` lists are.

## Why
`responses.create` has no `functions` or `function_call` parameter, and its message has no
`function_call`: a call is a `function_call` item of `response.output`.

## Example
```python
resp = client.chat.completions.create(model="gpt-4o", messages=msgs, functions=[EXTRACT], function_call={"name": "extract"})
args = json.loads(resp.choices[0].message.function_call.arguments)
```

## Use instead
```python
resp = client.responses.create(model="gpt-4o", input=msgs, tools=[EXTRACT], parallel_tool_calls=False, tool_choice={"type": "function", "name": "extract"})
args = json.loads([item for item in resp.output if item.type == "function_call"][0].arguments)
```
(with `EXTRACT` rewritten where it is defined).

## Fix safety
Safe. Legacy functions are never strict and the model calls at most one of them, hence
`"strict": False` and `parallel_tool_calls=False`. Reading the call's name or arguments without
a call fails in both versions (`AttributeError` before, `IndexError` after). A call that also
passes `tools` or `parallel_tool_calls` is reported, as are the cases `tool_definitions`
reports for tool lists, and any other read of `function_call`. Sending the call back with a
`function` message is reported by `tool_results`: that message has no call id.
"""

from typing import Union

import libcst as cst

from migrator.analysis import CallSite
from migrator.semantic.flow import ResultUse
from migrator.rules._function_calling import (
    FUNCTION_CALLS,
    presence_test,
    replaced,
    tool_choice_of_function_call,
    used_in,
)
from migrator.model import FixSafety
from migrator.rule import Block, Example, NewArgument, Rewrite, Rule, UseRewrite
from migrator.rules._tool_lists import FUNCTIONS, flat_tool_list

FUNCTION_CALL = ("choices", 0, "message", "function_call")
FIELDS = frozenset({"name", "arguments"})

RULE = Rule(
    title="Legacy `functions` and `function_call`",
    safety=FixSafety.SAFE,
    needs=("function",),
    examples=[
        Example(
            before=(
                "import openai\n"
                "r = openai.chat.completions.create(\n"
                '    model="gpt-4o",\n'
                '    messages=[{"role": "user", "content": q}],\n'
                '    functions=[{"name": "extract", "parameters": SCHEMA}],\n'
                '    function_call={"name": "extract"},\n'
                ")\n"
                "print(r.choices[0].message.function_call.arguments)\n"
            ),
            after=(
                "import openai\n"
                "r = openai.responses.create(\n"
                '    model="gpt-4o",\n'
                "    input=q,\n"
                '    tools=[{"type": "function", "name": "extract", "parameters": SCHEMA, "strict": False}],\n'
                "    parallel_tool_calls=False,\n"
                '    tool_choice={"type": "function", "name": "extract"},\n'
                ")\n"
                'print([item for item in r.output if item.type == "function_call"][0].arguments)\n'
            ),
        ),
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": q}], functions=FUNCTIONS, tools=TOOLS)\n'
            ),
            finding="`functions=` and `tools=`",
        ),
    ],
)


@RULE.parameter("functions")
def functions(name: str, value: cst.BaseExpression, site: CallSite) -> Union[Rewrite, Block]:
    for other in ("tools", "parallel_tool_calls"):
        if site.has_argument(other):
            return Block(f"the call passes both `functions=` and `{other}=`, which the tool cannot combine")
    flat = flat_tool_list(FUNCTIONS, value, site)
    if isinstance(flat, Block):
        return flat
    tools, elsewhere = flat
    # A legacy call names at most one function: the model must not make several calls at once.
    return Rewrite((NewArgument("tools", tools), NewArgument("parallel_tool_calls", cst.Name("False"))), elsewhere=elsewhere)


@RULE.parameter("function_call")
def function_call(name: str, value: cst.BaseExpression, site: CallSite) -> Union[Rewrite, Block]:
    choice = tool_choice_of_function_call(value)
    if isinstance(choice, Block):
        return choice
    return Rewrite((NewArgument("tool_choice", choice),))


@RULE.result_use
def function_call_read(use: ResultUse, site: CallSite) -> Union[UseRewrite, Block, None]:
    if not use.startswith(*FUNCTION_CALL):
        return None
    rest = use.path[len(FUNCTION_CALL) :]
    if len(rest) == 1 and rest[0] in FIELDS:
        return replaced(use, len(use.path), f"{FUNCTION_CALLS}[0].{rest[0]}", site.analysis)
    presence = presence_test(use, len(FUNCTION_CALL), site.analysis) if not rest else None
    if presence is not None:
        return presence
    return Block(f"`{use.code}` is used in `{used_in(use, site.analysis)}`, which has no Responses equivalent the tool can prove")
