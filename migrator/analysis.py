"""Reads a module: finds the legacy calls, proves who receives them, and follows their results.

Nothing here rewrites code. The planner (``migrator.planner``) asks the rules what to do with
the call sites and result uses found here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Iterator, List, Optional, Set, Tuple, Union

import libcst as cst
import libcst.matchers as m
from libcst._metadata_dependent import LazyValue
from libcst.helpers import get_full_name_for_node, parse_template_expression
from libcst.metadata import (
    Assignment,
    CodeRange,
    MetadataWrapper,
    ParentNodeProvider,
    PositionProvider,
    QualifiedNameProvider,
    ScopeProvider,
)

CLIENT_CLASSES: FrozenSet[str] = frozenset(
    f"{module}.{name}"
    for module in ("openai", "openai._client", "openai.lib.azure")
    for name in ("OpenAI", "AsyncOpenAI", "AzureOpenAI", "AsyncAzureOpenAI")
)
# Methods of a client that return another client of the same kind.
CLIENT_COPY_METHODS = frozenset({"with_options", "copy"})
# Resource accessors that wrap a method without changing what it is called with.
RESPONSE_WRAPPERS = frozenset({"with_raw_response", "with_streaming_response"})
# The legacy resource paths, longest first, and the kind of call each names.
LEGACY_RESOURCES: Tuple[Tuple[Tuple[str, ...], str], ...] = (
    (("beta", "chat", "completions"), "chat.completions"),
    (("chat", "completions"), "chat.completions"),
    (("completions",), "completions"),
)

CALL = "()"  # the path segment for calling what the path has reached: ``raw.parse()``
PathSegment = Union[str, int]


@dataclass
class CallSite:
    """One call of a legacy method, e.g. ``client.chat.completions.create(...)``."""

    call: cst.Call
    kind: str  # "chat.completions.create", "completions.create", ...
    receiver: cst.BaseExpression  # the client expression
    resource: Tuple[str, ...]  # what sits between receiver and method: ("beta", "chat", "completions")
    wrapper: Optional[str]  # "with_raw_response" / "with_streaming_response"
    traced: bool  # the receiver is provably an OpenAI client
    position: CodeRange
    statement: cst.CSTNode  # the statement the call belongs to
    analysis: "ModuleAnalysis"  # for rules that need to ask more about the module

    def argument(self, keyword: str) -> Optional[cst.Arg]:
        for arg in self.call.args:
            if arg.keyword is not None and arg.keyword.value == keyword:
                return arg
        return None

    def has_argument(self, keyword: str) -> bool:
        return self.argument(keyword) is not None


@dataclass
class ResultUse:
    """A read of a call's result: ``resp.choices[0].message.content`` is the path
    ``("choices", 0, "message", "content")`` on the base ``resp``."""

    base: cst.BaseExpression
    path: Tuple[PathSegment, ...]
    chain: Tuple[cst.BaseExpression, ...]  # chain[i] is the node reached after i + 1 segments
    parent: Optional[cst.CSTNode]  # what contains the outermost node
    grandparent: Optional[cst.CSTNode]
    position: CodeRange
    code: str  # the source of the outermost node, for messages

    @property
    def outer(self) -> cst.BaseExpression:
        return self.chain[-1] if self.chain else self.base

    def startswith(self, *prefix: PathSegment) -> bool:
        return self.path[: len(prefix)] == prefix

    def node_at(self, length: int) -> cst.BaseExpression:
        return self.chain[length - 1] if length else self.base

    def replace(self, length: int, template: str, target: Optional[cst.CSTNode] = None):
        """Rewrite the first ``length`` segments with ``template`` (``{base}`` is the base).

        ``target`` is the node to replace when it is larger than the chain (a comparison).
        """
        from migrator.rule import UseRewrite

        target = target if target is not None else self.node_at(length)

        def build(updated: cst.CSTNode) -> cst.CSTNode:
            base = _descend(updated, self.node_at(length), target, length)
            return parse_template_expression(template, base=base)

        return UseRewrite(target=target, build=build)


def _descend(updated: cst.CSTNode, chain_node: cst.CSTNode, target: cst.CSTNode, length: int):
    """Find the (updated) base expression ``length`` segments below ``chain_node``."""
    if target is not chain_node:
        # The target contains the chain; the chain is the left side of a comparison.
        assert isinstance(updated, cst.Comparison)
        updated = updated.left
    node = updated
    for _ in range(length):
        if isinstance(node, cst.Attribute) or isinstance(node, cst.Subscript):
            node = node.value
        elif isinstance(node, cst.Call):
            node = node.func
        else:  # pragma: no cover - the chain was built from these three node types
            raise AssertionError(f"unexpected chain node {type(node).__name__}")
    return node


@dataclass
class Escape:
    """The result goes where it cannot be followed; the call must stay as it is."""

    reason: str
    position: CodeRange


@dataclass
class ResultTrace:
    uses: List[ResultUse] = field(default_factory=list)
    escapes: List[Escape] = field(default_factory=list)
    # Functions whose return value changes type when the call is migrated, and which code in
    # other modules could also call.
    exported_functions: List[str] = field(default_factory=list)


class ModuleAnalysis:
    """Metadata-backed questions about one module."""

    METADATA = (ParentNodeProvider, PositionProvider, QualifiedNameProvider, ScopeProvider)

    def __init__(self, wrapper: MetadataWrapper) -> None:
        self.wrapper = wrapper
        self.module = wrapper.module
        self.parents = wrapper.resolve(ParentNodeProvider)
        self.positions = wrapper.resolve(PositionProvider)
        self.qualified_names = wrapper.resolve(QualifiedNameProvider)
        self.scopes = wrapper.resolve(ScopeProvider)
        self.imports_openai = _imports_openai(self.module)

    # -- call sites ---------------------------------------------------------------------

    def call_sites(self) -> List[CallSite]:
        finder = _CallFinder()
        self.module.visit(finder)
        sites = []
        for call, receiver, resource, wrapper, kind in finder.found:
            sites.append(
                CallSite(
                    call=call,
                    kind=kind,
                    receiver=receiver,
                    resource=resource,
                    wrapper=wrapper,
                    traced=self.is_openai_client(receiver),
                    position=self.positions[call],
                    statement=self.enclosing_statement(call),
                    analysis=self,
                )
            )
        return sites

    def enclosing_statement(self, node: cst.CSTNode) -> cst.CSTNode:
        while not isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            node = self.parents[node]
        return node

    # -- receivers ----------------------------------------------------------------------

    def qualified(self, node: cst.CSTNode) -> Set[str]:
        names = self.qualified_names.get(node, ())
        if isinstance(names, LazyValue):  # the provider computes names on first use
            names = names()
        return {q.name for q in names}

    def is_openai_client(self, expr: cst.BaseExpression, _seen: Optional[Set[int]] = None) -> bool:
        """True when ``expr`` is provably an OpenAI client (or the ``openai`` module)."""
        seen = _seen if _seen is not None else set()
        if id(expr) in seen:
            return False
        seen.add(id(expr))
        if isinstance(expr, cst.Name):
            if "openai" in self.qualified(expr):
                return True
            return self._name_is_client(expr, seen)
        if isinstance(expr, cst.Call):
            if self.qualified(expr.func) & CLIENT_CLASSES:
                return True
            func = expr.func
            return (
                isinstance(func, cst.Attribute)
                and func.attr.value in CLIENT_COPY_METHODS
                and self.is_openai_client(func.value, seen)
            )
        if isinstance(expr, cst.Attribute) and m.matches(expr.value, m.Name("self")):
            return self._self_attribute_is_client(expr, seen)
        return False

    def _is_client_annotation(self, annotation: cst.Annotation) -> bool:
        node = annotation.annotation
        if isinstance(node, cst.Subscript) and "typing.Optional" in self.qualified(node.value):
            elements = node.slice
            if len(elements) == 1 and isinstance(elements[0].slice, cst.Index):
                node = elements[0].slice.value
        return bool(self.qualified(node) & CLIENT_CLASSES)

    def _name_is_client(self, name: cst.Name, seen: Set[int]) -> bool:
        scope = self.scopes.get(name)
        if scope is None:
            return False
        assignments = [a for a in scope[name.value] if isinstance(a, Assignment)]
        if not assignments or len(assignments) != len(scope[name.value]):
            return False
        return all(self._assignment_is_client(a, seen) for a in assignments)

    def _assignment_is_client(self, assignment: Assignment, seen: Set[int]) -> bool:
        node = assignment.node
        if isinstance(node, cst.Param):
            return node.annotation is not None and self._is_client_annotation(node.annotation)
        if not isinstance(node, cst.Name):
            return False
        parent = self.parents.get(node)
        if isinstance(parent, cst.AssignTarget):
            statement = self.parents[parent]
            return isinstance(statement, cst.Assign) and self.is_openai_client(statement.value, seen)
        if isinstance(parent, cst.AnnAssign):
            if self._is_client_annotation(parent.annotation):
                return True
            return parent.value is not None and self.is_openai_client(parent.value, seen)
        if isinstance(parent, cst.AsName):
            item = self.parents[parent]
            return isinstance(item, cst.WithItem) and self.is_openai_client(item.item, seen)
        return False

    def _self_attribute_is_client(self, expr: cst.Attribute, seen: Set[int]) -> bool:
        cls = self.enclosing(expr, cst.ClassDef)
        if cls is None:
            return False
        values: List[cst.BaseExpression] = []
        annotated = False
        attribute = expr.attr.value
        for node in _walk(cls.body):
            if isinstance(node, cst.AssignTarget) and m.matches(
                node.target, m.Attribute(value=m.Name("self"), attr=m.Name(attribute))
            ):
                values.append(self.parents[node].value)
            elif isinstance(node, cst.AnnAssign) and m.matches(
                node.target, m.Name(attribute) | m.Attribute(value=m.Name("self"), attr=m.Name(attribute))
            ):
                if self._is_client_annotation(node.annotation):
                    annotated = True
                elif node.value is not None:
                    values.append(node.value)
        if annotated and not values:
            return True
        return bool(values) and all(self.is_openai_client(v, seen) for v in values)

    def enclosing(self, node: cst.CSTNode, kind: type) -> Optional[cst.CSTNode]:
        node = self.parents.get(node)
        while node is not None and not isinstance(node, kind):
            node = self.parents.get(node)
        return node

    # -- results ------------------------------------------------------------------------

    def trace_result(self, value: cst.BaseExpression) -> ResultTrace:
        """Every read of ``value`` (a call's result), followed through names and returns."""
        trace = ResultTrace()
        self._trace_value(value, trace, visited=set())
        return trace

    def _trace_value(self, node: cst.BaseExpression, trace: ResultTrace, visited: Set[int]) -> None:
        parent = self.parents.get(node)
        if isinstance(parent, cst.Await):
            node, parent = parent, self.parents.get(parent)
        use = self._use_from(node)
        if use.path:
            trace.uses.append(use)
            return
        if isinstance(parent, cst.Expr):
            return  # the result is thrown away
        if isinstance(parent, (cst.Assign, cst.AnnAssign)) and parent.value is node:
            self._trace_binding(parent, trace, visited)
            return
        if isinstance(parent, cst.Return):
            self._trace_return(parent, trace, visited)
            return
        trace.uses.append(use)  # a bare use: the rules decide (a stream loop, say)

    def _trace_binding(self, statement, trace: ResultTrace, visited: Set[int]) -> None:
        targets = (
            [t.target for t in statement.targets] if isinstance(statement, cst.Assign) else [statement.target]
        )
        if len(targets) != 1 or not isinstance(targets[0], cst.Name):
            trace.escapes.append(Escape("its result is assigned to something other than a plain name", self.positions[statement]))
            return
        target = targets[0]
        assignment = self._assignment_of(target, target.value)
        if assignment is None:
            trace.escapes.append(Escape(f"`{target.value}` could not be followed", self.positions[target]))
            return
        for access in sorted(assignment.references, key=lambda a: self._order(a.node)):
            others = [
                other for other in access.referents
                if other is not assignment and not self._is_harmless_assignment(other)
            ]
            if others:
                trace.escapes.append(
                    Escape(f"`{target.value}` may also hold a value assigned elsewhere", self.positions[access.node])
                )
                continue
            use = self._use_from(access.node)
            if not use.path and isinstance(use.parent, cst.Return):
                self._trace_return(use.parent, trace, visited)
            else:
                trace.uses.append(use)

    def _assignment_of(self, target: cst.CSTNode, name: str) -> Optional[Assignment]:
        """The scope's record of ``target`` (a Name assigned to, or a def) binding ``name``."""
        scope = self.scopes.get(target)
        if scope is None:
            return None
        for assignment in scope.assignments[name]:
            if isinstance(assignment, Assignment) and assignment.node is target:
                return assignment
        return None

    def _is_harmless_assignment(self, assignment) -> bool:
        """``resp = None`` before a loop does not make ``resp`` something else to read."""
        node = getattr(assignment, "node", None)
        parent = self.parents.get(node) if node is not None else None
        if isinstance(parent, cst.AssignTarget):
            return m.matches(self.parents[parent].value, m.Name("None"))
        return False

    def _trace_return(self, statement: cst.Return, trace: ResultTrace, visited: Set[int]) -> None:
        function = self.enclosing(statement, (cst.FunctionDef, cst.Lambda))
        if not isinstance(function, cst.FunctionDef):
            trace.escapes.append(Escape("it is returned from a lambda", self.positions[statement]))
            return
        if id(function) in visited:
            return
        visited.add(id(function))
        name = function.name.value
        if function.decorators:
            trace.escapes.append(Escape(f"it is returned from `{name}`, whose decorators may change it", self.positions[statement]))
            return
        if any(isinstance(n, (cst.Yield,)) for n in _walk(function.body)):
            trace.escapes.append(Escape(f"it is returned from the generator `{name}`", self.positions[statement]))
            return
        callers = self._callers(function)
        if callers is None:
            trace.escapes.append(
                Escape(f"it is returned from `{name}`, which is used other than by calling it", self.positions[statement])
            )
            return
        if self._is_exported(function):
            trace.exported_functions.append(name)
        for caller in callers:
            self._trace_value(caller, trace, visited)

    def _callers(self, function: cst.FunctionDef) -> Optional[List[cst.Call]]:
        """The calls of ``function`` in this module, or None when it is used as a value."""
        cls = self.enclosing(function, (cst.ClassDef, cst.FunctionDef))
        if isinstance(cls, cst.ClassDef) and self.parents.get(function) is cls.body:
            return self._method_callers(cls, function.name.value)
        assignment = self._assignment_of(function, function.name.value)
        if assignment is None:
            return None
        callers = []
        for access in assignment.references:
            call = self.parents.get(access.node)
            if not (isinstance(call, cst.Call) and call.func is access.node):
                return None
            callers.append(call)
        return sorted(callers, key=self._order)

    def _method_callers(self, cls: cst.ClassDef, name: str) -> Optional[List[cst.Call]]:
        """Calls ``self.name(...)`` inside the class, ``obj.name(...)`` on instances made in
        this module; any other ``.name`` in the module makes the method untraceable."""
        callers = []
        for node in _walk(self.module):
            if not (isinstance(node, cst.Attribute) and node.attr.value == name):
                continue
            call = self.parents.get(node)
            if not (isinstance(call, cst.Call) and call.func is node):
                return None
            receiver = node.value
            inside = self.enclosing(node, cst.ClassDef) is cls and m.matches(receiver, m.Name("self"))
            if not (inside or self._is_instance_of(receiver, cls)):
                return None
            callers.append(call)
        return sorted(callers, key=self._order)

    def _is_instance_of(self, expr: cst.BaseExpression, cls: cst.ClassDef) -> bool:
        if isinstance(expr, cst.Call):
            return m.matches(expr.func, m.Name(cls.name.value))
        if not isinstance(expr, cst.Name):
            return False
        scope = self.scopes.get(expr)
        if scope is None or not scope[expr.value]:
            return False
        for assignment in scope[expr.value]:
            node = getattr(assignment, "node", None)
            parent = self.parents.get(node) if node is not None else None
            if not isinstance(parent, cst.AssignTarget):
                return False
            if not self._is_instance_of(self.parents[parent].value, cls):
                return False
        return True

    def _is_exported(self, function: cst.FunctionDef) -> bool:
        """Can code in another module call this? Public names at module or class level."""
        owner = self.parents.get(function)
        if function.name.value.startswith("_"):
            return False
        if owner is self.module:
            return True
        cls = self.enclosing(function, (cst.ClassDef, cst.FunctionDef))
        return (
            isinstance(cls, cst.ClassDef)
            and self.parents.get(cls) is self.module
            and not cls.name.value.startswith("_")
        )

    def _use_from(self, node: cst.BaseExpression) -> ResultUse:
        base = node
        path: List[PathSegment] = []
        chain: List[cst.BaseExpression] = []
        parent = self.parents.get(node)
        while True:
            if isinstance(parent, cst.Attribute) and parent.value is node:
                path.append(parent.attr.value)
            elif isinstance(parent, cst.Subscript) and parent.value is node and _constant_index(parent) is not None:
                path.append(_constant_index(parent))
            elif isinstance(parent, cst.Call) and parent.func is node and path:
                path.append(CALL)
            else:
                break
            chain.append(parent)
            node, parent = parent, self.parents.get(parent)
        return ResultUse(
            base=base,
            path=tuple(path),
            chain=tuple(chain),
            parent=parent,
            grandparent=self.parents.get(parent) if parent is not None else None,
            position=self.positions[node],
            code=self.module.code_for_node(node),
        )

    def _order(self, node: cst.CSTNode) -> Tuple[int, int]:
        start = self.positions[node].start
        return (start.line, start.column)


def _constant_index(subscript: cst.Subscript) -> Optional[PathSegment]:
    if len(subscript.slice) != 1 or not isinstance(subscript.slice[0].slice, cst.Index):
        return None
    value = subscript.slice[0].slice.value
    if isinstance(value, cst.Integer):
        return int(value.value, 0)
    if isinstance(value, cst.SimpleString):
        return value.evaluated_value
    return None


def _walk(root: cst.CSTNode) -> Iterator[cst.CSTNode]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def has_legacy_calls(module: cst.Module) -> bool:
    """Cheap, metadata-free: does the module call anything shaped like a legacy method?"""
    finder = _CallFinder()
    module.visit(finder)
    return bool(finder.found)


def _imports_openai(module: cst.Module) -> bool:
    for node in _walk(module):
        if isinstance(node, cst.Import):
            if any(get_full_name_for_node(alias.name).split(".")[0] == "openai" for alias in node.names):
                return True
        elif isinstance(node, cst.ImportFrom) and node.module is not None and not node.relative:
            if get_full_name_for_node(node.module).split(".")[0] == "openai":
                return True
    return False


class _CallFinder(cst.CSTVisitor):
    """Collects calls whose method path ends in a legacy resource and method."""

    def __init__(self) -> None:
        self.found: List[Tuple[cst.Call, cst.BaseExpression, Tuple[str, ...], Optional[str], str]] = []

    def visit_Call(self, node: cst.Call) -> None:
        segments: List[str] = []
        func = node.func
        while isinstance(func, cst.Attribute):
            segments.insert(0, func.attr.value)
            func = func.value
        if len(segments) < 2:
            return
        # Walk back from the method: [resource...][wrapper] method
        method = segments[-1]
        rest = segments[:-1]
        wrapper = None
        if rest and rest[-1] in RESPONSE_WRAPPERS:
            wrapper = rest.pop()
        for resource, kind in LEGACY_RESOURCES:
            if tuple(rest[-len(resource):]) == resource and len(rest) >= len(resource):
                receiver_segments = rest[: len(rest) - len(resource)]
                receiver = _receiver(node.func, len(segments) - len(receiver_segments))
                self.found.append((node, receiver, resource, wrapper, f"{kind}.{method}"))
                return


def _receiver(func: cst.BaseExpression, depth: int) -> cst.BaseExpression:
    """The expression ``depth`` attribute accesses below ``func``."""
    for _ in range(depth):
        assert isinstance(func, cst.Attribute)
        func = func.value
    return func
