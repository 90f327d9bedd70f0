"""The one module that uses LibCST's internals: its fast children, visits, positions and scopes
give exactly what LibCST's own ``children``, visits, ``PositionProvider`` and ``ScopeProvider``
give, node for node; the engine gives the same output and findings with them as with LibCST's
public API; a LibCST that does not look as they expect is left to its public API; and no other
module names LibCST's private parts."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import libcst as cst
import pytest
from libcst._nodes.internal import CodegenState
from libcst.metadata import ExpressionContextProvider, MetadataWrapper, PositionProvider, ScopeProvider, scope_provider
from libcst.metadata.expression_context_provider import ExpressionContextVisitor

from migrator import libcst_internals
from migrator.libcst_internals import (
    PUBLIC_API_SWITCH,
    StatementPositions,
    TokenPositions,
    _child_fields,
    children_from_fields,
    expression_contexts,
    internals_rejected,
    scopes_without_wrapper,
    visits_without_rebuilding,
)

from .fixture_cases import FIXTURES

ROOT = Path(__file__).resolve().parent.parent

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
        fast, libcsts = children_from_fields(node), node.children
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
    positions = TokenPositions(module)
    assert set(positions) == set(expected)
    assert {node: positions[node] for node in expected} == dict(expected)


@pytest.mark.parametrize("source", modules())
def test_positions_printed_statement_by_statement_are_libcsts_positions(source):
    module = cst.parse_module(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    parents = {child: node for node in every_node(module) for child in node.children}
    positions = StatementPositions(module, source, parents)
    assert {node: positions[node] for node in expected} == dict(expected)


def test_a_node_is_placed_by_printing_the_statement_that_holds_it_alone():
    source = (
        b"# -*- coding: latin-1 -*-\r\nimport os\r\n\r\n@first\r\n\r\n# between\r\n@second\r\n"
        b"def f(a):\r\n    return 1\r\n\r\nx = 1; y = '\xe9'\r\n# before\r\nprint(  f(x),\r\n   y)\r\n"
    )
    module = cst.parse_module(source)
    parents = {child: node for node in every_node(module) for child in node.children}
    positions = StatementPositions(module, source, parents)
    last = module.body[-1]
    call = last.body[0].value
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    assert positions[call.args[1]] == expected[call.args[1]] and positions[last] == expected[last]
    decorated = module.body[1]
    assert positions[decorated.decorators[1]] == expected[decorated.decorators[1]]
    assert set(positions._printed) == {last, decorated} and positions._whole is None


@pytest.mark.parametrize("source", modules())
def test_expression_contexts_are_libcsts(source):
    module = cst.parse_module(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ExpressionContextProvider)
    assert expression_contexts(module) == dict(expected)


@pytest.mark.parametrize("source", modules())
def test_scopes_are_libcsts_scopes(source):
    module = cst.parse_module(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    scopes = scopes_without_wrapper(module)
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
    assert list(children_from_fields(node)) == list(node.children) == [node.lpar[0], node.rpar[0]]


def test_children_of_nodes_a_rewrite_builds_with_lists():
    call = cst.Call(func=cst.Name("f"), args=[cst.Arg(cst.Name("x")), cst.Arg(cst.Name("y"))], lpar=[cst.LeftParen()],
                    rpar=[cst.RightParen()])
    assert len(call.children) == 7  # with the whitespace after the name and before the arguments
    assert list(children_from_fields(call)) == list(call.children)


# ----- The engine, with LibCST's internals and with its public API

# Runs the engine over the fixtures (all, or those of the rules named as arguments) and prints,
# as JSON, whether LibCST's internals were used (and why not), the ways to children and scopes
# chosen, and everything the engine made of each case.
ENGINE_OVER_FIXTURES = """
import json, sys
from migrator import libcst_internals
from migrator.engine import transform_source
from tests.fixture_cases import all_cases

results = {}
for case in all_cases():
    if sys.argv[1:] and case.rule not in sys.argv[1:]:
        continue
    result = transform_source(case.before, case.options)
    results[case.id] = [
        result.output.decode("latin-1"), [repr(finding) for finding in result.findings], result.calls_migrated,
        result.exported_names, result.imported_names,
    ]
json.dump({"uses_internals": libcst_internals.USES_INTERNALS, "reason": libcst_internals.PUBLIC_API_REASON,
           "ways": [libcst_internals.children.__name__, libcst_internals.resolve_scopes.__name__],
           "results": results}, sys.stdout)
