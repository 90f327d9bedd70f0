"""Dicts built key by key: what a dict a name holds can contain where it is read.

    params = {"model": m}              # or dict(model=m)
    params["temperature"] = t          # under an ``if`` or not
    params.update({"top_p": p})        # or params.update(top_p=p)
    send(**params)

Every key such a dict can hold at the read is known when one binding of the name reaches the
read, that binding is a dict literal or a ``dict(k=v)`` call with string keys, and every other
read of it writes string keys: ``params["k"] = v``, ``params.update({...})``,
``params.update(k=v)``. Any other read (``pop``, ``setdefault``, passing the dict on, returning
it) may remove keys or let code the tool cannot see add some, or read what it holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple, Union

import libcst as cst
from libcst.metadata import Assignment

from migrator.semantic.flow import ValueFlow
from migrator.shapes import code_of, dict_entries, literal_string, one_line


@dataclass(frozen=True)
class KeyWrite:
    """One place that writes ``key``: an entry of a dict literal, a keyword argument of
    ``dict(...)`` or ``update(...)``, or ``name["key"] = value``."""

    key: str
    value: cst.BaseExpression
    entry: Union[cst.DictElement, cst.Arg, cst.Assign]
    container: Union[cst.Dict, cst.Call, cst.Assign]  # what holds the entry: rewritten as a whole
    runs_first: bool  # the write runs each time the read runs, before it


@dataclass(frozen=True)
class BuiltDict:
    """Every write of a dict read through a name, in source order."""

    name: str
    writes: Tuple[KeyWrite, ...]

    def writes_of(self, key: str) -> List[KeyWrite]:
        return [write for write in self.writes if write.key == key]


@dataclass(frozen=True)
class UnseenDict:
    """Why the keys of the dict cannot all be known."""

    reason: str


def built_dict(read: cst.Name, flow: ValueFlow) -> Union[BuiltDict, UnseenDict]:
    """The writes of the dict ``read`` holds, when every key it can hold there is known."""
    bindings, nodes = flow.bindings, flow.nodes
    name = read.value
    reaching = [b for b in bindings.reaching(read) if not (isinstance(b, Assignment) and bindings.is_declaration(b))]
    if len(reaching) != 1:
        lines = sorted({nodes.positions[b.node].start.line for b in reaching if getattr(b, "node", None) is not None})
        where = f"on lines {', '.join(map(str, lines))}" if len(lines) > 1 else "elsewhere"
        return UnseenDict(f"`{name}` may hold dicts assigned {where}")
    binding = reaching[0]
    value = _assigned_value(binding, flow)
    if value is None:
        kind = "a parameter" if isinstance(getattr(binding, "node", None), cst.Param) else "not assigned a dict in this scope"
        return UnseenDict(f"`{name}` is {kind}: its keys are chosen elsewhere")
    if bindings.scopes.get(value) is not bindings.scopes.get(read):
        return UnseenDict(f"`{name}` is built in another scope, where other code may change it")
    writes = _initial_writes(value, name, flow)
    if isinstance(writes, UnseenDict):
        return writes
    for other in bindings.reads_of(binding):
        if other is read:
            continue
        if bindings.reaching(other) != [binding]:
            return UnseenDict(f"{_use(other, flow)} may change another dict that `{name}` holds there")
        written = _writes_at(other, read, flow)
        if isinstance(written, UnseenDict):
            return written
        writes.extend(written)
    return BuiltDict(name, tuple(writes))


def _assigned_value(binding, flow: ValueFlow) -> Optional[cst.BaseExpression]:
    """The value of ``NAME = value`` or ``NAME: T = value``, for the binding ``NAME`` there."""
    node = getattr(binding, "node", None)
    parent = flow.nodes.parents.get(node) if isinstance(node, cst.Name) else None
    if isinstance(parent, cst.AssignTarget):
        statement = flow.nodes.parents[parent]
        return statement.value if len(statement.targets) == 1 else None
    if isinstance(parent, cst.AnnAssign) and parent.target is node:
        return parent.value
    return None


def _initial_writes(value: cst.BaseExpression, name: str, flow: ValueFlow) -> Union[List[KeyWrite], UnseenDict]:
    """The entries the dict is made with: a dict literal, or ``dict(k=v, ...)``."""
    if isinstance(value, cst.Call) and flow.calls_builtin(value, "dict"):
        return _keyword_writes(value, runs_first=True, flow=flow)
    entries = dict_entries(value)
    if entries is None and isinstance(value, cst.Call):
        return UnseenDict(f"`{name}` is assigned {_use(value, flow)}, whose keys are chosen elsewhere")
    if entries is None:
        return UnseenDict(f"`{name}` is assigned {_use(value, flow)}, which does not spell out its keys as strings")
    return [KeyWrite(key, entry.value, entry, value, runs_first=True) for key, entry in entries.items()]


def _keyword_writes(call: cst.Call, runs_first: bool, flow: ValueFlow) -> Union[List[KeyWrite], UnseenDict]:
    if any(arg.keyword is None for arg in call.args):
        return UnseenDict(f"{_use(call, flow)} does not spell out its keys")
    return [KeyWrite(arg.keyword.value, arg.value, arg, call, runs_first) for arg in call.args]


def _writes_at(other: cst.CSTNode, read: cst.Name, flow: ValueFlow) -> Union[List[KeyWrite], UnseenDict]:
    """What the read ``other`` of the dict writes: ``NAME["key"] = value``, ``NAME.update(...)``."""
    nodes = flow.nodes
    parent = nodes.parents.get(other)
    statement = nodes.parents.get(nodes.parents.get(parent))
    if isinstance(parent, cst.Subscript) and isinstance(statement, cst.Assign) and len(statement.targets) == 1:
        if statement.targets[0].target is parent:
            key = _constant_key(parent)
            if key is None:
                return UnseenDict(f"{_use(parent, flow)} writes a key the tool cannot read as a string")
            return [KeyWrite(key, statement.value, statement, statement, nodes.runs_before(statement, read))]
    call = nodes.parents.get(parent)
    if (
        isinstance(parent, cst.Attribute)
        and parent.attr.value == "update"
        and isinstance(call, cst.Call)
        and call.func is parent
        and isinstance(nodes.parents.get(call), cst.Expr)
    ):
        runs_first = nodes.runs_before(nodes.parents[call], read)
        if len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star:
            entries = dict_entries(call.args[0].value)
            if entries is not None:
                literal = call.args[0].value
                return [KeyWrite(key, entry.value, entry, literal, runs_first) for key, entry in entries.items()]
        return _keyword_writes(call, runs_first, flow)
    statement = nodes.enclosing_statement(other)
    if isinstance(statement, cst.SimpleStatementLine):
        statement = next(small for small in statement.body if nodes.within(other, small))
    return UnseenDict(f"`{read.value}` is also used by {_use(statement, flow)}, which may read its keys or change them")


def _use(node: cst.CSTNode, flow: ValueFlow) -> str:
    """``node``'s code and line, for a message."""
    return f"`{one_line(code_of(node), limit=40)}` on line {flow.nodes.positions[node].start.line}"


def _constant_key(subscript: cst.Subscript) -> Optional[str]:
    if len(subscript.slice) != 1 or not isinstance(subscript.slice[0].slice, cst.Index):
        return None
    return literal_string(subscript.slice[0].slice.value)
