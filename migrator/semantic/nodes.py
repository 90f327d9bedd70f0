"""Nodes and their places: each node's parent, the nodes of each type in source order, the
statement or scope a node sits in, and where it is in the source."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Dict, List, Optional, Tuple, Union

import libcst as cst

from migrator.libcst_internals import Positions, children
from migrator.shapes import string_text, walk

# The nodes whose ``body`` runs its statements one after the other, from the first.
BLOCKS = (cst.Module, cst.IndentedBlock, cst.SimpleStatementLine, cst.SimpleStatementSuite)


@dataclass
class _NodeIndex:
    """What one walk of a module learns: each node's parent, and the nodes of each type."""

    parents: Dict[cst.CSTNode, cst.CSTNode] = field(default_factory=dict)
    by_type: Dict[type, List[cst.CSTNode]] = field(default_factory=dict)  # in source order
    # Beside each list of `by_type`, each node's place in source order, for merging lists.
    places: Dict[type, List[int]] = field(default_factory=dict)


class Nodes:
    """One walk of a module answers every question about its nodes: a visitor or a matcher over
    the whole module costs as much as parsing it, or three times as much."""

    def __init__(self, module: cst.Module, source: Optional[bytes] = None) -> None:
        self.module = module
        self.source = source  # what the module was parsed from, when known

    # Metadata is computed on first use: a module read only by rules that report outside any
    # call (``@RULE.module``) often needs no scopes at all, and scopes cost several parses.
    @cached_property
    def positions(self) -> Positions:
        return Positions(self.module, self.source, self.parents)

    # One walk of the module answers every question about its nodes: a visitor or a matcher
    # over the whole module costs as much as parsing it, or three times as much.
    @property
    def parents(self) -> Dict[cst.CSTNode, cst.CSTNode]:
        """The node each node is a child of: what ``ParentNodeProvider`` gives, without another walk."""
        return self._index.parents

    def nodes_of(self, *kinds: type) -> List[cst.CSTNode]:
        """The nodes of these types, in source order."""
        index = self._index
        types = [kind for kind in index.by_type if issubclass(kind, kinds)]
        if len(types) == 1:
            return list(index.by_type[types[0]])
        placed = sorted((place, node) for kind in types for place, node in zip(index.places[kind], index.by_type[kind]))
        return [node for _, node in placed]

    @cached_property
    def _index(self) -> _NodeIndex:
        index = _NodeIndex()
        by_type, places, parents = index.by_type, index.places, index.parents  # (a million lookups saved)
        stack: List[cst.CSTNode] = [self.module]
        place = 0
        while stack:
            node = stack.pop()
            of_type = by_type.get(type(node))
            if of_type is None:
                of_type = by_type[type(node)] = []
                places[type(node)] = []
            of_type.append(node)
            places[type(node)].append(place)
            place += 1
            below = children(node)
            for child in below:
                parents[child] = node
            stack.extend(reversed(below))
        return index

    def enclosing(self, node: cst.CSTNode, kind: type) -> Optional[cst.CSTNode]:
        node = self.parents.get(node)
        while node is not None and not isinstance(node, kind):
            node = self.parents.get(node)
        return node

    def function_of(self, param: cst.Param) -> Optional[cst.FunctionDef]:
        """The function ``param`` is a parameter of; None for a lambda's."""
        function = self.enclosing(param, (cst.FunctionDef, cst.Lambda))
        return function if isinstance(function, cst.FunctionDef) else None

    def returns_of(self, function: cst.FunctionDef) -> List[cst.Return]:
        """The ``return`` statements of ``function`` itself (not of the functions it defines)."""
        return [node for node in self.nodes_of(cst.Return) if self.enclosing(node, (cst.FunctionDef, cst.Lambda)) is function]

    def enclosing_statement(self, node: cst.CSTNode) -> cst.CSTNode:
        while not isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            node = self.parents[node]
        return node

    def within(self, node: cst.CSTNode, ancestor: cst.CSTNode) -> bool:
        """Is ``node`` ``ancestor`` or a part of it?"""
        while node is not None and node is not ancestor:
            node = self.parents.get(node)
        return node is not None

    def is_generator(self, function: cst.FunctionDef) -> bool:
        """Does ``function`` itself (not a function nested in it) ``yield``?"""
        return any(self.enclosing(node, (cst.FunctionDef, cst.Lambda)) is function for node in self.nodes_of(cst.Yield))

    def order(self, node: cst.CSTNode) -> Tuple[int, int]:
        start = self.positions[node].start
        return (start.line, start.column)

    @cached_property
    def code_strings(self) -> List[Union[cst.SimpleString, cst.FormattedStringText]]:
        """String literals and f-string parts in code, in source order: not comments, not docstrings."""
        return [node for node in self.nodes_of(cst.SimpleString, cst.FormattedStringText) if not self._is_docstring(node)]

    def _is_docstring(self, node: cst.CSTNode) -> bool:
        """Is ``node`` a string statement, or a part of one written in parts (``"a" "b"``), which
        Python's parser reads as one constant, as the screen does? Parts beside an f-string are
        parts of that f-string for Python: code."""
        whole, parent = node, self.parents.get(node)
        while isinstance(parent, cst.ConcatenatedString):
            whole, parent = parent, self.parents.get(parent)
        return isinstance(parent, cst.Expr) and (
            whole is node or not any(isinstance(part, cst.FormattedString) for part in walk(whole))
        )

    def strings_hold(self, text: str) -> bool:
        """Does a string literal in code hold ``text``, in any case?"""
        lowered = text.lower()
        return any(lowered in string_text(node).lower() for node in self.code_strings)

    def free_quote(self, node: cst.CSTNode) -> Optional[str]:
        """A quote a string literal written in place of ``node`` can use: ``"`` unless ``node``
        sits in an f-string delimited by it (before Python 3.12 a replacement field cannot
        hold its string's own quote); None when the f-strings around it take both."""
        taken = set()
        ancestor = self.parents.get(node)
        while ancestor is not None:
            if isinstance(ancestor, cst.FormattedString) and len(ancestor.end) == 1:
                taken.add(ancestor.end)
            ancestor = self.parents.get(ancestor)
        return next((quote for quote in ('"', "'") if quote not in taken), None)

    def statement_within(self, body: cst.CSTNode, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        """The statement of the block ``body`` that holds ``node``, if one does."""
        parent = self.parents.get(node)
        while parent is not None and parent is not body:
            node, parent = parent, self.parents.get(parent)
        return node if parent is body else None

    def never_both(self, first: cst.CSTNode, second: cst.CSTNode, since: cst.CSTNode) -> bool:
        """Does at most one of ``first`` and ``second`` run, once ``since`` has run, until its
        function (or module) is left or ``since`` runs again? They do when they sit in different
        arms of one ``if`` (``elif`` and ``else`` included) that no loop of their function runs
        again without running ``since`` first."""
        arms: Dict[cst.CSTNode, bool] = {}  # each ``if`` holding ``first``: is it in the body?
        child, parent = first, self.parents.get(first)
        while parent is not None:
            if isinstance(parent, cst.If) and child is not parent.test:
                arms[parent] = child is parent.body
            child, parent = parent, self.parents.get(parent)
        child, parent = second, self.parents.get(second)
        while parent is not None and parent not in arms:
            child, parent = parent, self.parents.get(parent)
        if parent is None or arms[parent] == (child is parent.body):
            return False
        loop = self.enclosing(parent, (cst.For, cst.While, cst.FunctionDef, cst.Lambda))
        while isinstance(loop, (cst.For, cst.While)):
            if not self.within(since, loop):
                return False
            loop = self.enclosing(loop, (cst.For, cst.While, cst.FunctionDef, cst.Lambda))
        return True

    def never_after(self, first: cst.CSTNode, second: cst.CSTNode) -> bool:
        """Does ``first`` never run after ``second`` in one run of their function (or module)?
        It does not when it sits before it in a block holding both that no loop of their
        function runs again; a nested function, a lambda or a comprehension holding only one of
        them runs when it is called or evaluated."""
        # A comprehension runs its parts in turn, as many times as it has items.
        scope = (cst.FunctionDef, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
        if self.enclosing(first, scope) is not self.enclosing(second, scope):
            return False
        child, block = first, self.parents.get(first)
        while block is not None:
            if isinstance(block, BLOCKS) and not isinstance(block, cst.SimpleStatementLine):
                holder = self.statement_within(block, second)
                if holder is not None:
                    places = {id(each): place for place, each in enumerate(block.body)}
                    if places[id(child)] >= places[id(holder)]:
                        return False
                    loop = self.enclosing(block, (cst.For, cst.While, *scope))
                    return not isinstance(loop, (cst.For, cst.While))
            child, block = block, self.parents.get(block)
        return False

    def runs_before(self, statement: cst.CSTNode, node: cst.CSTNode) -> bool:
        """Has ``statement`` (a statement, or a small statement of a line) run each time ``node``
        runs, in the same run of their scope? It has when it comes first in a block holding
        ``node``: a block is entered at its top, and left early only by what would skip ``node`` too."""
        block = self.parents.get(statement)
        while isinstance(block, BLOCKS):
            holder = self.statement_within(block, node)
            if holder is not None:
                places = {id(each): place for place, each in enumerate(block.body)}
                return places[id(statement)] < places[id(holder)]
            if not isinstance(block, cst.SimpleStatementLine):
                return False  # a branch, a loop's body, a ``try`` body: ``node`` may run without it
            statement, block = block, self.parents.get(block)
        return False
