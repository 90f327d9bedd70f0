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
built from separate dict variables or from tools whose function is held in a name (`{"type":
"function", "function": price_function}`: the dict literal `price_function` holds becomes the flat
tool, and the list names it, when nothing else reads it), and in the list literals every construction of a class
gives its `__init__` when it keeps the parameter as the attribute sent (`self.tools = tools`)
and reads it nowhere else.

A list the tool cannot rewrite where it is written (imported from another module, a parameter,
built by a function or a comprehension, also read or changed by other code) is converted where
a `create` call sends it, by a helper added once to the module: `tools=_responses_tools(TOOLS)`.
The list itself stays as it is for whatever else reads it.

```python
def _responses_tools(tools: Any) -> Any:
    \"\"\"Chat Completions tools in the Responses shape: a function's definition flat, not strict
    unless it says so (Responses makes functions strict by default), no parameters if it has none.\"\"\"
    if not isinstance(tools, (list, tuple)):
        return tools  # None, or the SDK's marker for "not given"
    flat = []
    for tool in tools:
        if tool.get("type") != "function" or "function" not in tool:
            raise ValueError(f"a {tool.get('type')!r} tool has no Responses shape the migration knows: convert it by hand")
        function = {"parameters": {"type": "object", "properties": {}}, "strict": False, **tool["function"]}
        flat.append({"type": "function", **function})
    return flat
```

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
`tools=` argument of a call the tool migrates (or an entry of such a tool list), none of them
a call kept as it is for its client (one on another server, say, which would go on sending
Chat tools); a list returned
by a function of the module (`def get_tools(): return [...]`, sent as `tools=get_tools()` or
through a name) is rewritten in the function when every call of it is; all those calls
migrate together or none does. The helper gives each function tool the shape the static rewrite
gives it, and a function without `parameters` the empty object schema Chat read its absence as;
any other kind of tool (a custom tool) makes it raise, as no shape for it is known. It is not
used for `parse`, which reads the Pydantic models `pydantic_function_tool` attaches to its
tools. The call is reported, not rewritten, when a tool written in sight cannot be mapped: a
tool the tool sees is built by code it cannot see into (a `parse` call's list, an entry of a
list it reads), when a function has keys the
Responses tool does not take or no `parameters` (Chat reads a missing schema as "no
parameters", the Responses API requires one), or when flattening would lose a comment (one
ending the line of an entry, or on lines of its own between entries, moves with them, the
last entry's too; one on the line of the nested dict's opening brace, or on lines of its
own right after it or before its closing brace, has nowhere to go).
"""

from typing import Optional, Union

import libcst as cst

from migrator.analysis import CallSite
from migrator.rules._tool_lists import TOOLS, Unseen, flat_tool_list
from migrator.model import FixSafety
from migrator.rule import Block, Example, Import, NewArgument, Rewrite, Rule, UseRewrite

# Converts, where the call sends it, a tool list the migration cannot rewrite where it is written.
HELPER_NAME = "_responses_tools"
HELPER = '''\
def _responses_tools(tools: Any) -> Any:
    """Chat Completions tools in the Responses shape: a function's definition flat, not strict
    unless it says so (Responses makes functions strict by default), no parameters if it has none."""
    if not isinstance(tools, (list, tuple)):
        return tools  # None, or the SDK's marker for "not given"
    flat = []
    for tool in tools:
        if tool.get("type") != "function" or "function" not in tool:
            raise ValueError(f"a {tool.get('type')!r} tool has no Responses shape the migration knows: convert it by hand")
        function = {"parameters": {"type": "object", "properties": {}}, "strict": False, **tool["function"]}
        flat.append({"type": "function", **function})
    return flat
'''
ANY = Import("typing", "Any")

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
            after=(
                "from typing import Any\n"
                "\n"
                "import openai\n"
                "\n"
                "\n"
                f"{HELPER}"
                "\n"
                "\n"
                'r = openai.responses.create(model="gpt-4o", input=q, tools=_responses_tools(load_tools()))\n'
            ),
        ),
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.parse(model="gpt-4o", messages=[{"role": "user", "content": q}], tools=load_tools())\n'
            ),
            finding="cannot see into",
        ),
    ],
)




@RULE.parameter("tools")
def tools(name: str, value: cst.BaseExpression, site: CallSite) -> Union[Rewrite, Block]:
    flat = flat_tool_list(TOOLS, value, site)
    if isinstance(flat, Unseen) and site.kind == "chat.completions.create":
        return _converted_where_sent(name, value, site) or flat
    if isinstance(flat, Block):
        return flat
    new_value, elsewhere = flat
    return Rewrite((NewArgument(name, new_value),), elsewhere=elsewhere)


def _converted_where_sent(name: str, value: cst.BaseExpression, site: CallSite) -> Optional[Rewrite]:
    """``tools=_responses_tools(TOOLS)``, the helper added once to the module; None when a name it
    needs means something else there. (Not for ``parse``, which reads the Pydantic models
    ``pydantic_function_tool`` attaches to its tools: a converted copy has none.)"""
    analysis = site.analysis
    original = site.argument(name).value
    if analysis.helper_conflict(original, HELPER_NAME, HELPER, (ANY,)) is not None:
        return None
    needs = UseRewrite(target=original, build=lambda updated: updated, add_imports=(ANY,), add_definitions=(HELPER,))
    converted = cst.Call(func=cst.Name(HELPER_NAME), args=[cst.Arg(value)])
    return Rewrite((NewArgument(name, converted),), elsewhere=(needs,))
