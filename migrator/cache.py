"""A cache of per-file results, so that a file already seen is not parsed again (as in ruff).

An entry holds one candidate file's `SourceResult` under a key hashing everything that result
depends on: the file's bytes and kind (its suffix), the tool's version, the source of the
tool's own code and rules, the LibCST and Python versions, and every field of `Options`. A
change to any of them changes the key, so a stale entry is never found. An entry that does not
read back as a well-formed result for its key (truncated, edited, from another format) is
ignored and later overwritten, and a result that the format cannot hold exactly is not stored:
the cache never changes what a run reports. Entries are written atomically; a cache that cannot
be written is skipped silently, since it only saves time.

Files a run found nothing in are also remembered by their status (size, modification and
change times, inode), as git's index remembers files: a later run with the same configuration
skips such a file without reading it while its status is unchanged. Only files last changed
well before the run that records them are remembered, so that a write within a file system's
timestamp granularity of a read is never missed. What each module of a project imports
(``migrator.project`` reads it when a file's result depends on other modules) is remembered the
same way, by project, so that checking one file reads again only the modules that changed; and
what a run found each of its files imports (`ProjectRecord`), with the status of every folder
and file that was read from, so that a run on the same unchanged files reads no project at all;
and the whole of a run (`RunRecord`): the files it found and where their results are, with
what decided them, so that the same run on an unchanged tree walks no folder either.

Where: `$MIGRATOR_CACHE_DIR` if set; else `.migrator_cache/` in the project root (the nearest
folder up from the current directory with a `pyproject.toml` or `.git`, else the current
directory); else, when that cannot be written, `migrator/` in the user cache folder.
Delete the folder to empty the cache.
"""

from __future__ import annotations

import base64
import dataclasses
import enum
import hashlib
import importlib.util
import json
import os
import sys
import time
import typing
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Tuple

import migrator
from migrator.model import Finding, ImportedResult, Options, ProjectFacts, SourceResult
from migrator.registry import rules_folder

FORMAT = 2  # the entry format; entries of another format are never read
# How long before a run a file must have last changed for the run to remember it as idle: more
# than the timestamp granularity of common file systems (FAT's is 2 s).
RACY_SECONDS = 3
# How many runs, each with other arguments, are remembered whole (`RunRecord`).
RUN_RECORDS = 8
DIRECTORY_NAME = ".migrator_cache"
ENVIRONMENT_VARIABLE = "MIGRATOR_CACHE_DIR"
PROJECT_MARKERS = ("pyproject.toml", ".git")
GITIGNORE = "# Created by migrator: this folder is a cache.\n*\n"
CACHEDIR_TAG = (  # marks the folder as a cache for backup tools (https://bford.info/cachedir/)
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by migrator.\n"
)


