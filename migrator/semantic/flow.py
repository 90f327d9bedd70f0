"""Value flow: where a value goes. From an expression (a call's result), the reads of it:
through the names it is bound to, the aliases of its parts, the parameters of the module's
functions it is passed to and the callers its function returns it to; and where it goes that
cannot be followed (an ``Escape``). The values of "the same kind" (``same_kind``: for the
migration, the results of other legacy calls) that share its names are reported with it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, List, Optional, Set, Tuple, Union

import libcst as cst
from libcst.helpers import parse_template_expression
from libcst.metadata import Assignment, CodeRange, ComprehensionScope, GlobalScope

from migrator.semantic.bindings import Bindings
from migrator.semantic.imports import Imports
from migrator.semantic.nodes import Nodes
from migrator.shapes import is_name, one_line, walk

CALL = "()"  # the path segment for calling what the path has reached: ``raw.parse()``
PathSegment = Union[str, int]


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
    # Read through a name bound to part of the result (``message`` in ``message.content``, after
    # ``message = resp.choices[0].message``): that name stands for the first ``alias_depth``
    # segments, ``base`` is the result in the alias statement, and chain[:alias_depth] is the name.
    alias_depth: int = 0

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
        Through an alias, ``{base}`` is the result itself: the alias goes away.
        """
        from migrator.rule import UseRewrite

        if length < self.alias_depth:  # the alias stands for more: the rest is read after the template
            template += "".join(f"[{segment}]" if isinstance(segment, int) else f".{segment}" for segment in self.path[length : self.alias_depth])
            length = self.alias_depth
        target = target if target is not None else self.node_at(length)

        def build(updated: cst.CSTNode) -> cst.CSTNode:
            base = _descend(updated, self.node_at(length), target, length - self.alias_depth)
            if self.alias_depth:
                base = self.base.deep_clone()
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
    # Functions the result is passed to (their parameter is followed), which other modules could call.
    exported_parameters: List[str] = field(default_factory=list)
    # Annotations that declare the result's type: of the names holding it, of functions returning it.
    annotations: List[cst.Annotation] = field(default_factory=list)
    # Statements binding a name to part of the result, whose reads are uses: removed on migration.
    aliases: List[cst.SimpleStatementLine] = field(default_factory=list)
    # Other legacy calls whose results the same names may hold: they migrate together.
    co_bound: List[cst.Call] = field(default_factory=list)
    # Parts of the result passed to a function of the module whose parameter is followed as
    # holding the whole result (``handle(resp.choices[0].message)``): each must pass the result.
    passed_parts: List[ResultUse] = field(default_factory=list)


# Decorators that call the function with the arguments given and return what it returns: the
# caches of functools, tenacity's retries on exceptions when told nothing about results (its
# retry conditions on results would read them), and backoff's retries on exceptions (whose
# handlers are not given what a call returned; its retries on a predicate read it).
CACHES = frozenset({"functools.cache", "functools.lru_cache"})
# Tracing decorators record the arguments and what the function returns, and return it as it
# is; told what to record by constants only (a function given may read the value it records).
TRACERS = frozenset({
    "langsmith.traceable", "langsmith.run_helpers.traceable",
    "langfuse.observe", "langfuse.decorators.observe",
    "weave.op", "logfire.instrument", "opik.track", "mlflow.trace",
    "langtrace_python_sdk.with_langtrace_root_span", "langtrace_python_sdk.utils.with_root_span.with_langtrace_root_span",
})
TENACITY_KEYWORDS = frozenset({"stop", "wait", "retry", "reraise"})
BACKOFF_KEYWORDS = frozenset({
    "wait_gen", "exception", "max_tries", "max_time", "jitter", "giveup", "on_success", "on_backoff", "on_giveup", "raise_on_giveup", "logger",
    "backoff_log_level", "giveup_log_level", "factor", "base", "max_value", "interval",
})


def _is_constant(node: cst.BaseExpression) -> bool:
    """A literal, or a container or f-string of literals: what a decorator is told holds no code."""
    if isinstance(node, (cst.SimpleString, cst.Integer, cst.Float, cst.ConcatenatedString)) or is_name(node, "None", "True", "False"):
        return True
    if isinstance(node, cst.FormattedString):
        return all(_is_constant(part.expression) for part in node.parts if isinstance(part, cst.FormattedStringExpression))
    if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        return all(not isinstance(element, cst.StarredElement) and _is_constant(element.value) for element in node.elements)
    if isinstance(node, cst.Dict):
        return all(isinstance(element, cst.DictElement) and _is_constant(element.key) and _is_constant(element.value) for element in node.elements)
    return False


def _mentions_results(node: cst.CSTNode) -> bool:
    """``retry_if_result(...)`` and the like decide on the value returned."""
    return any(isinstance(part, cst.Name) and "result" in part.value for part in walk(node))


