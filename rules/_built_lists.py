"""Lists a module builds where they are used: a call of one of its functions that returns a list
literal (``def get_tools(): return [...]``), and a copy of a list literal held in a name
(``list(DEFAULT_MESSAGES)``, ``DEFAULT_MESSAGES.copy()``, ``DEFAULT_MESSAGES[:]``).

Such a list is a new list at every evaluation, so what is added to it later changes nothing
where it came from; but its entries are written in one place that other code may read too
(another caller of the function, another copy of the constant), which a rule rewriting them
must check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

import libcst as cst

from migrator.analysis import ModuleAnalysis

@dataclass(frozen=True)
class BuiltList:
    """The list literals a value is built from, and what else reads where they are written."""

    literals: Tuple[cst.List, ...]
    source: str  # the function or name holding the literals, for messages
    # Every read of that function or name: for a function, the calls of it; for a name, its reads.
    reads: Tuple[cst.CSTNode, ...]


def built_list(value: cst.BaseExpression, analysis: ModuleAnalysis) -> Optional[BuiltList]:
    """What ``value`` builds, when it is a call of a function of the module that returns only
    list literals, or a copy of a list literal a name holds; None otherwise."""
    returned = returned_list(value, analysis) if isinstance(value, cst.Call) else None
    if returned is not None:
        return returned
    copied = copied_name(value, analysis)
    return held_list(copied, analysis) if copied is not None else None


def held_list(name: cst.Name, analysis: ModuleAnalysis) -> Optional[BuiltList]:
    """The list literal ``name`` holds wherever it is read (``DEFAULT_MESSAGES = [...]``)."""
    definition = analysis.bindings.definition(name)
    if definition is None or not isinstance(definition.value, cst.List):
        return None
    return BuiltList((definition.value,), name.value, tuple(definition.reads))


def returned_list(call: cst.Call, analysis: ModuleAnalysis) -> Optional[BuiltList]:
    """The list literals the function ``call`` calls returns, when it returns nothing else, and
    is a plain function of the module used only by calling it."""
    function = analysis.flow.function_called(call) if isinstance(call.func, cst.Name) else None
    if function is None or function.decorators or analysis.nodes.is_generator(function):
        return None  # a decorator may change what it returns
    calls = analysis.flow.callers(function)  # None: the function is passed around, and may be called anywhere
    if calls is None:
        return None
    literals = []
    for node in analysis.nodes.returns_of(function):
        if not isinstance(node.value, cst.List):
            return None
        literals.append(node.value)
    if not literals:
        return None
    return BuiltList(tuple(literals), function.name.value, tuple(calls))


def copied_name(value: cst.BaseExpression, analysis: ModuleAnalysis) -> Optional[cst.Name]:
    """The name ``value`` makes a shallow copy of: ``list(NAME)``, ``NAME.copy()``, ``NAME[:]``."""
    if isinstance(value, cst.Call) and len(value.args) == 1 and value.args[0].keyword is None and not value.args[0].star:
        if analysis.flow.calls_builtin(value, "list") and isinstance(value.args[0].value, cst.Name):
            return value.args[0].value
    if isinstance(value, cst.Call) and not value.args and isinstance(value.func, cst.Attribute):
        if value.func.attr.value == "copy" and isinstance(value.func.value, cst.Name):
            return value.func.value
    if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and len(value.slice) == 1:
        whole = value.slice[0].slice
        if isinstance(whole, cst.Slice) and whole.lower is None and whole.upper is None and whole.step is None:
            return value.value
    return None
