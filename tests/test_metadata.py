"""The fast children, positions and scopes give exactly what LibCST's own ``children``,
``PositionProvider`` and ``ScopeProvider`` give, node for node."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import ExpressionContextProvider, MetadataWrapper, PositionProvider, ScopeProvider

from migrator.metadata import Positions, expression_contexts, resolve_scopes
from migrator.traversal import _child_fields, children, visits_without_rebuilding

from .fixture_cases import FIXTURES

# Every fixture, plus real code with every kind of node: LibCST's own sources, and syntax the
# fixtures lack (match statements, type parameters, f-strings with format specs, a module
# without a final newline, CRLF, tabs, line continuations).
SOURCES = sorted(FIXTURES.glob("*/*/*.py")) + sorted(Path(cst.__file__).parent.glob("_nodes/*.py"))
SYNTAX = [
    "match x:\n    case {'a': [1, *rest], **others} if rest:\n        pass\n    case Point(x=0) | None as p:\n        pass\n",
    "def f[T: int, *Ts, **P](a, /, b=1, *c, d, **e) -> T:\n    return f'{a!r:>{b}}{c=}'\n",
    "type Alias[T] = list[T]\nx = (yield)\n",
    "async def g():\n    async with a as (b, c), d:\n        async for e in f: await e\n",
    "x = 1 if y else \\\n    2  # comment",
    "if a:\r\n\tb = [i for i in c if i]\r\nelse:\r\n\tdel d; e += 1\r\n",
    "from . import (a as b,\n    c)\nfrom .m import *\nglobal g\n@dec\nclass K(B, metaclass=M): x: int = 0\n",
    "lambda *a, k=1, **kw: (a, k, kw)\ntry:\n    pass\nexcept* (E, F) as e:\n    raise X from e\n",
    "if (n := len(a)) > 1:\n    [y for x in z for y in x if (w := y)]\nfor a, *b in c: pass\nwith o as [p, q]: pass\n"
    "x[1:2], y.z, *r = t\ndel x[0], (y.z, w)\nv: 'T' = u.k[i]\n",
    "",
    "\n\n# only a comment",
]


def modules():
    return [pytest.param(path.read_bytes(), id=str(path.relative_to(path.parents[2]))) for path in SOURCES] + [
        pytest.param(source.encode(), id=f"syntax-{number}") for number, source in enumerate(SYNTAX)
    ]


def every_node(module: cst.Module):
    stack = [module]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


@pytest.mark.parametrize("source", modules())
def test_children_are_libcsts_children_in_the_same_order(source):
    for node in every_node(cst.parse_module(source)):
        fast, libcsts = children(node), node.children
        assert len(fast) == len(libcsts) and all(a is b for a, b in zip(fast, libcsts)), type(node).__name__


class Noting(cst.CSTVisitor):
    """A visitor keeping a list of the hooks called, each with its node."""

    def __init__(self):
        super().__init__()
        self.calls = []


class Recorder(Noting):
    """Notes every hook LibCST calls, and skips the children of function bodies as visitors may."""

    def on_visit(self, node):
        self.calls.append(("visit", node))
        if isinstance(node, cst.Lambda):
            node.body.visit(self)  # a visitor visiting part of a node itself, as the providers do
            return False
        return True

    def on_leave(self, node):
        self.calls.append(("leave", node))

    def on_visit_attribute(self, node, attribute):
        self.calls.append(("visit " + attribute, node))

    def on_leave_attribute(self, node, attribute):
        self.calls.append(("leave " + attribute, node))


class Hooked(Noting):
    """A visitor with hooks of its own for some node classes and fields, LibCST's for the rest."""

    def visit_Name(self, node):
        self.calls.append(("Name", node))

    def visit_FunctionDef(self, node):
        self.calls.append(("FunctionDef", node))
        return not node.name.value.startswith("_")  # skip the bodies of private functions

    def leave_Call(self, node):
        self.calls.append(("leave Call", node))

    def visit_Call_func(self, node):
        self.calls.append(("Call.func", node))

    def leave_Arg_value(self, node):
        self.calls.append(("leave Arg.value", node))


class HookedAndLeaving(Hooked):
    def on_leave(self, node):
        self.calls.append(("on_leave", node))
        super().on_leave(node)


