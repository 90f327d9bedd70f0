"""Benchmark `migrator` on real code, against baselines and peers measured in the same run.

    python bench/run.py [--tree 2026|2025] [--small] [--skip-parse]

Builds a tree from pinned PyPI wheels (large pure-Python projects, and projects that really
call Chat Completions), downloaded once with `pip download --no-deps` into bench/.cache/
(ignored by git): by default the releases of 2026-12-03, with `--tree 2025` those of January
2025 that earlier figures were measured on. It installs the peers, ruff and ast-grep (pinned in
`PEERS`), into a virtualenv of their own under bench/.cache/peers, then times, each as a fresh
process:

- `rg -l completions` over the tree (`grep -rl` where ripgrep is absent): reading every file;
- `ruff check --select E,F --no-cache` over the tree: a linter reading every file;
- `ast-grep run -p '$C.chat.completions.create($$$A)'` over the tree: a structural search for
  the calls `migrator` is about;
- LibCST `parse_module` of every file, in one process (bench/parse_all.py);
- `migrator check` with a cold cache, then again with the cache warm;
- `migrator diff` (no cache);
- on a candidate-heavy tree (the files of all the pinned packages that mention
  `chat.completions` or `choices[0]`): LibCST's parse of every file, `migrator check --jobs 1`
  and `--jobs 2`;
- start-up: `python -c pass`, `migrator check` on a file without candidates, `python -c
  "import libcst"` and `migrator check` on one small candidate file (median of several runs).

It prints ratios to those baselines and peers, files and lines per second, peak memory (the
largest resident set of the process and its workers, from `getrusage`), candidate counts (what
the prefilter lets through, and what the screen passes on to LibCST) and a table of the targets
(each with the ratio measured and whether it is met: nothing fails), as Markdown for README.md.
Each figure is the run of median wall time of three (of nine for the text search and the warm
check, which take a fraction of a second; the parse of the whole tree, minutes long, is run
once); timings are seconds on this machine, and only the ratios travel. Run it from a plain
install (`pip install .`): an editable one's finder runs at every start of Python, and the
start-up section says so when it finds one. `--small` uses six of the packages (a tree a fifth
the size) for a loaded machine; `--skip-parse` leaves out the parse of the whole tree (minutes
on a large tree).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
CACHE = BENCH / ".cache"
DOWNLOADS = CACHE / "downloads"
TREE = CACHE / "tree"
CANDIDATES = CACHE / "candidates"
STARTUP = CACHE / "startup"
PEERS_ENV = CACHE / "peers"


@dataclass(frozen=True)
class Tree:
    """A set of pinned wheels to measure on: exact versions, so that every run measures the same code."""

    large_projects: Tuple[str, ...]  # large pure-Python projects, mostly without a candidate
    chat_completions_users: Tuple[str, ...]  # projects that really call Chat Completions
    small: Tuple[str, ...]  # the `--small` tree, a fifth of the size

    @property
    def packages(self) -> Tuple[str, ...]:
        return self.large_projects + self.chat_completions_users


TREES = {
    # The releases of 2026-12-03 installable on Python 3.11 (Django 6 needs 3.12), the packages the
    # figures of issue #20 were measured on. LiteLLM's wheels now carry one native module beside
    # its Python sources: pip picks this platform's wheel.
    "2026": Tree(
        large_projects=("django==5.2.19", "sympy==1.14.0", "botocore==1.44.8", "langchain-core==1.8.4"),
        chat_completions_users=("openai==3.57.0", "openai-agents==0.24.0", "instructor==1.17.0", "litellm==1.110.2",
                                "langchain-openai==1.8.1", "langchain-community==0.4.2", "smolagents==1.26.0"),
        small=("django==5.2.19", "langchain-core==1.8.4", "openai-agents==0.24.0", "instructor==1.17.0",
               "langchain-openai==1.8.1", "smolagents==1.26.0"),
    ),
    # The tree of the figures measured until 2026-12-01: releases of January 2025.
    "2025": Tree(
        large_projects=("django==5.1.4", "sympy==1.13.3", "botocore==1.35.99", "networkx==3.4.2", "kubernetes==31.0.0",
                        "twisted==24.11.0", "langchain==0.3.13"),
        chat_completions_users=("openai==1.59.3", "openai-agents==0.0.19", "instructor==1.7.2", "litellm==1.57.0",
                                "langchain-openai==0.3.0", "langchain-community==0.3.13", "smolagents==1.9.2"),
        small=("django==5.1.4", "networkx==3.4.2", "openai-agents==0.0.19", "instructor==1.7.2",
               "langchain-openai==0.3.0", "smolagents==1.9.2"),
    ),
}
DEFAULT_TREE = "2026"
# The peers, timed in the same run, installed once into their own environment (bench/.cache/peers).
# The tree lies in bench/.cache/, which the project's .gitignore excludes, and ruff would read the
# project's configuration: the flags make both read every file of the tree, as `migrator` does.
PEERS = ("ruff==0.17.6", "ast-grep-cli==0.51.1")
RUFF = ("ruff", "check", "--select", "E,F", "--no-cache", "--isolated", "--no-respect-gitignore", "--quiet")
AST_GREP = ("ast-grep", "run", "-p", "$C.chat.completions.create($$$A)", "--lang", "python", "--no-ignore", "vcs")
CANDIDATE_MARKERS = (b"chat.completions", b"choices[0]")  # what makes a file candidate-heavy
STARTUP_REPEATS = 9
RUNS = 3  # of each measure but the parse of the whole tree, the median of which is reported
QUICK_RUNS = 9  # of the sub-second ones (the text search, a warm check), which a busy machine moves most
FINDING = re.compile(r"^\S.*:\d+:\d+: ")  # a finding line of `check`
# The body of the console script pip writes for `migrator = "migrator.quick:main"`.
CONSOLE_SCRIPT = "import sys; from migrator.quick import main; sys.argv[0] = 'migrator'; sys.exit(main())"


@dataclass
class Measure:
    """One timed process."""

    seconds: float  # wall clock
    cpu: float  # user + system seconds of the process and its workers
    peak_mb: float
    returncode: int
    stdout: str
    stderr: str


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", choices=sorted(TREES), default=DEFAULT_TREE,
                        help=f"which pinned releases to measure on (default {DEFAULT_TREE})")
    parser.add_argument("--small", action="store_true", help="six of the tree's packages, a fifth of its size")
    parser.add_argument("--skip-parse", action="store_true", help="leave out the LibCST parse of the whole tree")
    args = parser.parse_args()
    tree = TREES[args.tree]
    wheels = download(tree.packages)
    packages = tree.small if args.small else tree.packages
    files, lines = build_tree(packages, [wheel for spec, wheel in zip(tree.packages, wheels) if spec in packages])
    candidate_files, candidate_lines = build_candidate_tree(wheels)
    print(f"tree {args.tree}: {files} files, {lines} lines from {len(packages)} packages; "
          f"candidate-heavy tree: {candidate_files} files, {candidate_lines} lines", file=sys.stderr)
    peers = install_peers()

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "migrator"), str(ROOT / "rules")], check=True)
    rows: List[List[str]] = []
    text_name, text = text_search()
    ruff = median([timed([str(peers / RUFF[0]), *RUFF[1:], str(TREE)]) for _ in range(RUNS)])
    ast_grep = median([timed([str(peers / AST_GREP[0]), *AST_GREP[1:], str(TREE)]) for _ in range(RUNS)])
    parse = None if args.skip_parse else timed([sys.executable, str(BENCH / "parse_all.py"), str(TREE)])
    cache_dir = CACHE / "migrator_cache"
    colds = []
    for _ in range(RUNS):
        shutil.rmtree(cache_dir, ignore_errors=True)
        colds.append(migrator(["check", str(TREE)], cache_dir))
    cold = median(colds)
    warm = median([migrator(["check", str(TREE)], cache_dir) for _ in range(QUICK_RUNS)])
    diff = median([migrator(["diff", "--no-cache", str(TREE)]) for _ in range(RUNS)])
    candidate_parses, jobs1s, jobs2s = [], [], []
    for _ in range(RUNS):  # in turn, so that a change in the machine's speed touches all alike
        candidate_parses.append(timed([sys.executable, str(BENCH / "parse_all.py"), str(CANDIDATES)]))
        jobs1s.append(migrator(["check", "--no-cache", "--jobs", "1", str(CANDIDATES)]))
        jobs2s.append(migrator(["check", "--no-cache", "--jobs", "2", str(CANDIDATES)]))
    candidate_parse, jobs1, jobs2 = median(candidate_parses), median(jobs1s), median(jobs2s)

    def row(name: str, measure: Measure, ratio: str, count: int = files, count_lines: int = lines) -> None:
        rows.append([name, f"{measure.seconds:.2f}", f"{measure.cpu:.2f}", ratio, f"{count / measure.seconds:,.1f}",
                     f"{count_lines / measure.seconds:,.0f}", f"{measure.peak_mb:.0f}"])

    baseline = "1 (baseline)"
    row(text_name, text, baseline)
    row(f"`{shlex.join(RUFF)}`", ruff, baseline)
    row(f"`{shlex.join(AST_GREP)}`", ast_grep, baseline)
    if parse:
        row("LibCST `parse_module` of every file, one process", parse, baseline)
    row("`migrator check`, cold cache", cold, versus(cold, [("ast-grep", ast_grep), ("ruff", ruff), ("the parse", parse)]))
    row("`migrator check`, warm cache", warm, versus(warm, [("the text search", text)]))
    row("`migrator diff`", diff, versus(diff, [("cold `check`", cold), ("the parse", parse)]))
    row("LibCST `parse_module`, candidate-heavy tree", candidate_parse, baseline, candidate_files, candidate_lines)
    row("`migrator check --jobs 1`, candidate-heavy tree", jobs1, versus(jobs1, [("the parse", candidate_parse)]),
        candidate_files, candidate_lines)
    row("`migrator check --jobs 2`, candidate-heavy tree", jobs2,
        f"{jobs1.seconds / jobs2.seconds:.2f}x as fast as `--jobs 1`", candidate_files, candidate_lines)

    print(f"Tree {args.tree}{' (small)' if args.small else ''}: {files:,} files, {lines:,} lines from "
          f"{len(packages)} packages ({', '.join(packages)}); candidate-heavy tree: {candidate_files:,} files, "
          f"{candidate_lines:,} lines. Peers: {', '.join(PEERS)}.")
    print()
    print("| what | wall s | CPU s | ratio, wall (CPU) | files/s | lines/s | peak MB |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: |")
    for cells in rows:
        print("| " + " | ".join(cells) + " |")
    print()
    print_counts(files, cold, warm, diff)
    print()
    startup = measure_startup()
    print()
    targets = [
        Target("cold `check` of the tree", "ast-grep's search of it", 1, *ratios(cold, ast_grep)),
        Target("`check --jobs 1` of the candidate-heavy tree", "LibCST's parse of it", 1.5,
               *ratios(jobs1, candidate_parse)),
        Target("warm `check`", "the text search", 3, *ratios(warm, text)),
        Target("`diff` of the tree", "cold `check`", 2, *ratios(diff, cold)),
        Target("`check` of one small candidate (pre-commit)", '`python -c "import libcst"`', 1.5,
               *startup.small_candidate),
        Target("`check` of one file without candidates", "`python -c pass`", 3, *startup.no_candidate),
        Target("`check --jobs 2`'s speed", "`--jobs 1`'s", 1.6, *ratios(jobs1, jobs2), at_least=True),
    ]
    if parse:
        targets += [Target("cold `check`", "the parse of the tree", 1 / 20, *ratios(cold, parse)),
                    Target("`diff`", "the parse of the tree", 1 / 10, *ratios(diff, parse))]
    print("Targets (wall time decides; nothing fails, it is a measure):")
    print()
    for line in targets_table(targets):
        print(line)


# --- the tree ---------------------------------------------------------------------------------


def download(packages: Sequence[str]) -> List[Path]:
    """The pinned wheels, downloaded once (pip download --no-deps) into bench/.cache/downloads."""
    DOWNLOADS.mkdir(parents=True, exist_ok=True)
    wheels = []
    for spec in packages:
        wheel = find_wheel(spec)
        if wheel is None:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--quiet",
                 "--dest", str(DOWNLOADS), spec],
                check=True,
            )
            wheel = find_wheel(spec)
        if wheel is None:
            raise SystemExit(f"pip download {spec} brought no wheel into {DOWNLOADS}")
        wheels.append(wheel)
    return wheels


def find_wheel(spec: str) -> Optional[Path]:
    name, version = spec.split("==")
    normalized = name.replace("-", "_").lower()
    for wheel in DOWNLOADS.glob("*.whl"):
        wheel_name, wheel_version = wheel.name.split("-")[:2]
        if wheel_name.lower() == normalized and wheel_version == version:
            return wheel
    return None


def build_tree(packages: Sequence[str], wheels: Sequence[Path]) -> tuple:
    """Every .py file of the wheels under bench/.cache/tree/<wheel>/; rebuilt when the pins change."""
    stamp = TREE / ".packages.json"
    if not (stamp.exists() and json.loads(stamp.read_text()) == list(packages)):
        shutil.rmtree(TREE, ignore_errors=True)
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as archive:
                for member in archive.namelist():
                    if member.endswith(".py") and ".dist-info/" not in member:
                        archive.extract(member, TREE / wheel.name.split("-")[0])
        stamp.write_text(json.dumps(list(packages)))
    return count(TREE)


def build_candidate_tree(wheels: Sequence[Path]) -> tuple:
    """The files of all the pinned packages that mention Chat Completions, in bench/.cache/candidates/."""
    shutil.rmtree(CANDIDATES, ignore_errors=True)
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.namelist():
                if member.endswith(".py") and any(marker in archive.read(member) for marker in CANDIDATE_MARKERS):
                    archive.extract(member, CANDIDATES / wheel.name.split("-")[0])
    return count(CANDIDATES)


def count(tree: Path) -> tuple:
    paths = list(tree.rglob("*.py"))
    return len(paths), sum(path.read_bytes().count(b"\n") for path in paths)


def install_peers() -> Path:
    """The folder of the peers' commands: a virtualenv of their own in bench/.cache/peers, made
    once (again when the pins change), so that neither this Python nor the project depends on them."""
    stamp = PEERS_ENV / ".peers.json"
    if not (stamp.exists() and json.loads(stamp.read_text()) == list(PEERS)):
        shutil.rmtree(PEERS_ENV, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(PEERS_ENV)], check=True)
        subprocess.run([str(PEERS_ENV / "bin" / "python"), "-m", "pip", "install", "--quiet", *PEERS], check=True)
        stamp.write_text(json.dumps(list(PEERS)))
    return PEERS_ENV / "bin"


# --- measuring --------------------------------------------------------------------------------

# Runs the command as its only child, so that getrusage(RUSAGE_CHILDREN) is that command's (and
# its workers'): ru_maxrss is the largest resident set among them, in kB on Linux.
WRAPPER = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True, env=json.loads(sys.stdin.readline()))
seconds = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
json.dump([seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, done.returncode, done.stdout, done.stderr],
          sys.stdout)
"""