class Cache:
    """Results by key, in `directory`, for one run with `options` (the tool and rules as they are
    when it starts: their hash is taken once)."""

    def __init__(self, directory: Path, options: Options) -> None:
        self.directory = directory
        self.options = options
        self._digests: Dict[Options, str] = {}  # by the options in force for a file
        self._started = time.time_ns()
        self._idle: Optional[Dict[str, List[int]]] = None  # by path, loaded on first use
        self._idle_changed = False
        self._import_indexes: Dict[Path, ImportIndex] = {}  # by project root, opened on first use
        self._project_records: List[ProjectRecord] = []
        self._run_records: List[RunRecord] = []

    # -- files with nothing to report, by status ------------------------------------------

    def is_idle(self, path: Path, status: os.stat_result) -> bool:
        """Did a run with this configuration find nothing in this file, with the same status?"""
        return self._idle_files().get(str(path)) == _fingerprint(status)

    def remember_idle(self, path: Path, status: os.stat_result) -> None:
        """This file, with this status (taken before it was read), has nothing to report."""
        fingerprint = _fingerprint(status)
        if _settled(fingerprint, self._started):
            self._idle_files()[str(path)] = fingerprint
            self._idle_changed = True

    def save(self) -> None:
        """Write what this run learnt of idle files and of projects' imports (the results are
        written as they come)."""
        if self._idle_changed:
            _write_json(self._write, self._idle_index(), self._idle)
            self._idle_changed = False
        for index in self._import_indexes.values():
            index.save(self._write)
        for record in [*self._project_records, *self._run_records]:
            record.save(self._write)

    def import_index(self, root: Path) -> "ImportIndex":
        """What the modules of the project at ``root`` import, as earlier runs read it."""
        if root not in self._import_indexes:
            digest = hashlib.sha256(f"{code_digest(code_folders())}\0{root}".encode()).hexdigest()
            self._import_indexes[root] = ImportIndex(self.directory / f"v{FORMAT}" / "imports" / f"{digest}.json", self._started)
        return self._import_indexes[root]

    def project_record(self, run: str) -> "ProjectRecord":
        """What the projects of the last run with this configuration, in this directory, answered
        for its files, if it was a run on the same files (``run`` hashes them)."""
        record = ProjectRecord(self._per_configuration("projects"), run, self._started)
        self._project_records.append(record)
        return record

    def run_record(self, paths: Iterable[Path], exclude: Iterable[str]) -> "RunRecord":
        """What the last run with this configuration, in this directory, on these paths found."""
        arguments = json.dumps([[str(path) for path in paths], list(exclude)])
        record = RunRecord(self._per_configuration("runs", arguments), self._started)
        self._run_records.append(record)
        return record

    def entry(self, path: Path, key: str, source: bytes) -> Optional[SourceResult]:
        """The result stored under ``key`` (``key(path, source, facts)``) for ``source``, or None."""
        try:
            return decode(json.loads(self._entry(key).read_bytes()), key, source)
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None  # missing or corrupt: as good as missing

    def _idle_files(self) -> Dict[str, List[int]]:
        if self._idle is None:
            try:
                loaded = json.loads(self._idle_index().read_bytes())
                # An entry is only ever compared with a fingerprint: one that is not a list of
                # the same numbers (corrupt, edited, from another format) is never trusted.
                self._idle = loaded if isinstance(loaded, dict) else {}
            except (OSError, ValueError):
                self._idle = {}  # missing or corrupt: as good as empty
        return self._idle

    def _idle_index(self) -> Path:
        return self._per_configuration("idle")

    def _per_configuration(self, kind: str, more: str = "") -> Path:
        """A file of ``kind``, one per configuration and current directory (paths are recorded
        as the run names them), and ``more``."""
        digest = hashlib.sha256(f"{configuration_digest(self.options)}\0{os.getcwd()}\0{more}".encode()).hexdigest()
        return self.directory / f"v{FORMAT}" / kind / f"{digest}.json"

    # -- results, by content -----------------------------------------------------------

    def get(self, path: Path, source: bytes, facts: ProjectFacts = ProjectFacts()) -> Optional[SourceResult]:
        """The stored result for this file content (and these facts of its project), or None if there is none to trust."""
        return self.entry(path, self.key(path, source, facts), source)

    def put(self, path: Path, source: bytes, result: SourceResult, facts: ProjectFacts = ProjectFacts()) -> None:
        key = self.key(path, source, facts)
        try:
            data = json.dumps(encode(result, key)).encode()
            if decode(json.loads(data), key, source) != result:
                return  # something this format cannot hold exactly: better not cached than wrong
            self._write(self._entry(key), data)
        except (OSError, ValueError, TypeError):
            pass

    def key(self, path: Path, source: bytes, facts: ProjectFacts = ProjectFacts()) -> str:
        """A hash of everything the file's result depends on; the path counts only through the
        options in force for it (its per-file ignores) and its kind; the other modules of its
        project through what they say of it (``facts``), when they say anything."""
        options = self.options.for_path(path)
        if options not in self._digests:
            self._digests[options] = configuration_digest(options)
        digest = hashlib.sha256(self._digests[options].encode())
        digest.update(path.suffix.encode() + b"\0")
        digest.update(source)
        if facts != ProjectFacts():
            digest.update(b"\0" + repr(facts).encode())
        return digest.hexdigest()

    def _entry(self, key: str) -> Path:
        return self.directory / f"v{FORMAT}" / key[:2] / f"{key[2:]}.json"

    def _write(self, target: Path, data: bytes) -> None:
        if not (self.directory / "CACHEDIR.TAG").exists():
            self.directory.mkdir(parents=True, exist_ok=True)
            _write_atomic(self.directory / ".gitignore", GITIGNORE.encode())
            _write_atomic(self.directory / "CACHEDIR.TAG", CACHEDIR_TAG.encode())
        target.parent.mkdir(parents=True, exist_ok=True)
        _write_atomic(target, data)


def open_cache(options: Options, start: Optional[Path] = None) -> Cache:
    """The cache for runs with `options` started in `start` (the current directory)."""
    return Cache(cache_directory(start or Path.cwd()), options)