class ValueFlow:
    """Follows values through one module. ``same_kind`` gives, for a value, the call that makes
    another value of the kind being followed, if it is one; ``foreign`` says whether an
    expression provably holds only instances of another package's classes (the SDK's client)."""

    def __init__(
        self,
        module: cst.Module,
        nodes: Nodes,
        bindings: Bindings,
        imports: Imports,
        same_kind: Callable[[cst.BaseExpression], Optional[cst.Call]],
        foreign: Callable[[cst.BaseExpression], bool] = lambda expr: False,
        parts_passed_whole: Tuple[Tuple[PathSegment, ...], ...] = (),
    ) -> None:
        self.module = module
        self.nodes = nodes
        self.bindings = bindings
        self.imports = imports
        self.same_kind = same_kind
        self.foreign = foreign
        # The parts of a value that, given to a function of the module, are followed there as
        # the value itself (the function is given the value, and reads the part of it).
        self.parts_passed_whole = parts_passed_whole
        self._asking: Set[Tuple[int, int]] = set()

    def trace_result(self, value: cst.BaseExpression) -> ResultTrace:
        """Every read of ``value`` (a call's result), followed through names and returns."""
        trace = ResultTrace()
        self._trace_value(value, trace, visited=set())
        return trace

    def _trace_value(self, node: cst.BaseExpression, trace: ResultTrace, visited: Set[int]) -> None:
        parent = self.nodes.parents.get(node)
        if isinstance(parent, cst.Await):
            node, parent = parent, self.nodes.parents.get(parent)
        use = self._use_from(node)
        if use.path:
            trace.uses.append(use)
            return
        if isinstance(parent, cst.Expr):
            return  # the result is thrown away
        if isinstance(parent, (cst.Assign, cst.AnnAssign)) and parent.value is node:
            self._trace_binding(parent, trace, visited)
            return
        if isinstance(parent, cst.WithItem) and parent.asname is not None:
            self._trace_binding(parent, trace, visited)
            return
        if isinstance(parent, cst.Return):
            self._trace_return(parent, trace, visited)
            return
        if isinstance(parent, (cst.ListComp, cst.GeneratorExp)) and parent.elt is node:
            self._trace_collection(parent, trace, visited)
            return
        if self._trace_argument(use, trace, visited):
            return
        if self._trace_gathered(use, trace, visited):
            return
        trace.uses.append(use)  # a bare use: the rules decide (a stream loop, say)

    def _trace_collection(self, node: cst.BaseExpression, trace: ResultTrace, visited: Set[int]) -> None:
        """Follow a list (or generator) of values of the kind followed, made at ``node``: the
        loops over it, its items, what ``asyncio.gather`` makes of it."""
        parent = self.nodes.parents.get(node)
        if isinstance(parent, cst.Await):
            node, parent = parent, self.nodes.parents.get(parent)
        if isinstance(parent, cst.Assign) and parent.value is node and len(parent.targets) == 1:
            target = parent.targets[0].target
            items = target.elements if isinstance(target, (cst.Tuple, cst.List)) else ()
            if items and all(isinstance(item, cst.Element) and isinstance(item.value, cst.Name) for item in items):
                for item in items:  # ``one, two = await asyncio.gather(a(...), b(...))``
                    self._trace_target(item.value, parent, trace, visited)  # type: ignore[arg-type]
                return
            binding = self.bindings.assignment_of(target, target.value) if isinstance(target, cst.Name) else None
            if binding is not None:
                for read in self.bindings.reads_of(binding):
                    if self.bindings.reaching(read) != [binding]:
                        trace.escapes.append(Escape(f"`{target.value}` may also hold a value assigned elsewhere", self.nodes.positions[read]))
                    else:
                        self._trace_collection_read(read, trace, visited)
                return
        self._trace_collection_read(node, trace, visited)

    def _trace_collection_read(self, node: cst.BaseExpression, trace: ResultTrace, visited: Set[int]) -> None:
        parent = self.nodes.parents.get(node)
        if isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is node and isinstance(parent.target, cst.Name):
            self._trace_target(parent.target, parent, trace, visited)
        elif isinstance(parent, cst.Subscript) and parent.value is node and _is_item(parent):
            self._trace_value(parent, trace, visited)
        elif isinstance(parent, cst.Arg) and parent.star == "*" and self._gathers(self.nodes.parents.get(parent)):
            self._trace_collection(self.nodes.parents[parent], trace, visited)
        elif isinstance(parent, cst.Arg) and self.calls_builtin(self.nodes.parents.get(parent), "len"):
            pass  # how many
        else:
            code = one_line(self.module.code_for_node(node))
            trace.escapes.append(Escape(f"it is kept in `{code}`, which is used in a way the tool cannot follow", self.nodes.positions[node]))

    def _trace_gathered(self, use: ResultUse, trace: ResultTrace, visited: Set[int]) -> bool:
        """``await asyncio.gather(a(...), b(...))`` of calls that all make values of the kind
        followed: the list it makes holds them, and they go together."""
        arg, call = use.parent, use.grandparent
        if not (isinstance(arg, cst.Arg) and arg.keyword is None and not arg.star and self._gathers(call)):
            return False
        values = [a.value.expression if isinstance(a.value, cst.Await) else a.value for a in call.args if a.keyword is None]  # type: ignore[union-attr]
        if any(a.star for a in call.args) or any(self.same_kind(value) is None for value in values):
            return False
        trace.co_bound.extend(self.same_kind(value) for value in values if value is not use.base)  # type: ignore[misc]
        self._trace_collection(call, trace, visited)
        return True

    def _gathers(self, call: Optional[cst.CSTNode]) -> bool:
        """``asyncio.gather(...)`` keeping exceptions raised (its default): its value is the list
        of what its arguments return, in order."""
        return (
            isinstance(call, cst.Call)
            and "asyncio.gather" in self.imports.qualified(call.func, imported_only=True)
            and not any(a.keyword is not None and a.keyword.value == "return_exceptions" for a in call.args)
        )

    def calls_builtin(self, call: Optional[cst.CSTNode], name: str) -> bool:
        """``call`` calls the builtin ``name`` (no binding of the module hides it)."""
        if not (isinstance(call, cst.Call) and is_name(call.func, name)):
            return False
        return all(getattr(binding, "node", None) is None for binding in self.bindings.reaching(call.func))

    def _trace_binding(self, statement, trace: ResultTrace, visited: Set[int]) -> None:
        """Follow the name an assignment or a ``with ... as name`` binds. ``with`` binds what
        ``__enter__`` returns: the stream itself for a ``Stream``, the event stream for the
        manager of ``chat.completions.stream()``; the rules know which."""
        if isinstance(statement, cst.WithItem):
            targets = [statement.asname.name]
        elif isinstance(statement, cst.Assign):
            targets = [t.target for t in statement.targets]
        else:
            targets = [statement.target]
        if len(targets) != 1 or not isinstance(targets[0], cst.Name):
            trace.escapes.append(Escape("its result is assigned to something other than a plain name", self.nodes.positions[statement]))
            return
        self._trace_target(targets[0], statement, trace, visited)

    def trace_name(self, target: cst.Name) -> ResultTrace:
        """Every read of what ``target`` is bound to, by a loop (``for call in ...``) say."""
        trace = ResultTrace()
        self._trace_target(target, self.nodes.parents[target], trace, set())
        return trace

    def _trace_target(self, target: cst.Name, statement: cst.CSTNode, trace: ResultTrace, visited: Set[int]) -> None:
        assignment = self.bindings.assignment_of(target, target.value)
        if assignment is None:
            trace.escapes.append(Escape(f"`{target.value}` could not be followed", self.nodes.positions[target]))
            return
        if isinstance(statement, cst.AnnAssign):
            trace.annotations.append(statement.annotation)
        # Other legacy calls bound to the same variable migrate with this one, even where their
        # results reach other reads: a type checker gives a variable one type.
        scope = self.bindings.scopes.get(target)
        trace.co_bound.extend(
            call for call in map(self._assigned_call, scope[target.value] if scope is not None else ())
            if call is not None and call is not self._assigned_call(assignment)
        )
        for read in self.bindings.reads_of(assignment):
            others = [other for other in self.bindings.reaching(read) if other is not assignment and not self._is_harmless_assignment(other)]
            if others:
                trace.escapes.append(Escape(f"`{target.value}` may also hold a value assigned elsewhere", self.nodes.positions[read]))
                continue
            use = self._use_from(read)
            alias = self._alias_statement(use, statement, assignment) if use.path else None
            if not use.path and isinstance(use.parent, cst.Del):
                pass  # ``del result``: nothing depends on what it held
            elif not use.path and isinstance(use.parent, cst.Return):
                self._trace_return(use.parent, trace, visited)
            elif not use.path and isinstance(use.parent, cst.Await):
                self._trace_value(read, trace, visited)  # ``await task``, of a coroutine held in a name
            elif not use.path and isinstance(use.parent, cst.WithItem) and use.parent.asname is not None:
                self._trace_binding(use.parent, trace, visited)
            elif not use.path and self._trace_argument(use, trace, visited):
                pass
            elif alias is not None:
                self._trace_alias(use, alias, trace, visited)
            elif self._trace_part_argument(use, trace, visited):
                pass
            elif self._trace_name_given_whole(use, trace, visited):
                pass
            else:
                trace.uses.append(use)

    def _alias_statement(self, use: ResultUse, binding: cst.CSTNode, assignment: Assignment) -> Optional[cst.SimpleStatementLine]:
        """The line ``alias = result.part`` when reading ``alias`` can be replaced by reading
        ``result.part``: the line follows the one binding ``result`` in the same block (after
        plain assignments and expressions, outside any ``try``), and ``alias`` is read only
        where ``result`` still holds what it held there; the binding may also be in the body
        of a ``try`` the line follows, or come first in a block the line is nested in (``if
        resp.choices[0].message.tool_calls: msg = ...``) when every read of ``alias`` comes after
        the line in its block. Or, in a loop that binds ``result`` again (``while`` a
        response asks for tools, ``response = create(...)`` at the end of its body), ``alias``
        is read only after the line in its block, before anything there binds ``result`` again."""
        assign = use.parent
        if not (isinstance(assign, cst.Assign) and assign.value is use.outer and len(assign.targets) == 1):
            return None
        if CALL in use.path:
            return None  # reading the alias again must not call anything again
        alias = assign.targets[0].target
        line, binding_line = self.nodes.parents.get(assign), self.nodes.parents.get(binding)
        if not (isinstance(alias, cst.Name) and _is_plain_line(line)):
            return None
        if not (isinstance(binding_line, cst.SimpleStatementLine) and len(binding_line.body) == 1):
            return None
        result = use.base.value if isinstance(use.base, cst.Name) else None
        body = self.nodes.parents.get(line)
        siblings = list(getattr(body, "body", ()))
        if result is None:
            return None
        after_binding = self.nodes.parents.get(binding_line) is body
        nested = False  # the line is in a block the binding's comes before (``if`` asking for tools)
        if after_binding:
            between = siblings[siblings.index(binding_line) + 1 : siblings.index(line)]
            if between and not (all(map(_runs_on, between)) and self._exceptions_leave(line)):
                return None  # the alias line could be skipped while the program goes on
        else:
            after_binding = self._after_try_binding(binding_line, line, siblings)
            # Not an item of a list (``call = resp.choices[0].message.tool_calls[0]``): a value of
            # its own, which rules may keep in its name.
            nested = (
                not after_binding and not isinstance(use.path[-1], int) and self.nodes.runs_before(binding_line, line)
                and not self._loop_binds_again(body, line, siblings, use.base)
            )
            after_binding = after_binding or nested
        scope = self.bindings.scopes.get(use.base)
        alias_assignment = self.bindings.assignment_of(alias, alias.value)
        if scope is None or alias_assignment is None:
            return None
        reads = self.bindings.reads_of(alias_assignment)
        if any(self.bindings.reaching(read) != [alias_assignment] for read in reads):
            return None  # the name also holds other values: the part is read where it is bound
        if not reads and self.nodes.enclosing(line, (cst.FunctionDef, cst.ClassDef)) is None:
            return None  # a module's name, which other code may import: the part is read where it is bound
        if nested and not all(self.nodes.runs_before(line, read) for read in reads):
            return None  # a read where the line may not have run: it failed there, unbound
        for read in reads:
            reader = self.bindings.scopes.get(read)
            if reader is not scope and not (isinstance(reader, ComprehensionScope) and reader[result] == scope[result]):
                return None
        if not after_binding:
            if not self._loop_binds_again(body, line, siblings, use.base):
                return None
            return line if all(self._read_before_rebinding(read, line, siblings, use.base) for read in reads) else None
        # Each read of the alias must see ``result`` still bound by this assignment, on every way
        # to it, or else unbound but for ``result = None`` before the binding line (a read past
        # a loop that may not have run).
        for read in reads:
            holding = self.bindings.holding_at(read, result)
            if holding is None:
                return None
            for other in holding:
                if other is assignment:
                    continue
                node = getattr(other, "node", None)
                if node is None or not self._is_harmless_assignment(other) or not is_name(self.nodes.parents[self.nodes.parents[node]].value, "None"):
                    return None
                if self.nodes.order(node) > self.nodes.order(binding_line):
                    return None
        return line

    def _after_try_binding(self, binding_line: cst.CSTNode, line: cst.CSTNode, siblings: List[cst.CSTNode]) -> bool:
        """Is ``binding_line`` in the body of a ``try`` before ``line`` in its block, with only
        assignments and expressions between them? Past the ``try``, the result's name holds
        what the binding gave it unless a handler (or the ``else`` or ``finally``) bound it
        again, which the reads' reaching definitions tell."""
        body = self.nodes.parents.get(binding_line)
        statement = self.nodes.parents.get(body)
        if not (isinstance(statement, cst.Try) and statement.body is body and statement in siblings):
            return False
        if siblings.index(statement) > siblings.index(line):
            return False
        return all(map(_runs_on, siblings[siblings.index(statement) + 1 : siblings.index(line)]))

    def _loop_binds_again(self, body: cst.CSTNode, line: cst.CSTNode, siblings: List[cst.CSTNode], result: cst.Name) -> bool:
        """Is ``body`` a loop's, binding ``result`` again after ``line``: the loop's next pass
        reads the next result?"""
        if not isinstance(self.nodes.parents.get(body), (cst.While, cst.For)):
            return False
        return self.bindings.bound_in(result, siblings[siblings.index(line) + 1 :])

    def _read_before_rebinding(self, read: cst.CSTNode, line: cst.CSTNode, siblings: List[cst.CSTNode], result: cst.Name) -> bool:
        """Is ``read`` in a statement after ``line`` in its block, with no binding of ``result``
        from ``line`` to that statement, the statement included?"""
        statement = read
        while statement is not None and statement not in siblings:
            statement = self.nodes.parents.get(statement)
        if statement is None or siblings.index(statement) <= siblings.index(line):
            return False
        return not self.bindings.bound_in(result, siblings[siblings.index(line) : siblings.index(statement) + 1])

    def _exceptions_leave(self, node: cst.CSTNode) -> bool:
        """Does an exception raised at ``node`` leave its function (no ``try`` or ``with`` around
        it there could catch it and let the function go on)?"""
        around = self.nodes.enclosing(node, (cst.Try, cst.TryStar, cst.With, cst.FunctionDef, cst.Lambda))
        return not isinstance(around, (cst.Try, cst.TryStar, cst.With))

    def _trace_alias(self, use: ResultUse, line: cst.SimpleStatementLine, trace: ResultTrace, visited: Set[int]) -> None:
        """Every read of the alias ``line`` binds is a use of the result, through the alias."""
        assert isinstance(use.parent, cst.Assign) and isinstance(use.parent.targets[0].target, cst.Name)
        alias = use.parent.targets[0].target
        assignment = self.bindings.assignment_of(alias, alias.value)
        assert assignment is not None, "checked by _alias_statement"
        trace.aliases.append(line)
        for node in self.bindings.reads_of(assignment):
            if any(other is not assignment and not self._is_harmless_assignment(other) for other in self.bindings.reaching(node)):
                trace.escapes.append(Escape(f"`{alias.value}` may also hold a value assigned elsewhere", self.nodes.positions[node]))
                continue
            through = self._read_of_the_part(use, node, base=use.base)
            if through is None:
                continue
            read = self._use_from(node)
            nested = self._alias_statement(read, use.parent, assignment) if read.path else None
            if nested is not None:  # ``calls = message.tool_calls`` after ``message = ...``
                self._trace_alias(through, nested, trace, visited)
            elif not self._trace_part_argument(through, trace, visited):
                trace.uses.append(through)

    def _trace_name_given_whole(self, use: ResultUse, trace: ResultTrace, visited: Set[int]) -> bool:
        """``message = resp.choices[0].message`` (a part of ``parts_passed_whole``) that cannot be
        an alias read as the part of ``resp`` (a read comes after ``resp`` is bound again, say):
        the name is given the result instead, and its reads read the part of it, as a parameter
        given the result whole does. Every read must see this binding only. False when it is
        not such a line."""
        assign = use.parent
        if use.path not in self.parts_passed_whole or not (
            isinstance(assign, cst.Assign) and assign.value is use.outer and len(assign.targets) == 1
        ):
            return False
        name = assign.targets[0].target
        if not (isinstance(name, cst.Name) and _is_plain_line(self.nodes.parents.get(assign))):
            return False
        assignment = self.bindings.assignment_of(name, name.value)
        reads = self.bindings.reads_of(assignment) if assignment is not None else []
        if not reads or any(self.bindings.reaching(read) != [assignment] for read in reads):
            return False
        trace.passed_parts.append(use)
        for node in reads:
            through = self._read_of_the_part(use, node)
            if through is not None and not self._trace_part_argument(through, trace, visited):
                trace.uses.append(through)
        return True

    def _read_of_the_part(self, use: ResultUse, node: cst.Name, base: Optional[cst.BaseExpression] = None) -> Optional[ResultUse]:
        """The read ``node`` of a name standing for the part ``use`` reads: an alias of it, read
        as the part of ``base`` (the result), or, by default, a name given the whole result (a
        parameter, or a name bound to the part), a read through which reads the part of it.
        None for ``del name``."""
        read = self._use_from(node)
        if not read.path and isinstance(read.parent, cst.Del):
            return None
        depth = len(use.path)
        return ResultUse(
            base=base if base is not None else node,
            path=use.path + read.path,
            chain=(node,) * depth + read.chain,
            parent=read.parent,
            grandparent=read.grandparent,
            position=read.position,
            code=read.code,
            alias_depth=depth,
        )

    def _trace_argument(self, use: ResultUse, trace: ResultTrace, visited: Set[int]) -> bool:
        """A result passed to a function (or a method of the same class, called on ``self``) of
        this module: its parameter is followed instead (a generator reading a stream, say). Other
        calls of the function must pass that parameter the result of a legacy call too: those
        calls migrate with this one. False when it cannot be followed."""
        given = self._parameter_given(use, self._results_passed, visited)
        if given is None:
            return False
        function, parameter, others = given
        self._enter(function, others, trace, visited)
        if parameter.annotation is not None:
            trace.annotations.append(parameter.annotation)
        self._trace_target(parameter.name, parameter, trace, visited)
        return True

    def _trace_part_argument(self, use: ResultUse, trace: ResultTrace, visited: Set[int]) -> bool:
        """A part of the result (one of ``parts_passed_whole``) passed to a function of this
        module, whose other calls pass it the same part of a legacy call's result: the function
        is given the result instead, and its parameter is followed as holding it, its reads
        reading the part (``handle(message)`` after ``message = resp.choices[0].message``:
        ``message.tool_calls`` in ``handle`` reads ``resp.choices[0].message.tool_calls``). False
        when it cannot be followed, or the parameter is annotated (with the part's type)."""
        if use.path not in self.parts_passed_whole:
            return False
        given = self._parameter_given(use, lambda function, parameter, call: self._parts_passed(function, parameter, call, use.path), visited)
        if given is None:
            return False
        function, parameter, others = given
        assignment = self.bindings.assignment_of(parameter, parameter.name.value)
        if assignment is None or parameter.annotation is not None:
            return False
        self._enter(function, others, trace, visited)
        trace.passed_parts.append(use)
        for node in self.bindings.reads_of(assignment):
            if any(other is not assignment for other in self.bindings.reaching(node)):
                trace.escapes.append(Escape(f"`{parameter.name.value}` may also hold a value assigned elsewhere", self.nodes.positions[node]))
                continue
            through = self._read_of_the_part(use, node)
            if through is not None:
                trace.uses.append(through)
        return True

    def _parts_passed(self, function: cst.FunctionDef, parameter: cst.Param, call: cst.Call, path: Tuple[PathSegment, ...]) -> Optional[List[cst.Call]]:
        """The legacy calls whose results' part at ``path`` ``call`` gives ``function`` as
        ``parameter`` (``handle(resp.choices[0].message)``, or a name bound to that part only);
        None when it may give anything else."""
        value = self.passed(function, call, parameter)
        parts = [value] if not isinstance(value, cst.Name) else [self._assigned_value(binding) for binding in self.bindings.reaching(value)]
        made: List[cst.Call] = []
        for part in parts:
            root, reached = _root_of(part) if part is not None else (None, ())
            if root is None or reached != path:
                return None
            calls = [self.same_kind(root)] if not isinstance(root, cst.Name) else [self._assigned_call(binding) for binding in self.bindings.reaching(root)]
            if not calls or None in calls:
                return None
            made.extend(calls)  # type: ignore[arg-type]
        return made or None

    def _assigned_value(self, binding) -> Optional[cst.BaseExpression]:
        """The value of ``name = value`` for the binding of ``name``; None for any other binding."""
        parent = self.nodes.parents.get(getattr(binding, "node", None))
        return self.nodes.parents[parent].value if isinstance(parent, cst.AssignTarget) else None

    def _parameter_given(
        self,
        use: ResultUse,
        passed: Callable[[cst.FunctionDef, cst.Param, cst.Call], Optional[List[cst.Call]]],
        visited: Set[int],
    ) -> Optional[Tuple[cst.FunctionDef, cst.Param, List[cst.Call]]]:
        """The function of this module (not entered yet) that ``use`` is an argument of, the
        parameter it binds, and the legacy calls whose values the function's other calls give
        that parameter (``passed`` says, for each); None when it cannot be followed."""
        arg, call = use.parent, use.grandparent
        if not (isinstance(arg, cst.Arg) and isinstance(call, cst.Call)):
            return None
        function = self.function_called(call)
        if function is None or not self.passes_values_through(function) or id(function) in visited:
            return None
        parameter = _parameter_for(function, call, arg)
        callers = self.callers(function)
        if parameter is None or callers is None:
            return None
        passed_too = [passed(function, parameter, other) for other in callers if other is not call]
        if None in passed_too:
            return None
        return function, parameter, [made for calls in passed_too for made in calls or ()]

    def _enter(self, function: cst.FunctionDef, others: List[cst.Call], trace: ResultTrace, visited: Set[int]) -> None:
        """Follow the value into ``function``: once, with the calls giving it other values, and
        noting where other modules may call it."""
        visited.add(id(function))
        trace.co_bound.extend(others)
        exported = self.exported_name(function)
        if exported is not None:
            trace.exported_parameters.append(exported)

    def function_called(self, call: cst.Call) -> Optional[cst.FunctionDef]:
        """The function of this module ``call`` calls: by its name, or ``self.NAME`` in a method."""
        func = call.func
        if isinstance(func, cst.Name):
            bindings = self.bindings.referents(func)
            function = bindings[0].node if len(bindings) == 1 else None
            return function if isinstance(function, cst.FunctionDef) else None
        if isinstance(func, cst.Attribute) and is_name(func.value, "self"):
            cls = self.nodes.enclosing(func, cst.ClassDef)
            if not isinstance(cls, cst.ClassDef):
                return None
            # Every method of that name in the module: a subclass may override it, and ``self``
            # may be an instance of the subclass.
            methods = [
                method for method in self.nodes.nodes_of(cst.FunctionDef)
                if method.name.value == func.attr.value and isinstance(self.nodes.parents.get(self.nodes.parents.get(method)), cst.ClassDef)
            ]
            return methods[0] if len(methods) == 1 and self.nodes.within(methods[0], cls) else None
        return None

    def _results_passed(self, function: cst.FunctionDef, parameter: cst.Param, call: cst.Call) -> Optional[List[cst.Call]]:
        """The legacy calls whose results ``call`` passes ``function`` as ``parameter``; None when
        it passes anything else, or may leave the parameter to its default."""
        for arg in call.args:
            if _parameter_for(function, call, arg) is not parameter:
                continue
            value = arg.value
            if self.same_kind(value) is not None:
                return [self.same_kind(value)]  # type: ignore[list-item]
            if isinstance(value, cst.Name):
                calls = [self._assigned_call(binding) for binding in self.bindings.reaching(value)]
                if calls and None not in calls:
                    return calls  # type: ignore[return-value]
            return None
        return None

    def _is_harmless_assignment(self, assignment) -> bool:
        """``resp = None`` before a loop does not make ``resp`` something else to read, nor does
        the result of another legacy call (``resp = create(...)`` again, to retry): the planner
        migrates the calls that share a name together or not at all."""
        node = getattr(assignment, "node", None)
        parent = self.nodes.parents.get(node) if node is not None else None
        if not isinstance(parent, cst.AssignTarget):
            return False
        value = self.nodes.parents[parent].value
        return is_name(value, "None") or self.same_kind(value) is not None

    def _assigned_call(self, assignment) -> Optional[cst.Call]:
        value = self._assigned_value(assignment)
        return self.same_kind(value) if value is not None else None

    def passes_values_through(self, function: cst.FunctionDef) -> bool:
        """Does each decorator of ``function`` call it with the arguments it is given and return
        what it returns, without reading it? The caches of functools do, tenacity's retries when
        they are told nothing about results, backoff's retries on exceptions, and the tracing
        decorators told what to record by constants."""
        for decorator in function.decorators:
            expression = decorator.decorator
            factory = expression.func if isinstance(expression, cst.Call) else expression
            names = self.imports.qualified(factory, imported_only=True)
            keywords = {arg.keyword.value for arg in expression.args if arg.keyword} if isinstance(expression, cst.Call) else set()
            if names & CACHES:
                continue
            if names & TRACERS and (not isinstance(expression, cst.Call) or all(_is_constant(arg.value) for arg in expression.args)):
                continue
            if "tenacity.retry" in names and keywords <= TENACITY_KEYWORDS and not _mentions_results(expression):
                continue
            if "backoff.on_exception" in names and keywords <= BACKOFF_KEYWORDS:
                continue
            return False
        return True

    def _trace_return(self, statement: cst.Return, trace: ResultTrace, visited: Set[int]) -> None:
        function = self.nodes.enclosing(statement, (cst.FunctionDef, cst.Lambda))
        if not isinstance(function, cst.FunctionDef):
            trace.escapes.append(Escape("it is returned from a lambda", self.nodes.positions[statement]))
            return
        if id(function) in visited:
            return
        visited.add(id(function))
        name = function.name.value
        if not self.passes_values_through(function):
            trace.escapes.append(Escape(f"it is returned from `{name}`, whose decorators may change it", self.nodes.positions[statement]))
            return
        if self.nodes.is_generator(function):
            trace.escapes.append(Escape(f"it is returned from the generator `{name}`", self.nodes.positions[statement]))
            return
        callers = self.callers(function)
        if callers is None:
            trace.escapes.append(
                Escape(f"it is returned from `{name}`, which is used other than by calling it", self.nodes.positions[statement])
            )
            return
        exported = self.exported_name(function)
        if exported is not None:
            trace.exported_functions.append(exported)
        cls = self.nodes.enclosing(function, (cst.ClassDef, cst.FunctionDef))
        if exported is not None and isinstance(cls, cst.ClassDef) and self.nodes.parents.get(function) is cls.body:
            # Code anywhere may call a public method on an instance it gets hold of.
            holders = self.instance_names(cls)
            if holders is None:
                reason = f"it is returned from `{exported}`, and instances of `{cls.name.value}` go where the tool does not follow what it returns"
                trace.escapes.append(Escape(reason, self.nodes.positions[statement]))
                return
            trace.exported_functions.extend(f"{holder}.{name}" for holder in holders)
        if function.returns is not None:
            trace.annotations.append(function.returns)
        for caller in callers:
            self._trace_value(caller, trace, visited)

    def passed(self, function: cst.FunctionDef, call: cst.Call, param: cst.Param, bound: Optional[bool] = None) -> Optional[cst.BaseExpression]:
        """What ``call`` gives ``function``'s parameter ``param``: its argument, else the
        parameter's default; None when that is unclear (``*args``) or nothing."""
        if any(a.star for a in call.args):
            return None
        for arg in call.args:
            if _parameter_for(function, call, arg, bound) is param:
                return arg.value
        return param.default

    def constructions(self, cls: cst.ClassDef) -> Optional[List[cst.Call]]:
        """The calls ``Class(...)`` of this module's ``cls``, or None when it is used otherwise
        (subclassed, passed around): its ``__init__`` may then run from elsewhere."""
        return self._calls_of(cls, cls.name.value)

    def instance_names(self, cls: cst.ClassDef) -> Optional[List[str]]:
        """The module-level names holding the instances of ``cls`` this module makes, when each
        of them is only read for its attributes (``Chat().ask()``, ``bot = Chat()`` then
        ``bot.ask()``); None when one may go elsewhere (passed, returned, stored, bound to a
        name bound to something else too) or the class is used otherwise."""
        constructions = self.constructions(cls)
        if constructions is None:
            return None
        names = []
        for call in constructions:
            parent = self.nodes.parents.get(call)
            if isinstance(parent, cst.Attribute) and parent.value is call:
                continue
            if not (isinstance(parent, cst.Assign) and parent.value is call):
                return None
            for target in parent.targets:
                binding = self.bindings.binding(target.target) if isinstance(target.target, cst.Name) else None
                if binding is None or len(binding.scope.assignments[binding.name]) != 1:
                    return None
                for access in binding.references:
                    read = self.nodes.parents.get(access.node)
                    if not (isinstance(read, cst.Attribute) and read.value is access.node):
                        return None
                if isinstance(binding.scope, GlobalScope):
                    names.append(binding.name)
        return names

    def callers(self, function: cst.FunctionDef) -> Optional[List[cst.Call]]:
        """The calls of ``function`` in this module, or None when it is used as a value."""
        cls = self.nodes.enclosing(function, (cst.ClassDef, cst.FunctionDef))
        if isinstance(cls, cst.ClassDef) and self.nodes.parents.get(function) is cls.body:
            return self._method_callers(cls, function.name.value)
        return self._calls_of(function, function.name.value)

    def _calls_of(self, definition: cst.CSTNode, name: str) -> Optional[List[cst.Call]]:
        """The calls of what ``definition`` binds ``name`` to, or None when the name is read
        otherwise (an annotation, ``-> Client``, calls nothing and counts as no read)."""
        assignment = self.bindings.assignment_of(definition, name)
        if assignment is None:
            return None
        calls = []
        for access in assignment.references:
            call = self.nodes.parents.get(access.node)
            if isinstance(call, cst.Call) and call.func is access.node:
                calls.append(call)
            elif self.nodes.enclosing(access.node, cst.Annotation) is None:
                return None
        return sorted(calls, key=self.nodes.order)

    def _method_callers(self, cls: cst.ClassDef, name: str) -> Optional[List[cst.Call]]:
        """Calls ``self.name(...)`` inside the class, ``obj.name(...)`` on instances made in
        this module; any other ``.name`` in the module makes the method untraceable, unless
        what it is read on holds no instance of the class (``self.client.chat`` beside a
        method ``chat``, ``self.client`` being the SDK's client: ``foreign``)."""
        callers = []
        for node in self.nodes.nodes_of(cst.Attribute):
            if node.attr.value != name:
                continue
            receiver = node.value
            call = self.nodes.parents.get(node)
            if isinstance(call, cst.Call) and call.func is node:
                inside = self.nodes.enclosing(node, cst.ClassDef) is cls and is_name(receiver, "self")
                if inside or self._is_instance_of(receiver, cls):
                    callers.append(call)
                    continue
            if not self._holds_no_instance_of(receiver, cls):  # asked last: it proves a client
                return None
        return sorted(callers, key=self.nodes.order)

    def _holds_no_instance_of(self, expr: cst.BaseExpression, cls: cst.ClassDef) -> bool:
        """Is ``expr`` known to hold only instances of another package's classes (``foreign``:
        the SDK's client), never of this module's ``cls``? Asked while that question is being
        answered (a proof that follows the method's callers), it is not known."""
        key = (id(expr), id(cls))
        if key in self._asking:
            return False
        self._asking.add(key)
        try:
            return self.foreign(expr)
        finally:
            self._asking.discard(key)

    def _is_instance_of(self, expr: cst.BaseExpression, cls: cst.ClassDef) -> bool:
        if isinstance(expr, cst.Call):
            return is_name(expr.func, cls.name.value)
        if not isinstance(expr, cst.Name):
            return False
        scope = self.bindings.scopes.get(expr)
        if scope is None or not scope[expr.value]:
            return False
        for assignment in scope[expr.value]:
            node = getattr(assignment, "node", None)
            parent = self.nodes.parents.get(node) if node is not None else None
            if not isinstance(parent, cst.AssignTarget):
                return False
            if not self._is_instance_of(self.nodes.parents[parent].value, cls):
                return False
        return True

    def exported_name(self, function: cst.FunctionDef) -> Optional[str]:
        """How code in another module may call this: ``name`` for a public function at module
        level, ``Class.name`` for a public method of a public class there; None when it cannot."""
        name = function.name.value
        if name.startswith("_"):
            return None
        if self.nodes.parents.get(function) is self.module:
            return name
        cls = self.nodes.enclosing(function, (cst.ClassDef, cst.FunctionDef))
        if isinstance(cls, cst.ClassDef) and self.nodes.parents.get(cls) is self.module and not cls.name.value.startswith("_"):
            return f"{cls.name.value}.{name}"
        return None

    def use_of(self, node: cst.BaseExpression) -> ResultUse:
        """The read that starts at ``node`` (a name, say): the attributes, constant indexes and
        calls chained on it, and what contains them."""
        return self._use_from(node)

    def _use_from(self, node: cst.BaseExpression) -> ResultUse:
        base = node
        path: List[PathSegment] = []
        chain: List[cst.BaseExpression] = []
        parent = self.nodes.parents.get(node)
        while True:
            if isinstance(parent, cst.Attribute) and parent.value is node:
                path.append(parent.attr.value)
            elif isinstance(parent, cst.Subscript) and parent.value is node and constant_index(parent) is not None:
                path.append(constant_index(parent))
            elif isinstance(parent, cst.Call) and parent.func is node and path:
                path.append(CALL)
            else:
                break
            chain.append(parent)
            node, parent = parent, self.nodes.parents.get(parent)
        return ResultUse(
            base=base,
            path=tuple(path),
            chain=tuple(chain),
            parent=parent,
            grandparent=self.nodes.parents.get(parent) if parent is not None else None,
            position=self.nodes.positions[node],
            code=_in_one_line(self.module.code_for_node(node)),
        )


