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

A dict unpacked where it is made is known the same way: a literal or ``dict(k=v)``, a
conditional expression between such dicts (``**({"top_p": p} if p else {})``, each key then on
some paths only), or a call of a function of the module every ``return`` of which gives such a
dict, or a name built key by key in it (``**self._sampling()``, ``params = self._base()``).
Such a function's other calls get the same dicts: ``unpacking_calls`` says where they go.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import List, Optional, Tuple, Union

import libcst as cst
from libcst.metadata import Assignment

from migrator.semantic.flow import ValueFlow
from migrator.semantic.nodes import Nodes
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
    functions: Tuple[cst.FunctionDef, ...] = ()  # functions of the module whose returns hold some of the writes
    origin: Optional[cst.CSTNode] = None  # what makes a new dict: the statement binding the name, or the function of a ``**`` parameter
    filled_by: Tuple[cst.FunctionDef, ...] = ()  # functions whose callers' keywords its ``**`` parameter holds

    def writes_of(self, key: str) -> List[KeyWrite]:
        return [write for write in self.writes if write.key == key]

    def never_together(self, first: str, second: str, nodes: Nodes) -> bool:
        """Can the dict hold at most one of the keys ``first`` and ``second`` where it is read?
        It can when each is written only by ``name["key"] = value`` lines, and every write of
        one runs only where no write of the other does (``if``/``else`` arms)."""
        pairs = [(a, b) for a in self.writes_of(first) for b in self.writes_of(second)]
        return self.origin is not None and all(
            isinstance(a.entry, cst.Assign) and isinstance(b.entry, cst.Assign)
            and nodes.never_both(a.entry, b.entry, self.origin)
            for a, b in pairs
        )


@dataclass(frozen=True)
class UnseenDict:
    """Why the keys of the dict cannot all be known."""

    reason: str
    node: Optional[cst.CSTNode] = None  # what unpacks the dict, when the question was about several


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
    node = getattr(binding, "node", None)
    value = _assigned_value(binding, flow)
    filled_by: Tuple[cst.FunctionDef, ...] = ()
    if isinstance(node, cst.Param) and node.star == "**":
        passed = _passed_keywords(node, name, flow)
        if isinstance(passed, UnseenDict):
            return passed
        (writes, function), functions = passed, []
        filled_by, origin = (function,), function
    elif value is None:
        kind = "a parameter" if isinstance(node, cst.Param) else "not assigned a dict in this scope"
        return UnseenDict(f"`{name}` is {kind}: its keys are chosen elsewhere")
    elif bindings.scopes.get(value) is not bindings.scopes.get(read):
        return UnseenDict(f"`{name}` is built in another scope, where other code may change it")
    else:
        made = _initial_writes(value, name, flow)
        if isinstance(made, UnseenDict):
            return made
        (writes, functions), origin = made, nodes.enclosing_statement(value)
    for other in bindings.reads_of(binding):
        if other is read:
            continue
        if bindings.reaching(other) != [binding]:
            return UnseenDict(f"{_use(other, flow)} may change another dict that `{name}` holds there")
        written = _writes_at(other, read, flow)
        if isinstance(written, UnseenDict):
            return written
        writes.extend(written)
    return BuiltDict(name, tuple(writes), tuple(functions), origin, filled_by)


def unpacked_dict(value: cst.BaseExpression, flow: ValueFlow) -> Union[BuiltDict, UnseenDict]:
    """The writes of the dict ``**value`` unpacks, when every key it can hold is known."""
    if isinstance(value, cst.Name):
        return built_dict(value, flow)
    if not _makes_dict(value, flow):
        return UnseenDict(f"`{one_line(code_of(value), limit=40)}` holds keys chosen elsewhere")
    made = _made_writes(value, flow, runs_first=True, calling=())
    if isinstance(made, UnseenDict):
        return made
    return BuiltDict(one_line(code_of(value), limit=40), tuple(made[0]), tuple(made[1]))


def unpacking_calls(call: cst.Call, flow: ValueFlow) -> Optional[List[cst.Call]]:
    """The calls that unpack the dict ``call`` returns: ``send(**call)``, or ``send(**name)``
    after ``name = call`` whose other reads write keys; None when the dict may go anywhere else."""
    nodes = flow.nodes
    parent = nodes.parents.get(call)
    if isinstance(parent, cst.Arg) and parent.star == "**":
        return [nodes.parents[parent]]
    target = parent.targets[0].target if isinstance(parent, cst.Assign) and len(parent.targets) == 1 else None
    binding = flow.bindings.binding(target) if isinstance(target, cst.Name) else None
    if binding is None:
        return None
    unpacking = []
    for read in flow.bindings.reads_of(binding):
        argument = nodes.parents.get(read)
        if isinstance(argument, cst.Arg) and argument.star == "**":
            unpacking.append(nodes.parents[argument])
        elif isinstance(_writes_at(read, read, flow), UnseenDict):
            return None
    return unpacking


