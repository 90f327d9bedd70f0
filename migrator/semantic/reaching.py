"""Reaching definitions: which bindings of a name can reach each read of it.

LibCST's scopes say which assignments a name has in a scope, not which of them a read can see:
for ``resp = a(); print(resp); resp = b(); print(resp)`` both reads refer to both assignments.
This module runs each module-level and function body once, statement by statement, through
``if``/``else``, loops (to a fixpoint), ``break``/``continue``, ``try``/``except``/``else``/
``finally``, ``with`` (whose manager may swallow an exception), ``match``, ``return``/``raise``
and ``del``, and records for each read the bindings that may hold when it runs. The granularity
is the statement: a statement's reads see the bindings made before it, and the ``:=`` bindings
inside it.

Where the walk cannot tell when a read runs it answers what the scopes answer, every binding of
the name: reads in nested functions, lambdas and generator expressions (which run later), names
that a nested function binds through ``global``/``nonlocal``, and names of class bodies and
comprehensions. A read the walk finds unreachable (after a ``return``, say) is reached by nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

import libcst as cst
from libcst.metadata import BaseAssignment, FunctionScope, GlobalScope, Scope

from migrator.libcst_internals import children

Bindings = FrozenSet[BaseAssignment]
# The bindings each name of a scope may hold at one point of its code; None where no run gets.
State = Optional[Dict[str, Bindings]]
NOTHING: Bindings = frozenset()


class ReachingDefinitions:
    """Answers, for a module, which bindings can reach a read and which reads a binding reaches."""

    def __init__(self, module: cst.Module, scopes: Mapping[cst.CSTNode, Optional[Scope]]) -> None:
        self._module = module
        self._scopes = scopes
        # By scope, walked on the first question about one of its reads.
        self._walks: Dict[int, _ScopeWalk] = {}
        self._augmented: Dict[int, List[cst.CSTNode]] = {}

    def reaching(self, read: cst.CSTNode) -> Bindings:
        """The bindings of the name ``read`` reads that may hold when it runs."""
        for scope in self._flow_scopes_of(read):
            found = self._walk(scope).answers.get(read)
            if found is not None:
                return found
        return self._referents.get(read, NOTHING)

    def holding_at(self, read: cst.CSTNode, name: str) -> Optional[Bindings]:
        """The bindings of ``name`` that may hold when ``read`` runs, ``name`` being bound in the
        module or function whose body holds ``read`` (none where ``read`` never runs); None where
        the walk cannot tell (``read`` runs later, or a nested function binds ``name``)."""
        for scope in self._flow_scopes_of(read):
            walk = self._walk(scope)
            states = walk.states.get(read)
            if states is not None and name not in walk.unmet:
                return walk.holding(states, name)
        return None

    def reads_reached_by(self, binding: BaseAssignment) -> List[cst.CSTNode]:
        """The reads ``binding`` may reach, in no particular order; ``x += 1`` reads ``x`` too."""
        scope = getattr(binding, "scope", None)
        candidates = self._reads_referring_to.get(binding, [])
        if _is_flow_scope(scope):
            candidates = [*candidates, *self._augmented_reads(scope)]
        return [read for read in candidates if binding in self.reaching(read)]

    def answered(self, read: cst.CSTNode) -> bool:
        """Did the walk answer for ``read`` (rather than the scopes)?"""
        return any(read in self._walk(scope).answers for scope in self._flow_scopes_of(read))

    def _flow_scopes_of(self, read: cst.CSTNode) -> List[Scope]:
        """The scopes whose walk may have recorded ``read``: those of the bindings it refers to
        (or, for the target of ``x += 1``, the scope it is in)."""
        referents = self._referents.get(read)
        if referents is None:
            scopes = [self._scopes.get(read)]
        else:
            scopes = list({id(b.scope): b.scope for b in referents if getattr(b, "scope", None) is not None}.values())
        return [scope for scope in scopes if _is_flow_scope(scope)]  # type: ignore[misc]

    @cached_property
    def _referents(self) -> Dict[cst.CSTNode, Bindings]:
        """What the scopes say each read of a name refers to."""
        referents: Dict[cst.CSTNode, Bindings] = {}
        for scope in {id(s): s for s in self._scopes.values() if s is not None}.values():
            for access in scope.accesses:
                if isinstance(access.node, cst.Name):
                    referents[access.node] = referents.get(access.node, NOTHING) | frozenset(access.referents)
        return referents

    @cached_property
    def _reads_referring_to(self) -> Dict[BaseAssignment, List[cst.CSTNode]]:
        reads: Dict[BaseAssignment, List[cst.CSTNode]] = {}
        for read, bindings in self._referents.items():
            for binding in bindings:
                reads.setdefault(binding, []).append(read)
        return reads

    def _augmented_reads(self, scope: Scope) -> List[cst.CSTNode]:
        """The reads of ``x`` that ``x += 1`` makes in ``scope``, which no scope records."""
        found = self._augmented.get(id(scope))
        if found is None:
            found = self._augmented[id(scope)] = [read for read in self._walk(scope).answers if read not in self._referents]
        return found

    def _walk(self, scope: Scope) -> _ScopeWalk:
        """The walk of ``scope``'s body, run on first need."""
        walk = self._walks.get(id(scope))
        if walk is None:
            walk = self._walks[id(scope)] = _ScopeWalk(scope, self._referents)
            if isinstance(scope, GlobalScope):
                walk.block(self._module.body, {})
            else:
                function = scope.node  # type: ignore[attr-defined]
                walk.block(_statements(function.body), walk.run({}, function.params))
        return walk


