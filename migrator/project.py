"""The project a file belongs to: what its other modules say, for the decisions one module
cannot make alone.

A module's own analysis cannot see who imports its functions, nor what a name it imports from
another module of the project holds, nor what the modules it imports call. When its result
depends on that (a public function returns a Chat result, a call's receiver is a name imported
from elsewhere, a test's mocks stand in for the calls of the code it imports), the engine asks here,
and transforms the file again with the answers (``ProjectFacts``) when they differ from what a
module on its own would assume: nobody imports it, and it imports no client.

The project is the folder the file belongs to (the nearest one up with a ``pyproject.toml``,
``setup.py``, ``setup.cfg`` or ``.git``; else the folder its top package is in, or, for a
namespace package (no ``__init__.py``) in a folder the run was given that holds modules of its
own, that folder, where the scripts importing it run from), not the paths given: a module
outside them can import a function the run would change. Module names come from the folders: a file's name is dotted through the
folders above it that hold an ``__init__.py``, and an absolute import is looked for first
beside the importer's top package, then anywhere in the project. Folders without one are
namespace packages: a relative import that climbs above the regular packages, and a dotted
absolute import that names no module by those names, find their module by path (the latter
from the importer's top folder, or the project's root, where Python may be run). Nothing is
read until the
first question; then each Python file of the project is read once for its import statements
(found in its text, and only they parsed), and a module is parsed whole only when a name it
defines is asked about.

A function returning a legacy call's result to other modules takes their reads of it along
(where they import it from its module, or from one re-exporting it: a package's
``__init__.py``), decided in two steps on the same facts. Each importer is transformed as if the function returned
the call's migrated result (``ImportedResult``), with what the project says of it otherwise; the
reads there that no rule maps come back in ``SourceResult.unmapped_reads``. The module with the
call is told whether all of them map, in files of the run (``ResultReaders``), and decides; each
importer is then told that decision, which it learns by the engine's result for that module
(``settle``). A module is asked what it imports only when one of its imports may name a module
of the project, and one is settled only when its text holds a legacy call.

With a cache, a run records what it found each of its files imports, with the status of every
folder and file that was read from (``ProjectRecord``); the next run on the same files takes
those answers while none of them has changed, and so lists no project and reads no import.

What this cannot see is taken the cautious way: a module that imports the whole module and
names the function anywhere counts as importing it; so does one that imports modules by name
at run time (``importlib.import_module``, ``__import__``) with this module's name, a prefix of
it (``f"plugins.{name}"``), or a name it cannot read while one of its strings names the module.
"""

from __future__ import annotations

import ast
import hashlib
import keyword
import os
import re
import stat
from collections import deque
from dataclasses import dataclass
from functools import cached_property, lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from migrator import notebook, passed_values
from migrator.engine import NOTEBOOK_SUFFIX
from migrator.model import BuiltClient, ImportedClient, ImportedResult, ProjectFacts, ResultReaders, SourceResult
from migrator.screen import CALL_SITE, holds_call_site

if TYPE_CHECKING:
    from migrator.cache import Cache, ImportIndex, ProjectRecord

# The client classes of the SDK, by the modules that export them (as in migrator.clients,
# which works on LibCST's nodes; this works on Python's own, before any LibCST is loaded).
CLIENT_CLASSES = frozenset(
    f"{module}.{name}"
    for module in ("openai", "openai._client", "openai.lib.azure")
    for name in ("OpenAI", "AsyncOpenAI", "AzureOpenAI", "AsyncAzureOpenAI", "Client", "AsyncClient")
)
AZURE_CLIENTS = frozenset(name for name in CLIENT_CLASSES if "Azure" in name)
BASE_URL_VARIABLE = "OPENAI_BASE_URL"
# What a subclass that is still the SDK's client may define: how it is built. Anything else (a
# property, a request hook reading the path) may act differently once calls go to /responses.
CLIENT_SUBCLASS_MEMBERS = frozenset({"__init__"})
PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
DYNAMIC_IMPORT = re.compile(r"\bimport_module\s*\(|\b__import__\s*\(")
# How many modules a name may be re-exported through before the search gives up on it.
MAX_RE_EXPORTS = 8


def project_root(path: Path) -> Path:
    """The folder of the project ``path`` belongs to: the nearest up with a marker, else the
    folder its top package is in."""
    path = path.resolve()
    marked = _marked_folder(path.parent)
    return marked if marked is not None else _module_of(path).base


def real_path(path: Path) -> Path:
    """``path.resolve()``, asking the file system once for the file and once for its folder:
    a run resolves every file it is given, and most share their folders."""
    try:
        if not stat.S_ISLNK(os.lstat(path).st_mode):
            return _real_folder(str(path.parent)) / path.name
    except OSError:
        pass
    return path.resolve()


@lru_cache(maxsize=None)
def _real_folder(folder: str) -> Path:
    return Path(os.path.realpath(folder))


@lru_cache(maxsize=None)
def _marked_folder(folder: Path) -> Optional[Path]:
    """``folder`` or the nearest folder up from it with a project marker: every file of a run
    asks, and most share their folders."""
    if any((folder / marker).exists() for marker in PROJECT_MARKERS):
        return folder
    return None if folder.parent == folder else _marked_folder(folder.parent)


def _looked_up(folder: Path, markers: bool) -> List[Path]:
    """The folders the package of a module in ``folder`` is read from, up to the first that is
    no package; with ``markers``, and those its project root is found from, up to the first
    with a marker."""
    found = []
    for current in (folder, *folder.parents):
        found.append(current)
        if not _package(current)[0] and (not markers or _marked_folder(current) == current):
            break
    return found


@dataclass
class _Module:
    path: Path  # resolved
    name: str  # dotted, from the folders above it that are packages
    base: Path  # the folder the dotted name starts in
    is_package: bool  # an ``__init__.py``

    @property
    def package(self) -> List[str]:
        """The dotted parts of the package relative imports start from."""
        parts = self.name.split(".") if self.name else []
        return parts if self.is_package else parts[:-1]


class _ByPath(str):
    """A module's name found by the path a relative import names, above the packages that
    ``__init__.py`` files make (namespace packages): the module (or folder) at ``path``, whatever
    other module shares its name. Empty for a folder, or where no module of the project is."""

    path: Path

    def __new__(cls, name: str, path: Path) -> "_ByPath":
        made = super().__new__(cls, name)
        made.path = path
        return made


def _module_of(path: Path) -> _Module:
    is_package = path.name == "__init__.py"
    package, base = _package(path.parent)
    parts = package if is_package else (*package, path.stem)
    return _Module(path=path, name=".".join(parts), base=base, is_package=is_package)


@lru_cache(maxsize=None)
def _package(folder: Path) -> Tuple[Tuple[str, ...], Path]:
    """The dotted parts of the package ``folder`` is (none if it is not one), and the folder
    its top package is in. A folder whose name no import can spell (``api-gateway``) is no
    package, whatever it holds: its modules are imported from inside it."""
    if folder.parent == folder or not folder.name.isidentifier() or keyword.iskeyword(folder.name) or not (folder / "__init__.py").exists():
        return (), folder
    parts, base = _package(folder.parent)
    return (*parts, folder.name), base


