"""Where a value is only shown to a person: printed, logged, or put in an f-string.

What such a line shows changes when the value's type does, and nothing but a person reads it;
rules that let it change do so only as an unsafe fix, with a note.
"""

from typing import Optional

import libcst as cst

from migrator.analysis import CallSite

LOGGING_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
# Calls that print what they are given, and calls whose value is their first argument made
# text or read back from it (``print(json.dumps(resp.model_dump(), indent=2))``).
PRINTERS = frozenset({"pprint.pprint", "pprint.pp", "rich.print", "rich.pretty.pprint"})
TEXT_OF = frozenset({"json.dumps", "json.loads", "pprint.pformat"})


def is_shown(node: cst.CSTNode, site: CallSite) -> bool:
    """Is ``node`` an argument of ``print``, ``pprint`` or a ``logging`` call, or a field of an
    f-string, as it is or as ``str(...)``, ``repr(...)`` or ``json`` makes it text (or reads it
    back)?"""
    parents = site.analysis.nodes.parents
    parent = parents.get(node)
    if isinstance(parent, cst.FormattedStringExpression):
        return True
    call = parents.get(parent) if isinstance(parent, cst.Arg) and not parent.star else None
    if not isinstance(call, cst.Call):
        return False
    flow = site.analysis.flow
    if len(call.args) == 1 and (flow.calls_builtin(call, "str") or flow.calls_builtin(call, "repr")):
        return is_shown(call, site)
    called = site.analysis.imports.qualified(call.func, imported_only=True)
    if called & TEXT_OF and call.args[0] is parent and parent.keyword is None:
        return is_shown(call, site)
    return flow.calls_builtin(call, "print") or bool(called & PRINTERS) or _is_logging(call.func, site)


def _is_logging(func: cst.BaseExpression, site: CallSite) -> bool:
    """``logging.info(...)``, or ``logger.info(...)`` on what ``logging.getLogger(...)`` returns."""
    if not (isinstance(func, cst.Attribute) and func.attr.value in LOGGING_METHODS):
        return False
    analysis = site.analysis
    if "logging" in analysis.imports.imported_as(func.value):
        return True
    values = analysis.bindings.bound_values(func.value)
    return bool(values) and all(_is_get_logger(value, site) for value in values)


def _is_get_logger(value: Optional[cst.CSTNode], site: CallSite) -> bool:
    return isinstance(value, cst.Call) and "logging.getLogger" in site.analysis.imports.qualified(value.func, imported_only=True)
