"""
## What it does
Rewrites the function tools given as `tools=` into the flat shape of the Responses API:
`{"type": "function", "function": {"name": ..., "description": ..., "parameters": ..., "strict": ...}}`
becomes `{"type": "function", "name": ..., "description": ..., "parameters": ..., "strict": ...}`,
with `"strict": False` where the definition did not say. `openai.pydantic_function_tool(Model)`
becomes `openai.pydantic_responses_function_tool(Model)`, which builds the same tool in the flat
shape.

The definitions are rewritten where they are: inline in the call, or in a list or dict literal
held in a name (at module level, in a function, as a class attribute), including a tool list
built from separate dict variables, and in the list literals every construction of a class
gives its `__init__` when it keeps the parameter as the attribute sent (`self.tools = tools`)
and reads it nowhere else.

## Why
`responses.create` rejects the nested shape (`Missing required parameter: 'tools[0].name'`), and
does not convert what `pydantic_function_tool` returns. Chat Completions function tools are
not strict unless they say so, while Responses function tools are strict by default: without
`"strict": False` the model would be held to a schema it was free to deviate from before, and a
schema that is not valid for strict mode (optional properties, no `additionalProperties: false`)
would be rejected.

## Example
```python
TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": WEATHER_SCHEMA}}]
resp = client.chat.completions.create(model="gpt-4o", messages=msgs, tools=TOOLS)
```

## Use instead
```python
TOOLS = [{"type": "function", "name": "get_weather", "parameters": WEATHER_SCHEMA, "strict": False}]
resp = client.responses.create(model="gpt-4o", input=msgs, tools=TOOLS)
```

## Fix safety
Safe. A definition held in a name is rewritten only when every read of that name is a
`tools=` argument of a call the tool migrates (or an entry of such a tool list); a list returned
by a function of the module (`def get_tools(): return [...]`, sent as `tools=get_tools()` or
through a name) is rewritten in the function when every call of it is; all those calls
migrate together or none does. The call is reported, not rewritten, when a tool list or a tool
is built by code the tool cannot see into (a function that returns anything but list literals,
a comprehension, a parameter, a name assigned more than once or defined in another module),
when a definition or such a function is also read by
other code, when a tool is not a function tool (custom tools), when a function has keys the
Responses tool does not take or no `parameters` (Chat reads a missing schema as "no
parameters", the Responses API requires one), or when flattening would lose a comment.
"""

from typing import Union

import libcst as cst

from migrator.analysis import CallSite
from migrator.rules._tool_lists import TOOLS, flat_tool_list
from migrator.model import FixSafety
from migrator.rule import Block, Example, NewArgument, Rewrite, Rule

RULE = Rule(
    title="Function tool definitions",
    safety=FixSafety.SAFE,
    needs=("tools",),
    examples=[
        Example(
            before=(
                "import openai\n"
                "r = openai.chat.completions.create(\n"
                '    model="gpt-4o",\n'
                '    messages=[{"role": "user", "content": q}],\n'
                '    tools=[{"type": "function", "function": {"name": "lookup", "parameters": SCHEMA}}],\n'
                ")\n"
            ),
            after=(
                "import openai\n"
                "r = openai.responses.create(\n"
                '    model="gpt-4o",\n'
                "    input=q,\n"
                '    tools=[{"type": "function", "name": "lookup", "parameters": SCHEMA, "strict": False}],\n'
                ")\n"
            ),
        ),
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": q}], tools=load_tools())\n'
            ),
            finding="cannot see into",
        ),
    ],
)


@RULE.parameter("tools")
def tools(name: str, value: cst.BaseExpression, site: CallSite) -> Union[Rewrite, Block]:
    flat = flat_tool_list(TOOLS, value, site)
    if isinstance(flat, Block):
        return flat
    new_value, elsewhere = flat
    return Rewrite((NewArgument(name, new_value),), elsewhere=elsewhere)
