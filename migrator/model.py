"""The data the engine returns and the CLI renders.

Nothing here prints, writes files or decides exit codes.
"""

from __future__ import annotations

import enum
import fnmatch
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import FrozenSet, Optional, Tuple


class FixSafety(str, enum.Enum):
    """How a rule's rewrite may be applied, as in ruff."""

    SAFE = "safe"  # applied by `apply`
    UNSAFE = "unsafe"  # applied only with --unsafe-fixes: it may change behaviour
    MANUAL = "manual"  # never applied: the rule only reports


class Confidence(str, enum.Enum):
    HIGH = "high"  # the receiver is provably an OpenAI client
    LOW = "low"  # looks like a legacy pattern, but the receiver could not be traced


@dataclass(frozen=True)
class Position:
    """Where something starts in a module, as a finding places itself."""

    line: int  # 1-based
    column: int  # 1-based
    cell: Optional[int] = None  # in a notebook: the cell's 1-based position, and `line` is in that cell


@dataclass(frozen=True)
class Finding:
    """One thing `check` reports: a legacy pattern, or a call that was left alone."""

    rule: str
    line: int  # 1-based
    column: int  # 1-based
    message: str
    fixable: bool = False  # `apply` (with the options in force) rewrites it
    unsafe_fix: bool = False  # `apply --unsafe-fixes` would rewrite it
    confidence: Confidence = Confidence.HIGH
    cell: Optional[int] = None  # in a notebook: the cell's 1-based position, and `line` is in that cell
    # Where the call the finding is about starts, when it is about one: a call blocked by a read
    # of its result is reported at the read, and people need to know which call it holds back.
    call: Optional[Position] = None

    @property
    def position(self) -> Position:
        return Position(self.line, self.column, self.cell)

    def sort_key(self) -> Tuple[int, int, int, str]:
        return (self.cell or 0, self.line, self.column, self.rule)


@dataclass(frozen=True)
class Options:
    """Everything that changes what the engine does to a file."""

    select: Optional[frozenset] = None  # rule ids; None means every rule
    ignore: frozenset = frozenset()
    unsafe_fixes: bool = False  # drop parameters with no equivalent, leaving a comment
    store_false: bool = False  # add store=False to migrated calls that do not set store
    assume_openai: bool = False  # treat untraceable receivers in files importing openai as clients
    allow_other_servers: bool = False  # migrate calls on clients pointed at servers not considered OpenAI's
    openai_hosts: Tuple[str, ...] = ()  # hosts (fnmatch globs) considered OpenAI's besides the built-in ones
    # (glob, rule ids): rules ignored in the files a glob matches. A glob with a `/` is matched
    # against the absolute path (the config anchors it), one without against the file name.
    per_file_ignores: Tuple[Tuple[str, FrozenSet[str]], ...] = ()

    def is_enabled(self, rule_id: str) -> bool:
        if rule_id in self.ignore:
            return False
        return self.select is None or rule_id in self.select

    def for_path(self, path: Path) -> "Options":
        """These options for one file: with the rules its per-file ignores name ignored too."""
        if not self.per_file_ignores:
            return self
        full = Path(os.path.abspath(path)).as_posix()
        ignored = set(self.ignore)
        for glob, rule_ids in self.per_file_ignores:
            if fnmatch.fnmatchcase(full if "/" in glob else path.name, glob):
                ignored |= rule_ids
        return replace(self, ignore=frozenset(ignored))


@dataclass(frozen=True)
class ImportedClient:
    """A name a module imports that its own module makes an OpenAI client, a function returning
    one, or a class (the client's, or any other of the project)."""

    name: str  # as the importing module binds it
    # "client", "factory", "async factory", "class" (a subclass of the SDK's client), or "other
    # class": a class of the project, which proves nothing but that it is not another SDK's
    kind: str
    server: Optional[str] = None  # the other server it talks to, in words; None for OpenAI's
    # Made by an Azure client class, whose ``api_version`` decides whether Azure serves the
    # Responses API: the version when a literal where it is built shows it, else None.
    azure: bool = False
    azure_version: Optional[str] = None


