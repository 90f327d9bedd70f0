"""
## What it does
Reports a response shown whole, printed (`print`, `pprint`, as JSON through `json.dumps`),
logged or put in an f-string, as itself or serialised (`model_dump()`, `model_dump_json()`,
`to_json()`, `to_dict()`), its `usage`, its message (`resp.choices[0].message`) and its choice
(`resp.choices[0]`) too; with `--unsafe-fixes` the call migrates and the line shows the
Response instead, its usage, or its output items (`resp.output`) for the message or the choice.

## Why
A `Response` has other fields than a `ChatCompletion` (`output`, not `choices`; `input_tokens`,
not `prompt_tokens`), and no message object: what the model said is a list of output items (a
message, a function call, a reasoning summary), so what such a line shows changes. Nothing reads what it shows but a
person, so the program otherwise behaves the same; the tool cannot know whether that person,
or a test comparing logs, relies on the old text.

## Example
```python
completion = client.chat.completions.create(model="gpt-4o-mini", messages=msgs)
print(completion)
print(completion.choices[0].message)
print(completion.choices[0].message.content)
```

## Use instead
```python
# migrator: `completion` now shows the fields of a Response
# migrator: `completion.choices[0].message` is now `completion.output`: it shows the output items of a Response
completion = client.responses.create(model="gpt-4o-mini", input=msgs)
print(completion)
print(completion.output)
print(completion.output_text)
```

## Fix safety
Unsafe: applied only with `--unsafe-fixes`, because the text shown changes; the fix leaves a
`# migrator:` comment above the call. A serialised response that goes anywhere but to the
screen or a log (a dict kept, a file written, JSON returned) is only reported: code may read
its keys.
"""

from typing import Union

from migrator.analysis import CallSite
from migrator.model import FixSafety
from migrator.rule import Block, Example, Rewrite, Rule
from migrator.rules._history import RESPONSE_CHOICE, RESPONSE_MESSAGE
from migrator.rules._shown import is_shown
from migrator.semantic.flow import CALL, ResultUse
from migrator.shapes import code_of, one_line

SERIALISERS = frozenset({"model_dump", "model_dump_json", "to_json", "to_dict"})

RULE = Rule(
    title="A response printed or logged whole",
    safety=FixSafety.UNSAFE,
    needs=("completions",),
    examples=[
        Example(
            before=(
                "import openai\n"
                'completion = openai.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "Hi"}])\n'
                "print(completion)\n"
            ),
            finding="a Response has other fields",
        ),
        Example(
            before=(
                "import logging\n"
                "import openai\n"
                'completion = openai.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "Hi"}])\n'
                'logging.debug("answer: %s", completion.model_dump_json())\n'
                "print(completion.choices[0].message.content)\n"
            ),
            after=(
                "import logging\n"
                "import openai\n"
                "# migrator: `completion.model_dump_json()` now shows the fields of a Response\n"
                'completion = openai.responses.create(model="gpt-4o-mini", input="Hi")\n'
                'logging.debug("answer: %s", completion.model_dump_json())\n'
                "print(completion.output_text)\n"
            ),
            options=("unsafe_fixes",),
        ),
        Example(
            before=(
                "import openai\n"
                'completion = openai.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "Hi"}])\n'
                "print(completion.choices[0].message)\n"
            ),
            after=(
                "import openai\n"
                "# migrator: `completion.choices[0].message` is now `completion.output`: it shows the output items of a Response\n"
                'completion = openai.responses.create(model="gpt-4o-mini", input="Hi")\n'
                "print(completion.output)\n"
            ),
            options=("unsafe_fixes",),
        ),
    ],
)


@RULE.result_use
def shown_whole(use: ResultUse, site: CallSite) -> Union[Block, None]:
    if use.path in (RESPONSE_MESSAGE, RESPONSE_CHOICE):
        return _message_shown(use, site)
    path = use.path[1:] if use.path[:1] == ("usage",) else use.path
    if path and not (len(path) == 2 and path[0] in SERIALISERS and path[1] == CALL):
        return None
    if not is_shown(use.outer, site):
        return None
    code = one_line(use.code)
    if use.path[:1] == ("usage",):
        reason = f"`{code}` shows the usage's fields as they are, and a Response's usage has other fields (`input_tokens`, not `prompt_tokens`)"
        return Block(reason, unsafe=Rewrite(note=f"`{code}` now shows the fields of a Response's usage"))
    reason = f"`{code}` shows the response's fields as they are, and a Response has other fields"
    return Block(reason, unsafe=Rewrite(note=f"`{code}` now shows the fields of a Response"))



def _message_shown(use: ResultUse, site: CallSite) -> Union[Block, None]:
    """``print(resp.choices[0].message)`` (or ``resp.choices[0]``, the choice holding it): the
    output items are what the model said."""
    if not is_shown(use.outer, site):
        return None
    code = one_line(use.code)
    shape = "message" if use.path == RESPONSE_MESSAGE else "choice"
    reason = f"the {shape} `{code}` is shown whole, and a Response has no {shape} object: show `output_text`, or the output items, instead"
    shown = use.replace(len(use.path), "{base}.output")
    note = f"`{code}` is now `{one_line(code_of(use.base))}.output`: it shows the output items of a Response"
    return Block(reason, unsafe=Rewrite(note=note, elsewhere=(shown,)))
