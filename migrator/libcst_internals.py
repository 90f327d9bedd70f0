"""Every use of LibCST's internals, checked when this module loads, with LibCST's public API
as the fallback.

The analysis pays LibCST only for what it uses, by reaching into it in three places:

Children and visits. ``CSTNode.children`` collects the children by running the private
``_visit_and_replace_children`` with a visitor, and ``CSTNode.visit`` runs it for every node a
visitor walks: each time it constructs (and validates) a copy of the node, which a visitor that
changes nothing throws away. Walking a module that way costs about as much as parsing it. What
that method visits, and in what order, is written out plainly in each node class: ``return
Call(func=visit_required(self, "func", self.func, visitor), ...)``. This module reads that order
from the method's source once per class and then reads the fields directly, several times
faster. A class whose method does anything else, or whose source cannot be read, keeps LibCST's
own ways.

Positions. ``PositionProvider`` prints the module and, for every token, splits it on newlines
to keep a line and a column, and for every node builds a ``CodeRange`` and enters a
generator-based context manager: several times what printing costs, for the handful of nodes
a run reports. ``Positions`` prints the module once with a subclass of LibCST's private
``CodegenState``, keeping each node's span as two token indices, and turns a span into lines and
columns only when its node is asked for. The spans are the provider's own: the
whitespace-inclusive span of every node, replaced by the syntactic one where a node records it
(hoisted from ``start_node`` / ``end_node`` as LibCST does).

Scopes. ``ScopeProvider`` and the ``ExpressionContextProvider`` it depends on each do all their
work in ``visit_Module``, with a walk of their own; resolved through a ``MetadataWrapper``, each
runs inside a batched visitor that then walks the whole module once more, calling nothing.
``resolve_scopes`` calls ``ScopeProvider`` directly and reads what it computed (its private
``_computed``), which halves the cost, and lets it walk the module without rebuilding every
node, which takes about a third off again. The expression contexts it reads are decided by
``expression_contexts``, from a table of the rules of LibCST's visitor but in a plain loop, for
a fraction of what the visitor costs; and the test the scope visitor makes of every node it
leaves (against its private ``_ASSIGNMENT_LIKE_NODES``) is answered once per node type.

When this module loads it checks that the installed LibCST is one of the versions this was
written against (``COVERED_VERSIONS``, the bound in pyproject.toml) and that every fact the
three rely on still holds (``_FACTS``). If one does not, or ``$MIGRATOR_LIBCST_PUBLIC_API`` is
``1``, ``children``, ``Positions`` and ``resolve_scopes`` use LibCST's public API instead (plain
``node.children``, a ``MetadataWrapper``, no patches): the same answers, only slower.
``PUBLIC_API_REASON`` says why. Tests check, node for node, that both give what LibCST gives,
and that the engine's output and findings for every fixture are the same either way. No other
module names a private part of LibCST.
"""

from __future__ import annotations

import ast
import inspect  # loaded by LibCST already
import linecache
import os
import re
import textwrap
from contextlib import contextmanager
from functools import partial
from typing import Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import libcst as cst
from libcst._nodes import internal
from libcst._nodes.internal import CodegenState
from libcst.metadata import (
    CodePosition,
    CodeRange,
    ExpressionContext,
    ExpressionContextProvider,
    MetadataWrapper,
    PositionProvider,
    Scope,
    ScopeProvider,
    expression_context_provider,
    scope_provider,
)

# The LibCST versions whose internals this module was written against: from the first, up to
# but not including the second (pyproject.toml's bound; tests keep the two the same).
COVERED_VERSIONS = ((1, 4), (1, 10))
PUBLIC_API_SWITCH = "MIGRATOR_LIBCST_PUBLIC_API"
NEWLINE = re.compile(r"\r\n?|\n")  # what LibCST counts as a line break

# ----- Children and visits

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


def children_from_fields(node: cst.CSTNode) -> Sequence[cst.CSTNode]:
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


# ----- Scopes


def scopes_without_wrapper(module: cst.Module) -> Mapping[cst.CSTNode, Optional[Scope]]:
    """What ``MetadataWrapper(module).resolve(ScopeProvider)`` gives."""
    provider = ScopeProvider()
    provider.metadata = {ExpressionContextProvider: expression_contexts(module)}
    with visits_without_rebuilding(), _assignment_like_nodes_told_by_type():
        provider.visit_Module(module)
    return provider._computed