class Project:
    """The projects of one run's files, each indexed on the first question about it.

    ``root`` fixes the project instead of finding it from each file (for a tree handed over
    as a whole, such as a test's)."""

    def __init__(self, root: Optional[Path] = None, cache: Optional[Cache] = None) -> None:
        self._root = root.resolve() if root is not None else None
        self._cache = cache
        self._trees: Dict[Path, _Tree] = {}
        self._roots: Dict[Path, Path] = {}  # by folder
        _package.cache_clear()  # what the folders hold as this run starts
        _marked_folder.cache_clear()
        _real_folder.cache_clear()
        # Set by the engine for a run: its files, which alone it may change (as given, and
        # resolved on first use); how it migrates a file with what its project says
        # (``settle``), and with what it says but for what the functions it imports return
        # (``transform``; None: a module on its own).
        self._files: List[Path] = []
        self._folders: List[Path] = []
        self._given: Optional[Set[Path]] = None
        self._real: Dict[Path, Path] = {}  # by the path as given
        self.settle: Optional[Callable[[Path], Optional[SourceResult]]] = None
        self.transform: Optional[Callable[[Path, bytes, Optional[Tuple[ImportedResult, ...]]], Optional[SourceResult]]] = None
        self._settled: Dict[Path, Optional[SourceResult]] = {}
        self._settling: Set[Path] = set()
        self._returned_alone: Dict[Path, List[list]] = {}
        self._returning_nothing: Dict[Path, bool] = {}  # by project root
        # Set by the engine: the cached result of a file as a module on its own, if any.
        self.remembered: Optional[Callable[[Path, bytes], Optional[SourceResult]]] = None
        # What the files this run changes held as it read them: it may write them before it
        # is done, and they are read as they were.
        self._sources: Dict[Path, bytes] = {}
        # What the functions each file imports return, by the path asked: as the last run on
        # the same files recorded it (loaded on the first question), and as this run found it.
        self._record: Optional[ProjectRecord] = None
        self._recorded: Optional[Dict[str, Tuple[ImportedResult, ...]]] = None
        self._answered: Dict[str, Tuple[ImportedResult, ...]] = {}
        self._read: Set[Path] = set()  # the files whose text this run read

    def give(self, files: Iterable[Path], folders: Iterable[Path] = ()) -> None:
        """The files of the run, which alone it may change, and the folders it was given."""
        self._files = list(files)
        self._given = None
        self._folders = [folder.resolve() for folder in folders]
        if self._cache is not None:
            run = hashlib.sha256("\0".join(map(str, [self._root, *self._files])).encode()).hexdigest()
            self._record = self._cache.project_record(run)

    def _holds_scripts(self, folder: Path) -> bool:
        """Is ``folder`` a folder the run was given (or below one), with no project marker, that
        holds modules of its own: scripts, run from there, which may import what the folders
        in it hold as namespace packages? Such a folder is listed whole."""
        if _marked_folder(folder) is not None or not any(given == folder or given in folder.parents for given in self._folders):
            return False
        try:
            return any(entry.endswith(".py") for entry in os.listdir(folder))
        except OSError:
            return False

    @property
    def given(self) -> Set[Path]:
        """The files of the run, resolved: asked only when a file's answers are not recorded."""
        if self._given is None:
            self._given = {self._resolved(file) for file in self._files}
        return self._given

    def _resolved(self, path: Path) -> Path:
        if path not in self._real:
            self._real[path] = real_path(path)
        return self._real[path]

    def record(self) -> None:
        """Hands the cache what this run found each file imports, with what that was read from,
        for the next run on the same files."""
        if self._record is not None and self._answered:
            self._record.put({**self._recorded_answers(), **self._answered}, self.inputs())

    def inputs(self) -> Set[Path]:
        """The folders and files this run's answers were read from: a folder for its listing
        (the modules, packages and project markers in it), a file for its text."""
        inputs = {*self.given, *self._read}
        for folder in self._roots:
            inputs.update(_looked_up(folder, markers=self._root is None))
        for tree in self._trees.values():
            inputs.update(tree.read())
        return inputs

    def remember(self, path: Path, source: bytes) -> None:
        """What the file at ``path`` holds as the run reads it, before the run writes it."""
        self._sources.setdefault(real_path(path), source)

    def source(self, path: Path) -> bytes:
        """What the file at ``path`` held as the run read it."""
        path = real_path(path)
        self._read.add(path)
        return self._sources[path] if path in self._sources else _read_bytes(path)

    def facts(
        self,
        path: Path,
        source: bytes,
        exported: Sequence[str],
        imported: Sequence[str],
        returned: Sequence[list] = (),
        results: Optional[Tuple[ImportedResult, ...]] = None,
        chat_calls: bool = False,
        words: Sequence[str] = (),
        built_clients: bool = False,
    ) -> ProjectFacts:
        """What the rest of the project says about the module at ``path``: where other modules
        import each of the ``exported`` top-level names, which of the ``imported`` names are
        OpenAI clients (or functions returning one) in the module they come from, how other
        modules read what the functions of ``returned`` (``SourceResult.returned_results``)
        return, what the functions it imports return (``imported_results``, unless
        ``results`` says it instead), (with ``chat_calls``) where the modules it imports call
        Chat Completions, and which of those calls this run leaves as they are, where the
        ``.env`` files above it and the modules it imports spell each of the ``words``, and (with ``built_clients``) where the
        other modules build clients for other servers."""
        tree, module = self._locate(path)
        syntax = _parsed(source) if imported or exported else None
        calls = tree.chat_calls_imported(module) if chat_calls else []
        importers = tree.importers(module, exported) if exported else {}
        return ProjectFacts(
            importers=tuple((name, tuple(importers[name])) for name in exported if importers.get(name)),
            clients=self._imported_clients(tree, module, syntax, imported),
            constants=tuple(constant for name in imported if (constant := tree.imported_constant(module, syntax, name)) is not None),
            messages=tuple(message for name in imported if (message := tree.imported_literal(module, syntax, name)) is not None),
            chat_calls=tuple(place for _, places in calls for place in places),
            chat_calls_kept=tuple(place for path, places in calls if not self._migrates_every_call(path) for place in places),
            readers=tuple(self._readers(tree, module, returned)),
            results=self.imported_results(path) if results is None else results,
            passed=tuple(tree.values_passed(module, syntax, [name for name in exported if importers.get(name) or "." in name])),
            handled=tuple(
                (name, handlers) for name in exported if importers.get(name) and (handlers := tree.handled_by_importers(module, name))
            ),
            compared_with_none=tuple(
                (name, places) for name in exported if importers.get(name) and (places := tree.results_compared_with_none(module, name))
            ),
            spelled=tuple((word, tuple(places)) for word in words if (places := tree.spelled_in_imports(module, word))),
            built_clients=tuple(
                BuiltClient(tree.where(built, line), server, url) for built, line, server, url in tree.clients_for_other_servers() if built != module.path
            ) if built_clients else (),
        )

    def clients_facts(self, path: Path, source: bytes, imported: Sequence[str]) -> ProjectFacts:
        """What the project says of the module at ``path`` on its own: which of the
        ``imported`` names are OpenAI clients. Without it, what a function returns from a call
        on an imported client is not known to be a result, and its importers not read."""
        if not imported:
            return ProjectFacts()
        tree, module = self._locate(path)
        return ProjectFacts(clients=self._imported_clients(tree, module, _parsed(source), imported))

    @staticmethod
    def _imported_clients(tree: "_Tree", module: _Module, syntax: Optional[ast.Module], imported: Sequence[str]) -> Tuple[ImportedClient, ...]:
        return tuple(client for name in imported if (client := tree.imported_client(module, syntax, name)) is not None)

    def _locate(self, path: Path) -> Tuple["_Tree", _Module]:
        path = path.resolve()
        tree = self._tree(self._root_of(path))
        return tree, tree.module(path)

    def _root_of(self, path: Path) -> Path:
        """The root of the project of the (resolved) ``path``: asked for every file of a run,
        answered once per folder."""
        folder = path.parent
        if folder not in self._roots:
            root = self._root or project_root(path)
            if self._root is None and _marked_folder(folder) is None:
                # No marker: the folder holding a namespace package (``services/``, no
                # ``__init__.py``) is where the scripts importing it run from, and so is the
                # folder holding that one's package, as far up as the folders of scripts go
                # (``run.py`` beside ``src/``, whose modules import ``src.services.llm``).
                while self._holds_scripts(root.parent):
                    root = root.parent
            if _left_out(root, path):  # in a folder the project leaves out (hidden, say): its own
                root = _module_of(path).base
            self._roots[folder] = root
        return self._roots[folder]

    # -- results read across modules ---------------------------------------------------

    def imported_results(self, path: Path) -> Tuple[ImportedResult, ...]:
        """The functions the module at ``path`` imports from the other modules of its project
        that return what a legacy call returns, with whether that call migrates (its module's
        result, with what its project says). Only modules whose text holds such a call are read."""
        recorded = self._recorded_answers()
        if str(path) in recorded:
            return recorded[str(path)]
        found = self._imported_results(path)
        self._answered[str(path)] = found
        return found

    def _recorded_answers(self) -> Dict[str, Tuple[ImportedResult, ...]]:
        if self._recorded is None:
            self._recorded = self._record.answers() if self._record is not None else {}
        return self._recorded

    def _imported_results(self, path: Path) -> Tuple[ImportedResult, ...]:
        path = self._resolved(path)
        tree = self._tree(self._root_of(path))
        if not tree.may_import_its_modules(path) or self._returns_nothing(tree):
            return ()  # the project is not indexed for it: most modules import none of its own
        module = tree.module(path)
        found = []
        for spelled, provider, function in tree.imported_origins(module):
            if provider.path == module.path or not tree.imports(provider.path).calls:
                continue
            # Only a module that returns a result this one reads is settled: two modules that
            # import each other are settled one after the other, unless each reads the other's.
            # What returns it: a function, or a class or an instance whose method does (``Chat.ask``).
            returns = {_owner(entry[0]) for entry in self._alone(provider.path)}
            if not any(name == function or (function is None and _names_attribute(tree.text(module.path), spelled, name)) for name in returns):
                continue
            settled = self._settle(provider.path)
            entries = settled.returned_results if settled is not None else []
            by_name: Dict[str, List[list]] = {}
            for entry in entries:
                by_name.setdefault(entry[0], []).append(entry)
            for name, returned in by_name.items():
                if len(returned) == 1 and (function is None or function == _owner(name)):
                    called = spelled if function is not None else f"{spelled}.{_owner(name)}"
                    found.append(self._imported_result(tree, provider, called, returned[0], returned[0][-1]))
        return tuple(dict.fromkeys(found))

    def _imported_result(self, tree: "_Tree", provider: _Module, called: str, entry: list, migrated: bool) -> ImportedResult:
        """What the function (or method) of ``entry``, which ``provider`` returns a legacy
        call's result from, is to a module that calls it (or what has the method) as ``called``."""
        name, kind, keywords, line, code, _ = entry
        place = tree.where(provider.path, line)
        if "." not in name:
            return ImportedResult(called, kind, _keywords(keywords), place, code, migrated)
        owner, method = name.split(".")
        syntax = tree.syntax(provider.path)
        is_class = syntax is not None and any(isinstance(node, ast.ClassDef) and node.name == owner for node in syntax.body)
        return ImportedResult(f"{called}.{method}", kind, _keywords(keywords), place, code, migrated, method=method, instance=not is_class)

    def _returns_nothing(self, tree: "_Tree") -> bool:
        """Is it known that no module of ``tree`` returns what a legacy call returns? Then no
        module's imports need following, which costs a large project most of a run's time.
        Known from this run or the cache; or, in a run given a folder that holds the whole
        project, from no module's text holding a legacy call: such a run reads every module
        anyway, while one given a few files would read the others only to answer this. False
        when a module is not known yet: finding out would analyse it here, out of turn."""
        if tree.root not in self._returning_nothing:
            self._returning_nothing[tree.root] = (
                self.remembered is not None and all(self._known_to_return_nothing(tree, path) for path in tree.modules)
            ) or (any(folder == tree.root or folder in tree.root.parents for folder in self._folders) and not tree.calls_anywhere())
        return self._returning_nothing[tree.root]

    def _known_to_return_nothing(self, tree: "_Tree", path: Path) -> bool:
        calls = tree.holds_calls(path)
        return calls is False or (calls is True and self._known_alone(path) == [])

    def _known_alone(self, path: Path) -> Optional[List[list]]:
        """``_alone(path)`` when this run or the cache already knows it, else None."""
        if path not in self._returned_alone:
            result = self.remembered(path, self.source(path)) if self.remembered is not None else None
            if result is None:
                return None
            self._returned_alone[path] = result.returned_results
        return self._returned_alone[path]

    def _alone(self, path: Path) -> List[list]:
        """What ``SourceResult.returned_results`` holds for the module at ``path`` on its own."""
        if path not in self._returned_alone:
            try:
                result = self.transform(path, self.source(path), None) if self.transform is not None else None
            except Exception:  # its own run reports why
                result = None
            self._returned_alone[path] = result.returned_results if result is not None else []
        return self._returned_alone[path]

    def _settle(self, path: Path) -> Optional[SourceResult]:
        """The engine's result for the module at ``path``, once per run; None outside a run,
        where the module's functions are not migrated with their readers."""
        if self.settle is None:
            return None
        if path not in self._settled:
            if path in self._settling:
                raise ProjectCycle(f"what `{path.name}` returns depends on modules that depend on it in turn")
            self._settling.add(path)
            try:
                self._settled[path] = self.settle(path)
            finally:
                self._settling.discard(path)
        return self._settled[path]

    def _migrates_every_call(self, path: Path) -> bool:
        """Does this run migrate every Chat Completions call of the module at ``path``? Its
        engine's result (with what its project says) holds none, as the screen reads them."""
        if path not in self.given:
            return False
        try:
            settled = self._settle(path)
        except ProjectCycle:
            return False
        return settled is not None and CALL_SITE.search(settled.output.decode("utf-8", "replace")) is None

    def _readers(self, tree: "_Tree", module: _Module, returned: Sequence[list]) -> Iterator[ResultReaders]:
        """How the modules that import the functions of ``returned`` read their results: all
        by reads the rules map, in files of the run, or the first place that holds it back."""
        returned = [entry for entry in returned if tree.importers(module, [_owner(entry[0])])[_owner(entry[0])]]
        names = [entry[0] for entry in returned]
        for entry in returned:
            name = entry[0]
            if names.count(name) > 1:
                yield ResultReaders(name, (), f"`{name}` returns the results of several calls, which the tool does not migrate together across modules")
                continue
            yield self._readers_of(tree, module, entry)

    def _readers_of(self, tree: "_Tree", module: _Module, entry: list) -> ResultReaders:
        name, owner = entry[0], _owner(entry[0])
        modules = []
        for importer, at in tree.importing(module, owner):
            place = tree.where(importer.path, at)
            shown = place.rsplit(":", 1)[0]
            # As it calls it: imported from this module, or from one re-exporting it.
            called = [spelled if function else f"{spelled}.{owner}" for spelled, target, function in tree.imported_origins(importer) if target.path == module.path and function in (owner, None)]
            migrated = tuple(self._imported_result(tree, module, each, entry, True) for each in called)
            spelled = [result.name for result in migrated]
            if tree.uses_as_a_value(importer, module):
                return ResultReaders(name, (), f"`{place}` uses the module as a value, and the tool does not follow what is read of it")
            if importer.path.suffix == NOTEBOOK_SUFFIX:
                return ResultReaders(name, (), f"the notebook `{shown}` reads what it returns, and the tool does not migrate what a notebook reads of the modules it imports")
            if tree.dynamic_imports(importer.path) is not None:
                return ResultReaders(name, (), f"`{place}` imports modules by name at run time, and the tool does not follow what it returns there")
            if not tree.may_import_its_modules(importer.path):  # it would not be told what the function returns
                return ResultReaders(name, (), f"`{place}` imports it in a way the tool does not follow")
            if not spelled:
                return ResultReaders(name, (), f"`{place}` imports it in a way the tool does not follow")
            if importer.path not in self.given or self.transform is None:
                return ResultReaders(name, (), f"code in `{shown}` reads what it returns, and the migration needs that file too, but it is not among the paths given")
            try:
                summary = self.transform(importer.path, self.source(importer.path), migrated)
            except Exception:  # what it reads is then unknown
                return ResultReaders(name, (), f"code in `{shown}` reads what it returns, and the tool cannot read that file")
            unmapped = [read for read in summary.unmapped_reads if read[0] in spelled]
            if unmapped:
                _, read_line, reason = unmapped[0]
                return ResultReaders(name, (), f"the reads of what it returns in `{shown}:{read_line}` keep it as it is: {reason}")
            modules.append(shown)
        return ResultReaders(name, tuple(dict.fromkeys(modules)))

    def _tree(self, root: Path) -> "_Tree":
        if root not in self._trees:
            index = self._cache.import_index(root) if self._cache else None
            self._trees[root] = _Tree(root, self.source, index, given=root == self._root or self._holds_scripts(root))
        return self._trees[root]


