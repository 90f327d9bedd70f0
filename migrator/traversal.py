"""A node's children in source order, and visits, without LibCST's cost of rebuilding nodes.

``CSTNode.children`` collects the children by running ``_visit_and_replace_children`` with a
visitor, and ``CSTNode.visit`` runs it for every node a visitor walks: each time it constructs
(and validates) a copy of the node, which a visitor that changes nothing throws away. Walking a
module that way costs about as much as parsing it. What that method visits, and in what order,
is written out plainly in each node class: ``return Call(func=visit_required(self, "func",
self.func, visitor), ...)``. This module reads that order from the method's source once per
class and then reads the fields directly, several times faster. A class whose method does
anything else, or whose source cannot be read, keeps LibCST's own ways; tests check that both
give the same children, and the same visits, for every node of the fixtures.
"""

from __future__ import annotations

import ast
import linecache
import textwrap
from contextlib import contextmanager
from functools import partial
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import libcst as cst

# The helpers of ``libcst._nodes.internal`` that ``_visit_and_replace_children`` calls as
# ``visit_...(self, "field", self.field, visitor)``: each visits the field's node or nodes.
_VISIT_HELPERS = frozenset(
    {"visit_required", "visit_optional", "visit_sequence", "visit_iterable", "visit_body_sequence",
     "visit_body_iterable", "visit_sentinel"}
)
# A field a node visits, and whether it is visited (its attribute hooks called) when it is None.
Field = Tuple[str, bool]
# By node class: the fields it visits, in source order; None where the class's method is not of
# the plain form and LibCST's own ways must be used.
_FIELDS: Dict[type, Optional[Tuple[Field, ...]]] = {}


def _fields_of(cls: type) -> Optional[Tuple[Field, ...]]:
    try:
        return _FIELDS[cls]
    except KeyError:
        fields = _FIELDS[cls] = _child_fields(cls)
        return fields


# What a field's value is, by its type: a node, a sequence of nodes, or anything else (None,
# MaybeSentinel.DEFAULT), which is visited as nothing. ``CSTNode`` is an abstract class, and an
# ``isinstance`` test against one costs several times this lookup: a walk makes millions.
NODE, NODES, NOTHING = 1, 2, 3
_KINDS: Dict[type, int] = {}


def _kind(cls: type) -> int:
    # Node classes derive from CSTNode (nothing is registered with it as a virtual subclass):
    # its MRO says so without the abstract class's `issubclass`, which for a type that is not
    # one scans every node class (about a millisecond each, at the start of every run).
    kind = _KINDS[cls] = NODE if cst.CSTNode in cls.__mro__ else NODES if issubclass(cls, (tuple, list)) else NOTHING
    return kind


def children(node: cst.CSTNode) -> Sequence[cst.CSTNode]:
    """What ``node.children`` gives: the nodes directly below ``node``, in source order."""
    fields = _fields_of(type(node))
    if fields is None:
        return node.children
    found: List[cst.CSTNode] = []
    kinds = _KINDS
    for name, _ in fields:
        value = getattr(node, name)
        kind = kinds.get(type(value)) or _kind(type(value))
        if kind == NODE:
            found.append(value)
        elif kind == NODES:
            found.extend(value)  # a field's sequence holds nodes only: LibCST visits each item
    return found


_LIBCST_VISIT = cst.CSTNode.visit


@contextmanager
def visits_without_rebuilding() -> Iterator[None]:
    """Inside, ``node.visit(visitor)`` with a ``CSTVisitor`` (not a transformer) calls the same
    hooks in the same order as LibCST does, on the same nodes, without building the copies it
    would throw away. For LibCST's own metadata providers, which visit nodes themselves. The
    hooks are found on the visitor's class, as the providers define them, once per node class."""
    cst.CSTNode.visit = _visit  # type: ignore[method-assign]
    try:
        yield
    finally:
        cst.CSTNode.visit = _LIBCST_VISIT  # type: ignore[method-assign]


