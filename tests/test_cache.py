"""The cache of results: what invalidates an entry, what is never trusted, and where it lives."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Optional

import pytest
from typer.testing import CliRunner

import migrator
from migrator import cache as cache_module
from migrator import cli, engine
from migrator.cache import Cache, cache_directory, project_root
from migrator.model import Confidence, FileResult, Finding, Options, Position, SourceResult

ROOT = Path(__file__).resolve().parent.parent
CALL = (ROOT / "fixtures/chat_completions_create/simple_call/before.py").read_bytes()
SOURCE = b"client.chat.completions.create(model=m, messages=msgs)\n"
RESULT = SourceResult(
    source=SOURCE,
    output=b"client.responses.create(model=m, input=msgs)\n",
    findings=[
        Finding("chat_completions_create", 1, 1, "moves", fixable=True, confidence=Confidence.LOW, call=Position(1, 1, cell=2)),
        Finding("chat_type_imports", 1, 1, "about no call"),
    ],
    calls_migrated=1,
)
PATH = Path("app.py")


@pytest.fixture
def cache(tmp_path: Path) -> Cache:
    return Cache(tmp_path / "cache", Options())


def entries(cache: Cache) -> list:
    return sorted(cache.directory.glob("v*/*/*.json"))


def test_a_stored_result_is_found_again_exactly(cache: Cache) -> None:
    cache.put(PATH, SOURCE, RESULT)
    assert cache.get(PATH, SOURCE) == RESULT
    assert cache.get(PATH, SOURCE).findings[0].confidence is Confidence.LOW
    assert cache.get(PATH, SOURCE).findings[0].call == Position(1, 1, cell=2)


def test_an_unchanged_result_is_stored_without_its_output(cache: Cache) -> None:
    unchanged = SourceResult(source=SOURCE, output=SOURCE, findings=RESULT.findings)
    cache.put(PATH, SOURCE, unchanged)
    assert cache.get(PATH, SOURCE) == unchanged
    assert b'"output": null' in entries(cache)[0].read_bytes()


def test_a_changed_file_misses(cache: Cache) -> None:
    cache.put(PATH, SOURCE, RESULT)
    assert cache.get(PATH, SOURCE + b"\n") is None


def test_the_same_content_as_another_kind_of_file_misses(cache: Cache) -> None:
    cache.put(PATH, SOURCE, RESULT)
    assert cache.get(Path("app.ipynb"), SOURCE) is None
    assert cache.get(Path("elsewhere/other.py"), SOURCE) == RESULT  # content, not the path, is the key


def test_another_tool_version_misses(cache: Cache, monkeypatch: pytest.MonkeyPatch) -> None:
    cache.put(PATH, SOURCE, RESULT)
    monkeypatch.setattr(migrator, "__version__", migrator.__version__ + ".post1")
    assert Cache(cache.directory, cache.options).get(PATH, SOURCE) is None  # the next run


def test_a_changed_rule_misses(cache: Cache, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = shutil.copytree(ROOT / "rules", tmp_path / "rules")
    monkeypatch.setattr(cache_module, "code_folders", lambda: (rules,))
    cache.put(PATH, SOURCE, RESULT)
    assert cache.get(PATH, SOURCE) == RESULT
    rule = rules / "chat_completions_create.py"
    rule.write_bytes(rule.read_bytes() + b"\n# a changed rule\n")
    cache_module.code_digest.cache_clear()  # a run is one process: it hashes the rules once
    assert Cache(cache.directory, cache.options).get(PATH, SOURCE) is None  # the next run


@pytest.mark.parametrize(
    "options",
    [
        Options(unsafe_fixes=True),
        Options(store_false=True),
        Options(assume_openai=True),
        Options(select=frozenset({"chat_completions_create"})),
        Options(ignore=frozenset({"response_fields"})),
    ],
    ids=lambda options: repr(options),
)
def test_other_options_miss(cache: Cache, options: Options) -> None:
    cache.put(PATH, SOURCE, RESULT)
    assert Cache(cache.directory, options).get(PATH, SOURCE) is None


def test_a_file_with_per_file_ignores_misses_the_same_content_elsewhere(cache: Cache, tmp_path: Path) -> None:
    options = Options(per_file_ignores=((f"{tmp_path.as_posix()}/tests/*", frozenset({"response_fields"})),))
    cache = Cache(cache.directory, options)
    cache.put(tmp_path / "app.py", SOURCE, RESULT)
    assert cache.get(tmp_path / "lib.py", SOURCE) == RESULT
    assert cache.get(tmp_path / "tests" / "app.py", SOURCE) is None


def test_equal_options_hit_whatever_the_order_of_their_sets(cache: Cache) -> None:
    Cache(cache.directory, Options(select=frozenset(["a", "b", "c"]))).put(PATH, SOURCE, RESULT)
    assert Cache(cache.directory, Options(select=frozenset(["c", "b", "a"]))).get(PATH, SOURCE) == RESULT


@pytest.mark.parametrize(
    "corruption",
    [
        lambda data: b"",
        lambda data: data[: len(data) // 2],
        lambda data: b"\x00\xff not json",
        lambda data: data.replace(b'"key": "', b'"key": "0'),
        lambda data: data.replace(b'"line": 1', b'"line": "1"'),
        lambda data: data.replace(b'"confidence": "low"', b'"confidence": "unsure"'),
        lambda data: data.replace(b'"calls_migrated": 1', b'"calls_migrated": 1, "extra": 2'),
        lambda data: data.replace(b'"call": null', b'"call": 5'),
        lambda data: data.replace(b'"output": "', b'"output": "!'),
        lambda data: b"[]",
    ],
    ids=["empty", "truncated", "not-json", "other-key", "wrong-type", "unknown-enum", "extra-field",
         "call-not-a-position", "bad-base64", "not-an-object"],
)
def test_a_corrupt_entry_is_ignored_and_then_replaced(cache: Cache, corruption) -> None:
    cache.put(PATH, SOURCE, RESULT)
    [entry] = entries(cache)
    entry.write_bytes(corruption(entry.read_bytes()))
    assert cache.get(PATH, SOURCE) is None
    cache.put(PATH, SOURCE, RESULT)
    assert cache.get(PATH, SOURCE) == RESULT


def test_writes_leave_no_temporary_files_and_mark_the_folder_as_a_cache(cache: Cache) -> None:
    cache.put(PATH, SOURCE, RESULT)
    cache.put(PATH, SOURCE, RESULT)
    names = sorted(path.name for path in cache.directory.rglob("*") if path.is_file())
    assert names == sorted([".gitignore", "CACHEDIR.TAG", entries(cache)[0].name])
    assert (cache.directory / ".gitignore").read_text().splitlines()[-1] == "*"


def test_a_cache_that_cannot_be_written_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "a_file").write_text("not a folder")
    cache = Cache(tmp_path / "a_file" / "cache", Options())
    cache.put(PATH, SOURCE, RESULT)  # does not raise
    assert cache.get(PATH, SOURCE) is None


# --- through the engine -----------------------------------------------------------------------


def test_a_cached_file_is_not_transformed_again_until_it_changes(cache: Cache, tmp_path, monkeypatch) -> None:
    (tmp_path / "src").mkdir()
    app = tmp_path / "src" / "app.py"
    app.write_bytes(CALL)
    [first] = run_outputs(tmp_path / "src", cache)

    def explode(*arguments):
        raise RuntimeError("transformed again")

    monkeypatch.setattr(engine, "transform_source", explode)
    assert run_outputs(tmp_path / "src", cache) == [first]
    app.write_bytes(CALL + b"\n")
    [changed] = list(engine.run([tmp_path / "src"], jobs=1, cache=cache))
    assert "transformed again" in changed.error


def test_errors_are_not_cached(cache: Cache, tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("client.chat.completions.create(\n")
    [result] = list(engine.run([tmp_path], jobs=1, cache=cache))
    assert result.error and entries(cache) == []


def test_parallel_runs_fill_and_read_the_cache_like_serial_ones(cache: Cache, tmp_path: Path) -> None:
    for index in range(12):
        (tmp_path / f"m{index:02}.py").write_bytes(CALL if index % 3 else b"x = 1\n")
    cold = run_outputs(tmp_path, cache, jobs=2)
    assert len(entries(cache)) == 1  # eight candidates, one content
    assert run_outputs(tmp_path, cache, jobs=2) == cold == run_outputs(tmp_path, None, jobs=1)


def run_outputs(path: Path, cache, jobs: int = 1) -> list:
    return [(r.path, r.error, r.result) for r in engine.run([path], jobs=jobs, cache=cache)]


# --- files with nothing to report, known by their status ------------------------------------------

QUIET_CANDIDATE = b"import openai\n\nprint('chat.completions', 'tools')\n"  # read, parsed: nothing found


@pytest.fixture
def idle_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tree whose files are known to have last changed before the runs (whose caches are made
    after them): the margin against racy writes is tested on its own."""
    monkeypatch.setattr(cache_module, "RACY_SECONDS", 0)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "plain.py").write_bytes(b"x = 1\n")
    (tree / "quiet.py").write_bytes(QUIET_CANDIDATE)
    (tree / "call.py").write_bytes(CALL)
    return tree