class ProjectCycle(Exception):
    """What a module returns depends, through the modules that read it, on itself."""


def _owner(name: str) -> str:
    """What a module binds that returns it: ``ask`` for ``ask``, ``Chat`` for the method ``Chat.ask``."""
    return name.split(".")[0]


def _keywords(keywords: Optional[list]) -> Optional[Tuple[str, ...]]:
    return tuple(keywords) if keywords is not None else None


class _Tree:
    """One project's Python modules: their names, and the import statements of each, read on
    the first question that needs them."""

    def __init__(self, root: Path, source: Callable[[Path], bytes], index: Optional[ImportIndex] = None, given: bool = False) -> None:
        self.root = root
        self.source = source  # a file's bytes, as the run read them
        self.given = given  # the run named this folder the project
        self._index = index  # what earlier runs read of the modules' imports
        self._modules: Optional[Dict[Path, _Module]] = None
        self._unlisted: Dict[Path, _Module] = {}  # asked for before the listing, which keeps them
        self._folders: List[Path] = []  # the folders listed for them
        self._notebooks: List[Path] = []  # found with the modules
        self._imports: Dict[Path, _Imports] = {}
        self._dynamic: Dict[Path, Optional[_DynamicImports]] = {}
        self._syntax: Dict[Path, Optional[ast.Module]] = {}
        self._chat_calls: Dict[Path, List[str]] = {}
        self._spelled: Dict[Tuple[Path, str], List[str]] = {}
        self._built_clients: Optional[List[Tuple[Path, int, str, Optional[str]]]] = None
        self._environment: Dict[Path, bool] = {}  # by module: may ``OPENAI_BASE_URL`` be set there?
        self._held: Dict[Tuple[Path, str], bool] = {}
        self._origins: Dict[Tuple[Path, str], Tuple[_Module, str]] = {}
        self._re_exports: Dict[Path, Dict[str, List[ast.ImportFrom]]] = {}
        self._re_exported: Dict[Path, List[Tuple[str, _Module, str]]] = {}
        self._bindings: Dict[Path, Dict[str, List[ast.stmt]]] = {}
        self._importing: Dict[Tuple[Path, str], List[Tuple[_Module, int]]] = {}
        self._by_folders: Dict[Tuple[Path, str], Optional[_Module]] = {}
        self._by_ending: Optional[Dict[str, List[_Module]]] = None  # the modules whose names end so, by the ending

    @property
    def modules(self) -> Dict[Path, _Module]:
        if self._modules is None:
            # A folder that is no project (a home folder holding a script): what Python would
            # import with it on its path, its modules and packages, not everything below it.
            whole = self.given or any((self.root / marker).exists() for marker in PROJECT_MARKERS)
            listed = _python_files(self.root, self._folders, packages_only=not whole, notebooks=self._notebooks)
            self._modules = {path: self._unlisted.get(path) or _module_of(path) for path in listed}
        return self._modules

    def read(self) -> Set[Path]:
        """The folders (for what they hold) and files (for their text) the answers about this
        project were read from."""
        read = {*_looked_up(self.root, markers=False), *(folder for folder, _ in self._held), *self._imports, *self._syntax}
        if self._modules is not None:
            read.update(self._modules, self._folders)
        return read

    def module(self, path: Path) -> _Module:
        if self._modules is None:  # a question may need no other module: listing them waits
            return self._unlisted.setdefault(path, _module_of(path))
        return self._modules.get(path) or _module_of(path)

    @cached_property
    def named(self) -> Dict[str, List[_Module]]:
        """The modules by dotted name (several top packages may share one): resolving every
        import a module reaches, one by one, would read them all each time."""
        found: Dict[str, List[_Module]] = {}
        for module in self.modules.values():
            found.setdefault(module.name, []).append(module)
        return found

    def holds_calls(self, path: Path) -> Optional[bool]:
        """Does the module's text hold what reads as a legacy call, as this run or the index
        has read it already? None when neither has."""
        if path not in self._imports:
            indexed = self._indexed_imports(path)
            if indexed is None:
                return None
            self._imports[path] = indexed
        return self._imports[path].calls

    def calls_anywhere(self) -> bool:
        """Does the text of a module hold what reads as a legacy call? Reads the modules up to
        the first that does, searching each for the text every such call spells before the
        expression (``holds_call_site``), as decoding it costs more than the search."""
        for path in self.modules:
            calls = self.holds_calls(path)
            if calls is None:
                source = self.source(path)
                calls = b".completions" in source and holds_call_site(source.decode("utf-8", "replace"))
            if calls:
                return True
        return False

    def imports(self, path: Path) -> _Imports:
        if path not in self._imports:
            self._imports[path] = self._indexed_imports(path) or self._read_imports(path)
        return self._imports[path]

    def _indexed_imports(self, path: Path) -> Optional[_Imports]:
        """What an earlier run read of the imports of ``path``, while it has not changed."""
        try:
            remembered = self._index.get(path, os.stat(path)) if self._index is not None else None
        except OSError:
            return None
        return _Imports.loaded(remembered) if remembered is not None else None

    def _read_imports(self, path: Path) -> _Imports:
        """The imports of ``path``, read from its text and remembered for the next run."""
        imports = _Imports.of(self.text(path))
        try:
            if self._index is not None:
                self._index.put(path, os.stat(path), imports.saved())
        except OSError:
            pass
        return imports

    def dynamic_imports(self, path: Path) -> Optional[_DynamicImports]:
        """What the module imports by name at run time, read on the first question."""
        if not self.imports(path).dynamic_text:
            return None
        if path not in self._dynamic:
            self._dynamic[path] = _DynamicImports.of(self.text(path))
        return self._dynamic[path]

    def text(self, path: Path) -> str:
        """The module's text; a notebook's is the code of its cells, which is what it runs."""
        if path.suffix == NOTEBOOK_SUFFIX:
            try:
                return notebook.code_of(self.source(path)).decode("utf-8")
            except notebook.NotebookError:  # its own run reports it
                return ""
        return self.source(path).decode("utf-8", errors="replace")

    def syntax(self, path: Path) -> Optional[ast.Module]:
        if path not in self._syntax:
            self._syntax[path] = _parsed(self.text(path).encode("utf-8") if path.suffix == NOTEBOOK_SUFFIX else self.source(path))
        return self._syntax[path]

    def where(self, path: Path, line: int) -> str:
        try:
            shown = path.relative_to(self.root).as_posix()
        except ValueError:
            shown = path.as_posix()
        return f"{shown}:{line}"

    # -- who imports a module's names --------------------------------------------------

    def importers(self, target: _Module, names: Sequence[str]) -> Dict[str, List[str]]:
        """By name, where other modules of the project import it from ``target``: directly,
        through the whole module, or through a module that imports it in turn."""
        # A module importing it from two of them, once.
        return {name: list(dict.fromkeys(self.where(m.path, line) for m, line in self.importing(target, name))) for name in names}

    def values_passed(self, target: _Module, syntax: Optional[ast.Module], names: Sequence[str]) -> Iterator[Tuple[str, str, Tuple[object, ...]]]:
        """For each top-level function of ``names`` in ``target`` (its ``syntax``), and each of
        its parameters, what other modules' calls give it (``migrator.passed_values``): calls by
        the name their ``from ... import`` binds, the argument by keyword or by position. A
        module that imports the function otherwise (the whole module, at run time) gives each
        parameter ``UNSEEN``."""
        functions = {node.name: node for node in (syntax.body if syntax is not None else ()) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for name in names:
            if "." in name:
                yield from self._values_passed_to_method(target, syntax, name)
                continue
            function = functions.get(name)
            if function is None:
                continue
            parameters, _ = passed_values.parameters_of(function)
            found: List[Dict[str, object]] = []
            for importer, _ in self.importing(target, name):
                importer_syntax = self.syntax(importer.path)
                bound = self._names_bound(importer, importer_syntax, target, [name]) if importer_syntax is not None else set()
                # Through the whole module (``import helpers``, then ``helpers.summarize(...)``),
                # unless it is used as a value, which may call the function anywhere.
                whole = [each for statement in self.imports(importer.path).statements for each in self._bound_whole(importer, statement, target)]
                if whole and not self._used_as_a_value(importer, whole):
                    bound |= {f"{each}.{name}" for each in whole}
                if importer_syntax is None or not bound:
                    found.append({parameter: passed_values.UNSEEN for parameter in parameters})
                    continue
                found.extend(passed_values.calls_giving(importer_syntax, bound, function, self._builds_openai_client(importer, importer_syntax)))
            for parameter, values in passed_values.merged(found, parameters):
                yield name, parameter, values

    def _builds_openai_client(self, module: _Module, syntax: ast.Module) -> passed_values.ClientTest:
        """Does a call of ``module`` build a client of OpenAI's own server (not Azure's, no
        ``base_url`` or ``OPENAI_BASE_URL`` it may read)?"""
        classes = _client_class_names(syntax)

        def builds(call: ast.Call) -> bool:
            if not classes:
                return False
            made = _server_of_construction(call, classes, self._spells_base_url_variable(module))
            return made is not None and made[1] is None and made[0] not in AZURE_CLIENTS

        return builds

    def _values_passed_to_method(self, target: _Module, syntax: Optional[ast.Module], name: str) -> Iterator[Tuple[str, str, Tuple[object, ...]]]:
        """``values_passed`` for the method ``Class.method`` of a top-level class of ``target``:
        what the calls of other modules give it on instances of the class, made from its
        imports or imported from ``target`` (``bot = Bot()`` there)."""
        owner, method = name.split(".")
        cls = next((node for node in (syntax.body if syntax is not None else ()) if isinstance(node, ast.ClassDef) and node.name == owner), None)
        function = next((node for node in cls.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == method), None) if cls else None
        if function is None:
            return
        instances = [
            bound for node in syntax.body if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)  # type: ignore[union-attr]
            and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) and node.value.func.id == owner
            for bound in [node.targets[0].id]
        ]
        parameters = passed_values.parameters_of(function)[0][1:]
        found: List[Dict[str, object]] = []
        importers = {importer.path: importer for each in (owner, *instances) for importer, _ in self.importing(target, each)}
        for importer in importers.values():
            importer_syntax = self.syntax(importer.path)
            if importer_syntax is None:
                found.append({parameter: passed_values.UNSEEN for parameter in parameters})
                continue
            classes, made = (self._names_bound(importer, importer_syntax, target, names) for names in ([owner], instances))
            if not classes and not made:  # the whole module imported, or at run time
                found.append({parameter: passed_values.UNSEEN for parameter in parameters})
                continue
            found.extend(passed_values.method_calls_giving(importer_syntax, classes, made, function, self._builds_openai_client(importer, importer_syntax)))
        for parameter, values in passed_values.merged(found, parameters):
            yield name, parameter, values

    def handled_by_importers(self, target: _Module, name: str) -> Tuple[Tuple[str, str], ...]:
        """The exceptions the ``except`` clauses of the modules importing ``name`` from
        ``target`` name, qualified by their imports, with where each is."""
        found: Dict[Tuple[str, str], None] = {}
        for importer, _ in self.importing(target, name):
            syntax = self.syntax(importer.path)
            for handled, line in _handled_exceptions(syntax) if syntax is not None else ():
                found[(handled, self.where(importer.path, line))] = None
        return tuple(found)

    def results_compared_with_none(self, target: _Module, name: str) -> Tuple[str, ...]:
        """Where the modules importing the function ``name`` from ``target`` compare what its
        calls return with ``None``: the call itself, or a name one of them is assigned to."""
        found: Dict[str, None] = {}
        for importer, _ in self.importing(target, name):
            syntax = self.syntax(importer.path)
            if syntax is None:
                continue
            bound = self._names_bound(importer, syntax, target, [name])
            for line in _results_compared_with_none(syntax, bound):
                found[self.where(importer.path, line)] = None
        return tuple(found)

    def importing(self, target: _Module, name: str) -> List[Tuple[_Module, int]]:
        """(module, line) for each import of ``name`` from ``target``, or from a module that
        imports it in turn, by another module of the project: asked once per run (each
        question reads every module's imports)."""
        key = (target.path, name)
        if key not in self._importing:
            self._importing[key] = self._importing_now(target, name)
        return self._importing[key]

    def _importing_now(self, target: _Module, name: str) -> List[Tuple[_Module, int]]:
        found: List[Tuple[_Module, int]] = []
        seen: Set[Tuple[Path, str]] = {(target.path, name)}
        pending = [(target, name, 0)]
        while pending:
            module, imported, depth = pending.pop()
            for importer, line in self.importers_of(module, imported):
                found.append((importer, line))
                for bound in {imported, *self._aliases(importer, module, imported)}:  # re-exported under another name
                    if (importer.path, bound) not in seen and depth < MAX_RE_EXPORTS:
                        seen.add((importer.path, bound))
                        pending.append((importer, bound, depth + 1))
        return found

    def _names_bound(self, importer: _Module, syntax: ast.Module, target: _Module, names: Sequence[str]) -> Set[str]:
        """The names the imports of ``importer`` (its ``syntax``) bind to ``names`` of ``target``,
        as they are or renamed."""
        return {each for name in names for each in self._aliases(importer, target, name) | {name} if _import_binding(syntax, each)}

    def _aliases(self, importer: _Module, target: _Module, name: str) -> Set[str]:
        """The names ``from target import name as alias`` statements of ``importer`` bind."""
        return {
            alias.asname
            for statement in self.imports(importer.path).statements
            if isinstance(statement, ast.ImportFrom) and self._is(self._absolute(importer, statement.module, statement.level), target, importer)
            for alias in statement.names
            if alias.name == name and alias.asname
        }

    def may_import_its_modules(self, path: Path) -> bool:
        """Might an import statement of the module at ``path`` import a module of this project?
        Answered without listing the project: the statement is relative, or the top name it
        imports is a module or folder in the project's folder, the importer's, or the one its
        top package is in."""
        names = self.imports(path).top_names
        if names is None:
            return True
        folders = {self.root, path.parent, _module_of(path).base}
        return any(self._holds(folder, name) for name in names for folder in folders)

    def _holds(self, folder: Path, name: str) -> bool:
        """Is there a module or a folder ``name`` in ``folder``? Asked once each per run."""
        if (folder, name) not in self._held:
            self._held[(folder, name)] = (folder / f"{name}.py").is_file() or (folder / name).is_dir()
        return self._held[(folder, name)]

    def imported_functions(self, importer: _Module) -> Iterator[Tuple[str, _Module, Optional[str]]]:
        """(name, module, function) for each name an import statement of ``importer`` binds to
        a function of another project module (``from llm import complete``: ``complete``), or,
        with function None, to the module itself (``import pkg.llm``: ``pkg.llm``)."""
        for statement in self.imports(importer.path).statements:
            if isinstance(statement, ast.ImportFrom):
                source = self._absolute(importer, statement.module, statement.level)
                defining = self._resolve(importer, source)
                for alias in statement.names:
                    bound = alias.asname or alias.name
                    whole = self._resolve(importer, self._member(source, alias.name))
                    if whole is not None:
                        yield bound, whole, None
                    elif defining is not None and alias.name != "*":
                        yield bound, defining, alias.name
            elif isinstance(statement, ast.Import):
                for alias in statement.names:
                    whole = self._resolve(importer, alias.name)
                    if whole is not None:
                        yield alias.asname or alias.name, whole, None

    def imported_origins(self, importer: _Module) -> Iterator[Tuple[str, _Module, Optional[str]]]:
        """``imported_functions``, each name followed to the module that defines it through
        the modules that re-export it (``from .backend import ask`` in a package's
        ``__init__.py``); and, for a module imported whole, each name it re-exports that
        ``importer`` reads from it (``assistant.ask``), so followed."""
        for spelled, provider, function in self.imported_functions(importer):
            if function is not None:
                yield (spelled, *self.origin(provider, function))
                continue
            yield spelled, provider, None
            re_exports = self._re_exports_of(provider)
            attributes = _attributes_read(self.text(importer.path), spelled) if re_exports else set()
            for bound, defining, original in re_exports:
                if bound in attributes:
                    yield f"{spelled}.{bound}", defining, original

    def _re_exports_of(self, module: _Module) -> List[Tuple[str, _Module, str]]:
        """(name, defining module, name there) for each name ``module`` re-exports from a module
        that may return a legacy call's result; read once."""
        if module.path not in self._re_exported:
            found = []
            for bound in sorted(self._from_imports(module)):
                defining, original = self.origin(module, bound)
                if defining.path != module.path:
                    found.append((bound, defining, original))
            self._re_exported[module.path] = found
        return self._re_exported[module.path]

    def origin(self, module: _Module, name: str) -> Tuple[_Module, str]:
        """The module that defines the top-level ``name`` of ``module``, and its name there:
        ``module`` itself, unless its one binding of the name imports it from another project
        module (not a submodule of that one). Followed where that module may return a legacy
        call's result (its text holds one), the only modules whose functions count."""
        key = (module.path, name)
        if key not in self._origins:
            self._origins[key] = self._origin(module, name)
        return self._origins[key]

    def _origin(self, module: _Module, name: str) -> Tuple[_Module, str]:
        # The chain of imports, read from the import statements alone; then, if it ends in a
        # module with a call, each step checked against all its module binds (which parses it).
        steps = [(module, name)]
        for _ in range(MAX_RE_EXPORTS):
            current, bound = steps[-1]
            statements = self._from_imports(current).get(bound, [])
            if len(statements) != 1:
                break
            statement = statements[0]
            source = self._absolute(current, statement.module, statement.level)
            original = next(alias.name for alias in statement.names if (alias.asname or alias.name) == bound)
            defining = self._resolve(current, source)
            if defining is None or self._resolve(current, self._member(source, original)) is not None:
                break
            steps.append((defining, original))
        if len(steps) == 1 or not self.imports(steps[-1][0].path).calls:
            return module, name
        for index, (current, bound) in enumerate(steps[:-1]):
            if len(self._top_level_bindings_of(current.path).get(bound, [])) != 1:  # bound again, or `global`
                return steps[index]
        return steps[-1]

    def _top_level_bindings_of(self, path: Path) -> Dict[str, List[ast.stmt]]:
        """The statements binding each top-level name of the module at ``path`` (a function's
        ``global`` statement counts as one), read once."""
        if path not in self._bindings:
            syntax = self.syntax(path)
            found: Dict[str, List[ast.stmt]] = {}
            for node in _top_level_bindings(syntax) if syntax is not None else ():
                for bound in _bound_names(node):
                    found.setdefault(bound, []).append(node)
            for node in _statements(syntax) if syntax is not None else ():
                if isinstance(node, ast.Global):
                    for bound in node.names:
                        found.setdefault(bound, []).append(node)
            self._bindings[path] = found
        return self._bindings[path]

    def _from_imports(self, module: _Module) -> Dict[str, List[ast.ImportFrom]]:
        """The ``from ... import`` statements of ``module``, by the names they bind; read once."""
        if module.path not in self._re_exports:
            found: Dict[str, List[ast.ImportFrom]] = {}
            for statement in self.imports(module.path).statements:
                if isinstance(statement, ast.ImportFrom):
                    for alias in statement.names:
                        found.setdefault(alias.asname or alias.name, []).append(statement)
            self._re_exports[module.path] = found
        return self._re_exports[module.path]

    def importers_of(self, target: _Module, name: str) -> Iterator[Tuple[_Module, int]]:
        """(module, line) for each import of ``name`` from ``target`` by another module, or by a
        notebook (whose code imports as a module's does)."""
        importers = [*self.modules.items(), *((path, _module_of(path)) for path in self._notebooks)]
        for path, module in importers:
            if path == target.path:
                continue
            dynamic = self.dynamic_imports(path)
            if dynamic is not None and _may_import_dynamically(dynamic.names, target.name):
                yield module, dynamic.line
                continue
            for statement in self.imports(path).statements:
                if self._imports_name(module, statement, target, name):
                    yield module, statement.lineno
                    break

    def _imports_name(self, module: _Module, statement: ast.stmt, target: _Module, name: str) -> bool:
        """Does ``statement`` of ``module`` import ``name`` from ``target``, or the whole of
        ``target`` where the module reads ``name`` from it, or uses it as a value (then any of
        its names may be read where the tool does not see it)?"""
        if isinstance(statement, ast.ImportFrom):
            source = self._absolute(module, statement.module, statement.level)
            if self._is(source, target, module) and any(alias.name in (name, "*") for alias in statement.names):
                return True
        bound = self._bound_whole(module, statement, target)
        return any(_names_attribute(self.text(module.path), each, name) for each in bound) or self._used_as_a_value(module, bound)

    def _bound_whole(self, module: _Module, statement: ast.stmt, target: _Module) -> List[str]:
        """The names ``statement`` of ``module`` binds the whole of ``target`` to."""
        if isinstance(statement, ast.ImportFrom):
            source = self._absolute(module, statement.module, statement.level)
            return [alias.asname or alias.name for alias in statement.names if self._is(self._member(source, alias.name), target, module)]
        if isinstance(statement, ast.Import):
            return [alias.asname or alias.name for alias in statement.names if self._is(alias.name, target, module)]
        return []

    def uses_as_a_value(self, importer: _Module, target: _Module) -> bool:
        """Does ``importer`` use the module ``target`` as a value (``BACKENDS = {"openai": llm}``,
        ``getattr(llm, name)``), not only reading its names (``llm.ask``)?"""
        return any(self._used_as_a_value(importer, self._bound_whole(importer, statement, target)) for statement in self.imports(importer.path).statements)

    def _used_as_a_value(self, module: _Module, bound: Sequence[str]) -> bool:
        names = {each for each in bound if "." not in each}  # ``import app.llm`` binds ``app``, which the module reads into
        syntax = self.syntax(module.path) if names else None
        if syntax is None:
            return False
        read_into = {id(node.value) for node in ast.walk(syntax) if isinstance(node, ast.Attribute)}
        return any(isinstance(node, ast.Name) and node.id in names and isinstance(node.ctx, ast.Load) and id(node) not in read_into for node in ast.walk(syntax))

    def _is(self, dotted: Optional[str], target: _Module, importer: _Module) -> bool:
        """Does the module name ``dotted``, imported by ``importer``, mean ``target``?"""
        if isinstance(dotted, _ByPath):
            return dotted.path == target.path
        if not dotted:
            return False
        if dotted != target.name:
            if dotted in self.named:
                return False
            found = self._through_folders(importer, dotted)
            # No module of the project by that name: one whose name ends so may be what it
            # imports, where a script puts the module's folder on ``sys.path`` first.
            return found is target if found is not None else target.name.endswith(f".{dotted}")
        if target.base == importer.base:
            return True
        # Another top package of the same name beside the importer would be the one imported.
        return not any(m.name == dotted and m.base == importer.base for m in self.modules.values())

    def _absolute(self, module: _Module, name: Optional[str], level: int) -> Optional[str]:
        """The absolute name of ``from <level dots><name> import ...`` in ``module``. Within the
        packages its folders' ``__init__.py`` files make, it is spelled from theirs; above
        them, the folders are namespace packages (a relative import is valid in nothing else),
        and the module imported is found by its path: its own name then, or ``""`` for a folder
        of modules, whose names the names imported from it are."""
        if level == 0:
            return name
        package = module.package
        if level - 1 < len(package):
            parts = package[: len(package) - (level - 1)]
            return ".".join([*parts, *([name] if name else [])])
        folder = module.path.parent
        for _ in range(level - 1):
            folder = folder.parent
        return self._member(_ByPath("", folder), name) if name else _ByPath("", folder)

    def _member(self, source: Optional[str], name: str) -> str:
        """The name of the module ``name`` of the package ``source`` (``from source import
        name``), or of the module ``name`` dotted into it; by path under a folder found by path."""
        if not isinstance(source, _ByPath):
            return f"{source}.{name}" if source else name
        folder = source.path.parent if source.path.name == "__init__.py" else source.path
        for part in name.split(".")[:-1]:
            folder = folder / part
        last = name.split(".")[-1]
        for path in (folder / f"{last}.py", folder / last / "__init__.py"):
            if path in self.modules:
                return _ByPath(self.modules[path].name, path)
        return _ByPath("", folder / last)  # a folder, or nothing: no module of the project

    def _resolve(self, importer: _Module, dotted: Optional[str]) -> Optional[_Module]:
        """The project module ``dotted`` names for ``importer``: beside it first."""
        if isinstance(dotted, _ByPath):
            return self.modules.get(dotted.path)
        if not dotted:
            return None
        matches = self.named.get(dotted, [])
        if not matches:
            return self._through_folders(importer, dotted) or self._ending(dotted)
        beside = [m for m in matches if m.base == importer.base]
        chosen = beside or matches
        return chosen[0] if len(chosen) == 1 else None

    def _through_folders(self, importer: _Module, dotted: str) -> Optional[_Module]:
        """The module a dotted absolute import names through folders without ``__init__.py``
        (namespace packages), whose modules are named from their own folder: looked for by path
        from where Python may run the project, the importer's top folder, the folders above it
        (nearest first: ``backend/``, where ``uvicorn app.main:app`` runs, for
        ``backend/app/api/chat.py`` importing ``app.services.llm``) up to the project's root."""
        key = (importer.base, dotted)
        if key not in self._by_folders:
            self._by_folders[key] = self._found_through_folders(importer.base, dotted)
        return self._by_folders[key]

    def _ending(self, dotted: str) -> Optional[_Module]:
        """The one module of the project whose name ends with ``dotted`` (``src.apis.openai``
        for ``apis.openai``): what a script puts the folder above it on ``sys.path`` to import
        (``python app.py`` in ``src/``), as ``_is`` reads such an import."""
        if self._by_ending is None:
            self._by_ending = {}
            for module in self.modules.values():
                parts = module.name.split(".")
                for start in range(1, len(parts)):
                    self._by_ending.setdefault(".".join(parts[start:]), []).append(module)
        found = self._by_ending.get(dotted, [])
        return found[0] if len(found) == 1 else None

    def _found_through_folders(self, top: Path, dotted: str) -> Optional[_Module]:
        parts = dotted.split(".")
        if len(parts) < 2:
            return None
        above = [folder for folder in top.parents if folder == self.root or self.root in folder.parents]
        for base in dict.fromkeys((top, *above, self.root)):
            target = base.joinpath(*parts)
            for path in (target.with_suffix(".py"), target / "__init__.py"):
                if path in self.modules:
                    return self.modules[path]
        return None

    # -- what the modules a module imports call ----------------------------------------

    def chat_calls_imported(self, importer: _Module) -> List[Tuple[Path, List[str]]]:
        """Where the project modules ``importer`` imports, directly or through others, call
        Chat Completions: each module's path and its calls ("path:line"), the modules it
        imports itself first. The ``conftest.py`` files pytest loads with it (in its folder and
        those above) count as importing too: their fixtures bring in code the test calls. The
        text is searched as the screen searches it (``CALL_SITE``): cheap, and a call in a
        string or a comment counts too."""
        reached = self._modules_reached(importer, self._conftests_above(importer.path))
        return [(module.path, calls) for module in reached if (calls := self._chat_calls_in(module.path))]

    def spelled_in_imports(self, importer: _Module, word: str) -> List[str]:
        """Where the project modules ``importer`` imports, directly or through others, spell
        ``word`` ("path:line"), the modules it imports itself first: in code, strings and
        comments alike (settings written for the environment, say); and before them, where the
        ``.env`` files in its folder and those above it, up to the project's root, spell it
        (what ``load_dotenv()``, a container or an IDE puts into its environment)."""
        environment = [place for path in self._environment_files(importer.path) for place in self._spelled_in(path, word)]
        if not self.may_import_its_modules(importer.path):
            return environment  # spares listing the project
        return environment + [place for module in self._modules_reached(importer) for place in self._spelled_in(module.path, word)]

    def _environment_files(self, path: Path) -> List[Path]:
        """The ``.env`` files in the folder of ``path`` and those above it, up to the root."""
        found = []
        for folder in path.parents:
            if (folder / ENVIRONMENT_FILE).is_file():
                found.append(folder / ENVIRONMENT_FILE)
            if folder == self.root or self.root not in folder.parents:
                break
        return found

    def _modules_reached(self, importer: _Module, also: Iterable[_Module] = ()) -> Iterator[_Module]:
        """The project modules ``importer`` imports, directly or through others (and those of
        ``also``, taken for its own imports), breadth first: the nearest first."""
        seen: Set[Path] = {importer.path}
        pending = deque([importer])
        while pending:
            current = pending.popleft()
            for imported in (*self._modules_imported(current), *(also if current is importer else ())):
                if imported.path in seen:
                    continue
                seen.add(imported.path)
                yield imported
                pending.append(imported)

    def _conftests_above(self, path: Path) -> Iterator[_Module]:
        for folder in path.parents:
            conftest = folder / "conftest.py"
            if conftest != path and conftest in self.modules:
                yield self.modules[conftest]
            if folder == self.root:
                break

    def _chat_calls_in(self, path: Path) -> List[str]:
        """Where the module at ``path`` calls Chat Completions: read once for all the test modules that reach it."""
        if path not in self._chat_calls:
            text = self.text(path)
            self._chat_calls[path] = [self.where(path, 1 + text.count("\n", 0, call.start())) for call in CALL_SITE.finditer(text)]
        return self._chat_calls[path]

    def _spelled_in(self, path: Path, word: str) -> List[str]:
        """Where the module at ``path`` spells ``word`` as a word of its own: read once for all
        the modules that reach it."""
        if (path, word) not in self._spelled:
            text = self.text(path)
            found = re.finditer(rf"\b{re.escape(word)}\b", text) if word in text else ()
            self._spelled[(path, word)] = [self.where(path, 1 + text.count("\n", 0, match.start())) for match in found]
        return self._spelled[(path, word)]

    def _modules_imported(self, importer: _Module) -> Iterator[_Module]:
        """The project modules the import statements of ``importer`` name: ``from app import
        llm`` names ``app.llm`` if it is a module, else ``app``."""
        for statement in self.imports(importer.path).statements:
            if isinstance(statement, ast.ImportFrom):
                source = self._absolute(importer, statement.module, statement.level)
                for alias in statement.names:
                    whole = self._member(source, alias.name)
                    module = self._resolve(importer, whole) or self._resolve(importer, source)
                    if module is not None:
                        yield module
            else:
                for alias in statement.names:
                    module = self._resolve(importer, alias.name)
                    if module is not None:
                        yield module

    # -- what an imported name holds --------------------------------------------------

    def imported_client(self, module: _Module, syntax: Optional[ast.Module], name: str) -> Optional[ImportedClient]:
        """``name``, as ``module`` imports it, when the module it comes from makes it an OpenAI
        client (or a function returning one, or a subclass of the client's class) and binds it
        nowhere else; or, as an ``other class``, when it is any other class defined there."""
        binding = _import_binding(syntax, name) if syntax is not None else None
        if binding is None:
            return None
        source, level, original = binding
        found = self._client_definition(module, source, level, original)
        if found is None:
            return None
        kind, cls, server, version = found
        return ImportedClient(name=name, kind=kind, server=server, azure=cls in AZURE_CLIENTS, azure_version=version)

    def imported_constant(self, module: _Module, syntax: Optional[ast.Module], name: str) -> Optional[Tuple[str, int, str]]:
        """``name``, as ``module`` imports it, with the integer the module it comes from binds
        it to once (``MAX_TOKENS = 5``, ``= int(os.getenv("MAX_TOKENS", 10))``) and where."""
        binding = _import_binding(syntax, name) if syntax is not None else None
        if binding is None:
            return None
        definition = self._definition(module, *binding)
        if definition is None:
            return None
        defining, _, node = definition
        value = _integer_of(node.value) if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None else None
        return (name, value, self.where(defining.path, node.lineno)) if value is not None else None

    def imported_literal(self, module: _Module, syntax: Optional[ast.Module], name: str) -> Optional[Tuple[str, object]]:
        """``name``, as ``module`` imports it, with the dict or list literal the module it comes
        from binds it to once (``SYSTEM = {"role": "system", ...}``), described as the values
        other modules pass are (``migrator.passed_values``)."""
        binding = _import_binding(syntax, name) if syntax is not None else None
        definition = self._definition(module, *binding) if binding is not None else None
        if definition is None:
            return None
        _, defining_syntax, node = definition
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if not isinstance(value, (ast.Dict, ast.List)):
            return None
        return name, passed_values.described(value, defining_syntax)

    def _definition(self, importer: _Module, source: Optional[str], level: int, name: str) -> Optional[Tuple[_Module, ast.Module, ast.stmt]]:
        """The module of the project that defines the name ``name`` ``importer`` imports from
        ``source``, its syntax, and the one statement binding it there (re-exports followed);
        None when it is bound there more than once, or the tool cannot tell."""
        found = self._definitions(importer, source, level, name)
        if found is None or len(found[2]) != 1:
            return None
        defining, syntax, (node,) = found
        return defining, syntax, node

    def _definitions(self, importer: _Module, source: Optional[str], level: int, name: str) -> Optional[Tuple[_Module, ast.Module, List[ast.stmt]]]:
        """The module of the project that defines the name ``name`` ``importer`` imports from
        ``source``, its syntax, and the top-level statements binding it there, in order (a name
        imported from one module by the only one followed); None when a function rebinds it
        through ``global``, or the tool cannot tell."""
        for _ in range(MAX_RE_EXPORTS + 1):
            defining = self._resolve(importer, self._absolute(importer, source, level))
            syntax = self.syntax(defining.path) if defining is not None else None
            if defining is None or syntax is None:
                return None
            bindings = [node for node in _top_level_bindings(syntax) if name in _bound_names(node)]
            if not bindings or _rebound_globally(syntax, name):
                return None
            node = bindings[0]
            if len(bindings) > 1 or not isinstance(node, ast.ImportFrom):
                return defining, syntax, bindings
            source, level, importer = node.module, node.level, defining
            name = next(alias.name for alias in node.names if (alias.asname or alias.name) == name)
        return None

    def _client_definition(
        self, importer: _Module, source: Optional[str], level: int, name: str
    ) -> Optional[Tuple[str, str, Optional[str], Optional[str]]]:
        """(kind, client class, other server, Azure version) of the name ``name`` the module
        ``source`` defines."""
        definitions = self._definitions(importer, source, level, name)
        if definitions is None:
            return None
        defining, syntax, nodes = definitions
        classes = _client_class_names(syntax)
        text = self.text(defining.path)
        environment = self._spells_base_url_variable(defining)
        if all(isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call) for node in nodes):
            # Bound once, or in each branch of an ``if`` (a timeout for a proxy): alike each time.
            built = {(_server_of_construction(node.value, classes, environment), _azure_version([node.value], syntax)) for node in nodes}  # type: ignore[attr-defined]
            if len(built) != 1:
                return None
            (made, version), = built
            return ("client", *made, version) if made is not None else None
        if len(nodes) != 1:
            return None
        node = nodes[0]
        if isinstance(node, ast.ClassDef):
            made = _subclassed_client(node, classes, text, environment)
            # Any other class of the project is not another SDK's: it may wrap or subclass the client.
            return ("class", *made, None) if made is not None else ("other class", None, None, None)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            returned = _returned_client(node, classes, environment, syntax)
            if returned is None:
                return None
            kind = "factory" if isinstance(node, ast.FunctionDef) else "async factory"
            calls = [r.value for r in ast.walk(node) if isinstance(r, ast.Return) and isinstance(r.value, ast.Call)]
            return (kind, *returned, _azure_version(calls, syntax))
        return None

    def clients_for_other_servers(self) -> List[Tuple[Path, int, str, Optional[str]]]:
        """(path, line, server in words, ``base_url`` when a literal gives it) for each place a
        module of the project builds an OpenAI client that may talk to another server than
        OpenAI's: given a ``base_url`` (a literal's host is for the asker to judge), arguments
        that may hold one, none where ``OPENAI_BASE_URL`` may be set, a subclass giving its own,
        or one set on it once built (``client.base_url = ...``, on what the module binds to a
        client). Read once; only the modules importing openai are parsed."""
        if self._built_clients is None:
            self._built_clients = []
            for path, module in sorted(self.modules.items()):
                names = self.imports(path).top_names
                if (names is None and "openai" not in self.text(path)) or (names is not None and "openai" not in names):
                    continue
                if not any(word in self.text(path) for word in CLIENT_BUILDING_WORDS):
                    continue  # most modules importing openai build no client: they go unparsed
                if self._is_test(path):
                    continue  # a test's client (for a fake server) reaches the code it tests only under test
                syntax = self.syntax(path)
                if syntax is not None:
                    found = _clients_for_other_servers(syntax, self.text(path), partial(self._spells_base_url_variable, module))
                    self._built_clients.extend((path, *each) for each in found)
        return self._built_clients

    def _is_test(self, path: Path) -> bool:
        """Is the module at ``path`` a test, as pytest and unittest find them: ``test_*.py``,
        ``*_test.py``, ``conftest.py``, or a module in a ``tests`` or ``test`` folder of the project?"""
        name = path.name
        if name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py":
            return True
        return any(folder.name in ("tests", "test") for folder in path.parents if self.root in folder.parents)

    def _spells_base_url_variable(self, module: _Module) -> bool:
        """Does ``module``, or a project module it imports (directly or through others), spell
        ``OPENAI_BASE_URL``? Then it may set it, and the clients built there without a
        ``base_url`` take theirs from it. Read once for each module."""
        if module.path not in self._environment:
            spelled = BASE_URL_VARIABLE in self.text(module.path) or bool(self.spelled_in_imports(module, BASE_URL_VARIABLE))
            self._environment[module.path] = spelled
        return self._environment[module.path]


