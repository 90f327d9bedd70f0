"""Each rule's documentation and examples: the examples are tests, the docs follow one shape."""

from __future__ import annotations

import ast

import pytest

from migrator.engine import transform_source
from migrator.model import Options
from migrator.registry import all_rules

RULES = all_rules()
EXAMPLES = [
    pytest.param(rule, example, id=f"{rule.id}-{index}")
    for rule in RULES.values()
    for index, example in enumerate(rule.examples, 1)
]
HEADINGS = ["## What it does", "## Why", "## Example", "## Use instead", "## Fix safety"]


@pytest.mark.parametrize("rule, example", EXAMPLES)
def test_rule_example(rule, example):
    options = Options(**{name: True for name in example.options})
    result = transform_source(example.before.encode(), options)
    if example.after is None:
        assert result.output.decode() == example.before, "the example must be left as it is"
    else:
        assert result.output.decode() == example.after
        ast.parse(result.output)
        assert transform_source(result.output, options).output == result.output
    if example.finding is not None:
        messages = [f"{f.rule}: {f.message}" for f in result.findings]
        assert any(f.rule == rule.id and example.finding in f.message for f in result.findings), messages


@pytest.mark.parametrize("rule", RULES.values(), ids=list(RULES))
def test_rule_documentation_has_every_heading_in_order(rule):
    positions = [rule.doc.find(heading) for heading in HEADINGS]
    assert -1 not in positions, f"{rule.id}: missing {HEADINGS[positions.index(-1)]}"
    assert positions == sorted(positions)


@pytest.mark.parametrize("rule", RULES.values(), ids=list(RULES))
def test_rule_has_examples_and_prefilter_text(rule):
    assert rule.examples, f"{rule.id} has no examples"
    assert rule.needs, f"{rule.id} declares no text for the prefilter"
    for example in rule.examples:
        assert any(text in example.before for text in rule.needs), f"{rule.id}: prefilter would skip its example"


def test_the_v0_rule_is_offered_the_modules_importing_the_classes_it_reports():
    from migrator.rules import sdk_v0_calls

    assert sdk_v0_calls.RULE.needs_imports == tuple(f"openai.{cls}" for cls in sdk_v0_calls.V0_RESOURCES)