def reads(tree: Path, options: Options, monkeypatch: pytest.MonkeyPatch) -> list:
    """The names of the files a run with a new cache (for `options`, in one folder) reads."""
    read = []
    real_read_source = engine.read_source

    def counting_read_source(path: Path) -> bytes:
        read.append(path.name)
        return real_read_source(path)

    monkeypatch.setattr(engine, "read_source", counting_read_source)
    results = list(engine.run([tree], options, jobs=1, cache=Cache(tree.parent / "cache", options)))
    assert [r.path.name for r in results if r.findings] == ["call.py"]
    return sorted(read)


def test_an_idle_file_is_not_read_again_until_its_status_changes(idle_tree: Path, monkeypatch) -> None:
    assert reads(idle_tree, Options(), monkeypatch) == ["call.py", "plain.py", "quiet.py"]
    assert reads(idle_tree, Options(), monkeypatch) == ["call.py"]  # the file with a finding is read for its lines
    plain = idle_tree / "plain.py"
    before = plain.stat()
    plain.write_bytes(b"y = 2\n")  # the same size, and then the same modification time
    os.utime(plain, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert reads(idle_tree, Options(), monkeypatch) == ["call.py", "plain.py"]


def test_files_changed_just_before_a_run_are_not_remembered(idle_tree: Path, monkeypatch) -> None:
    monkeypatch.setattr(cache_module, "RACY_SECONDS", 3)
    assert reads(idle_tree, Options(), monkeypatch) == ["call.py", "plain.py", "quiet.py"]
    assert reads(idle_tree, Options(), monkeypatch) == ["call.py", "plain.py", "quiet.py"]


def test_what_is_idle_is_remembered_per_configuration(idle_tree: Path, monkeypatch) -> None:
    reads(idle_tree, Options(), monkeypatch)
    assert reads(idle_tree, Options(ignore=frozenset({"tool_calls"})), monkeypatch) == ["call.py", "plain.py", "quiet.py"]
    assert reads(idle_tree, Options(), monkeypatch) == ["call.py"]


@pytest.mark.parametrize("entry", ["[1, 2]", '"idle"', "null", "[" + "0, " * 4 + "0]"])
def test_a_corrupt_index_of_idle_files_is_ignored(idle_tree: Path, monkeypatch, entry: str) -> None:
    reads(idle_tree, Options(), monkeypatch)
    [index] = (idle_tree.parent / "cache").glob("v*/idle/*.json")
    index.write_text('{"' + str(idle_tree / "plain.py") + '": ' + entry + ', "' + str(idle_tree / "quiet.py") + '": []}')
    forget_runs(idle_tree.parent / "cache")  # the last run's record would answer first
    assert reads(idle_tree, Options(), monkeypatch) == ["call.py", "plain.py", "quiet.py"]
    index.write_text("[1, 2, 3]")  # not an index at all
    forget_runs(idle_tree.parent / "cache")
    assert reads(idle_tree, Options(), monkeypatch) == ["call.py", "plain.py", "quiet.py"]
    assert reads(idle_tree, Options(), monkeypatch) == ["call.py"]


def forget_runs(directory: Path) -> None:
    for record in directory.glob("v*/runs/*.json"):
        record.unlink()


# --- where it lives, and the command line -------------------------------------------------------


def test_the_cache_lives_in_the_project_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cache_module.ENVIRONMENT_VARIABLE)
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    assert project_root(tmp_path / "pkg" / "sub") == tmp_path.resolve()
    assert cache_directory(tmp_path / "pkg" / "sub") == tmp_path.resolve() / ".migrator_cache"