def cache_directory(start: Path) -> Path:
    if os.environ.get(ENVIRONMENT_VARIABLE):
        return Path(os.environ[ENVIRONMENT_VARIABLE])
    directory = project_root(start) / DIRECTORY_NAME
    writable = directory if directory.exists() else directory.parent
    if os.access(writable, os.W_OK):
        return directory
    return user_cache_folder() / "migrator"


def project_root(start: Path) -> Path:
    start = start.resolve()
    for folder in (start, *start.parents):
        if any((folder / marker).exists() for marker in PROJECT_MARKERS):
            return folder
    return start


def user_cache_folder() -> Path:
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def _fingerprint(status: os.stat_result) -> List[int]:
    """What changes whenever a file's content may have: size, modification and change times,
    inode and device (git's index compares the same fields)."""
    return [status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino, status.st_dev]


class ImportIndex:
    """What each module of one project imports (``migrator.project`` reads it from the text),
    remembered by the file's status as idle files are: a later run reads again only the modules
    that changed, so that checking one file of a large project stays fast."""

    def __init__(self, path: Path, started: int) -> None:
        self.path = path
        self._started = started
        self._entries: Optional[Dict[str, Any]] = None
        self._changed = False

    def get(self, file: Path, status: os.stat_result) -> Optional[Any]:
        entry = self._loaded().get(str(file))
        if isinstance(entry, list) and len(entry) == 2 and entry[0] == _fingerprint(status):
            return entry[1]
        return None

    def put(self, file: Path, status: os.stat_result, summary: Any) -> None:
        fingerprint = _fingerprint(status)
        if _settled(fingerprint, self._started):
            self._loaded()[str(file)] = [fingerprint, summary]
            self._changed = True

    def save(self, write) -> None:
        if self._changed:
            _write_json(write, self.path, self._entries)
            self._changed = False

    def _loaded(self) -> Dict[str, Any]:
        if self._entries is None:
            try:
                loaded = json.loads(self.path.read_bytes())
                self._entries = loaded if isinstance(loaded, dict) else {}
            except (OSError, ValueError):
                self._entries = {}  # missing or corrupt: as good as empty
        return self._entries


class ProjectRecord:
    """What a run's projects answered for its files (what the functions each file imports
    return), with the status of every folder and file those answers were read from: a folder's
    status changes when a file or folder in it is added, removed or renamed, a file's when it is
    written. A later run on the same files takes the answers while none of those has changed, and
    so neither lists a project nor reads an import, which costs a warm check most of its time."""

    def __init__(self, path: Path, run: str, started: int) -> None:
        self.path = path
        self.run = run
        self._started = started
        self._inputs: Dict[str, Optional[List[int]]] = {}  # of the answers loaded, which still hold
        self._new: Optional[Dict[str, Any]] = None

    def answers(self) -> Dict[str, Tuple[ImportedResult, ...]]:
        """The answers, by the path asked; none unless every folder and file they were read from
        is as it was."""
        try:
            loaded = json.loads(self.path.read_bytes())
            if loaded["run"] != self.run or not all(_status_of(path) == status for path, status in loaded["inputs"].items()):
                return {}
            answers = _decoded_answers(loaded["answers"])
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return {}  # missing, corrupt, or from another format: as good as missing
        self._inputs = loaded["inputs"]
        return answers

    def put(self, answers: Dict[str, Tuple[ImportedResult, ...]], inputs: Iterable[Path]) -> None:
        """Record ``answers``, read from ``inputs`` (and from those of the answers loaded); not
        when one of them changed too recently to be told apart from a later change."""
        statuses = dict(self._inputs)
        for path in map(str, inputs):
            status = _status_of(path)
            if status is not None and not _settled(status, self._started):
                return
            statuses[path] = status
        encoded = {path: [dataclasses.asdict(result) for result in results] for path, results in answers.items()}
        if _decoded_answers(json.loads(json.dumps(encoded))) == answers:  # else not held exactly: not recorded
            self._new = {"run": self.run, "inputs": statuses, "answers": encoded}

    def save(self, write) -> None:
        if self._new is not None:
            _write_json(write, self.path, self._new)
            self._new = None


