"""Which expressions are OpenAI clients: the proof a call needs before it is migrated.

Other SDKs (Groq, Together, Mistral, ...) copy the OpenAI method names, so a call shaped like
``X.chat.completions.create(...)`` is migrated only when ``X`` is provably an OpenAI client:
when every value it can hold is

- made by an OpenAI client class (``OpenAI()``, ``AsyncAzureOpenAI(...)``), or a copy of a
  client (``client.with_options(...)``), or the ``openai`` module (which has a client of its own);
- declared a client by a type annotation: of a parameter (``client: OpenAI``,
  ``Optional[OpenAI]`` where ``None`` cannot be the value, ``"OpenAI"``), of a name, of a
  class-level attribute, or the return type of a function of the module;
- returned by every ``return`` of a function of the module (``get_client()``);
- bound to a name, or to an attribute (``self.client``, ``Bot.client``) that nothing else in
  the module binds to anything else;
- ``x or OpenAI()``, ``x if x else OpenAI()``: either side, where ``x`` is a client or None;
- imported from another module of the project that makes it a client, or a function returning
  one, and binds it nowhere else (``from .llm import client``; see ``migrator.project``);
- a parameter without an annotation of a function (or ``__init__``) that no other module of
  the project imports, when every call of it in the module passes a client (or leaves a
  default that is one); a function used other than by calling it proves nothing, since code
  elsewhere may pass a Groq client.

The same proof, with another SDK's classes in place of OpenAI's (a class imported from a
package other than openai: ``Groq()``, ``client: Mistral``), proves that a receiver is another
SDK's client, whose calls are neither migrated nor reported. A class of another package whose
qualified name mentions openai (``langfuse.openai.OpenAI``) proves nothing: such classes are
the drop-in wrappers of OpenAI's clients.

Knowledge of code in general (scopes, bindings, qualified names) comes from the analysis; this
module knows only what makes a client.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import Assignment, QualifiedNameSource

from migrator.passed_values import OPENAI_CLIENT as OPENAI_CLIENT_PASSED
from migrator.project import CLIENT_SUBCLASS_MEMBERS
from migrator.shapes import is_name

if TYPE_CHECKING:
    from migrator.analysis import ModuleAnalysis
    from migrator.model import ImportedClient

CLIENT_CLASSES: FrozenSet[str] = frozenset(
    f"{module}.{name}"
    for module in ("openai", "openai._client", "openai.lib.azure")
    for name in ("OpenAI", "AsyncOpenAI", "AzureOpenAI", "AsyncAzureOpenAI")
) | {
    # The SDK's other names for the same classes: `openai.Client is openai.OpenAI`.
    f"{module}.{name}" for module in ("openai", "openai._client") for name in ("Client", "AsyncClient")
}
AZURE_CLIENT_CLASSES = frozenset(name for name in CLIENT_CLASSES if "Azure" in name)
# Methods of a client that return another client of the same kind.
CLIENT_COPY_METHODS = frozenset({"with_options", "copy"})

# What an annotation declares: always a client, or a client or None.
CLIENT, OPTIONAL_CLIENT = "client", "optional client"
# Values an annotation may allow: a client, None, anything else.
_CLIENT_TYPE, _NONE_TYPE, _OTHER_TYPE = "client", "None", "other"

# Where a client comes from: ``OpenAI(...)``, a copy, an annotated parameter or name, the
# ``openai`` module. None stands for "not provably a client".
Origins = Optional[List[cst.CSTNode]]


@dataclass(frozen=True)
class ClientKind:
    """What makes a client of one kind."""

    # Given the qualified names a called or annotating name stands for (``{"openai.OpenAI"}``),
    # do they name a class whose instances are such clients?
    names_class: Callable[[Set[str]], bool]
    module: Optional[str] = None  # a module that is a client itself (``openai.chat.completions``)
    # The other modules of the project say what they make (``migrator.project``): OpenAI's only.
    from_project: bool = False


# Packages whose classes (``typing.Any``, ``collections.abc.Callable``) say nothing of an SDK
# (Python 3.9 has no list of the standard library's modules: those used in annotations, then).
_STANDARD_PACKAGES = frozenset(
    getattr(sys, "stdlib_module_names", ("typing", "abc", "collections", "types", "builtins"))
) | {"typing_extensions"}


def _names_another_sdks_class(names: Set[str]) -> bool:
    """Is each of ``names`` a class (CapWords, by PEP 8) imported from a package other than
    openai and the standard library, whose name does not mention openai?"""
    return bool(names) and all(
        not qualified.startswith(".")  # a relative import: this project's module, which may subclass OpenAI
        and "." in qualified
        and qualified.split(".")[0] not in _STANDARD_PACKAGES
        and "openai" not in qualified.lower()
        and qualified.rpartition(".")[2][:1].isupper()
        and not qualified.rpartition(".")[2].isupper()  # a constant (an instance, maybe OpenAI's)
        for qualified in names
    )


# Every class the name may stand for is the SDK's client: not one of several imports tried in
# turn (``except ImportError: from groq import Groq as OpenAI``).
OPENAI_CLIENT = ClientKind(names_class=lambda names: bool(names) and names <= CLIENT_CLASSES, module="openai", from_project=True)
OTHER_SDK_CLIENT = ClientKind(names_class=_names_another_sdks_class)


def is_client_copy(call: cst.Call) -> bool:
    """``<client>.with_options(...)``, ``<client>.copy(...)``: when the receiver is a client, a
    client of the same kind."""
    return isinstance(call.func, cst.Attribute) and call.func.attr.value in CLIENT_COPY_METHODS


def client_subclass(func: cst.BaseExpression, analysis: "ModuleAnalysis") -> Optional[cst.ClassDef]:
    """The class of this module ``func`` names, when it subclasses one of the SDK's client
    classes and defines nothing but how it is built: building it builds such a client.
    (``migrator.project`` answers the same for the classes of other modules.)"""
    referents = analysis.bindings.referents(func) if isinstance(func, cst.Name) else []
    cls = referents[0].node if len(referents) == 1 else None
    if not isinstance(cls, cst.ClassDef) or analysis.nodes.parents.get(cls) is not analysis.module:
        return None
    if len(cls.bases) != 1 or cls.keywords or cls.decorators or cls.bases[0].keyword is not None:
        return None
    if not analysis.imports.imported_as(cls.bases[0].value) & CLIENT_CLASSES:
        return None
    return cls if all(_only_builds(statement) for statement in cls.body.body) else None


def _only_builds(statement: cst.BaseStatement) -> bool:
    """Is ``statement``, in a class body, a docstring, ``pass`` or a method that builds it?"""
    if isinstance(statement, cst.FunctionDef):
        return statement.name.value in CLIENT_SUBCLASS_MEMBERS and not statement.decorators
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(small, cst.Pass) or isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString))
        for small in statement.body
    )


def is_openai_client(expr: cst.BaseExpression, analysis: "ModuleAnalysis") -> bool:
    """Is ``expr`` provably an OpenAI client (or the ``openai`` module)?"""
    return client_origins(expr, analysis) is not None


def is_openai_receiver(expr: cst.BaseExpression, analysis: "ModuleAnalysis") -> bool:
    """Is ``expr``, the receiver of a call, provably an OpenAI client whenever it is not None?
    A call on None fails alike on either API (a factory that returns nothing without a key)."""
    return _ClientProof(analysis, OPENAI_CLIENT).origins(expr, none_allowed=True) not in (None, [])


def is_other_sdk_client(expr: cst.BaseExpression, analysis: "ModuleAnalysis") -> bool:
    """Is ``expr`` provably a client of another SDK (``Groq()``), never OpenAI's?"""
    return _ClientProof(analysis, OTHER_SDK_CLIENT).origins(expr, none_allowed=False) is not None


