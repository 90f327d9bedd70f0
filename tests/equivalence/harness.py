"""Run programs against the fake server and compare a run before migration with a run after.

Typical use (see ``tests/test_equivalence.py``)::

    with Bench() as bench:
        fixture = ProgramFixture.named("one_shot_system_prompt")
        original = bench.run(fixture.original, fixture.turns())
        migrated = bench.run(fixture.expected, fixture.turns())
        assert_equivalent(original, migrated)

A program fixture is a folder under ``programs/`` holding ``program.py`` (a Chat Completions
program that builds its client with SDK defaults, ``OpenAI()`` / ``AsyncOpenAI()``, and prints
what it gets), ``expected_responses.py`` (the same program correctly migrated by hand) and
``scenario.json`` (the model's turns, see ``scenario``).
"""

from __future__ import annotations

import difflib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence

from migrator.model import Options

from .fake_openai import CHAT_PATH, COMPLETIONS_PATH, RESPONSES_PATH, FakeOpenAI, RecordedRequest, Violation
from .output_format import text_config
from .scenario import Turn, load_scenario

PROGRAMS_DIR = Path(__file__).parent / "programs"
_PRELOADED = Path(__file__).parent / "preloaded.py"
_WARM_UP = Path(__file__).parent / "warm_up"
_PROXY_VARIABLES = {"http_proxy", "https_proxy", "all_proxy", "no_proxy"}


@dataclass
class RunResult:
    """What one run of a program did."""

    program: Path
    exit_code: int
    stdout: str
    stderr: str
    requests: List[RecordedRequest]
    violations: List[Violation]
    unused_turns: int  # scenario turns no request consumed

    @property
    def answered(self) -> int:
        """How many requests got a model turn (the others were rejected)."""
        return len(self.requests) - len(self.violations)

    @property
    def endpoints(self) -> List[str]:
        """The distinct endpoints the program hit, sorted."""
        return sorted({request.endpoint for request in self.requests})


EXPECTED_TREE = "expected"  # the hand migration of a program of several modules


@dataclass(frozen=True)
class ProgramFixture:
    """A folder ``programs/<name>/`` with program.py, expected_responses.py and scenario.json."""

    folder: Path

    @classmethod
    def named(cls, name: str) -> "ProgramFixture":
        return cls(PROGRAMS_DIR / name)

    @property
    def name(self) -> str:
        return self.folder.name

    @property
    def original(self) -> Path:
        return self.folder / "program.py"

    @property
    def expected(self) -> Path:
        """The hand migration: ``expected_responses.py``, or for a program of several modules
        the ``program.py`` of the migrated copy in ``expected/``."""
        tree = self.folder / EXPECTED_TREE
        return tree / "program.py" if tree.is_dir() else self.folder / "expected_responses.py"

    @property
    def modules(self) -> List[Path]:
        """The original's modules besides ``program.py`` (a package it imports), relative to the folder."""
        return sorted(
            path.relative_to(self.folder)
            for path in self.folder.rglob("*.py")
            if path.parts[len(self.folder.parts)] != EXPECTED_TREE and path.name not in ("program.py", "expected_responses.py")
        )

    def turns(self) -> List[Turn]:
        return load_scenario(self.folder / "scenario.json")

    @property
    def options(self) -> Options:
        """The options the engine migrates it with: ``options.txt`` names the ``Options``
        fields switched on, one per line (as for fixtures)."""
        path = self.folder / "options.txt"
        names = path.read_text(encoding="utf-8").split() if path.exists() else []
        return Options(**{name: True for name in names})


def discover_programs(root: Path = PROGRAMS_DIR) -> List[ProgramFixture]:
    """Every program fixture under ``root``, by name."""
    return [ProgramFixture(folder) for folder in sorted(root.iterdir()) if (folder / "program.py").is_file()]


def _clean_environment() -> dict:
    """This process's environment minus anything that could reach a real service or change the SDK."""
    return {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("OPENAI_") and name.lower() not in _PROXY_VARIABLES
    }


