"""
## What it does
Reports `web_search_options=`, and with `--unsafe-fixes` turns it into the `web_search` tool:

| Chat Completions | Responses |
|---|---|
| `web_search_options={}` | `tools=[{"type": "web_search"}]` |
| `"search_context_size": s` | `"search_context_size": s` |
| `"user_location": {"type": "approximate", "approximate": {"city": c, ...}}` | `"user_location": {"type": "approximate", "city": c, ...}` |

## Why
`responses.create` has no `web_search_options`. Web search is a tool there, and the options
map one to one, but the behaviour does not: Chat Completions searches with dedicated search
models (`gpt-4o-search-preview`, ...) on every request, while with the `web_search` tool the
model decides whether to search, and the model must be one the Responses API serves with tools.

## Example
```python
client.chat.completions.create(model="gpt-4o-search-preview", messages=msgs, web_search_options={"search_context_size": "low"})
```

## Use instead
```python
client.responses.create(model="gpt-4o", input=msgs, tools=[{"type": "web_search", "search_context_size": "low"}])
```

## Fix safety
Unsafe: applied only with `--unsafe-fixes`, because when and whether the web is searched
changes, and so does the model: the Responses API does not serve the search models, and rule
`request_parameters` names their general counterpart in the same unsafe fix
(`gpt-4o-search-preview` becomes `gpt-4o`). The fix leaves a `# migrator:` comment above the
call. Options the tool cannot read (not a dict literal, unknown keys, a location not written
out) and calls that also pass `tools` or `functions` are only reported.
"""

from typing import Optional, Union

import libcst as cst

from migrator.analysis import CallSite
from migrator.model import FixSafety
from migrator.rule import Block, Example, NewArgument, Rewrite, Rule
from migrator.shapes import code_of, dict_entries, lifted, literal_string, one_line, separator, string_like

OPTION_KEYS = frozenset({"search_context_size", "user_location"})
BEHAVIOUR = (
    "Chat's search models search the web on every request, while with the `web_search` tool the "
    "model decides when to search (and must be a model the Responses API serves with tools)"
)

RULE = Rule(
    title="`web_search_options` to the `web_search` tool",
    safety=FixSafety.UNSAFE,
    needs=("web_search_options",),
    examples=[
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o-search-preview", messages=m, web_search_options={})\n'
            ),
            finding="decides when to search",
        ),
        Example(
            before=(
                "import openai\n"
                "r = openai.chat.completions.create(\n"
                '    model="gpt-4o-search-preview",\n'
                '    messages=[{"role": "user", "content": q}],\n'
                '    web_search_options={"search_context_size": "low"},\n'
                ")\n"
            ),
            after=(
                "import openai\n"
                "# migrator: `gpt-4o-search-preview` became `gpt-4o`, which the Responses API serves\n"
                "# migrator: web_search_options became the web_search tool: the model now decides when to search\n"
                "r = openai.responses.create(\n"
                '    model="gpt-4o",\n'
                "    input=q,\n"
                '    tools=[{"type": "web_search", "search_context_size": "low"}],\n'
                ")\n"
            ),
            options=("unsafe_fixes",),
        ),
    ],
)


@RULE.parameter("web_search_options")
def web_search_options(name: str, value: cst.BaseExpression, site: CallSite) -> Union[Rewrite, Block]:
    for other in ("tools", "functions"):
        if site.has_argument(other):
            return Block(f"the call passes both `web_search_options=` and `{other}=`, which the tool does not merge")
    tool = _web_search_tool(value)
    if isinstance(tool, Block):
        return tool
    fix = Rewrite(
        (NewArgument("tools", cst.List([cst.Element(tool)])),),
        note="web_search_options became the web_search tool: the model now decides when to search",
    )
    return Block(f"`web_search_options=` has no exact equivalent: {BEHAVIOUR}", unsafe=fix)


def _web_search_tool(options: cst.BaseExpression) -> Union[cst.Dict, Block]:
    """``{"search_context_size": s, "user_location": {...}}`` -> ``{"type": "web_search", ...}``."""
    entries = dict_entries(options)
    shown = f"`web_search_options={one_line(code_of(options), limit=40)}`"
    if entries is None or not set(entries) <= OPTION_KEYS:
        return Block(f"{shown} is not a dict literal of options the tool can map")
    assert isinstance(options, cst.Dict)
    elements = list(options.elements)
    if "user_location" in entries:
        location = _flat_location(entries["user_location"].value)
        if location is None:
            return Block(f"the `user_location` of {shown} is not `{{\"type\": \"approximate\", \"approximate\": {{...}}}}`")
        elements = [e.with_changes(value=location) if e is entries["user_location"] else e for e in elements]
    style = next(iter(entries.values())).key if entries else options  # a string to copy the quotes of
    kind = cst.DictElement(key=string_like(style, "type"), value=string_like(style, "web_search"))
    if not elements:
        return options.with_changes(elements=[kind])
    return options.with_changes(elements=[kind.with_changes(comma=separator(options)), *elements])


def _flat_location(location: cst.BaseExpression) -> Optional[cst.Dict]:
    """``{"type": "approximate", "approximate": {...}}`` -> ``{"type": "approximate", ...}``."""
    entries = dict_entries(location)
    if entries is None or set(entries) != {"type", "approximate"} or literal_string(entries["type"].value) != "approximate":
        return None
    if not dict_entries(entries["approximate"].value):  # not a dict literal, or empty
        return None
    assert isinstance(location, cst.Dict)
    return lifted(location, entries["approximate"])
