"""Rules cannot fight: no two of them own the same parameter or kind of call, and what the tool
makes of a module does not depend on the order the rules are loaded in."""

from __future__ import annotations

import importlib
import random
import sys
from textwrap import dedent

import pytest

from migrator import registry
from migrator.engine import transform_source
from migrator.model import Options
from migrator.registry import all_rules, load_rules
from migrator.rule import RuleConflict
from tests.fixture_cases import all_cases

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


@pytest.mark.parametrize(
    "first, second, message",
    [
        pytest.param(
            '@RULE.parameter("max_tokens")',
            '@RULE.parameter("temperature", "max_tokens")',
            "rules `first` and `second` both have a hook for the parameter `max_tokens`",
            id="one_parameter",
        ),
        pytest.param(
            '@RULE.call("chat.completions.create")',
            '@RULE.call("chat.completions.create")',
            "rules `first` and `second` both have a hook for `chat.completions.create` calls",
            id="one_kind_of_call",
        ),
    ],
)
def test_two_rules_claiming_one_hook_do_not_load(rules_package, first, second, message):
    with pytest.raises(RuleConflict, match=message):
        load_rules(rules_package(first=first, second=second))


def test_one_rule_owning_a_parameter_twice_does_not_load(rules_package):
    package = rules_package(only='@RULE.parameter("max_tokens")\n@RULE.parameter("max_tokens")')
    with pytest.raises(RuleConflict, match="`trial_rules.only` has two hooks for the parameter `max_tokens`"):
        load_rules(package)


def test_rules_owning_different_parameters_load(rules_package):
    package = rules_package(first='@RULE.parameter("max_tokens")', second='@RULE.parameter("temperature")')
    assert list(load_rules(package)) == ["first", "second"]


def test_the_rules_load():
    assert load_rules(registry._rules_package()) == all_rules()


SAMPLES = [
    *(pytest.param(case.before, case.options, id=case.id) for case in all_cases()),
    *(
        pytest.param(example.before.encode(), Options(**{name: True for name in example.options}), id=f"{rule.id}-{index}")
        for rule in all_rules().values()
        for index, example in enumerate(rule.examples, 1)
    ),
]


@pytest.mark.parametrize("source, options", SAMPLES)
def test_output_and_findings_do_not_depend_on_rule_order(source, options, request, monkeypatch):
    rule_ids = list(all_rules())
    # One other order per sample, to keep the suite fast: reversed (every two rules the other
    # way round) for half of them, for the others a shuffle seeded by the sample's id (mixed
    # differently for each sample, in the same way on every run).
    seed = random.Random(request.node.callspec.id)
    if seed.random() < 0.5:
        orders = {"reversed": rule_ids[::-1]}
    else:
        orders = {"shuffled": seed.sample(rule_ids, len(rule_ids))}
    canonical = _outcome(source, options)  # in this process, through no cache: `transform_source` reads none
    # The registry, and every module that imported `all_rules` from it by name.
    readers = [
        module
        for module_name, module in list(sys.modules.items())
        if module_name.split(".")[0] == "migrator" and getattr(module, "all_rules", None) is all_rules
    ]
    for name, order in orders.items():
        for module in readers:
            monkeypatch.setattr(module, "all_rules", _loaded_in(order))
        assert _outcome(source, options) == canonical, f"rules loaded in {name} order: {order}"


def _loaded_in(order):
    """`all_rules` as if the rules had been loaded in ``order``."""
    rules = all_rules()
    in_order = {rule_id: rules[rule_id] for rule_id in order}
    return lambda: in_order


def _outcome(source: bytes, options: Options):
    result = transform_source(source, options)
    return result.output.decode(), result.findings
