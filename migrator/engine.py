"""Runs the migration over source texts and files, and returns what happened as data.

The cost of a run grows with the OpenAI code in it, not with the size of the tree: files are
first tested for the text the rules need (``migrator.prefilter``), candidates are parsed with
Python's own parser to see whether they hold what the rules act on (``migrator.screen``), and
only those are parsed with LibCST and analysed. LibCST itself is imported only once such a
file turns up.
"""

from __future__ import annotations

import gc
import os
import re
import warnings
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Deque, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from migrator.discovery import DiscoveryError, Inputs, discover
from migrator.model import FileResult, ImportedResult, Options, ProjectFacts, SourceResult
from migrator.prefilter import Needs, is_candidate, needed_texts
from migrator.screen import needs_libcst
from migrator.source import SourceError, decode_source, read_source, write_atomic

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    import libcst as cst

    from migrator.cache import Cache, RunRecord
    from migrator.project import Project

# Below this many files, a run is too small for worker processes to pay off.
PARALLEL_THRESHOLD = 8
# How many candidates a parallel run may hand each worker ahead of the file whose result is
# due: enough to keep the workers busy behind a slow file (a large module can take a second).
# Each holds its source until its result is consumed.
CANDIDATES_PER_WORKER = 16
# How many files' results may wait behind that file. A file that is not a candidate comes back
# without its source, so a waiting result costs a few hundred bytes; in a tree where one file in
# twenty-five is a candidate, a smaller window would leave the other workers idle behind it.
WAITING_FILES = 4096
NOTEBOOK_SUFFIX = ".ipynb"
# How many times a file is transformed again with what its project says: who imports its
# functions, then how they read what those return.
PROJECT_ROUNDS = 3


def transform_source(source: bytes, options: Options = Options(), facts: ProjectFacts = ProjectFacts()) -> SourceResult:
    """Migrate one module's source, with what the rest of its project says of it (by default:
    nothing imports it, and it imports no client). The result names what it asked of the
    project (``exported_names``, ``imported_names``): with other facts, it may be another.

    Raises SourceError for a source Python would refuse before parsing it (null bytes, a bad
    encoding, brackets nested too deep), libcst.ParserSyntaxError for code that does not parse
    (unless its text holds nothing a rule reads: then nothing parses it), and RewriteError
    when the migrated code fails the checks it must pass to be written.
    """
    decode_source(source)
    _refuse_deep_nesting(source)
    with _cycles_collected_after():
        if not facts.results and not needs_libcst(source, needed_texts(options.select, options.ignore)):
            return SourceResult(source=source, output=source)
        return _migrated(source, options, facts)


def _migrated(source: bytes, options: Options, facts: ProjectFacts) -> SourceResult:
    import libcst as cst
    from migrator.analysis import ModuleAnalysis
    from migrator.planner import plan_module
    from migrator.rewrite import apply_plans

    module = cst.parse_module(source)
    # LibCST prints some runs of blank lines at the end of a file with a line less (after an
    # indented block, with spaces on the last), and of indented comments there only the last:
    # such code is parsed without them, which are put back at the end of what it prints.
    # Printing a module costs a quarter of parsing it, so it is done only for a file with such
    # lines to lose.
    code = _without_idle_end(source)
    if len(code) < len(source) and not source.startswith(module.bytes):
        module = cst.parse_module(code)
    analysis = ModuleAnalysis(module, options, source, facts)
    plan = plan_module(analysis, options)
    output = _checked_output(source, module, apply_plans(module, plan.sites, options, plan.fixes)) if plan.sites or plan.fixes else source
    findings = sorted(plan.findings, key=lambda f: f.sort_key())
    return SourceResult(
        source=source,
        output=output,
        findings=findings,
        calls_migrated=sum(1 for site in plan.sites if site.target is not None),
        exported_names=sorted(analysis.project.exported),
        imported_names=sorted(analysis.project.imported),
        asks_chat_calls=analysis.project.asks_chat_calls,
        words_asked=sorted(analysis.project.words),
        asks_built_clients=analysis.project.asks_built_clients,
        returned_results=plan.returned_results,
        unmapped_reads=plan.unmapped_reads,
    )


