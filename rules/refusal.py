"""
## What it does
Rewrites reads of the model's refusal, `.choices[0].message.refusal`, into a call of a small
helper that reads the refusal part of the response's output message. The helper is added once
to the module, after its imports:

```python
def _refusal_of(response: Response) -> Optional[str]:
    \"\"\"The model's refusal, or None: what Chat Completions returned as `message.refusal`.\"\"\"
    for item in response.output:
        if item.type == "message":
            for part in item.content:
                if part.type == "refusal":
                    return part.refusal
    return None
```

## Why
A `Response` has no `choices`. When the model declines, its output message holds a content
part `{"type": "refusal", "refusal": "..."}` instead of output text.

## Example
```python
if completion.choices[0].message.refusal:
    print("Refused:", completion.choices[0].message.refusal)
```

## Use instead
```python
if _refusal_of(completion):
    print("Refused:", _refusal_of(completion))
```

## Fix safety
Safe: the helper returns the text Chat Completions returned as `message.refusal`, and `None`
when the model did not refuse; it type-checks as `Optional[str]` on a `Response` and on a
`ParsedResponse`. (`output_text` skips refusal parts: it is `""` for a refused answer.) The
call is reported instead when the module already uses the name `_refusal_of`, `Response` or
`Optional` for something else.
"""

from typing import Optional, Union

from migrator.analysis import CallSite
from migrator.semantic.flow import ResultUse
from migrator.model import FixSafety
from migrator.rule import Block, Example, Import, Rule, UseRewrite

REFUSAL = ("choices", 0, "message", "refusal")
HELPER_NAME = "_refusal_of"
HELPER = '''\
def _refusal_of(response: Response) -> Optional[str]:
    """The model's refusal, or None: what Chat Completions returned as `message.refusal`."""
    for item in response.output:
        if item.type == "message":
            for part in item.content:
                if part.type == "refusal":
                    return part.refusal
    return None
'''
HELPER_IMPORTS = (Import("openai.types.responses", "Response"), Import("typing", "Optional"))

RULE = Rule(
    title="Refusals",
    safety=FixSafety.SAFE,
    needs=("refusal",),
    examples=[
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m)\n'
                "print(r.choices[0].message.refusal)\n"
            ),
            after=(
                "from typing import Optional\n"
                "\n"
                "import openai\n"
                "from openai.types.responses import Response\n"
                "\n"
                "\n"
                f"{HELPER}"
                "\n"
                "\n"
                'r = openai.responses.create(model="gpt-4o", input=m)\n'
                "print(_refusal_of(r))\n"
            ),
        ),
        Example(
            before=(
                "import openai\n"
                "from flask import Response\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m)\n'
                "print(r.choices[0].message.refusal)\n"
            ),
            finding="`Response`",
        ),
    ],
)


@RULE.result_use
def refusal(use: ResultUse, site: CallSite) -> Union[UseRewrite, Block, None]:
    if not use.startswith(*REFUSAL):
        return None
    taken = _name_taken(use, site)
    if taken is not None:
        return Block(f"the refusal helper needs the name `{taken}`, which this module uses for something else")
    rewrite = use.replace(len(REFUSAL), f"{HELPER_NAME}({{base}})")
    return UseRewrite(rewrite.target, rewrite.build, add_imports=HELPER_IMPORTS, add_definitions=(HELPER,))


def _name_taken(use: ResultUse, site: CallSite) -> Optional[str]:
    """A name the helper needs that already means something else where it is used."""
    analysis = site.analysis
    for needed in HELPER_IMPORTS:
        if not analysis.imports.can_import(needed.name, f"{needed.module}.{needed.name}", use.base):
            return needed.name
    scope = analysis.bindings.scopes.get(use.base)
    helpers = scope[HELPER_NAME] if scope is not None else ()
    if any(analysis.module.code_for_node(binding.node).strip() != HELPER.strip() for binding in helpers):
        return HELPER_NAME
    return None
