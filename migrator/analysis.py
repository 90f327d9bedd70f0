"""Reads a module for the migration: finds the legacy calls, proves who receives them, and
names the Chat Completions types it spells.

What the code means apart from OpenAI (nodes, bindings, imports, where values go) is the
semantic model's, in ``migrator.semantic``; a ``ModuleAnalysis`` holds one of each for its
module. Nothing here rewrites code. The planner (``migrator.planner``) asks the rules what to
do with the call sites and result uses found here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Dict, Iterator, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import CodeRange, GlobalScope

from migrator.clients import is_openai_client, is_openai_receiver, is_other_sdk_client
from migrator.libcst_internals import NEWLINE, children
from migrator.model import BuiltClient, ImportedClient, ImportedResult, Options, ProjectFacts, ResultReaders
from migrator.screen import CALL_SITE, LEGACY_KINDS, LEGACY_METHOD_NAMES, holds_call_site, legacy_method, written_call
from migrator.semantic.bindings import Bindings
from migrator.semantic.dicts import BuiltDict, KeyWrite, UnseenDict, unpacked_dict, unpacking_calls
from migrator.semantic.flow import ValueFlow
from migrator.semantic.imports import Imports
from migrator.semantic.nodes import Nodes
from migrator.shapes import STRING_NODES, chain_root, keyword_argument, parameters

if TYPE_CHECKING:
    from migrator.rule import Import

# Where the SDK keeps the Chat Completions types, and the Chat-only shapes it keeps elsewhere
# (the nested json_schema response format).
CHAT_TYPES = "openai.types.chat"
CHAT_SHARED_MODULES = "openai.types.shared"  # and openai.types.shared_params
CHAT_SHARED_TYPES = frozenset({"ResponseFormatJSONSchema"})

# A name in code, or in the text of a string annotation.
IDENTIFIER = re.compile(r"[^\W\d]\w*")

# The calls that read an environment variable, with a default when it is unset.
ENVIRONMENT_READS = frozenset({"os.getenv", "os.environ.get"})


@dataclass
class CallSite:
    """One call of a legacy method, e.g. ``client.chat.completions.create(...)``."""

    call: cst.Call
    kind: str  # "chat.completions.create", "completions.create", ...
    receiver: cst.BaseExpression  # the client expression
    resource: Tuple[str, ...]  # what sits between receiver and method: ("beta", "chat", "completions")
    wrapper: Optional[str]  # "with_raw_response" / "with_streaming_response"
    traced: bool  # the receiver is provably an OpenAI client
    other_sdk: bool  # the receiver is provably another SDK's client: not a Chat Completions call at all
    statement: cst.CSTNode  # the statement the call belongs to
    analysis: "ModuleAnalysis"  # for rules that need to ask more about the module
    focus: Optional[KeyWrite] = None  # the write of the request dict a parameter hook is asked about
    uncertain_keys: Set[str] = field(default_factory=set)  # see ``argument``

    @property
    def position(self) -> CodeRange:
        # Asked only of calls with something to report: a module's positions cost a printing of it.
        return self.analysis.nodes.positions[self.call]

    def argument(self, keyword: str) -> Optional[cst.Arg]:
        """The argument passed as ``keyword``; for a key of the dict passed as ``**name``, an
        ``Arg`` made to hold the original value the key is written with. A key written several
        times, or on some paths only, is answered with its write in ``focus``, or else with its
        first write and noted in ``uncertain_keys``: the call's migration must not depend on it."""
        arg = self._passed(keyword)
        if arg is not None:
            return arg
        request = self.request_dict()
        if not isinstance(request, BuiltDict):
            return None
        writes = request.writes_of(keyword)
        if self.focus is not None and self.focus.key == keyword:
            writes = [self.focus]
        elif len(writes) > 1 or (writes and not writes[0].runs_first):
            self.uncertain_keys.add(keyword)
        return cst.Arg(keyword=cst.Name(keyword), value=writes[0].value) if writes else None

    def has_argument(self, keyword: str) -> bool:
        return self.argument(keyword) is not None

    def argument_values(self, keyword: str) -> List[cst.BaseExpression]:
        """Every value ``keyword`` may be passed with: its argument, or each write of the key in
        the dict passed as ``**name``, on whichever path. For a question whose answer holds for
        all of them (does any ask for X?), which a key written on some paths only does not
        make uncertain."""
        arg = self._passed(keyword)
        if arg is not None:
            return [arg.value]
        request = self.request_dict()
        return [write.value for write in request.writes_of(keyword)] if isinstance(request, BuiltDict) else []

    def _passed(self, keyword: str) -> Optional[cst.Arg]:
        """The argument the call itself passes as ``keyword``."""
        return next((arg for arg in self.call.args if arg.keyword is not None and arg.keyword.value == keyword), None)

    def request_dict(self) -> Union[BuiltDict, UnseenDict, None]:
        """What the dict the call unpacks (``**params``) holds; None when it unpacks none."""
        return self.analysis.request_dict(self.call)