@contextmanager
def _cycles_collected_after() -> Iterator[None]:
    """Python's cycle collector runs every few hundred allocations and walks what is alive:
    while a module is parsed and analysed, its hundred thousand nodes, over and over (about a
    quarter of the time that takes). Inside, it does not run; on the way out it collects, once,
    what was made inside: the youngest generation holds all of it, since nothing was promoted."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
            gc.collect(0)


class RewriteError(Exception):
    """The migrated code failed a check it must pass to replace the original: a bug, reported."""


# CPython refuses brackets nested deeper than this ("too many nested parentheses"). LibCST's
# native parser has no such limit: a few thousand levels down it overflows the C stack, which
# kills the process instead of raising.
MAX_BRACKET_DEPTH = 200
# Comments and string literals (brackets inside them do not count), and brackets.
_BRACKET_TOKENS = re.compile(
    rb"""#[^\r\n]*|'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"|'(?:\\.|[^'\\\r\n])*'|"(?:\\.|[^"\\\r\n])*"|[(\[{)\]}]""",
    re.DOTALL,
)


def _refuse_deep_nesting(source: bytes) -> None:
    """Raise SourceError if brackets nest deeper than Python allows."""
    if sum(source.count(opening) for opening in (b"(", b"[", b"{")) <= MAX_BRACKET_DEPTH:
        return  # too few brackets to nest that deep: most files need no scan
    depth = 0
    for token in _BRACKET_TOKENS.finditer(source):
        text = token.group()
        if text in (b"(", b"[", b"{"):
            depth += 1
            if depth > MAX_BRACKET_DEPTH:
                line = source.count(b"\n", 0, token.start()) + 1
                raise SourceError(f"brackets nested more than {MAX_BRACKET_DEPTH} deep at line {line}, which Python refuses")
        elif text in (b")", b"]", b"}"):
            depth -= 1


def _without_idle_end(source: bytes) -> bytes:
    """``source`` without the lines holding only white space or a comment at its end (none of
    which can be in a string or brackets: the file would not parse)."""
    lines = source.splitlines(keepends=True)
    end = len(source)
    while lines and (not lines[-1].strip() or lines[-1].lstrip().startswith(b"#")):
        end -= len(lines.pop())
    return source[:end]


def _checked_output(source: bytes, before: cst.Module, after: cst.Module) -> bytes:
    """The bytes of the migrated module ``after``, once they are known to parse.

    LibCST prints a module whose last line ends in a lone carriage return without it, and some
    modules are parsed without the blank and comment lines at their end (``_migrated``): what
    ``before`` lacks of the end of ``source``, such lines only, is put back at the end of ``after``.
    """
    import libcst as cst

    printed = before.bytes
    dropped = source[len(printed) :]
    if not source.startswith(printed) or _without_idle_end(dropped):
        raise RewriteError("LibCST does not print this file back byte for byte")
    output = after.bytes + dropped
    try:
        cst.parse_module(output)
    except cst.ParserSyntaxError as error:
        raise RewriteError(f"the migrated code would not parse ({error.message} at line {error.raw_line})") from error
    # LibCST reads the grammar of every Python version at once: what it prints may be code that
    # only a newer Python accepts (an f-string reusing its quotes inside, say), where the original
    # compiled with this one.
    if _compiles(source) and not _compiles(output):
        raise RewriteError("the migrated code would not compile with this Python, where the original does")
    return output


def _compiles(source: bytes) -> bool:
    import ast

    try:
        with warnings.catch_warnings():  # invalid escapes and the like: the original's, not the rewrite's
            warnings.simplefilter("ignore")
            ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def transform_notebook(source: bytes, options: Options = Options()) -> SourceResult:
    """Migrate a notebook's code cells as one module (see ``migrator.notebook``). Raises NotebookError."""
    from migrator import notebook

    return notebook.transform(source, options, transform_source)


class Results:
    """A run's results, in discovery order; ``total`` (how many there will be) is known before the first."""

    def __init__(self, total: int, results: Iterator[FileResult]) -> None:
        self.total = total
        self._results = results

    def __iter__(self) -> Iterator[FileResult]:
        return self._results


# The result of a file with nothing to show (not read, or read and found to hold nothing): one
# value for all of them, since a result is never changed; a warm run of a large tree has
# thousands.
NOTHING_TO_SHOW = SourceResult(source=b"", output=b"")