class _TypeCachedCheck(type):
    """``isinstance(node, (Cls,))`` answering what ``isinstance(node, classes)`` does, learnt
    once per node type."""

    classes: Tuple[type, ...]
    answers: Dict[type, bool]

    def __instancecheck__(cls, instance: object) -> bool:
        answer = cls.answers.get(type(instance))
        if answer is None:
            answer = cls.answers[type(instance)] = isinstance(instance, cls.classes)
        return answer


@contextmanager
def _assignment_like_nodes_told_by_type() -> Iterator[None]:
    """The scope visitor tests, as it leaves each node, ``isinstance(node, _ASSIGNMENT_LIKE_NODES)``:
    eighteen abstract classes, each asked through a Python method, for a tenth of what resolving
    scopes costs. Inside, the tuple holds one class that remembers the answer for each node type."""
    classes = scope_provider._ASSIGNMENT_LIKE_NODES
    scope_provider._ASSIGNMENT_LIKE_NODES = (_TypeCachedCheck("AssignmentLike", (), {"classes": classes, "answers": {}}),)
    try:
        yield
    finally:
        scope_provider._ASSIGNMENT_LIKE_NODES = classes


STORE, LOAD, DEL = ExpressionContext.STORE, ExpressionContext.LOAD, ExpressionContext.DEL


def expression_contexts(module: cst.Module) -> Dict[cst.CSTNode, ExpressionContext]:
    """What ``ExpressionContextProvider`` gives: whether each name, attribute, subscript, tuple,
    list and starred element is read, assigned or deleted. Its visitor decides that from the
    node types on the way down; this makes the same decisions in a loop over the nodes, without
    a visitor's hooks around each (a third of what resolving scopes costs)."""
    found: Dict[cst.CSTNode, ExpressionContext] = {}
    # Sibling nodes in the same context, as one entry: most nodes pass theirs on unchanged.
    pending: List[Tuple[Sequence[cst.CSTNode], ExpressionContext]] = [((module,), LOAD)]
    while pending:
        nodes, context = pending.pop()
        for node in nodes:
            kind = type(node)
            if kind in _MARKED:
                found[node] = context
            parts = _CONTEXT_PARTS.get(kind)
            if parts is None:
                pending.append((children_from_fields(node), context))
                continue
            for field, part_context in parts:
                value = getattr(node, field)  # a node, a sequence of them, or None
                inner = context if part_context is None else part_context
                if isinstance(value, (tuple, list)):
                    pending.append((value, inner))
                elif value is not None:
                    pending.append(((value,), inner))
    return found


# The nodes given a context: that of the part of the tree they are in.
_MARKED = frozenset({cst.Name, cst.Attribute, cst.Subscript, cst.Tuple, cst.List, cst.StarredElement})
# By node type, where ExpressionContextVisitor does not simply visit every child in the same
# context: the fields it visits, each in the context it gives (None: the same one). What is not
# listed is not visited: an attribute's name, a function's type parameters.
_CONTEXT_PARTS: Dict[type, Tuple[Tuple[str, Optional[ExpressionContext]], ...]] = {
    cst.Name: (),
    cst.Assign: (("targets", STORE), ("value", None)),
    cst.AnnAssign: (("target", STORE), ("annotation", None), ("value", None)),
    cst.AugAssign: (("target", STORE), ("value", None)),
    cst.NamedExpr: (("target", STORE), ("value", None)),
    cst.AsName: (("name", STORE),),
    cst.CompFor: (("target", STORE), ("iter", None), ("ifs", None), ("inner_for_in", None)),
    cst.For: (("target", STORE), ("iter", None), ("body", None), ("orelse", None)),
    cst.Del: (("target", DEL),),
    cst.Attribute: (("value", LOAD),),
    cst.Subscript: (("value", LOAD), ("slice", LOAD)),
    cst.ClassDef: (("name", STORE), ("body", None), ("bases", None), ("keywords", None), ("decorators", None)),
    cst.FunctionDef: (("name", STORE), ("params", None), ("body", None), ("decorators", None), ("returns", None)),
    cst.Param: (("name", STORE), ("annotation", None), ("default", None)),
}


# ----- Positions


