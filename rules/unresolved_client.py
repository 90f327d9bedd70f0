"""
## What it does
Reports a `chat.completions.create` (or `completions.create`) call in a file that imports
`openai` when the tool cannot prove that the receiver is an OpenAI client: a client taken from
another module, passed in without a type annotation, or that may also be another SDK's client
(`client or Groq()`, a `self.client` some other code of the module sets to something else).

## Why
Other SDKs (Groq, Together, Mistral, ...) copy the OpenAI method names; rewriting their calls
to `responses.create` would break them. So the tool rewrites only what it can prove, and
reports the rest at low confidence.

## Example
```python
import openai
client = make_client()
client.chat.completions.create(model="gpt-4o", messages=msgs)
```

## Use instead
Annotate the client (`client: OpenAI = make_client()`), or pass `--assume-openai` to treat
every such receiver in files that import `openai` as an OpenAI client.

## Fix safety
Manual by default; `--assume-openai` lets the other rules migrate these calls.
"""

from migrator.model import FixSafety
from migrator.rule import Example, Rule

RULE = Rule(
    title="Receiver not provably an OpenAI client",
    safety=FixSafety.MANUAL,
    needs=("completions",),
    examples=[
        Example(
            before=(
                "import openai\n"
                "client = make_client()\n"
                'r = client.chat.completions.create(model="gpt-4o", messages=m)\n'
            ),
            finding="not provably an OpenAI client",
        ),
    ],
)
