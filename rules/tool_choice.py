"""
## What it does
Rewrites `tool_choice=` for the Responses API: `"auto"`, `"none"` and `"required"` stay as
they are, and a named function, `{"type": "function", "function": {"name": "f"}}`, becomes
`{"type": "function", "name": "f"}`.

## Why
The Responses API names the function to call next to `"type"`; the nested Chat shape is
rejected.

## Example
```python
client.chat.completions.create(model=m, messages=msgs, tools=TOOLS, tool_choice={"type": "function", "function": {"name": "get_weather"}})
```

## Use instead
```python
client.responses.create(model=m, input=msgs, tools=TOOLS, tool_choice={"type": "function", "name": "get_weather"})
```

## Fix safety
Safe. A `tool_choice` the tool cannot read (a variable, a function call) or with no exact
Responses equivalent (`allowed_tools`, custom tools) is reported, and the call left as it is.
"""

from typing import Union

import libcst as cst

from migrator.analysis import CallSite
from migrator.rules._function_calling import flat_tool_choice
from migrator.model import FixSafety
from migrator.rule import Block, Example, NewArgument, Rewrite, Rule

RULE = Rule(
    title="`tool_choice`",
    safety=FixSafety.SAFE,
    needs=("tool_choice",),
    examples=[
        Example(
            before=(
                "import openai\n"
                "r = openai.chat.completions.create(\n"
                '    model="gpt-4o",\n'
                '    messages=[{"role": "user", "content": q}],\n'
                '    tools=[{"type": "function", "function": {"name": "lookup", "parameters": SCHEMA}}],\n'
                '    tool_choice={"type": "function", "function": {"name": "lookup"}},\n'
                ")\n"
            ),
            after=(
                "import openai\n"
                "r = openai.responses.create(\n"
                '    model="gpt-4o",\n'
                "    input=q,\n"
                '    tools=[{"type": "function", "name": "lookup", "parameters": SCHEMA, "strict": False}],\n'
                '    tool_choice={"type": "function", "name": "lookup"},\n'
                ")\n"
            ),
        ),
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": q}], tools=[], tool_choice=choice)\n'
            ),
            finding="tool_choice=",
        ),
    ],
)


@RULE.parameter("tool_choice")
def tool_choice(name: str, value: cst.BaseExpression, site: CallSite) -> Union[Rewrite, Block]:
    choice = flat_tool_choice(value)
    if isinstance(choice, Block):
        return choice
    return Rewrite((NewArgument(name, choice),))
