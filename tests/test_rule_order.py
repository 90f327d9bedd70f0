"""Rules cannot fight: no two of them own the same parameter or kind of call."""

from __future__ import annotations

import importlib
import sys
from textwrap import dedent

import pytest

from migrator import registry
from migrator.registry import all_rules, load_rules
from migrator.rule import RuleConflict

TRIAL_PACKAGE = "trial_rules"


@pytest.fixture
def rules_package(tmp_path, monkeypatch):
    """Writes rule modules (name: hook lines) into a package of their own and imports it."""

    def make(**hooks: str):
        folder = tmp_path / TRIAL_PACKAGE
        folder.mkdir()
        (folder / "__init__.py").write_text("")
        for name, hook in hooks.items():
            (folder / f"{name}.py").write_text(_rule_module(hook))
        monkeypatch.syspath_prepend(str(tmp_path))
        return importlib.import_module(TRIAL_PACKAGE)

    yield make
    for name in [name for name in sys.modules if name.split(".")[0] == TRIAL_PACKAGE]:
        del sys.modules[name]


def _rule_module(hook: str) -> str:
    return dedent(
        """\
        from migrator.model import FixSafety
        from migrator.rule import Rule

        RULE = Rule(title="trial", safety=FixSafety.SAFE, needs=("create",))

        {hook}
        def hook(*args):
            return None  # never asked: these rules are only loaded
        """
    ).format(hook=hook)


def test_two_rules_owning_one_parameter_do_not_load(rules_package):
    package = rules_package(
        first='@RULE.parameter("max_tokens")',
        second='@RULE.parameter("temperature", "max_tokens")',
    )
    with pytest.raises(RuleConflict, match="rules `first` and `second` both have a hook for the parameter `max_tokens`"):
        load_rules(package)


def test_two_rules_migrating_one_kind_of_call_do_not_load(rules_package):
    package = rules_package(
        first='@RULE.call("chat.completions.create")',
        second='@RULE.call("chat.completions.create")',
    )
    with pytest.raises(RuleConflict, match="rules `first` and `second` both have a hook for `chat.completions.create` calls"):
        load_rules(package)


def test_one_rule_owning_a_parameter_twice_does_not_load(rules_package):
    package = rules_package(only='@RULE.parameter("max_tokens")\n@RULE.parameter("max_tokens")')
    with pytest.raises(RuleConflict, match="`trial_rules.only` has two hooks for the parameter `max_tokens`"):
        load_rules(package)


def test_rules_owning_different_parameters_load(rules_package):
    package = rules_package(first='@RULE.parameter("max_tokens")', second='@RULE.parameter("temperature")')
    assert list(load_rules(package)) == ["first", "second"]


def test_the_rules_load():
    assert load_rules(registry._rules_package()) == all_rules()

