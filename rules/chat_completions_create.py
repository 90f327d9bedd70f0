"""
## What it does
Moves `client.chat.completions.create(...)` to `client.responses.create(...)`, together with
its arguments and every read of its result, when the receiver is provably an OpenAI client
(`OpenAI`, `AsyncOpenAI`, `AzureOpenAI`, `AsyncAzureOpenAI`, the `openai` module, their
aliases, and `self.` attributes holding one). `await`, `with_raw_response` and
`beta.chat.completions` are kept or followed.

## Why
The Responses API is where the OpenAI SDK now centres; Chat Completions code keeps working
but new features land on `responses.create`.

## Example
```python
resp = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": q}])
print(resp.choices[0].message.content)
```

## Use instead
```python
resp = client.responses.create(model="gpt-4o-mini", input=q)
print(resp.output_text)
```

## Fix safety
Safe: the call is rewritten only when every argument and every read of its result has a
faithful mapping (see the other rules). Otherwise it is left exactly as it is and every reason
is reported. Positional or `**` arguments, and parameters the tool does not know, block the
call, and so does a call without `model` or `messages` (also of `parse` and `stream`): the SDK
raises `TypeError` before sending it, where `responses.create()`, whose parameters are all
optional, would send the request. Clients of other SDKs with the same method names (Groq, Together, ...) are never touched.
"""

from migrator.model import FixSafety
from migrator.rules._required_arguments import missing_required
from migrator.rule import Example, Retarget, Rule

RULE = Rule(
    title="`chat.completions.create` call",
    safety=FixSafety.SAFE,
    needs=("completions",),
    examples=[
        Example(
            before=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'resp = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "Hi"}])\n'
                "print(resp.choices[0].message.content)\n"
            ),
            after=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'resp = client.responses.create(model="gpt-4o-mini", input="Hi")\n'
                "print(resp.output_text)\n"
            ),
        ),
        Example(
            before=(
                "from groq import Groq\n"
                "client = Groq()\n"
                'resp = client.chat.completions.create(model="llama3", messages=[{"role": "user", "content": "Hi"}])\n'
            ),
            after=None,
        ),
    ],
)


@RULE.call("chat.completions.create")
def create(site):
    return missing_required(site) or Retarget("responses.create")