def run(
    paths: Sequence[Path],
    options: Options = Options(),
    exclude: Sequence[str] = (),
    jobs: Optional[int] = None,
    cache: Optional[Cache] = None,
    project: Optional[Project] = None,
) -> Results:
    """Discover the files now; read and transform them as the results are consumed. Writes nothing.

    Files stream through: only a bounded window of sources is held at any time, whatever the
    size of the tree. With ``cache``, a candidate file already seen with the same content and
    configuration is not parsed again, and a file in which a run with the same configuration
    found nothing is not even read while its status is unchanged. The result of a file that
    cannot hold a finding (not a candidate), or is not read, comes back without its source
    (empty ``source`` and ``output``): nothing is shown of it. A file whose result depends on
    other modules is transformed again with what ``project`` (by default, the project each file
    belongs to) says of it. With ``cache`` (and the default project), a run like the last one,
    on files, folders and modules none of which changed since, takes the last run's results
    (``RunRecord``).
    """
    record = cache.run_record(paths, exclude) if cache is not None and project is None else None
    replayed = _replayed(record, cache) if record is not None else None
    if replayed is not None:
        return Results(len(replayed), iter(replayed))
    from migrator.project import Project  # a run the record answers needs no project

    inputs = Inputs() if record is not None else None
    files = list(discover(paths, exclude, inputs))
    project = project or Project(cache=cache)
    project.give((item for item in files if isinstance(item, Path)), (path for path in paths if path.is_dir()))
    recording = _Recording(record, inputs, project) if record is not None and inputs is not None and inputs.known else None
    return Results(len(files), _results(files, options, jobs, cache, project, recording))


def _replayed(record: "RunRecord", cache: Cache) -> Optional[List[FileResult]]:
    """The last run's results, as ``record`` holds them; None when it holds none, or one of its
    results is no longer in the cache."""
    files = record.files()
    if files is None:
        return None
    results = []
    for name, key in files:
        path = Path(name)
        if key is None:
            results.append(FileResult(path, NOTHING_TO_SHOW))
            continue
        try:
            result = cache.entry(path, key, read_source(path))
        except SourceError:
            return None
        if result is None:
            return None
        results.append(FileResult(path=path, result=result))
    return results


def _is_notebook(item: Union[Path, DiscoveryError]) -> bool:
    return isinstance(item, Path) and item.suffix == NOTEBOOK_SUFFIX


def _notebook_code(source: bytes) -> bytes:
    from migrator.notebook import code_of  # most trees have no notebook to pay for it

    return code_of(source)


def _results(
    files: List[Union[Path, DiscoveryError]],
    options: Options,
    jobs: Optional[int],
    cache: Optional[Cache],
    project: Project,
    recording: Optional[_Recording] = None,
) -> Iterator[FileResult]:
    needs = needed_texts(options.select, options.ignore)
    workers = min(jobs or os.cpu_count() or 1, len(files))
    pool = _Pool(workers) if workers > 1 and len(files) >= PARALLEL_THRESHOLD else None
    try:
        pipeline = _Pipeline(options, needs, cache, project, pool.submit if pool else _now).serving(project)
        candidates, waiting = (CANDIDATES_PER_WORKER * workers, WAITING_FILES) if pool else (1, 1)
        for result in _in_order(files, pipeline, candidates, waiting):
            yield result
            if recording is not None:
                recording.add(result, pipeline.keys.get(result.path))
    finally:
        if pool:
            pool.shutdown()
    if cache:
        project.record()
        if recording is not None:
            recording.put()
        cache.save()


class _Recording:
    """A run's results as a ``RunRecord`` holds them, gathered as they come: each file's cache
    key, or None for a file with nothing to show (it comes back as a file the cache knows to be
    idle does), with what decided them. A run with an error is not recorded: what made it (a
    file unreadable, say) may not show in a status."""

    def __init__(self, record: RunRecord, inputs: Inputs, project: Project) -> None:
        self.record = record
        self.inputs = inputs
        self.project = project
        self.files: Optional[List[Tuple[str, Optional[str]]]] = []

    def add(self, result: FileResult, key: Optional[str]) -> None:
        if self.files is None:
            return
        shown = result.changed or bool(result.findings)
        if result.error is not None or (shown and key is None):
            self.files = None
        else:
            self.files.append((str(result.path), key if shown else None))

    def put(self) -> None:
        if self.files is not None:
            statuses = {*self.inputs.statuses, *map(str, self.project.inputs())}
            self.record.put(self.files, statuses, self.inputs.existences)


