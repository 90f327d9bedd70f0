"""`# migrator: ignore` comments: what they hide, and that a suppressed call is never rewritten."""

from __future__ import annotations

import pytest

from migrator.engine import transform_source
from migrator.suppression import Directive, directive_of

CLIENT = "from openai import OpenAI\nclient = OpenAI()\n"
HI = '[{"role": "user", "content": "Hi"}]'


def findings(source: str):
    return [(f.line, f.rule) for f in transform_source(source.encode()).findings]


@pytest.mark.parametrize(
    "comment, directive",
    [
        pytest.param("# migrator: ignore", Directive(None), id="bare"),
        pytest.param("#migrator:ignore", Directive(None), id="without-spaces"),
        pytest.param("# migrator: ignore[a, b]", Directive(frozenset({"a", "b"})), id="rule-ids"),
        pytest.param("# noqa: E501  # migrator: ignore[a]", Directive(frozenset({"a"})), id="after-another-directive"),
        pytest.param("# migrator: ignore[a]  # migrator: ignore[b]", Directive(frozenset({"a", "b"})), id="two-add-up"),
        pytest.param("# migrator: ignore[]", Directive(frozenset()), id="empty-list-hides-nothing"),
        pytest.param("# migrator: ignored", None, id="another-word"),
        pytest.param("# migrator: ignore-me", None, id="hyphenated-word"),
        pytest.param("# see the migrator docs", None, id="no-directive"),
    ],
)
def test_directive_of_a_comment(comment, directive):
    assert directive_of(comment) == directive


def test_bare_ignore_hides_every_finding_on_its_line_only():
    source = (
        "import openai\n"
        "r = make().chat.completions.create(model='m', messages=m)  # migrator: ignore\n"
        "s = make().chat.completions.create(model='m', messages=m)\n"
    )
    assert findings(source) == [(3, "unresolved_client")]


def test_ignore_with_ids_hides_only_the_rules_named():
    source = (
        "import openai\n"
        "def f(c): openai.ChatCompletion.create(); return c.choices[0]  # migrator: ignore[sdk_v0_calls]\n"
        "def g(c): openai.ChatCompletion.create(); return c.choices[0]  # migrator: ignore[untraced_choices, other]\n"
    )
    assert findings(source) == [(2, "untraced_choices"), (3, "sdk_v0_calls")]


def test_a_directive_inside_a_string_suppresses_nothing():
    source = 'import openai\nr = make().chat.completions.create(model="# migrator: ignore", messages=m)\n'
    assert findings(source) == [(2, "unresolved_client")]


def test_a_suppressed_fixable_call_is_not_rewritten():
    source = f"{CLIENT}r = client.chat.completions.create(model='m', messages={HI})  # migrator: ignore\nprint(r.choices[0].message.content)\n"
    result = transform_source(source.encode())
    assert result.output.decode() == source
    assert result.findings == []


def test_an_ignore_on_a_read_of_the_result_keeps_the_whole_call():
    source = (
        f"{CLIENT}r = client.chat.completions.create(model='m', messages={HI})\n"
        "print(r.choices[0].message.content)  # migrator: ignore[response_fields]\n"
    )
    result = transform_source(source.encode())
    assert result.output.decode() == source
    assert result.findings == []  # the reason it stays is on the suppressed line


def test_an_ignore_naming_another_rule_lets_the_call_migrate():
    source = f"{CLIENT}r = client.chat.completions.create(model='m', messages={HI})  # migrator: ignore[untraced_result]\nprint(r.choices[0].message.content)\n"
    result = transform_source(source.encode())
    assert "client.responses.create(model='m', input=\"Hi\")  # migrator: ignore[untraced_result]" in result.output.decode()
    assert [f.rule for f in result.findings] == ["chat_completions_create"]


def test_a_suppressed_argument_of_a_multi_line_call_keeps_it_and_hides_its_reason():
    source = (
        f"{CLIENT}r = client.chat.completions.create(\n"
        "    model='m',\n"
        f"    messages={HI},\n"
        "    max_tokens=5,  # migrator: ignore[request_parameters]\n"
        ")\n"
        "print(r.choices[0].message.content)\n"
    )
    result = transform_source(source.encode())
    assert result.output.decode() == source
    assert result.findings == []


def test_a_call_sharing_a_rewrite_with_a_suppressed_call_stays_and_says_why():
    def ask(name: str, comment: str = "") -> str:
        return (
            f"{name} = client.chat.completions.create(  {comment}\n"
            f"    model='m', messages={HI}, tools=TOOLS, tool_choice='none'\n"
            ")\n"
            f"print({name}.choices[0].message.content)\n"
        )

    tools = "TOOLS: list = [{'type': 'function', 'function': {'name': 'f', 'parameters': {'type': 'object', 'properties': {}}}}]\n"
    source = CLIENT + tools + ask("a", "# migrator: ignore") + ask("b")
    result = transform_source(source.encode())
    assert result.output.decode() == source
    assert [(f.line, f.rule) for f in result.findings] == [(3, "chat_completions_create")]
    assert "shares `[{'type': 'function'" in result.findings[0].message
    migrated_alone = transform_source((CLIENT + tools + ask("b")).encode())
    assert migrated_alone.changed, "without the suppressed call, the other one migrates"