def possible_origins(client: cst.BaseExpression, analysis: "ModuleAnalysis") -> List[cst.CSTNode]:
    """Where the client ``client`` holds may be made: the origins its proof as a receiver finds
    (a client, or None), then what the names it is read through are assigned (for a client the
    proof gives up on, which ``--assume-openai`` migrates anyway). For rules that ask how a
    client was built."""
    proved = _ClientProof(analysis, OPENAI_CLIENT).origins(client, none_allowed=True)
    return [*(proved or []), *analysis.bindings.bound_values(client)]


def declared_origins(client: cst.BaseExpression, analysis: "ModuleAnalysis") -> List[Tuple[cst.CSTNode, cst.Annotation]]:
    """The origins of the client ``client`` holds that only an annotation makes a client (a
    parameter ``client: OpenAI``, ``client: OpenAI = session["client"]``, a call of a function
    declared to return one whose ``return``s the proof does not follow), each with that
    annotation: such a client is built out of sight. For rules that ask how a client was built."""
    proof = _ClientProof(analysis, OPENAI_CLIENT)
    origins = proof.origins(client, none_allowed=True) or []
    return [(origin, proof.declarations[id(origin)]) for origin in origins if id(origin) in proof.declarations]


def imported_client(origin: cst.CSTNode, analysis: "ModuleAnalysis") -> Optional["ImportedClient"]:
    """What another module of the project says of the client made at ``origin``, when it is
    made there: an imported name (``from .llm import client``), ``llm.client``, or a call of an
    imported function (``make_client()``). Ask it last: it makes the project index itself."""
    name = None
    if isinstance(origin, cst.ImportAlias):
        name = origin.evaluated_alias or origin.evaluated_name
    elif isinstance(origin, cst.Attribute) and _reads_imported_module(origin, analysis):
        name = get_full_name_for_node(origin)
    elif isinstance(origin, cst.Call) and isinstance(origin.func, cst.Name):
        referents = analysis.bindings.referents(origin.func)
        if len(referents) == 1 and isinstance(referents[0].node, cst.ImportFrom):
            name = origin.func.value
    return analysis.project.client(name) if name else None