ENVIRONMENT_FILE = ".env"  # the variables `python-dotenv` and most tools load into the environment
# What the text of a module building a client for another server holds: a client class called
# (``OpenAI(``, ``AsyncAzureOpenAI(``), subclassed or imported under another name, or a
# ``base_url`` given or set.
CLIENT_BUILDING_WORDS = ("OpenAI(", "OpenAI)", "OpenAI as", "base_url")
# An import statement as written, with what continues it: a parenthesised list, or lines
# ended by a backslash. One in a docstring counts too: an importer too many is the cautious way.
IMPORT_STATEMENT = re.compile(
    r"^[ \t]*(?:from[ \t]+[.\w]+[ \t]+import[ \t]*(?:\([^)]*\)|(?:[^\n]*\\\r?\n)*[^\n]*)|import[ \t]+(?:[^\n]*\\\r?\n)*[^\n]*)",
    re.MULTILINE,
)


def _import_statements(text: str) -> Iterator[Tuple["re.Match[str]", int]]:
    """What ``IMPORT_STATEMENT.finditer(text)`` finds, with the line each starts on. Every match
    spells ``import`` on the line it starts on, so only those lines are tried: trying the
    expression at every line of a module costs several times more."""
    end = 0  # where the last statement found ends: the next starts after it
    tried = -1  # the start of the last line tried
    line, counted = 1, 0  # the number of the line at offset ``counted``
    at = text.find("import")
    while at != -1:
        start = text.rfind("\n", 0, at) + 1
        if start >= end and start != tried:
            tried = start
            match = IMPORT_STATEMENT.match(text, start)
            if match is not None:
                line += text.count("\n", counted, start)
                counted = start
                yield match, line
                end = match.end()
        at = text.find("import", max(at + 1, end))