def test_the_environment_variable_chooses_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache_module.ENVIRONMENT_VARIABLE, str(tmp_path / "elsewhere"))
    assert cache_directory(tmp_path) == tmp_path / "elsewhere"


@pytest.mark.parametrize("args, cached", [(["check", "."], True), (["diff", "--no-cache", "."], False)])
def test_the_cli_uses_the_cache_unless_told_not_to(monkeypatch, args, cached) -> None:
    calls = []

    def fake_run(paths, options, exclude, jobs, cache=None):
        calls.append(cache)
        return engine.Results(1, iter([FileResult(Path("a.py"), SourceResult(b"", b""))]))

    monkeypatch.setattr(engine, "run", fake_run)
    CliRunner().invoke(cli.app, args)
    [cache] = calls
    assert isinstance(cache, Cache) if cached else cache is None


def test_a_project_record_reads_back_what_it_recorded_and_nothing_from_a_corrupt_file(tmp_path):
    from migrator.cache import ProjectRecord
    from migrator.model import ImportedResult

    module = tmp_path / "llm.py"
    module.write_text("def complete(): ...\n")
    answers = {"service.py": (ImportedResult("complete", "chat.completions.create", ("model",), "llm.py:3", "c", True),), "other.py": ()}
    record = ProjectRecord(tmp_path / "record.json", "run", started=time.time_ns() + 10 * 10**9)  # the file is long written
    record.put(answers, [module, tmp_path / "gone.py"])
    record.save(lambda path, data: path.write_bytes(data))
    assert ProjectRecord(tmp_path / "record.json", "run", 0).answers() == answers
    assert ProjectRecord(tmp_path / "record.json", "another run", 0).answers() == {}
    (tmp_path / "gone.py").write_text("")  # a file that was not there is an input too
    assert ProjectRecord(tmp_path / "record.json", "run", 0).answers() == {}
    for corrupt in (b"", b"[]", b'{"run": "run", "inputs": [], "answers": {}}', b'{"run": "run", "inputs": {}, "answers": {"a.py": [{"name": 1}]}}'):
        (tmp_path / "record.json").write_bytes(corrupt)
        assert ProjectRecord(tmp_path / "record.json", "run", 0).answers() == {}