def client_origins(expr: cst.BaseExpression, analysis: "ModuleAnalysis") -> Origins:
    """Where the client ``expr`` holds can come from: the calls that make it (``OpenAI(...)``,
    ``client.with_options(...)``), the parameters and annotated bindings that declare it, the
    ``openai`` module; None when ``expr`` is not provably a client."""
    return _ClientProof(analysis, OPENAI_CLIENT).origins(expr, none_allowed=False)


class _ClientProof:
    """One question, ``is this a client of this kind?``, followed through the module: each
    value is asked once, and a value that depends on itself proves nothing."""

    def __init__(self, analysis: "ModuleAnalysis", kind: ClientKind) -> None:
        self.analysis = analysis
        self.kind = kind
        self.answers: Dict[Tuple[int, bool], Origins] = {}
        self.asking: Set[Tuple[int, bool]] = set()
        self.declarations: Dict[int, cst.Annotation] = {}  # the origins an annotation alone proves, by id

    def origins(self, expr: cst.BaseExpression, none_allowed: bool) -> Origins:
        """The origins of ``expr`` when it is a client, or (``none_allowed``) a client or None."""
        key = (id(expr), none_allowed)
        if key in self.answers:
            return self.answers[key]
        if key in self.asking:
            return None
        self.asking.add(key)
        answer = self._origins(expr, none_allowed)
        self.asking.discard(key)
        self.answers[key] = answer
        return answer

    def _origins(self, expr: cst.BaseExpression, none_allowed: bool) -> Origins:
        if is_name(expr, "None"):
            return [] if none_allowed else None
        if isinstance(expr, cst.Name):
            if self.kind.module is not None and self.kind.module in self.analysis.imports.imported_as(expr):
                return [expr]
            bindings = self.analysis.bindings.referents(expr)
            return _all(self._binding(binding, none_allowed) for binding in bindings) if bindings else None
        if isinstance(expr, cst.Call):
            return self._call(expr, none_allowed, awaited=False)
        if isinstance(expr, cst.Await) and isinstance(expr.expression, cst.Call):
            return self._call(expr.expression, none_allowed, awaited=True)
        if isinstance(expr, cst.Attribute):
            return self._attribute(expr, none_allowed)
        if isinstance(expr, cst.BooleanOperation) and isinstance(expr.operator, cst.Or):
            # The left side is the value only when it is true: never when it is None.
            return _all([self.origins(expr.left, True), self.origins(expr.right, none_allowed)])
        if isinstance(expr, cst.IfExp):
            body_tested, orelse_tested = _tested_branches(expr)
            return _all([
                self.origins(expr.body, none_allowed or body_tested),
                self.origins(expr.orelse, none_allowed or orelse_tested),
            ])
        return None

    def _binding(self, binding: Assignment, none_allowed: bool) -> Origins:
        """What one binding of a name holds."""
        node = binding.node
        if isinstance(node, cst.Param):
            return self._parameter(node, none_allowed)
        parent = self.analysis.nodes.parents.get(node) if isinstance(node, cst.Name) else None
        if isinstance(parent, cst.AssignTarget):
            return self.origins(self.analysis.nodes.parents[parent].value, none_allowed)
        if isinstance(parent, cst.AnnAssign) and parent.target is node:
            return self._declared(node, parent.value, parent.annotation, none_allowed)
        if isinstance(parent, cst.AsName) and isinstance(self.analysis.nodes.parents.get(parent), cst.WithItem):
            return self.origins(self.analysis.nodes.parents[parent].item, none_allowed)  # a client's __enter__ returns it
        if isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar) and self.kind.from_project:
            imported = self.analysis.project.client(binding.name)
            if imported is None or imported.kind != "client":
                return None
            return [alias for alias in node.names if (alias.evaluated_alias or alias.evaluated_name) == binding.name]
        return None

    def _declared(
        self, target: cst.CSTNode, value: Optional[cst.BaseExpression], annotation: Optional[cst.Annotation], none_allowed: bool
    ) -> Origins:
        """``target: annotation = value``: the value's origins when they are known, else the
        annotation's word for it (``value`` itself, for the servers it may name)."""
        known = self.origins(value, none_allowed) if value is not None else None
        if known is not None or annotation is None or (value is not None and is_name(value, "None")):
            return known
        return self._declaration(value or target, annotation, none_allowed)

    def _declaration(self, origin: cst.CSTNode, annotation: cst.Annotation, none_allowed: bool) -> Origins:
        """``[origin]`` when ``annotation`` alone declares it a client, noted as such."""
        if not self._declares_client(annotation, none_allowed):
            return None
        self.declarations[id(origin)] = annotation
        return [origin]

    def _parameter(self, param: cst.Param, none_allowed: bool) -> Origins:
        parameters = self.analysis.nodes.parents.get(param)
        if isinstance(parameters, cst.Parameters) and param in (parameters.star_arg, parameters.star_kwarg):
            return None  # a tuple or a dict of what the annotation says
        if param.annotation is None:
            return self._passed_by_every_call(param, none_allowed)
        if param.default is not None and is_name(param.default, "None"):
            # ``client: OpenAI = None`` holds None unless a caller passes a client.
            return self._declaration(param, param.annotation, True) if none_allowed else None
        return self._declaration(param, param.annotation, none_allowed)

    def _passed_by_every_call(self, param: cst.Param, none_allowed: bool) -> Origins:
        """An unannotated parameter of a function (or a class's ``__init__``) that only this
        module calls, no other module of the project importing it: what every call passes. Or
        one of a function (or a method) other modules call: a client of OpenAI's own server
        that each of their calls builds, and what each call of this module passes."""
        passed = self.analysis.passed_by_every_call(param)
        if passed is not None:
            return _all(self.origins(value, none_allowed) for value in passed)
        if not self.kind.from_project or self.analysis.called_from_other_modules(param) is None:
            return None
        given = self.analysis.passed_by_other_modules(param)
        if not given or any(each != OPENAI_CLIENT_PASSED for each in given):
            return None
        function = self.analysis.nodes.function_of(param)
        callers = self.analysis.flow.callers(function) if function is not None else None
        if callers is None:
            return None
        here = [self.analysis.flow.passed(function, call, param) for call in callers]
        if any(value is None for value in here):
            return None
        return _all([[param], *(self.origins(value, none_allowed) for value in here)])  # type: ignore[arg-type]

    def _call(self, call: cst.Call, none_allowed: bool, awaited: bool) -> Origins:
        func = call.func
        if not awaited and (self.kind.names_class(self.analysis.imports.imported_as(func)) or self._class_or_none(func)):
            return None if not self.kind.from_project and self._project_class(func) else [call]
        if not awaited and isinstance(func, cst.Attribute) and func.attr.value in CLIENT_COPY_METHODS:
            return [call] if self.origins(func.value, False) is not None else None
        function = self.analysis.flow.function_called(call)
        if function is None:
            if not awaited and self.kind.from_project and client_subclass(func, self.analysis) is not None:
                return [call]
            return [call] if self._imported_factory(func, awaited) else None
        if awaited != (function.asynchronous is not None):
            return None
        return self._returned(function, call, none_allowed)

    def _class_or_none(self, func: cst.BaseExpression) -> bool:
        """Is ``func`` a name bound by imports of the client class, or else to None where the
        import may fail (``except ImportError: OpenAI = None``)? Calling None raises alike
        whichever API the client would call."""
        bindings = self.analysis.bindings.referents(func) if isinstance(func, cst.Name) else []
        others = [binding for binding in bindings if not isinstance(binding.node, (cst.Import, cst.ImportFrom))]
        if not others or len(others) == len(bindings) or not all(self._binds_none(binding) for binding in others):
            return False
        return self.kind.names_class(self.analysis.imports.qualified(func, imported_only=True))

    def _binds_none(self, binding: Assignment) -> bool:
        target = self.analysis.nodes.parents.get(binding.node)
        statement = self.analysis.nodes.parents.get(target) if isinstance(target, cst.AssignTarget) else None
        return isinstance(statement, cst.Assign) and len(statement.targets) == 1 and is_name(statement.value, "None")

    def _project_class(self, func: cst.BaseExpression) -> bool:
        """Is ``func`` a class another module of the project defines (which may subclass or wrap
        OpenAI's client, so it is no other SDK's)?"""
        imported = self._from_project(func)
        return imported is not None and imported.kind in ("class", "other class")

    def _imported_factory(self, func: cst.BaseExpression, awaited: bool) -> bool:
        """Is ``func`` a function imported from a module of the project that returns a client,
        or a subclass of the SDK's client defined there?"""
        imported = self._from_project(func) if self.kind.from_project else None
        return imported is not None and imported.kind in (("async factory",) if awaited else ("factory", "class"))

    def _from_project(self, func: cst.BaseExpression) -> Optional["ImportedClient"]:
        """What the module of the project ``func`` is imported from (``from .llm import make``)
        says it is, when it is a client, a factory or a class."""
        bindings = self.analysis.bindings.referents(func) if isinstance(func, cst.Name) else None
        if not bindings or len(bindings) != 1 or not isinstance(bindings[0].node, cst.ImportFrom):
            return None
        return self.analysis.project.client(bindings[0].name)

    def _returned(self, function: cst.FunctionDef, call: cst.Call, none_allowed: bool) -> Origins:
        """What a call of ``function`` returns: what each of its ``return``s returns, or its
        return annotation's word for it."""
        analysis = self.analysis
        if not analysis.flow.passes_values_through(function) or analysis.nodes.is_generator(function):
            return None
        returns = analysis.nodes.returns_of(function)
        last = function.body.body[-1] if function.body.body else None
        ends_in_return = isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], (cst.Return, cst.Raise))
        returned = _all(
            [self.origins(node.value or cst.Name("None"), none_allowed) for node in returns]
            + ([] if ends_in_return else [[] if none_allowed else None])  # falling off the end returns None
        )
        if returned is not None or function.returns is None:
            return returned
        return self._declaration(call, function.returns, none_allowed)

    def _attribute(self, expr: cst.Attribute, none_allowed: bool) -> Origins:
        """``self.client``, ``Bot.client``: what every binding of the attribute in the module
        holds; ``llm.client`` after ``import llm``: what that module makes it."""
        if self.kind.from_project and _reads_imported_module(expr, self.analysis):
            imported = self.analysis.project.client(get_full_name_for_node(expr))
            return [expr] if imported is not None and imported.kind == "client" else None
        owner = self._class_of(expr.value)
        bindings = self._attribute_bindings(owner, expr.attr.value) if owner is not None else None
        if not bindings:
            return None
        return _all(self._declared(target, value, annotation, none_allowed) for target, value, annotation in bindings)

    def _class_of(self, expr: cst.BaseExpression) -> Optional[cst.ClassDef]:
        """The class of the module whose instances (``self``) or whose own attributes ``expr`` reads."""
        if is_name(expr, "self", "cls"):
            owner = self.analysis.nodes.enclosing(expr, cst.ClassDef)
        elif isinstance(expr, cst.Name):
            bindings = self.analysis.bindings.referents(expr)
            owner = bindings[0].node if bindings is not None and len(bindings) == 1 else None
        else:
            return None
        return owner if isinstance(owner, cst.ClassDef) else None

    def _attribute_bindings(
        self, owner: cst.ClassDef, name: str
    ) -> Optional[List[Tuple[cst.CSTNode, Optional[cst.BaseExpression], Optional[cst.Annotation]]]]:
        """``(target, value, annotation)`` for each binding in the module that may set the
        attribute ``name`` of ``owner``'s instances: ``x.name = value`` anywhere (but ``self.name``
        in classes unrelated to ``owner``), ``name = value`` in the body of a related class. None
        when one binds it some other way (unpacked, augmented, deleted, a method)."""
        analysis = self.analysis
        related = _related_classes(owner, analysis)
        bindings = []
        for node in analysis.nodes.nodes_of(cst.Attribute):
            if node.attr.value != name:
                continue
            binding = _attribute_binding(node, analysis)
            if binding is None:
                continue  # a read
            cls = analysis.nodes.enclosing(node, cst.ClassDef)
            if is_name(node.value, "self") and cls is not None and cls not in related:
                continue  # sets the attribute of another class's instances
            if not binding:
                return None
            bindings.append(binding[0])
        for cls in related:
            scope = analysis.bindings.scopes.get(cls.body.body[0]) if cls.body.body else None
            for assignment in scope.assignments[name] if scope is not None else ():
                target = assignment.node
                parent = analysis.nodes.parents.get(target)
                if isinstance(parent, cst.AssignTarget):
                    bindings.append((target, analysis.nodes.parents[parent].value, None))
                elif isinstance(parent, cst.AnnAssign) and parent.target is target:
                    bindings.append((target, parent.value, parent.annotation))
                else:
                    return None  # a method or property, a loop, an import...
        return bindings

    def _declares_client(self, annotation: cst.Annotation, none_allowed: bool) -> bool:
        """Does ``annotation`` declare a client (or, with ``none_allowed``, maybe None)?"""
        node = annotation.annotation
        if isinstance(node, cst.SimpleString):  # ``"OpenAI"``: its names mean what they mean where it is
            scope = self.analysis.bindings.scopes.get(node)
            try:
                node = cst.parse_expression(node.evaluated_value)
            except (cst.ParserSyntaxError, TypeError):
                return False

            def imported(spelled: cst.BaseExpression) -> Set[str]:
                dotted = get_full_name_for_node(spelled)
                names = scope.get_qualified_names_for(dotted) if scope is not None and dotted else set()
                return {q.name for q in names} if all(q.source is QualifiedNameSource.IMPORT for q in names) else set()

            kinds = _type_members(node, imported, self.kind)
        else:
            subclass = (lambda name: client_subclass(name, self.analysis) is not None) if self.kind.from_project else None
            kinds = _type_members(node, self.analysis.imports.imported_as, self.kind, subclass)
        return _CLIENT_TYPE in kinds and _OTHER_TYPE not in kinds and (none_allowed or _NONE_TYPE not in kinds)