"""


INTERNAL_WAYS = ["children_from_fields", "scopes_without_wrapper"]
PUBLIC_WAYS = ["libcsts_children", "libcsts_scopes"]


def _engine_run(switch: bool, prelude: str = "", rules: tuple = ()) -> subprocess.Popen:
    """A fresh interpreter running the engine over the fixtures: ``switch`` sets the variable that
    sends it to LibCST's public API; ``prelude`` runs first, before the tool is imported."""
    env = {name: value for name, value in os.environ.items() if name != PUBLIC_API_SWITCH}
    if switch:
        env[PUBLIC_API_SWITCH] = "1"
    return subprocess.Popen([sys.executable, "-c", prelude + ENGINE_OVER_FIXTURES, *rules], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _outcome(run: subprocess.Popen) -> dict:
    stdout, stderr = run.communicate(timeout=600)
    assert run.returncode == 0, stderr.decode()
    return json.loads(stdout)


def test_the_engine_gives_the_same_results_for_every_fixture_with_libcsts_public_api():
    with_internals, with_public_api = _engine_run(switch=False), _engine_run(switch=True)  # side by side
    fast, public = _outcome(with_internals), _outcome(with_public_api)
    assert (fast["uses_internals"], public["uses_internals"]) == (True, False)
    assert (fast["ways"], public["ways"]) == (INTERNAL_WAYS, PUBLIC_WAYS)
    assert public["reason"] == f"${PUBLIC_API_SWITCH} is 1"
    assert len(fast["results"]) == len(list(FIXTURES.glob("*/*/before.py")))
    assert fast["results"] == public["results"]


def test_the_installed_libcst_is_covered(monkeypatch):
    """Else every run would quietly take the slow way."""
    monkeypatch.delenv(PUBLIC_API_SWITCH, raising=False)
    assert internals_rejected() is None


def test_the_covered_versions_are_pyprojects_bound():
    requirement = next(
        dependency for dependency in _pyproject_dependencies() if dependency.replace(" ", "").startswith("libcst>")
    )
    (low_major, low_minor), (high_major, high_minor) = libcst_internals.COVERED_VERSIONS
    assert requirement.replace(" ", "") == f"libcst>={low_major}.{low_minor},<{high_major}.{high_minor}"


def _pyproject_dependencies() -> list:
    try:
        import tomllib
    except ModuleNotFoundError:  # before Python 3.11
        import tomli as tomllib
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]


def _call_visiting_its_fields_through_another_function(monkeypatch):
    original = cst.Call._visit_and_replace_children

    def _visit_and_replace_children(self, visitor):
        return original(self, visitor)

    monkeypatch.setattr(cst.Call, "_visit_and_replace_children", _visit_and_replace_children)


# A LibCST unlike the installed one in one of the ways the internals depend on, each by what it changes.
CHANGED_LIBCSTS = {
    "a later version": lambda monkeypatch: monkeypatch.setattr(cst, "LIBCST_VERSION", "1.10.0"),
    "an earlier version": lambda monkeypatch: monkeypatch.setattr(cst, "LIBCST_VERSION", "1.3.1"),
    "a version it cannot tell": lambda monkeypatch: monkeypatch.setattr(cst, "LIBCST_VERSION", "unknown"),
    "a node method not of the plain form": _call_visiting_its_fields_through_another_function,
    "visits calling other hooks": lambda monkeypatch: monkeypatch.setattr(cst.CSTNode, "visit", lambda self, visitor: self),
    "no tuple of assignment-like nodes": lambda monkeypatch: monkeypatch.setattr(
        scope_provider, "_ASSIGNMENT_LIKE_NODES", frozenset(scope_provider._ASSIGNMENT_LIKE_NODES)),
    "scopes depending on more providers": lambda monkeypatch: monkeypatch.setattr(
        ScopeProvider, "METADATA_DEPENDENCIES", (ExpressionContextProvider, PositionProvider)),
    "expression contexts decided for another node type": lambda monkeypatch: monkeypatch.setattr(
        ExpressionContextVisitor, "visit_Lambda", lambda self, node: True, raising=False),
    "a codegen state without its hooks": lambda monkeypatch: monkeypatch.delattr(CodegenState, "after_codegen"),
}


@pytest.mark.parametrize("change", list(CHANGED_LIBCSTS))
def test_the_check_rejects_a_libcst_unlike_the_one_the_internals_were_written_for(change, monkeypatch):
    CHANGED_LIBCSTS[change](monkeypatch)
    reason = internals_rejected()
    assert reason is not None and reason.startswith(f"LibCST {cst.LIBCST_VERSION}: expected that ")


def test_the_switch_sends_everything_to_libcsts_public_api(monkeypatch):
    monkeypatch.setenv(PUBLIC_API_SWITCH, "1")
    assert internals_rejected() == f"${PUBLIC_API_SWITCH} is 1"


# Before the tool loads: Call's method made to visit its fields through a wrapper, as a LibCST
# that changed its shape would, while LibCST itself still works.
CALL_METHOD_WRAPPED = """
import libcst
original = libcst.Call._visit_and_replace_children
def _visit_and_replace_children(self, visitor):
    return original(self, visitor)
libcst.Call._visit_and_replace_children = _visit_and_replace_children
"""


def test_a_libcst_rejected_at_load_is_used_through_its_public_api_with_the_same_results():
    rules = ("chat_completions_create", "untraced_result")
    changed, reference = _engine_run(False, CALL_METHOD_WRAPPED, rules), _engine_run(False, rules=rules)
    fallback, fast = _outcome(changed), _outcome(reference)
    assert fallback["uses_internals"] is False and fallback["ways"] == PUBLIC_WAYS
    assert "Call._visit_and_replace_children" in fallback["reason"]
    assert fast["uses_internals"] is True
    assert fallback["results"] and fallback["results"] == fast["results"]


