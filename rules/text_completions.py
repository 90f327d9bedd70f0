"""
## What it does
Moves legacy text completions, `client.completions.create(prompt=...)`, to
`client.responses.create(input=...)`, and `.choices[0].text` to `.output_text`. The other
parameters and reads are mapped by the same rules as for Chat Completions.

## Why
The legacy Completions endpoint is the oldest way to call the models; the Responses API takes
a plain string as `input`, but not the same way: a legacy completion continues the prompt
(`"Once upon a time"` goes on with the story), where a Responses model answers it as a user's
message. And the endpoint serves only instruct and base models (`gpt-3.5-turbo-instruct`,
`davinci-002`, `babbage-002`), which the Responses API does not: the migrated call must name
another model.

## Example
```python
resp = client.completions.create(model="gpt-4.1-mini", prompt="Say hi", max_tokens=50)
print(resp.choices[0].text)
```

## Use instead
```python
resp = client.responses.create(model="gpt-4.1-mini", input="Say hi", max_output_tokens=50)
print(resp.output_text)
```

## Fix safety
Unsafe: the model answers rather than continues, so the call is reported, and migrates only
with `--unsafe-fixes`, with a `# migrator:` comment above it. Legacy completions stop at 16
tokens when `max_tokens` is not given, so the migrated call gets `max_output_tokens=16` (the
smallest value the Responses API accepts) to keep that limit; and a prompt given as a list (a
batch of prompts, or token ids) blocks the call, as do `echo`, `best_of` and `suffix`, which
have no equivalent. The model must be one the Responses API serves: a call naming an
instruct-only model (`gpt-3.5-turbo-instruct`, `babbage-002`, `davinci-002`), in the call, in a
name bound to it, or as the default of an environment variable (`os.getenv("MODEL",
"gpt-3.5-turbo-instruct")`), is reported even so (rule `request_parameters`); check a `model` the
tool cannot read in the diff.
"""

import libcst as cst

from migrator.model import FixSafety
from migrator.rule import Block, Example, NewArgument, Retarget, Rewrite, Rule

LEGACY_DEFAULT_MAX_TOKENS = "16"
NO_EQUIVALENT = {
    "echo": "Responses cannot echo the prompt back",
    "best_of": "Responses returns one answer per request",
    "suffix": "Responses has no insertion suffix",
}
TEXT = ("choices", 0, "text")
ANSWERED = "a legacy completion continued the prompt: the model now answers it as a user's message"

RULE = Rule(
    title="Legacy text completions",
    safety=FixSafety.UNSAFE,
    needs=("completions",),
    examples=[
        Example(
            before=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'resp = client.completions.create(model="gpt-4.1-mini", prompt="Say hi", max_tokens=50)\n'
                "print(resp.choices[0].text)\n"
            ),
            after=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                f"# migrator: {ANSWERED}\n"
                'resp = client.responses.create(model="gpt-4.1-mini", input="Say hi", max_output_tokens=50)\n'
                "print(resp.output_text)\n"
            ),
            options=("unsafe_fixes",),
        ),
        Example(
            before=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'resp = client.completions.create(model="gpt-4.1-mini", prompt="Say hi", max_tokens=50)\n'
            ),
            finding="continues the prompt",
        ),
        Example(
            before=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'resp = client.completions.create(model="gpt-4.1-mini", prompt=["a", "b"], max_tokens=50)\n'
            ),
            finding="a list",
        ),
    ],
)


@RULE.call("completions.create")
def create(site):
    if site.has_argument("max_tokens"):
        return Retarget("responses.create")
    default = NewArgument("max_output_tokens", cst.Integer(LEGACY_DEFAULT_MAX_TOKENS))
    return Retarget("responses.create", added=(default,))


@RULE.parameter("prompt")
def prompt(name, value, site):
    if isinstance(value, (cst.List, cst.Tuple, cst.ListComp)):
        return Block("the prompt is a list: a batch of prompts or token ids has no Responses equivalent")
    reason = "a legacy completion continues the prompt, where a Responses model answers it as a user's message"
    return Block(reason, unsafe=Rewrite((NewArgument("input", value),), note=ANSWERED))


@RULE.parameter(*NO_EQUIVALENT)
def no_equivalent(name, value, site):
    return Block(f"`{name}=` has no equivalent: {NO_EQUIVALENT[name]}")


@RULE.result_use
def text(use, site):
    if site.kind == "completions.create" and use.startswith(*TEXT):
        return use.replace(len(TEXT), "{base}.output_text")
    return None
