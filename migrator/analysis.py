"""Reads a module: finds the legacy calls, proves who receives them, and follows their results.

Nothing here rewrites code. The planner (``migrator.planner``) asks the rules what to do with
the call sites and result uses found here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Collection, Dict, List, Mapping, Optional, Sequence, Set, Tuple, Union

import libcst as cst
from libcst.helpers import get_full_name_for_node, parse_template_expression
from libcst.metadata import (
    Assignment,
    BaseAssignment,
    CodeRange,
    ComprehensionScope,
    QualifiedName,
    QualifiedNameSource,
    Scope,
)

from migrator.clients import is_openai_client
from migrator.model import Options
from migrator.metadata import Positions, resolve_scopes
from migrator.semantic.reaching import ReachingDefinitions
from migrator.screen import legacy_method, reaches
from migrator.shapes import STRING_NODES, dict_entries, is_name, string_text, walk
from migrator.traversal import children

# Where the SDK keeps the Chat Completions types, and the Chat-only shapes it keeps elsewhere
# (the nested json_schema response format).
CHAT_TYPES = "openai.types.chat"
CHAT_SHARED_MODULES = "openai.types.shared"  # and openai.types.shared_params
CHAT_SHARED_TYPES = frozenset({"ResponseFormatJSONSchema"})

# A name in code, or in the text of a string annotation.
IDENTIFIER = re.compile(r"[^\W\d]\w*")

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
    statement: cst.CSTNode  # the statement the call belongs to
    analysis: "ModuleAnalysis"  # for rules that need to ask more about the module

    @property
    def position(self) -> CodeRange:
        # Asked only of calls with something to report: a module's positions cost a printing of it.
        return self.analysis.positions[self.call]

    def argument(self, keyword: str) -> Optional[cst.Arg]:
        """The argument passed as ``keyword``; for an entry of an unpacked dict literal
        (``**params``), an ``Arg`` made to hold the entry's original value node."""
        for arg in self.call.args:
            if arg.keyword is not None and arg.keyword.value == keyword:
                return arg
        definition = self.unpacked_dict()
        if definition is not None and keyword in dict_entries(definition.value):
            return cst.Arg(keyword=cst.Name(keyword), value=dict_entries(definition.value)[keyword].value)
        return None

    def has_argument(self, keyword: str) -> bool:
        return self.argument(keyword) is not None

    def unpacked_dict(self) -> Optional["Definition"]:
        """``params`` of ``create(**params)`` when it is a dict literal defined once, in this
        scope, with string keys, and read only by this call: its entries are arguments too."""
        unpacked = [arg for arg in self.call.args if arg.star == "**"]
        if len(unpacked) != 1 or not isinstance(unpacked[0].value, cst.Name):
            return None
        name = unpacked[0].value
        definition = self.analysis.definition(name)
        if (
            definition is None
            or definition.reads != [name]
            or dict_entries(definition.value) is None
            or self.analysis.scopes.get(definition.statement) is not self.analysis.scopes.get(name)
        ):
            return None
        return definition


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

        assert length >= self.alias_depth, "a rewrite must cover the part of the result an alias stands for"
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
class AnnotationUse:
    """A type annotation on a value of a call: its result (``argument`` None), held in a name
    or returned from a function, or the value a name passes as the keyword argument ``argument``."""

    annotation: cst.Annotation
    argument: Optional[str]
    position: CodeRange


@dataclass
class Definition:
    """The one binding of a name: ``NAME = value`` or ``NAME: T = value`` (after any bare ``NAME: T``)."""

    statement: Union[cst.Assign, cst.AnnAssign]
    value: cst.BaseExpression
    reads: List[cst.CSTNode]  # every node that reads the name


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


@dataclass
class _NodeIndex:
    """What one walk of a module learns: each node's parent, and the nodes of each type."""

    parents: Dict[cst.CSTNode, cst.CSTNode] = field(default_factory=dict)
    by_type: Dict[type, List[cst.CSTNode]] = field(default_factory=dict)  # in source order
    # Beside each list of `by_type`, each node's place in source order, for merging lists.
    places: Dict[type, List[int]] = field(default_factory=dict)