def _passed_keywords(param: cst.Param, name: str, flow: ValueFlow) -> Union[Tuple[List[KeyWrite], cst.FunctionDef], UnseenDict]:
    """The keyword arguments the calls of a function give its ``**name`` parameter: those
    naming none of its other parameters, each call passing keywords only by name. A write runs
    first only when there is one call."""
    function = flow.nodes.enclosing(param, cst.FunctionDef)
    callers = flow.callers(function) if function is not None and flow.passes_values_through(function) else None
    if function is None or not callers:
        return UnseenDict(f"`{name}` is a parameter: its keys are chosen elsewhere")
    params = function.params
    named = {each.name.value for each in (*params.posonly_params, *params.params, *params.kwonly_params)}
    writes = []
    for call in callers:
        for arg in call.args:
            if arg.star == "**":
                return UnseenDict(f"`{name}` holds the keys of `**{one_line(code_of(arg.value), limit=40)}` on line {flow.nodes.positions[call].start.line}, chosen elsewhere")
            if arg.keyword is not None and arg.keyword.value not in named:
                writes.append(KeyWrite(arg.keyword.value, arg.value, arg, call, runs_first=len(callers) == 1))
    return writes, function


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


# The writes a dict is made with, and the functions whose returns hold them.
Made = Tuple[List[KeyWrite], List[cst.FunctionDef]]


def _initial_writes(value: cst.BaseExpression, name: str, flow: ValueFlow) -> Union[Made, UnseenDict]:
    """The entries the dict is made with (see ``_made_writes``)."""
    if isinstance(value, cst.Call) and not _makes_dict(value, flow):
        return UnseenDict(f"`{name}` is assigned {_use(value, flow)}, whose keys are chosen elsewhere")
    if not _makes_dict(value, flow) or (isinstance(value, cst.Dict) and dict_entries(value) is None):
        return UnseenDict(f"`{name}` is assigned {_use(value, flow)}, which does not spell out its keys as strings")
    return _made_writes(value, flow, runs_first=True, calling=())


def _makes_dict(value: cst.BaseExpression, flow: ValueFlow) -> bool:
    """Is ``value`` a shape ``_made_writes`` looks into?"""
    if isinstance(value, cst.Call):
        return flow.calls_builtin(value, "dict") or flow.function_called(value) is not None
    return isinstance(value, (cst.Dict, cst.IfExp))


def _made_writes(
    value: cst.BaseExpression, flow: ValueFlow, runs_first: bool, calling: Tuple[cst.FunctionDef, ...]
) -> Union[Made, UnseenDict]:
    """The entries of a new dict ``value`` makes: a dict literal, ``dict(k=v, ...)``, a
    conditional expression between such dicts, or a call of a function of the module that
    returns one (``calling`` holds the functions being looked into, to stop at recursion)."""
    if isinstance(value, cst.IfExp):
        body = _made_writes(value.body, flow, False, calling)
        if isinstance(body, UnseenDict):
            return body
        orelse = _made_writes(value.orelse, flow, False, calling)
        if isinstance(orelse, UnseenDict):
            return orelse
        return body[0] + orelse[0], body[1] + orelse[1]
    if isinstance(value, cst.Call) and flow.calls_builtin(value, "dict"):
        written = _keyword_writes(value, runs_first, flow)
        return written if isinstance(written, UnseenDict) else (written, [])
    function = flow.function_called(value) if isinstance(value, cst.Call) else None
    if function is not None:
        return _returned_writes(function, flow, runs_first, calling)
    entries = dict_entries(value)
    if entries is None:
        return UnseenDict(f"{_use(value, flow)} does not spell out its keys as strings")
    return [KeyWrite(key, entry.value, entry, value, runs_first) for key, entry in entries.items()], []


def _returned_writes(
    function: cst.FunctionDef, flow: ValueFlow, runs_first: bool, calling: Tuple[cst.FunctionDef, ...]
) -> Union[Made, UnseenDict]:
    """The entries of the dicts ``function`` returns: each ``return`` must make one, or return a
    name built key by key there. A write runs first only when there is one ``return``."""
    name = function.name.value
    if function in calling:
        return UnseenDict(f"`{name}` calls itself to make the dict it returns")
    if function.asynchronous is not None or flow.nodes.is_generator(function) or not flow.passes_values_through(function):
        return UnseenDict(f"`{name}` is asynchronous, a generator or decorated, so what it returns may not be the dict it builds")
    returns = flow.nodes.returns_of(function)
    if not returns or any(node.value is None for node in returns):
        return UnseenDict(f"`{name}` does not return a dict on every path")
    writes: List[KeyWrite] = []
    functions = [function]
    alone = runs_first and len(returns) == 1
    for node in returns:
        if isinstance(node.value, cst.Name):
            built = built_dict(node.value, flow)
            if isinstance(built, UnseenDict):
                return UnseenDict(f"`{name}` returns a dict whose keys cannot all be seen: {built.reason}")
            made: Union[Made, UnseenDict] = (list(built.writes), list(built.functions))
        else:
            made = _made_writes(node.value, flow, alone, calling + (function,))
            if isinstance(made, UnseenDict):
                return UnseenDict(f"`{name}` returns a dict whose keys cannot all be seen: {made.reason}")
        writes.extend(write if alone or not write.runs_first else replace(write, runs_first=False) for write in made[0])
        functions.extend(made[1])
    return writes, functions


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