# Import statements on one line, with plain (ASCII) names: what ``_import_entry`` reads without
# parsing. Python's parser reads anything else (parentheses, comments, other spaces).
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_DOTTED = rf"{_NAME}(?:\.{_NAME})*"
PLAIN_IMPORT = re.compile(rf"import +(?P<names>{_DOTTED}(?: +as +{_NAME})?(?: *, *{_DOTTED}(?: +as +{_NAME})?)*)")
PLAIN_FROM = re.compile(
    rf"from +(?P<dots>\.*)(?P<module>{_DOTTED})? +import +(?P<names>\*|{_NAME}(?: +as +{_NAME})?(?: *, *{_NAME}(?: +as +{_NAME})?)*)"
)
PLAIN_ALIAS = re.compile(rf"({_DOTTED}|\*)(?: +as +({_NAME}))?")
STRING_WORDS = re.compile(r"[\"']([^\"'\n]*)[\"']")  # the text of a string literal, roughly


@dataclass
class _Imports:
    """What one module imports, read from its text without parsing all of it."""

    # ``import`` and ``from ... import``, as ``_saved_statement`` writes them: a warm run reads
    # thousands, and most are only asked which top names they import.
    entries: List[list]
    # Its text names a function importing modules by name at run time (``DYNAMIC_IMPORT``):
    # what it imports so is read from the whole module (``_DynamicImports``) only when asked,
    # since that parses it, and most projects never ask.
    dynamic_text: bool = False
    calls: bool = False  # its text holds what reads as a legacy call (``CALL_SITE``)

    @cached_property
    def statements(self) -> List[ast.stmt]:
        """The statements, with the lines they start on."""
        return [_loaded_statement(entry) for entry in self.entries]

    @cached_property
    def top_names(self) -> Optional[Set[str]]:
        """The top names of the modules its statements import; None when one is relative."""
        names = set()
        for _, aliases, *source in self.entries:
            if not source:
                names.update(name.split(".")[0] for name, _ in aliases)
                continue
            module, level = source
            if level:
                return None
            names.add((module or "").split(".")[0])
        return names

    @classmethod
    def of(cls, text: str) -> "_Imports":
        entries = []
        for match, line in _import_statements(text):
            entry = _import_entry(match.group().strip(), line)
            if entry is not None:
                entries.append(entry)
        # The names first: a search for a string is many times faster than the expression's.
        dynamic_text = ("import_module" in text or "__import__" in text) and DYNAMIC_IMPORT.search(text) is not None
        return cls(entries, dynamic_text, holds_call_site(text))

    def saved(self) -> Dict[str, object]:
        """As JSON, for the cache."""
        return {"statements": self.entries, "dynamic_text": self.dynamic_text, "calls": self.calls}

    @classmethod
    def loaded(cls, saved: object) -> Optional["_Imports"]:
        """What ``saved`` holds; None when it is not what ``saved()`` writes."""
        try:
            entries, dynamic_text, calls = saved["statements"], saved["dynamic_text"], saved["calls"]  # type: ignore[index]
            if not isinstance(calls, bool) or not isinstance(dynamic_text, bool) or not isinstance(entries, list):
                return None
            return cls(entries, dynamic_text, calls) if all(map(_is_saved_statement, entries)) else None
        except (KeyError, TypeError):
            return None