@dataclass
class ImportedResultSite(CallSite):
    """A call of a function of another module that returns a legacy call's result
    (``imported``): what it returns is read here as that call's result would be. What that call
    passes is known here only by name: a read whose rewrite asks about an argument it may pass
    is noted in ``consulted``, and its answer (none) must not be relied on. Where the function
    is used other than by calling it, ``call`` is the name itself, in a plan that never migrates."""

    imported: Optional[ImportedResult] = None
    consulted: Set[str] = field(default_factory=set)

    def argument(self, keyword: str) -> Optional[cst.Arg]:
        keywords = self.imported.keywords if self.imported is not None else None
        if keywords is None or keyword in keywords:
            self.consulted.add(keyword)
        return None

    def request_dict(self) -> Union[BuiltDict, UnseenDict, None]:
        return None


@dataclass(frozen=True)
class MethodReference:
    """A legacy method used as a value instead of called where it is written:
    ``asyncio.to_thread(client.chat.completions.create, ...)``, ``create =
    client.chat.completions.create``. What calls it, and with what, the tool cannot see."""

    node: cst.CSTNode  # the attribute ``client.chat.completions.create``
    kind: str  # "chat.completions.create", ...
    receiver: cst.BaseExpression
    wrapper: Optional[str]  # "with_raw_response" / "with_streaming_response"
    traced: bool  # the receiver is provably an OpenAI client
    other_sdk: bool  # the receiver is provably another SDK's client: no Chat Completions method at all


@dataclass(frozen=True)
class WrittenCall:
    """A legacy call a text search finds in a string or a comment: an example, documentation,
    code generated or run as text. Nothing the tool can migrate."""

    node: cst.CSTNode  # the string (or the part of an f-string) or comment it is written in
    code: str  # as written, up to the method: "client.chat.completions.create", "completions.create"...
    place: str  # "docstring", "string" or "comment"
    line: int  # 1-based, where the text starts
    column: int  # 1-based


@dataclass
class AnnotationUse:
    """A type annotation on a value of a call: its result (``argument`` None), held in a name
    or returned from a function, or the value a name passes as the keyword argument ``argument``."""

    annotation: cst.Annotation
    argument: Optional[str]
    position: CodeRange


# How many of the places (that import a name, that call Chat Completions) a finding names.
IMPORTERS_SHOWN = 3


