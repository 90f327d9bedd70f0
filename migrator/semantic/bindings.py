"""Bindings: what a name holds where it is read. The scopes say which bindings a name has; the
reaching definitions (``migrator.semantic.reaching``) say which of them can hold at a read; a
``Definition`` is a binding whose reads see it alone."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Dict, List, Mapping, Optional, Sequence, Set, Tuple, Union

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import Assignment, BaseAssignment, Scope

from migrator.libcst_internals import resolve_scopes
from migrator.semantic.nodes import Nodes
from migrator.semantic.reaching import ReachingDefinitions
from migrator.shapes import is_name


@dataclass
class Definition:
    """The one binding of a name: ``NAME = value`` or ``NAME: T = value`` (after any bare ``NAME: T``)."""

    statement: Union[cst.Assign, cst.AnnAssign]
    value: cst.BaseExpression
    reads: List[cst.CSTNode]  # every node that reads the name


class Bindings:
    """Questions about the names of one module."""

    def __init__(self, module: cst.Module, nodes: Nodes) -> None:
        self.module = module
        self.nodes = nodes
        # ``self_attribute_accesses``, by class and attribute: each question walks the module.
        self._attribute_accesses: Dict[Tuple[cst.ClassDef, str], Optional[List[cst.Attribute]]] = {}

    @cached_property
    def scopes(self) -> Mapping[cst.CSTNode, Optional[Scope]]:
        return resolve_scopes(self.module)

    @cached_property
    def reaching_definitions(self) -> ReachingDefinitions:
        return ReachingDefinitions(self.module, self.scopes)

    def reaching(self, read: cst.CSTNode) -> List[BaseAssignment]:
        """The bindings that may hold when ``read`` (a read of a name) runs, in source order."""
        return sorted(self.reaching_definitions.reaching(read), key=self._binding_order)

    def holding_at(self, read: cst.CSTNode, name: str) -> Optional[List[BaseAssignment]]:
        """The bindings of ``name`` that may hold when ``read`` (a read of another name of the
        same body) runs, in source order; None where the reaching definitions cannot tell."""
        found = self.reaching_definitions.holding_at(read, name)
        return None if found is None else sorted(found, key=self._binding_order)

    def reads_of(self, binding: BaseAssignment) -> List[cst.CSTNode]:
        """The reads ``binding`` may reach, in source order."""
        return sorted(self.reaching_definitions.reads_reached_by(binding), key=self.nodes.order)

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
            statement = self.nodes.parents.get(getattr(binding, "node", None))
            if isinstance(statement, cst.AugAssign) and statement.target is binding.node:
                pending.extend(self.reaching(statement.target))
        return sorted(found, key=self._binding_order)

    def _binding_order(self, binding: BaseAssignment) -> Tuple[int, int]:
        node = getattr(binding, "node", None)
        return self.nodes.order(node) if node is not None else (0, 0)

    def referents(self, name: cst.Name) -> List[Assignment]:
        """The bindings a read of ``name`` may see when it runs; empty when one of them is not a
        plain assignment."""
        referents = self.reaching(name)
        return referents if all(isinstance(r, Assignment) for r in referents) else []  # type: ignore[return-value]

    def is_declaration(self, assignment: Assignment) -> bool:
        """``NAME: T`` without a value only declares the type of the name."""
        statement = self.nodes.parents.get(assignment.node)
        return isinstance(statement, cst.AnnAssign) and statement.value is None

    def definition(self, name: cst.Name) -> Optional[Definition]:
        """What a read ``name`` holds when one plain assignment reaches it, and reaches only reads
        that no other binding reaches."""
        bindings = [a for a in self.referents(name) if not self.is_declaration(a)]
        if len(bindings) != 1 or not isinstance(bindings[0].node, cst.Name):
            return None
        return self._definition_of(bindings[0])

    def definition_at(self, target: cst.Name) -> Optional[Definition]:
        """The definition ``target = value`` makes, when each read it reaches sees only it."""
        assignment = self.assignment_of(target, target.value)
        return self._definition_of(assignment) if assignment is not None else None

    def _definition_of(self, binding: Assignment) -> Optional[Definition]:
        parent = self.nodes.parents.get(binding.node)
        if isinstance(parent, cst.AssignTarget):
            statement = self.nodes.parents[parent]
            if len(statement.targets) != 1:
                return None
        elif isinstance(parent, cst.AnnAssign) and parent.target is binding.node:
            statement = parent
        else:
            return None
        reads = self.reads_of(binding)
        if any(other is not binding and not self.is_declaration(other) for read in reads for other in self.reaching(read)):
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
        for candidate in self.nodes.nodes_of(cst.Attribute, cst.ClassDef):
            if isinstance(candidate, cst.Attribute) and candidate.attr.value == name:
                binding = self._binding_statement(candidate)
                if binding is None:
                    reads.append(candidate)
                elif self.nodes.enclosing(candidate, cst.ClassDef) is cls and is_name(candidate.value, "self"):
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
        return Definition(bindings[0], bindings[0].value, sorted(reads, key=self.nodes.order))

    def _class_named_by(self, node: cst.BaseExpression) -> Optional[cst.ClassDef]:
        """The class ``self`` / ``cls`` stands for inside its methods, or a module-level class by name."""
        if is_name(node, "self", "cls"):
            cls = self.nodes.enclosing(node, cst.ClassDef)
            return cls if isinstance(cls, cst.ClassDef) else None
        if isinstance(node, cst.Name):
            for statement in self.module.body:
                if isinstance(statement, cst.ClassDef) and statement.name.value == node.value:
                    return statement
        return None

    def _binding_statement(self, attribute: cst.Attribute) -> Optional[cst.CSTNode]:
        """The statement that assigns to (or deletes) ``attribute``, if it is a target."""
        node, parent = attribute, self.nodes.parents.get(attribute)
        while isinstance(parent, (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
            node, parent = parent, self.nodes.parents.get(parent)  # maybe a target of an unpacking
        if isinstance(parent, cst.AssignTarget):
            statement = self.nodes.parents[parent]
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
        assignment = self.assignment_of(target, name)
        return [access.node for access in assignment.references] if assignment is not None else []

    def annotations_of(self, name: Union[cst.Name, cst.Attribute]) -> List[cst.Annotation]:
        """The annotations declaring the type of what ``name`` reads: on its assignments or
        parameter; for ``self.NAME``, on its assignments in the methods of its class
        (``self.history: List[...] = []``)."""
        annotations = []
        if isinstance(name, cst.Attribute):
            accesses = self.self_attribute_accesses(name) if is_name(name.value, "self") else None
            for access in accesses or ():
                statement = self.nodes.parents.get(access)
                if isinstance(statement, cst.AnnAssign) and statement.target is access:
                    annotations.append(statement.annotation)
            return annotations
        for assignment in self.referents(name):
            node = assignment.node
            statement = self.nodes.parents.get(node)
            if isinstance(node, cst.Param) and node.annotation is not None:
                annotations.append(node.annotation)
            elif isinstance(statement, cst.AnnAssign) and statement.target is node:
                annotations.append(statement.annotation)
        return annotations

    def binding(self, target: cst.Name) -> Optional[Assignment]:
        """The scope's record of what the name ``target`` binds (an assignment, a loop target, a
        ``with ... as`` target, a parameter's name), with every read of it."""
        return self.assignment_of(target, target.value)

    def assignment_of(self, target: cst.CSTNode, name: str) -> Optional[Assignment]:
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

    def reaching_values(self, expr: cst.BaseExpression) -> List[cst.CSTNode]:
        """``bound_values`` where ``expr`` is read: for a name, only the bindings that reach
        this read (not one made after it, or on another path), each followed as there."""
        if not isinstance(expr, cst.Name) or self.scopes.get(expr) is None:
            return self.bound_values(expr)
        seen: Set[int] = {id(expr)}
        values = [self._bound_value(binding) for binding in self.reaching(expr) if getattr(binding, "node", None) is not None]
        return [leaf for value, follow in values for leaf in (self.bound_values(value, seen) if follow else [value])]

    def _bound_value(self, binding) -> Tuple[cst.CSTNode, bool]:
        """The value one binding of a name assigns, and whether to follow it; or the binding's
        own node (not followed) when it assigns no value the module spells out."""
        node = binding.node
        parent = self.nodes.parents.get(node) if isinstance(node, cst.Name) else None
        if isinstance(parent, cst.AssignTarget):
            return self.nodes.parents[parent].value, True
        if isinstance(parent, cst.AnnAssign) and parent.value is not None:
            return parent.value, True
        if isinstance(parent, cst.AsName) and isinstance(self.nodes.parents.get(parent), cst.WithItem):
            return self.nodes.parents[parent].item, True
        return node, False

    def bound_in(self, name: cst.Name, statements: Sequence[cst.CSTNode]) -> bool:
        """Is the variable ``name`` reads bound anywhere inside one of ``statements``? True when
        its scope is unknown."""
        scope = self.scopes.get(name)
        if scope is None:
            return True
        bound = [node for node in (getattr(a, "node", None) for a in scope[name.value]) if node is not None]
        return any(self.nodes.within(node, statement) for node in bound for statement in statements)

    def self_attribute_accesses(self, expr: cst.Attribute) -> Optional[List[cst.Attribute]]:
        """Every ``self.NAME`` in the methods of the class ``expr`` (one of them) is read in, reads
        and bindings, in source order; None when ``NAME`` may be reached otherwise: on anything but
        a method's ``self`` anywhere in the module (an instance, a nested function), in a class
        that is not at module level or has a subclass here, declared in the class body, or through
        ``setattr``, ``delattr``, ``vars`` or ``__dict__``."""
        cls = self.nodes.enclosing(expr, cst.ClassDef)
        if cls is None or self.nodes.parents.get(cls) is not self.module:
            return None
        key = (cls, expr.attr.value)
        if key not in self._attribute_accesses:
            self._attribute_accesses[key] = self._accesses_in_methods(cls, expr.attr.value)
        return self._attribute_accesses[key]

    def _accesses_in_methods(self, cls: cst.ClassDef, attribute: str) -> Optional[List[cst.Attribute]]:
        if any(get_full_name_for_node(base.value) == cls.name.value for other in self.nodes.nodes_of(cst.ClassDef) for base in other.bases):
            return None
        declarations = [small for line in cls.body.body if isinstance(line, cst.SimpleStatementLine) for small in line.body]
        if any(isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)) and _binds_name(small, attribute) for small in declarations):
            return None
        if any(node.value in ("setattr", "delattr", "vars", "__dict__") for node in self.nodes.nodes_of(cst.Name)):
            return None
        accesses = []
        for node in self.nodes.nodes_of(cst.Attribute):
            if node.attr.value != attribute:
                continue
            if not (isinstance(node.value, cst.Name) and _is_method_self(node.value, cls, self)):
                return None
            accesses.append(node)
        return sorted(accesses, key=self.nodes.order)

    def _self_attribute_bindings(
        self, expr: cst.Attribute
    ) -> List[Tuple[Optional[cst.BaseExpression], Optional[cst.Annotation]]]:
        """``(value, annotation)`` of each binding of ``self.NAME`` in its class: ``self.NAME =
        value``, ``self.NAME: T = value`` and the class-level declaration ``NAME: T (= value)``."""
        cls = self.nodes.enclosing(expr, cst.ClassDef)
        if cls is None:
            return []
        bindings: List[Tuple[Optional[cst.BaseExpression], Optional[cst.Annotation]]] = []
        attribute = expr.attr.value
        for node in self.nodes.nodes_of(cst.AssignTarget, cst.AnnAssign):
            if isinstance(node, cst.AssignTarget) and _is_self_attribute(node.target, attribute):
                if self.nodes.within(node, cls.body):
                    bindings.append((self.nodes.parents[node].value, None))
            elif isinstance(node, cst.AnnAssign) and (
                is_name(node.target, attribute) or _is_self_attribute(node.target, attribute)
            ):
                if self.nodes.within(node, cls.body):
                    bindings.append((node.value, node.annotation))
        return bindings