def _in_one_line(code: str) -> str:
    """Code for a message, which is one line: a read spread over several is joined up."""
    return " ".join(part.strip() for part in code.splitlines()) if "\n" in code else code


def _is_item(subscript: cst.Subscript) -> bool:
    """``values[i]``: one item, not a slice of them."""
    return len(subscript.slice) == 1 and isinstance(subscript.slice[0].slice, cst.Index)


def _parameter_for(function: cst.FunctionDef, call: cst.Call, arg: cst.Arg, bound: Optional[bool] = None) -> Optional[cst.Param]:
    """The parameter of ``function`` that ``arg`` of ``call`` binds; None when unclear (``*args``,
    ``**kwargs``, a parameter with a default that another argument may also fill...). ``bound``:
    the call binds the first parameter itself (by default, when it calls an attribute)."""
    if any(a.star for a in call.args):
        return None
    params = function.params
    if arg.keyword is not None:
        named = [*params.params, *params.kwonly_params]
        return next((p for p in named if p.name.value == arg.keyword.value), None)
    positional = [*params.posonly_params, *params.params]
    if isinstance(call.func, cst.Attribute) if bound is None else bound:
        positional = positional[1:]  # ``self.method(x)``, ``Class(x)``: ``self`` is bound already
    index = [a for a in call.args if a.keyword is None].index(arg)
    return positional[index] if index < len(positional) else None