class TokenPositions(Mapping[cst.CSTNode, CodeRange]):
    """By node of ``module``: its ``CodeRange``, computed on first use."""

    def __init__(self, module: cst.Module) -> None:
        state = _SpanRecorder(default_indent=module.default_indent, default_newline=module.default_newline)
        module._codegen(state)
        self._spans = state.spans
        self._tokens = state.tokens
        self._places: Optional[List[Tuple[int, int]]] = None

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        start, end = self._spans[node]
        if self._places is None:
            self._places = token_places(self._tokens, 1)
        return CodeRange(CodePosition(*self._places[start]), CodePosition(*self._places[end]))

    def __iter__(self) -> Iterator[cst.CSTNode]:
        return iter(self._spans)

    def __len__(self) -> int:
        return len(self._spans)


def token_places(tokens: Sequence[str], line: int) -> List[Tuple[int, int]]:
    """(line, column) before each token, printed from the start of ``line``, and after the last one."""
    places = []
    column = 0
    for token in tokens:
        places.append((line, column))
        if "\n" in token or "\r" in token:
            segments = NEWLINE.split(token)
            line += len(segments) - 1
            column = len(segments[-1])
        else:
            column += len(token)
    places.append((line, column))
    return places


class StatementPositions(Mapping[cst.CSTNode, CodeRange]):
    """By node of ``module`` (parsed from ``source``): its ``CodeRange``, from a printing of the
    top-level statement that holds it alone, placed at the line Python's own parser gives that
    statement. A module is asked about a few of its nodes, and printing all of it to place them
    cost a fifth of its analysis. Each statement printed is compared with the source where it
    is placed; one not found there (a parser that places it otherwise, one that cannot read the
    module), and a node outside every statement (in the module's header or footer), are placed
    by printing the whole module instead."""

    def __init__(self, module: cst.Module, source: bytes, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> None:
        self._module = module
        self._source = source
        self._parents = parents
        self._first_lines: Optional[Dict[cst.CSTNode, int]] = None  # of each statement, leading lines included
        self._text = ""
        self._line_offsets: List[int] = []
        self._printed: Dict[cst.CSTNode, Optional[Tuple[Dict[cst.CSTNode, Tuple[int, int]], List[Tuple[int, int]]]]] = {}
        self._whole: Optional[TokenPositions] = None

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        statement = node
        while statement is not None and self._parents.get(statement) is not self._module:
            statement = self._parents.get(statement)
        printed = self._printed_in_place(statement) if statement is not None else None
        if printed is None:
            return self._whole_module()[node]
        spans, places = printed
        start, end = spans[node]
        return CodeRange(CodePosition(*places[start]), CodePosition(*places[end]))

    def __iter__(self) -> Iterator[cst.CSTNode]:
        return iter(self._whole_module())

    def __len__(self) -> int:
        return len(self._whole_module())

    def _whole_module(self) -> TokenPositions:
        if self._whole is None:
            self._whole = TokenPositions(self._module)
        return self._whole

    def _printed_in_place(self, statement: cst.CSTNode) -> Optional[Tuple[Dict[cst.CSTNode, Tuple[int, int]], List[Tuple[int, int]]]]:
        """The spans of the statement's nodes and the places of its tokens; None when it is not
        found in the source where it is placed."""
        if statement not in self._printed:
            self._printed[statement] = None
            line = self._statement_lines().get(statement)
            if line is not None and line <= len(self._line_offsets):
                state = _SpanRecorder(default_indent=self._module.default_indent, default_newline=self._module.default_newline)
                statement._codegen(state)
                printed = "".join(state.tokens)
                offset = self._line_offsets[line - 1]
                if self._text.startswith(printed, offset):
                    self._printed[statement] = (state.spans, token_places(state.tokens, line))
        return self._printed[statement]

    def _statement_lines(self) -> Dict[cst.CSTNode, int]:
        """The line each top-level statement starts on, its leading lines included; none when
        Python's parser cannot read the module, or reads other statements."""
        if self._first_lines is None:
            self._first_lines = {}
            try:
                self._text = self._source.decode(self._module.encoding)
                parsed = iter(ast.parse(self._source).body)
            except (SyntaxError, ValueError, UnicodeDecodeError, LookupError, MemoryError, RecursionError):
                return self._first_lines
            self._line_offsets = [0, *(found.end() for found in NEWLINE.finditer(self._text))]
            lines = {}
            for statement in self._module.body:
                parts = [next(parsed, None) for _ in range(len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1)]
                if parts[-1] is None:
                    return self._first_lines
                first = min([parts[0].lineno, *(decorator.lineno for decorator in getattr(parts[0], "decorator_list", ()))])
                decorators = getattr(statement, "decorators", ())
                leading = len(statement.leading_lines) + (len(decorators[0].leading_lines) if decorators else 0)
                lines[statement] = first - leading
            if next(parsed, None) is None:
                self._first_lines = lines
        return self._first_lines


class _SpanRecorder(CodegenState):
    """Prints a module keeping, for each node, the indices of its first and past-last tokens."""

    def __init__(self, default_indent: str, default_newline: str) -> None:
        super().__init__(default_indent=default_indent, default_newline=default_newline)
        self.spans: Dict[cst.CSTNode, Tuple[int, int]] = {}
        self._starts: List[int] = []

    def before_codegen(self, node: cst.CSTNode) -> None:
        self._starts.append(len(self.tokens))

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self._starts.pop()
        if node not in self.spans:  # a syntactic span, recorded while printing the node, wins
            self.spans[node] = (start, len(self.tokens))

    def pop_trailing_newline(self) -> None:
        # LibCST's position state keeps counting past the newline a module without one drops
        # at its end; keeping the token keeps the same count.
        pass

    def record_syntactic_position(  # type: ignore[override]
        self, node: cst.CSTNode, *, start_node: Optional[cst.CSTNode] = None, end_node: Optional[cst.CSTNode] = None
    ) -> "_SyntacticSpan":
        return _SyntacticSpan(self, node, start_node, end_node)


class _SyntacticSpan:
    """The context in which a node prints the tokens of its syntactic span (a plain class: a
    generator-based context manager per node costs more than the printing)."""

    __slots__ = ("recorder", "node", "start_node", "end_node", "start")

    def __init__(
        self, recorder: _SpanRecorder, node: cst.CSTNode, start_node: Optional[cst.CSTNode], end_node: Optional[cst.CSTNode]
    ) -> None:
        self.recorder = recorder
        self.node = node
        self.start_node = start_node
        self.end_node = end_node
        self.start = 0

    def __enter__(self) -> None:
        self.start = len(self.recorder.tokens)

    def __exit__(self, *exception: object) -> None:
        spans = self.recorder.spans
        start = spans[self.start_node][0] if self.start_node is not None else self.start
        end = spans[self.end_node][1] if self.end_node is not None else len(self.recorder.tokens)
        spans[self.node] = (start, end)


# ----- LibCST's public API: the same answers, slower


def libcsts_children(node: cst.CSTNode) -> Sequence[cst.CSTNode]:
    return node.children


def libcsts_scopes(module: cst.Module) -> Mapping[cst.CSTNode, Optional[Scope]]:
    return MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)


