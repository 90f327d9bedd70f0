"""
## What it does
Rewrites comparisons of `choices[0].finish_reason` with a string into the equivalent test on
the response's `status` and `incomplete_details`:

| Chat Completions | Responses |
|---|---|
| `finish_reason == "stop"` | `status == "completed"` |
| `finish_reason == "length"` | `incomplete_details is not None and incomplete_details.reason == "max_output_tokens"` |
| `finish_reason == "content_filter"` | `incomplete_details is not None and incomplete_details.reason == "content_filter"` |
| `finish_reason == "tool_calls"` (or legacy `"function_call"`) | `status == "completed" and any(item.type == "function_call" for item in output)` |

`!=` is rewritten to the negation.

## Why
A `Response` has no `choices`; whether the answer was cut short is its `status`
(`"incomplete"`) and `incomplete_details.reason`.

## Example
```python
if resp.choices[0].finish_reason == "length":
    print("truncated")
```

## Use instead
```python
if resp.incomplete_details is not None and resp.incomplete_details.reason == "max_output_tokens":
    print("truncated")
```

## Fix safety
Safe for the comparisons above on calls without tools. `"stop"` is only equivalent to
`status == "completed"` when the model cannot call tools (a tool call also completes), so
with `tools` or `functions` it blocks the call. When `tool_choice` (or `function_call`) forces
a call, Chat Completions answers `"stop"` rather than `"tool_calls"`, so the tool-call comparison
blocks the call then. Any other use of `finish_reason` (stored, printed) is reported.
"""

import libcst as cst

from migrator.model import FixSafety
from migrator.rule import Block, Example, Rule
from migrator.rules._function_calling import FINISH_REASON, HAS_FUNCTION_CALL, replaced
from migrator.shapes import literal_string, needs_parentheses

INCOMPLETE = '{base}.incomplete_details is not None and {base}.incomplete_details.reason == "%s"'
EQUIVALENTS = {
    "stop": '{base}.status == "completed"',
    "length": INCOMPLETE % "max_output_tokens",
    "content_filter": INCOMPLETE % "content_filter",
    "tool_calls": '{base}.status == "completed" and ' + HAS_FUNCTION_CALL,
    "function_call": '{base}.status == "completed" and ' + HAS_FUNCTION_CALL,
}
TOOL_PARAMETERS = ("tools", "functions")
# The reason a tool call gives, and the argument that may force one (then Chat says "stop").
TOOL_CALL_REASONS = {"tool_calls": "tool_choice", "function_call": "function_call"}
UNFORCED_CHOICES = frozenset({"auto", "none"})

RULE = Rule(
    title="`finish_reason` checks",
    safety=FixSafety.SAFE,
    needs=("completions",),
    examples=[
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m, max_tokens=50)\n'
                'if r.choices[0].finish_reason == "length":\n'
                '    print("cut")\n'
            ),
            after=(
                "import openai\n"
                'r = openai.responses.create(model="gpt-4o", input=m, max_output_tokens=50)\n'
                'if r.incomplete_details is not None and r.incomplete_details.reason == "max_output_tokens":\n'
                '    print("cut")\n'
            ),
        ),
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m)\n'
                "print(r.choices[0].finish_reason)\n"
            ),
            finding="finish_reason",
        ),
    ],
)


@RULE.result_use
def finish_reason(use, site):
    if use.path != FINISH_REASON:
        return None
    comparison = use.parent
    if not (isinstance(comparison, cst.Comparison) and comparison.left is use.outer and len(comparison.comparisons) == 1):
        return Block("`finish_reason` is used other than in a comparison with a string")
    target = comparison.comparisons[0]
    reason = literal_string(target.comparator)
    negated = isinstance(target.operator, cst.NotEqual)
    if reason not in EQUIVALENTS or not (negated or isinstance(target.operator, cst.Equal)):
        return Block("`finish_reason` is compared in a way that has no exact Responses equivalent")
    if reason == "stop" and any(site.has_argument(name) for name in TOOL_PARAMETERS):
        return Block('with tools, `finish_reason == "stop"` has no exact Responses equivalent')
    if reason in TOOL_CALL_REASONS and _may_force_a_call(site, TOOL_CALL_REASONS[reason]):
        return Block(f'`{TOOL_CALL_REASONS[reason]}=` may force a call, and then Chat Completions answers `finish_reason == "stop"`')
    template = EQUIVALENTS[reason]
    if negated:
        template = f"not ({template})"
    template = f"({template})" if needs_parentheses(use.grandparent) else template
    return replaced(use, len(FINISH_REASON), template, site.analysis, target=comparison)


def _may_force_a_call(site, parameter: str) -> bool:
    argument = site.argument(parameter)
    return argument is not None and literal_string(argument.value) not in UNFORCED_CHOICES