# Recorder overrides every generic hook; the others define their own for some classes and fields.
@pytest.mark.parametrize("visitor", [Recorder, Hooked, HookedAndLeaving])
@pytest.mark.parametrize("source", modules())
def test_visits_without_rebuilding_call_the_same_hooks_on_the_same_nodes(source, visitor):
    module = cst.parse_module(source)
    libcsts, fast = visitor(), visitor()
    module.visit(libcsts)
    with visits_without_rebuilding():
        module.visit(fast)
    assert len(fast.calls) == len(libcsts.calls)
    assert all(a[0] == b[0] and a[1] is b[1] for a, b in zip(fast.calls, libcsts.calls))


def test_visits_without_rebuilding_leave_transformers_to_libcst():
    class Rename(cst.CSTTransformer):
        def leave_Name(self, original, updated):
            return updated.with_changes(value="y")

    module = cst.parse_module("x = x + 1\n")
    libcsts_visit = cst.CSTNode.visit
    with visits_without_rebuilding():
        assert module.visit(Rename()).code == "y = y + 1\n"
    assert cst.CSTNode.visit is libcsts_visit  # put back on the way out


@pytest.mark.parametrize("source", modules())
def test_positions_are_libcsts_positions(source):
    module = cst.parse_module(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    positions = Positions(module)
    assert set(positions) == set(expected)
    assert {node: positions[node] for node in expected} == dict(expected)


@pytest.mark.parametrize("source", modules())
def test_expression_contexts_are_libcsts(source):
    module = cst.parse_module(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ExpressionContextProvider)
    assert expression_contexts(module) == dict(expected)


@pytest.mark.parametrize("source", modules())
def test_scopes_are_libcsts_scopes(source):
    module = cst.parse_module(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    scopes = resolve_scopes(module)
    # String annotations are parsed anew, into other nodes, each time: only the module's own count.
    place = {node: index for index, node in enumerate(every_node(module))}
    assert {node for node in scopes if node in place} == {node for node in expected if node in place}
    assert _scope_structure(scopes, place) == _scope_structure(expected, place)


def _scope_structure(scopes, place):
    """Each node's scope, as its kind with what it assigns, what its reads refer to and the
    qualified names of the node; nodes by their place in a walk of the module."""

    def where(node):
        return place.get(node, "elsewhere")

    described = {}
    for node, scope in scopes.items():
        if node not in place:
            continue
        if scope is None:
            described[where(node)] = None
            continue
        assignments = sorted((a.name, where(getattr(a, "node", None))) for a in scope.assignments)
        accesses = sorted(
            (where(a.node), sorted(str(where(getattr(r, "node", None))) for r in a.referents)) for a in scope.accesses
        )
        qualified = sorted((q.name, q.source.name) for q in scope.get_qualified_names_for(node))
        described[where(node)] = (type(scope).__name__, str(assignments), str(accesses), qualified)
    return described


def test_every_node_class_of_libcst_is_read_without_rebuilding_it():
    """A class left to ``node.children`` would be correct but slow: say which, when LibCST changes."""
    classes = [value for value in vars(cst).values() if isinstance(value, type) and issubclass(value, cst.CSTNode)]
    concrete = [cls for cls in classes if not getattr(cls, "__abstractmethods__", None)]
    assert [cls.__name__ for cls in concrete if _child_fields(cls) is None] == []


def test_a_method_not_of_the_plain_form_falls_back_to_libcsts_children():
    class Odd(cst.Name):
        def _visit_and_replace_children(self, visitor):
            if self.value:
                return super()._visit_and_replace_children(visitor)
            return self

    node = Odd("x", lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    assert _child_fields(Odd) is None
    assert list(children(node)) == list(node.children) == [node.lpar[0], node.rpar[0]]


def test_children_of_nodes_a_rewrite_builds_with_lists():
    call = cst.Call(func=cst.Name("f"), args=[cst.Arg(cst.Name("x")), cst.Arg(cst.Name("y"))], lpar=[cst.LeftParen()],
                    rpar=[cst.RightParen()])
    assert len(call.children) == 7  # with the whitespace after the name and before the arguments
    assert list(children(call)) == list(call.children)