class ProjectQuestions:
    """What the other modules of the project say about this one, and which of it the module
    asked: the engine asks the project again, and runs the module again, when the answers
    differ from what a module on its own assumes."""

    def __init__(self, facts: ProjectFacts) -> None:
        self.facts = facts
        self.exported: Set[str] = set()  # top-level names whose importers were asked about
        self.imported: Set[str] = set()  # imported names whose definitions were asked about
        self.asks_chat_calls = False  # the Chat Completions calls of the modules it imports were asked about
        self.words: Set[str] = set()  # words whose places in the modules it imports were asked about
        self.asks_built_clients = False  # where the other modules build clients for other servers was asked

    def importers_of(self, name: str) -> Tuple[str, ...]:
        """Where other modules import the top-level name ``name`` of this module ("path:line")."""
        self.exported.add(name)
        return self.facts.importers_of(name)

    def passed_by_other_modules(self, function: str, parameter: str) -> Tuple[object, ...]:
        """What other modules of the project give ``parameter`` of the top-level function
        ``function`` of this module where they call it (``ProjectFacts.passed``)."""
        self.exported.add(function)
        return self.facts.passed_to(function, parameter)

    def handled_by_importers(self, name: str) -> Tuple[Tuple[str, str], ...]:
        """The exceptions the modules importing the top-level name ``name`` of this module
        handle (qualified, with where: ``("openai.OpenAIError", "app.py:12")``)."""
        self.exported.add(name)
        return self.facts.handled_by_importers(name)

    def where_compared_with_none(self, name: str) -> Optional[str]:
        """Where the modules importing the top-level function ``name`` compare what it returns
        with ``None``, for a finding; None where none does."""
        self.exported.add(name)
        return _places(self.facts.compared_with_none_by_importers(name))

    def where_imported(self, name: str) -> Optional[str]:
        """Where other modules import ``name``, for a finding (`` `a.py:3`, `b.py:1` and 2
        more``); None when none does."""
        return _places(self.importers_of(name))

    def where_chat_calls_imported(self) -> Optional[str]:
        """Where the project modules this one imports (directly or through others) call Chat
        Completions, for a finding (`` `app/llm.py:12` ``, nearest first); None when none does."""
        self.asks_chat_calls = True
        return _places(self.facts.chat_calls)

    def chat_calls_all_migrate(self) -> bool:
        """Do the project modules this one imports call Chat Completions, and does this run
        migrate every one of those calls?"""
        self.asks_chat_calls = True
        return bool(self.facts.chat_calls) and not self.facts.chat_calls_kept

    def where_imports_spell(self, word: str) -> Tuple[str, ...]:
        """Where the ``.env`` files above this module, then the project modules it imports
        (directly or through others), spell ``word`` (in code, strings or comments:
        "path:line"), the nearest first."""
        self.words.add(word)
        return self.facts.spelled_in_imports(word)

    def built_clients(self) -> Tuple[BuiltClient, ...]:
        """Where the other modules of the project build OpenAI clients that may talk to another
        server than OpenAI's, in the order of their paths."""
        self.asks_built_clients = True
        return self.facts.built_clients

    def constant(self, name: str) -> Optional[Tuple[int, str]]:
        """The integer the module this one imports ``name`` from binds it to, and where."""
        self.imported.add(name)
        return self.facts.constant(name)

    def imported_literal(self, name: str) -> Optional[object]:
        """The dict or list literal the module this one imports ``name`` from binds it to,
        described as passed values are (``PassedDict``, ``PassedList``)."""
        self.imported.add(name)
        return self.facts.message(name)

    def client(self, name: str) -> Optional[ImportedClient]:
        """What the module this one imports ``name`` from makes it, when that is an OpenAI client."""
        self.imported.add(name)
        return self.facts.client(name)

    def readers_of(self, name: str) -> Optional[ResultReaders]:
        """How the modules importing the function ``name`` read what it returns; None until the
        project was asked (once the module asked who imports it, ``importers_of``)."""
        return self.facts.readers_of(name)


def _places(places: Sequence[str]) -> Optional[str]:
    """`` `a.py:3`, `b.py:1`, `c.py:9` and 2 more``; None for none."""
    if not places:
        return None
    shown = ", ".join(f"`{place}`" for place in places[:IMPORTERS_SHOWN])
    return shown + (f" and {len(places) - IMPORTERS_SHOWN} more" if len(places) > IMPORTERS_SHOWN else "")


