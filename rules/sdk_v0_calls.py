"""
## What it does
Reports calls of the module-level API of openai before 1.0: `openai.ChatCompletion.create(...)`,
`openai.Completion.create(...)` and their `acreate` variants, however `openai` or the class
was imported (`import openai as oa`, `from openai import ChatCompletion as CC`).

## Why
openai 1.0 removed that API: each of these calls raises `APIRemovedInV1` with the SDK installed
today. The tool migrates calls of the 1.0+ client (`client.chat.completions.create(...)`),
whose arguments and results it knows; a 0.x call returns dicts read as
`resp["choices"][0]["message"]["content"]`, which no rule maps. So the call must first move to
the 1.0+ client, and then the tool can take it to the Responses API.

## Example
```python
import openai
resp = openai.ChatCompletion.create(model="gpt-4o-mini", messages=messages)
print(resp["choices"][0]["message"]["content"])
```

## Use instead
Move to the 1.0+ client first (the SDK's `openai migrate` command rewrites most of it), then run
`migrator apply`, which takes the new call on to `responses.create`:

```python
from openai import OpenAI
client = OpenAI()
resp = client.chat.completions.create(model="gpt-4o-mini", messages=messages)
print(resp.choices[0].message.content)
```

## Fix safety
Manual: the tool only reports. Calls are recognised by what the names are imported as, so
strings, comments and other libraries' `ChatCompletion` classes never match.
"""

from typing import List

import libcst as cst

from migrator.model import FixSafety
from migrator.rule import Example, Report, Rule

# openai<1.0's classes, and the 1.0+ resource the same call is made on.
V0_RESOURCES = {"ChatCompletion": "chat.completions", "Completion": "completions"}
V0_METHODS = ("create", "acreate")
V0_NAMES = tuple(f"openai.{cls}.{method}" for cls in V0_RESOURCES for method in V0_METHODS)

RULE = Rule(
    title="openai<1.0 module API calls",
    safety=FixSafety.MANUAL,
    needs=("Completion",),
    # The classes of V0_RESOURCES: `import openai` reaches them, `from openai import OpenAI` does not.
    needs_imports=("openai.ChatCompletion", "openai.Completion"),
    examples=[
        Example(
            before=(
                "import openai\n"
                'resp = openai.ChatCompletion.create(model="gpt-4o-mini", messages=messages)\n'
                'print(resp["choices"][0]["message"]["content"])\n'
            ),
            finding="move it to the 1.0+ client first",
        ),
        Example(
            before=(
                "from openai import Completion as LegacyCompletion\n"
                'async def ask(): return await LegacyCompletion.acreate(model="davinci-002", prompt="Hi")\n'
            ),
            finding="`await client.completions.create(...)` on an `AsyncOpenAI` client",
        ),
    ],
)


@RULE.module
def v0_calls(analysis) -> List[Report]:
    reports = []
    for call in analysis.nodes.nodes_of(cst.Call):
        if not (isinstance(call.func, cst.Attribute) and call.func.attr.value in V0_METHODS):
            continue
        owner = call.func.value
        if not (isinstance(owner, cst.Name) or (isinstance(owner, cst.Attribute) and owner.attr.value in V0_RESOURCES)):
            continue  # `client.embeddings.create(...)`: not a class of the openai module (a name may be an alias)
        if not analysis.may_name(call.func, *V0_NAMES):
            continue  # no name lookups for the calls that cannot be one
        for name in analysis.imports.qualified(call.func, imported_only=True):
            package, _, rest = name.partition(".")
            cls, _, method = rest.partition(".")
            if package == "openai" and cls in V0_RESOURCES and method in V0_METHODS:
                reports.append(Report(call, _message(analysis.module.code_for_node(call.func), cls, method)))
                break
    return reports


def _message(code: str, cls: str, method: str) -> str:
    resource = V0_RESOURCES[cls]
    if method == "acreate":
        instead = f"`await client.{resource}.create(...)` on an `AsyncOpenAI` client"
    else:
        instead = f"`client.{resource}.create(...)` on an `OpenAI` client"
    return (
        f"`{code}` is the openai<1.0 API, which openai>=1.0 no longer has (calling it raises"
        f" `APIRemovedInV1`): move it to the 1.0+ client first ({instead}; `openai migrate` does most"
        " of it), then run the migrator again"
    )