@dataclass(frozen=True)
class _DynamicImports:
    """What a module may import by name at run time: a name (``"pkg.mod"``), a prefix
    (``"plugins."`` for ``f"plugins.{name}"``), or, for a name the tool cannot read, each dotted
    name its strings spell, marked ``~`` (the module or its last part); and where it first does."""

    names: Set[str]
    line: int

    @classmethod
    def of(cls, text: str) -> Optional["_DynamicImports"]:
        """None when the module calls no such function (a name in a comment or a string)."""
        found = DYNAMIC_IMPORT.search(text)
        syntax = _parsed(text.encode()) if found is not None else None
        calls = [node for node in ast.walk(syntax) if _is_dynamic_import(node)] if syntax is not None else []
        if syntax is None and found is not None:
            calls = [None]  # a module Python cannot parse: what it imports is unknown
        if not calls:
            return None
        names: Set[str] = set()
        for call in calls:
            argument = call.args[0] if call is not None and call.args else None
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                names.add(argument.value)
            elif isinstance(argument, ast.JoinedStr) and argument.values and isinstance(argument.values[0], ast.Constant):
                names.add(str(argument.values[0].value))
            else:
                names.update("~" + literal for literal in STRING_WORDS.findall(text) if DOTTED.fullmatch(literal))
        line = calls[0].lineno if calls[0] is not None else 1 + text.count("\n", 0, found.start())
        return cls(names, line)