class Bench:
    """The fake server and a preloaded interpreter; runs programs one at a time against a scenario.

    Open it once per test module (it costs one ``import openai``) and call ``run`` per program:
    each run gets a fresh scenario on the same server.
    """

    def __init__(self) -> None:
        self.server = FakeOpenAI().start()
        self._scratch = tempfile.TemporaryDirectory(prefix="equivalence-")
        self._interpreter = subprocess.Popen(
            [sys.executable, str(_PRELOADED)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=_clean_environment(),
            bufsize=0,
        )
        self._unread = b""  # answer bytes read from the pipe but not yet consumed
        try:
            self._warm_up()
        except BaseException:
            self.close()
            raise

    def _warm_up(self) -> None:
        self.server.load(load_scenario(_WARM_UP / "scenario.json"))
        self._send({"warm_up": {"program": str(_WARM_UP / "program.py"), "env": self.environment()}})
        answer = self._receive(timeout=120.0)
        problems = [violation.describe() for violation in self.server.violations]
        if answer is None or not answer["warm"] or problems or self.server.remaining_turns:
            details = answer.get("error", "") if answer else "no answer in time"
            raise RuntimeError("warm_up/program.py failed:\n" + "\n".join([details, *problems]))

    def close(self) -> None:
        self._interpreter.stdin.close()  # the preloaded process ends when its job pipe closes
        self._interpreter.wait(timeout=10)
        self._interpreter.stdout.close()
        self.server.stop()
        self._scratch.cleanup()

    def __enter__(self) -> "Bench":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def environment(self) -> dict:
        """The environment a program runs with: the SDK's defaults point it at the fake server."""
        return {
            **_clean_environment(),
            "OPENAI_BASE_URL": self.server.base_url,
            "OPENAI_API_KEY": "test",
            # What AzureOpenAI() reads: the fake server answers Azure's paths as well.
            "AZURE_OPENAI_ENDPOINT": self.server.base_url.removesuffix("/v1"),
            "AZURE_OPENAI_API_KEY": "test",
            "NO_PROXY": "127.0.0.1,localhost",
            "PYTHONIOENCODING": "utf-8",
        }

    def run(self, program: Path, turns: Sequence[Turn], timeout: float = 30.0) -> RunResult:
        """Run ``program`` (in its own folder) against a fresh server loaded with ``turns``."""
        self.server.load(turns)
        stdout_path = Path(self._scratch.name, "stdout")
        stderr_path = Path(self._scratch.name, "stderr")
        job = {
            "program": str(program),
            "cwd": str(Path(program).parent),
            "env": self.environment(),
            "stdout": str(stdout_path),
            "stderr": str(stderr_path),
        }
        self._send(job)
        forked = self._receive(timeout=10.0)
        if forked is None:
            raise RuntimeError("the preloaded interpreter did not start the program")
        pid = forked["pid"]
        answer = self._receive(timeout)
        if answer is None:  # the program hangs: kill it (it is our own child's child)
            os.kill(pid, signal.SIGKILL)
            answer = self._receive(timeout=10.0)
        stderr = stderr_path.read_text(encoding="utf-8", errors="replace")
        if answer.get("exit_code") == -signal.SIGKILL:
            stderr += f"\n[harness] killed after {timeout} s\n"
        return RunResult(
            program=Path(program),
            exit_code=answer["exit_code"],
            stdout=stdout_path.read_text(encoding="utf-8", errors="replace"),
            stderr=stderr,
            requests=self.server.requests,
            violations=self.server.violations,
            unused_turns=self.server.remaining_turns,
        )

    def _send(self, job: dict) -> None:
        self._interpreter.stdin.write(json.dumps(job).encode() + b"\n")

    def _receive(self, timeout: float) -> Optional[dict]:
        """The next answer of the preloaded process, or None after ``timeout`` seconds of silence.

        Reads the raw pipe (no buffered readline) so that ``select`` sees every byte not yet read.
        """
        deadline = time.monotonic() + timeout
        pipe = self._interpreter.stdout.fileno()
        while b"\n" not in self._unread:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([pipe], [], [], remaining)[0]:
                return None
            chunk = os.read(pipe, 65536)
            if not chunk:
                raise RuntimeError(f"the preloaded interpreter died (exit code {self._interpreter.poll()})")
            self._unread += chunk
        line, _, self._unread = self._unread.partition(b"\n")
        return json.loads(line)


# -- comparing runs ------------------------------------------------------------------------------


def _violation_report(run: RunResult) -> List[str]:
    return [f"{run.program.name}: {violation.describe()}" for violation in run.violations]


def original_problems(run: RunResult) -> List[str]:
    """Why a run of an original program is not a valid baseline (empty when it is).

    The original must succeed, use only the Chat (or legacy) Completions endpoints, send nothing
    the server rejects and consume the whole scenario: otherwise comparing against it proves little.
    """
    problems = _violation_report(run)
    if run.exit_code != 0:
        problems.append(f"{run.program.name} exited with {run.exit_code}:\n{run.stderr}")
    stray = [endpoint for endpoint in run.endpoints if endpoint not in (CHAT_PATH, COMPLETIONS_PATH)]
    if stray:
        problems.append(f"{run.program.name} hit {stray}; an original program uses Chat Completions only")
    if run.unused_turns:
        problems.append(f"{run.program.name} left {run.unused_turns} scenario turn(s) unused")
    return problems


def equivalence_problems(original: RunResult, migrated: RunResult) -> List[str]:
    """How the migrated run differs from the original one (empty when they are equivalent).

    Equivalent means: the migrated program used only ``/v1/responses``, sent nothing the
    Responses API rejects, got as many answers from the model, and exited with the same code after printing
    exactly the same stdout; and each request asked for the same output format (``text.format``, verbosity)
    as the original request it replaces.
    """
    problems = _violation_report(migrated)
    stray = [endpoint for endpoint in migrated.endpoints if endpoint != RESPONSES_PATH]
    if stray:
        problems.append(f"the migrated program still hit {stray}; it must use {RESPONSES_PATH} only")
    if migrated.answered != original.answered:
        problems.append(
            f"the model answered {original.answered} request(s) of the original, {migrated.answered} of the migrated program"
        )
    problems += _output_format_problems(original, migrated)
    if migrated.exit_code != original.exit_code:
        problems.append(
            f"exit code {original.exit_code} before migration, {migrated.exit_code} after; "
            f"stderr after migration:\n{migrated.stderr}"
        )
    if migrated.stdout != original.stdout:
        diff = difflib.unified_diff(
            original.stdout.splitlines(keepends=True),
            migrated.stdout.splitlines(keepends=True),
            fromfile=f"stdout of {original.program.name}",
            tofile=f"stdout of {migrated.program.name}",
        )
        problems.append("stdout differs:\n" + "".join(diff))
    return problems


def _output_format_problems(original: RunResult, migrated: RunResult) -> List[str]:
    """Requests, paired in order, that ask the model for different output formats or verbosity."""
    if len(original.requests) != len(migrated.requests):
        return []  # reported as a different number of answers
    problems = []
    for number, (before, after) in enumerate(zip(original.requests, migrated.requests), 1):
        if text_config(before.body) != text_config(after.body):
            problems.append(
                f"request {number} asks for another output format: {json.dumps(text_config(before.body))} "
                f"before migration, {json.dumps(text_config(after.body))} after"
            )
    return problems


def assert_equivalent(original: RunResult, migrated: RunResult) -> None:
    """Fail with every difference (rejected requests, exit codes, a stdout diff) at once."""
    problems = original_problems(original) + equivalence_problems(original, migrated)
    assert not problems, "\n\n".join(problems)
