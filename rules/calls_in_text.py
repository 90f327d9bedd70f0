"""
## What it does
Reports a Chat Completions call written in a docstring, a string or a comment:
`client.chat.completions.create(`, `client.beta.chat.completions.parse(`,
`client.completions.create(` and their `with_raw_response` / `with_streaming_response` forms,
wherever a text search for them finds one outside the code, and in a notebook, in a cell the
tool does not read as Python (`%%writefile app.py`, `%%script python`).

## Why
A migration is done when a search of the tree finds no Chat Completions call. The ones in
text are examples and documentation that will mislead once the code has moved, or code
generated or run as text, which the tool cannot rewrite: it reports them, at low confidence,
so that `check` finds at least what such a search finds.

## Example
```python
def ask(client, question):
    \"\"\"Ask once, as `client.chat.completions.create(model=..., messages=...)` would.\"\"\"
```

## Use instead
Rewrite the text by hand (`client.responses.create(model=..., input=...)`), or keep it with
`# migrator: ignore[calls_in_text]` at the end of the line; for a string over several lines,
at the end of its last line, after the closing quotes.

## Fix safety
Manual: the tool only reports.
"""

from migrator.model import FixSafety
from migrator.rule import Example, Rule

RULE = Rule(
    title="Chat Completions calls in strings and comments",
    safety=FixSafety.MANUAL,
    needs=("completions",),
    examples=[
        Example(
            before=(
                "def ask(client, question):\n"
                '    """Ask once, as `client.chat.completions.create(model=..., messages=...)` would."""\n'
            ),
            finding="in a docstring",
        ),
        Example(
            before=(
                "# Before: resp = client.completions.create(model=m, prompt=p)\n"
                "resp = client.responses.create(model=m, input=p)\n"
            ),
            finding="in a comment",
        ),
    ],
)