class RunRecord:
    """The files a run was given and found, and for each the key of its result in the cache
    (None: nothing to show, not even read), with everything that decided them: the status of
    every folder walked and file read, of the project's folders and modules read, of the
    gitignore files looked for, and whether each `.git` looked for exists. A later run with the
    same configuration, folder and arguments, while none of those has changed, takes the results
    without walking a folder or asking a project: that is most of a warm check of a large tree.
    A run that found an error, or followed a symlink, is not recorded: what decides them is
    not in a folder's status."""

    def __init__(self, path: Path, started: int) -> None:
        self.path = path
        self._started = started
        self._new: Optional[Dict[str, Any]] = None

    def files(self) -> Optional[List[Tuple[str, Optional[str]]]]:
        """``(path, key)`` for each file of the run recorded, or None unless all it was decided by holds."""
        try:
            loaded = json.loads(self.path.read_bytes())
            if not all(_status_of(path) == status for path, _, status in loaded["files"]):
                return None
            if not all(_status_of(path) == status for path, status in loaded["statuses"].items()):
                return None
            if not all(os.path.lexists(path) == exists for path, exists in loaded["existences"].items()):
                return None
            return [(str(path), None if key is None else str(key)) for path, key, _ in loaded["files"]]
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None  # missing, corrupt, or from another format: as good as missing

    def put(self, files: List[Tuple[str, Optional[str]]], statuses: Iterable[str], existences: Iterable[str]) -> None:
        """Record ``files`` (their paths as the run names them), decided by their status, the
        status of ``statuses`` (absolute paths) and the existence of ``existences``; not when
        one of them changed too recently to be told apart from a later change."""
        recorded_files = []
        for path, key in files:
            status = _status_of(path)
            if status is None or not _settled(status, self._started):
                return
            recorded_files.append([path, key, status])
        recorded = {}
        for path in set(statuses) - {os.path.abspath(path) for path, _ in files}:
            status = _status_of(path)
            if status is not None and not _settled(status, self._started):
                return
            recorded[path] = status
        self._new = {
            "files": recorded_files,
            "statuses": recorded,
            "existences": {path: os.path.lexists(path) for path in existences},
        }

    def save(self, write) -> None:
        """Write the record, and forget the least recently written beyond ``RUN_RECORDS``: each
        set of arguments (the files of each commit, for a pre-commit hook) has its own."""
        if self._new is not None and _write_json(write, self.path, self._new):
            try:
                records = sorted(self.path.parent.glob("*.json"), key=lambda record: record.stat().st_mtime_ns, reverse=True)
                for record in records[RUN_RECORDS:]:
                    record.unlink()
            except OSError:
                pass
        self._new = None


def _settled(fingerprint: List[int], started: int) -> bool:
    """Did the file or folder last change well before the run that started at ``started``
    (nanoseconds)? A change within a file system's timestamp granularity of a read could be
    followed by another that leaves the same status."""
    return max(fingerprint[1], fingerprint[2]) < started - RACY_SECONDS * 10**9


def _write_json(write, path: Path, data: Any) -> bool:
    """Write ``data`` as JSON with ``write``; False when it cannot be: the cache only saves time."""
    try:
        write(path, json.dumps(data).encode())
    except (OSError, ValueError, TypeError):
        return False
    return True


def _status_of(path: str) -> Optional[List[int]]:
    """The fingerprint of a file's or folder's status; None when there is none."""
    try:
        return _fingerprint(os.stat(path))
    except OSError:
        return None


def _decoded_answers(data: Dict[str, Any]) -> Dict[str, Tuple[ImportedResult, ...]]:
    """Recorded answers; raises (TypeError, KeyError, AttributeError) unless they are well formed."""
    return {str(path): tuple(_imported_result(dict(fields)) for fields in results) for path, results in data.items()}


def _imported_result(fields: Dict[str, Any]) -> ImportedResult:
    fields = _typed(ImportedResult, fields)
    if fields["keywords"] is not None:
        fields["keywords"] = tuple(fields["keywords"])
    return ImportedResult(**fields)


# --- the key --------------------------------------------------------------------------------


def configuration_digest(options: Options) -> str:
    """What, besides a file's content, decides its result: the tool, its rules and the options."""
    configuration = {
        "format": FORMAT,
        "version": migrator.__version__,
        "code": code_digest(code_folders()),
        "libcst": libcst_digest(),
        "python": list(sys.version_info[:2]),
        "options": {field.name: _canonical(getattr(options, field.name)) for field in dataclasses.fields(options)},
    }
    return hashlib.sha256(json.dumps(configuration, sort_keys=True).encode()).hexdigest()


