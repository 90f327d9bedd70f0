"""`check` finds at least what a text search finds.

Every line `migrator.screen.CALL_SITE` matches (a Chat Completions or legacy completions call,
in code, a string or a comment) must be migrated (the line is gone from the output) or
reported: by a finding on that line or, for a call left alone for a reason found elsewhere (an
argument on the next line, a read of its result), by a finding that names the call as not
migrated. The one exception is a call on a receiver proved to be another SDK's client, which is
no Chat Completions call. Checked over every fixture and over generated modules and notebooks.
"""

from __future__ import annotations

import itertools
import json
from typing import Iterable, List, Sequence, Set

import libcst as cst
import pytest

from migrator import notebook
from migrator.analysis import ModuleAnalysis
from migrator.engine import transform_notebook, transform_source
from migrator.libcst_internals import NEWLINE
from migrator.model import Options
from migrator.screen import CALL_SITE
from tests.fixture_cases import all_cases

CASES = all_cases()


def unreported(lines: Sequence[str], output_lines: Sequence[str], reported: Set[int], left_alone: Set[int] = frozenset()) -> List[str]:
    """The lines (1-based number and text) the search matches that are neither gone from the
    output, nor reported, nor the line of a call left alone (``left_alone``)."""
    remaining = set(output_lines)
    return [
        f"{number}: {line.strip()}"
        for number, line in enumerate(lines, 1)
        if CALL_SITE.search(line) and number not in reported | left_alone and line in remaining
    ]


def calls_left_alone(source: bytes, findings: Iterable) -> Set[int]:
    """The lines where the method of a call ends, for the calls a finding names as not migrated,
    and for those on another SDK's client."""
    analysis = ModuleAnalysis(cst.parse_module(source))
    messages = [finding.message for finding in findings]
    lines = set()
    for site in analysis.call_sites():
        named = f"`{analysis.module.code_for_node(site.call.func)}` not migrated: "
        if site.other_sdk or any(message.startswith(named) for message in messages):
            lines.add(analysis.nodes.positions[site.call.func].end.line)
    return lines


def assert_module_reported(source: bytes, options: Options = Options()) -> None:
    result = transform_source(source, options)
    lines = NEWLINE.split(source.decode("utf-8"))
    output_lines = NEWLINE.split(result.output.decode("utf-8"))
    missed = unreported(lines, output_lines, {f.line for f in result.findings}, calls_left_alone(source, result.findings))
    assert not missed, f"matched by the search, not reported: {missed}"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_call_site_in_a_fixture_is_migrated_or_reported(case):
    # `# migrator: ignore` hides findings on purpose: read as another comment, it hides none.
    assert_module_reported(case.before.replace(b"migrator: ignore", b"migrator: noted"), case.options)


# Generated modules: each way of writing a legacy method, on receivers that cannot be placed,
# in code and in text, in modules that import openai and modules that do not.
METHODS = (
    "chat.completions.create",
    "beta.chat.completions.parse",
    "chat.completions.stream",
    "chat.completions.with_raw_response.create",
    "beta.chat.completions.with_streaming_response.parse",
    "completions.create",
)
PLACES = {
    "code": "def ask(client):\n    return client.{method}(model='m', messages=[])\n",
    "awaited": "async def ask(self):\n    return await self.client.{method}(\n        model='m',\n    )\n",
    "docstring": 'def ask(client):\n    """Calls:\n\n        client.{method}(model=m)\n    """\n',
    "comment": "# was: client.{method}(model='m', messages=[])\nx = 1\n",
    "string": "EXAMPLE = 'client.{method}(model=m)'\n",
    "f-string": "TEMPLATE = f'{{client}}.{method}(model={{m!r}})'\n",
}
HEADERS = {"openai": "import openai\n\n", "no-openai": "from app.llm import client\n\n"}


@pytest.mark.parametrize(
    "header, place, method",
    list(itertools.product(HEADERS, PLACES, METHODS)),
    ids=[f"{h}-{p}-{m}" for h, p, m in itertools.product(HEADERS, PLACES, METHODS)],
)
def test_every_call_site_in_a_generated_module_is_reported(header, place, method):
    assert_module_reported((HEADERS[header] + PLACES[place].format(method=method)).encode())


@pytest.mark.parametrize("method", METHODS)
def test_every_call_site_in_a_notebook_cell_is_migrated_or_reported(method):
    cells = [
        "from openai import OpenAI\nclient = OpenAI()",
        f"reply = client.{method}(model='m', messages=[{{'role': 'user', 'content': 'Hi'}}])",
        f"def ask(other):\n    '''As other.{method}(...) would.'''\n    return other.{method}(model='m')",
        f"# helper.{method}(model='m')\n%time x = 1",
    ]
    document = {
        "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": cell} for cell in cells],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    data = json.dumps(document, indent=1).encode()
    result = transform_notebook(data)
    outputs = [cell.source for cell in notebook.parse(result.output).cells]
    for number, (cell, output) in enumerate(zip(cells, outputs), 1):
        reported = {f.line for f in result.findings if f.cell == number}
        missed = unreported(cell.split("\n"), output.split("\n"), reported)
        assert not missed, f"cell {number}: matched by the search, not reported: {missed}"
