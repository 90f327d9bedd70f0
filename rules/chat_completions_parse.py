"""
## What it does
Moves the structured-output helper `client.chat.completions.parse(...)` (and its older spelling
`client.beta.chat.completions.parse(...)`) to `client.responses.parse(...)`, and reads of the
parsed answer, `.choices[0].message.parsed`, to `.output_parsed`. The model class moves from
`response_format=` to `text_format=` (rule `response_format`); the other arguments and reads
are mapped by the same rules as for `create`.

Tools built with `openai.pydantic_function_tool(Model)` keep working in a migrated `parse` call:
`responses.parse` converts these Chat-shaped tools itself (`responses.create` does not), and
rule `tool_definitions` writes them as `openai.pydantic_responses_function_tool(Model)`, the
Responses shape, which `responses.parse` parses the same way (`parsed_arguments` is a `Model`).

## Why
`responses.parse` is the Responses API's structured-output helper: it sends the model's JSON
schema as the strict `text.format` and parses the answer into the model, as
`chat.completions.parse` did.

## Example
```python
completion = client.chat.completions.parse(model="gpt-4o-mini", messages=msgs, response_format=Answer)
answer = completion.choices[0].message.parsed
```

## Use instead
```python
completion = client.responses.parse(model="gpt-4o-mini", input=msgs, text_format=Answer)
answer = completion.output_parsed
```

## Fix safety
Safe, except on one failure path: `chat.completions.parse` raises `LengthFinishReasonError` or
`ContentFilterFinishReasonError` when the answer was cut short, and `responses.parse` raises
neither (the response is `incomplete`; parsing the partial JSON fails with a Pydantic
validation error, or `output_parsed` is `None`). So a module that refers to either exception,
or to their base class `OpenAIError`, to handle it, is reported instead of migrated, and so is
one whose function (or class) holding the call is imported by a module with an `except`
naming one of them, or whose call is inside a `try` handling `ValueError` or `ValidationError`
(which would catch what `responses.parse` raises instead); elsewhere
a program that crashed on a cut-short answer still stops there, with another exception.
"""

from typing import Optional, Union

from migrator.analysis import CallSite
from migrator.model import FixSafety
from migrator.rule import Block, Example, Retarget, Rule, UseRewrite
from migrator.rules._cut_short import PARSE_CUT_SHORT_EXCEPTIONS, caught_instead, cut_short_handled
from migrator.rules._required_arguments import missing_required

PARSED = ("choices", 0, "message", "parsed")

RULE = Rule(
    title="`chat.completions.parse` call",
    safety=FixSafety.SAFE,
    needs=("parse",),
    examples=[
        Example(
            before=(
                "from openai import OpenAI\n"
                "from app.models import Answer\n"
                "client = OpenAI()\n"
                'c = client.chat.completions.parse(model="gpt-4o", messages=m, response_format=Answer)\n'
                "print(c.choices[0].message.parsed)\n"
            ),
            after=(
                "from openai import OpenAI\n"
                "from app.models import Answer\n"
                "client = OpenAI()\n"
                'c = client.responses.parse(model="gpt-4o", input=m, text_format=Answer)\n'
                "print(c.output_parsed)\n"
            ),
        ),
        Example(
            before=(
                "import openai\n"
                "try:\n"
                '    c = openai.chat.completions.parse(model="gpt-4o", messages=m, response_format=Answer)\n'
                "except openai.LengthFinishReasonError:\n"
                "    c = None\n"
            ),
            finding="LengthFinishReasonError",
        ),
    ],
)


@RULE.call("chat.completions.parse")
def parse(site: CallSite) -> Union[Retarget, Block]:
    missing = missing_required(site)
    if missing is not None:
        return missing
    handled = cut_short_handled(site, site.call)
    if handled is not None:
        return Block(
            f"{handled}: `chat.completions.parse` raises `LengthFinishReasonError` or "
            "`ContentFilterFinishReasonError` on a cut-short answer, `responses.parse` does not"
        )
    caught = caught_instead(site, site.call, PARSE_CUT_SHORT_EXCEPTIONS)
    if caught is not None:
        return Block(
            f"the call is inside a `try` that handles `{caught}`: on a cut-short answer `responses.parse` raises a Pydantic"
            " `ValidationError` (a `ValueError`), which it would catch, where `chat.completions.parse` raised"
            " `LengthFinishReasonError`"
        )
    return Retarget("responses.parse")


@RULE.result_use
def parsed(use, site: CallSite) -> Optional[UseRewrite]:
    if site.kind == "chat.completions.parse" and use.startswith(*PARSED):
        return use.replace(len(PARSED), "{base}.output_parsed")
    return None