# ----- No other module names LibCST's private parts

INTERNALS = ROOT / "migrator" / "libcst_internals.py"
# Every other Python file of the tool, its rules, tests and benchmark; this one tests the internals.
OTHER_SOURCES = sorted(
    path for folder in ("migrator", "rules", "tests", "bench") for path in (ROOT / folder).rglob("*.py")
    if path not in (INTERNALS, Path(__file__).resolve()) and ".venv" not in path.parts
)


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _private_libcst_attributes() -> set:
    """The private attributes libcst_internals.py reads or sets on objects that are not its own:
    every ``x._name`` but its own methods and what it sets on ``self``."""
    tree = ast.parse(INTERNALS.read_text(encoding="utf-8"))
    attributes = [node for node in ast.walk(tree) if isinstance(node, ast.Attribute) and _is_private(node.attr)]
    own = {
        node.attr for node in attributes
        if isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name) and node.value.id == "self"
    } | {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    return {node.attr for node in attributes} - own


def _libcst_names(tree: ast.Module) -> set:
    """The names a module binds to LibCST or to something imported from it."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names
                         if alias.name.split(".")[0] == "libcst")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "libcst":
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def _root(expression: ast.expr) -> str:
    while isinstance(expression, (ast.Attribute, ast.Subscript, ast.Call)):
        expression = expression.func if isinstance(expression, ast.Call) else expression.value
    return expression.id if isinstance(expression, ast.Name) else ""


def _uses_of_libcsts_private_parts(source: str, private_attributes: set) -> list:
    """Each import from a private LibCST module or of a private name, each read of a private
    attribute of LibCST's (by its name, on anything, or any private name on LibCST's objects),
    and each attribute of LibCST's set or replaced, with its line."""
    tree = ast.parse(source)
    libcst_names = _libcst_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names
                      if alias.name.startswith("libcst.") and any(map(_is_private, alias.name.split(".")))]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "libcst":
            if any(map(_is_private, node.module.split("."))):
                found.append((node.lineno, f"from {node.module}"))
            found += [(node.lineno, alias.name) for alias in node.names if _is_private(alias.name)]
        elif isinstance(node, ast.Attribute):
            if node.attr in private_attributes or (_is_private(node.attr) and _root(node) in libcst_names):
                found.append((node.lineno, node.attr))
            elif isinstance(node.ctx, (ast.Store, ast.Del)) and _root(node) in libcst_names:
                found.append((node.lineno, f"{node.attr} set"))
        elif isinstance(node, ast.Call) and node.args and _root(node.args[0]) in libcst_names and (
            isinstance(node.func, (ast.Name, ast.Attribute)) and getattr(node.func, "id", getattr(node.func, "attr", ""))
            in ("setattr", "delattr")
        ):
            found.append((node.lineno, f"{ast.unparse(node.args[0])} patched"))
    return found


def test_only_libcst_internals_names_libcsts_private_parts():
    private_attributes = _private_libcst_attributes()
    assert {"_visit_and_replace_children", "_computed"} <= private_attributes  # the scan finds what it must
    found = {
        path.relative_to(ROOT).as_posix(): uses for path in OTHER_SOURCES
        if (uses := _uses_of_libcsts_private_parts(path.read_text(encoding="utf-8"), private_attributes))
    }
    assert found == {}


@pytest.mark.parametrize(
    "source",
    [
        "from libcst._nodes.internal import CodegenState\n",
        "import libcst._nodes.internal\n",
        "from libcst import _nodes\n",
        "import libcst as cst\ncst.Module._codegen\n",
        "from libcst.metadata import scope_provider\nscope_provider._ASSIGNMENT_LIKE_NODES\n",
        "provider._computed\n",
        "import libcst as cst\ncst.CSTNode.visit = lambda self, visitor: self\n",
        "import libcst\nmonkeypatch.setattr(libcst.CSTNode, 'visit', None)\n",
    ],
)
def test_the_scan_finds_each_way_of_naming_libcsts_private_parts(source):
    assert _uses_of_libcsts_private_parts(source, _private_libcst_attributes())


def test_verbose_says_when_the_analysis_ran_through_libcsts_public_api(tmp_path):
    module = tmp_path / "ask.py"
    module.write_text("from openai import OpenAI\nr = OpenAI().chat.completions.create(model='m', messages=[])\n")

    def verbose_check(switch: str) -> str:
        env = {**os.environ, PUBLIC_API_SWITCH: switch, "PYTHONPATH": str(ROOT)}
        run = subprocess.run([sys.executable, "-m", "migrator", "check", "-v", "--no-cache", str(module)],
                             cwd=tmp_path, env=env, capture_output=True, text=True)
        return run.stderr

    assert f"public API, about twice as slow (${PUBLIC_API_SWITCH} is 1)" in verbose_check("1")
    assert "public API" not in verbose_check("0")
