"""
## What it does
Reports a Chat Completions method used as a value instead of called where it is written:
`client.chat.completions.create` (or `parse`, `stream`, `completions.create`, with or without
`beta.`, `with_raw_response` or `with_streaming_response`) passed to `asyncio.to_thread`,
`loop.run_in_executor`, `executor.submit` or `functools.partial`, assigned to a name and
called through it, or returned. The finding names the method, at the place it is handed on.
It is reported at low confidence when the receiver is not provably an OpenAI client, and not at
all when it is provably another SDK's (`Groq()`): that is no Chat Completions method. A method
a test replaces (`client.chat.completions.create = fake`) or reads into
(`create.return_value`) is a mock's, left to `mocked_chat_completions`.

## Why
The tool migrates a call where it is written, with its arguments and every read of its result.
A method handed on is called elsewhere, with arguments the tool does not see as the call's
(`asyncio.to_thread(client.chat.completions.create, model=..., messages=...)`), and its result
comes back through code the tool does not follow: neither the call nor the reads change, and a
text search for the call, which looks for `create(`, does not find it either.

## Example
```python
import asyncio
from openai import OpenAI

client = OpenAI()


async def ask(question):
    completion = await asyncio.to_thread(
        client.chat.completions.create,
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": question}],
    )
    return completion.choices[0].message.content
```

## Use instead
Call the Responses method in place, and read its result as a `Response`:

```python
async def ask(question):
    response = await asyncio.to_thread(
        lambda: client.responses.create(model="gpt-4o-mini", input=question)
    )
    return response.output_text
```

With an `AsyncOpenAI` client, `await client.chat.completions.create(...)` needs no thread, and
the tool migrates it with its reads.

## Fix safety
Manual: the tool only reports. The reads of what comes back are reported too, by
`untraced_choices`.
"""

from migrator.model import FixSafety
from migrator.rule import Example, Rule

RULE = Rule(
    title="Chat Completions method used as a value",
    safety=FixSafety.MANUAL,
    needs=("completions",),
    examples=[
        Example(
            before=(
                "import asyncio\n"
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                "async def ask(messages):\n"
                '    return await asyncio.to_thread(client.chat.completions.create, model="gpt-4o", messages=messages)\n'
            ),
            finding="is passed to `asyncio.to_thread` uncalled",
        ),
        Example(
            before=(
                "import functools\n"
                "def make_ask(client):\n"
                '    return functools.partial(client.chat.completions.create, model="gpt-4o")\n'
            ),
            finding="`client` is not provably an OpenAI client",
        ),
        Example(
            before=(
                "from groq import Groq\n"
                "client = Groq()\n"
                "create = client.chat.completions.create\n"
            ),
            after=None,
        ),
    ],
)