# --- a run like the last one, on what decided it unchanged --------------------------------------

LLM_MODULE = (
    "import openai\n\n"
    "def complete(prompt):\n"
    "    return openai.chat.completions.create(model='gpt-4o-mini', messages=[{'role': 'user', 'content': prompt}])\n"
)


class RunTree:
    """A project whose every file and folder is dated in the past, each state at another date:
    a file system's timestamps have a granularity, and a change made within it of the run that
    recorded the folder would not show (the racy window, tested on its own, guards real runs)."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch, files: Optional[dict] = None) -> None:
        monkeypatch.setattr(cache_module, "RACY_SECONDS", 0)
        self.root = root
        self.cache = root.parent / "cache"
        self.walks = 0
        real_discover = engine.discover

        def counting_discover(*args, **kwargs):
            self.walks += 1
            return real_discover(*args, **kwargs)

        monkeypatch.setattr(engine, "discover", counting_discover)
        self.date = 1_000_000_000
        self.write(files or {
            "pyproject.toml": "[project]\nname = 'demo'\n",
            ".gitignore": "generated/\n",
            "llm.py": LLM_MODULE,
            "app/service.py": "from llm import complete\nprint(complete('hi').choices[0].message.content)\n",
            "app/call.py": CALL.decode(),
            "app/plain.py": "x = 1\n",
            "app/generated/old.py": CALL.decode(),
            "app/tools/quiet.py": QUIET_CANDIDATE.decode(),
            "app/docs/README.md": "# Notes\n",
            "app/env/pyvenv.cfg": "home = /usr\n",
            "app/env/vendored.py": CALL.decode(),
        })

    def write(self, files: dict) -> None:
        """Write (None: remove) ``files``; date what that changes, and nothing else."""
        changed = set()
        for name, text in files.items():
            path = self.root / name
            for folder in reversed(path.parents):
                if not folder.exists():
                    folder.mkdir()
                    changed.update({folder, folder.parent})
            if text is None:
                path.unlink()
                changed.add(path.parent)
            else:
                if not path.exists():
                    changed.add(path.parent)
                path.write_text(text)
                changed.add(path)
        self.date += 10
        for path in changed if self.date > 1_000_000_010 else [self.root, *self.root.rglob("*")]:
            os.utime(path, ns=(self.date * 10**9, self.date * 10**9))

    def run(self, *paths: str, cache: bool = True) -> list:
        """What a run reports, and whether it walked the tree."""
        walks = self.walks
        store = Cache(self.cache, Options()) if cache else None
        results = engine.run([self.root / path for path in paths], Options(), jobs=1, cache=store)
        reported = [(r.path, r.error, r.findings, r.result.output if r.changed else None) for r in results]
        return reported + [("walked", self.walks > walks)]

    def same_as_without_cache(self, *paths: str) -> bool:
        """Does a run report what a run without a cache does (and without walking the tree)?"""
        fresh = self.run(*paths, cache=False)[:-1] + [("walked", False)]
        return self.run(*paths) == fresh


def test_a_run_like_the_last_one_takes_its_results_while_nothing_that_decided_them_changed(tmp_path, monkeypatch):
    """A warm check of a large tree spends most of its time walking folders and asking the
    project about each file. A run with the same configuration, folder and arguments takes the
    last one's results while no folder walked, file read, gitignore or module of the project
    has changed; each change below makes the next run walk again, and report what a run
    without a cache does."""
    tree = RunTree(tmp_path / "project", monkeypatch)
    first = tree.run(".")
    assert first[-1] == ("walked", True) and any(path.name == "call.py" for path, *_ in first[:-1])
    assert tree.same_as_without_cache(".")
    assert tree.run("app") != tree.run("app", cache=False)[:-1] + [("walked", False)]  # other arguments: walked first

    changes = [
        {"app/tools/new.py": CALL.decode()},  # a file added to a folder walked
        {"app/tools/new.py": None},  # and removed
        {"app/docs/new.py": CALL.decode()},  # a file added to a folder that held none
        {"app/env/pyvenv.cfg": None},  # a virtualenv's folder becomes a plain one
        {"app/call.py": CALL.decode() + "\n"},  # a file given changes
        {".gitignore": "generated/\ncall.py\n"},  # what a gitignore says
        {"app/.gitignore": "plain.py\n"},  # a gitignore made in a folder walked
        {"app/tools/pyvenv.cfg": "home = /usr\n"},  # a folder becomes a virtualenv
        {"app/tools/pyvenv.cfg": None},  # and stops being one
        {"../.git/info/exclude": "plain.py\n"},  # a repository begins above the project: its ignore files apply
        {"llm.py": LLM_MODULE.replace("model='gpt-4o-mini',", "model='gpt-4o-mini', n=2,")},  # a module outside `app`
    ]
    assert_each_change_shows(tree, changes, arguments=(".", "app"))


def test_a_run_of_modules_that_import_nothing_of_their_project_is_decided_by_its_walk(tmp_path, monkeypatch):
    """Where the project is not listed, the folders walked are all that say a file was added."""
    files = {"pyproject.toml": "", "call.py": CALL.decode(), "docs/README.md": "# Notes\n", "env/pyvenv.cfg": "home = /usr\n", "env/vendored.py": CALL.decode()}
    tree = RunTree(tmp_path / "project", monkeypatch, files)
    changes = [{"docs/new.py": CALL.decode()}, {"env/pyvenv.cfg": None}, {".gitignore": "env/\n"}]
    assert_each_change_shows(tree, changes, arguments=(".", "docs"))


def assert_each_change_shows(tree: RunTree, changes: list, arguments: tuple) -> None:
    """Each change makes the next runs report what runs without a cache do, where they would
    take the last run's results but for it."""
    for change in changes:
        before = {paths: tree.run(paths, cache=False)[:-1] for paths in arguments}
        for paths in arguments:
            tree.run(paths)  # recorded
            assert tree.run(paths) == before[paths] + [("walked", False)], (change, paths)
        tree.write(change)
        after = {paths: tree.run(paths, cache=False)[:-1] for paths in arguments}
        assert after != before, change  # what a run reports changes with it
        for paths in arguments:
            assert tree.run(paths)[:-1] == after[paths], (change, paths)


