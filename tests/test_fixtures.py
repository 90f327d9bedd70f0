"""Every fixture pair: exact output, exact findings, idempotence, and output that parses."""

from __future__ import annotations

import ast

import pytest

from migrator.engine import transform_source
from migrator.registry import all_rules
from tests.fixture_cases import all_cases, finding_line

CASES = all_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fixture_output_is_exact(case):
    result = transform_source(case.before, case.options)
    expected = case.after if case.after is not None else case.before
    assert result.output.decode() == expected.decode()
    assert result.output == expected  # byte for byte: line endings, encoding


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fixture_findings(case):
    if case.expected_findings is None:
        pytest.skip("no findings.txt")
    result = transform_source(case.before, case.options)
    assert [finding_line(f) for f in result.findings] == case.expected_findings


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fixture_is_idempotent(case):
    once = transform_source(case.before, case.options).output
    ast.parse(once)
    assert transform_source(once, case.options).output == once


def test_every_fixture_folder_names_a_rule():
    rules = all_rules()
    assert {case.rule for case in CASES} <= set(rules)