def _root_of(node: cst.BaseExpression) -> Tuple[cst.BaseExpression, Tuple[PathSegment, ...]]:
    """What ``node`` reads into, and the path it reads: ``resp.choices[0].message`` ->
    (``resp``, ("choices", 0, "message"))."""
    path: List[PathSegment] = []
    while True:
        if isinstance(node, cst.Attribute):
            path.insert(0, node.attr.value)
            node = node.value
        elif isinstance(node, cst.Subscript) and constant_index(node) is not None:
            path.insert(0, constant_index(node))  # type: ignore[arg-type]
            node = node.value
        else:
            return node, tuple(path)


def constant_index(subscript: cst.Subscript) -> Optional[PathSegment]:
    """``x[0]`` -> 0, ``x["key"]`` -> "key"; None for any other subscript."""
    if len(subscript.slice) != 1 or not isinstance(subscript.slice[0].slice, cst.Index):
        return None
    value = subscript.slice[0].slice.value
    if isinstance(value, cst.Integer):
        return int(value.value, 0)
    if isinstance(value, cst.SimpleString):
        return value.evaluated_value
    return None


def _is_plain_line(line: Optional[cst.CSTNode]) -> bool:
    """A line holding one statement and no comment inside it between brackets: it can go, or be
    relied on, as a whole (the comment lines above it and the comment after it are not part of
    it: where it goes, they stay)."""
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1):
        return False
    statement = line.with_changes(leading_lines=(), trailing_whitespace=cst.TrailingWhitespace())
    return not any(isinstance(node, cst.Comment) for node in walk(statement))


def _runs_on(line: cst.CSTNode) -> bool:
    """A line that goes on to the next one unless it raises: assignments and expressions."""
    return isinstance(line, cst.SimpleStatementLine) and all(
        isinstance(small, (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Expr)) for small in line.body
    )