def _visit(node: cst.CSTNode, visitor: Union[cst.CSTVisitor, cst.CSTTransformer]) -> cst.CSTNode:
    key = (type(visitor), type(node))
    plan = _PLANS.get(key, _UNKNOWN)
    if plan is _UNKNOWN:
        plan = _PLANS[key] = _plan(*key)
    if plan is None:
        return _LIBCST_VISIT(node, visitor)  # type: ignore[return-value]
    on_visit, fields, on_leave = plan
    if on_visit is None or on_visit(visitor, node):
        kinds = _KINDS
        for name, visited_when_none, enter, leave in fields:
            value = getattr(node, name)
            if value is None and not visited_when_none:
                continue
            if enter is not None:
                enter(visitor, node)
            kind = kinds.get(type(value)) or _kind(type(value))
            if kind == NODE:
                value.visit(visitor)
            elif kind == NODES:
                for item in value:
                    item.visit(visitor)
            if leave is not None:
                leave(visitor, node)
    if on_leave is not None:
        on_leave(visitor, node)
    return node


Hook = Callable[[cst.CSTVisitor, cst.CSTNode], object]
# What visiting a node of one class with a visitor of another calls: the visitor's ``on_visit``
# (None: nothing, visit the children), for each field its attribute hooks, and ``on_leave``.
Plan = Tuple[Optional[Hook], Tuple[Tuple[str, bool, Optional[Hook], Optional[Hook]], ...], Optional[Hook]]
_PLANS: Dict[Tuple[type, type], Optional[Plan]] = {}
_UNKNOWN = object()


def _plan(visitor_class: type, node_class: type) -> Optional[Plan]:
    """None for a transformer, or a node class left to LibCST. ``CSTVisitor`` finds each hook
    by name (``visit_Call``, ``visit_Call_func``...) on every call, and has one for every name,
    which does nothing: a hook the visitor class keeps as ``CSTVisitor`` has it is not called."""
    fields = _fields_of(node_class) if issubclass(visitor_class, cst.CSTVisitor) else None
    if fields is None:
        return None

    def own(name: str) -> Optional[Hook]:
        function = getattr(visitor_class, name, None)
        return None if function is None or function is getattr(cst.CSTVisitor, name, None) else function

    kind = node_class.__name__
    visit_hook = own(f"visit_{kind}")
    on_visit = own("on_visit") or (visit_hook and (lambda visitor, node: visit_hook(visitor, node) is not False))
    leave_hook = own(f"leave_{kind}")
    on_leave = own("on_leave") or leave_hook
    enter, leave = own("on_visit_attribute"), own("on_leave_attribute")
    planned = []
    for name, visited_when_none in fields:
        planned.append((
            name,
            visited_when_none,
            partial(_call_with_attribute, enter, name) if enter else own(f"visit_{kind}_{name}"),
            partial(_call_with_attribute, leave, name) if leave else own(f"leave_{kind}_{name}"),
        ))
    return on_visit, tuple(planned), on_leave


def _call_with_attribute(hook: Callable[..., object], attribute: str, visitor: cst.CSTVisitor, node: cst.CSTNode) -> None:
    hook(visitor, node, attribute)