def _is_method_self(node: cst.Name, cls: cst.ClassDef, bindings: "Bindings") -> bool:
    """Is ``node`` the ``self`` of a method of ``cls``: the first parameter of a function defined
    in its body, neither a static nor a class method, that binds it nowhere else?"""
    function = bindings.nodes.enclosing(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef))
    if not (isinstance(function, cst.FunctionDef) and bindings.nodes.parents.get(function) is cls.body):
        return False
    if any(get_full_name_for_node(d.decorator) in ("staticmethod", "classmethod") for d in function.decorators):
        return False
    params = [*function.params.posonly_params, *function.params.params]
    if not params or params[0].name.value != node.value:
        return False
    scope = bindings.scopes.get(node)
    return scope is not None and len(scope.assignments[node.value]) == 1


def _binds_name(statement: Union[cst.Assign, cst.AnnAssign, cst.AugAssign], name: str) -> bool:
    targets = [t.target for t in statement.targets] if isinstance(statement, cst.Assign) else [statement.target]
    return any(is_name(target, name) for target in targets)


def _is_self_attribute(node: cst.BaseExpression, attribute: str) -> bool:
    """``self.<attribute>``."""
    return isinstance(node, cst.Attribute) and is_name(node.value, "self") and node.attr.value == attribute