def _import_entry(code: str, line: int) -> Optional[list]:
    """The import statement ``code`` (found on ``line``) as ``_saved_statement`` writes it; None
    when it is not one. Most are written on one line with plain names, read without parsing:
    parsing each costs a cold run as much as the rest of reading the imports."""
    plain = PLAIN_IMPORT.fullmatch(code) or PLAIN_FROM.fullmatch(code)
    if plain is not None:
        aliases = PLAIN_ALIAS.findall(plain["names"])
        module = plain["module"] if plain.re is PLAIN_FROM else None
        words = [word for name, alias in aliases for word in (*name.split("."), alias)] + (module or "").split(".")
        if not any(map(keyword.iskeyword, words)):  # a keyword where a name must be: Python refuses it
            names = [[name, alias or None] for name, alias in aliases]
            return [line, names] if plain.re is PLAIN_IMPORT else [line, names, module, len(plain["dots"])]
    syntax = _parsed(code.encode())
    if syntax is None or len(syntax.body) != 1 or not isinstance(syntax.body[0], (ast.Import, ast.ImportFrom)):
        return None
    syntax.body[0].lineno = line
    return _saved_statement(syntax.body[0])


def _saved_statement(statement: ast.stmt) -> list:
    """An import statement as JSON: its line, the names it imports with their aliases, and
    (for ``from``) its module and level."""
    names = [[alias.name, alias.asname] for alias in statement.names]  # type: ignore[attr-defined]
    if isinstance(statement, ast.ImportFrom):
        return [statement.lineno, names, statement.module, statement.level]
    return [statement.lineno, names]


def _is_saved_statement(entry: object) -> bool:
    """Is ``entry`` shaped as ``_saved_statement`` writes? (The index is this tool's own
    file, written whole: its shape, not every field, is checked.)"""
    return isinstance(entry, list) and len(entry) in (2, 4) and isinstance(entry[0], int) and isinstance(entry[1], list)


def _loaded_statement(entry: list) -> ast.stmt:
    """What ``_saved_statement`` wrote, built again."""
    line, names, *source = entry
    aliases = [ast.alias(name=name, asname=alias) for name, alias in names]
    if source:
        module, level = source
        return ast.ImportFrom(module=module, names=aliases, level=level, lineno=line)
    return ast.Import(names=aliases, lineno=line)


DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def _is_dynamic_import(node: ast.AST) -> bool:
    """``importlib.import_module(...)``, ``import_module(...)``, ``__import__(...)``."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return name in ("import_module", "__import__")


def _may_import_dynamically(dynamic: Set[str], module: str) -> bool:
    last = module.rsplit(".", 1)[-1]
    return any(
        module == pattern or (pattern.endswith(".") and module.startswith(pattern)) or pattern in ("~" + module, "~" + last)
        for pattern in dynamic
    )


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


LEFT_OUT = ("__pycache__", "node_modules", "site-packages")


def _is_left_out(folder: str, name: str) -> bool:
    """A folder below a project that is no part of it: hidden, a cache, a virtual environment."""
    return _is_named_left_out(name) or os.path.exists(os.path.join(folder, name, "pyvenv.cfg"))


def _is_named_left_out(name: str) -> bool:
    """A folder left out for its name, whatever it holds."""
    return name.startswith(".") or name in LEFT_OUT


def _left_out(root: Path, path: Path) -> bool:
    """Is ``path`` in a folder below ``root`` that the project leaves out?"""
    try:
        parts = path.parent.relative_to(root).parts
    except ValueError:
        return True  # not below it at all
    return any(_is_left_out(str(root.joinpath(*parts[:index])), name) for index, name in enumerate(parts))


def _python_files(root: Path, listed: List[Path], packages_only: bool = False, notebooks: Optional[List[Path]] = None) -> List[Path]:
    """The project's Python modules, resolved; hidden folders, virtual environments and caches
    left out, and with ``packages_only`` every folder below ``root`` that is not a package. The
    folders whose content that depends on (those listed, and those left out for what they hold)
    are added to ``listed``, and the notebooks found beside the modules to ``notebooks``."""
    found = []
    for folder, subfolders, files in os.walk(root):
        listed.append(Path(folder))
        listed.extend(Path(folder, d) for d in subfolders if not _is_named_left_out(d))
        subfolders[:] = [
            d for d in subfolders
            if not _is_left_out(folder, d)
            and not (packages_only and not os.path.exists(os.path.join(folder, d, "__init__.py")))
        ]
        real = Path(os.path.realpath(folder))  # once per folder: resolving each file costs a system call per part
        found.extend(real / f for f in files if f.endswith(".py"))
        if notebooks is not None:
            notebooks.extend(real / f for f in files if f.endswith(NOTEBOOK_SUFFIX))
    return found


def _statements(syntax: ast.Module) -> Iterator[ast.stmt]:
    """Every statement of the module, nested ones included, without walking expressions: what
    binds a name module-wide (an import, ``global``) is a statement, and a module's expressions
    are most of its nodes."""
    stack: List[ast.AST] = [syntax]
    while stack:
        node = stack.pop()
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                stack.extend(reversed(children))
        if isinstance(node, ast.stmt):
            yield node


def _handled_exceptions(syntax: ast.Module) -> Iterator[Tuple[str, int]]:
    """The exceptions the ``except`` clauses of a module name, qualified by the module-level
    imports that bind their names (``openai.OpenAIError`` for ``except openai.OpenAIError`` or,
    after ``from openai import OpenAIError``, ``except OpenAIError``), with their lines."""
    for node in ast.walk(syntax):
        if not isinstance(node, ast.ExceptHandler) or node.type is None:
            continue
        for handled in node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]:
            dotted = _dotted(handled)
            binding = _import_binding(syntax, dotted) if dotted is not None else None
            if binding is not None and binding[0] and not binding[1]:
                yield f"{binding[0]}.{binding[2]}", node.lineno
            elif dotted is not None:
                yield dotted, node.lineno


def _results_compared_with_none(syntax: ast.Module, functions: Set[str]) -> Iterator[int]:
    """The lines comparing with ``None`` what a call of one of ``functions`` (names) returns:
    the call itself, or a name a call is assigned to anywhere in the module."""
    def called(node: ast.expr) -> bool:
        node = node.value if isinstance(node, ast.Await) else node
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions

    holders = {
        target.id
        for node in ast.walk(syntax)
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and called(node.value)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }
    for node in ast.walk(syntax):
        if not isinstance(node, ast.Compare) or not all(isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)) for op in node.ops):
            continue
        sides = [node.left, *node.comparators]
        if any(isinstance(side, ast.Constant) and side.value is None for side in sides) and any(
            called(side) or (isinstance(side, ast.Name) and side.id in holders) for side in sides
        ):
            yield node.lineno


def _integer_of(node: ast.expr) -> Optional[int]:
    """The integer ``node`` is: a literal, ``int(...)`` of one (or of a text of digits), or what
    an environment read (``os.getenv(NAME, 10)``, ``os.environ.get(...)``) gives by default."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip().isdigit():
        return int(node.value)
    if isinstance(node, ast.Call) and len(node.args) == 1 and isinstance(node.func, ast.Name) and node.func.id == "int":
        return _integer_of(node.args[0])
    if isinstance(node, ast.Call) and len(node.args) == 2 and isinstance(node.func, ast.Attribute) and node.func.attr in ("getenv", "get"):
        return _integer_of(node.args[1])
    return None


def _dotted(node: ast.expr) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        owner = _dotted(node.value)
        return f"{owner}.{node.attr}" if owner is not None else None
    return None


def _parsed(source: bytes) -> Optional[ast.Module]:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # what the file says is then unknown: asked about, it proves nothing


def _names_attribute(text: str, module_name: str, attribute: str) -> bool:
    """Does ``text`` read ``<module_name>(.x)*.<attribute>``?"""
    return re.search(rf"\b{re.escape(module_name)}(?:\s*\.\s*\w+)*\s*\.\s*{re.escape(attribute)}\b", text) is not None


def _attributes_read(text: str, module_name: str) -> Set[str]:
    """The names ``text`` reads as ``<module_name>(.x)*.<name>``: what ``_names_attribute`` finds, all at once."""
    chains = re.findall(rf"\b{re.escape(module_name)}((?:\s*\.\s*\w+)+)", text)
    return {part.strip() for chain in chains for part in chain.split(".") if part.strip()}


def _import_binding(syntax: ast.Module, name: str) -> Optional[Tuple[Optional[str], int, str]]:
    """(module, level, attribute) that ``name`` reads through the one import binding its first
    part: ``client`` after ``from .llm import client`` is (``llm``, 1, ``client``); ``llm.client``
    after ``import app.llm as llm`` or ``from app import llm`` is (``app.llm``, 0, ``client``)."""
    parts = name.split(".")
    head, middle, attribute = parts[0], parts[1:-1], parts[-1]
    found = []
    for node in _statements(syntax):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) != head:
                    continue
                if len(parts) == 1:
                    found.append((node.module, node.level, alias.name))
                else:
                    found.append((".".join(filter(None, [node.module, alias.name, *middle])), node.level, attribute))
        elif isinstance(node, ast.Import) and len(parts) > 1:
            for alias in node.names:
                if alias.asname == head:
                    found.append((".".join([alias.name, *middle]), 0, attribute))
                elif alias.asname is None and alias.name.split(".")[0] == head:
                    found.append((".".join([head, *middle]), 0, attribute))
    return found[0] if len(found) == 1 else None