class ModuleAnalysis:
    """Metadata-backed questions about one module."""

    def __init__(self, module: cst.Module, options: Options = Options(), source: Optional[bytes] = None) -> None:
        self.module = module
        self.options = options  # the run's options, for hooks whose decision depends on them
        self.source = module.bytes if source is None else source  # what the module was parsed from

    # Metadata is computed on first use: a module read only by rules that report outside any
    # call (``@RULE.module``) often needs no scopes at all, and scopes cost several parses.
    @cached_property
    def positions(self) -> Positions:
        return Positions(self.module)

    @cached_property
    def scopes(self) -> Mapping[cst.CSTNode, Optional[Scope]]:
        return resolve_scopes(self.module)

    @cached_property
    def reaching_definitions(self) -> ReachingDefinitions:
        return ReachingDefinitions(self.module, self.scopes)

    def reaching(self, read: cst.CSTNode) -> List[BaseAssignment]:
        """The bindings that may hold when ``read`` (a read of a name) runs, in source order."""
        return sorted(self.reaching_definitions.reaching(read), key=self._binding_order)

    def reads_of(self, binding: BaseAssignment) -> List[cst.CSTNode]:
        """The reads ``binding`` may reach, in source order."""
        return sorted(self.reaching_definitions.reads_reached_by(binding), key=self._order)

    def value_sources(self, read: cst.CSTNode) -> List[BaseAssignment]:
        """The bindings whose value ``read`` may hold: those that reach it and, through each
        ``x += ...`` among them (which keeps a list the same object), those that reach its ``x``."""
        found: List[BaseAssignment] = []
        pending = self.reaching(read)
        while pending:
            binding = pending.pop()
            if binding in found:
                continue
            found.append(binding)
            statement = self.parents.get(getattr(binding, "node", None))
            if isinstance(statement, cst.AugAssign) and statement.target is binding.node:
                pending.extend(self.reaching(statement.target))
        return sorted(found, key=self._binding_order)

    def _binding_order(self, binding: BaseAssignment) -> Tuple[int, int]:
        node = getattr(binding, "node", None)
        return self._order(node) if node is not None else (0, 0)

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

    @cached_property
    def _imports_by_package(self) -> Dict[str, List[Union[cst.Import, cst.ImportFrom]]]:
        """The import statements naming each top-level package: ``requests`` for ``import
        requests.adapters`` or ``from requests import Session`` (relative imports are this project's)."""
        found: Dict[str, List[Union[cst.Import, cst.ImportFrom]]] = {}
        for node in self.nodes_of(cst.Import, cst.ImportFrom):
            if isinstance(node, cst.Import):
                packages = {get_full_name_for_node(alias.name).split(".")[0] for alias in node.names}
            elif node.module is not None and not node.relative:
                packages = {get_full_name_for_node(node.module).split(".")[0]}
            else:
                continue
            for package in packages:
                found.setdefault(package, []).append(node)
        return found

    @cached_property
    def imported(self) -> List[str]:
        """The qualified names the module's imports bind, as ``migrator.screen.bound_by`` reads
        Python's own nodes: ``openai`` for ``import openai.types``, ``requests.Session`` for
        ``from requests import Session``."""
        found: List[str] = []
        for node in self.nodes_of(cst.Import, cst.ImportFrom):
            if isinstance(node, cst.Import):
                found += [alias.evaluated_name if alias.asname else alias.evaluated_name.split(".")[0] for alias in node.names]
            elif node.module is not None and not node.relative:
                module = get_full_name_for_node(node.module)
                if isinstance(node.names, cst.ImportStar):
                    found.append(module)
                else:
                    found += [f"{module}.{alias.evaluated_name}" for alias in node.names]
        return found

    def names_imported_from(self, packages: Sequence[str]) -> Optional[Set[str]]:
        """The names the imports of these packages bind, anywhere in the module: ``requests`` for
        ``import requests.adapters``, ``S`` for ``from requests import Session as S``; None when
        one imports ``*``, which binds names the module does not spell."""
        names: Set[str] = set()
        for package in packages:
            for node in self._imports_by_package.get(package, []):
                if isinstance(node, cst.ImportFrom) and isinstance(node.names, cst.ImportStar):
                    return None
                for alias in node.names:  # type: ignore[union-attr]
                    if isinstance(node, cst.Import) and get_full_name_for_node(alias.name).split(".")[0] != package:
                        continue  # `import requests, json`: the other module
                    names.add(alias.evaluated_alias or alias.evaluated_name.split(".")[0])
        return names

    def imports_reach(self, modules: Sequence[str]) -> bool:
        """Does an import give the module access to one of ``modules`` or to something in it?
        No name is qualified as part of a module the imports do not reach."""
        return reaches(self.imported, modules)

    @property
    def _openai_imports(self) -> List[Union[cst.Import, cst.ImportFrom]]:
        """The imports of openai or of its modules."""
        return self._imports_by_package.get("openai", [])

    @property
    def imports_openai(self) -> bool:
        return bool(self._openai_imports)

    @cached_property
    def _openai_renames(self) -> Optional[List[Tuple[str, str]]]:
        """``(name, qualified)`` for each name an import of openai binds to something else:
        ``ct`` to ``openai.types.chat`` (``import openai.types.chat as ct``), ``ChatCompletion``
        to ``openai.types.chat.ChatCompletion`` (``from openai.types.chat import ...``). None
        when the module has a class named ``openai``: what it holds is qualified ``openai.NAME``."""
        if any(node.name.value == "openai" for node in self.nodes_of(cst.ClassDef)):
            return None
        renames = []
        for statement in self._openai_imports:
            if isinstance(statement, cst.Import):
                renames += [(alias.evaluated_alias, alias.evaluated_name) for alias in statement.names if alias.evaluated_alias]
            elif not isinstance(statement.names, cst.ImportStar):
                module = get_full_name_for_node(statement.module)
                for alias in statement.names:
                    renames.append((alias.evaluated_alias or alias.evaluated_name, f"{module}.{alias.evaluated_name}"))
        return renames

    def may_name(self, node: cst.CSTNode, *prefixes: str) -> bool:
        """Could ``node`` have a qualified name that starts with one of ``prefixes`` (in openai:
        ``openai.types.chat.``, say)? A test on the code, which spares resolving scopes for the
        nodes that cannot. Scopes qualify a name or attribute as the dotted name it spells
        (``openai.types.chat.X``, a local name, a plain import), or through what an import binds
        its first name to; any other node (a string annotation) through the names it spells."""
        renames = self._openai_renames
        if renames is None:
            return True
        dotted = get_full_name_for_node(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
        if dotted is not None:
            first = dotted.split(".")[0]
            renamed = [qualified + dotted[len(first) :] for name, qualified in renames if name == first]
            return any(spelled.startswith(prefixes) for spelled in [dotted, *renamed])
        names = {"openai"} | {  # ``openai`` stands for itself (a plain import, or a local name)
            name
            for name, qualified in renames
            if qualified.startswith(prefixes) or any(prefix.startswith(qualified + ".") for prefix in prefixes)
        }
        return not names.isdisjoint(IDENTIFIER.findall(self.module.code_for_node(node)))

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

    # -- call sites ---------------------------------------------------------------------

    def call_sites(self) -> List[CallSite]:
        sites = []
        for call in self.nodes_of(cst.Call):
            shape = legacy_call(call)
            if shape is None:
                continue
            receiver, resource, wrapper, kind = shape
            sites.append(
                CallSite(
                    call=call,
                    kind=kind,
                    receiver=receiver,
                    resource=resource,
                    wrapper=wrapper,
                    # Every way a receiver is proved a client goes through an import of openai.
                    traced=self.imports_openai and is_openai_client(receiver, self),
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

    def qualified(self, node: cst.CSTNode, imported_only: bool = False) -> Set[str]:
        """The qualified names ``node`` may stand for; with ``imported_only``, only those it
        takes from an import (``requests.post``), not local ones."""
        return {q.name for q in self._qualified_names(node) if not imported_only or q.source is QualifiedNameSource.IMPORT}

    def imported_as(self, node: cst.CSTNode) -> Set[str]:
        """The qualified names ``node`` stands for when each binding it may have comes from an
        import; none when one does not: in ``openai = Groq()``, ``openai`` is no module, even
        beside an ``import openai``."""
        names = self._qualified_names(node)
        if any(q.source is not QualifiedNameSource.IMPORT for q in names):
            return set()
        return {q.name for q in names}

    def _qualified_names(self, node: cst.CSTNode) -> Collection[QualifiedName]:
        # What QualifiedNameProvider gives, without its walk of the whole module.
        scope = self.scopes.get(node)
        return scope.get_qualified_names_for(node) if scope is not None else ()

    def _self_attribute_bindings(
        self, expr: cst.Attribute
    ) -> List[Tuple[Optional[cst.BaseExpression], Optional[cst.Annotation]]]:
        """``(value, annotation)`` of each binding of ``self.NAME`` in its class: ``self.NAME =
        value``, ``self.NAME: T = value`` and the class-level declaration ``NAME: T (= value)``."""
        cls = self.enclosing(expr, cst.ClassDef)
        if cls is None:
            return []
        bindings: List[Tuple[Optional[cst.BaseExpression], Optional[cst.Annotation]]] = []
        attribute = expr.attr.value
        for node in self.nodes_of(cst.AssignTarget, cst.AnnAssign):
            if isinstance(node, cst.AssignTarget) and _is_self_attribute(node.target, attribute):
                if self._within(node, cls.body):
                    bindings.append((self.parents[node].value, None))
            elif isinstance(node, cst.AnnAssign) and (
                is_name(node.target, attribute) or _is_self_attribute(node.target, attribute)
            ):
                if self._within(node, cls.body):
                    bindings.append((node.value, node.annotation))
        return bindings

    def _within(self, node: cst.CSTNode, ancestor: cst.CSTNode) -> bool:
        """Is ``node`` ``ancestor`` or a part of it?"""
        while node is not None and node is not ancestor:
            node = self.parents.get(node)
        return node is not None

    def bound_values(self, expr: cst.BaseExpression, _seen: Optional[Set[int]] = None) -> List[cst.CSTNode]:
        """What ``expr`` may hold, followed through the names and ``self.`` attributes bound to
        it: the values they are assigned (``x = v``, ``x: T = v``, ``with v as x``), in turn
        followed. A binding that cannot be followed (a parameter, an import, a loop variable)
        stands for itself; any other expression is its own value."""
        seen = _seen if _seen is not None else set()
        if id(expr) in seen:
            return []
        seen.add(id(expr))
        if isinstance(expr, cst.Name):
            scope = self.scopes.get(expr)
            bindings = scope[expr.value] if scope is not None else ()
            values = [self._bound_value(b) for b in bindings if getattr(b, "node", None) is not None]  # not builtins
        elif isinstance(expr, cst.Attribute) and is_name(expr.value, "self"):
            values = [(value, True) for value, _ in self._self_attribute_bindings(expr) if value is not None]
        else:
            return [expr]
        return [
            leaf
            for value, follow in values
            for leaf in (self.bound_values(value, seen) if follow else [value])
        ]

    def _bound_value(self, binding) -> Tuple[cst.CSTNode, bool]:
        """The value one binding of a name assigns, and whether to follow it; or the binding's
        own node (not followed) when it assigns no value the module spells out."""
        node = binding.node
        parent = self.parents.get(node) if isinstance(node, cst.Name) else None
        if isinstance(parent, cst.AssignTarget):
            return self.parents[parent].value, True
        if isinstance(parent, cst.AnnAssign) and parent.value is not None:
            return parent.value, True
        if isinstance(parent, cst.AsName) and isinstance(self.parents.get(parent), cst.WithItem):
            return self.parents[parent].item, True
        return node, False

    # -- Chat Completions types -----------------------------------------------------------

    def chat_type(self, node: cst.CSTNode) -> Optional[str]:
        """The name of the Chat Completions type ``node`` names (``ChatCompletion``,
        ``chat.ChatCompletion``, the string annotation ``"ChatCompletion"``), if it names one."""
        if not isinstance(node, (cst.Name, cst.Attribute, *STRING_NODES)):
            return None
        if not self.may_name(node, CHAT_TYPES + ".", CHAT_SHARED_MODULES):
            return None
        for qualified in self.qualified(node):
            module, _, name = qualified.rpartition(".")
            if module == CHAT_TYPES or module.startswith(CHAT_TYPES + "."):
                return name
            if module.startswith(CHAT_SHARED_MODULES) and name in CHAT_SHARED_TYPES:
                return name
        return None

    def chat_type_references(self, node: cst.CSTNode) -> List[Tuple[cst.CSTNode, str]]:
        """The outermost parts of ``node`` (an annotation, say) that name a Chat type, with the type's name."""
        name = self.chat_type(node)
        if name is not None:
            return [(node, name)]
        return [reference for child in children(node) for reference in self.chat_type_references(child)]

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
        if isinstance(parent, cst.WithItem) and parent.asname is not None:
            self._trace_binding(parent, trace, visited)
            return
        if isinstance(parent, cst.Return):
            self._trace_return(parent, trace, visited)
            return
        if self._trace_argument(use, trace, visited):
            return
        trace.uses.append(use)  # a bare use: the rules decide (a stream loop, say)

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
            trace.escapes.append(Escape("its result is assigned to something other than a plain name", self.positions[statement]))
            return
        self._trace_target(targets[0], statement, trace, visited)

    def trace_name(self, target: cst.Name) -> ResultTrace:
        """Every read of what ``target`` is bound to, by a loop (``for call in ...``) say."""
        trace = ResultTrace()
        self._trace_target(target, self.parents[target], trace, set())
        return trace

    def _trace_target(self, target: cst.Name, statement: cst.CSTNode, trace: ResultTrace, visited: Set[int]) -> None:
        assignment = self._assignment_of(target, target.value)
        if assignment is None:
            trace.escapes.append(Escape(f"`{target.value}` could not be followed", self.positions[target]))
            return
        if isinstance(statement, cst.AnnAssign):
            trace.annotations.append(statement.annotation)
        # Other legacy calls bound to the same variable migrate with this one, even where their
        # results reach other reads: a type checker gives a variable one type.
        scope = self.scopes.get(target)
        trace.co_bound.extend(
            call for call in map(self._assigned_call, scope[target.value] if scope is not None else ())
            if call is not None and call is not self._assigned_call(assignment)
        )
        for read in self.reads_of(assignment):
            others = [other for other in self.reaching(read) if other is not assignment and not self._is_harmless_assignment(other)]
            if others:
                trace.escapes.append(Escape(f"`{target.value}` may also hold a value assigned elsewhere", self.positions[read]))
                continue
            use = self._use_from(read)
            alias = self._alias_statement(use, statement, assignment) if use.path else None
            if not use.path and isinstance(use.parent, cst.Del):
                pass  # ``del result``: nothing depends on what it held
            elif not use.path and isinstance(use.parent, cst.Return):
                self._trace_return(use.parent, trace, visited)
            elif not use.path and isinstance(use.parent, cst.WithItem) and use.parent.asname is not None:
                self._trace_binding(use.parent, trace, visited)
            elif not use.path and self._trace_argument(use, trace, visited):
                pass
            elif alias is not None:
                self._trace_alias(use, alias, trace)
            else:
                trace.uses.append(use)

    def _alias_statement(self, use: ResultUse, binding: cst.CSTNode, assignment: Assignment) -> Optional[cst.SimpleStatementLine]:
        """The line ``alias = result.part`` when reading ``alias`` can be replaced by reading
        ``result.part``: the line follows the one binding ``result`` in the same block (after
        plain assignments and expressions, outside any ``try``), ``result`` is bound nowhere
        else, and ``alias`` is read only where ``result`` means the same."""
        assign = use.parent
        if not (isinstance(assign, cst.Assign) and assign.value is use.outer and len(assign.targets) == 1):
            return None
        if CALL in use.path:
            return None  # reading the alias again must not call anything again
        alias = assign.targets[0].target
        line, binding_line = self.parents.get(assign), self.parents.get(binding)
        if not (isinstance(alias, cst.Name) and _is_plain_line(line)):
            return None
        if not (isinstance(binding_line, cst.SimpleStatementLine) and len(binding_line.body) == 1):
            return None
        result = use.base.value if isinstance(use.base, cst.Name) else None
        body = self.parents.get(line)
        siblings = list(getattr(body, "body", ()))
        if result is None or self.parents.get(binding_line) is not body:
            return None
        between = siblings[siblings.index(binding_line) + 1 : siblings.index(line)]
        if between and not (all(map(_runs_on, between)) and self._exceptions_leave(line)):
            return None  # the alias line could be skipped while the program goes on
        scope = self.scopes.get(use.base)
        alias_assignment = self._assignment_of(alias, alias.value)
        if scope is None or alias_assignment is None:
            return None
        reads = self.reads_of(alias_assignment)
        for read in reads:
            reader = self.scopes.get(read)
            if reader is not scope and not (isinstance(reader, ComprehensionScope) and reader[result] == scope[result]):
                return None
        # Every way to a read of the alias in the block runs the binding line, then the alias
        # line, then the statements up to the read's: ``result`` must not be bound again among
        # them. A read after the block (past a loop, say) needs ``result`` bound nowhere else but
        # to None before it.
        holding = [self._statement_within(body, read) for read in reads]
        first = siblings.index(binding_line)
        last = max([siblings.index(line), *(siblings.index(s) for s in holding if s is not None)])
        for other in scope[result]:
            if other is assignment:
                continue
            node = getattr(other, "node", None)
            if node is None or self.scopes.get(node) is not scope:
                return None  # bound from a nested function: when it runs is unknown
            if None in holding:
                if not (self._is_harmless_assignment(other) and is_name(self.parents[self.parents[node]].value, "None")):
                    return None
                if self._order(node) > self._order(binding_line):
                    return None
                continue
            statement = self._statement_within(body, node)
            if statement is not None and first <= siblings.index(statement) <= last:
                return None
        return line

    def _statement_within(self, body: cst.CSTNode, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        """The statement of the block ``body`` that holds ``node``, if one does."""
        parent = self.parents.get(node)
        while parent is not None and parent is not body:
            node, parent = parent, self.parents.get(parent)
        return node if parent is body else None

    def _exceptions_leave(self, node: cst.CSTNode) -> bool:
        """Does an exception raised at ``node`` leave its function (no ``try`` or ``with`` around
        it there could catch it and let the function go on)?"""
        around = self.enclosing(node, (cst.Try, cst.TryStar, cst.With, cst.FunctionDef, cst.Lambda))
        return not isinstance(around, (cst.Try, cst.TryStar, cst.With))

    def _trace_alias(self, use: ResultUse, line: cst.SimpleStatementLine, trace: ResultTrace) -> None:
        """Every read of the alias ``line`` binds is a use of the result, through the alias."""
        assert isinstance(use.parent, cst.Assign) and isinstance(use.parent.targets[0].target, cst.Name)
        alias = use.parent.targets[0].target
        assignment = self._assignment_of(alias, alias.value)
        assert assignment is not None, "checked by _alias_statement"
        trace.aliases.append(line)
        for node in self.reads_of(assignment):
            if any(other is not assignment and not self._is_harmless_assignment(other) for other in self.reaching(node)):
                trace.escapes.append(Escape(f"`{alias.value}` may also hold a value assigned elsewhere", self.positions[node]))
                continue
            read = self._use_from(node)
            if not read.path and isinstance(read.parent, cst.Del):
                continue
            depth = len(use.path)
            through = ResultUse(
                base=use.base,
                path=use.path + read.path,
                chain=(node,) * depth + read.chain,
                parent=read.parent,
                grandparent=read.grandparent,
                position=read.position,
                code=read.code,
                alias_depth=depth,
            )
            nested = self._alias_statement(read, use.parent, assignment) if read.path else None
            if nested is not None:  # ``calls = message.tool_calls`` after ``message = ...``
                self._trace_alias(through, nested, trace)
            else:
                trace.uses.append(through)

    def referents(self, name: cst.Name) -> List[Assignment]:
        """The bindings a read of ``name`` may see when it runs; empty when one of them is not a
        plain assignment."""
        referents = self.reaching(name)
        return referents if all(isinstance(r, Assignment) for r in referents) else []  # type: ignore[return-value]

    def _is_declaration(self, assignment: Assignment) -> bool:
        """``NAME: T`` without a value only declares the type of the name."""
        statement = self.parents.get(assignment.node)
        return isinstance(statement, cst.AnnAssign) and statement.value is None

    def definition(self, name: cst.Name) -> Optional[Definition]:
        """What a read ``name`` holds when one plain assignment reaches it, and reaches only reads
        that no other binding reaches."""
        bindings = [a for a in self.referents(name) if not self._is_declaration(a)]
        if len(bindings) != 1 or not isinstance(bindings[0].node, cst.Name):
            return None
        return self._definition_of(bindings[0])

    def definition_at(self, target: cst.Name) -> Optional[Definition]:
        """The definition ``target = value`` makes, when each read it reaches sees only it."""
        assignment = self._assignment_of(target, target.value)
        return self._definition_of(assignment) if assignment is not None else None

    def _definition_of(self, binding: Assignment) -> Optional[Definition]:
        parent = self.parents.get(binding.node)
        if isinstance(parent, cst.AssignTarget):
            statement = self.parents[parent]
            if len(statement.targets) != 1:
                return None
        elif isinstance(parent, cst.AnnAssign) and parent.target is binding.node:
            statement = parent
        else:
            return None
        reads = self.reads_of(binding)
        if any(other is not binding and not self._is_declaration(other) for read in reads for other in self.reaching(read)):
            return None
        scope = self.scopes.get(binding.node)
        if isinstance(statement, cst.AnnAssign) and scope is not None and len(scope[binding.name]) > 1:
            return None  # the annotation declares the type of every binding of the name
        return Definition(statement, statement.value, reads)

    def class_attribute(self, node: cst.Attribute) -> Optional[Definition]:
        """What ``self.NAME`` / ``cls.NAME`` / ``Class.NAME`` holds when the module binds ``NAME``
        once, at the class level of that class or as ``self.NAME = value`` in it. Every ``.NAME``
        read anywhere in the module counts as a read (it may be the same attribute)."""
        cls = self._class_named_by(node.value)
        if cls is None:
            return None
        name = node.attr.value
        bindings: List[Union[cst.Assign, cst.AnnAssign]] = []
        reads: List[cst.CSTNode] = []
        for candidate in self.nodes_of(cst.Attribute, cst.ClassDef):
            if isinstance(candidate, cst.Attribute) and candidate.attr.value == name:
                binding = self._binding_statement(candidate)
                if binding is None:
                    reads.append(candidate)
                elif self.enclosing(candidate, cst.ClassDef) is cls and is_name(candidate.value, "self"):
                    bindings.append(binding)
                else:
                    return None  # bound elsewhere, or other than by a plain assignment
            elif isinstance(candidate, cst.ClassDef):
                lines = [line for line in candidate.body.body if isinstance(line, cst.SimpleStatementLine)]
                for small in [small for line in lines for small in line.body]:
                    if isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)) and _binds_name(small, name):
                        if candidate is not cls or isinstance(small, cst.AugAssign):
                            return None
                        bindings.append(small)
                        reads.extend(self._class_level_reads(small, name))
        if len(bindings) != 1 or not isinstance(bindings[0], (cst.Assign, cst.AnnAssign)) or bindings[0].value is None:
            return None
        return Definition(bindings[0], bindings[0].value, sorted(reads, key=self._order))

    def _class_named_by(self, node: cst.BaseExpression) -> Optional[cst.ClassDef]:
        """The class ``self`` / ``cls`` stands for inside its methods, or a module-level class by name."""
        if is_name(node, "self", "cls"):
            cls = self.enclosing(node, cst.ClassDef)
            return cls if isinstance(cls, cst.ClassDef) else None
        if isinstance(node, cst.Name):
            for statement in self.module.body:
                if isinstance(statement, cst.ClassDef) and statement.name.value == node.value:
                    return statement
        return None

    def _binding_statement(self, attribute: cst.Attribute) -> Optional[cst.CSTNode]:
        """The statement that assigns to (or deletes) ``attribute``, if it is a target."""
        node, parent = attribute, self.parents.get(attribute)
        while isinstance(parent, (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
            node, parent = parent, self.parents.get(parent)  # maybe a target of an unpacking
        if isinstance(parent, cst.AssignTarget):
            statement = self.parents[parent]
            return statement if node is attribute and len(statement.targets) == 1 else parent
        if isinstance(parent, (cst.AnnAssign, cst.AugAssign)) and parent.target is node:
            return parent
        if isinstance(parent, (cst.For, cst.CompFor)) and parent.target is node:
            return parent
        if isinstance(parent, (cst.Del, cst.AsName)):
            return parent
        return None

    def _class_level_reads(self, statement: Union[cst.Assign, cst.AnnAssign], name: str) -> List[cst.CSTNode]:
        """Reads of a class-level ``NAME`` by bare name, in the class body itself."""
        target = statement.targets[0].target if isinstance(statement, cst.Assign) else statement.target
        assignment = self._assignment_of(target, name)
        return [access.node for access in assignment.references] if assignment is not None else []

    def can_import(self, name: str, qualified: str, where: cst.CSTNode) -> bool:
        """Would importing ``qualified`` as ``name`` at module level leave every other meaning of
        ``name`` at ``where`` alone? True when ``name`` is unbound there, or is that import already."""
        scope = self.scopes.get(where)
        if scope is None or self._has_star_import:  # ``from x import *`` may bind any name
            return False
        return all(
            qualified in {q.name for q in assignment.get_qualified_names_for(name)} for assignment in scope[name]
        )

    @cached_property
    def _has_star_import(self) -> bool:
        return any(isinstance(node.names, cst.ImportStar) for node in self.nodes_of(cst.ImportFrom))

    def annotations_of(self, name: cst.Name) -> List[cst.Annotation]:
        """The annotations declaring the type of what ``name`` reads: on its assignments or parameter."""
        annotations = []
        for assignment in self.referents(name):
            node = assignment.node
            statement = self.parents.get(node)
            if isinstance(node, cst.Param) and node.annotation is not None:
                annotations.append(node.annotation)
            elif isinstance(statement, cst.AnnAssign) and statement.target is node:
                annotations.append(statement.annotation)
        return annotations

    def binding(self, target: cst.Name) -> Optional[Assignment]:
        """The scope's record of what the name ``target`` binds (an assignment, a loop target, a
        ``with ... as`` target, a parameter's name), with every read of it."""
        return self._assignment_of(target, target.value)

    def _assignment_of(self, target: cst.CSTNode, name: str) -> Optional[Assignment]:
        """The scope's record of ``target`` (a Name assigned to, a def, or a parameter's name)
        binding ``name``."""
        scope = self.scopes.get(target)
        if scope is None:
            return None
        for assignment in scope.assignments[name]:
            node = assignment.node if isinstance(assignment, Assignment) else None
            if node is target or (isinstance(node, cst.Param) and node.name is target):
                return assignment
        return None

    def _trace_argument(self, use: ResultUse, trace: ResultTrace, visited: Set[int]) -> bool:
        """A result passed to a function (or a method of the same class, called on ``self``) of
        this module: its parameter is followed instead (a generator reading a stream, say). Other
        calls of the function must pass that parameter the result of a legacy call too: those
        calls migrate with this one. False when it cannot be followed."""
        arg, call = use.parent, use.grandparent
        if not (isinstance(arg, cst.Arg) and isinstance(call, cst.Call)):
            return False
        function = self._function_called(call)
        if function is None or function.decorators or id(function) in visited:
            return False
        parameter = _parameter_for(function, call, arg)
        callers = self._callers(function)
        if parameter is None or callers is None:
            return False
        passed_too = [self._results_passed(function, parameter, other) for other in callers if other is not call]
        if None in passed_too:
            return False
        visited.add(id(function))
        trace.co_bound.extend(call for calls in passed_too for call in calls or ())
        if self._is_exported(function):
            trace.exported_parameters.append(function.name.value)
        if parameter.annotation is not None:
            trace.annotations.append(parameter.annotation)
        self._trace_target(parameter.name, parameter, trace, visited)
        return True

    def _function_called(self, call: cst.Call) -> Optional[cst.FunctionDef]:
        """The function of this module ``call`` calls: by its name, or ``self.NAME`` in a method."""
        func = call.func
        if isinstance(func, cst.Name):
            bindings = self.referents(func)
            function = bindings[0].node if len(bindings) == 1 else None
            return function if isinstance(function, cst.FunctionDef) else None
        if isinstance(func, cst.Attribute) and is_name(func.value, "self"):
            cls = self.enclosing(func, cst.ClassDef)
            if not isinstance(cls, cst.ClassDef):
                return None
            methods = [
                statement for statement in cls.body.body
                if isinstance(statement, cst.FunctionDef) and statement.name.value == func.attr.value
            ]
            return methods[0] if len(methods) == 1 else None
        return None

    def _results_passed(self, function: cst.FunctionDef, parameter: cst.Param, call: cst.Call) -> Optional[List[cst.Call]]:
        """The legacy calls whose results ``call`` passes ``function`` as ``parameter``; None when
        it passes anything else, or may leave the parameter to its default."""
        for arg in call.args:
            if _parameter_for(function, call, arg) is not parameter:
                continue
            value = arg.value
            if self.co_bound_call(value) is not None:
                return [self.co_bound_call(value)]  # type: ignore[list-item]
            if isinstance(value, cst.Name):
                calls = [self._assigned_call(binding) for binding in self.reaching(value)]
                if calls and None not in calls:
                    return calls  # type: ignore[return-value]
            return None
        return None

    def _is_harmless_assignment(self, assignment) -> bool:
        """``resp = None`` before a loop does not make ``resp`` something else to read, nor does
        the result of another legacy call (``resp = create(...)`` again, to retry): the planner
        migrates the calls that share a name together or not at all."""
        node = getattr(assignment, "node", None)
        parent = self.parents.get(node) if node is not None else None
        if not isinstance(parent, cst.AssignTarget):
            return False
        value = self.parents[parent].value
        return is_name(value, "None") or self.co_bound_call(value) is not None

    def _assigned_call(self, assignment) -> Optional[cst.Call]:
        parent = self.parents.get(getattr(assignment, "node", None))
        return self.co_bound_call(self.parents[parent].value) if isinstance(parent, cst.AssignTarget) else None

    @staticmethod
    def co_bound_call(value: cst.BaseExpression) -> Optional[cst.Call]:
        """The legacy call whose result ``value`` is, if it is one."""
        if isinstance(value, cst.Await):
            value = value.expression
        return value if isinstance(value, cst.Call) and legacy_call(value) is not None else None

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
        if any(self._within(n, function.body) for n in self.nodes_of(cst.Yield)):
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
        if function.returns is not None:
            trace.annotations.append(function.returns)
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
        for node in self.nodes_of(cst.Attribute):
            if node.attr.value != name:
                continue
            call = self.parents.get(node)
            if not (isinstance(call, cst.Call) and call.func is node):
                return None
            receiver = node.value
            inside = self.enclosing(node, cst.ClassDef) is cls and is_name(receiver, "self")
            if not (inside or self._is_instance_of(receiver, cls)):
                return None
            callers.append(call)
        return sorted(callers, key=self._order)

    def _is_instance_of(self, expr: cst.BaseExpression, cls: cst.ClassDef) -> bool:
        if isinstance(expr, cst.Call):
            return is_name(expr.func, cls.name.value)
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

    def use_of(self, node: cst.BaseExpression) -> ResultUse:
        """The read that starts at ``node`` (a name, say): the attributes, constant indexes and
        calls chained on it, and what contains them."""
        return self._use_from(node)

    def _use_from(self, node: cst.BaseExpression) -> ResultUse:
        base = node
        path: List[PathSegment] = []
        chain: List[cst.BaseExpression] = []
        parent = self.parents.get(node)
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


def _parameter_for(function: cst.FunctionDef, call: cst.Call, arg: cst.Arg) -> Optional[cst.Param]:
    """The parameter of ``function`` that ``arg`` of ``call`` binds; None when unclear (``*args``,
    ``**kwargs``, a parameter with a default that another argument may also fill...)."""
    if any(a.star for a in call.args):
        return None
    params = function.params
    if arg.keyword is not None:
        named = [*params.params, *params.kwonly_params]
        return next((p for p in named if p.name.value == arg.keyword.value), None)
    positional = [*params.posonly_params, *params.params]
    if isinstance(call.func, cst.Attribute):
        positional = positional[1:]  # ``self.method(x)``: ``self`` is bound already
    index = [a for a in call.args if a.keyword is None].index(arg)
    return positional[index] if index < len(positional) else None


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
    """A line holding one statement and no comment (above it, after it, or inside it between
    brackets): it can go, or be relied on, as a whole."""
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1):
        return False
    return not any(isinstance(node, cst.Comment) for node in walk(line))


def _runs_on(line: cst.CSTNode) -> bool:
    """A line that goes on to the next one unless it raises: assignments and expressions."""
    return isinstance(line, cst.SimpleStatementLine) and all(
        isinstance(small, (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Expr)) for small in line.body
    )


def _binds_name(statement: Union[cst.Assign, cst.AnnAssign, cst.AugAssign], name: str) -> bool:
    targets = [t.target for t in statement.targets] if isinstance(statement, cst.Assign) else [statement.target]
    return any(is_name(target, name) for target in targets)


def legacy_call(node: cst.Call) -> Optional[Tuple[cst.BaseExpression, Tuple[str, ...], Optional[str], str]]:
    """``(receiver, resource, wrapper, kind)`` when ``node`` is shaped like a legacy method call."""
    attributes: List[str] = []
    func = node.func
    while isinstance(func, cst.Attribute):
        attributes.append(func.attr.value)
        func = func.value
    shape = legacy_method(attributes[::-1])
    if shape is None:
        return None
    resource, wrapper, kind, depth = shape
    return _receiver(node.func, depth), resource, wrapper, kind


def _receiver(func: cst.BaseExpression, depth: int) -> cst.BaseExpression:
    """The expression ``depth`` attribute accesses below ``func``."""
    for _ in range(depth):
        assert isinstance(func, cst.Attribute)
        func = func.value
    return func


def _is_self_attribute(node: cst.BaseExpression, attribute: str) -> bool:
    """``self.<attribute>``."""
    return isinstance(node, cst.Attribute) and is_name(node.value, "self") and node.attr.value == attribute