def _child_fields(cls: type) -> Optional[Tuple[Field, ...]]:
    """The fields ``cls._visit_and_replace_children`` visits, in order, if it only returns
    ``self`` (a leaf) or ``Cls(field=visit_...(self, "field", self.field, visitor), other=self.other, ...)``."""
    try:
        function = ast.parse(_source_of(cls._visit_and_replace_children)).body[0]  # type: ignore[attr-defined]
    except (AttributeError, SyntaxError, IndexError):
        return None
    if not isinstance(function, ast.FunctionDef):
        return None
    body = [s for s in function.body if not isinstance(s, ast.Expr)]  # a docstring
    copies: Dict[str, str] = {}  # `names = self.names`: local copies of fields, read below
    while body and isinstance(body[0], ast.Assign) and len(body[0].targets) == 1 and _reads_own_field(body[0].value):
        target = body[0].targets[0]
        if not isinstance(target, ast.Name):
            return None
        copies[target.id] = body[0].value.attr  # type: ignore[attr-defined]
        body = body[1:]
    if (  # `ret = Cls(...)` then `return ret`
        len(body) == 2 and isinstance(body[0], ast.Assign) and len(body[0].targets) == 1
        and isinstance(body[0].targets[0], ast.Name) and isinstance(body[1], ast.Return)
        and isinstance(body[1].value, ast.Name) and body[1].value.id == body[0].targets[0].id
    ):
        body = [ast.Return(body[0].value)]
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return None
    returned = body[0].value
    if isinstance(returned, ast.Name) and returned.id == "self":
        return ()
    if not (isinstance(returned, ast.Call) and _constructs(returned.func, cls)) or returned.args:
        return None
    fields = []
    for keyword in returned.keywords:
        if keyword.arg is None:
            return None
        visited = _visited_field(keyword.value, copies)
        if visited == keyword.arg:
            fields.append((keyword.arg, not _skips_none(keyword.value)))
        elif not _reads_own_field(keyword.value, keyword.arg):
            return None
    return tuple(fields)


def _skips_none(expression: ast.expr) -> bool:
    """Is the field visited only when not None (``visit_...(...) if x is not None else None``)?"""
    return isinstance(expression, ast.IfExp) and any(
        isinstance(branch, ast.Constant) and branch.value is None for branch in (expression.body, expression.orelse)
    )


def _source_of(function: object) -> str:
    """The source of a method: its ``def`` line and the lines indented deeper below it, dedented.
    (``inspect.getsource`` finds the same lines by tokenizing, which costs more than a small
    run's whole analysis.)"""
    code = function.__code__  # type: ignore[attr-defined]
    lines = linecache.getlines(code.co_filename)
    first = code.co_firstlineno - 1
    if not 0 <= first < len(lines):
        return ""
    indent = len(lines[first]) - len(lines[first].lstrip())
    end = first
    while end < len(lines) and not lines[end].split("#")[0].rstrip().endswith(":"):
        end += 1  # a signature written over several lines
    end += 1
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
        end += 1
    return textwrap.dedent("".join(lines[first:end]))


def _constructs(function: ast.expr, cls: type) -> bool:
    """Is ``function`` the node's own class: ``Cls`` or ``self.__class__``?"""
    if isinstance(function, ast.Name):
        return function.id == cls.__name__
    return _reads_own_field(function, "__class__")


def _visited_field(expression: ast.expr, copies: Dict[str, str]) -> Optional[str]:
    """``"f"`` for ``visit_...(self, "f", self.f, visitor)`` (or a local copy of ``self.f``),
    or for a conditional choosing between such calls for the same field (or ``None``)."""
    if isinstance(expression, ast.IfExp):
        branches = {_visited_field(branch, copies) for branch in (expression.body, expression.orelse)
                    if not (isinstance(branch, ast.Constant) and branch.value is None)}
        return branches.pop() if len(branches) == 1 else None
    if (
        isinstance(expression, ast.Call)
        and isinstance(expression.func, ast.Name)
        and expression.func.id in _VISIT_HELPERS
        and len(expression.args) == 4
        and not expression.keywords
        and isinstance(expression.args[0], ast.Name) and expression.args[0].id == "self"
        and isinstance(expression.args[1], ast.Constant) and isinstance(expression.args[1].value, str)
        and isinstance(expression.args[3], ast.Name) and expression.args[3].id == "visitor"
    ):
        field, value = expression.args[1].value, expression.args[2]
        if _reads_own_field(value, field) or (isinstance(value, ast.Name) and copies.get(value.id) == field):
            return field
    return None


def _reads_own_field(expression: ast.expr, name: Optional[str] = None) -> bool:
    """Is ``expression`` ``self.<name>`` (any field when ``name`` is None)?"""
    return (
        isinstance(expression, ast.Attribute)
        and isinstance(expression.value, ast.Name)
        and expression.value.id == "self"
        and (name is None or expression.attr == name)
    )