def _top_level_bindings(syntax: ast.Module) -> Iterator[ast.stmt]:
    """The module's top-level statements that may bind names, also under ``if``/``try``."""
    pending: List[ast.stmt] = list(syntax.body)
    while pending:
        node = pending.pop(0)
        if isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            for field in ("body", "orelse", "finalbody"):
                pending.extend(getattr(node, field, []))
            for handler in getattr(node, "handlers", []):
                pending.extend(handler.body)
            if not isinstance(node, (ast.If, ast.Try)):
                yield node  # their targets bind names too
            continue
        yield node


def _bound_names(node: ast.stmt) -> Set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    targets: Iterable[ast.AST] = ()
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        targets = [node.target]
    elif isinstance(node, (ast.For, ast.AsyncFor)):
        targets = [node.target]
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
    elif isinstance(node, ast.Delete):
        targets = node.targets
    return {n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name)}


def _rebound_globally(syntax: ast.Module, name: str) -> bool:
    """Does a function of the module rebind the name through ``global``?"""
    return any(isinstance(node, ast.Global) and name in node.names for node in _statements(syntax))


def _client_class_names(syntax: ast.Module) -> Dict[str, str]:
    """The names the module spells the SDK's client classes with, to the classes: ``OpenAI``
    for ``from openai import OpenAI``, ``openai.OpenAI`` for ``import openai``."""
    names: Dict[str, str] = {}
    for node in syntax.body:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                if f"{node.module}.{alias.name}" in CLIENT_CLASSES:
                    names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "openai":
                    for qualified in CLIENT_CLASSES:
                        module, _, cls = qualified.rpartition(".")
                        if module.startswith(alias.name) or alias.name == module:
                            names[f"{alias.asname or module}.{cls}" if alias.asname else qualified] = qualified
    return names


def _server_of_construction(call: ast.Call, classes: Dict[str, str], environment: bool) -> Optional[Tuple[str, Optional[str]]]:
    """(class, the other server it talks to in words, or None for OpenAI's) when ``call``
    makes a client (in a module where ``OPENAI_BASE_URL`` may be set, with ``environment``);
    None when it does not."""
    spelled = ast.unparse(call.func)
    if spelled not in classes:
        return None
    cls = classes[spelled]
    if cls in AZURE_CLIENTS:
        return cls, None
    base_url = next((k.value for k in call.keywords if k.arg == "base_url"), None)
    if base_url is not None:
        url = base_url.value if isinstance(base_url, ast.Constant) and isinstance(base_url.value, str) else None
        return cls, f"`{url}`" if url is not None else f"the URL `{ast.unparse(base_url)}` holds at run time"
    if call.args or any(k.arg is None for k in call.keywords):
        return cls, "a URL the arguments it is built with may hold"
    if environment:
        return cls, f"the URL the `{BASE_URL_VARIABLE}` environment variable holds"
    return cls, None


def _clients_for_other_servers(syntax: ast.Module, text: str, environment: Callable[[], bool]) -> List[Tuple[int, str, Optional[str]]]:
    """(line, server in words, ``base_url`` when a literal gives it) for each place the module
    builds an OpenAI client that may talk to another server than OpenAI's (see
    ``_Tree.clients_for_other_servers``); ``environment`` says whether ``OPENAI_BASE_URL`` may be
    set there, asked only of a module that builds a client without a ``base_url``."""
    classes = _client_class_names(syntax)
    if not classes:
        return []
    found: List[Tuple[int, str, Optional[str]]] = []
    holders: Set[str] = set()  # what the module binds a client to: `client`, `self.client`
    for node in ast.walk(syntax):
        if isinstance(node, ast.Call) and ast.unparse(node.func) in classes:
            base_url = next((k.value for k in node.keywords if k.arg == "base_url"), None)
            unread = node.args or any(k.arg is None for k in node.keywords)
            built = _server_of_construction(node, classes, base_url is None and not unread and environment())
            if built is not None and built[1] is not None:
                found.append((node.lineno, built[1], _string_constant(base_url)))
        elif isinstance(node, ast.ClassDef) and any(ast.unparse(base) in classes for base in node.bases):
            made = _subclassed_client(node, classes, text, environment())
            if made is not None and made[1] is not None:
                found.append((node.lineno, made[1], None))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call) and ast.unparse(node.value.func) in classes:
            holders.update(ast.unparse(target) for target in (node.targets if isinstance(node, ast.Assign) else [node.target]))
    for node in ast.walk(syntax):
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Attribute) and target.attr == "base_url" and ast.unparse(target.value) in holders for target in node.targets
        ):
            url = _string_constant(node.value)
            found.append((node.lineno, f"`{url}`" if url is not None else f"the URL `{ast.unparse(node.value)}` holds at run time", url))
    return sorted(found)


def _string_constant(value: Optional[ast.expr]) -> Optional[str]:
    return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else None


def _subclassed_client(node: ast.ClassDef, classes: Dict[str, str], text: str, environment: bool) -> Optional[Tuple[str, Optional[str]]]:
    """(class, the other server it talks to in words, or None for OpenAI's) when ``node`` defines
    a subclass of one client class that defines nothing but how it is built (``__init__``):
    building it builds such a client."""
    clients = [classes[ast.unparse(base)] for base in node.bases if ast.unparse(base) in classes]
    if len(clients) != 1 or len(node.bases) != 1 or node.keywords or node.decorator_list:
        return None
    if not all(_only_builds(statement) for statement in node.body):
        return None
    cls = clients[0]
    if cls in AZURE_CLIENTS:
        return cls, None
    own = ast.get_source_segment(text, node) or ""
    if "base_url" in own:
        return cls, f"the URL `{node.name}` gives its client"
    if environment:
        return cls, f"the URL the `{BASE_URL_VARIABLE}` environment variable holds"
    return cls, None


def _only_builds(statement: ast.stmt) -> bool:
    """Is ``statement``, in a class body, a docstring, ``pass`` or a method that builds it?"""
    if isinstance(statement, ast.Pass) or isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
        return True
    return isinstance(statement, ast.FunctionDef) and statement.name in CLIENT_SUBCLASS_MEMBERS and not statement.decorator_list


def _azure_version(calls: List[ast.Call], syntax: ast.Module) -> Optional[str]:
    """The ``api_version`` every one of ``calls`` builds its client with, when a literal shows it:
    given as one, as a constant of the module, or as the default of ``os.getenv``/
    ``os.environ.get``. None when one is read otherwise, differs, is not given (the environment
    then decides) or comes with a ``base_url`` of its own (whose endpoint decides which versions
    it takes)."""
    versions = set()
    for call in calls:
        keywords = {k.arg: k.value for k in call.keywords}
        value = keywords.get("api_version")
        if value is None or "base_url" in keywords or None in keywords:
            return None
        if isinstance(value, ast.Call) and ast.unparse(value.func) in ("os.getenv", "os.environ.get", "getenv"):
            defaults = value.args[1:2] or [k.value for k in value.keywords if k.arg == "default"]
            value = defaults[0] if defaults else value
        if isinstance(value, ast.Name):
            assigned = [n.value for n in syntax.body if isinstance(n, ast.Assign) and value.id in _bound_names(n)]
            value = assigned[0] if len(assigned) == 1 and not _rebound_globally(syntax, value.id) else value
        if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
            return None
        versions.add(value.value)
    return versions.pop() if len(versions) == 1 else None


def _returned_client(function: ast.AST, classes: Dict[str, str], environment: bool, syntax: ast.Module) -> Optional[Tuple[str, Optional[str]]]:
    """What a factory's ``return``s build, when every one that returns something builds a client
    (a bare ``return``, or falling off the end, gives None, on which a call fails alike on either
    API): its class (an Azure one when any is), and the other server in words. A factory cached
    by ``functools`` returns what it builds, once; one annotated to return a client may return
    a global of its module it keeps one in (``global _client``), which holds nothing else."""
    returns = [node for node in ast.walk(function) if isinstance(node, ast.Return) and not _returns_none(node)]
    nested = [node for node in ast.walk(function) if node is not function and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
    if nested or any(isinstance(node, (ast.Yield, ast.YieldFrom)) for node in ast.walk(function)):
        return None
    if not all(_is_cache(decorator) for decorator in getattr(function, "decorator_list", ())):
        return None
    annotated = getattr(function, "returns", None) is not None and ast.unparse(function.returns) in classes  # type: ignore[attr-defined]
    kept = {name for node in ast.walk(function) if isinstance(node, ast.Global) for name in node.names} if annotated else set()
    built: List[Optional[Tuple[str, Optional[str]]]] = []
    for r in returns:
        if isinstance(r.value, ast.Name) and r.value.id in kept:
            built.extend(_kept_clients(syntax, r.value.id, classes, environment))
        else:
            built.append(_server_of_construction(r.value, classes, environment) if isinstance(r.value, ast.Call) else None)
    if not returns or not built or None in built:
        return None
    servers = {server for _, server in built}
    cls = next((cls for cls, _ in built if cls in AZURE_CLIENTS), built[0][0])
    return cls, (servers.pop() if len(servers) == 1 else "the URLs its clients are built with")


def _kept_clients(syntax: ast.Module, name: str, classes: Dict[str, str], environment: bool) -> List[Optional[Tuple[str, Optional[str]]]]:
    """(class, other server) for each client the module's global ``name`` is bound to, None
    for a value that is neither a client nor None: what a factory keeping one there returns."""
    built: List[Optional[Tuple[str, Optional[str]]]] = []
    assigned: Set[int] = set()  # the targets of the ``name = ...`` statements read below
    for node in ast.walk(syntax):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if len(targets) == 1 and isinstance(targets[0], ast.Name) and targets[0].id == name:
            assigned.add(id(targets[0]))
            value = node.value  # type: ignore[union-attr]
            if isinstance(value, ast.Call):
                built.append(_server_of_construction(value, classes, environment))
            elif value is None or not (isinstance(value, ast.Constant) and value.value is None):
                built.append(None)
    for node in ast.walk(syntax):  # bound otherwise: by a loop, a ``with``, an import, ``del``...
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load) and id(node) not in assigned or isinstance(node, ast.alias) and (node.asname or node.name) == name:
            built.append(None)
    return built


def _returns_none(node: ast.Return) -> bool:
    return node.value is None or (isinstance(node.value, ast.Constant) and node.value.value is None)


def _is_cache(decorator: ast.expr) -> bool:
    """``@lru_cache``, ``@functools.cache``, ``@lru_cache(maxsize=None)``..."""
    if isinstance(decorator, ast.Call):
        decorator = decorator.func
    name = decorator.attr if isinstance(decorator, ast.Attribute) else getattr(decorator, "id", None)
    owner = decorator.value if isinstance(decorator, ast.Attribute) else None
    return name in ("lru_cache", "cache") and (owner is None or (isinstance(owner, ast.Name) and owner.id == "functools"))