@dataclass(frozen=True)
class BuiltClient:
    """A place where another module of the project builds an OpenAI client that may talk to
    another server than OpenAI's."""

    place: str  # "path:line"
    server: str  # in words: "`http://localhost:11434/v1`", "the URL `settings.url` holds at run time"
    url: Optional[str] = None  # its ``base_url``, when a literal gives it: whose host may yet be OpenAI's


@dataclass(frozen=True)
class ImportedResult:
    """A function a module imports whose module returns from it what a legacy call returns."""

    name: str  # as the importing module calls it: ``complete``, ``llm.complete``
    kind: str  # the kind of the call, as ``CallSite.kind``
    # The keyword arguments the call passes (what its result is depends on some); None when it
    # unpacks a dict, whose keys are unknown here.
    keywords: Optional[Tuple[str, ...]]
    call: str  # where the call is, "path:line", and what it calls: `client.chat.completions.create`
    code: str
    migrated: bool  # the call migrates, and this module's reads of its results with it
    # For a method (``name`` is then ``Chat.ask``, ``bot.ask``): its name, and whether what it
    # is read from is an instance as imported (``bot``), not a class whose instances are made.
    method: Optional[str] = None
    instance: bool = False

    @property
    def owner(self) -> str:
        """What the method is read from, as the importing module spells it (``Chat``, ``llm.bot``)."""
        return self.name[: -len(self.method) - 1] if self.method else self.name


@dataclass(frozen=True)
class ResultReaders:
    """How the other modules of the project read what one of a module's functions returns."""

    name: str
    modules: Tuple[str, ...]  # the modules that import it ("path"), when every read there maps
    blocked: Optional[str] = None  # else why not, naming the place: the function's call stays as it is


@dataclass(frozen=True)
class PassedList:
    """A list another module passes: a list literal in the call, or the list literals a name of
    the calling function is bound to, with what it appends. Its items are described as passed
    values are. ``shared`` unless the list is new and nothing else there holds it (a literal in
    the call, or one the name is bound to right before the call and only appended to)."""

    items: Tuple[object, ...]
    shared: bool = False


@dataclass(frozen=True)
class PassedDict:
    """A dict literal with string keys, its values described as passed values are."""

    entries: Tuple[Tuple[str, object], ...]


@dataclass(frozen=True)
class PassedOther:
    """A value another module passes that is none of the literals described: ``"expression"``,
    ``"container"`` where it may be a list, a tuple, a set or a dict (a name bound to one, a
    parameter annotated as one, a function of that module returning one), ``"default"`` where
    the call leaves out a parameter that has a default, or ``"unseen"`` where a use of the
    function gives nothing the project can read (it unpacks arguments, leaves out a parameter
    without a default, or reads the function other than by calling it by its name)."""

    kind: str