def test_a_run_is_not_recorded_when_a_status_would_not_tell_what_decided_it(tmp_path, monkeypatch):
    """A file that cannot be processed may become processable with no status changing (a
    permission, a locale), and a symlink's target may change where the walk did not look."""
    tree = RunTree(tmp_path / "project", monkeypatch)
    tree.write({"app/broken.py": "import openai\nopenai.chat.completions.create(\n"})
    tree.run(".")
    assert tree.run(".")[-1] == ("walked", True)
    tree.write({"app/broken.py": None})
    (tree.root / "app" / "linked").symlink_to(tree.root / "app" / "tools")
    tree.run(".")
    assert tree.run(".")[-1] == ("walked", True)
    (tree.root / "app" / "linked").unlink()
    tree.write({})
    tree.run(".")
    assert tree.run(".")[-1] == ("walked", False)


def test_a_run_is_not_recorded_from_what_changed_too_recently_to_tell_apart(tmp_path, monkeypatch):
    tree = RunTree(tmp_path / "project", monkeypatch)
    monkeypatch.setattr(cache_module, "RACY_SECONDS", 3)  # the files were written (their change time) just now
    tree.run(".")
    assert tree.run(".")[-1] == ("walked", True)


def test_a_run_with_a_record_that_does_not_hold_walks_again(tmp_path, monkeypatch):
    tree = RunTree(tmp_path / "project", monkeypatch)
    expected = tree.run(".", cache=False)[:-1]
    tree.run(".")
    [record] = tree.cache.glob("v*/runs/*.json")
    for corrupt in (b"", b"[]", b'{"statuses": {}, "existences": {}, "files": [["a.py", 3]]}'):
        record.write_bytes(corrupt)
        assert tree.run(".") == expected + [("walked", True)]
    for entry in tree.cache.glob("v*/??/*.json"):  # the results it points to are gone
        entry.unlink()
    assert tree.run(".") == expected + [("walked", True)]


def test_only_the_last_runs_with_other_arguments_are_kept(tmp_path, monkeypatch):
    """A pre-commit hook checks other files at each commit: each set has its own record, and
    the cache keeps the last few."""
    monkeypatch.setattr(cache_module, "RUN_RECORDS", 2)
    tree = RunTree(tmp_path / "project", monkeypatch)
    for paths in ("app/call.py", "app/plain.py", "app"):
        tree.run(paths)
        time.sleep(0.01)  # one record after the other
    assert len(list(tree.cache.glob("v*/runs/*.json"))) == 2
    assert tree.run("app")[-1] == ("walked", False) and tree.run("app/plain.py")[-1] == ("walked", False)
    assert tree.run("app/call.py")[-1] == ("walked", True)