def _type_members(
    node: cst.BaseExpression,
    imported: Callable[[cst.BaseExpression], Set[str]],
    kind: ClientKind,
    subclass: Optional[Callable[[cst.BaseExpression], bool]] = None,
) -> Set[str]:
    """What the values of type ``node`` can be: ``Optional[OpenAI]`` a client (of ``kind``) or
    None, ``Union[OpenAI, Groq]`` a client or something else. ``subclass`` tells a class of the
    module that is a client's too."""
    if is_name(node, "None"):
        return {_NONE_TYPE}
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
        return _type_members(node.left, imported, kind, subclass) | _type_members(node.right, imported, kind, subclass)
    if isinstance(node, cst.Subscript):
        generic = imported(node.value)
        arguments = [element.slice.value for element in node.slice if isinstance(element.slice, cst.Index)]
        if "typing.Optional" in generic and len(arguments) == 1:
            return _type_members(arguments[0], imported, kind, subclass) | {_NONE_TYPE}
        if "typing.Union" in generic and arguments:
            return set().union(*(_type_members(argument, imported, kind, subclass) for argument in arguments))
        return {_OTHER_TYPE}
    is_client = kind.names_class(imported(node)) or (subclass is not None and subclass(node))
    return {_CLIENT_TYPE} if is_client else {_OTHER_TYPE}


