"""LibCST's position and scope metadata, for a fraction of what its providers cost.

Positions: ``PositionProvider`` prints the module and, for every token, splits it on newlines
to keep a line and a column, and for every node builds a ``CodeRange`` and enters a
generator-based context manager: several times what printing costs, for the handful of nodes
a run reports. ``Positions`` prints the module once keeping each node's span as two token
indices, and turns a span into lines and columns only when its node is asked for. The spans
are the provider's own: the whitespace-inclusive span of every node, replaced by the syntactic
one where a node records it (hoisted from ``start_node`` / ``end_node`` as LibCST does).

Scopes: ``ScopeProvider`` and the ``ExpressionContextProvider`` it depends on each do all their
work in ``visit_Module``, with a walk of their own; resolved through a ``MetadataWrapper``, each
runs inside a batched visitor that then walks the whole module once more, calling nothing.
``resolve_scopes`` calls ``ScopeProvider`` directly, which halves the cost, and lets it walk the
module without rebuilding every node (``migrator.traversal``), which takes about a third off
again. The expression contexts it reads are decided by ``expression_contexts``, from the same
rules as LibCST's visitor but in a plain loop, for a fraction of what the visitor costs; and
the test the scope visitor makes of every node it leaves is answered once per node type.

Tests check that both give what LibCST's providers give, node for node.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import (
    CodePosition,
    CodeRange,
    ExpressionContext,
    ExpressionContextProvider,
    Scope,
    ScopeProvider,
    scope_provider,
)

from migrator.traversal import children, visits_without_rebuilding

NEWLINE = re.compile(r"\r\n?|\n")  # what LibCST counts as a line break


def resolve_scopes(module: cst.Module) -> Mapping[cst.CSTNode, Optional[Scope]]:
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
    classes = getattr(scope_provider, "_ASSIGNMENT_LIKE_NODES", None)
    if not isinstance(classes, tuple):
        yield  # another LibCST: its own test, however it spells it
        return
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
                pending.append((children(node), context))
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


class Positions(Mapping[cst.CSTNode, CodeRange]):
    """By node of ``module``: its ``CodeRange``, computed on first use."""

    def __init__(self, module: cst.Module) -> None:
        state = _SpanRecorder(default_indent=module.default_indent, default_newline=module.default_newline)
        module._codegen(state)
        self._spans = state.spans
        self._tokens = state.tokens
        self._places: Optional[List[Tuple[int, int]]] = None

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        start, end = self._spans[node]
        places = self._places if self._places is not None else self._token_places()
        return CodeRange(CodePosition(*places[start]), CodePosition(*places[end]))

    def __iter__(self) -> Iterator[cst.CSTNode]:
        return iter(self._spans)

    def __len__(self) -> int:
        return len(self._spans)

    def _token_places(self) -> List[Tuple[int, int]]:
        """(line, column) before each token, and after the last one."""
        places = []
        line, column = 1, 0
        for token in self._tokens:
            places.append((line, column))
            if "\n" in token or "\r" in token:
                segments = NEWLINE.split(token)
                line += len(segments) - 1
                column = len(segments[-1])
            else:
                column += len(token)
        places.append((line, column))
        self._places = places
        return places


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
