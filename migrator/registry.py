"""Finds the rules: every module in ``rules/`` that defines ``RULE``. Adding a rule touches no list.

In a checkout the rules sit in the top-level ``rules/`` folder; an installed wheel carries the
same files as ``migrator/rules``. Either way they are imported as ``migrator.rules.<id>``.
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

TYPE_CHECKING = False  # see migrator/quick.py: a check without candidates does not import typing
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Dict

    from migrator.rule import Rule

PACKAGE = "migrator.rules"


def rules_folder() -> Path:
    """Where the rule modules are: inside the installed package, or beside it in a checkout.

    Found by path, not with importlib: the prefilter reads it on every start-up.
    """
    package = Path(__file__).resolve().parent
    for folder in (package / "rules", package.parent / "rules"):
        if folder.is_dir():
            return folder
    raise RuntimeError(f"the rules folder is missing (looked in {package / 'rules'} and {package.parent / 'rules'})")


def _rules_package():
    import importlib.machinery
    import importlib.util

    if importlib.util.find_spec(PACKAGE) is not None:
        return importlib.import_module(PACKAGE)
    # A checkout: migrator/ and rules/ are siblings; make rules/ importable as migrator.rules.
    spec = importlib.machinery.ModuleSpec(PACKAGE, None, is_package=True)
    spec.submodule_search_locations = [str(rules_folder())]
    package = importlib.util.module_from_spec(spec)
    sys.modules[PACKAGE] = package
    return package


@lru_cache(maxsize=None)
def all_rules() -> Dict[str, Rule]:
    """Every rule by id, in id order."""
    return load_rules(_rules_package())


def load_rules(package: ModuleType) -> Dict[str, Rule]:
    """Every rule the modules of ``package`` define, by id, in id order.

    Raises RuleConflict when two hooks claim one parameter or one kind of call.
    """
    import importlib
    import pkgutil

    from migrator.rule import Rule  # here, not above: the prefilter reads `rules_folder` at start-up

    rules: Dict[str, Rule] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        rule = getattr(module, "RULE", None)
        if not isinstance(rule, Rule):
            continue
        rule.id = info.name
        rule.doc = (module.__doc__ or "").strip()
        rules[rule.id] = rule
    _refuse_shared_hooks(rules)
    return rules


def _refuse_shared_hooks(rules: Dict[str, Rule]) -> None:
    """Raise RuleConflict if two rules have a hook for one parameter or one kind of call: the
    planner asks one rule for each, and which one would depend on the order they load in."""
    parameter_owners: Dict[str, str] = {}
    call_owners: Dict[str, str] = {}
    for rule in rules.values():
        for name in rule.parameters:
            _claim(parameter_owners, name, rule.id, f"the parameter `{name}`")
        for kind in rule.calls:
            _claim(call_owners, kind, rule.id, f"`{kind}` calls")


def _claim(owners: Dict[str, str], key: str, rule_id: str, what: str) -> None:
    from migrator.rule import RuleConflict

    if key in owners:
        raise RuleConflict(f"rules `{owners[key]}` and `{rule_id}` both have a hook for {what}")
    owners[key] = rule_id