class _Pool:
    """Worker processes, started when the first candidate is submitted: a run whose files the
    cache knows, or none of which is a candidate, loads no process pool at all."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: Optional[ProcessPoolExecutor] = None

    def submit(self, function: Callable[..., FileResult], *args: object) -> Future[FileResult]:
        if self._executor is None:
            from concurrent.futures import ProcessPoolExecutor

            self._executor = ProcessPoolExecutor(max_workers=self.workers)
        return self._executor.submit(function, *args)

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown()


def _now(function: Callable[..., FileResult], *args: object) -> FileResult:
    """`submit` for a serial run: the result at once, in this process."""
    return function(*args)


def _in_order(
    files: List[Union[Path, DiscoveryError]], pipeline: _Pipeline, candidates: int, waiting: int
) -> Iterator[FileResult]:
    """Each file's result in order, starting files ahead of the one awaited while fewer than
    `candidates` transformations and `waiting` files in all are pending."""
    pending: Deque[Union[FileResult, _Transforming]] = deque()
    transforming = 0
    for item in files:
        entry = pipeline.start(item)
        pending.append(entry)
        transforming += isinstance(entry, _Transforming)
        while pending and (transforming >= candidates or len(pending) >= waiting or _is_finished(pending[0])):
            head = pending.popleft()
            transforming -= isinstance(head, _Transforming)
            yield pipeline.finish(head)
    while pending:
        yield pipeline.finish(pending.popleft())


@dataclass
class _Transforming:
    """A candidate file handed to a worker, or found in the cache: its source is kept to store
    the result in the cache, and to transform it again with what its project says."""

    path: Path
    source: bytes
    status: Optional[os.stat_result]  # the file's, before it was read, when there is a cache
    outcome: Union[FileResult, Future[FileResult]]  # a FileResult when transformed in this process
    cached: bool = False  # the outcome came from the cache
    facts: ProjectFacts = ProjectFacts()  # what it was transformed with: what the functions it imports return


def _is_finished(entry: Union[FileResult, _Transforming]) -> bool:
    return isinstance(entry, FileResult) or isinstance(entry.outcome, FileResult) or entry.outcome.done()


@dataclass
class _Pipeline:
    """Takes one file from its path to its result: read, prefilter, cache, transform."""

    options: Options
    needs: Needs  # what a file must hold to have a finding
    cache: Optional[Cache]
    project: Project
    submit: Callable[..., Union[FileResult, Future[FileResult]]]
    # The cache key of each final result with something to show: what a `RunRecord` keeps of it.
    keys: Dict[Path, str] = field(default_factory=dict)
    # Without a cache, the results the project may ask for again, by path and facts, with the
    # source: a module another reads is transformed for it ahead of its turn, and its turn, and
    # the next module reading it, take that result instead of parsing it again.
    done_here: Dict[Tuple[Path, ProjectFacts], Tuple[bytes, SourceResult]] = field(default_factory=dict)

    def serving(self, project: Project) -> "_Pipeline":
        """This pipeline, which ``project`` now asks for the results of other modules."""
        project.settle = self.settled
        project.transform = self.transformed
        project.remembered = self.remembered
        return self

    def start(self, item: Union[Path, DiscoveryError]) -> Union[FileResult, _Transforming]:
        """The file's final result when it needs no parsing, else its transformation under way."""
        if isinstance(item, DiscoveryError):
            return FileResult(path=item.path, error=item.reason)
        status = self._status(item)
        try:
            # Before anything else: reads of what a function of another module returns can
            # make a file that holds no legacy call change, with that call.
            facts = ProjectFacts() if _is_notebook(item) else ProjectFacts(results=self.project.imported_results(item))
        except Exception as error:  # one file's project must not stop the run
            return FileResult(path=item, error=_describe(error))
        if not facts.results and status is not None and self.cache and self.cache.is_idle(item, status):
            return FileResult(path=item, result=NOTHING_TO_SHOW)
        try:
            source = read_source(item)
            code = _notebook_code(source) if _is_notebook(item) else source  # a bad notebook raises
        except SourceError as error:
            return FileResult(path=item, error=str(error))
        if not facts.results and not is_candidate(code, self.needs):
            return self._noted(FileResult(path=item, result=NOTHING_TO_SHOW), status)
        cached = self._known(item, source, facts)
        if cached is not None:
            return _Transforming(item, source, status, FileResult(path=item, result=cached), cached=True, facts=facts)
        return _Transforming(item, source, status, self.submit(_transform, item, source, self.options, facts), facts=facts)

    def finish(self, entry: Union[FileResult, _Transforming]) -> FileResult:
        if isinstance(entry, FileResult):
            return entry
        result = entry.outcome if isinstance(entry.outcome, FileResult) else entry.outcome.result()
        if result.result is not None and not entry.cached:
            self._keep(entry.path, entry.source, entry.facts, result.result, asked=bool(result.result.returned_results))
        final, facts = self._with_project(entry.path, entry.source, entry.facts, result)
        if self.cache and (final.changed or final.findings):
            self.keys[entry.path] = self.cache.key(entry.path, entry.source, facts)
        if final.changed:  # it may be written before another module's migration reads it
            self.project.remember(entry.path, entry.source)
        return self._noted(final, entry.status if not entry.facts.results else None)

    def settled(self, path: Path) -> Optional[SourceResult]:
        """The result of the file at ``path`` with what its project says of it, in this process;
        None when it cannot be read or transformed."""
        source = self.project.source(path)
        facts = ProjectFacts(results=self.project.imported_results(path))
        try:
            first = FileResult(path=path, result=self._transformed(path, source, facts))
        except Exception:  # its own run reports why; what it returns is unknown
            return None
        return self._with_project(path, source, facts, first)[0].result

    def remembered(self, path: Path, source: bytes) -> Optional[SourceResult]:
        """The cached result of ``source`` as a module on its own (with the clients it imports);
        None when there is none."""
        if not self.cache:
            return None
        alone = self.cache.get(path, source, ProjectFacts())
        if alone is None or not alone.imported_names:
            return alone
        facts = self.project.clients_facts(path, source, alone.imported_names)
        return alone if facts == ProjectFacts() else self.cache.get(path, source, facts)

    def transformed(self, path: Path, source: bytes, results: Optional[Tuple[ImportedResult, ...]]) -> Optional[SourceResult]:
        """The result of ``source`` with what its project says, but for what the functions it
        imports return: ``results``, in this process; with None, as a module on its own, but
        for the clients it imports. Raises what stops it."""
        if results is None:
            alone = self._transformed(path, source, ProjectFacts())
            facts = self.project.clients_facts(path, source, alone.imported_names)
            return alone if facts == ProjectFacts() else self._transformed(path, source, facts)
        facts = ProjectFacts(results=results)
        first = FileResult(path=path, result=self._transformed(path, source, facts))
        final, _ = self._rounds(path, source, facts, first, results)
        if final.error is not None:
            raise ValueError(final.error)
        return final.result

    def _transformed(self, path: Path, source: bytes, facts: ProjectFacts) -> SourceResult:
        known = self._known(path, source, facts)
        if known is not None:
            return known
        result = transform_source(source, self.options.for_path(path), facts)
        self._keep(path, source, facts, result, asked=True)
        return result

    def _known(self, path: Path, source: bytes, facts: ProjectFacts) -> Optional[SourceResult]:
        """The result of ``source`` with ``facts`` when the cache or this run has it already."""
        if self.cache:
            return self.cache.get(path, source, facts)
        if not self.done_here:  # most runs transform nothing for their projects
            return None
        from migrator.project import real_path

        done = self.done_here.get((real_path(path), facts))
        return done[1] if done is not None and done[0] == source else None

    def _keep(self, path: Path, source: bytes, facts: ProjectFacts, result: SourceResult, asked: bool) -> None:
        """Keep a result for the next time it is wanted: in the cache; without one, in this
        process, when the project may ask for it (``asked``): it was transformed for the
        project, or it returns what a legacy call returns, which modules importing it ask."""
        if self.cache:
            self.cache.put(path, source, result, facts)
        elif asked and not _is_notebook(path):
            from migrator.project import real_path

            self.done_here[(real_path(path), facts)] = (source, result)

    def _with_project(self, path: Path, source: bytes, used: ProjectFacts, result: FileResult) -> Tuple[FileResult, ProjectFacts]:
        """The result again, when the file's project says other than it was transformed with;
        and the facts it was last transformed with."""
        final, facts = self._rounds(path, source, used, result)
        return _consistent(final, facts), facts

    def _rounds(
        self, path: Path, source: bytes, used: ProjectFacts, result: FileResult, results: Optional[Tuple[ImportedResult, ...]] = None
    ) -> Tuple[FileResult, ProjectFacts]:
        """The result, transformed again while its project says other than it was transformed
        with (with ``results`` for what the functions it imports return, when given), and the
        facts it was last transformed with. A module's functions are asked about once the
        project says who imports them: that takes a round more."""
        for _ in range(PROJECT_ROUNDS):
            asked = result.result
            if asked is None or not (
                asked.exported_names or asked.imported_names or asked.asks_chat_calls or asked.words_asked or asked.asks_built_clients
            ) or _is_notebook(path):
                break
            try:
                facts = self.project.facts(
                    path, source, asked.exported_names, asked.imported_names, asked.returned_results, results, asked.asks_chat_calls,
                    asked.words_asked, asked.asks_built_clients,
                )
            except Exception as error:  # one file's project must not stop the run; what it would allow is unknown
                return FileResult(path=path, error=_describe(error)), used
            if facts == used:
                break
            cached = self._known(path, source, facts)
            if cached is not None:
                result = FileResult(path=path, result=cached)
            else:
                outcome = self.submit(_transform, path, source, self.options, facts)
                result = outcome if isinstance(outcome, FileResult) else outcome.result()
                if result.result is not None:
                    self._keep(path, source, facts, result.result, asked=bool(result.result.returned_results))
            used = facts
        return result, used

    def _status(self, path: Path) -> Optional[os.stat_result]:
        """The file's status, when there is a cache to compare it with (None if it has none: reading it says why)."""
        if self.cache is None:
            return None
        try:
            return os.stat(path)
        except OSError:
            return None

    def _noted(self, result: FileResult, status: Optional[os.stat_result]) -> FileResult:
        """The result, once the cache knows if the file was idle: read, and nothing to report."""
        if self.cache and status is not None and result.result is not None:
            if not result.changed and not result.findings:
                self.cache.remember_idle(result.path, status)
        return result