class ModuleAnalysis:
    """One module, as the migration reads it: the semantic model's answers (``nodes``,
    ``bindings``, ``imports``, ``flow``), what the rest of its project says of it
    (``project``), and what is OpenAI's in it."""

    def __init__(
        self,
        module: cst.Module,
        options: Options = Options(),
        source: Optional[bytes] = None,
        facts: ProjectFacts = ProjectFacts(),
    ) -> None:
        self.module = module
        self.options = options  # the run's options, for hooks whose decision depends on them
        self.source = module.bytes if source is None else source  # what the module was parsed from
        self.project = ProjectQuestions(facts)
        self.nodes = Nodes(module, self.source)
        self.bindings = Bindings(module, self.nodes)
        self.imports = Imports(self.nodes, self.bindings)
        self.flow = ValueFlow(
            module, self.nodes, self.bindings, self.imports, same_kind=legacy_call_result,
            foreign=lambda expr: is_openai_client(expr, self),
            # A Response has no message object: a function given one is given the response.
            parts_passed_whole=(("choices", 0, "message"),),
        )
        self._request_dicts: Dict[cst.Call, Union[BuiltDict, UnseenDict, None]] = {}

    def helper_conflict(self, where: cst.CSTNode, name: str, definition: str, imports: Sequence["Import"] = ()) -> Optional[str]:
        """The first name a helper the engine adds to the module (``definition``, which defines
        ``name`` and needs ``imports``) would take from something else at ``where``; None when
        each is free there, or already means what the helper needs."""
        for each in imports:
            bound = each.alias or each.name
            if not self.imports.can_import(bound, f"{each.module}.{each.name}", where):
                return bound
        scope = self.bindings.scopes.get(where)
        defined = scope[name] if scope is not None else ()
        if any(self.module.code_for_node(binding.node).strip() != definition.strip() for binding in defined):
            return name
        return None

    def request_dict(self, call: cst.Call) -> Union[BuiltDict, UnseenDict, None]:
        """What the dicts ``call`` unpacks hold together (see ``migrator.semantic.dicts``), asked
        once per call. Unpacking one key twice raises before any request, the same on either
        API. A function that returns some of the dicts must give them only to legacy calls,
        which are then migrated together (``dict_sharers``)."""
        if call not in self._request_dicts:
            self._request_dicts[call] = self._read_request_dict(call)
        return self._request_dicts[call]

    def dict_sharers(self, call: cst.Call) -> List[cst.Call]:
        """The other legacy calls that unpack dicts a function returns to ``call`` too."""
        request = self.request_dict(call)
        if not isinstance(request, BuiltDict):
            return []
        sharers: Dict[cst.Call, None] = {}
        for function in request.functions:
            for caller in self.flow.callers(function) or ():
                sharers.update(dict.fromkeys(unpacking_calls(caller, self.flow) or ()))
        sharers.pop(call, None)
        return list(sharers)

    def _read_request_dict(self, call: cst.Call) -> Union[BuiltDict, UnseenDict, None]:
        found = []
        for arg in call.args:
            if arg.star != "**":
                continue
            unpacked = unpacked_dict(arg.value, self.flow)
            if isinstance(unpacked, UnseenDict):
                return replace(unpacked, node=arg)
            found.append(unpacked)
        if not found:
            return None
        for function in dict.fromkeys(function for each in found for function in each.functions):
            elsewhere = self._dict_given_elsewhere(function)
            if elsewhere is not None:
                return UnseenDict(elsewhere, node=next(arg for arg in call.args if arg.star == "**"))
        for function in dict.fromkeys(function for each in found for function in each.filled_by):
            outermost = self.outermost(function)
            importers = self.project.where_imported(outermost.name.value) if outermost is not None else None
            if outermost is None or importers is not None:
                reason = (
                    f"`{function.name.value}` is imported by {importers}, whose calls may give its `**` parameter other keys"
                    if importers is not None else f"`{function.name.value}` is not defined at the top level, so other modules may call it"
                )
                return UnseenDict(reason, node=next(arg for arg in call.args if arg.star == "**"))
        if len(found) == 1:
            return found[0]
        name = ", **".join(each.name for each in found)
        writes = tuple(write for each in found for write in each.writes)
        functions = tuple(function for each in found for function in each.functions)
        return BuiltDict(name, writes, functions, filled_by=tuple(function for each in found for function in each.filled_by))

    def outermost(self, node: cst.CSTNode) -> Union[cst.FunctionDef, cst.ClassDef, None]:
        """The top-level function or class ``node`` is in (or is, at top level); None when it
        is in neither (under an ``if``, say)."""
        outermost = node if isinstance(node, (cst.FunctionDef, cst.ClassDef)) else self.nodes.enclosing(node, (cst.FunctionDef, cst.ClassDef))
        while outermost is not None and self.nodes.parents.get(outermost) is not self.module:
            outermost = self.nodes.enclosing(outermost, (cst.FunctionDef, cst.ClassDef))
        return outermost

    def passed_by_every_call(self, param: cst.Param) -> Optional[List[cst.BaseExpression]]:
        """What each call gives ``param``, a parameter of a function (or of a class's
        ``__init__``) that only this module calls, no other module of the project importing it:
        its argument, or the parameter's default; None when some call cannot be told (``*args``,
        a function used other than by calling it) or there is no call."""
        function = self.nodes.enclosing(param, cst.FunctionDef)
        outermost = self.outermost(function) if function is not None else None
        if outermost is None or self.project.importers_of(outermost.name.value):
            return None  # other modules may pass anything
        cls = self.nodes.enclosing(function, cst.ClassDef)
        constructor = cls is not None and self.nodes.parents.get(function) is cls.body and function.name.value == "__init__"
        calls = self.flow.constructions(cls) if constructor else self.flow.callers(function)
        if not calls:
            return None
        passed = [self.flow.passed(function, call, param, bound=True if constructor else None) for call in calls]
        return None if None in passed else passed  # type: ignore[return-value]

    def passed_by_other_modules(self, param: cst.Param) -> Tuple[object, ...]:
        """What other modules of the project give ``param`` where they call its function, when
        that is a top-level function or a method of a top-level class (``ProjectFacts.passed``);
        nothing for any other."""
        called = self.called_from_other_modules(param)
        return self.project.passed_by_other_modules(called[0], param.name.value) if called is not None else ()

    def called_from_other_modules(self, param: cst.Param) -> Optional[Tuple[str, str]]:
        """(``function``, or ``Class.method``, and the name other modules import) when
        ``param`` is a parameter (not ``self``) of a top-level function or of a method of a
        top-level class, which other modules may call."""
        function = self.nodes.function_of(param)
        if function is None:
            return None
        if self.nodes.parents.get(function) is self.module:
            return function.name.value, function.name.value
        cls = self.nodes.enclosing(function, cst.ClassDef)
        if cls is None or self.nodes.parents.get(cls) is not self.module or self.nodes.parents.get(function) is not cls.body:
            return None
        if function.params.params[:1] == [param] or function.decorators:
            return None  # ``self``, or a static or class method, a property...
        return f"{cls.name.value}.{function.name.value}", cls.name.value

    def _dict_given_elsewhere(self, function: cst.FunctionDef) -> Optional[str]:
        """Why rewriting the keys ``function`` returns would change code other than legacy calls; None when it would not."""
        name = function.name.value
        cls = self.nodes.enclosing(function, (cst.ClassDef, cst.FunctionDef))
        if isinstance(cls, cst.ClassDef) and self.nodes.parents.get(cls) is self.module:
            importers = self.project.where_imported(cls.name.value)
            if importers is not None:
                return f"`{cls.name.value}` is imported by {importers}, where a subclass may override `{name}` to return other keys"
        callers = self.flow.callers(function)
        if callers is None:
            return f"`{name}` is used other than by calling it here, so other code may read the keys it returns"
        for caller in callers:
            calls = unpacking_calls(caller, self.flow)
            if calls is None or any(legacy_call(each) is None for each in calls):
                line = self.nodes.positions[caller].start.line
                return f"`{name}` is also called on line {line}, where what it returns is not only unpacked into calls the tool migrates"
        return None

    @property
    def _openai_imports(self) -> List[Union[cst.Import, cst.ImportFrom]]:
        """The imports of openai or of its modules."""
        return self.imports.by_package.get("openai", [])

    @property
    def imports_openai(self) -> bool:
        return bool(self._openai_imports)

    @cached_property
    def loads_without_openai(self) -> bool:
        """Does every import of openai sit in a function, a class or a compound statement
        (``try: import openai`` / ``except ImportError:``), so that the module loads without it?"""
        statements = self.imports.by_package.get("openai", [])
        return bool(statements) and not any(self.nodes.parents.get(self.nodes.parents.get(each)) is self.module for each in statements)

    @cached_property
    def _openai_renames(self) -> Optional[List[Tuple[str, str]]]:
        """``(name, qualified)`` for each name an import of openai binds to something else:
        ``ct`` to ``openai.types.chat`` (``import openai.types.chat as ct``), ``ChatCompletion``
        to ``openai.types.chat.ChatCompletion`` (``from openai.types.chat import ...``). None
        when the module has a class named ``openai``: what it holds is qualified ``openai.NAME``."""
        if any(node.name.value == "openai" for node in self.nodes.nodes_of(cst.ClassDef)):
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

    def environment_default(self, value: cst.BaseExpression) -> Optional[cst.BaseExpression]:
        """What ``value`` is when the environment variable it reads is unset, when it reads one
        with a default: ``os.getenv(NAME, DEFAULT)``, ``os.environ.get(NAME, default=DEFAULT)``."""
        if not (isinstance(value, cst.Call) and self.imports.imported_as(value.func) & ENVIRONMENT_READS):
            return None
        return value.args[1].value if len(value.args) > 1 else keyword_argument(value, "default")

    def calls_names_from(self, packages: Sequence[str]) -> bool:
        """Does the module call, or annotate a parameter with, a name an import of one of
        ``packages`` binds (``requests.post(...)``, ``httpx.AsyncClient()``, ``s: requests.Session``)?
        True when one imports ``*``, which binds names the module does not spell."""
        imported = self.imports.names_imported_from(packages)
        if imported is None:
            return True
        calls = (chain_root(call.func) for call in self.nodes.nodes_of(cst.Call))
        annotated = (
            chain_root(param.annotation.annotation)
            for param in self.nodes.nodes_of(cst.Param)
            if param.annotation is not None and isinstance(param.annotation.annotation, (cst.Name, cst.Attribute))
        )
        return any(name in imported for name in (*calls, *annotated))

    def call_sites(self) -> List[CallSite]:
        sites = []
        for call in self.nodes.nodes_of(cst.Call):
            shape = legacy_call(call)
            if shape is None:
                continue
            receiver, resource, wrapper, kind = shape
            traced, other_sdk = self._receiver_proof(receiver)
            sites.append(
                CallSite(
                    call=call,
                    kind=kind,
                    receiver=receiver,
                    resource=resource,
                    wrapper=wrapper,
                    traced=traced,
                    other_sdk=other_sdk,
                    statement=self.nodes.enclosing_statement(call),
                    analysis=self,
                )
            )
        return sites

    def method_references(self) -> List[MethodReference]:
        """The legacy methods (of the kinds the rules migrate) read as values rather than
        called: passed, assigned, returned. Not the ones a statement sets or deletes (a test
        replacing ``create`` with a fake), nor those read into (``create.return_value``,
        ``create.assert_called_once()``), which only mocks have."""
        found = []
        for node in self.nodes.nodes_of(cst.Attribute):
            shape = legacy_method_reference(node)
            if shape is None:
                continue
            parent = self.nodes.parents.get(node)
            if isinstance(parent, cst.Call) and parent.func is node or isinstance(parent, cst.Attribute) and parent.value is node:
                continue
            if isinstance(parent, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.Del)) and parent.target is node:
                continue
            receiver, _, wrapper, kind = shape
            traced, other_sdk = self._receiver_proof(receiver)
            found.append(MethodReference(node, kind, receiver, wrapper, traced, other_sdk))
        return found

    def _receiver_proof(self, receiver: cst.BaseExpression) -> Tuple[bool, bool]:
        """Is ``receiver`` provably an OpenAI client, and is it provably another SDK's?"""
        traced = self._may_hold_a_client(receiver) and is_openai_receiver(receiver, self)
        return traced, not traced and is_other_sdk_client(receiver, self)

    def imported_result_names(self) -> List[Tuple[cst.CSTNode, ImportedResult]]:
        """The names (``complete``, ``llm.complete``) that stand for a function of another
        module returning a legacy call's result (``ProjectFacts.results``), outside the imports
        that bind them."""
        if not self.project.facts.results:
            return []
        found = []
        for node in self.nodes.nodes_of(cst.Name, cst.Attribute):
            parent = self.nodes.parents.get(node)
            if isinstance(parent, cst.Attribute) and parent.attr is node:
                continue  # the attribute part of a dotted name: the whole is looked at
            functions, owners = self._results_spelled(get_full_name_for_node(node) or "")
            if not (functions or owners) or self.nodes.enclosing(node, (cst.Import, cst.ImportFrom)) is not None:
                continue
            if not self.imports.imported_as(node):  # a local name that hides the import here
                continue
            found.extend((node, imported) for imported in functions[:1])
            for owner in owners:
                found.extend((use, owner) for use in self._method_reads(node, owner, owner.instance))
        return found

    def imported_results_rebound(self) -> List[Tuple[cst.CSTNode, ImportedResult]]:
        """The names spelled as a function of ``ProjectFacts.results`` (or a class whose method
        is one) that may hold that import or a value bound here (``except ImportError: ask =
        None``): what they give is no such function's result alone."""
        if not self.project.facts.results:
            return []
        found = []
        for node in self.nodes.nodes_of(cst.Name):
            parent = self.nodes.parents.get(node)
            if not (isinstance(parent, cst.Call) and parent.func is node or isinstance(parent, cst.Attribute) and parent.value is node):
                continue  # called, or read into: where what it gives is used
            functions, owners = self._results_spelled(node.value)
            if (functions or owners) and self.imports.imported_among(node):
                found.append((node, (functions or owners)[0]))
        return found

    def _results_spelled(self, spelled: str) -> Tuple[List[ImportedResult], List[ImportedResult]]:
        """The functions of ``ProjectFacts.results`` a module calls as ``spelled``, and those that
        are methods of a class (or an instance) it reads as ``spelled``."""
        results = self.project.facts.results
        return [r for r in results if not r.method and r.name == spelled], [r for r in results if r.method and r.owner == spelled]

    def _method_reads(self, node: cst.BaseExpression, imported: ImportedResult, instance: bool) -> Iterator[cst.CSTNode]:
        """Where the method of ``imported`` is read, from ``node`` (an instance, or the class when
        not ``instance``): each ``.ask`` read of an instance (the planner takes a call of it for
        a call of the method), and each use of one, or of the class, that may take it where
        the method is read unseen (passed, returned, subclassed: the planner keeps it as it is)."""
        parent = self.nodes.parents.get(node)
        if not instance:
            if isinstance(parent, cst.Call) and parent.func is node:
                yield from self._method_reads(parent, imported, True)
            else:
                yield node
            return
        if isinstance(parent, cst.Attribute) and parent.value is node:
            if parent.attr.value == imported.method:
                yield parent
            return
        if isinstance(node, cst.Call) and isinstance(parent, cst.Assign) and parent.value is node and len(parent.targets) == 1:
            target = parent.targets[0].target
            binding = self.bindings.binding(target) if isinstance(target, cst.Name) else None
            global_name = binding is not None and isinstance(binding.scope, GlobalScope)
            if binding is not None and len(binding.scope.assignments[binding.name]) == 1 and not (global_name and self.project.importers_of(binding.name)):
                for access in binding.references:
                    yield from self._method_reads(access.node, imported, True)
                return
        yield node

    def _may_hold_a_client(self, receiver: cst.BaseExpression) -> bool:
        """Can the proof find a client at all? Every way it does goes through an import of
        openai, here or, for a name this module imports or a parameter of a function other
        modules call, in the module it comes from. Asked first because the proof resolves
        scopes, which most modules without openai never need."""
        if self.imports_openai:
            return True
        root = chain_root(receiver)
        if root in self._names_from_imports:
            return True
        # A parameter, which other modules' calls may give a client they build.
        function = self.nodes.enclosing(receiver, cst.FunctionDef)
        return function is not None and any(param.name.value == root for param in parameters(function))

    @cached_property
    def _names_from_imports(self) -> Set[str]:
        """The names the module's import statements bind, wherever they are, and the names it
        assigns what they give (``client = make_client()``, ``client = llm.client``), or whose
        attributes it assigns it to (``self`` for ``self.client = make_client()``)."""
        names = set()
        for statement in self.nodes.nodes_of(cst.Import, cst.ImportFrom):
            if isinstance(statement.names, cst.ImportStar):
                continue
            for alias in statement.names:
                names.add(alias.evaluated_alias or alias.evaluated_name.split(".")[0])
        for node in self.nodes.nodes_of(cst.Assign, cst.AnnAssign):
            if node.value is not None and chain_root(node.value) in names:
                targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
                names.update(root for target in targets if isinstance(target, (cst.Name, cst.Attribute)) and (root := chain_root(target)) is not None)
        return names

    def written_calls(self) -> List[WrittenCall]:
        """The legacy calls written in strings and comments (``CALL_SITE``), in source order.
        Calls in the code of an f-string are calls (``call_sites``), not text."""
        if not holds_call_site(self.source.decode("latin-1")):
            return []  # most modules: no string or comment needs reading
        in_code = set(self.nodes.code_strings)
        found = []
        for node in self.nodes.nodes_of(cst.SimpleString, cst.FormattedStringText, cst.Comment):
            for match in CALL_SITE.finditer(node.value):
                if isinstance(node, cst.Comment):
                    place = "comment"
                else:
                    place = "string" if node in in_code else "docstring"
                offset, code = written_call(node.value, match)
                start = self.nodes.positions[node].start
                before = NEWLINE.split(node.value[:offset])
                line = start.line + len(before) - 1
                column = (start.column if len(before) == 1 else 0) + len(before[-1]) + 1
                found.append(WrittenCall(node, code, place, line, column))
        return found

    def chat_type(self, node: cst.CSTNode) -> Optional[str]:
        """The name of the Chat Completions type ``node`` names (``ChatCompletion``,
        ``chat.ChatCompletion``, the string annotation ``"ChatCompletion"``), if it names one."""
        if not isinstance(node, (cst.Name, cst.Attribute, *STRING_NODES)):
            return None
        if not self.may_name(node, CHAT_TYPES + ".", CHAT_SHARED_MODULES):
            return None
        for qualified in self.imports.qualified(node):
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