def libcsts_positions(module: cst.Module) -> Mapping[cst.CSTNode, CodeRange]:
    return MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)


# ----- The check made when this module loads


def _covered_version() -> bool:
    found = re.match(r"(\d+)\.(\d+)", cst.LIBCST_VERSION)  # "unknown" where LibCST cannot tell
    return found is not None and COVERED_VERSIONS[0] <= (int(found[1]), int(found[2])) < COVERED_VERSIONS[1]


def _names_in(function: object) -> Tuple[str, ...]:
    """The global and attribute names ``function``'s code reads."""
    return function.__code__.co_names  # type: ignore[attr-defined]


def _calls_attribute_hooks(helper: str) -> bool:
    names = set(_names_in(getattr(internal, helper)))
    # through another helper: visit_sequence returns tuple(visit_iterable(...))
    names.update(*(_names_in(getattr(internal, other)) for other in names & _VISIT_HELPERS))
    return {"on_visit_attribute", "visit", "on_leave_attribute"} <= names


def _hooked_node_classes(visitor_class: type) -> frozenset:
    return frozenset(getattr(cst, name[len("visit_"):]) for name in vars(visitor_class) if name.startswith("visit_"))


# What the fast ways rely on, each said as what is expected of LibCST. The first that does not
# hold (or raises) sends every caller to LibCST's public API.
_FACTS: Tuple[Tuple[str, Callable[[], bool]], ...] = (
    ("its version is one this module covers", _covered_version),
    (  # _child_fields reads this order from the source of Call._visit_and_replace_children
        "Call._visit_and_replace_children visits lpar, func, whitespace, args and rpar, in the plain form",
        lambda: _child_fields(cst.Call)
        == (("lpar", True), ("func", True), ("whitespace_after_func", True), ("whitespace_before_args", True),
            ("args", True), ("rpar", True)),
    ),
    (  # _visit does what CSTNode.visit and the visit helpers do
        "CSTNode.visit calls on_visit, _visit_and_replace_children and on_leave",
        lambda: {"on_visit", "_visit_and_replace_children", "on_leave"} <= set(_names_in(cst.CSTNode.visit)),
    ),
    (
        "each visit helper calls on_visit_attribute, visit and on_leave_attribute, itself or through another",
        lambda: all(_calls_attribute_hooks(name) for name in _VISIT_HELPERS),
    ),
    (  # _assignment_like_nodes_told_by_type replaces the tuple the scope visitor reads
        "ScopeVisitor.on_leave tests nodes against the tuple scope_provider._ASSIGNMENT_LIKE_NODES",
        lambda: "_ASSIGNMENT_LIKE_NODES" in _names_in(scope_provider.ScopeVisitor.on_leave)
        and isinstance(scope_provider._ASSIGNMENT_LIKE_NODES, tuple)
        and all(issubclass(cls, cst.CSTNode) for cls in scope_provider._ASSIGNMENT_LIKE_NODES),
    ),
    (  # scopes_without_wrapper gives the provider its dependency and reads what it computed
        "ScopeProvider depends on ExpressionContextProvider alone, reads it from .metadata, keeps its results in ._computed",
        lambda: ScopeProvider.METADATA_DEPENDENCIES == (ExpressionContextProvider,)
        and "visit_Module" in vars(ScopeProvider)
        and "metadata" in _names_in(cst.MetadataDependent.get_metadata)
        and isinstance(ScopeProvider()._computed, dict),
    ),
    (  # _CONTEXT_PARTS and _MARKED copy the rules of ExpressionContextVisitor, node type by node type
        "ExpressionContextVisitor decides contexts for the node types of this module's table",
        lambda: _hooked_node_classes(expression_context_provider.ExpressionContextVisitor) == _MARKED | set(_CONTEXT_PARTS),
    ),
    (  # _SpanRecorder overrides these hooks of the state Module._codegen prints with
        "CodegenState keeps tokens and calls before_codegen, after_codegen and record_syntactic_position(start_node, end_node)",
        lambda: "tokens" in CodegenState.__dataclass_fields__  # type: ignore[attr-defined]
        and all(callable(getattr(CodegenState, name, None))
                for name in ("before_codegen", "after_codegen", "pop_trailing_newline"))
        and {"start_node", "end_node"} <= set(inspect.signature(CodegenState.record_syntactic_position).parameters)
        and {"before_codegen", "after_codegen"} <= set(_names_in(cst.CSTNode._codegen)),
    ),
)