def environment() -> Dict[str, str]:
    """This one, with the checkout importable, and bytecode as an installed package has it:
    compiled once (see `main`) and never left stale, which would recompile modules on every start."""
    return {**{name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"},
            "PYTHONPATH": str(ROOT)}


def timed(command: Sequence[str], env: Optional[Dict[str, str]] = None) -> Measure:
    environment_of_run = {**environment(), **(env or {})}
    print(f"running: {shlex.join(command)}", file=sys.stderr)
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, *command],
        input=json.dumps(environment_of_run) + "\n", capture_output=True, text=True, check=True, cwd=CACHE,
    )
    seconds, cpu, peak_kb, returncode, stdout, stderr = json.loads(done.stdout)
    print(f"  {seconds:.2f} s wall, {cpu:.2f} s CPU, exit {returncode}", file=sys.stderr)
    if returncode not in (0, 1):
        print(f"  {stderr[-2000:]}", file=sys.stderr)
    return Measure(seconds, cpu, peak_kb / 1024, returncode, stdout, stderr)


def median(measures: Sequence[Measure]) -> Measure:
    """The run of median wall time: on a shared machine one slow or one lucky run says little."""
    return sorted(measures, key=lambda measure: measure.seconds)[len(measures) // 2]


def migrator(args: Sequence[str], cache_dir: Optional[Path] = None) -> Measure:
    env = {"MIGRATOR_CACHE_DIR": str(cache_dir)} if cache_dir else {}
    return timed([sys.executable, "-m", "migrator", *args], env)


def text_search() -> tuple:
    if shutil.which("rg"):
        return "`rg -l completions`", median([timed(["rg", "-l", "completions", str(TREE)]) for _ in range(QUICK_RUNS)])
    command = ["grep", "-rl", "--include=*.py", "completions", str(TREE)]
    return "`grep -rl completions` (no ripgrep here)", median([timed(command) for _ in range(QUICK_RUNS)])


def versus(measure: Measure, baselines: Sequence[Tuple[str, Optional[Measure]]]) -> str:
    """`measure` as a fraction or multiple of each baseline that was measured, wall (CPU)."""
    return ", ".join(f"{fraction(measure.seconds, base.seconds)} ({fraction(measure.cpu, base.cpu)}) {name}"
                     for name, base in baselines if base)


def ratios(measure: Measure, base: Measure) -> Tuple[float, float]:
    """Wall and CPU time of `measure` over those of `base`."""
    return measure.seconds / base.seconds, measure.cpu / base.cpu


def fraction(part: float, whole: float) -> str:
    """`1/8` when `part` is the smaller, `2.5x` when it is the larger."""
    return f"1/{whole / part:.1f}" if part < whole else f"{part / whole:.1f}x"


def print_counts(files: int, cold: Measure, warm: Measure, diff: Measure) -> None:
    sys.path.insert(0, str(ROOT))
    from migrator.prefilter import is_candidate, needed_texts
    from migrator.screen import needs_libcst

    needs = needed_texts()
    candidates = [source for source in (path.read_bytes() for path in TREE.rglob("*.py")) if is_candidate(source, needs)]
    parsed = sum(needs_libcst(source, needs) for source in candidates)
    finding_lines = [line for line in cold.stdout.splitlines() if FINDING.match(line)]
    findings = len(finding_lines)
    with_findings = len({line.split(":", 1)[0] for line in finding_lines})
    changed = diff.stdout.count("\n+++ b/") + diff.stdout.startswith("+++ b/")
    print(f"Candidates (files the prefilter lets through): {len(candidates)} of {files} "
          f"({100 * len(candidates) / files:.1f} %), of which the screen passes {parsed} to LibCST. Findings: {findings} in {with_findings} files; "
          f"`diff` changes {changed} files. Warm and cold `check` agree: {cold.stdout == warm.stdout}.")
    for name, measure in (("check", cold), ("diff", diff)):
        summary = [line for line in measure.stderr.splitlines() if "scanned" in line]
        print(f"`{name}` says: {summary[-1] if summary else measure.stderr[-300:]!r}")


@dataclass(frozen=True)
class Startup:
    """Wall and CPU ratios of a `check` of one file to what Python costs anyway."""

    no_candidate: Tuple[float, float]  # to `python -c pass`
    small_candidate: Tuple[float, float]  # to `python -c "import libcst"`


def measure_startup() -> Startup:
    """Prints the start-up times and returns their ratios."""
    STARTUP.mkdir(parents=True, exist_ok=True)
    plain = STARTUP / "plain.py"
    plain.write_text("def main():\n    print('hello')\n")
    candidate = STARTUP / "candidate.py"
    candidate.write_text(
        "from openai import OpenAI\n\nclient = OpenAI()\n"
        "r = client.chat.completions.create(model='gpt-4o-mini', messages=[{'role': 'user', 'content': 'Hi'}])\n"
        "print(r.choices[0].message.content)\n"
    )
    python = sys.executable
    command = [python, "-c", CONSOLE_SCRIPT]  # what the installed `migrator` runs (not `-m`: no runpy)
    runs = {
        "`python -c pass`": [python, "-c", "pass"],
        "`migrator check` one file, no candidate": [*command, "check", str(plain)],
        '`python -c "import libcst"`': [python, "-c", "import libcst"],
        "`migrator check --no-cache` one small candidate": [*command, "check", "--no-cache", str(candidate)],
    }
    wall: Dict[str, float] = {}
    cpu: Dict[str, float] = {}
    for name, command in runs.items():
        wall[name], cpu[name] = medians(command)
    names = list(runs)
    finders = editable_finders()
    if finders:
        print(f"This Python loads editable installs at every start ({', '.join(finders)}), `python -c pass` "
              "included: that flatters the start-up ratios. A plain install (`pip install .`) measures what users get.")
    print(f"Start-up (median of {STARTUP_REPEATS} runs, wall / CPU): " + "; ".join(
        f"{name} {wall[name] * 1000:.0f} / {cpu[name] * 1000:.0f} ms" for name in names) + ".")
    return Startup(*((wall[names[measured]] / wall[names[base]], cpu[names[measured]] / cpu[names[base]])
                     for base, measured in ((0, 1), (2, 3))))


def editable_finders() -> List[str]:
    """The editable installs' start-up files in this Python's site-packages: each is run at
    every start of Python (setuptools' finder costs about 17 ms), whatever the command."""
    import site

    return sorted(path.name for folder in site.getsitepackages() for path in Path(folder).glob("__editable__*.pth"))


def medians(command: Sequence[str]) -> tuple:
    """Median wall and CPU seconds of the command over `STARTUP_REPEATS` runs."""
    env = environment()
    wall, cpu = [], []
    for _ in range(STARTUP_REPEATS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, env=env, cwd=CACHE)
        wall.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(wall), statistics.median(cpu)


@dataclass(frozen=True)
class Target:
    """A ratio the tool aims at, and the ratio measured."""

    what: str
    baseline: str
    limit: float  # the ratio to stay within, or with `at_least` to reach
    wall: float  # measured, wall time: what decides
    cpu: float  # measured, CPU time
    at_least: bool = False

    @property
    def met(self) -> bool:
        return self.wall >= self.limit if self.at_least else self.wall <= self.limit


def targets_table(targets: Sequence[Target]) -> List[str]:
    """The targets as the lines of a Markdown table."""
    lines = ["| target | measured, wall (CPU) | met |", "| --- | --- | --- |"]
    for target in targets:
        limit = f"1/{1 / target.limit:g} of" if target.limit < 1 else f"{target.limit:g}x"
        lines.append(f"| {target.what} {'≥' if target.at_least else '≤'} {limit} {target.baseline} "
                     f"| {fraction(target.wall, 1)} ({fraction(target.cpu, 1)}) | {'yes' if target.met else 'no'} |")
    return lines


if __name__ == "__main__":
    main()