def legacy_call_result(value: cst.BaseExpression) -> Optional[cst.Call]:
    """The legacy call whose result ``value`` is, if it is one."""
    if isinstance(value, cst.Await):
        value = value.expression
    return value if isinstance(value, cst.Call) and legacy_call(value) is not None else None


def legacy_call(node: cst.Call) -> Optional[Tuple[cst.BaseExpression, Tuple[str, ...], Optional[str], str]]:
    """``(receiver, resource, wrapper, kind)`` when ``node`` is shaped like a legacy method call."""
    return _legacy_method(node.func)


def legacy_method_reference(node: cst.CSTNode) -> Optional[Tuple[cst.BaseExpression, Tuple[str, ...], Optional[str], str]]:
    """``(receiver, resource, wrapper, kind)`` when ``node`` names a legacy method of a kind
    the rules migrate (``client.chat.completions.create``), called or not."""
    if not (isinstance(node, cst.Attribute) and node.attr.value in LEGACY_METHOD_NAMES):
        return None
    shape = _legacy_method(node)
    return shape if shape is not None and shape[3] in LEGACY_KINDS else None


def _legacy_method(func: cst.BaseExpression) -> Optional[Tuple[cst.BaseExpression, Tuple[str, ...], Optional[str], str]]:
    """``(receiver, resource, wrapper, kind)`` when ``func`` is shaped like a legacy method."""
    attributes: List[str] = []
    node = func
    while isinstance(node, cst.Attribute):
        attributes.append(node.attr.value)
        node = node.value
    shape = legacy_method(attributes[::-1])
    if shape is None:
        return None
    resource, wrapper, kind, depth = shape
    return _receiver(func, depth), resource, wrapper, kind


def _receiver(func: cst.BaseExpression, depth: int) -> cst.BaseExpression:
    """The expression ``depth`` attribute accesses below ``func``."""
    for _ in range(depth):
        assert isinstance(func, cst.Attribute)
        func = func.value
    return func