def _is_flow_scope(scope: Optional[Scope]) -> bool:
    """A module or a function body: code the walk runs statement by statement."""
    return isinstance(scope, GlobalScope) or (isinstance(scope, FunctionScope) and isinstance(scope.node, cst.FunctionDef))


@dataclass
class _Loop:
    breaks: List[State] = field(default_factory=list)
    continues: List[State] = field(default_factory=list)


@dataclass
class _Catcher:
    """A ``try`` or ``with`` being run: the states an exception may leave its body from, and the
    states its body jumps out from (``finally`` runs on those too)."""

    raised: State = None
    jumps: List[State] = field(default_factory=list)


class _ScopeWalk:
    """Runs the body of one module or function, recording what reaches each read of its names."""

    def __init__(self, scope: Scope, referents: Mapping[cst.CSTNode, Bindings]) -> None:
        self.scope = scope
        self.referents = referents
        self.binds: Dict[cst.CSTNode, List[BaseAssignment]] = {}
        for assignment in scope.assignments:
            node = getattr(assignment, "node", None)
            if node is not None:
                self.binds.setdefault(node, []).append(assignment)
        # The states each read ran in (none: it never runs), with the ``:=`` bindings of its
        # step: what holds there, of its own name and of the others.
        self.states: Dict[cst.CSTNode, List[Tuple[Dict[str, Bindings], Dict[str, Bindings]]]] = {}
        self.seen: Set[BaseAssignment] = set()  # bindings the walk met, in code that runs or not
        self.loops: List[_Loop] = []
        self.catchers: List[_Catcher] = []
        self.collected: Dict[cst.CSTNode, Tuple[List[cst.CSTNode], List[Tuple[BaseAssignment, bool]]]] = {}

    @cached_property
    def unmet(self) -> Set[str]:
        """The names with a binding the walk never met: a nested function binds them
        (``global``), or the walk has no model of how they are bound. Asked once the walk ran."""
        return {a.name for a in self.scope.assignments if getattr(a, "node", None) is not None and a not in self.seen}

    @cached_property
    def answers(self) -> Dict[cst.CSTNode, Bindings]:
        """What reaches each read answered: all but those of an ``unmet`` name. Asked once the walk ran."""
        answers = {}
        for read, states in self.states.items():
            name = _name_of(read, self.referents)
            if name not in self.unmet:
                answers[read] = self.holding(states, name)
        return answers

    @staticmethod
    def holding(states: List[Tuple[Dict[str, Bindings], Dict[str, Bindings]]], name: str) -> Bindings:
        """The bindings of ``name`` in any of ``states``."""
        return frozenset().union(*(state.get(name, NOTHING) | early.get(name, NOTHING) for state, early in states))

    # -- code run at once -----------------------------------------------------------------

    def run(self, state: State, *nodes: Optional[cst.CSTNode], deletes: Sequence[cst.Name] = ()) -> State:
        """Run ``nodes`` (expressions or simple statements) as one step: their reads see ``state``
        and their ``:=`` bindings; then their bindings hold, and what ``deletes`` names is unbound."""
        reads: List[cst.CSTNode] = []
        made: List[Tuple[BaseAssignment, bool]] = []
        for node in nodes:
            if node is not None:
                node_reads, node_made = self._parts(node)
                reads += node_reads
                made += node_made
        self.seen.update(binding for binding, _ in made)
        if state is None:
            for read in reads:
                self.states.setdefault(read, [])
            return None
        early: Dict[str, Bindings] = {}
        for binding, at_once in made:
            if at_once:
                early[binding.name] = early.get(binding.name, NOTHING) | {binding}
        for read in reads:
            self.states.setdefault(read, []).append((state, early))
        after = dict(state)
        for name in deletes:
            after[name.value] = NOTHING
        for name in {binding.name for binding, _ in made}:
            after[name] = frozenset(binding for binding, _ in made if binding.name == name)
        self._may_raise(state, after)
        return after

    def _parts(self, node: cst.CSTNode) -> Tuple[List[cst.CSTNode], List[Tuple[BaseAssignment, bool]]]:
        """``_collect`` of ``node``, once: a loop's body runs until it settles."""
        found = self.collected.get(node)
        if found is None:
            found = self.collected[node] = ([], [])
            self._collect(node, *found)
        return found

    def _collect(self, node: cst.CSTNode, reads: List[cst.CSTNode], made: List[Tuple[BaseAssignment, bool]]) -> None:
        """The reads of this scope's names in ``node`` that run with it, and the bindings it makes,
        each with whether reads in the same step already see it (``:=``, a class body's ``global``)."""
        stack: List[Tuple[cst.CSTNode, bool]] = [(node, False)]
        while stack:
            current, at_once = stack.pop()
            if current in self.referents and any(getattr(a, "scope", None) is self.scope for a in self.referents[current]):
                reads.append(current)
            if isinstance(current, cst.AnnAssign) and current.value is None:
                self.seen.update(self.binds.get(current.target, ()))  # ``x: int`` declares, binds nothing
                continue
            made.extend((binding, at_once) for binding in self.binds.get(current, ()))
            if isinstance(current, cst.AugAssign) and isinstance(current.target, cst.Name):
                reads.append(current.target)  # ``x += 1`` reads the ``x`` it rebinds
            inner = at_once or isinstance(current, (cst.NamedExpr, cst.ClassDef))
            stack.extend((child, inner) for child in reversed(_running_parts(current)))

    def _may_raise(self, *states: State) -> None:
        for catcher in self.catchers:
            catcher.raised = _join(catcher.raised, *states)

    # -- statements ---------------------------------------------------------------------

    def block(self, statements: Iterable[cst.CSTNode], state: State) -> State:
        for statement in statements:
            state = self._statement(statement, state)
        return state

    def _suite(self, suite: Optional[cst.BaseSuite], state: State) -> State:
        return state if suite is None else self.block(_statements(suite), state)

    def _statement(self, statement: cst.CSTNode, state: State) -> State:
        if isinstance(statement, cst.Return):
            self.run(state, statement)
            self._jump(state)
            return None
        if isinstance(statement, cst.Raise):
            self.run(state, statement)
            return None
        if isinstance(statement, (cst.Break, cst.Continue)):
            if self.loops and state is not None:
                loop = self.loops[-1]
                (loop.breaks if isinstance(statement, cst.Break) else loop.continues).append(state)
                self._jump(state)
            return None
        if isinstance(statement, cst.Del):
            return self.run(state, statement, deletes=_deleted_names(statement.target))
        if isinstance(statement, cst.If):
            state = self.run(state, statement.test)
            orelse = statement.orelse
            if isinstance(orelse, cst.If):
                other = self._statement(orelse, state)
            else:
                other = self._suite(orelse.body if orelse is not None else None, state)
            return _join(self._suite(statement.body, state), other)
        if isinstance(statement, cst.While):
            test = statement.test
            return self._loop(statement, state, lambda top: self.run(top, test), ends=not _is_true(test))
        if isinstance(statement, cst.For):
            target = statement.target
            return self._loop(statement, self.run(state, statement.iter), lambda top: top, bind=target)
        if isinstance(statement, (cst.Try, cst.TryStar)):
            return self._try(statement, state)
        if isinstance(statement, cst.With):
            for item in statement.items:
                state = self.run(state, item)
            swallowed = _Catcher()
            self.catchers.append(swallowed)
            end = self._suite(statement.body, state)
            self.catchers.pop()
            # The manager may swallow an exception: what follows may run from any point of the body.
            return _join(end, swallowed.raised)
        if isinstance(statement, cst.Match):
            state = self.run(state, statement.subject)
            ends = [state]
            for case in statement.cases:
                matched = self.run(self.run(state, case.pattern), case.guard)
                ends.append(self._suite(case.body, matched))
            return _join(*ends)
        if isinstance(statement, cst.SimpleStatementLine):
            return self.block(statement.body, state)
        # Any other simple statement; a def or a class, whose decorators, defaults, bases and
        # class body run now and whose name is then bound.
        return self.run(state, statement)

    def _jump(self, state: State) -> None:
        for catcher in self.catchers:
            catcher.jumps.append(state)

    def _loop(
        self,
        statement: cst.CSTNode,
        state: State,
        head: Callable[[State], State],
        bind: Optional[cst.CSTNode] = None,
        ends: bool = True,
    ) -> State:
        """Run a loop until what its head sees settles: the bindings only grow, so it does."""
        loop = _Loop()
        top = state
        while True:
            tested = head(top)
            self.loops.append(loop)
            end = self._suite(statement.body, self.run(tested, bind) if bind is not None else tested)  # type: ignore[attr-defined]
            self.loops.pop()
            again = _join(state, end, *loop.continues)
            if again == top:
                break
            top = again
            loop.breaks.clear()
            loop.continues.clear()
        orelse = statement.orelse  # type: ignore[attr-defined]
        finished = self._suite(orelse.body if orelse is not None else None, tested if ends else None)
        return _join(finished, *loop.breaks)

    def _try(self, statement, state: State) -> State:
        body = _Catcher(raised=state)
        self.catchers.append(body)
        loop = self.loops[-1] if self.loops else None
        jumps_before = (len(loop.breaks), len(loop.continues)) if loop is not None else (0, 0)
        body_end = self._suite(statement.body, state)
        self.catchers.pop()
        handlers = _Catcher()
        if statement.finalbody is not None:
            self.catchers.append(handlers)
        ends = [self._suite(statement.orelse.body if statement.orelse is not None else None, body_end)]
        for clause in statement.handlers:
            caught = self.run(body.raised, clause.type, clause.name)
            end = self._suite(clause.body, caught)
            if clause.name is not None and isinstance(clause.name.name, cst.Name) and end is not None:
                end = {**end, clause.name.name.value: NOTHING}  # Python unbinds it on leaving the clause
            ends.append(end)
        normal = _join(*ends)
        if statement.finalbody is None:
            return normal
        self.catchers.pop()
        final = statement.finalbody.body
        # ``finally`` also runs when an exception or a jump leaves: its reads see those states,
        # and a ``break`` or ``continue`` reaches the loop with what ``finally`` binds.
        self._suite(final, _join(body.raised, handlers.raised, *body.jumps, *handlers.jumps))
        if loop is not None:
            loop.breaks[jumps_before[0] :] = [self._suite(final, s) for s in loop.breaks[jumps_before[0] :]]
            loop.continues[jumps_before[1] :] = [self._suite(final, s) for s in loop.continues[jumps_before[1] :]]
        return self._suite(final, normal)