@dataclass(frozen=True)
class ProjectFacts:
    """What the other modules of its project tell one module (see ``migrator.project``). The
    default is what a module on its own assumes: nobody imports it, and it imports no client."""

    # (top-level name, where other modules import it: "path:line", ...), for the names asked about
    importers: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    clients: Tuple[ImportedClient, ...] = ()
    # Where the project modules it imports (directly or through others) call Chat Completions,
    # "path:line", when asked
    chat_calls: Tuple[str, ...] = ()
    chat_calls_kept: Tuple[str, ...] = ()  # those of them the run leaves as they are
    readers: Tuple[ResultReaders, ...] = ()  # for the functions that return a legacy call's result
    results: Tuple[ImportedResult, ...] = ()
    # (function, parameter, what other modules' calls of the function give it: constants as
    # they are, else ``PassedList``, ``PassedDict`` or ``PassedOther``), for the top-level
    # functions asked about
    passed: Tuple[Tuple[str, str, Tuple[object, ...]], ...] = ()
    # (top-level name, the exceptions the modules importing it handle, each qualified as its
    # module imports it (``openai.OpenAIError``) with "path:line" of the handler), for the
    # names asked about
    handled: Tuple[Tuple[str, Tuple[Tuple[str, str], ...]], ...] = ()
    # (top-level function, where the modules importing it compare what it returns with None:
    # "path:line", ...), for the names asked about
    compared_with_none: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    # (word, where the ``.env`` files above it and the project modules it imports, directly or
    # through others, spell it: "path:line", ...), for the words asked about
    spelled: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    built_clients: Tuple[BuiltClient, ...] = ()  # when asked: where the other modules build clients for other servers
    # (imported name, the integer the module it comes from binds it to, "path:line"), for the
    # imported names asked about: a literal, or what an environment read gives by default
    constants: Tuple[Tuple[str, int, str], ...] = ()
    # (imported name, the dict or list literal the module it comes from binds it to, described
    # as passed values are: ``PassedDict``, ``PassedList``), for the imported names asked about
    messages: Tuple[Tuple[str, object], ...] = ()

    def importers_of(self, name: str) -> Tuple[str, ...]:
        return next((places for n, places in self.importers if n == name), ())

    def client(self, name: str) -> Optional[ImportedClient]:
        return next((c for c in self.clients if c.name == name), None)

    def readers_of(self, name: str) -> Optional[ResultReaders]:
        return next((r for r in self.readers if r.name == name), None)

    def result(self, name: str) -> Optional[ImportedResult]:
        return next((r for r in self.results if r.name == name), None)

    def passed_to(self, function: str, parameter: str) -> Tuple[object, ...]:
        return next((values for f, p, values in self.passed if (f, p) == (function, parameter)), ())

    def handled_by_importers(self, name: str) -> Tuple[Tuple[str, str], ...]:
        return next((handlers for n, handlers in self.handled if n == name), ())

    def compared_with_none_by_importers(self, name: str) -> Tuple[str, ...]:
        return next((places for n, places in self.compared_with_none if n == name), ())

    def constant(self, name: str) -> Optional[Tuple[int, str]]:
        return next(((value, place) for n, value, place in self.constants if n == name), None)

    def message(self, name: str) -> Optional[object]:
        return next((described for n, described in self.messages if n == name), None)

    def spelled_in_imports(self, word: str) -> Tuple[str, ...]:
        return next((places for w, places in self.spelled if w == word), ())


@dataclass(frozen=True)
class SourceResult:
    """What the engine made of one source text: a value, never changed once made."""

    source: bytes
    output: bytes  # equal to source when nothing changed
    findings: list = field(default_factory=list)  # list[Finding], sorted
    calls_migrated: int = 0
    # What the result depends on in the rest of the project (``ProjectFacts``): the module's
    # top-level names whose importers count, the names it imports whose definitions count, and
    # whether the calls of the modules it imports do.
    exported_names: list = field(default_factory=list)  # list[str]
    imported_names: list = field(default_factory=list)  # list[str]
    asks_chat_calls: bool = False  # whether the Chat Completions calls of the modules it imports count
    words_asked: list = field(default_factory=list)  # list[str]: the words whose places in the modules it imports count
    asks_built_clients: bool = False  # whether where the other modules build clients for other servers counts
    # The module's functions whose results other modules may read: [name, kind, keywords (None
    # when unknown), line of the call, code of the call, whether it migrates], one per call.
    returned_results: list = field(default_factory=list)
    # Reads of the results of imported functions (``ProjectFacts.results``) that no rule maps:
    # [name as called, line, why]; they keep the call in the other module as it is.
    unmapped_reads: list = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.output != self.source


@dataclass
class FileResult:
    """What happened to one file. Exactly one of `result` and `error` is set."""

    path: Path
    result: Optional[SourceResult] = None
    error: Optional[str] = None  # why the file could not be processed

    @property
    def findings(self) -> list:
        return self.result.findings if self.result else []

    @property
    def changed(self) -> bool:
        return bool(self.result and self.result.changed)