def internals_rejected() -> Optional[str]:
    """Why LibCST's internals are not to be used here, or None when they can be."""
    if os.environ.get(PUBLIC_API_SWITCH) == "1":
        return f"${PUBLIC_API_SWITCH} is 1"
    for fact, holds in _FACTS:
        try:
            held = holds()
        except Exception:  # a name moved or gone: LibCST changed in a way not foreseen
            held = False
        if not held:
            return f"LibCST {cst.LIBCST_VERSION}: expected that {fact}"
    return None


PUBLIC_API_REASON = internals_rejected()
USES_INTERNALS = PUBLIC_API_REASON is None

# What the rest of the tool calls, chosen once.
children = children_from_fields if USES_INTERNALS else libcsts_children
resolve_scopes = scopes_without_wrapper if USES_INTERNALS else libcsts_scopes


class Positions(Mapping[cst.CSTNode, CodeRange]):
    """By node of ``module``: its ``CodeRange``. With the ``source`` it was parsed from and the
    ``parents`` of its nodes, a node is placed by printing only the statement that holds it."""

    def __init__(
        self, module: cst.Module, source: Optional[bytes] = None, parents: Optional[Mapping[cst.CSTNode, cst.CSTNode]] = None
    ) -> None:
        if not USES_INTERNALS:
            self._ranges: Mapping[cst.CSTNode, CodeRange] = libcsts_positions(module)
        elif source is not None and parents is not None:
            self._ranges = StatementPositions(module, source, parents)
        else:
            self._ranges = TokenPositions(module)

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        return self._ranges[node]

    def __iter__(self) -> Iterator[cst.CSTNode]:
        return iter(self._ranges)

    def __len__(self) -> int:
        return len(self._ranges)