def _join(*states: State) -> State:
    joined: State = None
    for state in states:
        if state is None:
            continue
        if joined is None:
            joined = dict(state)
            continue
        for name, bindings in state.items():
            joined[name] = joined.get(name, NOTHING) | bindings
    return joined


def _statements(suite: cst.BaseSuite) -> Sequence[cst.CSTNode]:
    """The statements of a block: ``if x: a(); b()`` holds two small statements on its line."""
    return suite.body  # type: ignore[return-value]


def _running_parts(node: cst.CSTNode) -> Sequence[cst.CSTNode]:
    """The parts of ``node`` that run when it does: not the bodies of functions and lambdas, nor
    a generator expression past its first iterable, which run later."""
    if isinstance(node, cst.FunctionDef):
        return [*node.decorators, node.params, *([node.returns] if node.returns else [])]
    if isinstance(node, cst.Lambda):
        return [node.params]
    if isinstance(node, cst.GeneratorExp):
        return [node.for_in.iter]
    return children(node)


def _name_of(read: cst.CSTNode, referents: Mapping[cst.CSTNode, Bindings]) -> str:
    return read.value if isinstance(read, cst.Name) else next(iter(referents[read])).name


def _is_true(test: cst.BaseExpression) -> bool:
    """``while True:`` ends only by ``break``."""
    return isinstance(test, cst.Name) and test.value == "True"


def _deleted_names(target: cst.BaseExpression) -> List[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [name for element in target.elements for name in _deleted_names(element.value)]
    return []