def _consistent(result: FileResult, facts: ProjectFacts) -> FileResult:
    """The result, unless it leaves a read of what another module's migrated call returns as it
    is: that module's decision was made on other facts than this one's, a bug reported."""
    for name, line, reason in result.result.unmapped_reads if result.result is not None else ():
        imported = facts.result(name)
        if imported is not None and imported.migrated:
            error = f"internal error: the call at `{imported.call}` is migrated, but a read on line {line} of what `{name}` returns does not map: {reason}"
            return FileResult(path=result.path, error=error)
    return result


def _transform(path: Path, source: bytes, options: Options, facts: ProjectFacts = ProjectFacts()) -> FileResult:
    """Transform one file's source, in a worker process or in this one. Never raises."""
    try:
        if _is_notebook(path):
            return FileResult(path=path, result=transform_notebook(source, options.for_path(path)))
        return FileResult(path=path, result=transform_source(source, options.for_path(path), facts))
    except SourceError as error:  # a bad notebook, or a cell that does not parse
        return FileResult(path=path, error=str(error))
    except Exception as error:  # one bad file must not stop the run
        return FileResult(path=path, error=_describe(error))


def _describe(error: Exception) -> str:
    syntax_error = _syntax_error_message(error)
    if syntax_error is not None:
        return syntax_error
    import traceback  # here: most runs have no internal error to describe

    frames = traceback.extract_tb(error.__traceback__)[-3:]
    where = "; ".join(f"{Path(f.filename).name}:{f.lineno} in {f.name}" for f in frames)
    return f"internal error: {type(error).__name__}: {error} ({where})"


def _syntax_error_message(error: Exception) -> Optional[str]:
    from libcst import ParserSyntaxError

    if isinstance(error, ParserSyntaxError):
        return f"syntax error at line {error.raw_line}, column {error.raw_column + 1}: {error.message}"
    return None


def write(result: FileResult, root: Path) -> FileResult:
    """Write a changed file atomically; returns the result with ``error`` set if that failed."""
    if not result.changed:
        return result
    try:
        write_atomic(result.path, result.result.output, root=root)
    except SourceError as error:
        return FileResult(path=result.path, error=f"not written: {error}")
    return result
