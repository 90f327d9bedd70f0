"""
## What it does
Reports calls that pass a parameter the Responses API does not have: `n` (other than 1),
`stop`, `seed`, `frequency_penalty`, `presence_penalty`, `logit_bias`, `logprobs`,
`top_logprobs`, `audio`, `modalities`, `prediction`. Such a call is left as it is. A value
equal to the Chat Completions default (`n=1`, `stop=None`, `frequency_penalty=0`, ...) changes
nothing and is simply dropped.

## Why
Dropping these parameters silently would change what the model returns: `stop` would no
longer cut the answer, `seed` would no longer make sampling repeatable, `n` would return one
answer where the code expects several.

## Example
```python
client.chat.completions.create(model="gpt-4o", messages=msgs, stop=["\\n"])
```

## Use instead
Decide what the code needs without the parameter (for `stop`, cut the text yourself; for `n`,
make several requests), then migrate. With `--unsafe-fixes` the tool drops the parameter and
leaves a `# migrator:` comment above the call saying what was removed.
A key of a `**` request dict is dropped where it is written (`params["seed"] = 7` goes; a
block left empty holds `pass`).

## Fix safety
Unsafe: applied only with `--unsafe-fixes`, because the program's behaviour changes.
"""

from migrator.model import FixSafety
from migrator.rule import Block, Example, Rewrite, Rule
from migrator.shapes import code_of, is_constant, one_line

# Parameter -> why it cannot be carried over.
NO_EQUIVALENT = {
    "n": "Responses returns one answer per request",
    "stop": "Responses has no stop sequences",
    "seed": "Responses has no seed",
    "frequency_penalty": "Responses has no frequency penalty",
    "presence_penalty": "Responses has no presence penalty",
    "logit_bias": "Responses has no logit bias",
    "logprobs": "Responses returns log probabilities in another shape (`include` + `top_logprobs`)",
    "top_logprobs": "it goes with `logprobs`, whose Responses shape differs",
    "audio": "Responses has no audio output",
    "modalities": "Responses has no audio output",
    "prediction": "Responses has no Predicted Outputs",
}
# Values that are the Chat Completions default: passing them changes nothing.
DEFAULTS = {
    "n": ("1", "None"),
    "stop": ("None",),
    "seed": ("None",),
    "frequency_penalty": ("0", "None"),
    "presence_penalty": ("0", "None"),
    "logit_bias": ("None",),
    "logprobs": ("False", "None"),
    "top_logprobs": ("None",),
    "audio": ("None",),
    "modalities": ("None",),
    "prediction": ("None",),
}

RULE = Rule(
    title="Parameters with no Responses equivalent",
    safety=FixSafety.UNSAFE,
    needs=("completions",),
    examples=[
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m, stop=["END"])\n'
            ),
            finding="Responses has no stop sequences",
        ),
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m, seed=7)\n'
            ),
            after=(
                "import openai\n"
                "# migrator: removed seed=7: Responses has no seed\n"
                'r = openai.responses.create(model="gpt-4o", input=m)\n'
            ),
            options=("unsafe_fixes",),
        ),
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m, n=1)\n'
            ),
            after=(
                "import openai\n"
                'r = openai.responses.create(model="gpt-4o", input=m)\n'
            ),
        ),
    ],
)


@RULE.parameter(*NO_EQUIVALENT)
def no_equivalent(name, value, site):
    if any(is_constant(value, default) for default in DEFAULTS[name]):
        return Rewrite()
    code = one_line(code_of(value))
    reason = NO_EQUIVALENT[name]
    return Block(f"`{name}=` has no equivalent: {reason}", unsafe=Rewrite(note=f"removed {name}={code}: {reason}"))

