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
`ParsedResponse`. (`output_text` skips refusal parts: it is `""` for a refused answer.) Where
the module already uses the name `Response` for something else (a web framework's), the helper
imports it as `OpenAIResponse`; the call is reported instead when the module uses both names,
`_refusal_of` or `Optional` for something else.
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
OPTIONAL_IMPORT = Import("typing", "Optional")
# What the helper's annotation calls a Response: its own name, or, where the module already uses
# that for something else (a web framework's `Response`), an alias.
RESPONSE_NAMES = ("Response", "OpenAIResponse")

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
            after=(
                "from typing import Optional\n"
                "\n"
                "import openai\n"
                "from flask import Response\n"
                "from openai.types.responses import Response as OpenAIResponse\n"
                "\n"
                "\n"
                f"{HELPER.replace('response: Response', 'response: OpenAIResponse')}"
                "\n"
                "\n"
                'r = openai.responses.create(model="gpt-4o", input=m)\n'
                "print(_refusal_of(r))\n"
            ),
        ),
    ],
)


@RULE.result_use
def refusal(use: ResultUse, site: CallSite) -> Union[UseRewrite, Block, None]:
    if not use.startswith(*REFUSAL):
        return None
    analysis = site.analysis
    response = next((name for name in RESPONSE_NAMES if analysis.imports.can_import(name, "openai.types.responses.Response", use.base)), None)
    if response is None:
        return Block(f"the refusal helper needs the name `{RESPONSE_NAMES[0]}` or `{RESPONSE_NAMES[1]}`, and this module uses both for something else")
    helper = HELPER.replace("response: Response", f"response: {response}")
    taken = _name_taken(use, site, helper)
    if taken is not None:
        return Block(f"the refusal helper needs the name `{taken}`, which this module uses for something else")
    rewrite = use.replace(len(REFUSAL), f"{HELPER_NAME}({{base}})")
    imports = (Import("openai.types.responses", "Response", alias=None if response == "Response" else response), OPTIONAL_IMPORT)
    return UseRewrite(rewrite.target, rewrite.build, add_imports=imports, add_definitions=(helper,))


def _name_taken(use: ResultUse, site: CallSite, helper: str) -> Optional[str]:
    """A name the helper needs that already means something else where it is used."""
    analysis = site.analysis
    if not analysis.imports.can_import(OPTIONAL_IMPORT.name, f"{OPTIONAL_IMPORT.module}.{OPTIONAL_IMPORT.name}", use.base):
        return OPTIONAL_IMPORT.name
    scope = analysis.bindings.scopes.get(use.base)
    helpers = scope[HELPER_NAME] if scope is not None else ()
    if any(analysis.module.code_for_node(binding.node).strip() != helper.strip() for binding in helpers):
        return HELPER_NAME
    return None
