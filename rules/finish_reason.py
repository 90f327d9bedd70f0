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

`!=` is rewritten to the negation. `finish_reason in (...)` (a tuple, list or set of those
strings; `not in` negated) becomes the tests of its reasons joined with `or`, where every
reason a completed answer of the call can give (`"stop"`, with `"tool_calls"` for a call with
tools) is the one test `status == "completed"`.

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

from typing import List, Optional, Union

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
# The reason a tool call gives, and the argument that lets the model make one.
TOOL_CALLS_WITH = {"tool_calls": "tools", "function_call": "functions"}
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
    negated = isinstance(target.operator, (cst.NotEqual, cst.NotIn))
    if isinstance(target.operator, (cst.In, cst.NotIn)):
        reasons = _literal_strings(target.comparator)
    else:
        reasons = [literal_string(target.comparator)] if isinstance(target.operator, (cst.Equal, cst.NotEqual)) else None
    if not reasons or not set(reasons) <= set(EQUIVALENTS):
        return Block("`finish_reason` is compared in a way that has no exact Responses equivalent")
    tests = _tests_of(reasons, site)
    if isinstance(tests, Block):
        return tests
    template = tests[0] if len(tests) == 1 else " or ".join(f"({test})" for test in tests)
    if negated:
        template = f"not ({template})"
    template = f"({template})" if needs_parentheses(use.grandparent) else template
    return replaced(use, len(FINISH_REASON), template, site.analysis, target=comparison)


def _tests_of(reasons: List[str], site) -> Union[List[str], Block]:
    """The Responses tests that hold where ``finish_reason`` is one of ``reasons``. Every reason
    a completed answer of this call can give (`"stop"`, and the tool-call reasons where it can
    call tools) is one test: `status == "completed"`, whatever forcing a call makes Chat say."""
    completed = {"stop"} | {reason for reason, tools in TOOL_CALLS_WITH.items() if site.has_argument(tools)}
    rest = list(dict.fromkeys(reasons))
    tests = []
    if completed <= set(rest):
        tests.append(EQUIVALENTS["stop"])
        rest = [reason for reason in rest if reason not in completed and reason not in TOOL_CALL_REASONS]
    for reason in rest:
        if reason == "stop" and any(site.has_argument(name) for name in TOOL_PARAMETERS):
            return Block('with tools, `finish_reason == "stop"` has no exact Responses equivalent')
        if reason in TOOL_CALL_REASONS and _may_force_a_call(site, TOOL_CALL_REASONS[reason]):
            return Block(f'`{TOOL_CALL_REASONS[reason]}=` may force a call, and then Chat Completions answers `finish_reason == "stop"`')
        tests.append(EQUIVALENTS[reason])
    return tests


def _literal_strings(node: cst.BaseExpression) -> Optional[List[str]]:
    """The strings of a tuple, list or set literal of string literals; None for anything else."""
    if not isinstance(node, (cst.Tuple, cst.List, cst.Set)) or any(not isinstance(e, cst.Element) for e in node.elements):
        return None
    strings = [literal_string(element.value) for element in node.elements]
    return None if None in strings else strings  # type: ignore[return-value]


def _may_force_a_call(site, parameter: str) -> bool:
    argument = site.argument(parameter)
    return argument is not None and literal_string(argument.value) not in UNFORCED_CHOICES
