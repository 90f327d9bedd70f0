"""Each rule's documentation and examples: the examples are tests, the docs follow one shape."""

from __future__ import annotations

import ast

import pytest

from migrator.engine import transform_source
from migrator.model import Confidence, Options
from migrator.registry import all_rules
from migrator.rules import _stream_failures as stream_failures, refusal, tool_definitions

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


@pytest.mark.parametrize(
    "rule_id, helper",
    [("refusal", refusal.HELPER), ("stream_loops", stream_failures.HELPER), ("tool_definitions", tool_definitions.HELPER)],
)
def test_a_rule_shows_the_helper_it_adds_as_it_adds_it(rule_id, helper):
    """The docs show the helper a rule adds to a module; written there by hand, they must not
    drift from the code that adds it."""
    assert helper in RULES[rule_id].doc


@pytest.mark.parametrize("rule", RULES.values(), ids=list(RULES))
def test_rule_has_examples_and_prefilter_text(rule):
    assert rule.examples, f"{rule.id} has no examples"
    assert rule.needs, f"{rule.id} declares no text for the prefilter"
    for example in rule.examples:
        assert any(text in example.before for text in rule.needs), f"{rule.id}: prefilter would skip its example"


def test_the_v0_rule_is_offered_the_modules_importing_the_classes_it_reports():
    from migrator.rules import sdk_v0_calls

    assert sdk_v0_calls.RULE.needs_imports == tuple(f"openai.{cls}" for cls in sdk_v0_calls.V0_RESOURCES)


@pytest.mark.parametrize(
    "fake, confidence",
    [
        pytest.param("ChatCompletion.model_validate(BODY)", Confidence.HIGH, id="sdk-type"),
        pytest.param("MagicMock(spec=ChatCompletion)", Confidence.HIGH, id="mock-with-chat-spec"),
        pytest.param("MagicMock(choices=[])", Confidence.LOW, id="mock-with-choices"),
        pytest.param("{'choices': [{'message': {'content': 'Hi'}}]}", Confidence.LOW, id="json-body"),
    ],
)
def test_fakes_recognised_by_their_shape_alone_are_low_confidence(fake, confidence):
    """A Chat type is a Chat response; anything else with `choices` may be another thing with choices."""
    source = f"from unittest.mock import MagicMock\nfrom openai.types.chat import ChatCompletion\nFAKE = {fake}\n"
    findings = [f for f in transform_source(source.encode()).findings if f.rule == "mocked_chat_completions"]
    assert [f.confidence for f in findings] == [confidence]


@pytest.mark.parametrize(
    "client, confidences",
    [
        pytest.param("OpenAI()", [Confidence.HIGH], id="openai-client"),
        pytest.param("make_client()", [Confidence.LOW], id="client-not-proved"),
        pytest.param("Groq()", [], id="another-sdks-client"),
    ],
)
def test_a_method_handed_on_is_reported_as_surely_as_its_receiver_is_proved_openais(client, confidences):
    source = f"import asyncio\nfrom groq import Groq\nfrom openai import OpenAI\nclient = {client}\nasyncio.to_thread(client.chat.completions.create)\n"
    findings = [f for f in transform_source(source.encode()).findings if f.rule == "method_references"]
    assert [f.confidence for f in findings] == confidences


def test_test_modules_with_choices_of_other_things_are_not_read_for_fakes():
    """A test module that mocks things and uses model-field or form `choices`, as Django's tests
    do by the hundred, is not worth LibCST's parse: nothing in it names a completion."""
    from migrator.prefilter import is_candidate, needed_texts

    source = (
        b"from unittest import mock\n"
        b"from django.db import models\n\n\n"
        b"class Pizza(models.Model):\n    size = models.CharField(choices=[('s', 'Small')])\n\n\n"
        b"@mock.patch('shop.views.send_mail')\ndef test_order(send_mail):\n    assert Pizza.size.field.choices\n"
    )
    assert not is_candidate(source, needed_texts())


def test_modules_of_an_sdk_importing_httpx_are_not_read_for_mocks():
    """Every module of an HTTP client or an SDK imports httpx and says completion: a transport is
    looked for in test code only, or all of them would go to LibCST."""
    from migrator.prefilter import is_candidate, needed_texts
    from migrator.screen import needs_libcst

    source = b"import httpx\n\n\nclass Completions:\n    def __init__(self, client: httpx.Client) -> None:\n        self.client = client\n"
    needs = needed_texts()
    assert not (is_candidate(source, needs) and needs_libcst(source, needs))


@pytest.mark.parametrize(
    "source, rule",
    [
        pytest.param(
            "from openai import AzureOpenAI as Client\nc = Client(api_version='2023-05-15', azure_endpoint='https://x.openai.azure.com')\n",
            "azure_api_version", id="azure-class-under-another-name",
        ),
        pytest.param(
            "import openai as oa\nc = oa.AzureOpenAI(api_version='2023-05-15', azure_endpoint='https://x.openai.azure.com')\n",
            "azure_api_version", id="azure-class-through-a-module-alias",
        ),
        pytest.param(
            "import httpx as web\nweb.post('https://api.openai.com/v1/chat/completions', json={})\n",
            "hand_written_http", id="http-library-under-another-name",
        ),
        pytest.param(
            "from httpx import MockTransport as Fake\nimport pytest\n"
            "transport = Fake(lambda request: httpx.Response(200, json={'url': '/v1/chat/completions'}))\n",
            "mocked_chat_completions", id="mock-transport-under-another-name",
        ),
    ],
)
def test_names_bound_under_another_name_are_resolved_past_the_text_tests(source, rule):
    """The rules test a call's code before resolving its name: an alias must still get through."""
    assert rule in {finding.rule for finding in transform_source(source.encode()).findings}


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import openai as oa\noa.api_type = "azure"\noa.api_version = "2023-05-15"\n', id="module-alias"),
        pytest.param(
            'import os as system\nfrom openai import AzureOpenAI\nsystem.environ["OPENAI_API_VERSION"] = "2023-05-15"\n'
            'c = AzureOpenAI(azure_endpoint="https://x.openai.azure.com")\n',
            id="environment-through-an-alias",
        ),
    ],
)
def test_azure_settings_written_under_another_name_are_read_past_the_text_tests(source):
    """The version an Azure client is set up with is read where the module sets it: the test
    on the code that spares resolving names must let an alias through."""
    source += 'r = oa.chat.completions.create(model="m", messages=[])\n' if "oa" in source else 'r = c.chat.completions.create(model="m", messages=[])\n'
    messages = [f.message for f in transform_source(source.encode()).findings if f.rule == "azure_api_version"]
    assert messages and all("`2023-05-15`" in message for message in messages)


def test_the_fields_every_chunk_part_has_are_those_of_the_sdks_models():
    from openai.types.chat.chat_completion_chunk import Choice, ChoiceDelta

    from migrator.rules._chunk_loops import STRUCTURE_FIELDS

    assert STRUCTURE_FIELDS == {("choices", 0): set(Choice.model_fields), ("choices", 0, "delta"): set(ChoiceDelta.model_fields)}
