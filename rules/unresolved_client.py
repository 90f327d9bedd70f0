"""
## What it does
Reports a `chat.completions.create` call (or `parse`, `stream`, `completions.create`, with or
without `beta.`, `with_raw_response` or `with_streaming_response`) when the tool cannot prove
that the receiver is an OpenAI client: a client taken from another module, passed in without a
type annotation, or that may also be another SDK's client (`client or Groq()`, a `self.client`
some other code of the module sets to something else). It does so in any module, also one that
does not import `openai`: a client is often made in one module and used in another. A
receiver proved to be another SDK's client (every value it can hold made by, or annotated as,
a class imported from a package other than openai: `Groq()`, `client: Mistral`) is not
reported: the call is not a Chat Completions call.

## Why
Other SDKs (Groq, Together, Mistral, ...) copy the OpenAI method names; rewriting their calls
to `responses.create` would break them. So the tool rewrites only what it can prove, and
reports the rest at low confidence, so that `check` finds every call a text search finds. A
class of another package whose qualified name mentions openai (`langfuse.openai.OpenAI`) is
taken for a wrapper of OpenAI's client and proves nothing. A class the project itself defines,
in the module or in another (`from app.llm import LLMClient`), is no other SDK's: a subclass of
`OpenAI` that defines nothing but how it is built (`__init__`) makes OpenAI's client, built or
declared (`llm: LLMClient`), and calls on it migrate (with the `base_url` it is built with, if
any, or the one its class gives); any other is reported, since what it defines (a property,
a hook on requests that reads their path) may act otherwise once calls go to `/responses`.
A receiver that may also be None (a factory that returns nothing when the key is missing,
`client = OpenAI() if key else None`) is proved by what it is when it is not: a call on None
fails alike on either API.

## Example
```python
def summarize(client, text):
    return client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": text}])
```

## Use instead
Annotate the client (`client: OpenAI`), or pass `--assume-openai` to treat every such
receiver in files that import `openai` as an OpenAI client.

## Fix safety
Manual by default; `--assume-openai` lets the other rules migrate these calls in files that
import `openai`.
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
        Example(
            before=(
                "def summarize(client, text):\n"
                '    return client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": text}])\n'
            ),
            finding="the module does not import openai",
        ),
        Example(
            before=(
                "from groq import Groq\n"
                "client = Groq()\n"
                'r = client.chat.completions.create(model="llama3", messages=m)\n'
            ),
            after=None,
        ),
    ],
)