def _tested_branches(expr: cst.IfExp) -> Tuple[bool, bool]:
    """Which branches of ``expr`` are a name the test proves is not None where it is the value:
    ``x if x else ...``, ``x if x is not None else ...``, ``... if x is None else x``."""
    test, negated = expr.test, False
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test, negated = test.expression, True
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and is_name(test.comparisons[0].comparator, "None"):
        operator = test.comparisons[0].operator
        if isinstance(operator, (cst.Is, cst.IsNot)):
            negated = negated != isinstance(operator, cst.Is)
            test = test.left
    if not isinstance(test, cst.Name):
        return False, False
    tested = test.value
    return (not negated and is_name(expr.body, tested)), (negated and is_name(expr.orelse, tested))


def _attribute_binding(
    node: cst.Attribute, analysis: "ModuleAnalysis"
) -> Optional[List[Tuple[cst.CSTNode, Optional[cst.BaseExpression], Optional[cst.Annotation]]]]:
    """``[(node, value, annotation)]`` when ``node`` is assigned to plainly, ``[]`` when it is
    bound some other way, None when it is read."""
    parent = analysis.nodes.parents.get(node)
    if isinstance(parent, cst.AssignTarget) and parent.target is node:
        return [(node, analysis.nodes.parents[parent].value, None)]
    if isinstance(parent, cst.AnnAssign) and parent.target is node:
        return [(node, parent.value, parent.annotation)]
    child = node
    while isinstance(parent, (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
        child, parent = parent, analysis.nodes.parents.get(parent)  # maybe a target of an unpacking
    targets = {
        cst.AssignTarget: "target", cst.AugAssign: "target", cst.For: "target", cst.CompFor: "target",
        cst.AsName: "name", cst.Del: "target",
    }
    field = targets.get(type(parent))
    return [] if field is not None and getattr(parent, field) is child else None


def _related_classes(owner: cst.ClassDef, analysis: "ModuleAnalysis") -> List[cst.ClassDef]:
    """The classes of the module whose methods can run on an instance of ``owner``: itself, its
    bases and subclasses here, and the other bases of classes here that inherit from it. (A
    class of another module that inherits from two of this module's is not foreseen.)"""
    classes = [cls for cls in analysis.nodes.nodes_of(cst.ClassDef) if isinstance(cls, cst.ClassDef)]
    by_name: Dict[str, List[cst.ClassDef]] = {}
    for cls in classes:
        by_name.setdefault(cls.name.value, []).append(cls)

    def lineage(cls: cst.ClassDef, seen: Set[int]) -> List[cst.ClassDef]:
        seen.add(id(cls))
        found = [cls]
        for base in cls.bases:
            name = base.value.value if isinstance(base.value, cst.Name) else None
            for parent in by_name.get(name, []) if name else []:
                if id(parent) not in seen:
                    found += lineage(parent, seen)
        return found

    lineages = [lineage(cls, set()) for cls in classes]
    related = [cls for line in lineages if owner in line for cls in line]
    return list({id(cls): cls for cls in related}.values())


def _reads_imported_module(expr: cst.Attribute, analysis: "ModuleAnalysis") -> bool:
    """Is ``expr`` a dotted name whose first name only an import binds (``llm.client``)?"""
    root = expr.value
    while isinstance(root, cst.Attribute):
        root = root.value
    if not isinstance(root, cst.Name):
        return False
    bindings = analysis.bindings.referents(root)
    return len(bindings) == 1 and isinstance(bindings[0].node, (cst.Import, cst.ImportFrom))


def _all(answers: Iterable[Origins]) -> Origins:
    """The origins of a value that is one of several, when each is known."""
    found: List[cst.CSTNode] = []
    for answer in answers:
        if answer is None:
            return None
        found += answer
    return found