def code_folders() -> Tuple[Path, ...]:
    """The tool's own package and its rules (a folder beside it in a checkout, inside it installed)."""
    return tuple(sorted({Path(migrator.__file__).resolve().parent, rules_folder().resolve()}))


@lru_cache(maxsize=None)
def code_digest(folders: Tuple[Path, ...]) -> str:
    """A hash of every Python file in `folders`: a changed rule or engine changes every key.

    The version alone would not do in a checkout, where the code changes under one version.
    """
    digest = hashlib.sha256()
    for folder in folders:
        for file in sorted(folder.rglob("*.py")):
            digest.update(f"{file.relative_to(folder).as_posix()}\0".encode())
            digest.update(hashlib.sha256(file.read_bytes()).digest())
    return digest.hexdigest()


@lru_cache(maxsize=None)
def libcst_digest() -> str:
    """LibCST's version, read without importing LibCST (which a cache hit should not pay for)."""
    spec = importlib.util.find_spec("libcst")
    if spec is None or spec.origin is None:
        return "absent"
    version_file = Path(spec.origin).parent / "_version.py"
    content = version_file.read_bytes() if version_file.exists() else spec.origin.encode()
    return hashlib.sha256(content).hexdigest()


def _canonical(value: Any) -> Any:
    """An option's value as JSON that is the same for equal values (sets sorted)."""
    if isinstance(value, (set, frozenset)):
        return sorted(_canonical(item) for item in value)
    if isinstance(value, (list, tuple)):
        return [_canonical(item) for item in value]
    if isinstance(value, enum.Enum):
        return value.value
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)


# --- entries --------------------------------------------------------------------------------

RESULT_FIELDS = tuple(field.name for field in dataclasses.fields(SourceResult) if field.name != "source")


def encode(result: SourceResult, key: str) -> Dict[str, Any]:
    """An entry: the result without the source (the file has it) and the output only if it differs."""
    entry: Dict[str, Any] = {name: getattr(result, name) for name in RESULT_FIELDS}
    entry["output"] = base64.b64encode(result.output).decode("ascii") if result.changed else None
    entry["findings"] = [dataclasses.asdict(finding) for finding in result.findings]
    entry["key"] = key
    return entry


def decode(entry: Dict[str, Any], key: str, source: bytes) -> SourceResult:
    """The result an entry holds; raises (KeyError, ValueError, TypeError) unless it is well formed."""
    if entry.pop("key") != key:
        raise ValueError("entry stored under another key")
    output = entry.pop("output")
    output = source if output is None else base64.b64decode(output.encode("ascii"), validate=True)
    findings = [Finding(**_typed(Finding, fields)) for fields in entry.pop("findings")]
    if set(entry) != set(RESULT_FIELDS) - {"output", "findings"}:
        raise ValueError("entry has other fields than a result")
    return SourceResult(source=source, output=output, findings=findings, **_typed(SourceResult, entry))


def _typed(cls: type, fields: Dict[str, Any]) -> Dict[str, Any]:
    """`fields` checked against `cls`'s annotations, enums and (optional) dataclasses restored
    from their values."""
    hints = _type_hints(cls)
    for name, value in fields.items():
        hint = hints[name]
        nested = _optional_dataclass(hint)
        if nested is not None:
            if value is not None:
                if not isinstance(value, dict):
                    raise TypeError(f"{name} should be {nested.__name__}")
                fields[name] = nested(**_typed(nested, value))
        elif isinstance(hint, type) and issubclass(hint, enum.Enum):
            fields[name] = hint(value)
        elif isinstance(hint, type) and not isinstance(value, hint):
            raise TypeError(f"{name} should be {hint.__name__}")
    return fields


def _optional_dataclass(hint: Any) -> Optional[type]:
    """The dataclass ``X`` of an ``Optional[X]`` hint, else None."""
    arguments = [argument for argument in typing.get_args(hint) if argument is not type(None)]
    if typing.get_origin(hint) is typing.Union and len(arguments) == 1 and dataclasses.is_dataclass(arguments[0]):
        return arguments[0]
    return None


@lru_cache(maxsize=None)
def _type_hints(cls: type) -> Dict[str, Any]:
    return typing.get_type_hints(cls)


def _write_atomic(target: Path, data: bytes) -> None:
    """Write through a temporary file in the same folder: a reader sees all of it or none."""
    import tempfile  # here: a warm run writes nothing, and tempfile loads several modules

    descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise
